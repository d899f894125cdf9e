"""Epoch Ellipse content: the packaged cards and locations, their generator, and the content
rules.

Rules: seeds/epoch-ellipse.txt (DECKS, GAME START, 3A-3F, COMBAT, DEATH, the example turn);
rules-questions 5.4 and EPE-2, EPE-3, EPE-9, EPE-20, EPE-25, EPE-26, EPE-27, EPE-43.
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
from types import MappingProxyType, ModuleType
from typing import Any

import pytest

from meeple.engine.content import SHAPE_WORDS, ContentError
from meeple.games.epoch_ellipse.cards import (
    CATASTROPHE,
    EFFECTS,
    KINDS,
    NIGHT,
    SALVAGE,
    SUBTYPES,
    SURVIVOR,
    Card,
    Location,
)
from meeple.games.epoch_ellipse.content import (
    BOON_EFFECTS,
    DEFAULT_CARDS_PATH,
    DIFFICULTIES,
    FORMAT,
    PENALTY_EFFECTS,
    CardsError,
    CardsManifest,
    Content,
    EpochContentError,
    load_content,
    read_cards_manifest,
    validate_cards_data,
)

MAKE_CONTENT = DEFAULT_CARDS_PATH.with_name("make_content.py")


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def make_content() -> ModuleType:
    spec = importlib.util.spec_from_file_location("epoch_ellipse_make_content", MAKE_CONTENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _card(content: Content, name: str) -> Card:
    return content.cards[content.by_name[name]]


def _names(content: Content, ids: tuple[int, ...]) -> Counter[str]:
    return Counter(content.cards[i].name for i in ids)


def _composition(content: Content) -> dict[str, int]:
    """Deck sizes by kind, by subtype and by combat difficulty."""
    out: dict[str, int] = {}
    for kind, deck in content.decks.items():
        out[kind] = len(deck)
        for i in deck:
            card = content.cards[i]
            if card.subtype:
                out[card.subtype] = out.get(card.subtype, 0) + 1
            if card.difficulty:
                key = f"d{card.difficulty}"
                out[key] = out.get(key, 0) + 1
    return out


# --- the packaged content -------------------------------------------------------------------

# rules-questions 5.4 for "seed"; easy has fewer hard catastrophes and more food and medical
# care, hard the opposite.
COMPOSITION = {
    "easy": {"SALVAGE": 65, "FOOD": 23, "WEAPON": 16, "MEDICAL": 14, "ALLY": 6, "CHARM": 6,
             "SURVIVOR": 14,
             "CATASTROPHE": 71, "COMBAT": 28, "d1": 12, "d2": 10, "d3": 5, "d4": 1,
             "COLLAPSE": 34, "CURSE": 9,
             "NIGHT": 13},
    "seed": {"SALVAGE": 60, "FOOD": 20, "WEAPON": 16, "MEDICAL": 12, "ALLY": 6, "CHARM": 6,
             "SURVIVOR": 14,
             "CATASTROPHE": 80, "COMBAT": 32, "d1": 12, "d2": 10, "d3": 7, "d4": 3,
             "COLLAPSE": 34, "CURSE": 14,
             "NIGHT": 12},
    "hard": {"SALVAGE": 47, "FOOD": 14, "WEAPON": 15, "MEDICAL": 6, "ALLY": 6, "CHARM": 6,
             "SURVIVOR": 14,
             "CATASTROPHE": 104, "COMBAT": 43, "d1": 10, "d2": 12, "d3": 13, "d4": 8,
             "COLLAPSE": 34, "CURSE": 27,
             "NIGHT": 13},
}


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_the_decks_at_each_difficulty(difficulty: str) -> None:
    content = load_content(difficulty=difficulty)
    assert content.difficulty == difficulty
    assert list(content.decks) == list(KINDS)
    assert _composition(content) == COMPOSITION[difficulty]
    for kind, deck in content.decks.items():
        assert all(content.cards[i].kind == kind for i in deck)
        assert list(deck) == sorted(deck)  # file order, one id per copy
    # Every location can be built (3A): 62 catastrophes and 45 salvage in all.
    assert sum(loc.catastrophes for loc in content.locations) == 62 < len(
        content.decks[CATASTROPHE])
    assert sum(loc.salvage for loc in content.locations) == 45 < len(content.decks[SALVAGE])


def test_easy_is_easier_and_hard_harder() -> None:
    easy, seed, hard = (_composition(load_content(difficulty=d)) for d in DIFFICULTIES)
    for key in ("CURSE", "d3", "d4"):
        assert easy[key] < seed[key] < hard[key]
    for key in ("FOOD", "MEDICAL"):
        assert easy[key] > seed[key] > hard[key]
    assert easy["COLLAPSE"] == seed["COLLAPSE"] == hard["COLLAPSE"]
    assert easy["SURVIVOR"] == seed["SURVIVOR"] == hard["SURVIVOR"] == 14


def test_the_locations(content: Content) -> None:
    # rules-questions 5.4, exactly: name -> (catastrophes, salvage, survivors, VP).
    assert all(type(loc) is Location for loc in content.locations)
    table = {loc.name: (loc.catastrophes, loc.salvage, loc.survivors, loc.vp)
             for loc in content.locations}
    assert table == {
        "GRAVEYARD": (0, 0, 0, 0), "APARTMENT BUILDING": (3, 4, 1, 1),
        "WAREHOUSE": (4, 5, 1, 1), "MALL": (7, 4, 1, 1), "EMPTY SKYSCRAPER": (6, 3, 2, 2),
        "HOSPITAL": (5, 5, 1, 2), "POLICE STATION": (6, 4, 1, 2), "SUPERMARKET": (5, 6, 0, 2),
        "WATER WORKS": (6, 4, 1, 2), "RADIO TOWER": (5, 3, 1, 2),
        "SUBWAY TUNNELS": (7, 3, 1, 3), "POWER PLANT": (8, 4, 1, 3)}
    assert content.fixed_locations == (0, 1)
    assert [content.locations[i].name for i in content.fixed_locations] == [
        "GRAVEYARD", "APARTMENT BUILDING"]
    assert content.location_deck == tuple(range(2, 12))
    deck = [content.locations[i] for i in content.location_deck]
    assert not any(loc.fixed for loc in deck)
    assert sum(loc.vp for loc in deck) == 20  # the team win (EPE-27) needs about half
    assert (sum(loc.catastrophes for loc in deck), sum(loc.salvage for loc in deck),
            sum(loc.survivors for loc in deck)) == (59, 41, 10)
    assert all(loc.text for loc in content.locations)


def test_the_cards_the_seed_names_have_their_printed_abilities(content: Content) -> None:
    def abilities(name: str) -> tuple[dict[str, int], dict[str, int]]:
        card = _card(content, name)
        return dict(card.discard), dict(card.trash)

    assert abilities("BULLET") == ({}, {"weapon": 1})
    assert abilities("TINNED HAM") == ({}, {"food": 1})
    assert abilities("BASEBALL BAT") == ({"weapon": 1}, {})
    assert abilities("FIRST AID") == ({"avoid_collapse": 1}, {"trash_catastrophe": 1})
    assert abilities("PIPE BOMB") == ({}, {"weapon": 3})
    assert abilities("ADAM NATHAN") == ({"medical": 1}, {})
    assert abilities("JUSTICE LIN") == ({"redraw": 1}, {})
    kinds = {name: (_card(content, name).kind, _card(content, name).subtype,
                    _card(content, name).difficulty) for name in (
        "BULLET", "TINNED HAM", "BASEBALL BAT", "FIRST AID", "PIPE BOMB", "ADAM NATHAN",
        "JUSTICE LIN", "MILD INJURY", "CRACKED RIB", "SHOULDER INJURY", "BROKEN FOOT",
        "WILD DOGS", "RAIDERS", "MUSTARD GAS ANGELS", "AND THEY TOOK MY STUFF, TOO")}
    assert kinds == {
        "BULLET": (SALVAGE, "WEAPON", 0), "TINNED HAM": (SALVAGE, "FOOD", 0),
        "BASEBALL BAT": (SALVAGE, "WEAPON", 0), "FIRST AID": (SALVAGE, "MEDICAL", 0),
        "PIPE BOMB": (SALVAGE, "WEAPON", 0), "ADAM NATHAN": (SURVIVOR, "", 0),
        "JUSTICE LIN": (SURVIVOR, "", 0), "MILD INJURY": (CATASTROPHE, "COLLAPSE", 0),
        "CRACKED RIB": (CATASTROPHE, "COLLAPSE", 0),
        "SHOULDER INJURY": (CATASTROPHE, "COLLAPSE", 0),
        "BROKEN FOOT": (CATASTROPHE, "COLLAPSE", 0), "WILD DOGS": (CATASTROPHE, "COMBAT", 1),
        "RAIDERS": (CATASTROPHE, "COMBAT", 2),
        "MUSTARD GAS ANGELS": (CATASTROPHE, "COMBAT", 3),
        "AND THEY TOOK MY STUFF, TOO": (NIGHT, "", 0)}
    night = _card(content, "AND THEY TOOK MY STUFF, TOO")
    assert night.effect == "trash_random_hand"
    assert night.params == {"who": "combat_in_discard", "n": 1}
    assert _card(content, "BULLET").text == "Trash -> 1 Weapon"
    assert _card(content, "FIRST AID").text == ("Discard -> Avoid 1 COLLAPSE, Trash -> Trash 1 "
                                               "Catastrophe")
    assert _card(content, "PIPE BOMB").modes() == ("trash",)
    assert _card(content, "FIRST AID").points("discard") == {"avoid_collapse": 1}


def test_the_seed_named_cards_are_in_the_reference_decks(content: Content) -> None:
    catastrophes = _names(content, content.decks[CATASTROPHE])
    assert catastrophes["WILD DOGS"] >= 1 and catastrophes["RAIDERS"] >= 1
    assert catastrophes["MUSTARD GAS ANGELS"] >= 1
    assert all(catastrophes[n] >= 1 for n in ("CRACKED RIB", "SHOULDER INJURY", "BROKEN FOOT"))
    assert catastrophes["MILD INJURY"] == 0  # starter-only
    salvage = _names(content, content.decks[SALVAGE])
    assert (salvage["TINNED HAM"], salvage["BULLET"], salvage["BASEBALL BAT"],
            salvage["PIPE BOMB"], salvage["FIRST AID"]) == (12, 6, 4, 3, 6)
    survivors = _names(content, content.decks[SURVIVOR])
    assert set(survivors.values()) == {1} and {"ADAM NATHAN", "JUSTICE LIN"} <= set(survivors)
    assert _names(content, content.decks[NIGHT])["AND THEY TOOK MY STUFF, TOO"] == 1


def test_the_starter_deck(content: Content) -> None:
    # GAME START: 4 bullets, 4 tinned ham, 1 mild injury (+ a dealt survivor, EPE-2).
    for difficulty in DIFFICULTIES:
        starter = load_content(difficulty=difficulty).starter
        assert _names(content, starter) == {"BULLET": 4, "TINNED HAM": 4, "MILD INJURY": 1}
        assert list(starter) == sorted(starter)
    assert _card(content, "MILD INJURY").subtype == "COLLAPSE"


def test_every_card_obeys_its_kind(content: Content) -> None:
    assert all(type(card) is Card for card in content.cards)
    assert len({card.name for card in content.cards}) == len(content.cards)
    assert dict(content.by_name) == {card.name: i for i, card in enumerate(content.cards)}
    for card in content.cards:
        assert card.subtype in (SUBTYPES[card.kind] or ("",)), card.name
        assert card.text, card.name
        for mapping in (card.discard, card.trash, card.params):
            assert isinstance(mapping, MappingProxyType)
        if card.subtype == "COMBAT":
            assert card.difficulty >= 1
        else:
            assert card.difficulty == 0
        if card.kind in (CATASTROPHE, NIGHT) or card.subtype == "CHARM":
            assert not card.modes(), card.name
        elif card.kind == SALVAGE:
            assert card.modes(), card.name
        if card.kind == NIGHT or card.subtype in ("CURSE", "CHARM"):
            assert card.effect in EFFECTS and set(card.params) == set(EFFECTS[card.effect])
        else:
            assert card.effect == "" and not card.params


def test_curses_charms_and_night_cards(content: Content) -> None:
    def effects(subtype: str, kind: str = CATASTROPHE) -> dict[str, tuple[str, dict[str, Any]]]:
        return {c.name: (c.effect, dict(c.params)) for c in content.cards
                if c.kind == kind and (kind == NIGHT or c.subtype == subtype)}

    curses = effects("CURSE")
    assert len(curses) == 8 and all(e in PENALTY_EFFECTS for e, _ in curses.values())
    assert sum(p.get("who", "self") == "self" for _, p in curses.values()) >= 6  # mostly self
    charms = effects("CHARM", SALVAGE)
    assert {e for e, _ in charms.values()} == set(BOON_EFFECTS)
    nights = effects("", NIGHT)
    assert len(nights) == 12
    boons = [n for n, (e, _) in nights.items() if e in BOON_EFFECTS]
    assert len(boons) == 3
    assert [n for n, (e, _) in nights.items() if e == "nothing"] == ["ALL QUIET"]
    # A night card resolves before the hands are discarded, so a random discard would do
    # nothing there: night penalties trash, add catastrophes or reinforce locations.
    assert all(e != "discard_random_hand" for e, _ in nights.values())
    conditional = {p.get("who") for e, p in nights.values()}
    assert {"combat_in_discard", "collapse_in_discard", "all", "self"} <= conditional


def test_survivors(content: Content) -> None:
    survivors = [c for c in content.cards if c.kind == SURVIVOR]
    assert len(survivors) == 14
    with_discard = [c for c in survivors if c.discard]
    assert len(with_discard) == 13 and not any(c.trash for c in survivors)
    givers = Counter(point for c in survivors for point in c.discard)
    assert givers["food"] >= 2 and givers["weapon"] >= 2
    assert _card(content, "LITTLE PIP").modes() == ()


def test_content_is_immutable_and_cached(content: Content) -> None:
    assert load_content() is content
    assert load_content(difficulty="seed") is content
    assert load_content(DEFAULT_CARDS_PATH) == content
    assert load_content(str(DEFAULT_CARDS_PATH), "hard") == load_content(difficulty="hard")
    with pytest.raises(AttributeError):
        content.starter = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        content.decks["NIGHT"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        _card(content, "BULLET").trash["weapon"] = 5  # type: ignore[index]
    manifest = read_cards_manifest()
    assert isinstance(manifest, CardsManifest) and manifest.format == FORMAT
    assert manifest.content() == content
    assert manifest.cards[3].copies == {"easy": 6, "seed": 6, "hard": 5}


@pytest.mark.parametrize("difficulty", ["normal", "SEED", "", None, 1])
def test_an_unknown_difficulty_names_the_allowed_ones(difficulty: Any) -> None:
    expected = f"unknown difficulty {difficulty!r}; difficulties: easy, seed, hard"
    with pytest.raises(EpochContentError) as caught:
        load_content(difficulty=difficulty)
    assert str(caught.value) == expected
    with pytest.raises(EpochContentError):
        load_content(DEFAULT_CARDS_PATH, difficulty)
    with pytest.raises(EpochContentError):
        read_cards_manifest().content(difficulty)


# --- a designer's file ----------------------------------------------------------------------

SMALL: dict[str, Any] = {
    "format": FORMAT, "description": "a tiny test deck",
    "locations": [
        {"name": "CAMP", "catastrophes": 1, "salvage": 1, "survivors": 0, "vp": 0,
         "fixed": True},
        {"name": "BRIDGE", "catastrophes": 2, "salvage": 0, "survivors": 1, "vp": 6},
        {"name": "GRAVEYARD", "catastrophes": 0, "salvage": 0, "survivors": 0, "vp": 0,
         "fixed": True},
        {"name": "DEPOT", "catastrophes": 0, "salvage": 2, "survivors": 0, "vp": 4},
    ],
    "cards": [
        {"name": "CANNED SOUP", "kind": "SALVAGE", "subtype": "FOOD",
         "copies": {"easy": 4, "seed": 3, "hard": 3}, "starter": 2, "trash": {"food": 1}},
        {"name": "HORSESHOE", "kind": "SALVAGE", "subtype": "CHARM", "copies": 0,
         "effect": "draw_salvage"},
        {"name": "ZED", "kind": "SURVIVOR", "copies": 2},
        {"name": "GHOULS", "kind": "CATASTROPHE", "subtype": "COMBAT", "difficulty": 2,
         "copies": 3, "starter": 1},
        {"name": "HEX", "kind": "CATASTROPHE", "subtype": "CURSE", "copies": 1,
         "effect": "reinforce_location", "params": {"n": 3}},
        {"name": "CALM", "kind": "NIGHT", "copies": 1, "effect": "nothing"},
    ],
}


def test_a_small_edited_file_loads(tmp_path: Path) -> None:
    path = _write(tmp_path, SMALL)
    content = load_content(path, "easy")
    assert [c.name for c in content.cards] == ["CANNED SOUP", "HORSESHOE", "ZED", "GHOULS",
                                               "HEX", "CALM"]
    assert content.decks == {SALVAGE: (0,) * 4, SURVIVOR: (2, 2), CATASTROPHE: (3, 3, 3, 4),
                             NIGHT: (5,)}
    assert content.starter == (0, 0, 3)
    assert content.fixed_locations == (2, 0) and content.location_deck == (1, 3)
    assert content.locations[0] == Location("CAMP", 1, 1, 0, 0, True, "")
    horseshoe, zed, hex_ = content.cards[1], content.cards[2], content.cards[4]
    assert horseshoe.params == {"who": "self", "n": 1}  # the defaults filled in
    assert hex_.params == {"n": 3} and zed.modes() == () and zed.text == ""
    assert content.cards[5].params == {}
    assert load_content(path, "seed").decks[SALVAGE] == (0, 0, 0)


def test_make_content_regenerates_the_file(make_content: ModuleType,
                                           raw: dict[str, Any]) -> None:
    assert make_content.build() == raw
    text = DEFAULT_CARDS_PATH.read_text(encoding="utf-8")
    assert make_content.cards_text() == text
    assert make_content.cards_text(raw) == text
    lines = text.splitlines()
    assert len(lines) == len(raw["locations"]) + len(raw["cards"]) + 8  # one entry per line
    for difficulty in ("easy/seed/hard", "SALVAGE 65/60/47", "CATASTROPHE 71/80/104",
                       "NIGHT 13/12/13", "CURSE 9/14/27", "4 TINNED HAM, 4 BULLET"):
        assert difficulty in raw["description"]


def test_make_content_check_mode(make_content: ModuleType, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert make_content.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    stale = tmp_path / "cards.json"
    stale.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(make_content, "OUT", stale)
    assert make_content.main(["--check"]) == 1
    assert "DIFFERS" in capsys.readouterr().out
    assert make_content.main(["--bogus"]) == 2
    assert "usage: make_content.py [--check]" in capsys.readouterr().err
    assert make_content.main([]) == 0  # writes the tmp copy, not the packaged file
    assert stale.read_text(encoding="utf-8") == DEFAULT_CARDS_PATH.read_text("utf-8")


def test_make_content_runs_as_a_script_from_anywhere(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(MAKE_CONTENT), "--check"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout


# --- broken files ---------------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def _write(tmp_path: Path, data: Any, name: str = "cards.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _entry(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for items in ("locations", "cards") for e in data[items]
                if e["name"] == name)


def _set(name: str, key: str, value: Any) -> Edit:
    return lambda data: _entry(data, name).__setitem__(key, value)


def _pop(name: str, key: str) -> Edit:
    return lambda data: _entry(data, name).pop(key)


def _copies(names: tuple[str, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for name in names:
            _entry(data, name)["copies"] = value
    return edit


def _each(*edits: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)
    return edit


def _drop_location(name: str) -> Edit:
    return lambda data: data["locations"].remove(_entry(data, name))


NIGHTS = ("AND THEY TOOK MY STUFF, TOO", "FEVER DREAMS", "THE RAT KING'S TITHE", "NIGHT RAID",
          "RUST AND ROT", "COLD SNAP", "THE DEAD WALK", "SETTLING RUBBLE", "A QUIET FIRE",
          "CARE PACKAGE", "DAWN PATROL", "ALL QUIET")
COUNT_RULE = "(3A: cards drawn from that deck to build the event deck)"
GRAVE_RULE = ("(GAME START, EPE-3: its event deck starts empty; DEATH: Recovered it is worth 0 "
              "VP)")
EFFECT_RULE = "(EPE-20, EPE-25, EPE-32: curses, charms and night cards resolve an effect)"
LOCATION_KEYS = "name, catastrophes, salvage, survivors, vp, fixed, text"
CARD_KEYS = ("name, kind, subtype, difficulty, copies, starter, discard, trash, effect, "
             "params, text")
COPIES_RULE = ("(copies in the shared deck: a whole number >= 0, or an object with the keys "
               "easy, seed, hard)")
ALL_EFFECTS = ", ".join(EFFECTS)

BROKEN: list[tuple[str, Edit, str]] = [
    # locations
    ("location-negative-count", _set("MALL", "catastrophes", -1),
     f"location MALL: catastrophes must be a whole number >= 0; got -1 {COUNT_RULE}"),
    ("location-count-float", _set("MALL", "salvage", 4.0),
     f"location MALL: salvage must be a whole number >= 0; got 4.0 {COUNT_RULE}"),
    ("location-vp-string", _set("HOSPITAL", "vp", "2"),
     "location HOSPITAL: vp must be a whole number >= 0; got '2' (3F: the location's worth "
     "when Recovered)"),
    ("location-fixed-not-bool", _set("MALL", "fixed", 1),
     "location MALL: fixed must be true or false; got 1 (GAME START: fixed locations are put "
     "into play at setup)"),
    ("graveyard-not-fixed", _set("GRAVEYARD", "fixed", False),
     "location GRAVEYARD: the GRAVEYARD must be fixed with 0 catastrophes, salvage, survivors "
     f"and VP; got not fixed {GRAVE_RULE}"),
    ("graveyard-with-cards", _each(_set("GRAVEYARD", "vp", 1), _set("GRAVEYARD", "salvage", 2)),
     "location GRAVEYARD: the GRAVEYARD must be fixed with 0 catastrophes, salvage, survivors "
     f"and VP; got salvage 2, vp 1 {GRAVE_RULE}"),
    ("location-without-cards", _each(_set("WAREHOUSE", "catastrophes", 0),
                                     _set("WAREHOUSE", "salvage", 0),
                                     _set("WAREHOUSE", "survivors", 0)),
     "location WAREHOUSE: draws no cards (0 catastrophes, 0 salvage, 0 survivors), so its "
     "event deck would be empty (3A: the explorer resolves its top card)"),
    ("location-lower-case", _set("MALL", "name", "Mall"),
     'location at index 3: name \'Mall\' is not an upper-case name, e.g. "TINNED HAM"'),
    ("location-duplicate", _set("HOSPITAL", "name", "MALL"),
     "location MALL: duplicate name (locations at index 3 and 5; location names are unique)"),
    ("two-graveyards", lambda d: d["locations"].append(copy.deepcopy(d["locations"][0])),
     "location GRAVEYARD: duplicate name (locations at index 0 and 12; location names are "
     "unique)"),
    ("no-graveyard", _drop_location("GRAVEYARD"),
     "no location named GRAVEYARD; the file needs exactly one, fixed (GAME START: it is put "
     "into play; TRASH VS. DISCARD: trashed cards go onto its event deck)"),
    ("no-other-fixed-location", _pop("APARTMENT BUILDING", "fixed"),
     "no fixed location besides the GRAVEYARD; at least one is needed (GAME START: the "
     "Apartment Building is put into play; EPE-3: explorable from day 1)"),
    ("too-few-vp", _each(*(_drop_location(n) for n in (
        "EMPTY SKYSCRAPER", "HOSPITAL", "POLICE STATION", "SUPERMARKET", "WATER WORKS",
        "RADIO TOWER"))),
     "the location deck (the non-fixed locations) is worth 8 VP in all, fewer than the 10 VP "
     "Recovered at once that win, so the team could never win (3F, EPE-27)"),
    ("unknown-location-key", _set("MALL", "loot", 3),
     f"location MALL: unknown key 'loot'; allowed keys: {LOCATION_KEYS}"),
    ("missing-vp", _pop("MALL", "vp"), "location MALL: missing key 'vp'"),
    ("location-not-an-object", lambda d: d["locations"].__setitem__(2, "WAREHOUSE"),
     "location at index 2: Input should be a JSON object; got str"),
    # cards: names, kinds, subtypes
    ("card-lower-case", _set("TINNED HAM", "name", "Tinned Ham"),
     'card at index 0: name \'Tinned Ham\' is not an upper-case name, e.g. "TINNED HAM"'),
    ("card-empty-name", _set("BULLET", "name", ""),
     'card at index 3: name \'\' is not an upper-case name, e.g. "TINNED HAM"'),
    ("card-duplicate", _set("HARDTACK", "name", "TINNED HAM"),
     "card TINNED HAM: duplicate name (cards at index 0 and 1; card names are unique)"),
    ("unknown-kind", _set("BULLET", "kind", "WEAPON"),
     "card BULLET: unknown kind 'WEAPON'; kinds: SALVAGE, SURVIVOR, CATASTROPHE, NIGHT (DECKS)"),
    ("wrong-subtype", _set("BULLET", "subtype", "GUN"),
     "card BULLET: a SALVAGE card needs a subtype: FOOD, WEAPON, MEDICAL, ALLY, CHARM; got "
     "'GUN' (3C, 3E)"),
    ("subtype-of-the-other-kind", _set("CRACKED RIB", "subtype", "MEDICAL"),
     "card CRACKED RIB: a CATASTROPHE card needs a subtype: COMBAT, COLLAPSE, CURSE; got "
     "'MEDICAL' (3C, 3E)"),
    ("missing-subtype", _pop("CRACKED RIB", "subtype"),
     "card CRACKED RIB: a CATASTROPHE card needs a subtype: COMBAT, COLLAPSE, CURSE (3C, 3E)"),
    ("survivor-with-subtype", _set("ADAM NATHAN", "subtype", "MEDICAL"),
     "card ADAM NATHAN: a SURVIVOR card has no subtype; got 'MEDICAL' (DECKS: only salvage "
     "and catastrophe cards have subtypes)"),
    # difficulty
    ("combat-without-difficulty", _pop("WILD DOGS", "difficulty"),
     "card WILD DOGS: a COMBAT card needs a difficulty of at least 1 (COMBAT: the weapon points "
     "that win)"),
    ("collapse-with-difficulty", _set("BROKEN FOOT", "difficulty", 2),
     "card BROKEN FOOT: difficulty 2 is only for COMBAT cards; leave it out (COMBAT: the "
     "weapon points that win)"),
    ("difficulty-string", _set("RAIDERS", "difficulty", "2"),
     "card RAIDERS: difficulty must be a whole number >= 0; got '2' (COMBAT: the weapon points "
     "that win)"),
    # copies and starter
    ("negative-copies", _set("PIPE BOMB", "copies", -1),
     "card PIPE BOMB: copies must be a whole number >= 0 or an object with the keys easy, "
     "seed, hard; got -1"),
    ("bool-copies", _set("PIPE BOMB", "copies", True),
     "card PIPE BOMB: copies must be a whole number >= 0 or an object with the keys easy, "
     "seed, hard; got True"),
    ("copies-missing-difficulty", _set("PIPE BOMB", "copies", {"easy": 3, "seed": 3}),
     f"card PIPE BOMB: copies is missing key 'hard' {COPIES_RULE}"),
    ("copies-unknown-difficulty", _set("PIPE BOMB", "copies",
                                       {"easy": 3, "normal": 3, "seed": 3, "hard": 3}),
     f"card PIPE BOMB: copies has unknown key 'normal' {COPIES_RULE}"),
    ("copies-negative-at-one", _set("PIPE BOMB", "copies", {"easy": 3, "seed": 3, "hard": -2}),
     "card PIPE BOMB: copies 'hard' must be a whole number >= 0; got -2"),
    ("starter-survivor", _set("ADAM NATHAN", "starter", 1),
     "card ADAM NATHAN: starter copies are only for SALVAGE and CATASTROPHE cards; a SURVIVOR "
     "card has none (GAME START, EPE-2: the starting deck is bullets, tinned ham and a mild "
     "injury, plus a dealt survivor)"),
    ("starter-night", _set("ALL QUIET", "starter", 2),
     "card ALL QUIET: starter copies are only for SALVAGE and CATASTROPHE cards; a NIGHT card "
     "has none (GAME START, EPE-2: the starting deck is bullets, tinned ham and a mild injury, "
     "plus a dealt survivor)"),
    ("negative-starter", _set("BULLET", "starter", -4),
     "card BULLET: starter must be a whole number >= 0; got -4 (EPE-2: copies in each "
     "player's starting deck)"),
    # abilities
    ("unknown-point", _set("BULLET", "trash", {"weapons": 1}),
     "card BULLET: unknown point 'weapons' in trash; points: weapon, food, medical, "
     "avoid_collapse, trash_catastrophe, redraw, draw (EPE-9: abilities are typed points)"),
    ("zero-points", _set("BASEBALL BAT", "discard", {"weapon": 0}),
     "card BASEBALL BAT: point 'weapon' in discard must be a whole number >= 1; got 0 (EPE-9)"),
    ("ability-not-an-object", _set("BASEBALL BAT", "discard", "weapon"),
     'card BASEBALL BAT: discard must be a JSON object of points, e.g. {"weapon": 1}; got str'),
    ("catastrophe-with-ability", _set("WILD DOGS", "trash", {"weapon": 1}),
     "card WILD DOGS: a CATASTROPHE card prints no Discard or Trash ability (EPE-9: abilities "
     "are on salvage and survivor cards)"),
    ("night-with-ability", _set("ALL QUIET", "discard", {"food": 1}),
     "card ALL QUIET: a NIGHT card prints no Discard or Trash ability (EPE-9: abilities are "
     "on salvage and survivor cards)"),
    ("charm-with-ability", _set("LUCKY COIN", "discard", {"medical": 1}),
     "card LUCKY COIN: a CHARM prints no Discard or Trash ability; its boon is its effect "
     "(EPE-25: resolve it, then discard it)"),
    ("salvage-without-ability", _pop("PIPE BOMB", "trash"),
     "card PIPE BOMB: a WEAPON card needs a Discard or a Trash ability (EPE-9, EPE-26: salvage "
     "is played for its printed points)"),
    ("ally-with-empty-abilities", _each(_set("SCOUT", "discard", {}), _set("SCOUT", "trash", {})),
     "card SCOUT: an ALLY card needs a Discard or a Trash ability (EPE-9, EPE-26: salvage is "
     "played for its printed points)"),
    # effects
    ("curse-without-effect", _each(_pop("PANIC", "effect"), _pop("PANIC", "params")),
     "card PANIC: a CURSE card needs an effect: trash_random_hand, catastrophe_to_discard, "
     f"discard_random_hand, reinforce_location {EFFECT_RULE}"),
    ("night-without-effect", _each(_pop("ALL QUIET", "effect"), _pop("ALL QUIET", "params")),
     f"card ALL QUIET: a NIGHT card needs an effect: {ALL_EFFECTS} {EFFECT_RULE}"),
    ("curse-with-a-boon", _set("BAD WATER", "effect", "heal"),
     "card BAD WATER: effect heal does not suit a CURSE: a CURSE has a one-time negative "
     "effect, one of trash_random_hand, catastrophe_to_discard, discard_random_hand, "
     "reinforce_location (3C, 3E)"),
    ("charm-with-a-penalty", _set("SUPPLY DROP", "effect", "trash_random_hand"),
     "card SUPPLY DROP: effect trash_random_hand does not suit a CHARM: a CHARM has a one-time "
     "positive effect, one of draw_salvage, heal, clear_location (3C, 3E)"),
    ("salvage-with-effect", _set("BULLET", "effect", "heal"),
     f"card BULLET: effect is only for CURSE, CHARM and NIGHT cards; a WEAPON card has none "
     f"{EFFECT_RULE}"),
    ("ally-with-effect", _set("SCOUT", "effect", "draw_salvage"),
     f"card SCOUT: effect is only for CURSE, CHARM and NIGHT cards; an ALLY card has none "
     f"{EFFECT_RULE}"),
    ("survivor-with-params", _set("WEI CHEN", "params", {"n": 2}),
     f"card WEI CHEN: params is only for CURSE, CHARM and NIGHT cards; a SURVIVOR card has "
     f"none {EFFECT_RULE}"),
    ("unknown-effect", _set("NIGHT RAID", "effect", "explode"),
     f"card NIGHT RAID: unknown effect 'explode'; effects: {ALL_EFFECTS} {EFFECT_RULE}"),
    ("unknown-parameter", _set("AFTERSHOCK", "params", {"who": "all", "n": 1}),
     "card AFTERSHOCK: unknown parameter 'who' for effect reinforce_location; "
     "reinforce_location takes: n"),
    ("parameter-for-nothing", _set("ALL QUIET", "params", {"n": 2}),
     "card ALL QUIET: unknown parameter 'n' for effect nothing; nothing takes no parameters"),
    ("unknown-who", _set("NIGHT RAID", "params", {"who": "everyone"}),
     "card NIGHT RAID: parameter 'who' must be one of self, all, combat_in_discard, "
     "collapse_in_discard; got 'everyone' (whom the effect applies to)"),
    ("zero-n", _set("PANIC", "params", {"n": 0}),
     "card PANIC: parameter 'n' must be a whole number >= 1; got 0"),
    ("params-not-an-object", _set("PANIC", "params", ["n", 2]),
     'card PANIC: params must be a JSON object, e.g. {"who": "all", "n": 2}; got list'),
    # other keys
    ("text-not-a-string", _set("BULLET", "text", 7),
     "card BULLET: text must be a string; got 7"),
    ("unknown-card-key", _set("BULLET", "rarity", "common"),
     f"card BULLET: unknown key 'rarity'; allowed keys: {CARD_KEYS}"),
    ("missing-copies", _pop("BULLET", "copies"), "card BULLET: missing key 'copies'"),
    ("missing-name", _pop("BULLET", "name"), "card at index 3: missing key 'name'"),
    ("card-not-an-object", lambda d: d["cards"].__setitem__(5, "PIPE BOMB"),
     "card at index 5: Input should be a JSON object; got str"),
    # decks
    ("empty-night-deck", _copies(NIGHTS, 0),
     "the shared NIGHT deck is empty at difficulty easy, seed, hard; it needs at least one "
     "card (DECKS)"),
    ("empty-night-deck-when-hard", _copies(NIGHTS, {"easy": 1, "seed": 1, "hard": 0}),
     "the shared NIGHT deck is empty at difficulty hard; it needs at least one card (DECKS)"),
    ("too-few-catastrophes", _copies(("CRACKED RIB", "SHOULDER INJURY"), 0),
     "the shared CATASTROPHE deck is smaller than the 62 catastrophes the locations draw: easy "
     "57 cards (3A: every location must be buildable)"),
    ("too-few-salvage", _copies(("SCOUT", "LOYAL MUTT"), 0),
     "the shared SALVAGE deck is smaller than the 45 salvage the locations draw: hard 43 cards "
     "(3A: every location must be buildable)"),
    # the file
    ("format", lambda d: d.__setitem__("format", "meeple-epoch-ellipse-cards/2"),
     "file: unsupported format 'meeple-epoch-ellipse-cards/2'; expected "
     f"'{FORMAT}'"),
    ("unknown-file-key", lambda d: d.__setitem__("decks", []),
     "file: unknown key 'decks'; allowed keys: format, description, locations, cards"),
    ("missing-locations", lambda d: d.pop("locations"), "file: missing key 'locations'"),
    ("cards-not-a-list", lambda d: d.__setitem__("cards", {"BULLET": {}}),
     "file: cards: Input should be a list (JSON array); got {'BULLET': {}}"),
]


@pytest.mark.parametrize(("edit", "expected"), [(e, x) for _, e, x in BROKEN],
                         ids=[name for name, _, _ in BROKEN])
def test_a_broken_file_names_the_entry_and_the_rule(
        tmp_path: Path, raw: dict[str, Any], edit: Edit, expected: str) -> None:
    data = copy.deepcopy(raw)
    edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(EpochContentError) as caught:
        load_content(path)
    assert caught.value.problems == (expected,)
    # a problem of the file's shape (a key, a type, the format) adds the expected format
    first, _, hint = str(caught.value).partition("\nexpected format: ")
    assert first == f"invalid card file {path}: {expected}"
    shape = any(w in expected for w in SHAPE_WORDS)
    assert hint.startswith('{"format": "meeple-epoch-ellipse-cards/1"') if shape else not hint
    with pytest.raises(EpochContentError) as again:  # the in-memory entry point agrees
        validate_cards_data(data, "edited copy")
    assert again.value.problems == caught.value.problems


def test_every_problem_is_reported_at_once(raw: dict[str, Any]) -> None:
    data = copy.deepcopy(raw)
    _entry(data, "MALL")["vp"] = -1
    _entry(data, "GRAVEYARD")["fixed"] = False
    _entry(data, "PIPE BOMB")["trash"] = {"weapon": 0, "bombs": 1}
    _entry(data, "WILD DOGS").pop("difficulty")
    _entry(data, "ALL QUIET")["params"] = {"who": "all"}
    with pytest.raises(EpochContentError) as caught:
        validate_cards_data(data, "edited copy")
    problems = caught.value.problems
    assert [p.split(":")[0] for p in problems] == [
        "location GRAVEYARD", "location MALL", "card PIPE BOMB", "card PIPE BOMB",
        "card WILD DOGS", "card ALL QUIET"]
    assert "got not fixed" in problems[0] and "vp must be" in problems[1]
    assert "'weapon' in trash must be" in problems[2] and "'bombs'" in problems[3]
    assert "needs a difficulty" in problems[4] and "nothing takes no parameters" in problems[5]
    assert str(caught.value).startswith("invalid card file edited copy (6 problems):\n  - ")
    # The file rules (names, fixed locations, VP, deck sizes) are checked once every entry is
    # readable, and all of them at once too.
    data = copy.deepcopy(raw)
    _entry(data, "HARDTACK")["name"] = "TINNED HAM"
    _entry(data, "APARTMENT BUILDING")["fixed"] = False
    for name in NIGHTS:
        _entry(data, name)["copies"] = 0
    with pytest.raises(EpochContentError) as caught:
        validate_cards_data(data, "edited copy")
    problems = caught.value.problems
    assert len(problems) == 3
    assert problems[0].startswith("card TINNED HAM: duplicate name")
    assert problems[1].startswith("no fixed location besides the GRAVEYARD")
    assert problems[2].startswith("the shared NIGHT deck is empty")


# --- files and errors -----------------------------------------------------------------------

def test_a_missing_or_invalid_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(EpochContentError, match="card file not found") as caught:
        load_content(missing)
    assert str(missing) in str(caught.value)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "x",\n  "cards": [,]}', encoding="utf-8")
    with pytest.raises(EpochContentError, match="is not valid JSON") as caught:
        load_content(broken)
    assert str(broken) in str(caught.value) and "line 2" in str(caught.value)


def test_a_non_object_file_is_refused() -> None:
    with pytest.raises(EpochContentError, match="file: Input should be a JSON object; got list"):
        validate_cards_data([1, 2])


def test_errors_are_content_errors() -> None:
    assert CardsError is EpochContentError
    assert issubclass(EpochContentError, ContentError)
    assert issubclass(EpochContentError, ValueError)
    assert EpochContentError("x", ["a", "b"]).problems == ("a", "b")


def test_models_are_frozen(raw: dict[str, Any]) -> None:
    manifest = validate_cards_data(raw)
    with pytest.raises(ValueError):
        manifest.cards[0].copies = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        manifest.locations[0].vp = 3  # type: ignore[misc]
    assert manifest.cards[0].to_card() == load_content().cards[0]
    assert manifest.locations[3].to_location() == load_content().locations[3]
