"""Hex geometry in axial coordinates (OZD-6): a sector is ``(q, r)``; two sectors are adjacent
when they share an edge, i.e. differ by one of the six :data:`DIRECTIONS`.

Written ``q,r`` in the action notation (``expand 1,-1``).
"""

from __future__ import annotations

import functools

from meeple.engine.errors import ActionParseError

Hex = tuple[int, int]

#: The six edge neighbours of (0, 0), clockwise from east.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Opening layouts of the three starting sectors (Game Setup 2; OZD-6).
OPENINGS: dict[str, tuple[Hex, ...]] = {
    "triangle": ((0, 0), (1, 0), (0, 1)),  # mutually adjacent
    "line": ((0, 0), (1, 0), (2, 0)),
}


@functools.cache  # legal-move generation asks for the same few dozen hexes all game long
def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``, clockwise from east (memoised)."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def adjacent(a: Hex, b: Hex) -> bool:
    """Whether ``a`` and ``b`` share an edge."""
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


def frontier(sectors: set[Hex] | dict[Hex, object]) -> tuple[Hex, ...]:
    """Empty hexes edge-adjacent to the map, sorted (where a new sector may be attached).
    Memoised by the set of sectors (a map is one of few shapes in a game and its searches)."""
    key = frozenset(sectors)
    found = _FRONTIERS.get(key)
    if found is None:
        if len(_FRONTIERS) >= _FRONTIER_MEMO:
            _FRONTIERS.clear()
        found = _FRONTIERS[key] = tuple(sorted(
            {n for h in key for n in neighbours(h) if n not in key}))
    return found


#: Maps whose frontier is remembered (cleared when full: a bound on memory in long lab runs).
_FRONTIER_MEMO = 4096
_FRONTIERS: dict[frozenset[Hex], tuple[Hex, ...]] = {}


@functools.cache  # the rules log sector names at most steps; the same few dozen hexes
def hex_text(h: Hex) -> str:
    """``q,r`` (memoised)."""
    return f"{h[0]},{h[1]}"


def parse_hex(text: str) -> Hex:
    """Read ``q,r`` (spaces allowed around the comma).

    Raises:
        ActionParseError: if the text is not two integers separated by a comma.
    """
    parts = text.replace(" ", "").split(",")
    try:
        q, r = (int(p) for p in parts)
    except ValueError:
        raise ActionParseError(f"{text!r} is not a sector; write it as q,r, e.g. 1,-1") from None
    return q, r
