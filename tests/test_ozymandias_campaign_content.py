"""Ozymandias (campaign edition) content: the packaged tiles and deck, their generator, and the
content rules.

Rules: seeds/ozymandias-campaign.md (Components: The Cards, The Sectors); rules-questions 4.4
and OZW-1, OZW-22, OZW-23, OZW-32, OZW-33, OZW-35.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from meeple.engine.content import ContentError
from meeple.games.ozymandias_campaign.content import (
    CARDS_FORMAT,
    DEFAULT_CARDS_PATH,
    DEFAULT_TILES_PATH,
    TILES_FORMAT,
    CardsError,
    CardsManifest,
    TilesError,
    TilesManifest,
    load_cards,
    load_tiles,
    read_cards_manifest,
    read_tiles_manifest,
    validate_cards_data,
    validate_tiles_data,
)
from meeple.games.ozymandias_campaign.vocab import (
    COLONY,
    HAZARD,
    INTERSECTION,
    SUITS,
    Card,
    Tile,
)

MAKE_CONTENT = DEFAULT_TILES_PATH.with_name("make_content.py")
GOLD, RED, BLUE = range(3)

# The authored ranges (rules-questions 4.4: 1-3 colonies, ~6 intersections, ~2 hazards, 4-6
# ports; 18ad11a: two colonizable and eight non-colonizable locations on average).
COLONIES, INTERSECTIONS, HAZARDS, PORTS = range(1, 4), range(5, 8), range(1, 4), range(4, 7)


@pytest.fixture(scope="module")
def tiles() -> tuple[Tile, ...]:
    return load_tiles()


@pytest.fixture(scope="module")
def cards() -> tuple[Card, ...]:
    return load_cards()


@pytest.fixture(scope="module")
def raw_tiles() -> dict[str, Any]:
    return json.loads(DEFAULT_TILES_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def raw_cards() -> dict[str, Any]:
    return json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def make_content() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ozymandias_campaign_make_content",
                                                  MAKE_CONTENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _count(tile: Tile, kind: str) -> int:
    return sum(1 for _, k in tile.points if k == kind)


def _adjacency(tile: Tile) -> dict[str, set[str]]:
    adjacency: dict[str, set[str]] = {point: set() for point, _ in tile.points}
    for a, b in tile.lines:
        adjacency[a].add(b)
        adjacency[b].add(a)
    return adjacency


def _component(adjacency: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for other in adjacency[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen


# --- the packaged tiles ---------------------------------------------------------------------

def test_nine_tiles_three_per_suit(tiles: tuple[Tile, ...]) -> None:
    assert all(type(tile) is Tile for tile in tiles)
    assert [tile.id for tile in tiles] == [f"{suit}-{n}" for suit in SUITS for n in (1, 2, 3)]
    assert Counter(tile.suit for tile in tiles) == {GOLD: 3, RED: 3, BLUE: 3}
    for tile in tiles:
        assert tile.id.startswith(SUITS[tile.suit] + "-")


def test_totals_18_colonies_54_intersections_18_hazards(tiles: tuple[Tile, ...]) -> None:
    assert sum(tile.colonies for tile in tiles) == 18
    assert sum(_count(tile, INTERSECTION) for tile in tiles) == 54
    assert sum(_count(tile, HAZARD) for tile in tiles) == 18
    for suit in range(3):  # each suit has a 1-, a 2- and a 3-colony tile
        assert sorted(t.colonies for t in tiles if t.suit == suit) == [1, 2, 3]


@pytest.mark.parametrize("index", range(9))
def test_each_tile_is_in_the_authored_ranges(tiles: tuple[Tile, ...], index: int) -> None:
    tile = tiles[index]
    assert tile.colonies == _count(tile, COLONY) in COLONIES
    assert _count(tile, INTERSECTION) in INTERSECTIONS
    assert _count(tile, HAZARD) in HAZARDS
    assert len(tile.ports) in PORTS
    assert len({name for name, _ in tile.ports}) == len(tile.ports)
    assert len({point for point, _ in tile.points}) == len(tile.points)
    lines = [frozenset(line) for line in tile.lines]
    assert all(len(line) == 2 for line in lines) and len(set(lines)) == len(lines)


@pytest.mark.parametrize("index", range(9))
def test_each_tile_is_connected_and_its_colonies_reachable(tiles: tuple[Tile, ...],
                                                         index: int) -> None:
    tile = tiles[index]
    adjacency = _adjacency(tile)
    assert _component(adjacency, tile.points[0][0]) == set(adjacency)  # OZW-33
    for point, kind in tile.points:
        if kind == COLONY:  # a standing worker can be next to it (OZW-22, OZW-23)
            assert any(tile.kind(p) in (INTERSECTION, HAZARD) for p in adjacency[point]), point
    colonies = {point for point, kind in tile.points if kind == COLONY}
    ported = {point for _, point in tile.ports}
    # OZW-32: a worker standing next to a colony can explore from this tile ...
    assert any(tile.kind(p) in (INTERSECTION, HAZARD) and adjacency[p] & colonies
               for p in ported)
    # ... and, joined at a colony port, the tile can be colonized across the join (OZW-24).
    assert ported & colonies


def test_tiles_have_varied_shapes(tiles: tuple[Tile, ...]) -> None:
    def signature(tile: Tile) -> tuple[Any, ...]:
        adjacency = _adjacency(tile)
        return tuple(sorted((tile.kind(p), len(n), sum(1 for q, _ in tile.ports if q == p))
                            for p, n in adjacency.items()))
    assert len({signature(tile) for tile in tiles}) == 9
    assert len({len(tile.lines) for tile in tiles}) >= 4


def test_any_two_tiles_join_at_any_ports_into_one_connected_map(
        tiles: tuple[Tile, ...]) -> None:
    # OZW-33: every port-to-port join is legal; the joined graph stays connected.
    for first in tiles:
        for second in tiles:
            if first is second:
                continue
            for _, a in first.ports:
                for _, b in second.ports:
                    adjacency = {f"1:{p}": {f"1:{q}" for q in n}
                                 for p, n in _adjacency(first).items()}
                    adjacency |= {f"2:{p}": {f"2:{q}" for q in n}
                                  for p, n in _adjacency(second).items()}
                    adjacency[f"1:{a}"].add(f"2:{b}")
                    adjacency[f"2:{b}"].add(f"1:{a}")
                    assert _component(adjacency, f"1:{a}") == set(adjacency)


def test_the_table_of_tiles(tiles: tuple[Tile, ...]) -> None:
    table = {tile.id: (tile.colonies, _count(tile, INTERSECTION), _count(tile, HAZARD),
                       len(tile.lines), len(tile.ports)) for tile in tiles}
    assert table == {
        "GOLD-1": (2, 6, 2, 10, 5), "GOLD-2": (3, 6, 1, 10, 5), "GOLD-3": (1, 6, 3, 10, 6),
        "RED-1": (2, 5, 2, 11, 5), "RED-2": (3, 7, 2, 13, 5), "RED-3": (1, 6, 2, 9, 6),
        "BLUE-1": (3, 5, 2, 12, 5), "BLUE-2": (2, 7, 2, 12, 5), "BLUE-3": (1, 6, 2, 9, 5)}
    gold1 = tiles[0]
    assert gold1.points[:3] == (("c1", COLONY), ("c2", COLONY), ("i1", INTERSECTION))
    assert gold1.lines[0] == ("i1", "i2")
    assert gold1.ports[0] == ("a", "i2") and gold1.kind("h1") == HAZARD


def test_tiles_load_from_an_explicit_path_and_are_cached(tiles: tuple[Tile, ...]) -> None:
    assert load_tiles() is tiles
    assert load_tiles(DEFAULT_TILES_PATH) == tiles
    assert load_tiles(str(DEFAULT_TILES_PATH)) == tiles
    manifest = read_tiles_manifest()
    assert isinstance(manifest, TilesManifest) and manifest.format == TILES_FORMAT
    assert manifest.runtime_tiles() == tiles


# --- the packaged deck ----------------------------------------------------------------------

def test_54_cards_three_copies_of_each_suit_and_rank(cards: tuple[Card, ...]) -> None:
    assert all(type(card) is Card for card in cards)
    assert len(cards) == 54
    assert Counter((card.suit, card.rank) for card in cards) == {
        (suit, rank): 3 for suit in range(3) for rank in range(2, 8)}
    assert Counter(card.suit for card in cards) == {GOLD: 18, RED: 18, BLUE: 18}
    assert Counter(card.rank for card in cards) == {rank: 9 for rank in range(2, 8)}
    assert [card.id for card in cards] == [f"{suit}-{rank}-{copy}" for suit in SUITS
                                           for rank in range(2, 8) for copy in "abc"]
    assert all(card.text == "" for card in cards)  # OZW-35: vanilla by default


def test_cards_load_from_an_explicit_path_and_are_cached(cards: tuple[Card, ...]) -> None:
    assert load_cards() is cards
    assert load_cards(DEFAULT_CARDS_PATH) == cards
    manifest = read_cards_manifest(str(DEFAULT_CARDS_PATH))
    assert isinstance(manifest, CardsManifest) and manifest.format == CARDS_FORMAT
    assert cards[4] == Card("GOLD-3-b", GOLD, 3, "")


def test_card_text_is_optional_and_may_be_set(tmp_path: Path, raw_cards: dict[str, Any]
                                             ) -> None:
    data = copy.deepcopy(raw_cards)
    del data["cards"][0]["text"]
    data["cards"][1]["text"] = "+1 in wars on your suit"
    loaded = load_cards(_write(tmp_path, data))
    assert loaded[0].text == "" and loaded[1].text == "+1 in wars on your suit"


def test_a_small_edited_tile_set_is_valid(tmp_path: Path, raw_tiles: dict[str, Any]) -> None:
    data = copy.deepcopy(raw_tiles)
    data["tiles"] = [data["tiles"][4]]  # one tile is enough (Game Setup 2)
    data["tiles"][0]["ports"] = {"x": "i1", "y": "i1", "z": "c2"}  # a point may have several
    (tile,) = load_tiles(_write(tmp_path, data))
    assert tile.id == "RED-2" and tile.suit == RED and tile.ports == (("x", "i1"), ("y", "i1"),
                                                                     ("z", "c2"))


# --- the generator --------------------------------------------------------------------------

def test_make_content_regenerates_both_files(make_content: ModuleType,
                                             raw_tiles: dict[str, Any],
                                             raw_cards: dict[str, Any]) -> None:
    assert make_content.build_tiles() == raw_tiles
    assert make_content.build_cards() == raw_cards
    assert make_content.tiles_text() == DEFAULT_TILES_PATH.read_text(encoding="utf-8")
    assert make_content.cards_text() == DEFAULT_CARDS_PATH.read_text(encoding="utf-8")
    assert make_content.tiles_text(raw_tiles) == make_content.tiles_text()
    for path, count in ((DEFAULT_TILES_PATH, 9), (DEFAULT_CARDS_PATH, 54)):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == count + 6  # one tile or card per line


def test_make_content_check_mode(make_content: ModuleType, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert make_content.main(["--check"]) == 0
    assert capsys.readouterr().out.count("up to date") == 2
    stale_tiles, stale_cards = tmp_path / "tiles.json", tmp_path / "cards.json"
    stale_cards.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(make_content, "OUT_TILES", stale_tiles)
    monkeypatch.setattr(make_content, "OUT_CARDS", stale_cards)
    assert make_content.main(["--check"]) == 1
    assert capsys.readouterr().out.count("DIFFERS") == 2
    assert make_content.main(["--bogus"]) == 2
    assert "usage: make_content.py [--check]" in capsys.readouterr().err
    assert make_content.main([]) == 0  # writes the tmp copies, not the packaged files
    assert stale_tiles.read_text(encoding="utf-8") == DEFAULT_TILES_PATH.read_text("utf-8")
    assert stale_cards.read_text(encoding="utf-8") == DEFAULT_CARDS_PATH.read_text("utf-8")


def test_make_content_runs_as_a_script_from_anywhere(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(MAKE_CONTENT), "--check"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("up to date") == 2


# --- broken tile files ----------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def _write(tmp_path: Path, data: Any, name: str = "content.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _tile(data: dict[str, Any], tile_id: str) -> dict[str, Any]:
    return next(t for t in data["tiles"] if t["id"] == tile_id)


def _tset(tile_id: str, key: str, value: Any) -> Edit:
    return lambda data: _tile(data, tile_id).__setitem__(key, value)


def _tpop(tile_id: str, key: str) -> Edit:
    return lambda data: _tile(data, tile_id).pop(key)


def _add_line(tile_id: str, a: str, b: str) -> Edit:
    return lambda data: _tile(data, tile_id)["lines"].append([a, b])


def _drop_line(tile_id: str, a: str, b: str) -> Edit:
    return lambda data: _tile(data, tile_id)["lines"].remove([a, b])


def _edit_map(tile_id: str, key: str, name: str, value: Any) -> Edit:
    return lambda data: _tile(data, tile_id)[key].__setitem__(name, value)


def _extra_colonies(data: dict[str, Any]) -> None:
    tile = _tile(data, "RED-1")
    for colony in ("c3", "c4"):
        tile["points"][colony] = COLONY
        tile["lines"].append([colony, "i1"])


def _no_colony(data: dict[str, Any]) -> None:
    tile = _tile(data, "BLUE-3")
    del tile["points"]["c1"]
    tile["lines"] = [line for line in tile["lines"] if "c1" not in line]
    tile["ports"] = {port: point for port, point in tile["ports"].items() if point != "c1"}


def _rewire(tile_id: str, old: list[str], new: list[str]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        lines = _tile(data, tile_id)["lines"]
        lines[lines.index(old)] = new
    return edit


SECTORS = "(seed: The Sectors)"
BROKEN_TILES: list[tuple[str, Edit, list[str]]] = [
    ("line-unknown-point", _add_line("GOLD-2", "c1", "x9"),
     ["tile GOLD-2: line ['c1', 'x9'] names an unknown point 'x9' (OZW-33"]),
    ("four-colonies", _extra_colonies,
     [f"tile RED-1: has 4 colonies; a sector has 1 to 3 {SECTORS}"]),
    ("no-colony", _no_colony, [f"tile BLUE-3: has 0 colonies; a sector has 1 to 3 {SECTORS}"]),
    ("disconnected", _drop_line("BLUE-3", "h2", "i5"),
     ["tile BLUE-3: points h2 are not connected to the rest of the tile (OZW-33)"]),
    ("split-in-two", _drop_line("GOLD-2", "i3", "i4"),
     ["tile GOLD-2: points c3, i4, i5, i6, h1 are not connected", "(OZW-33)"]),
    ("port-unknown-point", _edit_map("GOLD-1", "ports", "a", "q"),
     ["tile GOLD-1: port 'a' names unknown point 'q' (OZW-33"]),
    ("one-port", _tset("RED-2", "ports", {"a": "i1"}),
     ["tile RED-2: has 1 port(s), fewer than 2 ports; a tile needs ports to join the map",
      "(OZW-32)"]),
    ("no-port", _tset("RED-2", "ports", {}), ["tile RED-2: has 0 port(s)", "(OZW-32)"]),
    ("no-colony-port", _tset("RED-2", "ports", {"a": "i1", "b": "i6"}),
     ["tile RED-2: no port leaves from a colony", "(OZW-24, OZW-32)"]),
    ("no-explore-port", _tset("RED-2", "ports", {"a": "h2", "b": "c2"}),
     ["tile RED-2: no port leaves from an intersection or a hazard next to a colony",
      "(OZW-32)"]),
    ("unknown-kind", _edit_map("GOLD-1", "points", "i3", "CITY"),
     ["tile GOLD-1: point 'i3' has unknown kind 'CITY'; kinds: COLONY, INTERSECTION, HAZARD",
      SECTORS[:-1]]),
    ("lower-case-kind", _edit_map("GOLD-1", "points", "h1", "hazard"),
     ["tile GOLD-1: point 'h1' has unknown kind 'hazard'"]),
    ("self-loop", _add_line("RED-3", "i1", "i1"),
     ["tile RED-3: line ['i1', 'i1'] is a self-loop", "(OZW-33: a line joins two different"]),
    ("duplicate-line", _add_line("GOLD-1", "i2", "i1"),
     ["tile GOLD-1: line ['i2', 'i1'] duplicates line ['i1', 'i2'] (OZW-23"]),
    ("duplicate-line-same-way", _add_line("BLUE-1", "h1", "h2"),
     ["tile BLUE-1: line ['h1', 'h2'] duplicates line ['h1', 'h2']"]),
    ("line-not-a-pair", lambda d: _tile(d, "BLUE-2")["lines"].append(["i1"]),
     ["tile BLUE-2: line ['i1'] is not a pair of point ids", "(OZW-33"]),
    ("line-of-three", lambda d: _tile(d, "BLUE-2")["lines"].append(["i1", "i2", "i3"]),
     ["tile BLUE-2: line ['i1', 'i2', 'i3'] is not a pair"]),
    ("line-of-numbers", lambda d: _tile(d, "BLUE-2")["lines"].append([1, 2]),
     ["tile BLUE-2: line [1, 2] is not a pair"]),
    ("lines-not-a-list", _tset("BLUE-2", "lines", {"i1": "i2"}),
     ["tile BLUE-2: lines must be a list (JSON array) of point pairs"]),
    ("colony-unreachable", _rewire("BLUE-1", ["c1", "i1"], ["c1", "c2"]),
     ["tile BLUE-1: colony 'c1' has no line to an intersection or a hazard",
      "(OZW-22, OZW-23)"]),
    ("duplicate-tile-id", _tset("RED-1", "id", "GOLD-1"),
     ["tile GOLD-1: duplicate id (tiles at index 0 and 3", "OZW-33"]),
    ("unknown-suit", _tset("RED-3", "suit", "GREEN"),
     ["tile RED-3: unknown suit 'GREEN'; suits: GOLD, RED, BLUE (OZW-1"]),
    ("suit-not-a-string", _tset("RED-3", "suit", 1), ["tile RED-3: unknown suit 1"]),
    ("bad-tile-id", _tset("GOLD-2", "id", "GOLD:2"),
     ["tile at index 1: id 'GOLD:2' is not a name", "TILE:point"]),
    ("tile-id-not-a-string", _tset("GOLD-2", "id", 2),
     ["tile at index 1: id 2 is not a name"]),
    ("bad-point-name", _edit_map("GOLD-3", "points", "x y", INTERSECTION),
     ["tile GOLD-3: point name 'x y' is not a name", "(letters, digits"]),
    ("bad-port-name", _edit_map("GOLD-3", "ports", "", "i1"),
     ["tile GOLD-3: port name '' is not a name"]),
    ("port-not-a-string", _edit_map("GOLD-3", "ports", "g", ["i1"]),
     ["tile GOLD-3: port 'g' must name a point id; got ['i1'] (OZW-33)"]),
    ("points-not-an-object", _tset("GOLD-3", "points", ["c1"]),
     ["tile GOLD-3: points must be a JSON object", "got list"]),
    ("ports-not-an-object", _tset("GOLD-3", "ports", "a:i1"),
     ["tile GOLD-3: ports must be a JSON object", "got str"]),
    ("unknown-tile-key", _tset("RED-1", "name", "theta"),
     ["tile RED-1: unknown key 'name'; allowed keys: id, suit, points, lines, ports"]),
    ("missing-ports", _tpop("RED-1", "ports"), ["tile RED-1: missing key 'ports'"]),
    ("missing-id", _tpop("RED-1", "id"), ["tile at index 3: missing key 'id'"]),
    ("tile-not-an-object", lambda d: d["tiles"].__setitem__(2, "GOLD-3"),
     ["tile at index 2", "JSON object"]),
    ("no-tiles", lambda d: d.__setitem__("tiles", []),
     ["the file has no tiles; a game needs at least one (Game Setup 2"]),
    ("tiles-format", lambda d: d.__setitem__("format", "meeple-ozymandias-campaign-tiles/2"),
     ["file: unsupported format 'meeple-ozymandias-campaign-tiles/2'", TILES_FORMAT]),
    ("unknown-tiles-file-key", lambda d: d.__setitem__("version", 2),
     ["file: unknown key 'version'; allowed keys: format, description, tiles"]),
    ("missing-description", lambda d: d.pop("description"),
     ["file: missing key 'description'"]),
    ("tiles-not-a-list", lambda d: d.__setitem__("tiles", {"GOLD-1": {}}),
     ["file: tiles", "list (JSON array)"]),
]


@pytest.mark.parametrize(("edit", "fragments"), [(e, f) for _, e, f in BROKEN_TILES],
                         ids=[name for name, _, _ in BROKEN_TILES])
def test_a_broken_tile_file_names_the_tile_and_the_rule(
        tmp_path: Path, raw_tiles: dict[str, Any], edit: Edit, fragments: list[str]) -> None:
    data = copy.deepcopy(raw_tiles)
    edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(TilesError) as caught:
        load_tiles(path)
    message = str(caught.value)
    assert message.startswith(f"invalid tile file {path}: ")
    for fragment in fragments:
        assert fragment in message
    assert len(caught.value.problems) == 1, caught.value.problems
    with pytest.raises(TilesError) as again:  # the in-memory entry point agrees
        validate_tiles_data(data, "edited copy")
    assert again.value.problems == caught.value.problems


def test_every_tile_problem_is_reported(raw_tiles: dict[str, Any]) -> None:
    data = copy.deepcopy(raw_tiles)
    _extra_colonies(data)
    _tile(data, "RED-1")["ports"] = {"a": "i1"}
    _tile(data, "RED-1")["lines"].append(["i1", "i1"])
    _tile(data, "BLUE-2")["suit"] = "PURPLE"
    with pytest.raises(TilesError) as caught:
        validate_tiles_data(data, "edited copy")
    problems = caught.value.problems
    assert [p.split(":")[0] for p in problems] == ["tile RED-1"] * 3 + ["tile BLUE-2"]
    assert "self-loop" in problems[0] and "4 colonies" in problems[1]
    assert "fewer than 2 ports" in problems[2] and "PURPLE" in problems[3]
    assert str(caught.value).startswith("invalid tile file edited copy (4 problems):\n  - ")


# --- broken card files ----------------------------------------------------------------------

def _card(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if c["id"] == card_id)


def _cset(card_id: str, key: str, value: Any) -> Edit:
    return lambda data: _card(data, card_id).__setitem__(key, value)


def _cpop(card_id: str, key: str) -> Edit:
    return lambda data: _card(data, card_id).pop(key)


def _resuit(old: str, new: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for card in data["cards"]:
            if card["suit"] == old:
                card["suit"] = new
    return edit


RANK_RULE = "is outside 2..7 (seed: The Cards; rules-questions 4.4"
BROKEN_CARDS: list[tuple[str, Edit, list[str]]] = [
    ("rank-8", _cset("GOLD-7-a", "rank", 8), [f"card GOLD-7-a: rank 8 {RANK_RULE}"]),
    ("rank-1", _cset("RED-2-c", "rank", 1), [f"card RED-2-c: rank 1 {RANK_RULE}"]),
    ("rank-string", _cset("RED-5-a", "rank", "5"), [f"card RED-5-a: rank '5' {RANK_RULE}"]),
    ("rank-float", _cset("RED-5-a", "rank", 5.0), [f"card RED-5-a: rank 5.0 {RANK_RULE}"]),
    ("rank-bool", _cset("BLUE-2-a", "rank", True), [f"card BLUE-2-a: rank True {RANK_RULE}"]),
    ("unknown-suit", _cset("BLUE-4-b", "suit", "GREEN"),
     ["card BLUE-4-b: unknown suit 'GREEN'; suits: GOLD, RED, BLUE (OZW-1"]),
    ("lower-case-suit", _cset("BLUE-4-b", "suit", "blue"),
     ["card BLUE-4-b: unknown suit 'blue'"]),
    ("duplicate-id", _cset("GOLD-2-b", "id", "GOLD-2-a"),
     ["card GOLD-2-a: duplicate id (cards at index 0 and 1; card ids are unique)"]),
    ("suit-missing", _resuit("BLUE", "RED"),
     ["no card of suit BLUE; every suit needs at least one card (OZW-1"]),
    ("no-cards", lambda d: d.__setitem__("cards", []),
     ["no card of suit GOLD, RED, BLUE", "(OZW-1"]),
    ("bad-id", _cset("RED-3-a", "id", "RED 3 a"),
     ["card at index 21: id 'RED 3 a' is not a name"]),
    ("text-not-a-string", _cset("RED-3-a", "text", None),
     ["card RED-3-a: text must be a string (blank for a vanilla card, OZW-35); got None"]),
    ("unknown-card-key", _cset("RED-3-a", "event", "RAZE"),
     ["card RED-3-a: unknown key 'event'; allowed keys: id, suit, rank, text"]),
    ("missing-rank", _cpop("GOLD-6-c", "rank"), ["card GOLD-6-c: missing key 'rank'"]),
    ("missing-id", _cpop("GOLD-6-c", "id"), ["card at index 14: missing key 'id'"]),
    ("card-not-an-object", lambda d: d["cards"].__setitem__(3, "GOLD-3-a"),
     ["card at index 3", "JSON object"]),
    ("cards-format", lambda d: d.__setitem__("format", TILES_FORMAT),
     [f"file: unsupported format '{TILES_FORMAT}'; expected '{CARDS_FORMAT}'"]),
    ("unknown-cards-file-key", lambda d: d.__setitem__("tiles", []),
     ["file: unknown key 'tiles'; allowed keys: format, description, cards"]),
    ("missing-cards", lambda d: d.pop("cards"), ["file: missing key 'cards'"]),
]


@pytest.mark.parametrize(("edit", "fragments"), [(e, f) for _, e, f in BROKEN_CARDS],
                         ids=[name for name, _, _ in BROKEN_CARDS])
def test_a_broken_card_file_names_the_card_and_the_rule(
        tmp_path: Path, raw_cards: dict[str, Any], edit: Edit, fragments: list[str]) -> None:
    data = copy.deepcopy(raw_cards)
    edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(CardsError) as caught:
        load_cards(path)
    message = str(caught.value)
    assert message.startswith(f"invalid card file {path}: ")
    for fragment in fragments:
        assert fragment in message
    assert len(caught.value.problems) == 1, caught.value.problems
    with pytest.raises(CardsError) as again:
        validate_cards_data(data, "edited copy")
    assert again.value.problems == caught.value.problems


def test_every_card_problem_is_reported_then_the_deck_rules(raw_cards: dict[str, Any]
                                                           ) -> None:
    data = copy.deepcopy(raw_cards)
    _card(data, "GOLD-2-a")["rank"] = 9
    _card(data, "RED-7-c")["suit"] = "GREEN"
    _card(data, "BLUE-5-b")["id"] = "BLUE-5-a"
    with pytest.raises(CardsError) as caught:
        validate_cards_data(data, "edited copy")
    problems = caught.value.problems
    assert len(problems) == 2, problems
    assert problems[0].startswith("card GOLD-2-a: rank 9")
    assert problems[1].startswith("card RED-7-c: unknown suit 'GREEN'")
    # The deck rules (unique ids, every suit) are checked once every card is readable.
    _card(data, "GOLD-2-a")["rank"] = 2
    _card(data, "RED-7-c")["suit"] = "RED"
    with pytest.raises(CardsError) as caught:
        validate_cards_data(data, "edited copy")
    assert caught.value.problems == ("card BLUE-5-a: duplicate id (cards at index 45 and 46; "
                                     "card ids are unique)",)


# --- files and errors -----------------------------------------------------------------------

@pytest.mark.parametrize(("load", "error", "noun"), [(load_tiles, TilesError, "tile file"),
                                                     (load_cards, CardsError, "card file")])
def test_a_missing_or_invalid_file_names_the_path(
        tmp_path: Path, load: Callable[[Path], Any], error: type[ContentError],
        noun: str) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(error, match=f"{noun} not found") as caught:
        load(missing)
    assert str(missing) in str(caught.value)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "x",\n  "tiles": [,]}', encoding="utf-8")
    with pytest.raises(error, match="is not valid JSON") as caught:
        load(broken)
    assert str(broken) in str(caught.value) and "line 2" in str(caught.value)


def test_a_non_object_file_is_refused() -> None:
    with pytest.raises(TilesError, match="file: Input should be a JSON object; got list"):
        validate_tiles_data([1, 2])
    with pytest.raises(CardsError, match="file: Input should be a JSON object; got str"):
        validate_cards_data("cards")


def test_errors_are_content_errors() -> None:
    for error in (TilesError, CardsError):
        assert issubclass(error, ContentError) and issubclass(error, ValueError)
    assert TilesError("x", ["a", "b"]).problems == ("a", "b")
    assert CardsError("x").problems == ("x",)


def test_models_are_frozen(raw_tiles: dict[str, Any], raw_cards: dict[str, Any]) -> None:
    tiles, cards = validate_tiles_data(raw_tiles), validate_cards_data(raw_cards)
    with pytest.raises(ValueError):
        tiles.tiles[0].suit = "RED"  # type: ignore[misc]
    with pytest.raises(ValueError):
        cards.cards[0].rank = 3  # type: ignore[misc]
    assert tiles.tiles[0].to_tile() == load_tiles()[0]
    assert cards.cards[0].to_card() == load_cards()[0]
