"""The campaign edition's map graph (board.py): tiles joined at ports into one graph."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.errors import ParameterError
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.vocab import COLONY, HAZARD, INTERSECTION, Tile


def tile(tile_id: str, suit: int = 0) -> Tile:
    """A small tile: colony c1 - i1 - i2 - h1, ports a (at i2) and b (at h1), c (at i1)."""
    return Tile(tile_id, suit,
                points=(("c1", COLONY), ("i1", INTERSECTION), ("i2", INTERSECTION),
                        ("h1", HAZARD)),
                lines=(("c1", "i1"), ("i1", "i2"), ("i2", "h1")),
                ports=(("a", "i2"), ("b", "h1"), ("c", "i1")))


def test_opening_map_is_the_tile_graph() -> None:
    m = SectorMap.opening([tile("T1", suit=2)])
    assert m.points() == ["T1:c1", "T1:i1", "T1:i2", "T1:h1"]
    assert m.neighbours("T1:i1") == {"T1:c1", "T1:i2"}
    assert m.kinds["T1:c1"] == COLONY and m.suits["T1:h1"] == 2
    assert m.open_ports == (("T1:i2", "a"), ("T1:h1", "b"), ("T1:i1", "c"))
    assert m.ports_of("T1:i2") == ["a"]


def test_attach_joins_two_ports_and_leaves_the_others_open() -> None:
    m = SectorMap.opening([tile("T1")])
    m2 = m.attach("T1:h1", "b", tile("T2", suit=1), "c")
    assert "T2:i1" in m2.neighbours("T1:h1") and "T1:h1" in m2.neighbours("T2:i1")
    assert ("T1:h1", "b") not in m2.open_ports and ("T2:i1", "c") not in m2.open_ports
    assert ("T2:i2", "a") in m2.open_ports and len(m2.open_ports) == 4
    assert m2.suits["T2:c1"] == 1
    # the original map is unchanged: maps are immutable values
    assert len(m.open_ports) == 3 and "T2:c1" not in m.kinds


@pytest.mark.parametrize(("args", "needle"), [
    (("T1:h1", "z", "a"), "no open port 'z'"),
    (("T1:c1", "a", "a"), "no open port 'a'"),
    (("T1:h1", "b", "zz"), "has no port 'zz'"),
])
def test_impossible_joins_are_refused(args, needle) -> None:
    m = SectorMap.opening([tile("T1")])
    at, port, new_port = args
    with pytest.raises(ParameterError, match=needle):
        m.attach(at, port, tile("T2"), new_port)


def test_a_tile_cannot_be_placed_twice() -> None:
    m = SectorMap.opening([tile("T1")])
    with pytest.raises(ParameterError, match="already on the map"):
        m.attach("T1:h1", "b", tile("T1"), "a")


def test_json_round_trip_and_two_tile_opening() -> None:
    tiles = {t.id: t for t in (tile("T1"), tile("T2"), tile("T3"))}
    m = SectorMap.opening([tiles["T1"], tiles["T2"]])
    assert len(m.placements) == 2 and len(m.open_ports) == 4
    m = m.attach(m.open_ports[-1][0], m.open_ports[-1][1], tiles["T3"], "b")
    back = SectorMap.from_json(m.to_json(), tiles)
    assert back == m and back.adjacency == m.adjacency and back.open_ports == m.open_ports
    with pytest.raises(ParameterError, match="unknown tile"):
        SectorMap.from_json([{"tile": "NOPE", "join": None}], tiles)


def connected(m: SectorMap) -> bool:
    start = m.points()[0]
    seen, todo = {start}, [start]
    while todo:
        for n in m.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(m.kinds)


def _grown(choices):
    """The maps made by joining tiles T1, T2, ... one at a time to the start tile T0, each at
    the open port and with the tile port that ``choices`` pick (modulo what is there)."""
    m = SectorMap.opening([tile("T0")])
    for n, (which_open, which_port) in enumerate(choices, start=1):
        if not m.open_ports:
            return
        at, port = m.open_ports[which_open % len(m.open_ports)]
        new = tile(f"T{n}", suit=n % 3)
        m = m.attach(at, port, new, new.ports[which_port][0])
        yield m


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 2)), min_size=1, max_size=8))
def test_any_sequence_of_joins_keeps_one_connected_symmetric_graph(choices) -> None:
    for m in _grown(choices):
        joins = len(m.placements) - 1
        assert len(m.open_ports) == 3 * len(m.placements) - 2 * joins
        assert connected(m)
        for a, others in m.adjacency.items():
            assert all(a in m.adjacency[b] for b in others)


def test_attach_is_remembered_and_equal_to_a_fresh_build() -> None:
    import pickle

    m = SectorMap.opening([tile("T1")])
    t2 = tile("T2", suit=1)
    first = m.attach("T1:h1", "b", t2, "c")
    assert m.attach("T1:h1", "b", t2, "c") is first  # the memo: built once
    fresh = SectorMap(first.placements)
    assert (first.kinds, first.suits, first.adjacency, first.open_ports) == (
        fresh.kinds, fresh.suits, fresh.adjacency, fresh.open_ports)
    # an equal tile that is another object is not taken for the remembered one
    other = m.attach("T1:h1", "b", tile("T2", suit=2), "c")
    assert other is not first and other.suits["T2:c1"] == 2
    # a refused join is refused again (nothing is remembered for it)
    for _ in range(2):
        with pytest.raises(ParameterError):
            m.attach("T1:h1", "zz", t2, "c")
    copy = pickle.loads(pickle.dumps(first))
    assert copy == first and copy.adjacency == first.adjacency and copy._attached == {}


def test_derived_tables_follow_kinds_and_adjacency() -> None:
    m = SectorMap.opening([tile("T1")]).attach("T1:h1", "b", tile("T2", suit=1), "c")
    assert m.colonies == tuple(sorted(q for q, k in m.kinds.items() if k == COLONY))
    for q, near in m.adjacency.items():
        assert m.colony_neighbours[q] == {n for n in near if m.kinds[n] == COLONY}
        assert m.other_neighbours[q] == {n for n in near if m.kinds[n] != COLONY}


def _tables(m: SectorMap) -> list:
    """Every table of a map, dicts as their items in order (what a fresh build gives)."""
    return [m.placements, list(m.kinds.items()), list(m.suits.items()),
            list(m.adjacency.items()), m.open_ports, m.colonies,
            list(m.colony_neighbours.items()), list(m.other_neighbours.items())]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 2)), min_size=1, max_size=10))
def test_an_attached_map_is_built_from_its_parent_as_a_fresh_build_would_be(choices) -> None:
    """``attach`` extends the parent's tables (``SectorMap._extended``); a build from every
    placement gives the same tables in the same order."""
    for m in _grown(choices):
        assert _tables(m) == _tables(SectorMap(m.placements))
