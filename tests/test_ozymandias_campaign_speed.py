"""The campaign edition's fast paths give what the general code gives: the legal tables the
state fills in while settling (and the shared ``mode`` tables) equal a fresh listing by
:func:`legal_moves`, and the game's memo tables equal what they stand for."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.registry import load_game
from meeple.games.ozymandias_campaign.actions import Move, card_name
from meeple.games.ozymandias_campaign.moves import legal_moves

CONFIGS = ({"players": 2}, {"players": 4}, {"variant": "e935810", "players": 3},
           {"variant": "cfa0da0", "players": 4},
           {"players": 3, "colony_recovery": "optional", "threshold": "matching"})


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_the_engine_tables_are_a_fresh_listing_of_the_legal_moves(seed, config) -> None:
    game = load_game("ozymandias-campaign", **config)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(150):
        if state.is_terminal():
            break
        tables = state._legal_tables() if state._legal is None else state._legal
        assert set(tables) == set(state.current_players())
        for seat, (actions, members) in tables.items():
            fresh = tuple(legal_moves(state, seat))
            assert actions == fresh and set(members) == set(fresh)
            assert all(a in members for a in fresh)
            checked += 1
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    assert checked


def test_the_game_tables_hold_what_they_stand_for() -> None:
    game = load_game("ozymandias-campaign", players=3)
    assert game.card_texts == tuple(card_name(c.suit, c.rank) for c in game.cards)
    assert game.card_keys == tuple((c.suit, c.rank) for c in game.cards)
    for seat in range(game.players):
        modes = tuple(Move(seat, kind) for kind in ("intake", "migrate", "campaign"))
        assert game.mode_moves[seat] == modes
        assert game.mode_tables[seat] == {seat: (modes, frozenset(modes))}
        assert game.makers[seat]("cube", 0, 1) is game.makers[seat]("cube", 0, 1)
        assert game.makers[seat]("cube", 0, 1) == Move(seat, "cube", (0, 1))
