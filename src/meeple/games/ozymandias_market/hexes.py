"""Hex geometry in axial coordinates (OZD-6): a sector is ``(q, r)``; two sectors are adjacent
when they share an edge, i.e. differ by one of the six :data:`DIRECTIONS`.

Written ``q,r`` in the action notation (``expand 1,-1``).
"""

from __future__ import annotations

from meeple.engine.errors import ActionParseError

Hex = tuple[int, int]

#: The six edge neighbours of (0, 0), clockwise from east.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Opening layouts of the three starting sectors (Game Setup 2; OZD-6).
OPENINGS: dict[str, tuple[Hex, ...]] = {
    "triangle": ((0, 0), (1, 0), (0, 1)),  # mutually adjacent
    "line": ((0, 0), (1, 0), (2, 0)),
}


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def adjacent(a: Hex, b: Hex) -> bool:
    """Whether ``a`` and ``b`` share an edge."""
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


def frontier(sectors: set[Hex] | dict[Hex, object]) -> list[Hex]:
    """Empty hexes edge-adjacent to the map, sorted (where a new sector may be attached)."""
    out = {n for h in sectors for n in neighbours(h) if n not in sectors}
    return sorted(out)


def hex_text(h: Hex) -> str:
    """``q,r``."""
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
