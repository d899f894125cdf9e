"""The Damocles codex deck: the packaged manifest, its generator, and the content rules.

Rules: seeds/damocles.txt (SCORING, CODEX TYPES); rules-questions §1.4 and DAM-1, DAM-3,
DAM-4, DAM-5, DAM-9, DAM-26, DAM-35, DAM-36.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.errors import MeepleError
from meeple.games.damocles.codex import GODS, TYPES, Codex
from meeple.games.damocles.content import (
    DEFAULT_DECK_PATH,
    FORMAT,
    CodexEntry,
    DeckError,
    DeckManifest,
    load_deck,
    read_manifest,
    validate_deck_data,
)

MAKE_DECK = DEFAULT_DECK_PATH.with_name("make_deck.py")

# The reference composition (rules-questions §1.4), written out independently of make_deck.
BASE = {"GENERATE": 10, "COMBUST": 10, "ORACLE": 6, "ONE": 14, "TWO": 10, "THREE": 6,
        "HASTE": 14, "REFLEX": 10}
ANNEX = {"ANNEX": 6}
DESTRUCTION = {"LYSE": 3, "SACRIFICE": 2, "EVISCERATE": 2}
PREFIX = {"GENERATE": "GEN", "COMBUST": "COM", "ORACLE": "ORA", "ONE": "ONE", "TWO": "TWO",
          "THREE": "THR", "HASTE": "HAS", "REFLEX": "REF", "ANNEX": "ANX", "LYSE": "LYS",
          "SACRIFICE": "SAC", "EVISCERATE": "EVI"}
COMBINATIONS = [(), ("annex",), ("destruction",), ("annex", "destruction")]
H, P, A, D, N = range(5)


@pytest.fixture(scope="module")
def full_deck() -> tuple[Codex, ...]:
    return load_deck(modules=("annex", "destruction"))


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def make_deck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("damocles_make_deck", MAKE_DECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def has_gap(codex: Codex) -> bool:
    offsets = [o for o, _ in codex.pattern]
    return offsets[-1] - offsets[0] + 1 > len(offsets)


def god_pips(deck: tuple[Codex, ...]) -> list[int]:
    counts = [0] * len(GODS)
    for codex in deck:
        for _, god in codex.pattern:
            counts[god] += 1
    return counts


# --- the packaged deck ---------------------------------------------------------------------

@pytest.mark.parametrize("modules", COMBINATIONS)
def test_packaged_deck_has_the_reference_composition(modules: tuple[str, ...]) -> None:
    expected = dict(BASE)
    if "annex" in modules:
        expected |= ANNEX
    if "destruction" in modules:
        expected |= DESTRUCTION
    deck = load_deck(modules=modules)
    assert dict(Counter(c.type for c in deck)) == expected
    assert len(deck) == 80 + 6 * ("annex" in modules) + 7 * ("destruction" in modules)


def test_load_deck_returns_runtime_codices_in_file_order(raw: dict[str, Any],
                                                         full_deck: tuple[Codex, ...]) -> None:
    assert all(type(c) is Codex for c in full_deck)
    assert [c.id for c in full_deck] == [e["id"] for e in raw["codices"]]
    for codex, entry in zip(full_deck, raw["codices"], strict=True):
        assert codex.type == entry["type"]
        assert codex.pattern == tuple((p - 1, GODS.index(g)) for p, g in entry["pattern"])
    base = load_deck()
    assert base == tuple(c for c in full_deck if TYPES[c.type].module == "base")


def test_module_names_are_checked_and_a_bare_string_is_one_module() -> None:
    assert load_deck(modules="annex") == load_deck(modules=["annex"])
    assert load_deck(modules={"base"}) == load_deck()
    with pytest.raises(DeckError, match="unknown module 'anex'.*annex, destruction"):
        load_deck(modules={"anex"})


def test_explicit_path_loads_the_same_deck_as_the_default() -> None:
    assert load_deck(DEFAULT_DECK_PATH, {"annex"}) == load_deck(str(DEFAULT_DECK_PATH),
                                                                {"annex"})
    assert load_deck(DEFAULT_DECK_PATH) == load_deck()


def test_every_codex_obeys_every_pattern_rule(full_deck: tuple[Codex, ...]) -> None:
    for codex in full_deck:
        offsets = [o for o, _ in codex.pattern]
        assert codex.pips == TYPES[codex.type].pips, codex  # DAM-3
        assert offsets[0] == 0, codex  # DAM-1: first pip at position 1
        assert offsets == sorted(set(offsets)), codex  # distinct, ascending (DAM-36)
        assert offsets[-1] <= 6, codex  # within positions 1..7
        assert all(0 <= g < len(GODS) for _, g in codex.pattern), codex
        assert max(Counter(g for _, g in codex.pattern).values()) <= 3, codex  # DAM-36


def test_ids_are_the_type_prefix_and_a_running_two_digit_number(
        full_deck: tuple[Codex, ...]) -> None:
    seen: Counter[str] = Counter()
    for codex in full_deck:
        seen[codex.type] += 1
        assert codex.id == f"{PREFIX[codex.type]}-{seen[codex.type]:02d}"


def test_no_two_codices_share_type_and_pattern_except_hastes(
        full_deck: tuple[Codex, ...]) -> None:
    keys = [(c.type, c.pattern) for c in full_deck if c.pips > 1]
    assert len(keys) == len(set(keys))
    hastes = Counter(c.pattern[0][1] for c in full_deck if c.type == "HASTE")
    assert sorted(hastes.values()) == [2, 3, 3, 3, 3]  # 14 Hastes over five gods


@pytest.mark.parametrize("modules", COMBINATIONS)
def test_gods_balance_within_one_pip(modules: tuple[str, ...]) -> None:
    counts = god_pips(load_deck(modules=modules))
    assert max(counts) - min(counts) <= 1, counts
    assert sum(counts) == {(): 194, ("annex",): 206, ("destruction",): 221,
                           ("annex", "destruction"): 233}[modules]


def test_description_states_the_actual_counts(raw: dict[str, Any]) -> None:
    text = raw["description"]
    for modules in COMBINATIONS:
        counts = god_pips(load_deck(modules=modules))
        listed = ", ".join(f"{g} {n}" for g, n in zip(GODS, counts, strict=True))
        assert f"{sum(counts)} pips: {listed}" in text
    base_multi = [c for c in load_deck() if c.pips > 1]
    assert f"{sum(map(has_gap, base_multi))} of {len(base_multi)} multi-pip" in text


@pytest.mark.parametrize("modules", [(), ("annex", "destruction")])
def test_most_multi_pip_codices_have_a_blank_gap(modules: tuple[str, ...]) -> None:
    multi = [c for c in load_deck(modules=modules) if c.pips > 1]
    share = sum(map(has_gap, multi)) / len(multi)
    assert share >= 0.6, share
    assert share < 1  # some contiguous ones too, so Reflex is not needed everywhere


def test_patterns_are_compact_and_use_few_gods(full_deck: tuple[Codex, ...]) -> None:
    for codex in full_deck:
        span = codex.pattern[-1][0] + 1
        if codex.id == "COM-01":  # the seed's Combust [Hades (1), Nyx (3,6)]
            assert span == 6
        elif codex.pips <= 4:
            assert span <= 5, codex
        else:
            assert span <= 6, codex
    multi = [c for c in full_deck if c.pips > 1]
    gods = {c.id: len({g for _, g in c.pattern}) for c in multi}
    assert sum(n <= 2 for n in gods.values()) >= 0.9 * len(multi)
    numbers = [c for c in multi if TYPES[c.type].number]
    assert all(gods[c.id] <= 2 for c in numbers)
    assert Counter(gods[c.id] for c in numbers).keys() == {1, 2}  # same-god and mixed


@pytest.mark.parametrize(("type_name", "pattern", "text"), [
    ("ONE", ((0, D), (3, D)), "Demeter (1,4)"),
    ("ONE", ((0, H), (3, H)), "Hades (1,4)"),
    ("ONE", ((0, N), (2, N)), "Nyx (1,3)"),
    ("COMBUST", ((0, H), (2, N), (5, N)), "Hades (1), Nyx (3,6)"),
    ("ANNEX", ((0, A), (1, N)), "Artemis (1), Nyx (2)"),  # the T-DAM-4 Annex
])
def test_the_seed_patterns_are_in_the_deck(full_deck: tuple[Codex, ...], type_name: str,
                                           pattern: tuple[tuple[int, int], ...],
                                           text: str) -> None:
    found = [c for c in full_deck if c.type == type_name and c.pattern == pattern]
    assert len(found) == 1
    assert found[0].pattern_text() == text


def test_read_manifest_gives_the_validated_model(raw: dict[str, Any]) -> None:
    manifest = read_manifest()
    assert isinstance(manifest, DeckManifest)
    assert manifest.format == FORMAT == raw["format"]
    assert len(manifest.codices) == 93
    assert [e.id for e in manifest.codices_for({"annex"})] == [c.id for c in
                                                               load_deck(modules={"annex"})]


# --- the generator -------------------------------------------------------------------------

def test_make_deck_regenerates_the_checked_in_manifest(make_deck: ModuleType,
                                                       raw: dict[str, Any]) -> None:
    assert make_deck.build_manifest() == raw
    assert make_deck.manifest_text() == DEFAULT_DECK_PATH.read_text(encoding="utf-8")


def test_make_deck_leaves_the_global_random_state_alone(make_deck: ModuleType) -> None:
    random.seed(12345)
    before = random.getstate()
    make_deck.build_cards()
    assert random.getstate() == before


def test_make_deck_check_mode_reports_up_to_date(make_deck: ModuleType,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert make_deck.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


# --- broken manifests ----------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def _entry(data: dict[str, Any], codex_id: str) -> dict[str, Any]:
    return next(e for e in data["codices"] if e.get("id") == codex_id)


def _set(codex_id: str, key: str, value: Any) -> Edit:
    return lambda data: _entry(data, codex_id).__setitem__(key, value)


def _pattern_of(codex_id: str, other: str) -> Edit:
    return lambda data: _entry(data, codex_id).__setitem__(
        "pattern", copy.deepcopy(_entry(data, other)["pattern"]))


BROKEN: list[tuple[str, Edit, list[str]]] = [
    ("pips", _set("ONE-03", "pattern", [[1, "NYX"], [3, "NYX"], [5, "NYX"]]),
     ["codex ONE-03", "has 3 pips but a One is worth 2", "DAM-3"]),
    ("pips-empty", _set("HAS-01", "pattern", []),
     ["codex HAS-01", "has 0 pips but a Haste is worth 1", "DAM-3"]),
    ("position-8", _set("GEN-02", "pattern", [[1, "NYX"], [3, "NYX"], [8, "NYX"]]),
     ["codex GEN-02", "position 8 is outside the circle of seven", "1..7", "DAM-36"]),
    ("position-0", _set("ONE-05", "pattern", [[0, "NYX"], [1, "NYX"]]),
     ["codex ONE-05", "position 0 is outside the circle of seven"]),
    ("god-cap", _set("THR-02", "pattern", [[1, "NYX"], [2, "NYX"], [3, "NYX"], [5, "NYX"]]),
     ["codex THR-02", "4 pips of NYX", "at most 3 pips of one god", "DAM-36"]),
    ("first-pip", _set("HAS-01", "pattern", [[2, "HADES"]]),
     ["codex HAS-01", "the first pip must be at position 1", "DAM-1"]),
    ("repeated-position", _set("GEN-05", "pattern", [[1, "NYX"], [3, "NYX"], [3, "HADES"]]),
     ["codex GEN-05", "position 3 appears twice", "DAM-36"]),
    ("descending", _set("GEN-04", "pattern", [[1, "NYX"], [4, "NYX"], [2, "HADES"]]),
     ["codex GEN-04", "positions must ascend", "position 2 is listed after position 4"]),
    ("duplicate-pattern", _pattern_of("THR-05", "THR-01"),
     ["codex THR-05", "duplicate of THR-01", "same type and pattern", "DAM-26"]),
    ("duplicate-id", _set("GEN-04", "id", "GEN-03"), ["duplicate id GEN-03"]),
    ("unknown-type", lambda d: d["codices"][0].update(id="X-1", type="BLAST"),
     ["codex X-1", "unknown type 'BLAST'", "types: GENERATE, COMBUST"]),
    ("unknown-god", _set("ONE-01", "pattern", [[1, "ZEUS"], [4, "DEMETER"]]),
     ["codex ONE-01", "unknown god 'ZEUS'", "gods: HADES, POSEIDON"]),
    ("unknown-codex-key", _set("COM-02", "colour", "red"),
     ["codex COM-02", "unknown key 'colour'", "allowed keys: id, type, pattern"]),
    ("missing-id", lambda d: d["codices"][5].pop("id"), ["codex at index 5", "missing key 'id'"]),
    ("missing-pattern", lambda d: _entry(d, "ORA-01").pop("pattern"),
     ["codex ORA-01", "missing key 'pattern'"]),
    ("bad-id", _set("REF-01", "id", "REF 01"),
     ["codex REF 01", "id 'REF 01' must be upper-case letters, digits"]),
    ("lower-case-id", _set("REF-01", "id", "ref-01"),
     ["codex ref-01", "must be upper-case", "reads them in upper case"]),
    ("short-pip", _set("ONE-04", "pattern", [[1, "HADES"], [3]]),
     ["codex ONE-04", "pattern[1]", "[position, god name]"]),
    ("bool-position", _set("ONE-04", "pattern", [[1, "HADES"], [True, "HADES"]]),
     ["codex ONE-04", "pattern[1]", "valid integer"]),
    ("string-position", _set("ONE-04", "pattern", [[1, "HADES"], ["3", "HADES"]]),
     ["codex ONE-04", "pattern[1]", "valid integer"]),
    ("codex-not-object", lambda d: d["codices"].__setitem__(2, "GEN-03"),
     ["codex at index 2", "JSON object"]),
    ("unknown-manifest-key", lambda d: d.__setitem__("version", 2),
     ["manifest", "unknown key 'version'"]),
    ("format", lambda d: d.__setitem__("format", "meeple-damocles-deck/2"),
     ["manifest", "unsupported format 'meeple-damocles-deck/2'", FORMAT]),
    ("codices-not-list", lambda d: d.__setitem__("codices", {"GEN-01": {}}),
     ["manifest", "codices", "list (JSON array)"]),
    ("missing-description", lambda d: d.pop("description"),
     ["manifest", "missing key 'description'"]),
]


@pytest.mark.parametrize(("edit", "fragments"), [(e, f) for _, e, f in BROKEN],
                         ids=[name for name, _, _ in BROKEN])
def test_a_broken_manifest_names_the_codex_and_the_rule(
        tmp_path: Path, raw: dict[str, Any], edit: Edit, fragments: list[str]) -> None:
    data = copy.deepcopy(raw)
    edit(data)
    path = tmp_path / "codices.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message
    assert len(caught.value.problems) == 1, caught.value.problems
    with pytest.raises(DeckError):  # the in-memory entry point agrees
        validate_deck_data(data)


def test_every_problem_is_reported(raw: dict[str, Any]) -> None:
    data = copy.deepcopy(raw)
    _entry(data, "GEN-01")["type"] = "BLAST"
    _entry(data, "TWO-04")["pattern"] = [[1, "NYX"], [2, "NYX"], [3, "NYX"], [4, "NYX"]]
    with pytest.raises(DeckError) as caught:
        validate_deck_data(data, "edited copy")
    problems = caught.value.problems
    assert len(problems) == 3
    assert "codex GEN-01: unknown type 'BLAST'" in problems[0]
    assert problems[1].startswith("codex TWO-04: 4 pips of NYX; at most 3 pips of one god")
    assert problems[2].startswith("codex TWO-04: has 4 pips but a Two is worth 3")
    assert str(caught.value).startswith("invalid deck edited copy (3 problems):")


def test_a_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(DeckError, match="deck file not found") as caught:
        load_deck(path)
    assert str(path) in str(caught.value)


def test_invalid_json_names_the_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "meeple-damocles-deck/1",\n  "codices": [,]}', encoding="utf-8")
    with pytest.raises(DeckError, match="not valid JSON") as caught:
        load_deck(path)
    assert str(path) in str(caught.value)
    assert "line 2" in str(caught.value)


def test_a_non_object_manifest_is_refused() -> None:
    with pytest.raises(DeckError, match="manifest: Input should be a JSON object"):
        validate_deck_data([1, 2, 3])


def test_deck_error_is_a_meeple_error_and_a_value_error() -> None:
    assert issubclass(DeckError, MeepleError)
    assert issubclass(DeckError, ValueError)
    assert DeckError("x").problems == ("x",)


def test_manifest_models_are_frozen_and_strict(raw: dict[str, Any]) -> None:
    manifest = validate_deck_data(raw)
    with pytest.raises(ValueError):
        manifest.codices[0].id = "GEN-99"  # type: ignore[misc]
    assert manifest.codices[0].to_codex() == load_deck()[0]


# --- the per-codex rules against an independent oracle -------------------------------------

def _obeys_rules(type_name: str, pattern: list[tuple[int, str]]) -> bool:
    positions = [p for p, _ in pattern]
    return (bool(pattern) and positions[0] == 1 and positions == sorted(set(positions))
            and all(1 <= p <= 7 for p in positions)
            and max(Counter(g for _, g in pattern).values()) <= 3
            and len(pattern) == TYPES[type_name].pips)


@settings(max_examples=300, deadline=None)
@given(type_name=st.sampled_from(sorted(TYPES)),
       pattern=st.lists(st.tuples(st.integers(0, 8), st.sampled_from(GODS)), max_size=6))
def test_a_codex_is_valid_exactly_when_it_obeys_the_rules(
        type_name: str, pattern: list[tuple[int, str]]) -> None:
    entry = {"id": "X-01", "type": type_name, "pattern": [list(pip) for pip in pattern]}
    if _obeys_rules(type_name, pattern):
        codex = CodexEntry.model_validate(entry).to_codex()
        assert codex.pattern == tuple((p - 1, GODS.index(g)) for p, g in pattern)
        assert codex.pips == TYPES[type_name].pips
    else:
        data = {"format": FORMAT, "description": "", "codices": [entry]}
        with pytest.raises(DeckError, match="codex X-01: "):
            validate_deck_data(data)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(GODS))
def test_two_hastes_may_share_a_pattern_but_two_ones_may_not(god: str) -> None:
    haste = [[1, god]]
    one = [[1, god], [3, god]]
    validate_deck_data({"format": FORMAT, "description": "", "codices": [
        {"id": "HAS-01", "type": "HASTE", "pattern": haste},
        {"id": "HAS-02", "type": "HASTE", "pattern": haste}]})
    with pytest.raises(DeckError, match="codex ONE-02: duplicate of ONE-01"):
        validate_deck_data({"format": FORMAT, "description": "", "codices": [
            {"id": "ONE-01", "type": "ONE", "pattern": one},
            {"id": "ONE-02", "type": "ONE", "pattern": one}]})
