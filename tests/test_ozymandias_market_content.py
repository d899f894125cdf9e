"""Ozymandias (market edition) cards: the packaged deck, its generator, and the content rules.

Rules: seeds/ozymandias-market.md (Components, The Cards); rules-questions §2.4 and OZD-1,
OZD-12, OZD-13.
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
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.errors import MeepleError
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS, EVENTS, Card
from meeple.games.ozymandias_market.content import (
    DEFAULT_CARDS_PATH,
    FORMAT,
    MIN_CARDS,
    CardEntry,
    CardsError,
    CardsManifest,
    load_cards,
    read_cards_manifest,
    validate_cards_data,
)

MAKE_CARDS = DEFAULT_CARDS_PATH.with_name("make_cards.py")

# The reference design (rules-questions §2.4), written out independently of make_cards.
CYCLE = ("RWBK", "WBKR", "BKRW", "KRWB")  # the Latin-square suit cycle, one row per block
ARCHETYPES = ("EXPLORE", "RAZE", "MARCH", "COUP", "SURGE", "DIASPORA", "TRIBUTE", "BAZAAR",
              "AUGURY", "EMBARGO")  # E1..E10
LOW, MID, HIGH = range(1, 13), range(13, 29), range(29, 41)
R, W, B, K = range(4)


@pytest.fixture(scope="module")
def deck() -> tuple[Card, ...]:
    return load_cards()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def make_cards() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ozymandias_market_make_cards", MAKE_CARDS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _by_event(deck: tuple[Card, ...]) -> dict[str, list[Card]]:
    groups: dict[str, list[Card]] = {}
    for card in deck:
        groups.setdefault(card.event, []).append(card)
    return groups


# --- the packaged deck ---------------------------------------------------------------------

def test_packaged_deck_has_40_cards_ranked_1_to_40_in_rank_order(deck: tuple[Card, ...]) -> None:
    assert all(type(card) is Card for card in deck)
    assert len(deck) == 40
    assert [card.rank for card in deck] == list(range(1, 41))
    assert len({card.id for card in deck}) == 40


def test_ten_cards_per_colour(deck: tuple[Card, ...]) -> None:
    assert Counter(card.suit for card in deck) == {R: 10, W: 10, B: 10, K: 10}


def test_suits_follow_the_latin_square_cycle(deck: tuple[Card, ...]) -> None:
    expected = "".join(CYCLE[block % 4] for block in range(10))
    assert "".join(COLOUR_INITIALS[card.suit] for card in deck) == expected
    assert [card.id for card in deck[:8]] == ["R1", "W2", "B3", "K4", "W5", "B6", "K7", "R8"]
    for block in range(10):  # every block of four ranks holds each colour once
        assert sorted(card.suit for card in deck[4 * block:4 * block + 4]) == [R, W, B, K]


def test_each_colour_has_each_archetype_once(deck: tuple[Card, ...]) -> None:
    assert tuple(EVENTS) == ARCHETYPES  # the vocabulary is E1..E10 in order
    for colour in range(4):
        events = [card.event for card in deck if card.suit == colour]
        assert sorted(events) == sorted(ARCHETYPES), COLOURS[colour]


def test_events_follow_the_documented_stagger_rule(deck: tuple[Card, ...]) -> None:
    # Colour c in block b has archetype (b - 3c) mod 10 (make_cards.py, step 3).
    for card in deck:
        block = (card.rank - 1) // 4
        assert card.event == ARCHETYPES[(block - 3 * card.suit) % 10], card.id


def test_each_archetype_is_spread_over_low_mid_and_high_ranks(deck: tuple[Card, ...]) -> None:
    groups = _by_event(deck)
    assert sorted(groups) == sorted(ARCHETYPES)
    for event, cards in groups.items():
        ranks = sorted(card.rank for card in cards)
        assert len(ranks) == 4 and sorted(c.suit for c in cards) == [R, W, B, K], event
        assert len({(r - 1) // 4 for r in ranks}) == 4, event  # four different blocks
        assert min(b - a for a, b in zip(ranks, ranks[1:], strict=False)) >= 4, event
        for band in (LOW, MID, HIGH):
            assert any(r in band for r in ranks), (event, ranks)


def test_the_table_of_events(deck: tuple[Card, ...]) -> None:
    table = {event: " ".join(c.id for c in cards) for event, cards in _by_event(deck).items()}
    assert table == {
        "EXPLORE": "R1 W15 B25 K39", "RAZE": "K4 R8 W18 B32", "MARCH": "K7 R11 W21 B35",
        "COUP": "K10 R14 W28 B38", "SURGE": "B3 K13 R17 W31", "DIASPORA": "B6 K20 R24 W34",
        "TRIBUTE": "B9 K23 R27 W37", "BAZAAR": "W2 B16 K26 R30", "AUGURY": "W5 B19 K29 R33",
        "EMBARGO": "W12 B22 K36 R40"}


def test_every_card_has_the_default_parameters(deck: tuple[Card, ...],
                                              raw: dict[str, Any]) -> None:
    assert all("params" not in entry for entry in raw["cards"])  # defaults everywhere
    for card in deck:
        assert card.params == tuple(sorted(EVENTS[card.event].params.items())), card.id
    surge = next(card for card in deck if card.event == "SURGE")
    assert surge.params == (("explore", 1), ("times", 2)) and surge.param("times") == 2


def test_every_card_has_a_readable_event_text(deck: tuple[Card, ...]) -> None:
    for card in deck:
        text = card.event_text()
        assert text.startswith(card.event.title() + ":"), card.id
        assert "{" not in text and "}" not in text, card.id
        if "{colour}" in EVENTS[card.event].text:
            assert COLOURS[card.suit].title() in text, card.id
        assert str(card).startswith(f"{card.id} ({COLOURS[card.suit].title()} {card.rank}: ")
    by_id = {card.id: card for card in deck}
    assert by_id["B3"].event_text() == (
        "Surge: expand with Blue up to 2 times, a new sector allowed.")
    assert by_id["W5"].event_text() == ("Augury: look at the top 3 cards of the deck and put "
                                        "them back in any order.")


def test_explicit_path_loads_the_same_deck_as_the_default(deck: tuple[Card, ...]) -> None:
    assert load_cards(DEFAULT_CARDS_PATH) == deck
    assert load_cards(str(DEFAULT_CARDS_PATH)) == deck


def test_read_cards_manifest_gives_the_validated_model(raw: dict[str, Any]) -> None:
    manifest = read_cards_manifest()
    assert isinstance(manifest, CardsManifest)
    assert manifest.format == FORMAT == raw["format"]
    assert [entry.id for entry in manifest.cards] == [card.id for card in load_cards()]


def test_description_lists_the_actual_deck(raw: dict[str, Any],
                                           deck: tuple[Card, ...]) -> None:
    text = raw["description"]
    for event, cards in _by_event(deck).items():
        assert f"{event.title()} {' '.join(c.id for c in cards)}" in text
    for fragment in ("40 cards", "Latin-square", "(b - 3c) mod 10", "low 1-12, mid 13-28, "
                     "high 29-40", "R W B K, 5-8 W B K R"):
        assert fragment in text


# --- edited decks that stay valid ----------------------------------------------------------

def _write(tmp_path: Path, data: Any, name: str = "cards.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _entry(data: dict[str, Any], card_id: str) -> dict[str, Any]:
    rank = int(card_id[1:])
    entry = next(e for e in data["cards"] if e.get("rank") == rank)
    assert COLOUR_INITIALS[COLOURS.index(entry["suit"])] == card_id[0]
    return entry


def test_params_override_the_defaults(tmp_path: Path, raw: dict[str, Any]) -> None:
    data = copy.deepcopy(raw)
    _entry(data, "B3")["params"] = {"times": 3}
    _entry(data, "W5")["params"] = {"depth": 3}  # equal to the default: allowed
    _entry(data, "B9")["params"] = {"minus": 0}
    _entry(data, "K4")["params"] = {}
    by_id = {card.id: card for card in load_cards(_write(tmp_path, data))}
    assert by_id["B3"].params == (("explore", 1), ("times", 3))
    assert by_id["B3"].event_text() == (
        "Surge: expand with Blue up to 3 times, a new sector allowed.")
    assert by_id["W5"].params == (("depth", 3),)
    assert by_id["B9"].param("minus") == 0
    assert by_id["K4"].params == ()


def test_file_order_does_not_matter_and_the_size_is_not_fixed(
        tmp_path: Path, raw: dict[str, Any], deck: tuple[Card, ...]) -> None:
    data = copy.deepcopy(raw)
    data["cards"].reverse()
    assert load_cards(_write(tmp_path, data, "reversed.json")) == deck
    del data["cards"][5:9]  # a designer removes four cards (ranks 32-35) and adds one
    data["cards"].append({"rank": 99, "suit": "BLACK", "event": "COUP"})
    edited = load_cards(_write(tmp_path, data, "edited.json"))
    assert len(edited) == 37
    assert [c.rank for c in edited] == [*range(1, 32), *range(36, 41), 99]


def test_a_small_deck_needs_every_colour_and_two_cards() -> None:
    four = [{"rank": r + 1, "suit": c, "event": "RAZE"} for r, c in enumerate(COLOURS)]
    manifest = validate_cards_data({"format": FORMAT, "description": "", "cards": four})
    assert [c.id for c in manifest.runtime_cards()] == ["R1", "W2", "B3", "K4"]
    with pytest.raises(CardsError) as caught:
        validate_cards_data({"format": FORMAT, "description": "", "cards": four[:1]})
    assert caught.value.problems == (
        f"the deck has 1 card(s); a deck needs at least {MIN_CARDS} (OZD-12: initiative "
        "compares ranks)",
        "no card of suit WHITE, BLUE, BLACK; every colour needs at least one card (OZD-1: "
        "four factions, each raised by its own cards)")


# --- the generator -------------------------------------------------------------------------

def test_make_cards_regenerates_the_checked_in_file(make_cards: ModuleType,
                                                    raw: dict[str, Any]) -> None:
    assert make_cards.build_manifest() == raw
    assert make_cards.manifest_text() == DEFAULT_CARDS_PATH.read_text(encoding="utf-8")
    assert make_cards.manifest_text(raw) == make_cards.manifest_text()


def test_make_cards_check_mode(make_cards: ModuleType, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert make_cards.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    stale = tmp_path / "cards.json"
    stale.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(make_cards, "OUT", stale)
    assert make_cards.main(["--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out
    assert make_cards.main(["--bogus"]) == 2
    assert make_cards.main([]) == 0  # writes the tmp copy, not the packaged file
    assert stale.read_text(encoding="utf-8") == DEFAULT_CARDS_PATH.read_text(encoding="utf-8")


def test_make_cards_runs_as_a_script_from_anywhere(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(MAKE_CARDS), "--check"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout


# --- broken card files ---------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def _set(card_id: str, key: str, value: Any) -> Edit:
    return lambda data: _entry(data, card_id).__setitem__(key, value)


def _pop(card_id: str, key: str) -> Edit:
    return lambda data: _entry(data, card_id).pop(key)


def _recolour(old: str, new: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for entry in data["cards"]:
            if entry["suit"] == old:
                entry["suit"] = new
    return edit


SUITS = "suits: RED, WHITE, BLUE, BLACK"
EVENT_LIST = "events: EXPLORE, RAZE, MARCH, COUP, SURGE, DIASPORA, TRIBUTE, BAZAAR, AUGURY"
NOT_POSITIVE = "is not a positive integer (OZD-12"
NOT_COUNT = "must be a non-negative integer"

BROKEN: list[tuple[str, Edit, list[str]]] = [
    ("unknown-suit", _set("R17", "suit", "GREEN"),
     ["card at index 16", "unknown suit 'GREEN'", SUITS, "OZD-1"]),
    ("lower-case-suit", _set("W2", "suit", "white"),
     ["card at index 1", "unknown suit 'white'", SUITS, "OZD-1"]),
    ("suit-not-a-string", _set("W2", "suit", 1),
     ["card at index 1", "unknown suit 1", SUITS]),
    ("rank-zero", _set("K4", "rank", 0), ["card at index 3", "rank 0 " + NOT_POSITIVE]),
    ("rank-negative", _set("K4", "rank", -4), ["card at index 3", "rank -4 " + NOT_POSITIVE]),
    ("rank-string", _set("K4", "rank", "4"), ["card at index 3", "rank '4' " + NOT_POSITIVE]),
    ("rank-float", _set("K4", "rank", 4.0), ["card at index 3", "rank 4.0 " + NOT_POSITIVE]),
    ("rank-bool", _set("R1", "rank", True), ["card at index 0", "rank True " + NOT_POSITIVE]),
    ("duplicate-rank", _set("W18", "rank", 17),
     ["card W17: duplicate rank 17, also on card R17", "index 16 and 17",
      "OZD-12: ranks are unique"]),
    ("unknown-event", _set("W18", "event", "BLAST"),
     ["card W18", "unknown event 'BLAST'", EVENT_LIST, "OZD-13"]),
    ("event-lower-case", _set("R1", "event", "explore"),
     ["card R1", "unknown event 'explore'", EVENT_LIST, "OZD-13"]),
    ("unknown-param", _set("B3", "params", {"count": 2}),
     ["card B3", "unknown parameter 'count' for event SURGE", "SURGE takes: times", "OZD-13"]),
    ("param-of-another-event", _set("W5", "params", {"times": 2}),
     ["card W5", "unknown parameter 'times' for event AUGURY", "AUGURY takes: depth"]),
    ("param-on-plain-event", _set("K4", "params", {"times": 1}),
     ["card K4", "unknown parameter 'times' for event RAZE", "RAZE takes no parameters"]),
    ("param-negative", _set("B3", "params", {"times": -1}),
     ["card B3", f"parameter 'times' {NOT_COUNT}; got -1"]),
    ("param-string", _set("B9", "params", {"minus": "1"}),
     ["card B9", f"parameter 'minus' {NOT_COUNT}; got '1'"]),
    ("param-bool", _set("W5", "params", {"depth": True}),
     ["card W5", f"parameter 'depth' {NOT_COUNT}; got True"]),
    ("param-float", _set("W5", "params", {"depth": 2.5}),
     ["card W5", f"parameter 'depth' {NOT_COUNT}; got 2.5"]),
    ("params-not-object", _set("B3", "params", [2]),
     ["card B3", "params must be a JSON object", "got list"]),
    ("unknown-card-key", _set("R1", "colour", "red"),
     ["card R1", "unknown key 'colour'", "allowed keys: rank, suit, event, params"]),
    ("missing-event", _pop("W5", "event"), ["card W5", "missing key 'event'"]),
    ("missing-suit", _pop("W5", "suit"), ["card at index 4", "missing key 'suit'"]),
    ("missing-rank", _pop("K4", "rank"), ["card at index 3", "missing key 'rank'"]),
    ("card-not-object", lambda d: d["cards"].__setitem__(2, "B3"),
     ["card at index 2", "JSON object"]),
    ("colour-missing", _recolour("BLACK", "RED"),
     ["no card of suit BLACK", "every colour needs at least one card", "OZD-1"]),
    ("format", lambda d: d.__setitem__("format", "meeple-ozymandias-market-cards/2"),
     ["file: unsupported format 'meeple-ozymandias-market-cards/2'", FORMAT]),
    ("unknown-file-key", lambda d: d.__setitem__("version", 2),
     ["file: unknown key 'version'", "allowed keys: format, description, cards"]),
    ("missing-description", lambda d: d.pop("description"),
     ["file: missing key 'description'"]),
    ("missing-cards", lambda d: d.pop("cards"), ["file: missing key 'cards'"]),
    ("cards-not-list", lambda d: d.__setitem__("cards", {"R1": {}}),
     ["file: cards", "list (JSON array)"]),
]


@pytest.mark.parametrize(("edit", "fragments"), [(e, f) for _, e, f in BROKEN],
                         ids=[name for name, _, _ in BROKEN])
def test_a_broken_file_names_the_card_and_the_rule(
        tmp_path: Path, raw: dict[str, Any], edit: Edit, fragments: list[str]) -> None:
    data = copy.deepcopy(raw)
    edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(CardsError) as caught:
        load_cards(path)
    message = str(caught.value)
    assert message.startswith(f"invalid card file {path}: ")
    for fragment in fragments:
        assert fragment in message
    assert len(caught.value.problems) == 1, caught.value.problems
    with pytest.raises(CardsError) as again:  # the in-memory entry point agrees
        validate_cards_data(data, "edited copy")
    assert again.value.problems == caught.value.problems


def test_every_card_problem_is_reported_then_the_deck_rules(raw: dict[str, Any]) -> None:
    data = copy.deepcopy(raw)
    _entry(data, "R1")["event"] = "BLAST"
    _entry(data, "B3")["params"] = {"times": -2, "minus": -1}
    _entry(data, "R40")["rank"] = 39
    with pytest.raises(CardsError) as caught:
        validate_cards_data(data, "edited copy")
    problems = caught.value.problems
    assert len(problems) == 3, problems
    assert problems[0].startswith("card R1: unknown event 'BLAST'")
    assert problems[1] == ("card B3: parameter 'times' must be a non-negative integer; got -2 "
                           "(event parameters are counts)")
    assert problems[2].startswith("card B3: parameter 'minus' must be")
    assert str(caught.value).startswith("invalid card file edited copy (3 problems):\n  - ")
    # Deck rules (unique ranks, colours) are checked once every card is readable.
    _entry(data, "R1")["event"] = "EXPLORE"
    _entry(data, "B3")["params"] = {"count": 1}
    with pytest.raises(CardsError) as caught:
        validate_cards_data(data, "edited copy")
    assert caught.value.problems == (
        "card B3: unknown parameter 'count' for event SURGE; SURGE takes: times, explore "
        "(OZD-13)",)
    del _entry(data, "B3")["params"]
    with pytest.raises(CardsError) as caught:
        validate_cards_data(data, "edited copy")
    assert caught.value.problems == (
        "card R39: duplicate rank 39, also on card K39 (cards at index 38 and 39; OZD-12: "
        "ranks are unique)",)


def test_a_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(CardsError, match="card file not found") as caught:
        load_cards(path)
    assert str(path) in str(caught.value)


def test_invalid_json_names_the_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(f'{{"format": "{FORMAT}",\n  "cards": [,]}}', encoding="utf-8")
    with pytest.raises(CardsError, match="is not valid JSON") as caught:
        load_cards(path)
    assert str(path) in str(caught.value)
    assert "line 2" in str(caught.value)


def test_a_non_object_file_is_refused() -> None:
    with pytest.raises(CardsError, match="file: Input should be a JSON object; got list"):
        validate_cards_data([1, 2, 3])


def test_cards_error_is_a_meeple_error_and_a_value_error() -> None:
    assert issubclass(CardsError, MeepleError)
    assert issubclass(CardsError, ValueError)
    assert CardsError("x").problems == ("x",)
    assert CardsError("x", ["a", "b"]).problems == ("a", "b")


def test_models_are_frozen_and_strict(raw: dict[str, Any]) -> None:
    manifest = validate_cards_data(raw)
    with pytest.raises(ValueError):
        manifest.cards[0].rank = 41  # type: ignore[misc]
    with pytest.raises(ValueError):
        manifest.format = "x"  # type: ignore[misc]
    assert manifest.cards[0].to_card() == load_cards()[0]


# --- the per-card rules against an independent oracle --------------------------------------

@settings(max_examples=200, deadline=None)
@given(rank=st.one_of(st.integers(-2, 50), st.booleans(), st.just("3")),
       suit=st.sampled_from([*COLOURS, "red", "GREEN"]),
       event=st.sampled_from([*EVENTS, "BLAST"]),
       params=st.dictionaries(st.sampled_from(["times", "minus", "depth", "count"]),
                              st.one_of(st.integers(-2, 5), st.booleans()), max_size=2))
def test_a_card_is_valid_exactly_when_it_obeys_the_rules(
        rank: Any, suit: str, event: str, params: dict[str, Any]) -> None:
    entry = {"rank": rank, "suit": suit, "event": event, "params": params}
    valid = (type(rank) is int and rank >= 1 and suit in COLOURS and event in EVENTS
             and all(name in EVENTS[event].params and type(v) is int and v >= 0
                     for name, v in params.items()))
    if valid:
        card = CardEntry.model_validate(entry).to_card()
        assert card == Card(rank, COLOURS.index(suit), event,
                            tuple(sorted({**EVENTS[event].params, **params}.items())))
    else:
        with pytest.raises(ValueError):
            CardEntry.model_validate(entry)
        others = [{"rank": 100 + i, "suit": c, "event": "RAZE"} for i, c in enumerate(COLOURS)]
        with pytest.raises(CardsError, match="card "):
            validate_cards_data({"format": FORMAT, "description": "",
                                 "cards": [entry, *others]})
