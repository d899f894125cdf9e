"""Epoch Ellipse content as data: the locations and every card of the shared decks.

The seed names a handful of cards and locations (BULLET, TINNED HAM, FIRST AID, WILD DOGS, the
MALL, ...) and gives the counts of only one location, so the reference content is authored
(rules-questions 5.4): a frozen JSON file, ``data/cards.json``, written by
``data/make_content.py`` and checked in. This module reads such a file (cached when it is the
packaged one), validates it (each entry by :mod:`.entries`, the whole file here), reports
every problem found, and turns it into the runtime :class:`Content`:
:class:`~meeple.games.epoch_ellipse.cards.Card` and
:class:`~meeple.games.epoch_ellipse.cards.Location` values plus the decks of one difficulty.

File format (``"format": "meeple-epoch-ellipse-cards/1"``)::

    {"format": "meeple-epoch-ellipse-cards/1", "description": "...",
     "locations": [{"name": "GRAVEYARD", "catastrophes": 0, "salvage": 0, "survivors": 0,
                    "vp": 0, "fixed": true, "text": "..."},
                   {"name": "MALL", "catastrophes": 7, "salvage": 4, "survivors": 1, "vp": 1},
                   ...],
     "cards": [{"name": "BULLET", "kind": "SALVAGE", "subtype": "WEAPON",
                "copies": {"easy": 6, "seed": 6, "hard": 5}, "starter": 4,
                "trash": {"weapon": 1}, "text": "Trash -> 1 Weapon"},
               {"name": "WILD DOGS", "kind": "CATASTROPHE", "subtype": "COMBAT",
                "difficulty": 1, "copies": 12},
               {"name": "AND THEY TOOK MY STUFF, TOO", "kind": "NIGHT", "copies": 1,
                "effect": "trash_random_hand", "params": {"who": "combat_in_discard"}},
               ...]}

Each location and each card is checked on its own first: the keys it has and the rules it
must obey are listed in :mod:`.entries` (:class:`~.entries.LocationEntry`,
:class:`~.entries.CardEntry`). Then, per file, once every entry is valid: card names are
unique and location names are unique; there is a GRAVEYARD location and at least one other
fixed location (GAME START); the non-fixed locations are worth at least :data:`WIN_VP` VP in
all (EPE-27: the team win must be reachable); and at every difficulty the shared SALVAGE,
SURVIVOR, CATASTROPHE and NIGHT decks are non-empty, the CATASTROPHE deck holds at least the
sum of all locations' catastrophe counts and the SALVAGE deck at least the sum of their
salvage counts (3A: every location can be built).

Every problem raises :class:`EpochContentError` (a
:class:`~meeple.engine.content.ContentError`; :class:`CardsError` is the same class, the name
the other games use), whose message names the card or location (``card PIPE BOMB``,
``location MALL``, or ``card at index 3`` when its name is unreadable) and the rule it breaks;
all problems found are reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, Self

from pydantic import BaseModel, ValidationError, model_validator
from pydantic_core import ValidationError as CoreValidationError

from meeple.engine.content import (
    ContentError,
    ContentManifest,
    problems_error,
    pydantic_problems,
    read_json,
)
from meeple.games.epoch_ellipse.cards import CATASTROPHE, KINDS, SALVAGE, Card, Location
from meeple.games.epoch_ellipse.entries import (
    BOON_EFFECTS,
    DIFFICULTIES,
    GRAVEYARD,
    PENALTY_EFFECTS,
    STARTER_KINDS,
    CardEntry,
    LocationEntry,
    is_name,
)

__all__ = [
    "BOON_EFFECTS", "DEFAULT_CARDS_PATH", "DIFFICULTIES", "FORMAT", "GRAVEYARD", "PENALTY_EFFECTS",
    "STARTER_KINDS", "WIN_VP", "CardEntry", "CardsError", "CardsManifest", "Content",
    "EpochContentError", "LocationEntry", "load_content", "read_cards_manifest",
    "validate_cards_data",
]

#: The file format this module reads.
FORMAT = "meeple-epoch-ellipse-cards/1"
#: The packaged reference content (rules-questions 5.4).
DEFAULT_CARDS_PATH = Path(__file__).parent / "data" / "cards.json"
#: VP of locations Recovered at once that win the game (3F; EPE-27).
WIN_VP = 10


class EpochContentError(ContentError):
    """A card file is missing, unreadable or breaks a content rule; ``problems`` lists every
    problem found, each naming the card or location and the rule."""


#: The same class under the name the other games' content modules use.
CardsError = EpochContentError


@dataclass(frozen=True)
class Content:
    """The content of one file at one difficulty, as the rules engine deals it.

    Attributes:
        cards: one :class:`Card` per card name, in file order; a card's *type id* is its index.
        locations: every :class:`Location`, in file order.
        by_name: card name -> type id.
        decks: ``"SALVAGE"``, ``"SURVIVOR"``, ``"CATASTROPHE"``, ``"NIGHT"`` -> the shared
            deck as type ids, one per copy at this difficulty, in file order (unshuffled).
        starter: one player's starting deck as type ids, one per starter copy, in file order
            (the dealt survivor is not included; EPE-2).
        location_deck: indexes into ``locations`` of the non-fixed ones (the Location deck).
        fixed_locations: indexes of the fixed ones, the GRAVEYARD first, then file order.
        difficulty: the difficulty the decks were built for.
    """

    cards: tuple[Card, ...]
    locations: tuple[Location, ...]
    by_name: Mapping[str, int]
    decks: Mapping[str, tuple[int, ...]]
    starter: tuple[int, ...]
    location_deck: tuple[int, ...]
    fixed_locations: tuple[int, ...]
    difficulty: str = "seed"


# --- the whole file -------------------------------------------------------------------------

class CardsManifest(ContentManifest):
    """A whole card file: ``format``, ``description``, the ``locations`` and the ``cards``.

    Beyond each entry's rules: unique names, the GRAVEYARD and another fixed location, enough
    VP to win, and at every difficulty non-empty decks big enough to build every location
    (see the module docstring).
    """

    FORMAT = FORMAT
    locations: tuple[LocationEntry, ...]
    cards: tuple[CardEntry, ...]

    @model_validator(mode="after")
    def _file_rules(self) -> Self:
        problems = _duplicates([loc.name for loc in self.locations], "location")
        problems += _duplicates([card.name for card in self.cards], "card")
        problems += self._location_problems() + self._deck_problems()
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def _location_problems(self) -> list[str]:
        problems = []
        if not any(loc.name == GRAVEYARD for loc in self.locations):
            problems.append("no location named GRAVEYARD; the file needs exactly one, fixed "
                            "(GAME START: it is put into play; TRASH VS. DISCARD: trashed "
                            "cards go onto its event deck)")
        if not any(loc.fixed and loc.name != GRAVEYARD for loc in self.locations):
            problems.append("no fixed location besides the GRAVEYARD; at least one is needed "
                            "(GAME START: the Apartment Building is put into play; EPE-3: "
                            "explorable from day 1)")
        vp = sum(loc.vp for loc in self.locations if not loc.fixed)
        if vp < WIN_VP:
            problems.append(f"the location deck (the non-fixed locations) is worth {vp} VP in "
                            f"all, fewer than the {WIN_VP} VP Recovered at once that win, so "
                            "the team could never win (3F, EPE-27)")
        return problems

    def _deck_problems(self) -> list[str]:
        problems = []
        sizes = {d: {kind: sum(c.copies_at(d) for c in self.cards if c.kind == kind)
                     for kind in KINDS} for d in DIFFICULTIES}
        for kind in KINDS:
            empty = [d for d in DIFFICULTIES if not sizes[d][kind]]
            if empty:
                problems.append(f"the shared {kind} deck is empty at difficulty "
                                f"{', '.join(empty)}; it needs at least one card (DECKS)")
        for kind, count in ((CATASTROPHE, "catastrophes"), (SALVAGE, "salvage")):
            need = sum(getattr(loc, count) for loc in self.locations)
            short = [f"{d} {sizes[d][kind]}" for d in DIFFICULTIES if 0 < sizes[d][kind] < need]
            if short:
                problems.append(f"the shared {kind} deck is smaller than the {need} {count} "
                                f"the locations draw: {', '.join(short)} cards (3A: every "
                                "location must be buildable)")
        return problems

    def content(self, difficulty: str = "seed") -> Content:
        """The runtime content with the decks of ``difficulty`` (one of
        :data:`DIFFICULTIES`). Raises :class:`EpochContentError` for another difficulty."""
        _check_difficulty(difficulty)
        cards = tuple(entry.to_card() for entry in self.cards)
        decks = {kind: tuple(i for i, entry in enumerate(self.cards) if entry.kind == kind
                             for _ in range(entry.copies_at(difficulty))) for kind in KINDS}
        starter = tuple(i for i, entry in enumerate(self.cards) for _ in range(entry.starter))
        fixed = [i for i, loc in enumerate(self.locations) if loc.fixed]
        fixed.sort(key=lambda i: self.locations[i].name != GRAVEYARD)  # stable: file order
        return Content(
            cards=cards,
            locations=tuple(entry.to_location() for entry in self.locations),
            by_name=MappingProxyType({card.name: i for i, card in enumerate(cards)}),
            decks=MappingProxyType(decks),
            starter=starter,
            location_deck=tuple(i for i, loc in enumerate(self.locations) if not loc.fixed),
            fixed_locations=tuple(fixed),
            difficulty=difficulty,
        )


def _duplicates(names: list[str], noun: str) -> list[str]:
    first: dict[str, int] = {}
    problems = []
    for index, name in enumerate(names):
        if name in first:
            problems.append(f"{noun} {name}: duplicate name ({noun}s at index {first[name]} and "
                            f"{index}; {noun} names are unique)")
        else:
            first[name] = index
    return problems


def _check_difficulty(difficulty: Any) -> None:
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise EpochContentError(f"unknown difficulty {difficulty!r}; difficulties: "
                                f"{', '.join(DIFFICULTIES)}")


# --- turning pydantic errors into messages -------------------------------------------------

def _label(data: Any, items: str, noun: str, index: int) -> str:
    """``card PIPE BOMB``, or ``card at index 3`` when the raw entry's name is unreadable."""
    try:
        name = data[items][index]["name"]
    except (TypeError, KeyError, IndexError):
        name = None
    return f"{noun} {name}" if is_name(name) else f"{noun} at index {index}"


