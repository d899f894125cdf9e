"""Ozymandias (campaign edition) vocabulary: suits, point kinds, the ``Tile`` and ``Card`` values.

Rules: seeds/ozymandias-campaign.md (Components: The Cards, The Sectors); decisions OZW-n in
docs/rules/ozymandias-campaign.md. Tiles and cards are data (``data/tiles.json``,
``data/cards.json``), validated by :mod:`.content`.

Tiles are abstract graphs (OZW-33): named points of three kinds joined by lines, plus named
*ports*, the places where a line leaves the tile's edge. Any open port of the map can be joined
to any port of a new tile (OZW-32); :mod:`.board` joins tiles into one graph.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The three factions / suits (OZW-1): Merchant (gold), Aristocrat (red), Sage (blue).
SUITS: tuple[str, ...] = ("GOLD", "RED", "BLUE")
FACTION_NAMES: dict[str, str] = {"GOLD": "Merchant", "RED": "Aristocrat", "BLUE": "Sage"}

#: Where workers go (The Sectors): colonies host lying workers (stacks), intersections and
#: hazards host one standing worker each (OZW-22); hazards have no effect by default (OZW-34).
COLONY, INTERSECTION, HAZARD = "COLONY", "INTERSECTION", "HAZARD"
POINT_KINDS: tuple[str, ...] = (COLONY, INTERSECTION, HAZARD)

#: Card ranks (The Cards; rules-questions 4.4).
RANKS = range(2, 8)


@dataclass(frozen=True, slots=True)
class Tile:
    """One sector tile.

    Attributes:
        id: unique name, e.g. ``"GOLD-1"``.
        suit: index into :data:`SUITS` (the sector's suit, which doubles war cards; OZW-30).
        points: ``((point id, kind), ...)`` in file order.
        lines: ``((point id, point id), ...)`` undirected segments inside the tile.
        ports: ``((port name, point id), ...)``: where a line leaves the tile's edge.
    """

    id: str
    suit: int
    points: tuple[tuple[str, str], ...]
    lines: tuple[tuple[str, str], ...]
    ports: tuple[tuple[str, str], ...]

    def kind(self, point: str) -> str:
        return dict(self.points)[point]

    @property
    def colonies(self) -> int:
        return sum(1 for _, kind in self.points if kind == COLONY)


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suit, a rank 2-7 (its value in war) and rules text (blank by default,
    OZW-35)."""

    id: str
    suit: int
    rank: int
    text: str = ""
