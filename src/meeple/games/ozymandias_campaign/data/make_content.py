"""Generate the Ozymandias (campaign edition) reference content: ``tiles.json`` and ``cards.json``
(rules-questions 4.4).

The seed names sector tiles and cards but gives none, so this script authors them. Its output
is checked in; games shuffle the frozen files and never regenerate them. Running it again
rewrites both files byte for byte (no randomness)::

    python src/meeple/games/ozymandias_campaign/data/make_content.py  # rewrite both files
    python src/meeple/games/ozymandias_campaign/data/make_content.py --check  # 1 if one differs

Tiles (OZW-33: abstract graphs with named ports, every port-to-port join legal): 9 tiles, 3 per
suit (18ad11a: "9 (2.2" tri-hex) sector tiles ... an average of two colonizable locations and
eight non-colonizable locations"). They are hand-authored below in a short notation: a tile is
its id, a shape name, its lines as ``"a-b c-d ..."`` and its ports as ``"port:point ..."``. A
point's kind follows from its first letter (``c`` colony, ``i`` intersection, ``h`` hazard) and
every point lies on some line; points are listed colonies first, then intersections, then
hazards, each by number. Ports are named ``a``, ``b``, ... going round the tile's edge. Every
tile has a port at an intersection or hazard next to one of its colonies (a worker standing
there explores, OZW-22, OZW-32) and a port at a colony (joined there, the new tile can be
colonized from the explorer's standing worker, OZW-24).
In all: 18 colonies (6 per suit, each suit's tiles having 1, 2 and 3), 54 intersections and 18
hazards (8 non-colony points per tile on average), 47 ports; every tile is connected and every
colony has a line to an intersection or a hazard.

Cards: 54 = 3 suits x ranks 2-7 x 3 copies (rules-questions 4.4; the ab14a37 oracle's
distribution: 18 per suit, 9 per rank), ids ``SUIT-RANK-COPY`` with copies ``a``, ``b``, ``c``,
blank texts (OZW-35: vanilla cards by default), written suit by suit, rank by rank.

Both files are validated by :mod:`meeple.games.ozymandias_campaign.content` before writing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a file: import meeple from this checkout, not another
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from meeple.engine.content import item_per_line, write_or_check  # noqa: E402
from meeple.games.ozymandias_campaign.content import (  # noqa: E402
    CARDS_FORMAT,
    TILES_FORMAT,
    validate_cards_data,
    validate_tiles_data,
)
from meeple.games.ozymandias_campaign.vocab import (  # noqa: E402
    COLONY,
    HAZARD,
    INTERSECTION,
    RANKS,
    SUITS,
)

OUT_TILES = Path(__file__).with_name("tiles.json")
OUT_CARDS = Path(__file__).with_name("cards.json")

#: Copies of each suit x rank (rules-questions 4.4: 54 cards).
COPIES = "abc"
#: A point's kind from the first letter of its id.
KIND_OF_PREFIX = {"c": COLONY, "i": INTERSECTION, "h": HAZARD}

#: The tiles: (id, shape, lines, ports). Comments give (colonies, intersections, hazards,
#: ports) and the shape.
TILES: tuple[tuple[str, str, str, str], ...] = (
    # 2 6 2 5: a ring of six intersections, colonies on opposite sides, hazards off the ring.
    ("GOLD-1", "ring",
     "i1-i2 i2-i3 i3-i4 i4-i5 i5-i6 i6-i1 c1-i1 c2-i4 h1-i3 h2-i6",
     "a:i2 b:c1 c:i4 d:i5 e:h2"),
    # 3 6 1 5: a road of six intersections; colonies hang off it, the third one bridging a bend.
    ("GOLD-2", "spine",
     "i1-i2 i2-i3 i3-i4 i4-i5 i5-i6 c1-i2 c2-i3 c3-i5 c3-i6 h1-i4",
     "a:i1 b:h1 c:i6 d:i3 e:c1"),
    # 1 6 3 6: a colony hub with three spokes, two joined by a cross line, each ending at a hazard.
    ("GOLD-3", "fork",
     "c1-i1 c1-i2 c1-i3 i1-i4 i2-i5 i3-i6 i4-i5 h1-i4 h2-i5 h3-i6",
     "a:h1 b:i4 c:h2 d:i6 e:c1 f:i3"),
    # 2 5 2 5: a square of intersections split by a middle one; one colony between a corner and
    # a hazard.
    ("RED-1", "theta",
     "i1-i2 i2-i3 i3-i4 i4-i1 i1-i5 i5-i3 c1-i5 c2-i2 c2-h1 h1-i3 h2-i4",
     "a:i1 b:h1 c:h2 d:i4 e:c1"),
    # 3 7 2 5: two rails joined by two rungs; one colony bridges the rails.
    ("RED-2", "ladder",
     "i1-i2 i2-i3 i3-i4 i5-i6 i6-i7 i2-i5 i4-i7 c1-i1 c2-i6 c3-i3 c3-i7 h1-i4 h2-i5",
     "a:i1 b:h2 c:i7 d:c2 e:i6"),
    # 1 6 2 6: a crossroads around a central colony; two arms meet again at a hazard.
    ("RED-3", "crossroads",
     "c1-i1 i1-i2 i1-i3 i1-i4 i2-i5 i4-i6 h1-i3 h2-i5 h2-i6",
     "a:i2 b:h1 c:i1 d:i5 e:i6 f:c1"),
    # 3 5 2 5: a triangle with a colony at each corner (two of them joined), two arms ending in
    # hazards that are joined to each other.
    ("BLUE-1", "delta",
     "i1-i2 i2-i3 i3-i1 c1-i1 c2-i2 c3-i3 c2-c3 i1-i4 i2-i5 h1-i4 h2-i5 h1-h2",
     "a:i4 b:c1 c:h2 d:i5 e:i3"),
    # 2 7 2 5: two loops sharing one intersection, a hazard on the second loop.
    ("BLUE-2", "figure eight",
     "i1-i2 i2-i3 i3-i4 i4-i1 i1-i5 i5-i6 i6-h2 h2-i7 i7-i1 c1-i3 c2-i6 h1-i4",
     "a:c2 b:i2 c:i5 d:i7 e:i3"),
    # 1 6 2 5: a long winding road through a hazard; the colony sits in the bend.
    ("BLUE-3", "long road",
     "i1-i2 i2-i3 i3-h1 h1-i4 i4-i5 i5-i6 c1-i3 c1-i4 h2-i5",
     "a:i3 b:i6 c:h2 d:h1 e:c1"),
)


def _point_key(point: str) -> tuple[int, int]:
    return "cih".index(point[0]), int(point[1:])


def tile_dict(tile_id: str, lines: str, ports: str) -> dict[str, Any]:
    """One tile in the file format, from the notation of :data:`TILES`."""
    pairs = [line.split("-") for line in lines.split()]
    points = sorted({p for pair in pairs for p in pair}, key=_point_key)
    return {"id": tile_id, "suit": tile_id.split("-")[0],
            "points": {p: KIND_OF_PREFIX[p[0]] for p in points},
            "lines": pairs,
            "ports": dict(port.split(":") for port in ports.split())}


def build_tiles() -> dict[str, Any]:
    """The tile file as a JSON-ready dict, validated by the content rules."""
    tiles = [tile_dict(tile_id, lines, ports) for tile_id, _, lines, ports in TILES]
    manifest = {"format": TILES_FORMAT, "description": _describe_tiles(tiles),
                "tiles": tiles}
    validate_tiles_data(manifest, "make_content tiles")
    return manifest


def _describe_tiles(tiles: list[dict[str, Any]]) -> str:
    def count(tile: dict[str, Any], kind: str) -> int:
        return sum(1 for k in tile["points"].values() if k == kind)

    def some(n: int, noun: str) -> str:
        return f"{n} {noun}" if n == 1 else f"{n} {noun.replace('y', 'ie')}s"

    per_tile = "; ".join(
        f"{tile['id']} {shape}: {some(count(tile, COLONY), 'colony')}, "
        f"{some(count(tile, INTERSECTION), 'intersection')}, "
        f"{some(count(tile, HAZARD), 'hazard')}, {some(len(tile['lines']), 'line')}, "
        f"{some(len(tile['ports']), 'port')}"
        for tile, (_, shape, _, _) in zip(tiles, TILES, strict=True))
    total = {kind: sum(count(t, kind) for t in tiles) for kind in (COLONY, INTERSECTION, HAZARD)}
    return (
        "Reference sector tiles for Ozymandias, campaign edition (seed: The Sectors; OZW-32, "
        "OZW-33; rules-questions section 4.4). Generated by data/make_content.py (hand-authored, "
        "no randomness) and checked in; games shuffle them but never regenerate them. Each tile "
        "is an abstract graph: points (COLONY, INTERSECTION, HAZARD), lines between two points "
        "of the tile, and named ports where a line leaves the tile's edge; any port joins any "
        "other (OZW-33); every tile has a port at an intersection or hazard next to a colony "
        "(to explore from) and a port at a colony (to be colonized once joined) (OZW-32). "
        f"{len(tiles)} tiles, {len(tiles) // len(SUITS)} per suit; {total[COLONY]} colonies, "
        f"{total[INTERSECTION]} intersections, {total[HAZARD]} hazards in all. "
        f"Tiles: {per_tile}."
    )


def build_cards() -> dict[str, Any]:
    """The card file as a JSON-ready dict, validated by the content rules."""
    cards = [{"id": f"{suit}-{rank}-{copy}", "suit": suit, "rank": rank, "text": ""}
             for suit in SUITS for rank in RANKS for copy in COPIES]
    manifest = {
        "format": CARDS_FORMAT,
        "description": (
            "Reference deck for Ozymandias, campaign edition (seed: The Cards; rules-questions "
            "section 4.4). Generated by data/make_content.py (no randomness) and checked in; "
            f"games shuffle it but never regenerate it. {len(cards)} cards = {len(SUITS)} suits "
            f"({', '.join(SUITS)}; OZW-1) x ranks {RANKS.start}-{RANKS.stop - 1} x "
            f"{len(COPIES)} copies ({', '.join(COPIES)}), ids SUIT-RANK-COPY. Texts are blank "
            "(OZW-35: vanilla cards by default)."),
        "cards": cards,
    }
    validate_cards_data(manifest, "make_content cards")
    return manifest


def tiles_text(manifest: dict[str, Any] | None = None) -> str:
    """The tile file as the checked-in text: one tile per line, ending with a newline."""
    return item_per_line(build_tiles() if manifest is None else manifest, "tiles")


def cards_text(manifest: dict[str, Any] | None = None) -> str:
    """The card file as the checked-in text: one card per line, ending with a newline."""
    return item_per_line(build_cards() if manifest is None else manifest, "cards")


def main(argv: Sequence[str] | None = None) -> int:
    """Write both files (or, with ``--check``, report whether they are up to date).

    Returns the exit status: 0 written or up to date, 1 a file differs, 2 bad arguments.
    """
    tiles, cards = build_tiles(), build_cards()
    status = write_or_check(OUT_TILES, tiles_text(tiles), argv, "make_content.py", "tiles",
                            len(tiles["tiles"]))
    if status == 2:
        return status
    return max(status, write_or_check(OUT_CARDS, cards_text(cards), argv, "make_content.py",
                                      "cards", len(cards["cards"])))


if __name__ == "__main__":
    raise SystemExit(main())
