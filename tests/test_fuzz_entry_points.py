"""Fuzz of every public entry point of Game and State, for every game (issue 18, section 3).

Whatever the arguments, a call either succeeds or raises a ``MeepleError``, never another
exception, and a refused call leaves the state's digest as it was. The harness (entry points,
positions, argument shapes) is ``tests/fuzz_entry.py``; ``tests/fuzz_corpus.json`` holds the
shapes that failed before the argument checks, replayed on every game. ``state_from_json`` is
not fuzzed here (its validation is rewritten separately).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.engine.registry import game_names
from tests.fuzz_entry import ENTRY_POINTS, SHAPES, Pairs, call, positions

CORPUS = json.loads((Path(__file__).parent / "fuzz_corpus.json").read_text())


def _check(entry: str, name: str, index: int, a: object, b: object) -> str:
    states = positions(name)
    state = states[index % len(states)]
    kind, changed, exc = call(entry, state, a, b)
    assert kind != "raw", f"{entry}({a!r}, {b!r}) on {name} raised {exc!r}"
    assert not changed, f"{entry}({a!r}, {b!r}) on {name} changed the state and raised {exc!r}"
    return kind


@pytest.mark.parametrize("item", CORPUS["failed_before"],
                         ids=lambda i: f"{i['entry']}-{i['a']}-{i['b']}")
def test_corpus_shapes_that_failed_before(item: dict) -> None:
    for name in game_names():
        for index in (0, 2, -1):  # the start, after some steps, the end
            _check(item["entry"], name, index, SHAPES[item["a"]](), SHAPES[item["b"]]())


@pytest.mark.parametrize("item", CORPUS["must_refuse"],
                         ids=lambda i: f"{i['entry']}-{i['a']}")
def test_corpus_values_that_were_accepted(item: dict) -> None:
    for name in game_names():
        kind = _check(item["entry"], name, 0, SHAPES[item["a"]](), SHAPES[item["b"]]())
        assert kind == "meeple", f"{item['entry']} accepted {item['a']} on {name}"


def test_corpus_names_known_entries_and_shapes() -> None:
    for item in CORPUS["failed_before"] + CORPUS["must_refuse"]:
        assert item["entry"] in ENTRY_POINTS and item["a"] in SHAPES and item["b"] in SHAPES


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10 ** 20), 10 ** 20), st.integers(-3, 6),
    st.floats(allow_nan=True), st.text(max_size=12),
    st.sampled_from(["pass", "atk:B", "roll", "hold", "end", "swap 0 1", "0", " ", "-"]),
    st.binary(max_size=4), st.sampled_from([shape for shape in SHAPES.values()]).map(
        lambda make: make()),
)
_values = st.one_of(
    _scalars,
    st.lists(_scalars, max_size=3),
    st.dictionaries(st.integers(-2, 5), _scalars, max_size=3),
    st.lists(st.tuples(_scalars, _scalars), max_size=2).map(lambda pairs: Pairs(*pairs)),
)


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(game_names()), index=st.integers(0, 9),
       entry=st.sampled_from(sorted(ENTRY_POINTS)), a=_values, b=_values)
def test_fuzz_entry_points(name: str, index: int, entry: str, a: object, b: object) -> None:
    if entry.startswith("State.playout") and isinstance(b, int) and not isinstance(b, bool):
        b = min(abs(b), 50)  # a valid step cap: keep successful rollouts short
    _check(entry, name, index, a, b)
