"""The web board's public content (ozymandias_market/board.py): JSON-compatible, every card id a
view can name, nothing about the deal."""

from __future__ import annotations

import json
import random

from meeple import load_game


def test_board_content_is_json_and_names_every_card_a_view_can_show() -> None:
    game = load_game("ozymandias-market", players=3)
    content = game.board_content()
    assert json.loads(json.dumps(content)) == content
    assert [c["initial"] for c in content["colours"]] == ["R", "W", "B", "K"]
    assert len(content["cards"]) == 40
    assert content["cards"]["W2"] == {"rank": 2, "colour": "WHITE", "event": "Bazaar",
                                      "text": game.card_by_rank[2].event_text()}
    # every card id any view names during random play is in the content
    rng = random.Random(0)
    state = game.new_initial_state(seed=5)
    named: set[str] = set()
    while not state.is_terminal():
        for seat in range(3):
            view = state.view(seat)
            named.update(view["market"], view["discard"], view["hand"], view.get("augury", []))
            named.update(c for c in view["played"] if c)
        acting = [s for s in range(3) if state.legal_actions(s)]
        if state.phase == "plan":
            state.apply_actions({s: rng.choice(state.legal_actions(s)) for s in acting})
        else:
            state.apply_action(rng.choice(state.legal_actions(acting[0])))
    assert named <= set(content["cards"])


def test_board_content_has_nothing_of_the_deal() -> None:
    game = load_game("ozymandias-market", players=2)
    content = game.board_content()
    assert not {"seed", "deck", "deck_order"} & set(content)
    assert game.board_content() == load_game("ozymandias-market", players=2).board_content()
