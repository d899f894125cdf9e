"""Ozymandias (campaign edition) content as data: the sector tiles and the card deck.

The seed names the components (sector tiles with a suit, one to three colonies, intersections,
hazards and lines; cards with a suit, a rank and rules text) but gives none of them, so the
reference tiles and deck are authored content (rules-questions 4.4): two frozen JSON files,
``data/tiles.json`` and ``data/cards.json``, written by ``data/make_content.py`` and checked in.
This module reads such files, checks every rule a tile or a card must obey, and turns them into
the runtime :class:`~meeple.games.ozymandias_campaign.vocab.Tile` and
:class:`~meeple.games.ozymandias_campaign.vocab.Card` values.

Tile file (``"format": "meeple-ozymandias-campaign-tiles/1"``); a tile is an abstract graph
with named ports (OZW-33)::

    {"format": "meeple-ozymandias-campaign-tiles/1", "description": "...",
     "tiles": [{"id": "GOLD-1", "suit": "GOLD",
                "points": {"c1": "COLONY", "i1": "INTERSECTION", "h1": "HAZARD", ...},
                "lines": [["c1", "i1"], ["i1", "h1"], ...],
                "ports": {"a": "i1", "b": "h1", ...}}]}

``points`` maps a point id to its kind; ``lines`` are undirected segments between two points
of the tile; ``ports`` maps a port name to the point whose line leaves the tile's edge there (a
point may have several ports). Rules checked per tile:

* ``id``, point ids and port names are names (letters, digits, ``_ . -``; no ``:``, since map
  points are called ``TILE:point``, OZW-33); ``suit`` is one of :data:`SUITS` (OZW-1); every
  point kind is one of :data:`POINT_KINDS` (seed: The Sectors);
* every line joins two different known points, and no two lines join the same pair (OZW-23:
  adjacency is one line between two points; OZW-33);
* every port names a known point (of any kind; a point may have several ports);
* one to three colonies (seed: The Sectors), at least :data:`MIN_PORTS` ports (OZW-32: one to
  join the map, one more to explore on);
* the lines join all the points (OZW-33), and every colony has a line to an intersection or a
  hazard, so a standing worker can reach it (OZW-22, OZW-23);
* the tile can be explored from and into (OZW-32): some port leaves from an intersection or a
  hazard next to a colony (where a worker may stand, so exploring is possible from any tile),
  and some port leaves from a colony (joined there, the new tile's colony lies next to the
  explorer's standing worker, so it can be colonized, OZW-24);

and per file, once every tile is valid: at least one tile (Game Setup 2) and unique ids.

Card file (``"format": "meeple-ozymandias-campaign-cards/1"``)::

    {"format": "meeple-ozymandias-campaign-cards/1", "description": "...",
     "cards": [{"id": "GOLD-5-b", "suit": "GOLD", "rank": 5, "text": ""}, ...]}

Per card: ``id`` is a name, ``suit`` one of :data:`SUITS` (OZW-1), ``rank`` an integer 2..7
(seed: The Cards; rules-questions 4.4), ``text`` a string, blank by default (OZW-35) and
optional; per deck: unique ids and at least one card of each suit (OZW-1).

Every problem raises :class:`TilesError` or :class:`CardsError` (both
:class:`~meeple.engine.content.ContentError`), whose message names the tile or card
(``tile GOLD-2``, or ``tile at index 3`` when its id is unreadable) and the rule it breaks;
all problems found are reported at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from meeple.engine.content import (
    ContentError,
    ContentManifest,
    problems_error,
    pydantic_problems,
    read_json,
)
from meeple.games.ozymandias_campaign.vocab import (
    COLONY,
    POINT_KINDS,
    RANKS,
    SUITS,
    Card,
    Tile,
)

#: The file formats this module reads.
TILES_FORMAT = "meeple-ozymandias-campaign-tiles/1"
CARDS_FORMAT = "meeple-ozymandias-campaign-cards/1"
#: The packaged reference content (rules-questions 4.4).
DATA_DIR = Path(__file__).parent / "data"
DEFAULT_TILES_PATH = DATA_DIR / "tiles.json"
DEFAULT_CARDS_PATH = DATA_DIR / "cards.json"
#: Colonies per sector (seed: The Sectors: "one to three colonies").
MIN_COLONIES, MAX_COLONIES = 1, 3
#: Fewest ports a tile may have: one to join the map, one more to explore on (OZW-32).
MIN_PORTS = 2
#: Where a port's line may leave the tile: a point a standing worker can occupy (OZW-22).
STANDABLE = tuple(kind for kind in POINT_KINDS if kind != COLONY)

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_NAME_RULE = "letters, digits, '_', '.' or '-', starting with a letter or digit"


class TilesError(ContentError):
    """A tile file is missing, unreadable or breaks a content rule; ``problems`` lists every
    problem found, each naming the tile and the rule."""


class CardsError(ContentError):
    """A card file is missing, unreadable or breaks a content rule; ``problems`` lists every
    problem found, each naming the card and the rule."""


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and _NAME_RE.fullmatch(value) is not None


def _suit(value: Any) -> str:
    if not isinstance(value, str) or value not in SUITS:
        raise ValueError(f"unknown suit {value!r}; suits: {', '.join(SUITS)} (OZW-1: the "
                         "three factions)")
    return value


def _names_map(value: Any, what: str, example: str) -> dict[str, Any]:
    """``value`` must be a JSON object whose keys are names (messages call them ``what``)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what}s must be a JSON object, e.g. {example}; got "
                         f"{type(value).__name__}")
    bad = [f"{what} name {key!r} is not a name ({_NAME_RULE}; OZW-33: map points are called "
           "TILE:point)" for key in value if not _is_name(key)]
    if bad:
        raise ValueError("\n".join(bad))
    return value


