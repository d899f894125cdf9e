"""The engine's specialised chance streams equal their plain constructions, bit for bit.

``chance_stream(seed)`` must be ``random.Random(derive_seed(seed, "chance"))`` and
``copy_stream(rng)`` / ``rng_from_json`` must continue ``rng``'s exact stream: every record,
determinization and search draws from them, so one differing bit would change play.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.engine import derive_seed
from meeple.engine.rng import (
    chance_stream,
    copy_stream,
    randbelow,
    rng_from_json,
    rng_to_json,
)

SEEDS = st.integers(min_value=0, max_value=2**70) | st.integers(min_value=-2**64, max_value=-1)


def _same(a: random.Random, b: random.Random) -> None:
    assert type(a) is random.Random and type(b) is random.Random
    assert a.getstate() == b.getstate()
    assert [a.getrandbits(k) for k in (1, 7, 32, 33, 100)] == [
        b.getrandbits(k) for k in (1, 7, 32, 33, 100)]
    assert [a.random() for _ in range(5)] == [b.random() for _ in range(5)]
    assert a.gauss(0.0, 1.0) == b.gauss(0.0, 1.0)  # gauss_next is carried alike
    assert a.getstate() == b.getstate()


def test_chance_stream_is_the_plain_construction_for_many_seeds() -> None:
    seeds = [*range(2000), 2**62 - 1, 2**63, 2**64 + 5, 10**40]
    seeds += [random.Random(1).getrandbits(62) for _ in range(500)]
    for seed in seeds:
        _same(chance_stream(seed), random.Random(derive_seed(seed, "chance")))


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_chance_stream_is_the_plain_construction(seed: int) -> None:
    _same(chance_stream(seed), random.Random(derive_seed(seed, "chance")))


def test_chance_stream_of_a_non_int_seed_takes_the_plain_form() -> None:
    """A bool is an int subclass whose ``derive_seed`` bytes differ ("bool:True")."""
    _same(chance_stream(True), random.Random(derive_seed(True, "chance")))
    assert chance_stream(True).getstate() != chance_stream(1).getstate()


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=1500),
       st.booleans())
def test_copy_stream_and_json_continue_the_same_stream(seed: int, used: int,
                                                       gauss: bool) -> None:
    rng = random.Random(seed)
    for _ in range(used):  # anywhere in the Mersenne Twister's 624-word block
        rng.getrandbits(32)
    if gauss:
        rng.gauss(0.0, 1.0)  # leaves a gauss_next behind
    plain = random.Random()
    plain.setstate(rng.getstate())
    copied = copy_stream(rng)
    assert copied is not rng
    restored = rng_from_json(json.loads(json.dumps(rng_to_json(rng))))
    state = rng.getstate()
    _same(copied, plain)
    _same(restored, _restate(state))
    _same(rng, _restate(state))  # the copies drew on their own: rng is untouched


def _restate(state: tuple) -> random.Random:
    r = random.Random()
    r.setstate(state)
    return r


def test_state_rng_reseed_and_clone_use_the_same_streams() -> None:
    """A chance game's state: ``rng``, ``reseed`` and ``clone`` give the plain streams."""
    game = load_game("ozymandias-market")
    state = game.new_initial_state(seed=11)
    state._rng = None
    _same(state.rng, random.Random(derive_seed(11, "chance")))
    state.reseed(12345, shuffle_unseen=False)
    _same(state.rng, random.Random(derive_seed(12345, "chance")))
    state.rng.random()
    twin = state.clone()
    assert twin._rng is not state._rng
    _same(twin.rng, _restate(state.rng.getstate()))


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.lists(
    st.integers(min_value=1, max_value=2**70) | st.integers(min_value=1, max_value=300),
    min_size=1, max_size=20))
def test_randbelow_draws_as_randrange(seed: int, bounds: list[int]) -> None:
    """``randbelow(rng, n)`` gives ``rng.randrange(n)``'s values and leaves the stream where
    it does, for bounds small and large (rejections included: ``n`` just above a power of 2
    rejects almost half the draws)."""
    a, b = random.Random(seed), random.Random(seed)
    assert [randbelow(a, n) for n in bounds] == [b.randrange(n) for n in bounds]
    _same(a, b)


def test_randbelow_refuses_as_randrange() -> None:
    """An empty range raises randrange's own ValueError."""
    with pytest.raises(ValueError):
        randbelow(random.Random(1), 0)


def test_the_c_loops_are_built_where_a_compiler_is() -> None:
    # The extension is optional (an install without a C compiler falls back to the Python
    # loops, the same draws); where the interpreter's compiler is on the PATH, as on CI, an
    # install that did not build it is a broken build, not a fallback.
    compiler = (sysconfig.get_config_var("CC") or "").split()
    if not compiler or shutil.which(compiler[0]) is None:
        pytest.skip(f"no C compiler ({compiler[:1]}) here: the Python loops serve")
    importlib.import_module("meeple.engine._speedups")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 300))
def test_the_python_loops_draw_as_random(seed: int, size: int) -> None:
    # What an install without the C loops runs (and MEEPLE_NO_SPEEDUPS=1): the shuffle's
    # Python loop and keyed_order's sorts, the same draws as random.Random's own.
    from meeple.engine.rng import _shuffle_loop, keyed_order

    a, b = random.Random(seed), random.Random(seed)
    x, y = list(range(size)), list(range(size))
    a.shuffle(x)
    _shuffle_loop(b, y)
    assert y == x and b.getstate() == a.getstate()
    groups = [list(range(size)), list(range(size // 3))]
    a, b = _OwnStream(seed), random.Random(seed)  # a subclass: never the C loop
    expected = []
    for group in groups:
        expected += sorted(group, key=lambda _: b.random())
    assert keyed_order(a, groups) == expected
    assert a.getstate() == b.getstate()


class _OwnStream(random.Random):
    """A generator type of its own (the engine's C loops take only a plain random.Random)."""
