"""High Card: a one-decision simultaneous game on the engine API, for the search-bot tests.

Both seats secretly pick a number in ``0..top`` at once; the higher number wins (a tie is
shared). Picking ``top`` is strictly dominant, so a sound search for simultaneous moves must
find it whichever seat it plays and whether or not the other seat has already submitted.
Not registered: tests build it directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine import Action, ActionParseError, Capabilities, Game, KindAction, State
from meeple.engine.agent import Bot
from meeple.engine.winners import win_shares


def Pick(seat: int, number: int) -> KindAction:  # noqa: N802 - reads as a value type
    return KindAction(seat, "pick", (number,), text=str(number))


class LowFirst(Bot):
    """Plays and ranks the numbers lowest first: a misleading ranking for widening tests."""

    name = "low-first"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return min(legal_actions, key=lambda a: a.args[0])  # type: ignore[attr-defined]

    def action_values(self, view: Mapping[str, Any],
                      legal_actions: Sequence[Action]) -> list[float]:
        return [-a.args[0] for a in legal_actions]  # type: ignore[attr-defined]


class HighCard(Game):
    name = "high-card"
    title = "High Card"
    min_players = max_players = default_players = 2
    __slots__ = ()
    TOP = 3

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(2, 2, simultaneous=True, hidden_information=True, chance=False,
                            cooperative=False, max_length=1, length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> HighCardState:
        return HighCardState(self, seed)

    def parse_action(self, text: str, seat: int) -> KindAction:
        if not text.strip().isdigit():
            raise ActionParseError(f"cannot read {text!r}")
        return Pick(self.check_seat(seat), int(text))

    def _state_from_data(self, data: Mapping[str, Any]) -> HighCardState:
        state = HighCardState(self, 0)
        state.picks = list(data["picks"])
        state._acting = () if state.picks else (0, 1)
        return state

    def _determinize(self, view: Mapping[str, Any], rng: Any) -> HighCardState:
        return self._state_from_data(view)


class HighCardState(State):
    __slots__ = ("picks",)

    def __init__(self, game: HighCard, seed: int) -> None:
        super().__init__(game, seed)
        self.picks: list[int] = []
        self._acting = (0, 1)

    def _legal_actions(self, seat: int) -> Sequence[KindAction]:
        return tuple(Pick(seat, n) for n in range(HighCard.TOP + 1))

    def _apply(self, joint: Mapping[int, Action]) -> None:
        self.picks = [joint[0].args[0], joint[1].args[0]]  # type: ignore[attr-defined]
        self._acting = ()

    def returns(self) -> tuple[float, ...]:
        if not self.picks:
            return (0.0, 0.0)
        a, b = self.picks
        return win_shares(2, (0,) if a > b else (1,) if b > a else (0, 1))

    def length(self) -> int:
        return 1 if self.picks else 0

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"picks": list(self.picks)}

    def _copy(self) -> HighCardState:
        return self._copy_fields(self.__slots__)  # type: ignore[return-value]

    def _data(self) -> dict[str, Any]:
        return {"picks": list(self.picks)}


HighCard.define(bots={"low-first": LowFirst})