def _line_text(line: tuple[str, str]) -> str:
    return repr(list(line))


class TileEntry(BaseModel):
    """One sector tile as stored in the file (see the module docstring for its rules)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: StrictStr
    suit: StrictStr
    points: dict[str, str]
    lines: tuple[tuple[str, str], ...]
    ports: dict[str, str]

    @field_validator("id", mode="before")
    @classmethod
    def _id_is_a_name(cls, value: Any) -> str:
        if not _is_name(value):
            raise ValueError(f"id {value!r} is not a name ({_NAME_RULE}; OZW-33: map points "
                             "are called TILE:point)")
        return value

    @field_validator("suit", mode="before")
    @classmethod
    def _suit_is_known(cls, value: Any) -> str:
        return _suit(value)

    @field_validator("points", mode="before")
    @classmethod
    def _points_have_kinds(cls, value: Any) -> dict[str, str]:
        points = _names_map(value, "point", '{"c1": "COLONY", "i1": "INTERSECTION"}')
        bad = [f"point {point!r} has unknown kind {kind!r}; kinds: {', '.join(POINT_KINDS)} "
               "(seed: The Sectors: colonies, intersections and hazards)"
               for point, kind in points.items() if not isinstance(kind, str)
               or kind not in POINT_KINDS]
        if bad:
            raise ValueError("\n".join(bad))
        return points

    @field_validator("lines", mode="before")
    @classmethod
    def _lines_are_pairs(cls, value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise ValueError('lines must be a list (JSON array) of point pairs, e.g. [["c1", '
                             f'"i1"]]; got {type(value).__name__}')
        bad = [f"line {line!r} is not a pair of point ids, e.g. ['c1', 'i1'] (OZW-33: a line "
               "joins two points)" for line in value
               if not (isinstance(line, list) and len(line) == 2
                       and all(isinstance(p, str) for p in line))]
        if bad:
            raise ValueError("\n".join(bad))
        return value

    @field_validator("ports", mode="before")
    @classmethod
    def _ports_name_points(cls, value: Any) -> dict[str, Any]:
        ports = _names_map(value, "port", '{"a": "i1"}')
        bad = [f"port {port!r} must name a point id; got {point!r} (OZW-33)"
               for port, point in ports.items() if not isinstance(point, str)]
        if bad:
            raise ValueError("\n".join(bad))
        return ports

    @model_validator(mode="after")
    def _tile_rules(self) -> Self:
        problems: list[str] = []
        known = True  # every line and port names a point of the tile
        seen: dict[frozenset[str], tuple[str, str]] = {}
        for line in self.lines:
            unknown = [p for p in dict.fromkeys(line) if p not in self.points]
            for point in unknown:
                problems.append(f"line {_line_text(line)} names an unknown point {point!r} "
                                "(OZW-33: a line joins two points of its tile)")
            known = known and not unknown
            if line[0] == line[1]:
                problems.append(f"line {_line_text(line)} is a self-loop: it joins point "
                                f"{line[0]!r} to itself (OZW-33: a line joins two different "
                                "points)")
                continue
            pair = frozenset(line)
            if pair in seen:
                problems.append(f"line {_line_text(line)} duplicates line "
                                f"{_line_text(seen[pair])} (OZW-23: two points are adjacent "
                                "by one line)")
            else:
                seen[pair] = line
        for port, point in self.ports.items():
            if point not in self.points:
                problems.append(f"port {port!r} names unknown point {point!r} (OZW-33: a port "
                                "is where a point's line leaves the tile)")
                known = False
        colonies = [p for p, kind in self.points.items() if kind == COLONY]
        if not MIN_COLONIES <= len(colonies) <= MAX_COLONIES:
            problems.append(f"has {len(colonies)} colonies; a sector has {MIN_COLONIES} to "
                            f"{MAX_COLONIES} (seed: The Sectors)")
        if len(self.ports) < MIN_PORTS:
            problems.append(f"has {len(self.ports)} port(s), fewer than {MIN_PORTS} ports; a "
                            "tile needs ports to join the map and to explore on (OZW-32)")
        if known and self.points:
            problems.extend(self._graph_problems(colonies))
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def _graph_problems(self, colonies: list[str]) -> list[str]:
        """Connectivity (OZW-33) and colony reach (OZW-22, OZW-23); every line is known."""
        adjacency: dict[str, set[str]] = {point: set() for point in self.points}
        for a, b in self.lines:
            adjacency[a].add(b)
            adjacency[b].add(a)
        first = next(iter(self.points))
        reached, frontier = {first}, [first]
        while frontier:
            for other in adjacency[frontier.pop()] - reached:
                reached.add(other)
                frontier.append(other)
        problems = []
        apart = [p for p in self.points if p not in reached]
        if apart:
            problems.append(f"points {', '.join(apart)} are not connected to the rest of the "
                            "tile (OZW-33)")
        for colony in colonies:
            if not any(self.points[p] in STANDABLE for p in adjacency[colony]):
                problems.append(f"colony {colony!r} has no line to an intersection or a "
                                "hazard, so no standing worker can reach it (OZW-22, OZW-23)")
        if not colonies or len(self.ports) < MIN_PORTS:
            return problems  # the colony count or the port count is the problem to fix first
        ported = {point for point in self.ports.values() if point in self.points}
        if not any(self.points[p] in STANDABLE and adjacency[p] & set(colonies)
                   for p in ported):
            problems.append("no port leaves from an intersection or a hazard next to a "
                            "colony, so a worker standing by a colony here can never explore "
                            "(OZW-32)")
        if not any(self.points[p] == COLONY for p in ported):
            problems.append("no port leaves from a colony, so once joined to the map the tile "
                            "cannot be colonized from the worker standing across the join "
                            "(OZW-24, OZW-32)")
        return problems

    def to_tile(self) -> Tile:
        """The runtime tile: the suit as an index into ``SUITS``, everything in file order."""
        return Tile(self.id, SUITS.index(self.suit), tuple(self.points.items()),
                    tuple((a, b) for a, b in self.lines), tuple(self.ports.items()))


class TilesManifest(ContentManifest):
    """A whole tile file: ``format``, ``description`` and the ``tiles``; at least one tile
    (Game Setup 2), ids unique (OZW-33)."""

    FORMAT = TILES_FORMAT
    tiles: tuple[TileEntry, ...]

    @model_validator(mode="after")
    def _file_rules(self) -> Self:
        problems = _duplicates([t.id for t in self.tiles], "tile", "OZW-33: tiles are named "
                               "uniquely, and map points are called TILE:point")
        if not self.tiles:
            problems.append("the file has no tiles; a game needs at least one (Game Setup 2: "
                            "place one sector tile in the middle of the table)")
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def runtime_tiles(self) -> tuple[Tile, ...]:
        """The runtime tiles, in file order."""
        return tuple(entry.to_tile() for entry in self.tiles)


class CardEntry(BaseModel):
    """One card as stored in the file: ``id``, ``suit``, ``rank`` and optional ``text``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: StrictStr
    suit: StrictStr
    rank: StrictInt
    text: StrictStr = ""

    @field_validator("id", mode="before")
    @classmethod
    def _id_is_a_name(cls, value: Any) -> str:
        if not _is_name(value):
            raise ValueError(f"id {value!r} is not a name ({_NAME_RULE}, e.g. GOLD-5-b)")
        return value

    @field_validator("suit", mode="before")
    @classmethod
    def _suit_is_known(cls, value: Any) -> str:
        return _suit(value)

    @field_validator("rank", mode="before")
    @classmethod
    def _rank_in_range(cls, value: Any) -> int:
        if type(value) is not int or value not in RANKS:
            raise ValueError(f"rank {value!r} is outside {RANKS.start}..{RANKS.stop - 1} "
                             "(seed: The Cards; rules-questions 4.4: ranks 2 to 7)")
        return value

    @field_validator("text", mode="before")
    @classmethod
    def _text_is_a_string(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"text must be a string (blank for a vanilla card, OZW-35); got "
                             f"{value!r}")
        return value

    def to_card(self) -> Card:
        """The runtime card: the suit as an index into ``SUITS``."""
        return Card(self.id, SUITS.index(self.suit), self.rank, self.text)


