"""The campaign edition's fast paths give what the general code gives: the legal tables the
state fills in while settling (and the shared ``mode`` tables) equal a fresh listing by
:func:`legal_moves`, the remembered ``fight``/``play`` moves are those of the hand, and the
game's memo tables equal what they stand for."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.registry import load_game
from meeple.games.ozymandias_campaign.actions import Move, card_name
from meeple.games.ozymandias_campaign.moves import hand_cards, legal_moves
from tests.playthrough import steps_keep_stack_lists

CONFIGS = ({"players": 2}, {"players": 4}, {"variant": "e935810", "players": 3},
           {"variant": "cfa0da0", "players": 4},
           {"players": 3, "colony_recovery": "optional", "threshold": "matching"})


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_the_engine_tables_are_a_fresh_listing_of_the_legal_moves(seed, config) -> None:
    game = load_game("ozymandias-campaign", **config)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    checked = hands = 0
    for _ in range(300):
        if state.is_terminal():
            break
        tables = state._legal_tables() if state._legal is None else state._legal
        assert set(tables) == set(state.current_players())
        for seat, (actions, members) in tables.items():
            fresh = tuple(legal_moves(state, seat))
            assert actions == fresh and set(members) == set(fresh)
            assert all(a in members for a in fresh)
            if state.step in ("war", "play"):  # the remembered hand moves: from the hand
                kind = "fight" if state.step == "war" else "play"
                assert fresh == tuple(Move(seat, kind, card)
                                      for card in hand_cards(state, seat))
                hands += 1
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


def test_hand_moves_are_remembered_per_hand_and_bounded(monkeypatch) -> None:
    from meeple.games.ozymandias_campaign import moves

    game = load_game("ozymandias-campaign", players=2)
    state = game.new_initial_state(4)
    state.step = "play"
    first = legal_moves(state, state.active)
    assert legal_moves(state, state.active) is first  # one shared tuple per hand
    assert first == tuple(Move(state.active, "play", c) for c in hand_cards(state,
                                                                              state.active))
    monkeypatch.setattr(moves, "HAND_MEMO_SIZE", 1)
    state.hands[state.active].pop()
    again = legal_moves(state, state.active)  # the memo was full: cleared, then this hand
    assert len(game._cache["ozw-hand-moves"]) == 1 and again == tuple(
        Move(state.active, "play", c) for c in hand_cards(state, state.active))


def test_the_moves_remembered_by_argument_are_the_interned_moves() -> None:
    game = load_game("ozymandias-campaign", players=3)
    state = game.new_initial_state(7)
    rng = random.Random(7)
    for _ in range(400):
        if state.is_terminal():
            break
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    seen = 0
    for seat in range(game.players):
        assert game.end_moves[seat] is game.makers[seat]("end")
        for kind, table in zip(("stand", "colony", "lay", "harvest"), game.arg_moves[seat],
                               strict=True):
            for arg, move in table.items():
                assert move is game.makers[seat](kind, arg)
                assert move == Move(seat, kind, (arg,))
                seen += 1
        for kind, table in game.card_moves[seat].items():  # fight/play by (suit, rank)
            for card, move in table.items():
                assert move is game.makers[seat](kind, *card)
                assert move == Move(seat, kind, card)
                seen += 1
    assert seen


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(
    (*CONFIGS, {"players": 3, "laydown_source": "supply"})))
def test_a_lay_or_harvest_is_found_exactly_when_the_listing_has_one(seed, config) -> None:
    """``has_lay_or_harvest`` (the settling's shortcut at campaign steps) against the
    listing: the same answer at every campaign step of random games."""
    from meeple.games.ozymandias_campaign.moves import has_lay_or_harvest

    game = load_game("ozymandias-campaign", **config)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.step == "campaign":
            seat = state.active
            listed = any(m.kind in ("lay", "harvest") for m in legal_moves(state, seat))
            assert has_lay_or_harvest(state, seat) == listed
            checked += 1
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    assert checked  # random games reach campaign steps


def test_no_move_changes_a_colony_stack_list_in_place() -> None:
    """A determinization's draws share the view's colony stack lists (``determinize``), which
    is safe only because every transition gives a changed stack a new list: after every step
    of playthroughs (heuristic and random), of their copies and of draws played on, every list
    the stacks held before holds what it did, while the stacks did change (conquests, wars
    lost beneath the top, recoveries)."""
    from meeple.bots import make_bot
    from tests.playthrough import playthrough

    walk = random.Random(3)
    changed = 0
    for config in ({"players": 3}, {"players": 4, "colony_recovery": "optional"}):
        game = load_game("ozymandias-campaign", **config)
        for g in range(4):
            bots = ([make_bot("heuristic", game, s, g) for s in range(game.players)]
                    if g % 2 == 0 else None)
            for step, state in enumerate(playthrough(game, g, random.Random(g), bots)):
                changed += steps_keep_stack_lists(state.clone(), walk, 3)
                if step % 6 == 0:  # a draw, played on as a search does
                    draw = game.determinizer(state.view(state.current_players()[0]))
                    for k in range(2):
                        changed += steps_keep_stack_lists(draw(random.Random(k)), walk, 4)
    assert changed >= 20
