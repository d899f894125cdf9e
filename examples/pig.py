"""Pig, the dice game: a complete template for adding a game to meeple (docs/adding-a-game.md).

Rules: on your turn, ``roll`` a die: a 1 ends your turn and loses the turn's total; anything
else adds to it. ``hold`` banks the turn's total. First to ``target`` points wins. Sequential
turns and chance (the die comes from the state's own seeded stream), no hidden information.

This module is not a meeple game package, so ``meeple games`` does not list it; importing it
registers ``pig`` (the tests do, to run the conformance suite on a sequential game with chance).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine import (
    Action,
    ActionParseError,
    Capabilities,
    Game,
    Parameter,
    ParameterError,
    State,
    TensorWriter,
    Variant,
    register,
)


class PigAction(Action):
    """``roll`` or ``hold`` (not tied to a seat: the current seat plays it)."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        object.__setattr__(self, "word", word)

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"PigAction({self.word!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is PigAction and other.word == self.word

    def __hash__(self) -> int:
        return hash(("pig", self.word))


ROLL, HOLD = PigAction("roll"), PigAction("hold")


@register
class Pig(Game):
    """Pig for 2-6 seats."""

    name = "pig"
    title = "Pig"
    summary = "push your luck with one die (engine template)"
    rules_page = "examples/pig.py"
    parameters = (
        Parameter("target", 30, "points needed to win", minimum=5, maximum=1000),
        Parameter("max_turns", 400, "safety cap on turns (X-5)", minimum=1, maximum=100_000),
    )
    variants = (Variant("standard", "first to 30"), Variant("long", "first to 100",
                                                            {"target": 100}))
    min_players, max_players, default_players = 2, 6, 2
    __slots__ = ()

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=False,
                            hidden_information=False, chance=True, cooperative=False,
                            max_length=self.params["max_turns"], length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> PigState:
        return PigState(self, seed)

    def parse_action(self, text: str, seat: int) -> PigAction:
        word = text.strip().lower()
        if word in ("roll", "r"):
            return ROLL
        if word in ("hold", "h"):
            return HOLD
        raise ActionParseError(f"cannot read {text!r}: write 'roll' or 'hold'")

    def _state_from_data(self, data: Mapping[str, Any]) -> PigState:
        state = PigState(self, 0)
        try:
            state.scores_ = [int(x) for x in data["scores"]]
            state.turn_total, state.to_move = int(data["turn_total"]), int(data["to_move"])
            state.turns, state.last_roll = int(data["turns"]), data["last_roll"]
            state._refresh_acting()
        except (KeyError, TypeError, ValueError) as exc:
            raise ParameterError(f"malformed Pig state: {exc}") from None
        return state

    def _determinize(self, view: Mapping[str, Any], rng: random.Random) -> PigState:
        # Perfect information: every field is in the view, nothing is drawn; the engine gives
        # the copy a fresh chance stream, so its future dice differ.
        return self._state_from_data(view)


class PigState(State):
    """Scores, the current turn's total, whose turn it is."""

    __slots__ = ("scores_", "turn_total", "to_move", "turns", "last_roll")

    def __init__(self, game: Pig, seed: int) -> None:
        super().__init__(game, seed)
        self.scores_ = [0] * game.players
        self.turn_total = 0
        self.to_move = 0
        self.turns = 0
        self.last_roll: int | None = None
        self._refresh_acting()

    def _refresh_acting(self) -> None:
        over = self._winner() is not None or self.turns >= self.game.params["max_turns"]
        self._acting = () if over else (self.to_move,)

    def _winner(self) -> int | None:
        best = max(self.scores_)
        return self.scores_.index(best) if best >= self.game.params["target"] else None

    def is_truncated(self) -> bool:
        return self._winner() is None and self.turns >= self.game.params["max_turns"]

    def _legal_actions(self, seat: int) -> Sequence[PigAction]:
        return (ROLL, HOLD)

    def _apply(self, joint: Mapping[int, Action]) -> None:
        (action,) = joint.values()
        if action == ROLL:
            self.last_roll = self.rng.randint(1, 6)  # chance from the state's own stream
            if self.last_roll != 1:
                self.turn_total += self.last_roll
                return
            self.turn_total = 0
        else:
            self.scores_[self.to_move] += self.turn_total
            self.turn_total = 0
            self.last_roll = None
        self.turns += 1
        self.to_move = (self.to_move + 1) % self.game.players
        self._refresh_acting()

    def returns(self) -> tuple[float, ...]:
        n = self.game.players
        if not self.is_terminal():
            return (0.0,) * n
        best = max(self.scores_)
        winners = [s for s in range(n) if self.scores_[s] == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(n))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(x) for x in self.scores_)

    def length(self) -> int:
        return self.turns

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"scores": list(self.scores_), "turn_total": self.turn_total,
                "to_move": self.to_move, "last_roll": self.last_roll, "turns": self.turns}

    def _copy(self) -> PigState:
        new = self._blank()
        new.scores_ = self.scores_.copy()
        new.turn_total, new.to_move = self.turn_total, self.to_move
        new.turns, new.last_roll = self.turns, self.last_roll
        return new

    def _data(self) -> dict[str, Any]:
        return self._view(None)


# ------------------------------------------------------------------ encoding (adapters)
def action_texts(game: Pig) -> tuple[str, ...]:
    """Every action text of Pig: ``roll`` (code 0) and ``hold`` (code 1)."""
    return (str(ROLL), str(HOLD))


def observation_shape(game: Pig) -> tuple[int]:
    """``2 P + 8`` numbers for ``P`` seats (see :func:`observation_tensor`)."""
    return (2 * game.players + 8,)


def observation_tensor(game: Pig, view: Mapping[str, Any]) -> Any:
    """A seat's view as float32 numbers, seats relative to the viewer (a spectator reads as
    seat 0): scores / target (``P``), the seat to move (one-hot, ``P``), the turn total /
    target (both clipped at 2, the bounds ``Box`` spaces need), the last roll (one-hot of
    1..6, all 0 before any roll) and turns / max_turns."""
    n, me = game.players, view.get("seat") or 0
    target = game.params["target"]
    out = TensorWriter(observation_shape(game)[0])
    out.per_seat([min(x, 2 * target) for x in view["scores"]], me, n, target, 0.0, 2.0)
    out.seat_hot(view["to_move"], me, n)
    out.value(min(view["turn_total"], 2 * target) / target, 0.0, 2.0)
    roll = view["last_roll"]
    out.one_hot(6, None if roll is None else roll - 1)
    out.value(view["turns"] / game.params["max_turns"])
    return out.done()


#: The game's parts outside its rules (``Game.define``): here only the adapters' encoding, the
#: three functions above (a game package keeps them in its own ``encoding.py`` and declares
#: its parts in its ``__init__.py``, as ``src/meeple/games/damocles/__init__.py`` does).
Pig.define(encoding=sys.modules[__name__])
