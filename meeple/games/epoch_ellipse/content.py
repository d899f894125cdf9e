"""Epoch Ellipse content as data: the locations and every card of the shared decks.

The seed names a handful of cards and locations (BULLET, TINNED HAM, FIRST AID, WILD DOGS, the
MALL, ...) and gives the counts of only one location, so the reference content is authored
(rules-questions 5.4): a frozen JSON file, ``data/cards.json``, written by
``data/make_content.py`` and checked in. This module reads such a file, checks every rule a
card, a location and the whole file must obey, and turns it into the runtime
:class:`Content`: :class:`~meeple.games.epoch_ellipse.cards.Card` and
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

A location has ``name``, the counts ``catastrophes``, ``salvage`` and ``survivors`` it draws
from each deck when it is created (3A), its ``vp`` when Recovered (3F), ``fixed`` (put into
play at GAME START rather than shuffled into the Location deck; default false) and ``text``.
Rules checked per location: the name is an upper-case name; counts and VP are whole numbers
>= 0; the GRAVEYARD is fixed with every count and its VP 0 (EPE-3: its event deck starts
empty; DEATH: Recovered it is worth 0 VP); any other location draws at least one card (3A:
the explorer resolves the top card of the new event deck).

A card has ``name``, ``kind`` (:data:`~.cards.KINDS`), ``subtype``, ``copies`` and optional
``difficulty``, ``starter``, ``discard``, ``trash``, ``effect``, ``params`` and ``text``.
Rules checked per card:

* the name is an upper-case name; ``kind`` is known; SALVAGE and CATASTROPHE cards have a
  subtype of their kind (:data:`~.cards.SUBTYPES`; 3C, 3E), SURVIVOR and NIGHT cards none;
* ``copies`` is a whole number >= 0 (the same at every difficulty) or an object with exactly
  the keys of :data:`DIFFICULTIES`, each a whole number >= 0: the copies in the shared deck;
* ``starter`` (default 0) is a whole number >= 0: copies in *each* player's starting deck,
  from a separate starter supply (EPE-2); only SALVAGE and CATASTROPHE cards have them;
* ``difficulty`` >= 1 on COMBAT cards (COMBAT: the weapon points that win), absent (0) on
  every other card;
* ``discard`` and ``trash`` map points of :data:`~.cards.POINTS` to whole numbers >= 1
  (EPE-9); salvage other than CHARM needs at least one of them (EPE-26: allies too), a CHARM
  has none (its boon is its effect, EPE-25), survivors may have them (EPE-43, EPE-44),
  catastrophes and night cards never;
* CURSE, CHARM and NIGHT cards have an ``effect`` of :data:`~.cards.EFFECTS`, and only they:
  a curse one of :data:`PENALTY_EFFECTS` (3C: "a one-time negative effect"), a charm one of
  :data:`BOON_EFFECTS` (3E: "a one-time positive effect"), a night card any; ``params``
  names only parameters of that effect, ``who`` one of :data:`~.cards.WHO`, ``n`` a whole
  number >= 1; parameters left out take the effect's defaults;
* no other keys;

and per file, once every entry is valid: card names are unique and location names are unique;
there is a GRAVEYARD location and at least one other fixed location (GAME START); the
non-fixed locations are worth at least :data:`WIN_VP` VP in all (EPE-27: the team win must be
reachable); and at every difficulty the shared SALVAGE, SURVIVOR, CATASTROPHE and NIGHT decks
are non-empty, the CATASTROPHE deck holds at least the sum of all locations' catastrophe
counts and the SALVAGE deck at least the sum of their salvage counts (3A: every location can
be built).

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

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ValidationError as CoreValidationError

from meeple.engine.content import (
    ContentError,
    ContentManifest,
    problems_error,
    pydantic_problems,
    read_json,
)
from meeple.games.epoch_ellipse.cards import (
    CATASTROPHE,
    CHARM,
    COMBAT,
    CURSE,
    EFFECTS,
    KINDS,
    NIGHT,
    POINTS,
    SALVAGE,
    SUBTYPES,
    WHO,
    Card,
    Location,
)

#: The file format this module reads.
FORMAT = "meeple-epoch-ellipse-cards/1"
#: The packaged reference content (rules-questions 5.4).
DEFAULT_CARDS_PATH = Path(__file__).parent / "data" / "cards.json"
#: Deck compositions a file gives copies for: fewer hard catastrophes, the reference, more.
DIFFICULTIES: tuple[str, ...] = ("easy", "seed", "hard")
#: The location that holds trashed cards and the dead (TRASH VS. DISCARD; DEATH).
GRAVEYARD = "GRAVEYARD"
#: VP of locations Recovered at once that win the game (3F; EPE-27).
WIN_VP = 10
#: Effects a CURSE may carry (3C: "A one-time negative effect happens").
PENALTY_EFFECTS: tuple[str, ...] = ("trash_random_hand", "catastrophe_to_discard",
                                    "discard_random_hand", "reinforce_location")
#: Effects a CHARM may carry (3E: "A one-time positive effect happens").
BOON_EFFECTS: tuple[str, ...] = ("draw_salvage", "heal", "clear_location")
#: Card kinds whose cards may be in the starting decks (GAME START; EPE-2).
STARTER_KINDS: tuple[str, ...] = (SALVAGE, CATASTROPHE)

_EFFECT_SUBTYPES = (CURSE, CHARM)  # and every NIGHT card
_EFFECT_RULE = "EPE-20, EPE-25, EPE-32: curses, charms and night cards resolve an effect"
_NAME_RULE = 'an upper-case name, e.g. "TINNED HAM"'


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


# --- small checks ---------------------------------------------------------------------------

def _is_name(value: Any) -> bool:
    """A non-empty printable upper-case string with a letter, no outer spaces."""
    return (isinstance(value, str) and value.strip() == value and value.isprintable()
            and value == value.upper() and any(c.isalpha() for c in value))


def _whole(value: Any, least: int = 0) -> bool:
    """A JSON integer (``true``/``false`` are not) that is at least ``least``."""
    return type(value) is int and value >= least


def _name(value: Any) -> str:
    if not _is_name(value):
        raise ValueError(f"name {value!r} is not {_NAME_RULE}")
    return str(value)


def _count(value: Any, what: str, rule: str, least: int = 0) -> int:
    if not _whole(value, least):
        raise ValueError(f"{what} must be a whole number >= {least}; got {value!r} ({rule})")
    return int(value)


def _a(word: str) -> str:
    """``word`` with its indefinite article: ``a WEAPON``, ``an ALLY``."""
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


# --- locations ------------------------------------------------------------------------------

class LocationEntry(BaseModel):
    """One location as stored in the file (see the module docstring for its rules)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: StrictStr
    catastrophes: int
    salvage: int
    survivors: int
    vp: int
    fixed: bool = False
    text: StrictStr = ""

    @field_validator("name", mode="before")
    @classmethod
    def _name_is_a_name(cls, value: Any) -> str:
        return _name(value)

    @field_validator("catastrophes", "salvage", "survivors", mode="before")
    @classmethod
    def _counts(cls, value: Any, info: ValidationInfo) -> int:
        return _count(value, str(info.field_name), "3A: cards drawn from that deck to build the "
                      "event deck")

    @field_validator("vp", mode="before")
    @classmethod
    def _vp(cls, value: Any) -> int:
        return _count(value, "vp", "3F: the location's worth when Recovered")

    @field_validator("fixed", mode="before")
    @classmethod
    def _fixed_is_a_bool(cls, value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"fixed must be true or false; got {value!r} (GAME START: fixed "
                             "locations are put into play at setup)")
        return value

    @field_validator("text", mode="before")
    @classmethod
    def _text_is_a_string(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"text must be a string; got {value!r}")
        return value

    @model_validator(mode="after")
    def _location_rules(self) -> Self:
        if self.name == GRAVEYARD:
            wrong = [f"{key} {getattr(self, key)}" for key in
                     ("catastrophes", "salvage", "survivors", "vp") if getattr(self, key)]
            if not self.fixed:
                wrong.insert(0, "not fixed")
            if wrong:
                raise ValueError(f"the GRAVEYARD must be fixed with 0 catastrophes, salvage, "
                                 f"survivors and VP; got {', '.join(wrong)} (GAME START, "
                                 "EPE-3: its event deck starts empty; DEATH: Recovered it "
                                 "is worth 0 VP)")
        elif not self.catastrophes + self.salvage + self.survivors:
            raise ValueError("draws no cards (0 catastrophes, 0 salvage, 0 survivors), so its "
                             "event deck would be empty (3A: the explorer resolves its top "
                             "card)")
        return self

    def to_location(self) -> Location:
        """The runtime location."""
        return Location(self.name, self.catastrophes, self.salvage, self.survivors, self.vp,
                        self.fixed, self.text)


