"""The Damocles codex deck as data: the manifest schema, its validation, and loading.

The seed names the codex types but never lists a deck (DAM-26), so the reference deck is
authored content: a frozen JSON manifest, ``data/codices.json``, generated once by
``data/make_deck.py`` and checked in (rules-questions §1.4). This module reads such a
manifest, checks every rule a codex must obey, and turns it into the runtime
:class:`~meeple.games.damocles.codex.Codex` values the rules engine deals.

Manifest format (``"format": "meeple-damocles-deck/1"``)::

    {"format": "meeple-damocles-deck/1",
     "description": "how the deck was made and what is in it",
     "codices": [{"id": "ONE-01", "type": "ONE", "pattern": [[1, "DEMETER"], [4, "DEMETER"]]},
                 ...]}

Positions use the seed's notation: the first pip is at position 1, the circle has positions
1..7 (DAM-1). Rules checked per codex:

* the type is one of :data:`~meeple.games.damocles.codex.TYPES`, each god one of ``GODS``;
* every position lies in 1..7, no position appears twice, positions ascend, and the first pip
  is at position 1 (DAM-1, DAM-36);
* at most 3 pips of one god, since the bank may hold only 4 of a god (DAM-9, DAM-36);
* the pip count equals the type's value (DAM-3; SCORING);

and per deck: ids are unique, and no two codices share type and pattern (DAM-26, §1.4),
except 1-pip codices (Haste), whose single pip at position 1 allows only five patterns.

Every problem raises :class:`DeckError`, whose message names the codex (its id, or its index
when it has no usable id) and the rule it breaks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from meeple.engine.content import (
    ContentError,
    ContentManifest,
    problems_error,
    pydantic_problems,
    read_json,
)
from meeple.games.damocles.codex import CIRCLE, GODS, TYPES, Codex

#: The manifest format this module reads.
FORMAT = "meeple-damocles-deck/1"
#: The packaged reference deck (DAM-26, DAM-35).
DEFAULT_DECK_PATH = Path(__file__).parent / "data" / "codices.json"
#: Optional modules a deck may add to the base deck (DAM-31 Annex, DAM-32 Destruction).
MODULES: tuple[str, ...] = tuple(m for m in dict.fromkeys(t.module for t in TYPES.values())
                                 if m != "base")
#: Id prefix per type used by the reference deck (``ONE-07``); other decks may name freely.
ID_PREFIXES: dict[str, str] = {
    "GENERATE": "GEN", "COMBUST": "COM", "ORACLE": "ORA", "ONE": "ONE", "TWO": "TWO",
    "THREE": "THR", "HASTE": "HAS", "REFLEX": "REF", "ANNEX": "ANX", "LYSE": "LYS",
    "SACRIFICE": "SAC", "EVISCERATE": "EVI",
}
#: Most pips of one god a codex may show (DAM-36: the bank holds 4 of each god, DAM-9).
MAX_PIPS_PER_GOD = 3

_ID_RE = re.compile(r"[A-Z0-9][A-Z0-9_-]*")  # upper case: the move notation upper-cases ids


class DeckError(ContentError):
    """A deck manifest is missing, unreadable or breaks a content rule.

    ``problems`` lists every problem found, each naming the codex and the rule; the message
    joins them after the manifest's source (its path, or a label for in-memory data).
    """


def _a(type_name: str) -> str:
    """``"a One"``, ``"an Oracle"``: the type's display name with its article."""
    title = type_name.title()
    vowel_sound = title[0] in "AEIOU" and title != "One"
    return f"{'an' if vowel_sound else 'a'} {title}"