class CardsManifest(ContentManifest):
    """A whole card file: ``format``, ``description`` and the ``cards``; ids unique, at least
    one card of each suit (OZW-1)."""

    FORMAT = CARDS_FORMAT
    cards: tuple[CardEntry, ...]

    @model_validator(mode="after")
    def _deck_rules(self) -> Self:
        problems = _duplicates([c.id for c in self.cards], "card", "card ids are unique")
        present = {card.suit for card in self.cards}
        missing = [suit for suit in SUITS if suit not in present]
        if missing:
            problems.append(f"no card of suit {', '.join(missing)}; every suit needs at least "
                            "one card (OZW-1: three factions, each raised by its own cards)")
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def runtime_cards(self) -> tuple[Card, ...]:
        """The runtime cards, in file order."""
        return tuple(entry.to_card() for entry in self.cards)


def _duplicates(ids: list[str], noun: str, rule: str) -> list[str]:
    first: dict[str, int] = {}
    problems = []
    for index, item in enumerate(ids):
        if item in first:
            problems.append(f"{noun} {item}: duplicate id ({noun}s at index {first[item]} and "
                            f"{index}; {rule})")
        else:
            first[item] = index
    return problems


# --- turning pydantic errors into messages -------------------------------------------------

def _label(data: Any, items: str, noun: str, index: int) -> str:
    """``tile GOLD-1``, or ``tile at index 3`` when the raw entry's id is unreadable."""
    try:
        item_id = data[items][index]["id"]
    except (TypeError, KeyError, IndexError):
        item_id = None
    return f"{noun} {item_id}" if _is_name(item_id) else f"{noun} at index {index}"


