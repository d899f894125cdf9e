"""Hold the Line: a tiny cooperative game on the engine API, for the lab's co-op tests.

Rules: a shared ``threat`` starts at ``start_threat``. Seats take turns in order; a round is one
turn of every seat. On its turn a seat plays ``work`` (the threat drops by 0, 1 or 2, drawn from
the state's chance stream) or ``rest`` (nothing happens). The team wins the moment the threat
reaches 0 (cause ``"cleared"``). After the last seat of a round the threat rises by 0 to
``players`` (a draw); at ``max_threat`` or more the team is overrun and loses (cause
``"overrun"``). After ``max_rounds`` rounds the game is truncated (cause ``"truncation"``).
Every seat's return is 1 on a team win, else 0. Length counts rounds.

Importing this module does not register the game (so the suites parametrized over
``game_names()`` never see it); a test registers it for its own duration with
:func:`registered`. Its bots: ``random`` and ``worker`` (always works).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from meeple.engine import (
    Action,
    ActionParseError,
    Bot,
    Capabilities,
    Game,
    Parameter,
    ParameterError,
    State,
    Variant,
    registry,
)

NAME = "coop-example"


class CoopAction(Action):
    """``work`` or ``rest`` (not tied to a seat: the seat to act plays it)."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        object.__setattr__(self, "word", word)

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"CoopAction({self.word!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is CoopAction and other.word == self.word

    def __hash__(self) -> int:
        return hash(("coop-example", self.word))


WORK, REST = CoopAction("work"), CoopAction("rest")


class WorkerBot(Bot):
    """Always works (the best play: the team's line-up to compare with random)."""

    name = "worker"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return WORK if WORK in legal_actions else legal_actions[0]


class CoopExample(Game):
    """Hold the Line for 2-4 seats (see the module docstring)."""

    name = NAME
    title = "Hold the Line (test only)"
    summary = "cooperative: work the shared threat down to 0 before it overruns the team"
    score_name = "final threat"
    rules_page = "tests/coop_example.py"
    parameters = (
        Parameter("start_threat", 5, "threat at the start", minimum=1, maximum=50),
        Parameter("max_threat", 10, "threat that overruns the team", minimum=2, maximum=100),
        Parameter("max_rounds", 12, "safety cap on rounds (X-5)", minimum=1, maximum=1000),
    )
    variants = (Variant("standard", "threat 5 of 10, 12 rounds"),)
    min_players, max_players, default_players = 2, 4, 3
    __slots__ = ()

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=False,
                            hidden_information=False, chance=True, cooperative=True,
                            max_length=self.params["max_rounds"], length_unit="rounds")

    def new_initial_state(self, seed: int = 0) -> CoopState:
        return CoopState(self, seed)

    def parse_action(self, text: str, seat: int) -> CoopAction:
        word = text.strip().lower()
        if word in ("work", "w"):
            return WORK
        if word in ("rest", "r"):
            return REST
        raise ActionParseError(f"cannot read {text!r}: write 'work' or 'rest'")

    def _state_from_data(self, data: Mapping[str, Any]) -> CoopState:
        state = CoopState(self, 0)
        try:
            state.threat, state.to_move = int(data["threat"]), int(data["to_move"])
            state.rounds = int(data["rounds"])
            state._refresh_acting()
        except (KeyError, TypeError, ValueError) as exc:
            raise ParameterError(f"malformed {NAME} state: {exc}") from None
        return state

    def _determinize(self, view: Mapping[str, Any], rng: Any) -> CoopState:
        return self._state_from_data(view)  # perfect information: the view is the state


class CoopState(State):
    """The shared threat, whose turn it is and the rounds completed."""

    __slots__ = ("threat", "to_move", "rounds")

    def __init__(self, game: CoopExample, seed: int) -> None:
        super().__init__(game, seed)
        self.threat = int(game.params["start_threat"])
        self.to_move = 0
        self.rounds = 0
        self._refresh_acting()

    # ------------------------------------------------------------------------ the end
    def _cause(self) -> str | None:
        """Why the game ended, or None while it goes on."""
        if self.threat <= 0:
            return "cleared"
        if self.threat >= self.game.params["max_threat"]:
            return "overrun"
        if self.rounds >= self.game.params["max_rounds"]:
            return "truncation"
        return None

    def _refresh_acting(self) -> None:
        self._acting = () if self._cause() is not None else (self.to_move,)

    def is_truncated(self) -> bool:
        return self._cause() == "truncation"

    def outcome(self) -> dict[str, Any]:
        cause = self._cause()
        if cause is None:
            return {}
        return {"team_win": cause == "cleared", "cause": cause, "threat": self.threat}

    def returns(self) -> tuple[float, ...]:
        won = 1.0 if self._cause() == "cleared" else 0.0
        return (won,) * self.game.players

    def scores(self) -> tuple[float, ...]:
        return (float(self.threat),) * self.game.players

    def length(self) -> int:
        """Rounds played, counting the round the team cleared the threat in."""
        return self.rounds + (1 if self.to_move or self.threat <= 0 else 0)

    # ---------------------------------------------------------------------- the rules
    def _legal_actions(self, seat: int) -> Sequence[CoopAction]:
        return (WORK, REST)

    def _apply(self, joint: Mapping[int, Action]) -> None:
        (action,) = joint.values()
        if action == WORK:
            self.threat = max(0, self.threat - self.rng.randint(0, 2))
        if self.threat > 0:
            self.to_move = (self.to_move + 1) % self.game.players
            if self.to_move == 0:  # the round is over: the threat rises
                self.rounds += 1
                self.threat += self.rng.randint(0, self.game.players)
        self._refresh_acting()

    # -------------------------------------------------------------------- the protocol
    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"threat": self.threat, "max_threat": self.game.params["max_threat"],
                "to_move": self.to_move, "rounds": self.rounds}

    def _copy(self) -> CoopState:
        return self._copy_fields(self.__slots__)  # type: ignore[return-value]

    def _data(self) -> dict[str, Any]:
        return {"threat": self.threat, "to_move": self.to_move, "rounds": self.rounds}


@contextmanager
def registered() -> Iterator[type[CoopExample]]:
    """Register the game under ``coop-example`` for the duration of the ``with`` block (so
    ``load_game`` and ``meeple playtest`` find it), then remove it again."""
    registry.game_names()  # discover the real games first, so they are not lost afterwards
    registry.register(CoopExample)
    try:
        yield CoopExample
    finally:
        registry._GAMES.pop(NAME, None)


CoopExample.define(bots={"worker": WorkerBot})
