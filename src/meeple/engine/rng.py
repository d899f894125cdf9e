"""Seeded randomness: every random number has an owner and a seed (rules-questions X-1).

The game's chance stream lives in the state and is created from the state's seed; bots, the lab
and determinization draw from their own streams, derived with :func:`derive_seed`, so a bot's
thinking never changes the game's shuffles. Nothing in meeple uses the global ``random`` state.
"""

from __future__ import annotations

import hashlib
import os
import random
from _random import Random as _CRandom
from collections.abc import Sequence
from typing import Any

try:  # the C loops of the same draws (src/meeple/engine/_speedups.c), when they were built
    from meeple.engine._speedups import keyed_order as _c_keyed_order
    from meeple.engine._speedups import shuffle as _c_shuffle
except ImportError:  # installed without a C compiler: the Python loops below, the same draws
    _c_shuffle = _c_keyed_order = None
if os.environ.get("MEEPLE_NO_SPEEDUPS"):  # the Python loops on purpose (benchmarks, tests)
    _c_shuffle = _c_keyed_order = None
#: Whether :func:`shuffle` and :func:`keyed_order` run their C loops (the extension was
#: built at install and ``MEEPLE_NO_SPEEDUPS`` is not set); either way, the same draws.
SPEEDUPS = _c_shuffle is not None

_blake2b = hashlib.blake2b
_new_random = random.Random.__new__
_c_seed = _CRandom.seed  # the C seeding under random.Random.seed's Python wrapper


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed that depends only on ``parts`` (stable across runs, platforms, processes).

    Example: ``derive_seed(seed, "bot", seat)`` for a bot's stream, ``derive_seed(seed, "game",
    index)`` for the ``index``-th game of a playtest. Unlike ``hash()``, it is not salted by
    ``PYTHONHASHSEED``.
    """
    texts = []  # a plain loop: a state's chance stream is seeded here at every determinization
    for p in parts:
        texts.append(f"{type(p).__name__}:{p}")
    digest = hashlib.blake2b("\x1f".join(texts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def chance_stream(seed: int) -> random.Random:
    """A state's chance stream, ``random.Random(derive_seed(seed, "chance"))``: the same
    generator (same ``getstate()``, same draws), made about 1 us faster (of ~5.3 us) because a
    determinized state makes one at its first chance event in every search iteration.

    Specialised, for a plain ``int`` seed only (anything else takes the plain form):

    * the seed's bytes are built in one step, ``b"int:%d\x1fstr:chance" % seed``, which are
      exactly the bytes :func:`derive_seed` joins for ``(seed, "chance")`` (``type(seed)
      .__name__`` is ``"int"``, ``f"{seed}"`` is ``"%d" % seed`` for an int, and both parts
      are ASCII), hashed the same way;
    * the generator is allocated with ``random.Random.__new__`` (which does not seed) and
      seeded by the C ``_random.Random.seed`` with that int, which is all that
      ``random.Random.__init__`` -> ``random.Random.seed`` do for an int besides the type
      checks, then ``gauss_next = None`` as they set it.

    ``tests/test_engine_rng.py`` compares both forms over many seeds.
    """
    if type(seed) is not int:
        return random.Random(derive_seed(seed, "chance"))
    rng = _new_random(random.Random)
    _c_seed(rng, int.from_bytes(_blake2b(b"int:%d\x1fstr:chance" % seed, digest_size=8)
                                .digest(), "big") >> 1)
    rng.gauss_next = None
    return rng


def copy_stream(rng: random.Random) -> random.Random:
    """An independent ``random.Random`` in ``rng``'s exact state (it continues the same
    stream; ``State.clone``'s copy of the chance stream). The same as ``r = random.Random();
    r.setstate(rng.getstate())`` without seeding ``r`` from the OS first (~11 us, then
    overwritten by ``setstate``): ``random.Random.__new__`` allocates without seeding."""
    new = _new_random(random.Random)
    new.setstate(rng.getstate())
    return new


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for an int ``n >= 1``: the same value and the same stream after it.
    For a plain ``random.Random`` it makes ``randrange``'s own draws,
    ``getrandbits(n.bit_length())`` until one is below ``n`` (CPython's
    ``_randbelow_with_getrandbits``, the algorithm :func:`shuffle` makes inline), without
    ``randrange``'s Python layers; anything else calls ``rng.randrange(n)``.
    ``tests/test_engine_rng.py`` compares the two.

    Raises:
        ValueError: ``n < 1`` (from ``randrange``).
    """
    if type(rng) is not random.Random or not _RANDBELOW_BITS or n < 1:
        return rng.randrange(n)
    width = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(width)
    while r >= n:
        r = getrandbits(width)
    return r


