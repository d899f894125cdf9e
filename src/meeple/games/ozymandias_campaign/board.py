"""The map of Ozymandias (campaign edition): placed sector tiles joined into one graph.

Adjacency comes only from the graph (OZW-23): two points are adjacent when one line joins them,
inside a tile or across a join between two tiles. A tile joins the map at one *open port* of
the map and one port of the new tile (OZW-32, OZW-33: every port-to-port join is legal; the
choice of the new tile's port is its "rotation"). A point is named ``TILE:point``, e.g.
``GOLD-1:c1``; tile ids are unique and a tile is placed at most once, so names are unique.

A :class:`SectorMap` is an immutable value: :meth:`SectorMap.attach` returns a new map, so game
states can share one map until a tile is added. Each map remembers the maps attached to it
(searches explore the same joins from one shared map again and again), so one join is built
once; the memo holds at most one map per (open port, tile, tile port).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.games.ozymandias_campaign.vocab import COLONY, Tile


def point_name(tile: Tile, point: str) -> str:
    """The map-wide name of ``point`` on ``tile``: ``TILE:point``."""
    return f"{tile.id}:{point}"


def _place(placement: Placement, kinds: dict[str, str], suits: dict[str, int],
           adjacency: dict[str, Any], open_ports: list[tuple[str, str]]) -> list[str]:
    """Add ``placement``'s tile to a map's tables in place (its points, its lines, its join and
    its ports: the one place a map is built). ``adjacency`` values may be sets or frozensets:
    each touched entry is replaced by a new set. Returns the touched points: the new tile's, in
    file order, then the point it joins.

    Raises:
        ParameterError: if the tile is already on the map, the open port is not open, or the
            tile has no such port.
    """
    tile = placement.tile
    if any(point_name(tile, p) in kinds for p, _ in tile.points):
        raise ParameterError(f"tile {tile.id} is already on the map")
    touched = []
    for point, kind in tile.points:
        name = point_name(tile, point)
        kinds[name] = kind
        suits[name] = tile.suit
        adjacency[name] = set()
        touched.append(name)
    for a, b in tile.lines:
        adjacency[point_name(tile, a)].add(point_name(tile, b))
        adjacency[point_name(tile, b)].add(point_name(tile, a))
    ports = [(point_name(tile, point), port) for port, point in tile.ports]
    if placement.join is not None:
        at, port, new_port = placement.join
        if (at, port) not in open_ports:
            raise ParameterError(f"{at} has no open port {port!r} to join {tile.id} to")
        ports_of_tile = dict(tile.ports)
        if new_port not in ports_of_tile:
            raise ParameterError(f"tile {tile.id} has no port {new_port!r}")
        joined = point_name(tile, ports_of_tile[new_port])
        adjacency[at] = {*adjacency[at], joined}
        adjacency[joined].add(at)
        open_ports.remove((at, port))
        ports.remove((joined, new_port))
        if at not in touched:
            touched.append(at)
    open_ports.extend(ports)
    return touched


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on the map; ``join`` is ``(open port's point name, its port name, new tile's
    port name)`` or None for the opening tile."""

    tile: Tile
    join: tuple[str, str, str] | None = None


