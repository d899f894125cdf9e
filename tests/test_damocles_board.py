"""The Damocles web board's public content (games/damocles/board.py): JSON-compatible, every
codex id a view can name is in it, and nothing about the deal (the same for every seed)."""

from __future__ import annotations

import json
import random

import pytest

from meeple import load_game


def _ids_in_view(view: dict) -> set[str]:
    ids = set(view.get("hand", [])) | set(view.get("keep_pool") or []) | set(view["removed"])
    for tableau in view["tableaus"]:
        ids |= set(tableau)
    ids |= set(view["turn"]["consumed"])
    return ids


@pytest.mark.parametrize("variant", ["seed", "future"])
def test_content_is_json_and_names_every_codex_a_view_can_name(variant: str) -> None:
    game = load_game("damocles", variant=variant, players=3, cycles=3)
    content = game.board_content()
    assert json.loads(json.dumps(content)) == content
    assert set(content["codices"]) == {c.id for c in game.deck}
    assert [g["letter"] for g in content["gods"]] == list("HPADN")
    for codex in content["codices"].values():
        assert codex["type"] in content["types"]
        assert codex["pattern"][0][0] == 1
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    seen: set[str] = set()
    while not state.is_terminal():
        seat = state.view(None)["to_act"][0]
        for who in (None, seat):
            seen |= _ids_in_view(state.view(who))
        state.apply_action(rng.choice(state.legal_actions(seat)))
    assert seen and seen <= set(content["codices"])


def test_content_holds_nothing_about_the_deal() -> None:
    game = load_game("damocles", players=2)
    again = load_game("damocles", players=2)
    assert game.board_content() == again.board_content()
    text = json.dumps(game.board_content())
    assert "seed" not in text and "hand" not in text