def _problems(error: ValidationError, data: Any) -> list[str]:
    """Readable one-line problems, each naming the location, the card or the file, and the
    rule; errors of the two lists are labelled by their own list."""
    groups: dict[str, list[Any]] = {}
    for err in error.errors():
        loc = tuple(err["loc"])
        key = loc[0] if len(loc) >= 2 and loc[0] in ("locations", "cards") else ""
        groups.setdefault(str(key), []).append(err)
    lists: dict[str, tuple[str, type[BaseModel]]] = {"locations": ("location", LocationEntry),
                                                     "cards": ("card", CardEntry)}
    problems: list[str] = []
    for key, errors in groups.items():
        items = key or "cards"  # file-level errors: any list name will do
        noun, entry = lists[items]
        part = CoreValidationError.from_exception_data(error.title, errors)
        problems += pydantic_problems(part, items=items, label=partial(_label, data, items, noun),
                                      entry=entry, manifest=CardsManifest)
    return problems


def validate_cards_data(data: Any, source: str = "<in-memory data>") -> CardsManifest:
    """Validate an in-memory card file (the parsed JSON) and return it as a model.

    ``source`` names the data in messages. Raises :class:`EpochContentError` listing every
    problem, each naming the card or location and the rule.
    """
    try:
        return CardsManifest.model_validate(data)
    except ValidationError as error:
        raise problems_error(EpochContentError, f"card file {source}",
                             _problems(error, data), CardsManifest.format_hint()) from None


