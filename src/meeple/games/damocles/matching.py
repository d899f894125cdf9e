"""Pattern matching of codices against the central circle (DAM-1, DAM-2, DAM-5, DAM-14).

A pattern ``((offset, god), ...)`` matches the circle ``c`` at rotation ``r`` when
``c[(r + offset) % 7] == god`` for every pip (clockwise; ``mirror`` also allows
counter-clockwise, DAM-2). Under ``match=rotational``
(DAM-1 b) any of the 7 rotations will do; under ``absolute`` only rotation 0. A Reflex lets one
codex's interior blank gaps shrink to any length from 0 up to the printed one (DAM-5 b): the
*relaxed variants* of a pattern. Results are bitmasks of matching rotations, so a Production
and a Number can be asked to match at the same rotation (``pair_anchor=joint``) by AND-ing.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product

from meeple.games.damocles.codex import CIRCLE

Pattern = tuple[tuple[int, int], ...]
Circle = tuple[int | None, ...]


@cache
def relaxed_variants(pattern: Pattern) -> tuple[Pattern, ...]:
    """Every pattern a Reflex allows for ``pattern``: each interior gap shrunk to any length
    from 0 to its printed size (the printed pattern included; DAM-5 b). The wrap-around gap
    is not "indicated by the codex" and never changes."""
    if len(pattern) < 2:
        return (pattern,)
    gaps = [pattern[i][0] - pattern[i - 1][0] - 1 for i in range(1, len(pattern))]
    out = []
    for chosen in product(*(range(g + 1) for g in gaps)):
        offset, pips = 0, [(0, pattern[0][1])]
        for (_, god), gap in zip(pattern[1:], chosen, strict=True):
            offset += gap + 1
            pips.append((offset, god))
        out.append(tuple(pips))
    return tuple(sorted(set(out)))


#: ``_TURNED[slots][offset]``: the 7-bit slot set ``slots`` read from ``offset`` on: its bit r
#: is bit ``(r + offset) % 7`` of ``slots``. A pip (offset, god) holds at rotation r exactly
#: when bit r of ``_TURNED[slots of god][offset]`` is set.
_TURNED: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << r for r in range(CIRCLE) if slots >> ((r + offset) % CIRCLE) & 1)
          for offset in range(CIRCLE))
    for slots in range(1 << CIRCLE))
_ALL = (1 << CIRCLE) - 1


def pip_table(circle: Circle) -> tuple[int, ...]:
    """Per pip ``(offset, god)``, at index ``god * 7 + offset``: the rotations (bit r) at which
    that pip is in place on ``circle`` (empty slots hold no god). A pattern's rotations are
    the AND of its pips' entries (:func:`turned`)."""
    held = [0, 0, 0, 0, 0]  # per god, the slots holding it (bit s = slot s)
    for slot, god in enumerate(circle):
        if god is not None:
            held[god] |= 1 << slot
    turned_ = _TURNED
    return (turned_[held[0]] + turned_[held[1]] + turned_[held[2]] + turned_[held[3]]
            + turned_[held[4]])


def pip_indices(pattern: Pattern) -> tuple[int, ...]:
    """``pattern``'s pips as indices into a :func:`pip_table` (``god * 7 + offset``)."""
    return tuple(god * CIRCLE + offset for offset, god in pattern)


def turned(table: tuple[int, ...], indices: tuple[int, ...], rotational: bool = True) -> int:
    """The rotations at which every pip of :func:`pip_indices` is in place on the circle of
    :func:`pip_table` ``table`` (only rotation 0 unless ``rotational``)."""
    mask = _ALL if rotational else 1
    for index in indices:
        mask &= table[index]
    return mask


def rotations(circle: Circle, pattern: Pattern, rotational: bool = True) -> int:
    """Bitmask of the rotations ``r`` (bit r) at which ``pattern`` matches ``circle``:
    ``circle[(r + offset) % 7] == god`` for every pip (only r = 0 unless ``rotational``)."""
    return turned(pip_table(circle), pip_indices(pattern), rotational)


@cache
def mirrored(pattern: Pattern) -> Pattern:
    """``pattern`` read counter-clockwise: offsets negated modulo 7 (DAM-2, ``mirror``)."""
    return tuple((-offset % CIRCLE, god) for offset, god in pattern)


#: How many (circle, pattern, options) answers :func:`match_mask` keeps. A search asks the
#: same circles again and again (every determinization shares the public circle, and legal
#: pairs test each codex against several partners), so the answers are memoized.
MATCH_CACHE_SIZE = 1 << 17


@cache
def readings(pattern: Pattern, relaxed: bool, mirror: bool) -> tuple[tuple[tuple[int, ...], int],
                                                                      ...]:
    """Every way ``pattern`` may be read on the circle, as ``(pip indices, shift)``
    (:func:`pip_indices`): each Reflex variant if ``relaxed`` (else the printed pattern),
    clockwise with shift 0 and, if ``mirror``, also counter-clockwise with shift 7 (the bits of
    its rotations in a mask)."""
    out = []
    for variant in relaxed_variants(pattern) if relaxed else (pattern,):
        out.append((pip_indices(variant), 0))
        if mirror:
            out.append((pip_indices(mirrored(variant)), CIRCLE))
    return tuple(out)


def mask_on(table: tuple[int, ...], ways: tuple[tuple[tuple[int, ...], int], ...],
            rotational: bool) -> int:
    """:func:`match_mask` from the circle's :func:`pip_table` and the pattern's
    :func:`readings`: the OR of each reading's rotations (:func:`turned`, inlined), shifted."""
    mask = 0
    full = _ALL if rotational else 1
    for indices, shift in ways:
        turns = full
        for index in indices:
            turns &= table[index]
        mask |= turns << shift
    return mask


@lru_cache(maxsize=MATCH_CACHE_SIZE)
def match_mask(circle: Circle, pattern: Pattern, rotational: bool, relaxed: bool,
               mirror: bool = False) -> int:
    """Bitmask of rotations at which ``pattern`` (or, if ``relaxed``, any of its Reflex
    variants; if ``mirror``, also read counter-clockwise) matches ``circle``; 0 = no match.
    Mirrored matches set bits 7-13, so a joint anchor never mixes the two directions.
    ``circle`` must be a tuple (the answer is memoized: a pure function of its arguments)."""
    return mask_on(pip_table(circle), readings(pattern, relaxed, mirror), rotational)
