"""The engine's C loops (``meeple.engine._speedups``) make exactly the draws of their Python
counterparts: the same order and the same stream afterwards, for many seeds and sizes, with
rejected draws and equal keys included. Every determinization and record goes through them,
so one differing draw would change play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import rng as engine_rng
from tests.crafted_rng import generator_with_outputs

speedups = pytest.importorskip(
    "meeple.engine._speedups",
    reason="the C extension was not built (no C compiler at install); test_engine_rng's "
           "test_the_c_loops_are_built_where_a_compiler_is says whether it should have been")


def _plain_keyed_order(rng: random.Random, groups: list[list[int]]) -> list[int]:
    out: list[int] = []
    for group in groups:
        out += sorted(group, key=lambda _: rng.random())
    return out


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 48, 190, 1000, 5000])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(60):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        speedups.shuffle(b, y)
        assert y == x
        assert b.getstate() == a.getstate()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64), st.lists(st.integers(), max_size=80))
def test_shuffle_is_random_shuffle_for_any_items(seed: int, items: list[int]) -> None:
    a, b = random.Random(seed), random.Random(seed)
    x, y = items.copy(), items.copy()
    a.shuffle(x)
    speedups.shuffle(b, y)
    assert y == x and b.getstate() == a.getstate()


def test_shuffle_takes_the_next_draws_after_a_rejection() -> None:
    # Four items: positions 3, 2, 1 draw getrandbits(3), (2), (2), the top bits of each
    # output. 0xE0000000 >> 29 == 7 > 3 is rejected, then 0x20000000 gives 1 for position 3
    # (a d c b); 0xC0000000 >> 30 == 3 > 2 is rejected, 0x40000000 gives 1 (a c d b); then 0
    # for position 1 (c a d b).
    outputs = [0xE0000000, 0x20000000, 0xC0000000, 0x40000000, 0x00000000]
    x, y = list("abcd"), list("abcd")
    a, b = generator_with_outputs(outputs), generator_with_outputs(outputs)
    a.shuffle(x)
    speedups.shuffle(b, y)
    assert y == x == ["c", "a", "d", "b"]
    assert b.getstate() == a.getstate()


@pytest.mark.parametrize("sizes", [[], [0], [1], [5, 0, 40, 1, 128, 17],
                                   [300, 2048, 33, 16, 15, 17, 32, 31, 64, 65]])
def test_keyed_order_is_sorted_by_random_draws(sizes: list[int]) -> None:
    groups = [list(range(1000 * g, 1000 * g + s)) for g, s in enumerate(sizes)]
    for seed in range(60):
        a, b = random.Random(seed), random.Random(seed)
        assert speedups.keyed_order(b, groups) == _plain_keyed_order(a, groups)
        assert b.getstate() == a.getstate()


def test_keyed_order_keeps_the_order_of_equal_draws() -> None:
    # Six items in two groups; the draws (two outputs each) tie: items 0, 2 and 3 draw the
    # same value, item 1 a smaller one; in the second group both draw alike.
    tie, low = [0xABCDEF01, 0x13572468], [0x00000100, 0x00000040]
    outputs = [*tie, *low, *tie, *tie, *tie, *tie]
    groups = [["a", "b", "c", "d"], ["e", "f"]]
    a, b = generator_with_outputs(outputs), generator_with_outputs(outputs)
    expected = _plain_keyed_order(a, groups)
    assert expected == ["b", "a", "c", "d", "e", "f"]
    assert speedups.keyed_order(b, groups) == expected
    assert b.getstate() == a.getstate()


def test_the_loops_refuse_what_they_do_not_draw_for() -> None:
    with pytest.raises(TypeError, match="plain random.Random"):
        speedups.shuffle(random.SystemRandom(), [1, 2])

    class Own(random.Random):
        pass

    with pytest.raises(TypeError, match="plain random.Random"):
        speedups.keyed_order(Own(1), [[1, 2]])
    with pytest.raises(TypeError, match="list"):
        speedups.shuffle(random.Random(1), (1, 2))
    with pytest.raises(TypeError, match="sequence of sequences"):
        speedups.keyed_order(random.Random(1), [1, 2])
    rng = random.Random(1)
    before = rng.getstate()
    with pytest.raises(ValueError, match="2049 items"):
        speedups.keyed_order(rng, [[1], list(range(2049))])
    assert rng.getstate() == before  # refused before any draw


def test_the_engine_functions_use_the_loops_and_fall_back_alike() -> None:
    # meeple.engine.rng.keyed_order: a group over the C limit takes the Python sorts, with
    # the same draws as the C loop would have made for smaller groups.
    groups = [list(range(3000)), list(range(10))]
    a, b = random.Random(5), random.Random(5)
    assert engine_rng.keyed_order(a, groups) == _plain_keyed_order(b, groups)
    assert a.getstate() == b.getstate()
    items = list(range(50))
    a, b = random.Random(6), random.Random(6)
    engine_rng.shuffle(a, items)
    expected = list(range(50))
    b.shuffle(expected)
    assert items == expected and a.getstate() == b.getstate()