def read_cards_manifest(path: str | Path | None = None) -> CardsManifest:
    """Read and validate a card file (default: the packaged ``data/cards.json``, cached).

    Raises :class:`EpochContentError` if the file is missing, unreadable, not valid JSON (with
    the line) or breaks a content rule.
    """
    return _packaged_manifest() if path is None else _read(Path(path))


@cache
def _packaged_manifest() -> CardsManifest:
    return _read(DEFAULT_CARDS_PATH)


def _read(path: Path) -> CardsManifest:
    return validate_cards_data(read_json(path, "card file", EpochContentError), str(path))


@cache
def _packaged_content(difficulty: str) -> Content:
    return _packaged_manifest().content(difficulty)


def load_content(path: str | Path | None = None, difficulty: str = "seed") -> Content:
    """The cards, locations and decks of a card file at ``difficulty``.

    In: ``path`` to a card file (default: the packaged ``data/cards.json``, read once and
    cached per difficulty); ``difficulty``, one of :data:`DIFFICULTIES`.
    Out: a :class:`Content`.
    Raises :class:`EpochContentError` on any problem: an unknown difficulty (the message lists
    the allowed ones), a missing file, invalid JSON, or a card or location breaking a rule
    (the message names it and the rule).
    """
    _check_difficulty(difficulty)
    if path is None:
        return _packaged_content(difficulty)
    return read_cards_manifest(path).content(difficulty)