def _problems(error: ValidationError, data: Any, items: str, noun: str,
              entry: type[BaseModel], manifest: type[BaseModel]) -> list[str]:
    """Readable one-line problems, each naming the item (or the file) and the rule."""
    return pydantic_problems(error, items=items, label=lambda i: _label(data, items, noun, i),
                             entry=entry, manifest=manifest)


def _validator(manifest: type[BaseModel], entry: type[BaseModel], items: str, noun: str,
               error: type[ContentError]) -> Callable[[Any, str], Any]:
    def validate(data: Any, source: str = "<in-memory data>") -> Any:
        try:
            return manifest.model_validate(data)
        except ValidationError as exc:
            raise problems_error(error, f"{noun} file {source}",
                                 _problems(exc, data, items, noun, entry, manifest),
                                 manifest.format_hint()) from None
    return validate


_validate_tiles = _validator(TilesManifest, TileEntry, "tiles", "tile", TilesError)
_validate_cards = _validator(CardsManifest, CardEntry, "cards", "card", CardsError)


def validate_tiles_data(data: Any, source: str = "<in-memory data>") -> TilesManifest:
    """Validate an in-memory tile file (the parsed JSON) and return it as a model.

    ``source`` names the data in messages. Raises :class:`TilesError` listing every problem,
    each naming the tile and the rule.
    """
    manifest: TilesManifest = _validate_tiles(data, source)
    return manifest