class CodexEntry(BaseModel):
    """One codex as stored in the manifest: ``id``, ``type`` and 1-based ``pattern``.

    ``pattern`` is a list of ``[position, god name]`` pairs, positions 1..7 ascending from 1
    (DAM-1). Validation enforces DAM-1, DAM-3 and DAM-36 (see the module docstring).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: StrictStr
    type: StrictStr
    pattern: tuple[tuple[StrictInt, StrictStr], ...]

    @field_validator("id")
    @classmethod
    def _id_is_a_name(cls, value: str) -> str:
        if not _ID_RE.fullmatch(value):
            raise ValueError(f"id {value!r} must be upper-case letters, digits, '-' or '_', "
                             "starting with a letter or digit (ids are typed in the action "
                             "notation, which reads them in upper case)")
        return value

    @field_validator("type")
    @classmethod
    def _type_is_known(cls, value: str) -> str:
        if value not in TYPES:
            raise ValueError(f"unknown type {value!r}; types: {', '.join(TYPES)}")
        return value

    @field_validator("pattern")
    @classmethod
    def _pips_are_on_the_circle(
            cls, value: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
        problems = []
        for position, god in value:
            if god not in GODS:
                problems.append(f"unknown god {god!r}; gods: {', '.join(GODS)} (DAM-34)")
            if not 1 <= position <= CIRCLE:
                problems.append(f"position {position} is outside the circle of seven "
                                f"(positions 1..{CIRCLE}; DAM-1, DAM-36)")
        if problems:
            raise ValueError("\n".join(problems))
        return value

    @model_validator(mode="after")
    def _obeys_the_pattern_rules(self) -> Self:
        problems = []
        positions = [position for position, _ in self.pattern]
        repeated = [p for p, n in Counter(positions).items() if n > 1]
        for position in repeated:
            problems.append(f"position {position} appears twice "
                            "(DAM-36: pips sit at distinct positions)")
        if not repeated:
            for before, after in zip(positions, positions[1:], strict=False):
                if after < before:
                    problems.append(f"positions must ascend: position {after} is listed after "
                                    f"position {before}")
                    break
        if positions and min(positions) != 1:
            problems.append(f"the first pip must be at position 1, not {min(positions)} "
                            "(DAM-1: a pattern is relative and printed from position 1)")
        per_god = Counter(god for _, god in self.pattern)
        for god in GODS:
            if per_god[god] > MAX_PIPS_PER_GOD:
                problems.append(f"{per_god[god]} pips of {god}; at most {MAX_PIPS_PER_GOD} "
                                "pips of one god (DAM-36: the bank holds only 4 of a god)")
        value = TYPES[self.type].pips
        if len(self.pattern) != value:
            problems.append(f"has {len(self.pattern)} pips but {_a(self.type)} is worth "
                            f"{value} (DAM-3: pips equal the type's value)")
        if problems:
            raise ValueError("\n".join(problems))
        return self

    @property
    def module(self) -> str:
        """The module the type belongs to: ``base``, ``annex`` or ``destruction``."""
        return TYPES[self.type].module

    def to_codex(self) -> Codex:
        """The runtime codex: positions become 0-based offsets, gods indices into ``GODS``."""
        return Codex(self.id, self.type,
                     tuple((position - 1, GODS.index(god)) for position, god in self.pattern))


class DeckManifest(ContentManifest):
    """A whole deck manifest: ``format``, ``description`` and the ``codices`` in deck order.

    Beyond each :class:`CodexEntry`'s rules, ids must be unique and no two codices may share
    type and pattern, except 1-pip ones (DAM-26, rules-questions §1.4).
    """

    FORMAT = FORMAT
    codices: tuple[CodexEntry, ...]

    @model_validator(mode="after")
    def _no_duplicates(self) -> Self:
        problems = []
        first_index: dict[str, int] = {}
        first_id: dict[tuple[str, tuple[tuple[int, str], ...]], str] = {}
        for index, entry in enumerate(self.codices):
            if entry.id in first_index:
                problems.append(f"duplicate id {entry.id} (codices at index "
                                f"{first_index[entry.id]} and {index})")
            else:
                first_index[entry.id] = index
            key = (entry.type, entry.pattern)
            if key in first_id and len(entry.pattern) > 1:
                problems.append(f"codex {entry.id}: duplicate of {first_id[key]} (same type "
                                "and pattern; DAM-26: no duplicate (type, pattern) in a deck)")
            first_id.setdefault(key, entry.id)
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def codices_for(self, modules: Iterable[str] = ()) -> tuple[CodexEntry, ...]:
        """The base-deck entries plus those of the given modules, in file order."""
        wanted = {"base", *_check_modules(modules)}
        return tuple(entry for entry in self.codices if entry.module in wanted)


def _check_modules(modules: Iterable[str]) -> frozenset[str]:
    """The module names as a set; a bare string counts as one name. Unknown names raise."""
    names = frozenset((modules,) if isinstance(modules, str) else modules)
    unknown = sorted(n for n in names if n != "base" and n not in MODULES)
    if unknown:
        raise DeckError(f"unknown module {unknown[0]!r}; modules: {', '.join(MODULES)} "
                        "(the base deck is always included; DAM-31, DAM-32)")
    return names


def _codex_label(data: Any, index: int) -> str:
    """``codex GEN-03``, or ``codex at index 3`` when the raw entry has no usable id."""
    try:
        ident = data["codices"][index]["id"]
    except (TypeError, KeyError, IndexError):
        ident = None
    if isinstance(ident, str) and ident.strip():
        return f"codex {ident}"
    return f"codex at index {index}"


def _pattern_hint(rest: tuple[Any, ...], err: dict[str, Any]) -> str | None:
    if rest[:1] == ("pattern",) and len(rest) >= 2:
        return (f"pattern[{rest[1]}]: each pip is [position, god name], e.g. [1, \"HADES\"] "
                f"({err['msg']}; got {err['input']!r})")
    return None


def _problems(error: ValidationError, data: Any) -> list[str]:
    """Readable one-line problems, each naming the codex (or the manifest) and the rule."""
    return pydantic_problems(error, items="codices", label=lambda i: _codex_label(data, i),
                             entry=CodexEntry, manifest=DeckManifest, whole="manifest",
                             hint=_pattern_hint)


def validate_deck_data(data: Any, source: str = "<in-memory data>") -> DeckManifest:
    """Validate an in-memory manifest (the parsed JSON object) and return it as a model.

    ``source`` names the data in error messages (a path, or a label). Raises
    :class:`DeckError` listing every problem found, each naming the codex and the rule.
    """
    try:
        return DeckManifest.model_validate(data)
    except ValidationError as error:
        raise problems_error(DeckError, f"deck {source}", _problems(error, data),
                             DeckManifest.format_hint()) from None


def read_manifest(path: str | Path | None = None) -> DeckManifest:
    """Read and validate a manifest file (default: the packaged reference deck).

    Raises :class:`DeckError` if the file is missing or unreadable, is not valid JSON (the
    message gives the path and the line), or breaks any content rule.
    """
    if path is None:
        return _packaged_manifest()
    return _read(Path(path))


@cache
def _packaged_manifest() -> DeckManifest:
    return _read(DEFAULT_DECK_PATH)


def _read(path: Path) -> DeckManifest:
    return validate_deck_data(read_json(path, "deck file", DeckError), str(path))


def deck_from_manifest(manifest: DeckManifest,
                       modules: Iterable[str] = ()) -> tuple[Codex, ...]:
    """The runtime codices of a validated manifest: the base deck plus ``modules``."""
    return tuple(entry.to_codex() for entry in manifest.codices_for(modules))


def load_deck(path: str | Path | None = None,
              modules: Iterable[str] = ()) -> tuple[Codex, ...]:
    """Load a deck as runtime :class:`Codex` values, in file order.

    In: ``path`` to a manifest (default: the packaged ``data/codices.json``); ``modules``, the
    optional modules to include besides the base deck: ``"annex"`` (DAM-31) and/or
    ``"destruction"`` (DAM-32); a single string counts as one module name.
    Out: a tuple of codices whose pattern offsets are 0-based (position 1 = offset 0) and
    whose gods are indices into ``GODS`` (DAM-1, DAM-4).
    Raises :class:`DeckError` on any problem: missing file, invalid JSON, unknown module, or
    a codex breaking a rule (the message names the codex and the rule).
    """
    return deck_from_manifest(read_manifest(path), modules)
