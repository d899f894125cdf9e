"""Hex geometry in axial coordinates (OZD-6): a sector is ``(q, r)``; two sectors are adjacent
when they share an edge, i.e. differ by one of the six :data:`DIRECTIONS`.

Written ``q,r`` in the action notation (``expand 1,-1``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.errors import ActionParseError, ParameterError
from meeple.games.ozymandias_market.cards import parse_colour

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


def parse_sector(key: str | Sequence[int], what: str) -> Hex:
    """A sector ``(q, r)`` from ``"q,r"`` or a pair (a scenario's words).

    Raises:
        ParameterError: not two integers.
    """
    parts = key.replace(" ", "").split(",") if isinstance(key, str) else list(key)
    try:
        q, r = (int(p) for p in parts)
    except (TypeError, ValueError):
        raise ParameterError(f"{what}: {key!r} is not a sector; write it q,r, e.g. 1,-1") from None
    return q, r


def parse_map(value: Mapping[Any, str | Sequence[int | str]] | None,
              opening: str) -> dict[Hex, list[int]]:
    """``{sector: stack}`` (a stack: colours bottom to top, a string of words or a list; a
    scenario's ``map``); None: the ``opening`` sectors, empty.

    Raises:
        ParameterError: a sector given twice or not written q,r, a word that is no colour, or
            no sector at all.
    """
    if value is None:
        return {h: [] for h in OPENINGS[opening]}
    out: dict[Hex, list[int]] = {}
    for key, stack in value.items():
        h = parse_sector(key, "map")
        if h in out:
            raise ParameterError(f"map: sector {h[0]},{h[1]} is given twice")
        words = stack.split() if isinstance(stack, str) else list(stack)
        out[h] = [parse_colour(w, f"map[{h[0]},{h[1]}]") for w in words]
    if not out:
        raise ParameterError("map: expected at least one sector")
    return out
