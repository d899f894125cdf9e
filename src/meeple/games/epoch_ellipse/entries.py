"""Epoch Ellipse card file entries: one location or one card as stored, and its own rules.

One job: the schema of a single entry of the card file (``data/cards.json``) and every rule
that entry must obey on its own, plus turning a valid entry into the runtime
:class:`~meeple.games.epoch_ellipse.cards.Location` or
:class:`~meeple.games.epoch_ellipse.cards.Card`. The rules across entries (unique names, the
fixed locations, VP to win, deck sizes), the :class:`~.content.Content` of one difficulty,
reading, caching and the error messages are :mod:`.content`'s.

Rules: seeds/epoch-ellipse.txt DECKS, GAME START, TRASH VS. DISCARD, 3A (NEW LOCATION), 3C
(RESOLVING CATASTROPHE CARDS), 3E (RESOLVING SALVAGE CARDS), 3F (RECOVERING LOCATIONS), DEATH
and COMBAT; decisions EPE-2, EPE-3, EPE-9, EPE-20, EPE-25, EPE-26, EPE-32, EPE-43 and EPE-44 in
docs/rules/epoch-ellipse.md (section "Validation (content.py)" lists the messages).

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
* no other keys.

In and out: ``LocationEntry.model_validate`` / ``CardEntry.model_validate`` take one raw JSON
object and return the frozen entry; a broken entry raises :class:`pydantic.ValidationError`
holding one message per broken rule (raised as ``ValueError`` by the validators here), which
:mod:`.content` labels with the entry's name and raises as
:class:`~.content.EpochContentError`. (The class docstrings stay one line: pydantic copies
them into the JSON schema.)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
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

#: Deck compositions a file gives copies for: fewer hard catastrophes, the reference, more.
DIFFICULTIES: tuple[str, ...] = ("easy", "seed", "hard")
#: The location that holds trashed cards and the dead (TRASH VS. DISCARD; DEATH).
GRAVEYARD = "GRAVEYARD"
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


# --- small checks ---------------------------------------------------------------------------

def is_name(value: Any) -> bool:
    """Whether ``value`` (any JSON value) is a valid card or location name: a non-empty
    printable upper-case string with a letter, no outer spaces. Raises nothing."""
    return (isinstance(value, str) and value.strip() == value and value.isprintable()
            and value == value.upper() and any(c.isalpha() for c in value))


def _whole(value: Any, least: int = 0) -> bool:
    """A JSON integer (``true``/``false`` are not) that is at least ``least``."""
    return type(value) is int and value >= least


def _name(value: Any) -> str:
    if not is_name(value):
        raise ValueError(f"name {value!r} is not {_NAME_RULE}")
    return str(value)


def _count(value: Any, what: str, rule: str, least: int = 0) -> int:
    if not _whole(value, least):
        raise ValueError(f"{what} must be a whole number >= {least}; got {value!r} ({rule})")
    return int(value)


def _a(word: str) -> str:
    """``word`` with its indefinite article: ``a WEAPON``, ``an ALLY``."""
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


class _Entry(BaseModel):
    """An entry of the card file: no unknown keys, immutable, an upper-case name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("name", mode="before", check_fields=False)
    @classmethod
    def _name_is_a_name(cls, value: Any) -> str:
        return _name(value)

    @field_validator("text", mode="before", check_fields=False)
    @classmethod
    def _text_is_a_string(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"text must be a string; got {value!r}")
        return value


# --- locations ------------------------------------------------------------------------------

class LocationEntry(_Entry):
    """One location as stored in the file (see the module docstring for its rules)."""

    name: StrictStr
    catastrophes: int
    salvage: int
    survivors: int
    vp: int
    fixed: bool = False
    text: StrictStr = ""

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
        """The runtime :class:`Location` of this entry (no errors: the entry is valid)."""
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


class CardEntry(_Entry):
    """One card as stored in the file (see the module docstring for its rules)."""

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
        """The copies in the shared deck at ``difficulty`` (one of :data:`DIFFICULTIES`).

        Raises ``KeyError`` for another difficulty when the copies differ by difficulty;
        :mod:`.content` checks the difficulty first."""
        return self.copies if isinstance(self.copies, int) else self.copies[difficulty]

    def to_card(self) -> Card:
        """The runtime :class:`Card` of this entry: abilities and parameters (defaults filled
        in) as read-only mappings (no errors: the entry is valid)."""
        params = {**EFFECTS[self.effect], **self.params} if self.effect else {}
        return Card(self.name, self.kind, self.subtype, self.difficulty,
                    MappingProxyType(dict(self.discard)), MappingProxyType(dict(self.trash)),
                    self.effect, MappingProxyType(params), self.text)

