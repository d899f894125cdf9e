"""Ozymandias (market edition) encoding (src/meeple/games/ozymandias_market/encoding.py): the
region and pair bound against every small map, the table's blocks, the growth and size limits,
the Augury order block in play, and the observation's map block. The generic round-trip checks
live in tests/test_encoding.py."""

from __future__ import annotations

import random
from collections import Counter
from math import perm

import numpy as np
import pytest

from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.games.ozymandias_market.encoding import HEX_FEATURES, _fits, _region, region
from meeple.games.ozymandias_market.hexes import OPENINGS, frontier


@pytest.mark.parametrize("opening", sorted(OPENINGS))
def test_region_and_pair_bound_cover_every_map_of_up_to_three_added_sectors(opening) -> None:
    grow = 3
    hexes, dist = _region(opening, grow)
    maps = {frozenset(OPENINGS[opening])}
    seen = set(maps)
    for _ in range(grow):  # every map the game can build: one sector next to the map at a time
        maps = {m | {h} for m in maps for h in frontier(set(m))}
        seen |= maps
    assert len(seen) > 100
    covered = set()
    for m in seen:
        covered |= m
        for h in m:
            assert all(_fits(h, s, dist, grow) for s in m)
    assert covered == set(hexes)  # no hex left out, none to spare
    far = [h for h in hexes if dist[h] == grow]
    assert not _fits(far[0], far[-1], dist, grow)  # the bound does prune


@pytest.mark.parametrize("variant", ["seed", "v2015"])
def test_table_blocks_for_the_packaged_deck(variant: str) -> None:
    game = load_game("ozymandias-market", variant)
    r = len(region(game))
    kinds = Counter(t.split()[0] + (" from" if " from " in t else "")
                    for t in game.action_table())
    assert kinds["order"] == perm(40, 3) + perm(40, 2)
    assert kinds["trade"] == 40 + 40 * 39
    assert kinds["bazaar"] == 40 * 39  # no pair holds all four Bazaar cards
    assert kinds["plan"] == kinds["embargo"] == 40
    assert kinds["expand"] == kinds["raze"] == kinds["coup"] == kinds["surge"] == r
    assert kinds["explore"] == r - 3
    assert kinds["march"] < 6 * r
    assert (kinds["expand from"] > 0) == (variant == "v2015")
    assert kinds["expand from"] < r * (r - 1)


def test_a_map_of_three_sectors_keeps_to_the_opening() -> None:
    game = load_game("ozymandias-market", sectors=3)
    assert set(region(game)) == set(OPENINGS["triangle"])
    assert not any(t.startswith("explore") for t in game.action_table())
    march = [t for t in game.action_table() if t.startswith("march")]
    assert len(march) == 6  # the three mutually adjacent openings, both ways


def test_tables_over_the_cap_are_refused() -> None:
    with pytest.raises(ParameterError, match="capped"):
        load_game("ozymandias-market", "v2015", sectors=200).action_table()


def test_every_augury_order_met_in_play_has_a_code() -> None:
    game = load_game("ozymandias-market", "seed", 2)
    table = set(game.action_table())
    for seed in range(40):
        state = game.new_initial_state(seed)
        walk = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            if state.step == "augury":
                orders = state.legal_actions(seat)
                assert len(orders) == 6 and all(str(a) in table for a in orders)
                return
            state.apply_actions({s: walk.choice(state.legal_actions(s))
                                 for s in state.current_players()})
    pytest.fail("no random walk reached an Augury")


def test_observation_map_block_shows_every_sector() -> None:
    game = load_game("ozymandias-market", "seed", 3)
    state = game.new_initial_state(2)
    walk = random.Random(2)
    while len(state.view(0)["map"]) < 5:  # until the map has grown
        assert not state.is_terminal()
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
    n, hexes = game.players, region(game)
    view = state.view(1)
    tensor = game.observation_tensor(view)
    assert list(tensor[:n]) == [0.0, 1.0, 0.0]  # the viewer's own seat, absolute
    start = 3 * n + 10  # after seat, phase, step, acting, turn order, round
    block = tensor[start:start + HEX_FEATURES * len(hexes)].reshape(len(hexes), HEX_FEATURES)
    shown = {hexes[i] for i in np.flatnonzero(block[:, 0])}
    assert shown == {(q, r) for q, r, _ in view["map"]} and len(shown) > 3
    disks = sum(len(stack) for _, _, stack in view["map"])
    assert block[:, 10:].sum() * game.params["disks_per_colour"] == pytest.approx(disks)
