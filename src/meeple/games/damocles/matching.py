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


def rotations(circle: Circle, pattern: Pattern, rotational: bool = True) -> int:
    """Bitmask of the rotations ``r`` (bit r) at which ``pattern`` matches ``circle``."""
    mask = 0
    for r in range(CIRCLE if rotational else 1):
        for offset, god in pattern:
            if circle[(r + offset) % CIRCLE] != god:
                break
        else:
            mask |= 1 << r
    return mask


@cache
def mirrored(pattern: Pattern) -> Pattern:
    """``pattern`` read counter-clockwise: offsets negated modulo 7 (DAM-2, ``mirror``)."""
    return tuple((-offset % CIRCLE, god) for offset, god in pattern)


#: How many (circle, pattern, options) answers :func:`match_mask` keeps. A search asks the
#: same circles again and again (every determinization shares the public circle, and legal
#: pairs test each codex against several partners), so the answers are memoized.
MATCH_CACHE_SIZE = 1 << 17


@lru_cache(maxsize=MATCH_CACHE_SIZE)
def match_mask(circle: Circle, pattern: Pattern, rotational: bool, relaxed: bool,
               mirror: bool = False) -> int:
    """Bitmask of rotations at which ``pattern`` (or, if ``relaxed``, any of its Reflex
    variants; if ``mirror``, also read counter-clockwise) matches ``circle``; 0 = no match.
    Mirrored matches set bits 7-13, so a joint anchor never mixes the two directions.
    ``circle`` must be a tuple (the answer is memoized: a pure function of its arguments)."""
    variants = relaxed_variants(pattern) if relaxed else (pattern,)
    mask = 0
    for variant in variants:
        mask |= rotations(circle, variant, rotational)
        if mirror:
            mask |= rotations(circle, mirrored(variant), rotational) << CIRCLE
    return mask
