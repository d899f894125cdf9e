"""The web board's public content (``epoch_ellipse/board.py``): JSON-compatible, the same for
every deal, and naming every card and location a view can name."""

from __future__ import annotations

import json
import random

import pytest

from meeple import load_game


def _names(view: dict) -> tuple[set[str], set[str]]:
    """The card names and location names in one view."""
    cards: set[str] = set(view["night_discard"]) | set(view["removed"])
    for player in view["players"]:
        cards.update(player["hand"], player["discard"], player["deck_cards"])
        if player["mournful_card"]:
            cards.add(player["mournful_card"])
    for pile in view["pool"]:
        cards.update(pile)
    offer = view["offer"]
    if offer:
        cards.update((offer["give"], offer["receive"]))
    expl = view["exploration"]
    if expl:
        cards.update(expl["catastrophes"], expl["survivors"], expl["salvage"], expl["rescue"] or [])
        if expl["current"]:
            cards.add(expl["current"])
    return cards, {loc["name"] for loc in view["locations"]}


@pytest.mark.parametrize("variant", ["seed", "hard", "d6"])
def test_board_content_is_json_and_covers_every_name_a_view_shows(variant: str) -> None:
    game = load_game("epoch-ellipse", variant=variant, players=3)
    content = game.board_content()
    assert json.loads(json.dumps(content)) == content
    assert content["explore_count"] == ("d6" if variant == "d6" else "choice")
    assert set(content["cards"]) == {c.name for c in game.content.cards}
    assert content["cards"]["BULLET"] == {
        "slug": "bullet", "kind": "SALVAGE", "subtype": "WEAPON", "difficulty": 0,
        "discard": {}, "trash": {"weapon": 1}, "effect": "", "params": {},
        "text": "Trash -> 1 Weapon"}
    seen_cards: set[str] = set()
    seen_locations: set[str] = set()
    rng = random.Random(variant)
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            cards, locations = _names(state.view(None))
            seen_cards |= cards
            seen_locations |= locations
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)))
    assert seen_cards <= set(content["cards"])
    assert seen_locations <= set(content["locations"])
    assert len(seen_cards) > 30 and len(seen_locations) > 2


def test_board_content_holds_no_deal() -> None:
    game = load_game("epoch-ellipse", players=2)
    first = game.board_content()
    game.new_initial_state(seed=5)
    assert load_game("epoch-ellipse", players=2).board_content() == first
    text = json.dumps(first)
    assert "seed" not in first and "deck_order" not in text