#: Whether ``random.Random.randrange`` draws with ``_randbelow_with_getrandbits`` (CPython
#: 3.11-3.13), the draws :func:`randbelow` and :func:`shuffle` make themselves.
_RANDBELOW_BITS = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", False)


def rng_to_json(rng: random.Random) -> list[Any]:
    """The generator's full state as JSON-compatible data (for ``State.to_json``)."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """Rebuild a generator from :func:`rng_to_json` output; it continues the same stream."""
    rng = _new_random(random.Random)  # no OS seeding: setstate sets everything (copy_stream)
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


#: Per list length, ``(i, (i + 1).bit_length())`` for ``i`` from ``length - 1`` down to 1: the
#: positions of a Fisher-Yates shuffle and the bits of its draws (see :func:`shuffle`).
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (the same
    ``getrandbits`` calls, so the same order and the same stream afterwards). For a plain
    ``random.Random`` (a subclass's own ``shuffle`` is used) and a list, the engine's C loop
    (:data:`SPEEDUPS`: 3-4x faster, taking the generator's outputs in batches); otherwise, or
    without the extension, a Python loop without ``random.shuffle``'s frame per element, each
    step's bit count read from a table made once per length. Determinizations shuffle the
    unseen cards at every search iteration; ``tests/test_engine.py`` and
    ``tests/test_engine_rng.py`` check the equality against ``random.Random.shuffle``.

    Raises:
        TypeError: ``items`` is not a mutable sequence.
    """
    if type(rng) is not random.Random or not _RANDBELOW_BITS:
        rng.shuffle(items)
        return
    if _c_shuffle is not None and type(items) is list:
        _c_shuffle(rng, items)
        return
    _shuffle_loop(rng, items)


def _shuffle_loop(rng: random.Random, items: list[Any]) -> None:
    """:func:`shuffle`'s Python loop, for a plain ``random.Random``."""
    size = len(items)
    steps = _SHUFFLE_STEPS.get(size)
    if steps is None:
        steps = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
        if size <= 4096:
            _SHUFFLE_STEPS[size] = steps
    getrandbits = rng.getrandbits
    for i, k in steps:  # random.Random.shuffle, Fisher-Yates from the end
        j = getrandbits(k)  # random.Random._randbelow_with_getrandbits(i + 1)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def keyed_order(rng: random.Random, groups: Sequence[Sequence[Any]]) -> list[Any]:
    """A new list of the items of ``groups``, group after group, each group sorted by a fresh
    ``rng.random()`` per item (drawn item by item, group by group; equal draws keep the items'
    order): the concatenation of ``sorted(g, key=lambda _: rng.random())``, with the same
    stream afterwards. Each group in a uniformly random order, drawn as a sort by random
    keys (Epoch Ellipse's deck orders). The engine's C loop (:data:`SPEEDUPS`) for a plain
    ``random.Random`` and groups of at most 2048 items; else the Python sorts.
    ``tests/test_engine_rng.py`` compares the two.
    """
    if _c_keyed_order is not None and type(rng) is random.Random:
        try:
            return _c_keyed_order(rng, groups)
        except ValueError:  # a group over 2048 items, refused before any draw
            pass
    draw = rng.random
    ordered: list[Any] = []
    for group in groups:
        ordered += sorted(group, key=lambda _: draw())
    return ordered
