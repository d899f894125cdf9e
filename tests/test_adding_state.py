"""A rule that adds state costs one declaration (issue 35): a house rule on the Crazy Eights
template (examples/crazy_eights.py) keeps a public per-seat count of the cards each seat drew,
written as one ``Value`` in the state class and the two lines that keep it. Nothing else names
the field, yet the state's JSON, its validation, every seat's view, the determinization, the
scenario builder and the generic board's layout all carry it."""

from __future__ import annotations

import json
import random

import pytest

from examples.crazy_eights import CrazyEights, CrazyEightsState
from meeple.engine.components import Value
from meeple.engine.errors import StateError
from meeple.engine.validation import NonNegInt


class CountedState(CrazyEightsState):
    """Crazy Eights with each seat's number of draws kept, public."""

    COMPONENTS = (*CrazyEightsState.COMPONENTS,
                  Value("drawn", type=NonNegInt, per_seat=True))
    __slots__ = ("drawn",)

    def __init__(self, game: CrazyEights, seed: int) -> None:
        self.drawn = [0] * game.players
        super().__init__(game, seed)

    def _apply(self, joint):  # type: ignore[no-untyped-def, override]
        ((seat, move),) = joint.items()
        if move.kind == "draw":
            self.drawn[seat] += 1
        super()._apply(joint)


class Counted(CrazyEights):
    name = "crazy-eights-counted"  # not registered: built directly
    state_class = CountedState
    __slots__ = ()

    def new_initial_state(self, seed: int = 0) -> CountedState:
        return CountedState(self, seed)


def _played(game: Counted, seed: int, steps: int) -> CountedState:
    state, rng = game.new_initial_state(seed), random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        (seat,) = state.current_players()
        state.apply_action(rng.choice(list(state.legal_actions(seat))), seat)
    return state


def test_the_new_field_is_saved_validated_viewed_dealt_and_described() -> None:
    game = Counted(players=3, draw_any_time=True)
    state = _played(game, 5, 40)
    assert sum(state.drawn) > 0  # the rule counted something
    # JSON: saved and loaded back
    data = state.to_json()
    again = game.state_from_json(data)
    assert again.drawn == state.drawn and again.to_json() == data
    # validation: a negative count or a count per seat too many is refused at its JSON path
    for bad in ([-1, 0, 0], [0, 0, 0, 0]):
        payload = json.loads(json.dumps(data))  # a deep copy of the JSON data
        payload["data"]["drawn"] = bad
        with pytest.raises(StateError, match=r"drawn"):
            game.state_from_json(json.dumps(payload))
    # views: every seat and the spectator see it (public)
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["drawn"] == state.drawn
    # determinization: kept as the view shows it, in every draw
    (seat,) = state.current_players()
    for k in range(5):
        drawn = game.determinize(state.view(seat), random.Random(k))
        assert drawn.drawn == state.drawn
    # scenario: set by name
    built = game.build_scenario(seed=1, drawn=[2, 0, 1])
    assert built.drawn == [2, 0, 1]
    # the generic board lists it as a per-seat counter
    keys = {v["key"]: v for v in game.board_layout()["values"]}
    assert keys["drawn"]["per_seat"] is True
