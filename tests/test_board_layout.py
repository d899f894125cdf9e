"""The generic board's layout (``Game.board_layout()``, src/meeple/engine/board.py): derived from
a state's declaration for every game on the component model, it names view keys that the views
really hold, and never a piece (the pieces come from each seat's own view)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from meeple.engine.board import board_layout
from meeple.engine.components import OTHERS, ComponentState, Pieces, Zone
from meeple.engine.registry import game_names, load_game

COMPONENT_GAMES = [n for n in game_names() if load_game(n).state_class is not None]


def _has(view: Mapping[str, Any], key: str) -> bool:
    node: Any = view
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def test_every_design_and_the_template_declare_a_layout() -> None:
    assert {"damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
            "epoch-ellipse", "crazy-eights"} <= set(COMPONENT_GAMES)
    assert load_game("pig").board_layout() is None  # no components, no layout
    assert board_layout(None) is None


@pytest.mark.parametrize("name", COMPONENT_GAMES)
def test_the_layout_names_view_keys_the_views_hold_and_no_piece(name: str) -> None:
    game = load_game(name)
    layout = game.board_layout()
    assert json.loads(json.dumps(layout)) == layout
    declared = game.state_class.components()
    zones = {z.name: z for z in declared.zones}
    assert [z["name"] for z in layout["zones"]] == list(zones)
    # no piece named: the layout's strings hold no piece id of any kind
    cls = game.state_class
    pieces = {str(pid) for kind in cls.PIECES for pid in declared.piece_ids(game, kind)}
    assert not pieces & _strings(layout)
    # every key the layout names is in some seat's view during random play (or in the
    # spectator's), and a zone's visibility is the declared one
    wanted = {k for z in layout["zones"] for k in (z["show"], z["count"], z["notes"]) if k}
    wanted |= {m[k] for m in layout["marks"] for k in ("show", "count") if m[k]}
    wanted |= {v["key"] for v in layout["values"]}
    for z in layout["zones"]:
        assert z["visibility"] == zones[z["name"]].visibility.value
    seen: set[str] = set()
    rng = random.Random(7)
    for seed in range(20):  # until every key was seen: conditional keys need their moment
        if seen == wanted:
            break
        state = game.new_initial_state(seed)
        for _ in range(3000):
            for seat in (None, *range(game.players)):
                view = state.view(seat)
                seen |= {k for k in wanted - seen if _has(view, k)}
            if state.is_terminal() or seen == wanted:
                break
            state.apply_actions({p: rng.choice(list(state.legal_actions(p)))
                                 for p in state.current_players()})
    assert seen == wanted, f"{name}: never in a view: {sorted(wanted - seen)}"


def test_a_per_seat_hidden_zone_is_described_with_its_count_key() -> None:
    class Toy(ComponentState):
        PIECES = {}
        COMPONENTS = ()

    class Hands(ComponentState):
        PIECES = {"card": Pieces(lambda game: ("a", "b"))}
        COMPONENTS = (Zone("hands", pieces="card", per_seat=True, visibility=OTHERS,
                           show="hands", count="hand_sizes", notes="hints"),)

    assert board_layout(Toy) == {"zones": [], "marks": [], "values": []}
    (zone,) = board_layout(Hands)["zones"]
    assert zone == {"name": "hands", "label": "Hands", "pieces": "card", "per_seat": True,
                    "visibility": "others", "show": "hands", "sorted": False,
                    "count": "hand_sizes", "slot": False, "draw_pile": False,
                    "notes": "hints"}