def validate_cards_data(data: Any, source: str = "<in-memory data>") -> CardsManifest:
    """Validate an in-memory card file (the parsed JSON) and return it as a model.

    ``source`` names the data in messages. Raises :class:`CardsError` listing every problem,
    each naming the card and the rule.
    """
    manifest: CardsManifest = _validate_cards(data, source)
    return manifest


def read_tiles_manifest(path: str | Path | None = None) -> TilesManifest:
    """Read and validate a tile file (default: the packaged ``data/tiles.json``).

    Raises :class:`TilesError` if the file is missing, unreadable, not valid JSON (with the
    line) or breaks a content rule.
    """
    path = DEFAULT_TILES_PATH if path is None else Path(path)
    return validate_tiles_data(read_json(path, "tile file", TilesError), str(path))


def read_cards_manifest(path: str | Path | None = None) -> CardsManifest:
    """Read and validate a card file (default: the packaged ``data/cards.json``).

    Raises :class:`CardsError` if the file is missing, unreadable, not valid JSON (with the
    line) or breaks a content rule.
    """
    path = DEFAULT_CARDS_PATH if path is None else Path(path)
    return validate_cards_data(read_json(path, "card file", CardsError), str(path))


@cache
def _packaged_tiles() -> tuple[Tile, ...]:
    return read_tiles_manifest().runtime_tiles()


@cache
def _packaged_cards() -> tuple[Card, ...]:
    return read_cards_manifest().runtime_cards()


def load_tiles(path: str | Path | None = None) -> tuple[Tile, ...]:
    """The sector tiles as runtime :class:`Tile` values, in file order.

    In: ``path`` to a tile file (default: the packaged ``data/tiles.json``, read once and
    cached). Out: ``Tile(id, suit index, points, lines, ports)`` per tile.
    Raises :class:`TilesError` on any problem (the message names the tile and the rule).
    """
    return _packaged_tiles() if path is None else read_tiles_manifest(path).runtime_tiles()


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """The card deck as runtime :class:`Card` values, in file order.

    In: ``path`` to a card file (default: the packaged ``data/cards.json``, read once and
    cached). Out: ``Card(id, suit index, rank, text)`` per card.
    Raises :class:`CardsError` on any problem (the message names the card and the rule).
    """
    return _packaged_cards() if path is None else read_cards_manifest(path).runtime_cards()
