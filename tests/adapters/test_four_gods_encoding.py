"""The Four Gods encoding (src/meeple/games/battle_of_the_four_gods/encoding.py) beyond the generic
conformance of tests/test_encoding.py: the action table is every (attacked, defended) colour
pair a seat can place, counted independently; the observation parts sit where the docstring
says; a pending secret selection reaches only its owner's tensor, a face-up one everyone's.
"""

from __future__ import annotations

from itertools import product
from math import comb

import numpy as np
import pytest

from meeple.engine.registry import load_game
from meeple.games.battle_of_the_four_gods import encoding


def _expected_table_size(players: int, most: int, reveal: bool) -> int:
    # Each colour is in neither list, attacked, defended or both; a seat never names itself,
    # so at least one colour is unused; at most ``most`` indicators.
    count = 0
    for marks in product(range(4), repeat=players):
        size = sum((m & 1) + (m >> 1) for m in marks)
        if 0 in marks and size <= most:
            count += 1
    return count * (2 if reveal else 1)


@pytest.mark.parametrize("players,most,reveal",
                         [(2, 3, False), (3, 3, False), (4, 3, False), (4, 6, False),
                          (4, 2, True), (3, 0, False)])
def test_table_counts_every_placeable_selection(players: int, most: int, reveal: bool) -> None:
    game = load_game("battle-of-the-four-gods", players=players, max_actions=most,
                     reveal_lock=reveal)
    table = game.action_table()
    assert len(table) == _expected_table_size(players, most, reveal)
    if most < players:  # every choice of at most ``most`` of the 2P indicators leaves a colour
        assert sum(1 for t in table if "reveal" not in t) == sum(
            comb(2 * players, k) for k in range(most + 1))


def test_default_table_size_matches_the_docstring() -> None:
    assert load_game("battle-of-the-four-gods").num_distinct_actions() == 93
    assert load_game("battle-of-the-four-gods", max_actions=6).num_distinct_actions() == 175


def _parts(p: int) -> dict[str, slice]:
    sizes = [("own", p), ("energy", p), ("alive", p), ("to_act", p), ("submitted", p),
             ("round", 1), ("stall", 1), ("last", 2 * p * p), ("deltas", p), ("drain", 1),
             ("pending", 2 * p), ("revealed", 2 * p * p), ("revealed_flags", p),
             ("own_reveal", p), ("winners", p)]
    out, at = {}, 0
    for name, size in sizes:
        out[name] = slice(at, at + size)
        at += size
    assert at == encoding.observation_shape(load_game("battle-of-the-four-gods", players=p))[0]
    return out


def test_parts_sit_where_the_docstring_says() -> None:
    game = load_game("battle-of-the-four-gods", players=3, start_energy=20)
    parts = _parts(3)
    state = game.new_initial_state(0)
    state.apply_actions({0: game.parse_action("atk:B", 0), 1: game.parse_action("def:R", 1),
                         2: game.parse_action("atk:RB", 2)})
    t = game.observation_tensor(state.view(2))
    assert list(t[parts["own"]]) == [0, 0, 1]
    assert t[parts["energy"]] == pytest.approx(np.array(state.energy) / 20)
    assert list(t[parts["alive"]]) == [1, 1, 1] and list(t[parts["to_act"]]) == [1, 1, 1]
    assert t[parts["round"]][0] == pytest.approx(2 / 1000)
    last = t[parts["last"]].reshape(3, 2, 3)  # seat, (attacked, defended), target
    assert last[0, 0].tolist() == [0, 1, 0] and last[1, 1].tolist() == [1, 0, 0]
    assert last[2, 0].tolist() == [1, 1, 0] and not last[2, 1].any()
    assert t[parts["deltas"]] == pytest.approx(np.array(state.history[-1][2]) / 20)
    assert not t[parts["winners"]].any()


def test_a_secret_submission_reaches_only_its_owner() -> None:
    game = load_game("battle-of-the-four-gods", players=3, reveal_lock=True)
    parts = _parts(3)
    state = game.new_initial_state(0)
    before = [game.observation_tensor(state.view(s)) for s in range(3)]
    state.apply_action(game.parse_action("atk:G def:B", 0), 0)
    mine = game.observation_tensor(state.view(0))
    assert mine[parts["pending"]].tolist() == [0, 0, 1, 0, 1, 0]
    assert not mine[parts["own_reveal"]].any()
    for seat in (1, 2):
        other = game.observation_tensor(state.view(seat))
        changed = np.flatnonzero(other != before[seat])
        assert set(changed) <= set(range(parts["to_act"].start, parts["submitted"].stop))
    state.apply_action(game.parse_action("def:R reveal", 1), 1)
    seen_by_2 = game.observation_tensor(state.view(2))
    revealed = seen_by_2[parts["revealed"]].reshape(3, 2, 3)
    assert revealed[1, 1].tolist() == [1, 0, 0] and not revealed[0].any()
    assert seen_by_2[parts["revealed_flags"]].tolist() == [0, 1, 0]
    assert game.observation_tensor(state.view(1))[parts["own_reveal"]].tolist() == [0, 1, 0]