# --- cards ----------------------------------------------------------------------------------

def _points(value: Any, mode: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError(f'{mode} must be a JSON object of points, e.g. {{"weapon": 1}}; got '
                         f"{type(value).__name__}")
    problems = []
    for point, amount in value.items():
        if point not in POINTS:
            problems.append(f"unknown point {point!r} in {mode}; points: {', '.join(POINTS)} "
                            "(EPE-9: abilities are typed points)")
        elif not _whole(amount, 1):
            problems.append(f"point {point!r} in {mode} must be a whole number >= 1; got "
                            f"{amount!r} (EPE-9)")
    if problems:
        raise ValueError("\n".join(problems))
    return value


class CardEntry(BaseModel):
    """One card as stored in the file (see the module docstring for its rules)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: StrictStr
    kind: StrictStr
    subtype: StrictStr = ""
    difficulty: int = 0
    copies: int | dict[str, int]
    starter: int = 0
    discard: dict[str, int] = Field(default_factory=dict)
    trash: dict[str, int] = Field(default_factory=dict)
    effect: StrictStr = ""
    params: dict[str, Any] = Field(default_factory=dict)
    text: StrictStr = ""

    @field_validator("name", mode="before")
    @classmethod
    def _name_is_a_name(cls, value: Any) -> str:
        return _name(value)

    @field_validator("kind", mode="before")
    @classmethod
    def _kind_is_known(cls, value: Any) -> str:
        if not isinstance(value, str) or value not in KINDS:
            raise ValueError(f"unknown kind {value!r}; kinds: {', '.join(KINDS)} (DECKS)")
        return value

    @field_validator("subtype", mode="before")
    @classmethod
    def _subtype_is_a_string(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"subtype must be a string; got {value!r}")
        return value

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty(cls, value: Any) -> int:
        return _count(value, "difficulty", "COMBAT: the weapon points that win")

    @field_validator("copies", mode="before")
    @classmethod
    def _copies(cls, value: Any) -> int | dict[str, int]:
        rule = ("copies in the shared deck: a whole number >= 0, or an object with the keys "
                f"{', '.join(DIFFICULTIES)}")
        if isinstance(value, dict):
            problems = [f"copies has unknown key {key!r} ({rule})" for key in value
                        if key not in DIFFICULTIES]
            problems += [f"copies is missing key {key!r} ({rule})" for key in DIFFICULTIES
                         if key not in value]
            problems += [f"copies {key!r} must be a whole number >= 0; got {n!r}"
                         for key, n in value.items() if key in DIFFICULTIES and not _whole(n)]
            if problems:
                raise ValueError("\n".join(problems))
            return {key: value[key] for key in DIFFICULTIES}
        if not _whole(value):
            raise ValueError(f"copies must be a whole number >= 0 or an object with the keys "
                             f"{', '.join(DIFFICULTIES)}; got {value!r}")
        return int(value)

    @field_validator("starter", mode="before")
    @classmethod
    def _starter(cls, value: Any) -> int:
        return _count(value, "starter", "EPE-2: copies in each player's starting deck")

    @field_validator("discard", "trash", mode="before")
    @classmethod
    def _abilities(cls, value: Any, info: ValidationInfo) -> dict[str, int]:
        return _points(value, str(info.field_name))

    @field_validator("effect", mode="before")
    @classmethod
    def _effect_is_known(cls, value: Any) -> str:
        if not isinstance(value, str) or value not in EFFECTS:
            raise ValueError(f"unknown effect {value!r}; effects: {', '.join(EFFECTS)} "
                             f"({_EFFECT_RULE})")
        return value

    @field_validator("params", mode="before")
    @classmethod
    def _params_have_values(cls, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValueError('params must be a JSON object, e.g. {"who": "all", "n": 2}; got '
                             f"{type(value).__name__}")
        problems = []
        for name, param in value.items():
            if name == "who" and (not isinstance(param, str) or param not in WHO):
                problems.append(f"parameter 'who' must be one of {', '.join(WHO)}; got "
                                f"{param!r} (whom the effect applies to)")
            elif name == "n" and not _whole(param, 1):
                problems.append(f"parameter 'n' must be a whole number >= 1; got {param!r}")
        if problems:
            raise ValueError("\n".join(problems))
        return value

    @field_validator("text", mode="before")
    @classmethod
    def _text_is_a_string(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"text must be a string; got {value!r}")
        return value

    @model_validator(mode="after")
    def _card_rules(self) -> Self:
        problems = self._subtype_problems()
        if not problems:  # the other rules depend on the subtype
            problems = (self._difficulty_problems() + self._starter_problems()
                        + self._ability_problems() + self._effect_problems())
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def _subtype_problems(self) -> list[str]:
        subtypes = SUBTYPES[self.kind]
        if subtypes and self.subtype not in subtypes:
            got = f"; got {self.subtype!r}" if self.subtype else ""
            return [f"a {self.kind} card needs a subtype: {', '.join(subtypes)}{got} (3C, 3E)"]
        if not subtypes and self.subtype:
            return [f"a {self.kind} card has no subtype; got {self.subtype!r} (DECKS: only "
                    "salvage and catastrophe cards have subtypes)"]
        return []

    def _difficulty_problems(self) -> list[str]:
        if self.subtype == COMBAT and self.difficulty < 1:
            return ["a COMBAT card needs a difficulty of at least 1 (COMBAT: the weapon points "
                    "that win)"]
        if self.subtype != COMBAT and self.difficulty:
            return [f"difficulty {self.difficulty} is only for COMBAT cards; leave it out "
                    "(COMBAT: the weapon points that win)"]
        return []

    def _starter_problems(self) -> list[str]:
        if self.starter and self.kind not in STARTER_KINDS:
            return [f"starter copies are only for {' and '.join(STARTER_KINDS)} cards; a "
                    f"{self.kind} card has none (GAME START, EPE-2: the starting deck is "
                    "bullets, tinned ham and a mild injury, plus a dealt survivor)"]
        return []

    def _ability_problems(self) -> list[str]:
        printed = self.discard or self.trash
        if printed and self.kind in (CATASTROPHE, NIGHT):
            return [f"a {self.kind} card prints no Discard or Trash ability (EPE-9: abilities "
                    "are on salvage and survivor cards)"]
        if printed and self.subtype == CHARM:
            return ["a CHARM prints no Discard or Trash ability; its boon is its effect "
                    "(EPE-25: resolve it, then discard it)"]
        if not printed and self.kind == SALVAGE and self.subtype != CHARM:
            return [f"{_a(self.subtype)} card needs a Discard or a Trash ability (EPE-9, EPE-26: "
                    "salvage is played for its printed points)"]
        return []

    def _effect_problems(self) -> list[str]:
        needs = self.kind == NIGHT or self.subtype in _EFFECT_SUBTYPES
        what = self.subtype or self.kind
        if not needs:
            if self.effect or self.params:
                key = "effect" if self.effect else "params"
                return [f"{key} is only for CURSE, CHARM and NIGHT cards; {_a(what)} card has "
                        f"none ({_EFFECT_RULE})"]
            return []
        allowed = {CURSE: PENALTY_EFFECTS, CHARM: BOON_EFFECTS}.get(self.subtype, EFFECTS)
        if not self.effect:
            return [f"a {what} card needs an effect: {', '.join(allowed)} ({_EFFECT_RULE})"]
        if self.effect not in allowed:
            tone = "negative" if self.subtype == CURSE else "positive"
            return [f"effect {self.effect} does not suit a {what}: a {what} has a one-time "
                    f"{tone} effect, one of {', '.join(allowed)} (3C, 3E)"]
        takes = EFFECTS[self.effect]
        says = (f"{self.effect} takes: {', '.join(takes)}" if takes
                else f"{self.effect} takes no parameters")
        return [f"unknown parameter {name!r} for effect {self.effect}; {says}"
                for name in self.params if name not in takes]

    def copies_at(self, difficulty: str) -> int:
        """The copies in the shared deck at ``difficulty``."""
        return self.copies if isinstance(self.copies, int) else self.copies[difficulty]

    def to_card(self) -> Card:
        """The runtime card: abilities and parameters (defaults filled in) as read-only
        mappings."""
        params = {**EFFECTS[self.effect], **self.params} if self.effect else {}
        return Card(self.name, self.kind, self.subtype, self.difficulty,
                    MappingProxyType(dict(self.discard)), MappingProxyType(dict(self.trash)),
                    self.effect, MappingProxyType(params), self.text)


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
        :data:`DIFFICULTIES`)."""
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
    return f"{noun} {name}" if _is_name(name) else f"{noun} at index {index}"


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
                             _problems(error, data)) from None


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
