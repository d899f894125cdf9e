"""Ozymandias (market edition): the fast paths of the rules code against the general ones.

The legal tables are remembered on the game spec under ``moves.legal_key``; these tests play
many games (random and heuristic seats, every named variant with parameter switches, and
determinizations, whose maps list sectors in another order) with one spec each, so the memo
is asked about many states that share a key, and check every table it hands out against a
fresh run of the generator: the same orders, in the same order.
"""

from __future__ import annotations

import random

import pytest

from meeple import load_game
from meeple.games.ozymandias_market.moves import legal_key, legal_orders, legal_tables
from tests.playthrough import (
    check_remembered_tables,
    playthrough,
    states_and_draws,
    steps_keep_stack_lists,
)

GAME = "ozymandias-market"
CONFIGS = [("seed", 3, {}), ("seed", 2, {"adjacency": "top_only"}),
           ("seed", 4, {"allow_self_stack": True}), ("v2015", 3, {}),
           ("v2015", 2, {"disks_per_colour": 2, "take_from_map": True,
                         "allow_self_stack": True}),
           ("explore", 3, {"opening": "line", "sectors": 30}),
           ("2017tie", 4, {"market_size": 2, "hand_size": 2}),
           ("seed", 3, {"end": "deck_out", "market_size": 8, "hand_size": 4})]


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_remembered_legal_tables_are_the_generators(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    remembered = sum(check_remembered_tables(state, legal_key, legal_tables, legal_orders)
                     for state in states_and_draws(game, 12, 3, 5))
    # Many tables came from the memo (hundreds in every configuration), so they were checked.
    assert remembered >= 100


def test_a_determinizations_states_share_the_searchers_own_table():
    """(The shared contract: tests/test_determinization.py.) Two draws hand the searching seat
    the same table object; two playthroughs generate theirs afresh."""
    game = load_game(GAME)
    state = game.new_initial_state(seed=3)
    again = game.new_initial_state(seed=3)
    assert state.tables is None
    for seat in state.current_players():  # a playthrough generates afresh
        assert state.legal_actions(seat) == again.legal_actions(seat)
        assert state.legal_actions(seat) is not again.legal_actions(seat)
    draw = game.determinizer(state.view(0))
    first, second = draw(random.Random(1)), draw(random.Random(2))
    assert first.legal_actions(0) is second.legal_actions(0)  # the searcher's own hand
    assert state.legal_actions(0) == first.legal_actions(0)


def _perturbed(state):
    """Copies of ``state`` with one field the generator may read changed each (not always a
    reachable state: the generator only reads them)."""
    seat = state._acting[0]
    changes = [
        lambda s: s.supply.__setitem__(slice(None), [0] * len(s.supply)),
        lambda s: s.supply.__setitem__(slice(None), [v + 1 for v in s.supply]),
        lambda s: setattr(s, "sectors_left", 0),
        lambda s: setattr(s, "sectors_left", s.sectors_left + 1),
        lambda s: (s.deck.clear(), s.discard.clear()),
        lambda s: s.deck.clear(),
        lambda s: s.deck[:] and s.deck.pop(),
        lambda s: s.market[:] and s.market.append(s.deck.pop()) if s.deck else None,
        lambda s: s.market[:] and s.market.pop(0),
        lambda s: s.hands[seat][:] and s.hands[seat].pop(0),
        lambda s: s.deck and s.hands[seat].append(s.deck.pop()),
        lambda s: s.augury_pool.reverse(),
        lambda s: s.augury_pool[:] and s.augury_pool.pop(),
        lambda s: s.stacks[next(h for h in sorted(s.stacks) if s.stacks[h])].pop()
        if any(s.stacks.values()) else None,
        lambda s: s.stacks[min(s.stacks)].append((s.stacks[min(s.stacks)] or [0])[-1] ^ 1),
    ]
    for change in changes:
        copy = state.clone()
        change(copy)
        yield copy


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_the_key_changes_whenever_the_legal_list_does(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    differing = 0
    for g in range(6):
        for state in playthrough(game, 100 + g, random.Random(g)):
            for seat in state.current_players():
                key, legal = legal_key(state, seat), legal_orders(state, seat)
                for other in _perturbed(state):
                    if legal_orders(other, seat) != legal:
                        differing += 1
                        assert legal_key(other, seat) != key, (state.phase, state.step)
    assert differing >= 100  # the changes did reach the generator


def test_the_memo_stays_within_its_bound(monkeypatch):
    from meeple.games.ozymandias_market import moves

    monkeypatch.setattr(moves, "TABLES_MEMO", 50)
    game = load_game(GAME)
    state = game.new_initial_state(seed=1)
    walk = random.Random(1)
    draw = game.determinizer(state.view(0))
    sizes = []
    for k in range(100):
        drawn = draw(random.Random(k))
        while not drawn.is_terminal() and walk.random() < 0.95:
            drawn.apply_actions({s: walk.choice(drawn.legal_actions(s))
                                 for s in drawn.current_players()})
            sizes.append(len(game.legal_memo))
    assert max(sizes) == 50  # filled up, emptied, never more


def test_checked_applies_on_remembered_tables_still_refuse_illegal_orders():
    """The remembered tables carry no membership set; the engine's checks build one."""
    from meeple.engine.errors import IllegalActionError

    game = load_game(GAME, players=3)
    walk = random.Random(4)
    checked = 0
    for seed in range(6):
        for state in playthrough(game, seed, walk):
            if state.phase == "plan" or walk.random() < 0.7:
                continue
            seat = state.current_players()[0]
            drawn = game.determinizer(state.view(seat))(random.Random(seed))
            legal = drawn.legal_actions(seat)
            illegal = game.parse_action("pass", seat) if "pass" not in map(str, legal) else None
            if illegal is not None:
                with pytest.raises(IllegalActionError):
                    drawn.clone().apply_action(illegal, seat)
            pick = walk.choice(legal)
            again = drawn.clone()
            again.apply_action(pick, seat)  # checked: accepted
            drawn.apply_legal({seat: pick})  # unchecked: the same state
            assert again.digest() == drawn.digest()
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_no_move_changes_a_stack_list_in_place(variant, players, extra):
    """A determinization's draws share the view's stack lists (``determinize``), which is
    safe only because every transition gives a changed stack a new list: after every step of
    many playthroughs and played-on draws, every list the map held before holds what it did."""
    game = load_game(GAME, variant=variant, players=players, **extra)
    walk = random.Random(7)
    changed = 0
    for state in states_and_draws(game, 8, 3, 4):
        if state.tables is None or walk.random() < 0.5:  # a draw is played on as it is
            state = state.clone()  # (a playthrough's state goes on in the walk)
        changed += steps_keep_stack_lists(state, walk, 4)  # on, as a search plays a draw
    assert changed >= 50  # the stacks did change, through the moves that change them
