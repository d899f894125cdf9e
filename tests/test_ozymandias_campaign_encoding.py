"""Ozymandias (campaign) encoding (src/meeple/games/ozymandias_campaign/encoding.py): the table's
documented sizes, the two bounds it rests on (a tableau never outgrows its owner's colony
workers; only the documented points can ever be stood on), a full tableau's moves, and the
observation's layout. The generic round-trip checks live in tests/test_encoding.py."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from meeple import load_game
from meeple.games.ozymandias_campaign.encoding import standable, tableau_slots
from meeple.games.ozymandias_campaign.moves import new_row
from meeple.games.ozymandias_campaign.vocab import COLONY


def _steps(game, seed: int, limit: int):
    """The states of a random walk from ``seed`` (at most ``limit`` moves)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        yield state
        if state.is_terminal():
            return
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})


@pytest.mark.parametrize(("variant", "players", "size"), [
    ("seed", 2, 270), ("seed", 6, 270), ("cfa0da0", 4, 270), ("e935810", 4, 271),
    ("literal", 4, 234), ("18ad11a", 3, 270), ("18ad11a", 4, 282)])
def test_table_sizes_are_the_documented_ones(variant: str, players: int, size: int) -> None:
    game = load_game("ozymandias-campaign", variant, players)
    assert game.num_distinct_actions() == size
    kinds = Counter(t.split()[0] for t in game.action_table())
    assert kinds["colony"] == 18 and kinds["fight"] == kinds["play"] == 18
    assert kinds["cube"] == kinds["move"] == 3 * tableau_slots(game) == 36


def test_tableau_slots_follow_the_workers() -> None:
    game = load_game("ozymandias-campaign", workers=5, start_workers=3)
    assert tableau_slots(game) == 5
    assert "lay 5" in game.action_table() and "lay 6" not in game.action_table()


@pytest.mark.parametrize(("variant", "players"), [("seed", 3), ("18ad11a", 4)])
def test_tableaus_and_stands_stay_within_the_table_bounds(variant: str, players: int) -> None:
    game = load_game("ozymandias-campaign", variant, players)
    stand = set(standable(game))
    for seed in range(4):
        for state in _steps(game, seed, 700):
            for seat in range(players):
                workers = sum(stack.count(seat) for stack in state.stacks.values())
                assert len(state.tableaus[seat]) <= workers
            kinds, adjacency = state.map.kinds, state.map.adjacency
            for point, kind in kinds.items():
                if kind == COLONY:
                    assert all(q in stand for q in adjacency[point] if kinds[q] != COLONY)


def test_a_full_tableau_offers_its_last_position_from_the_table() -> None:
    game = load_game("ozymandias-campaign", "seed", 2)
    table = set(game.action_table())
    c = tableau_slots(game)
    state = game.new_initial_state(1).clone()
    seat = state.active
    state.tableaus[seat] = [new_row(i) for i in range(c)]
    state.tableaus[seat][0][1] = 2  # two GOLD cubes on the first card
    for row in state.tableaus[seat][c // 2:]:
        row[4] = 1  # tapped: harvestable
    state.step, state.incoming[seat] = "distribute", [1, 1, 1]
    state._legal = None
    texts = {str(a) for a in state.legal_actions(seat)}
    assert {f"cube G {c}", f"cube B {c}"} <= texts <= table
    state.step, state.mig_pos = "migrate", 0
    state._legal = None
    texts = {str(a) for a in state.legal_actions(seat)}
    assert {f"move G {c}", "move G out"} <= texts <= table
    state.step = "campaign"
    state._legal = None
    texts = {str(a) for a in state.legal_actions(seat)}
    assert {f"lay {c // 2}", f"harvest {c}"} <= texts <= table


def _global_width(game) -> int:
    """Width of the global block (layout item 1 of the module docstring)."""
    return 19 + tableau_slots(game) + 7 * game.players


def test_observation_puts_the_viewer_first_and_holds_only_its_hand() -> None:
    game = load_game("ozymandias-campaign", "seed", 4)
    state = game.new_initial_state(3)
    views = [state.view(s) for s in range(4)]
    tensors = [game.observation_tensor(v) for v in views]
    assert len({x.tobytes() for x in tensors}) == 4
    d = len({(c.suit, c.rank) for c in game.cards})
    hand = slice(_global_width(game) + d, _global_width(game) + 2 * d)
    copies = len(game.cards) // d
    for seat in range(4):
        assert tensors[seat][hand].sum() * copies == pytest.approx(len(views[seat]["hand"]))
    vp = _global_width(game) + 3 * d  # the viewer's VP comes first in the seat block
    changed = dict(views[1], players=[dict(p) for p in views[1]["players"]])
    changed["players"][1]["vp"] = game.params["target_vp"]
    assert tensors[1][vp] == 0.0 and game.observation_tensor(changed)[vp] == 1.0
    for x in tensors:
        assert x.min() >= 0.0 and x.max() <= 1.0


def test_a_pending_war_card_is_seen_by_its_owner_only() -> None:
    game = load_game("ozymandias-campaign", "seed", 2)
    for seed in range(40):
        for state in _steps(game, seed, 400):
            if state.step == "war":
                break
        if state.step == "war":
            break
    else:
        raise AssertionError("no war in 40 walks")
    attacker, other = state.war[2], state.war[3]
    before = game.observation_tensor(state.view(other))
    state.apply_action(state.legal_actions(attacker)[0], attacker)
    d = len({(c.suit, c.rank) for c in game.cards})
    pending = slice(_global_width(game) + 2 * d, _global_width(game) + 3 * d)
    assert game.observation_tensor(state.view(attacker))[pending].sum() == 1.0
    after = game.observation_tensor(state.view(other))
    assert after[pending].sum() == 0.0
    changed = np.nonzero(before != after)[0]
    assert len(changed) and changed.max() < _global_width(game)  # only who is in, not what