class SectorMap:
    """Placed tiles as one graph of named points (see the module docstring).

    Attributes:
        placements: the tiles in the order they were placed.
        kinds: point name -> COLONY, INTERSECTION or HAZARD.
        suits: point name -> the suit index of the tile holding it (OZW-30).
        adjacency: point name -> the names of the points one line away.
        open_ports: ``(point name, port name)`` of every port not yet joined, in placement
            order.
        colonies: the colony points, sorted by name.
        colony_neighbours, other_neighbours: point name -> the colony points one line away,
            and the other (intersection and hazard) points one line away (the legal-move
            generator asks for them at every campaign step; derived once per map).
    """

    __slots__ = ("placements", "kinds", "suits", "adjacency", "open_ports", "colonies",
                 "colony_neighbours", "other_neighbours", "_attached")

    def __init__(self, placements: Sequence[Placement]) -> None:
        kinds: dict[str, str] = {}
        suits: dict[str, int] = {}
        adjacency: dict[str, Any] = {}
        open_ports: list[tuple[str, str]] = []
        for placement in placements:
            _place(placement, kinds, suits, adjacency, open_ports)
        self.placements = tuple(placements)
        self.kinds = kinds
        self.suits = suits
        self.adjacency = {name: frozenset(n) for name, n in adjacency.items()}
        self.open_ports = tuple(open_ports)
        self._derive()
        #: ``(at, port, id(tile), tile_port)`` -> ``(tile, the attached map)`` (see attach).
        self._attached: dict[tuple[str, str, int, str], tuple[Tile, SectorMap]] = {}

    def _derive(self) -> None:
        """The tables derived from ``kinds`` and ``adjacency`` (class docstring)."""
        kinds = self.kinds
        self.colonies = tuple(sorted(q for q, kind in kinds.items() if kind == COLONY))
        self.colony_neighbours = {q: frozenset(n for n in near if kinds[n] == COLONY)
                                  for q, near in self.adjacency.items()}
        self.other_neighbours = {q: frozenset(n for n in near if kinds[n] != COLONY)
                                 for q, near in self.adjacency.items()}

    def _extended(self, placement: Placement) -> SectorMap:
        """This map with one more ``placement``: equal to ``SectorMap([*placements,
        placement])`` (the same tables, in the same order), built from this map's tables by the
        same step (:func:`_place`) instead of from every tile again; the derived tables are
        redone only for the points the new tile adds or touches."""
        kinds, suits = dict(self.kinds), dict(self.suits)
        adjacency: dict[str, Any] = dict(self.adjacency)
        open_ports = list(self.open_ports)
        touched = _place(placement, kinds, suits, adjacency, open_ports)
        new = SectorMap.__new__(SectorMap)
        new.placements = (*self.placements, placement)
        new.kinds, new.suits, new.open_ports = kinds, suits, tuple(open_ports)
        colony_neighbours = dict(self.colony_neighbours)
        other_neighbours = dict(self.other_neighbours)
        for q in touched:
            near = adjacency[q] = frozenset(adjacency[q])
            colony_neighbours[q] = frozenset(n for n in near if kinds[n] == COLONY)
            other_neighbours[q] = frozenset(n for n in near if kinds[n] != COLONY)
        new.adjacency = adjacency
        new.colony_neighbours, new.other_neighbours = colony_neighbours, other_neighbours
        if any(kind == COLONY for _, kind in placement.tile.points):
            new.colonies = tuple(sorted(q for q, kind in kinds.items() if kind == COLONY))
        else:
            new.colonies = self.colonies
        new._attached = {}
        return new

    @classmethod
    def opening(cls, tiles: Iterable[Tile]) -> SectorMap:
        """The setup map (Game Setup 2): the first tile, and each further one (OZW-32
        ``setup_tiles``) joined at the first open port to its own first port."""
        tiles = list(tiles)
        result = cls([Placement(tiles[0])])
        for tile in tiles[1:]:
            at, port = result.open_ports[0]
            result = result.attach(at, port, tile, tile.ports[0][0])
        return result

    def attach(self, at: str, port: str, tile: Tile, tile_port: str) -> SectorMap:
        """A new map with ``tile`` joined by its ``tile_port`` to the open ``port`` of point
        ``at`` (exploration, OZW-32).

        The result is remembered on this map (maps never change, so the same join gives an
        equal map): asked again with the same tile object, the same map is returned.

        Raises:
            ParameterError: if that port is not open or the tile has no such port.
        """
        key = (at, port, id(tile), tile_port)
        found = self._attached.get(key)
        if found is not None and found[0] is tile:  # the tile kept alive: its id is its own
            return found[1]
        result = self._extended(Placement(tile, (at, port, tile_port)))
        self._attached[key] = (tile, result)
        return result

    def neighbours(self, point: str) -> frozenset[str]:
        """Points one line away from ``point`` (OZW-23)."""
        return self.adjacency[point]

    def ports_of(self, point: str) -> list[str]:
        """The open ports whose line leaves the map at ``point``."""
        return [port for name, port in self.open_ports if name == point]

    def points(self) -> list[str]:
        """Every point's name, in placement and file order."""
        return list(self.kinds)

    def to_json(self) -> list[dict[str, Any]]:
        """The placements: ``[{"tile": id, "join": [at, port, tile_port] or null}, ...]``."""
        return [{"tile": p.tile.id, "join": None if p.join is None else list(p.join)}
                for p in self.placements]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, Any]], tiles: Mapping[str, Tile]
                  ) -> SectorMap:
        """Inverse of :meth:`to_json`, given the tiles by id.

        Raises:
            ParameterError: for an unknown tile or an impossible join.
        """
        placements = []
        for entry in data:
            if entry["tile"] not in tiles:
                raise ParameterError(f"unknown tile {entry['tile']!r} in a saved map")
            join = entry.get("join")
            placements.append(Placement(tiles[entry["tile"]], None if join is None
                                        else (join[0], join[1], join[2])))
        return cls(placements)

    def __getstate__(self) -> tuple:
        """Pickled without the memo of attached maps (it holds ids of this process's tiles)."""
        return (self.placements, self.kinds, self.suits, self.adjacency, self.open_ports)

    def __setstate__(self, state: tuple) -> None:
        (self.placements, self.kinds, self.suits, self.adjacency, self.open_ports) = state
        self._derive()
        self._attached = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SectorMap) and other.placements == self.placements

    def __hash__(self) -> int:
        return hash(self.placements)


#: Most sector maps kept per game spec (a playthrough makes at most one per placed tile).
MAP_CACHE_SIZE = 4096


def view_map(game: Any, placements: Sequence[Mapping[str, Any]]) -> SectorMap:
    """The map of a view's ``map`` (its placements), built once per distinct placement list
    per game spec and shared (maps are immutable; at most ``MAP_CACHE_SIZE`` kept). A
    determinization and the heuristic bot read views' maps through it.

    Raises:
        ParameterError: for an unknown tile or an impossible join (:meth:`SectorMap.from_json`).
    """
    maps = game._cache.get("ozw-maps")
    if maps is None:
        maps = game._cache["ozw-maps"] = ({t.id: t for t in game.tiles}, {})
    tiles, memo = maps
    key = tuple((p["tile"], None if p["join"] is None else tuple(p["join"]))
                for p in placements)
    found = memo.get(key)
    if found is None:
        if len(memo) >= MAP_CACHE_SIZE:
            memo.clear()
        found = memo[key] = SectorMap.from_json(placements, tiles)
    return found
