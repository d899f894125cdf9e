"""The Ozymandias (market edition) card deck as data: the file schema, its validation, loading.

The seed says only that "each card has a suit and a unique rank" and that events exist; it
lists no cards and no event texts (OZD-12, OZD-13). The reference deck is therefore authored
content: a frozen JSON file, ``data/cards.json``, generated once by ``data/make_cards.py`` and
checked in (rules-questions §2.4). This module reads such a file, checks every rule a card
must obey, and turns it into the runtime :class:`~meeple.games.ozymandias_market.cards.Card`
values the rules engine deals.

File format (``"format": "meeple-ozymandias-market-cards/1"``)::

    {"format": "meeple-ozymandias-market-cards/1",
     "description": "how the deck was made and what is in it",
     "cards": [{"rank": 1, "suit": "RED", "event": "EXPLORE"},
               {"rank": 5, "suit": "WHITE", "event": "SURGE", "params": {"times": 3}},
               ...]}

Rules checked per card:

* ``rank`` is a positive integer (OZD-12: initiative is the rank);
* ``suit`` is one of :data:`~meeple.games.ozymandias_market.cards.COLOURS` (OZD-1);
* ``event`` is a key of :data:`~meeple.games.ozymandias_market.cards.EVENTS` (OZD-13);
* ``params`` (optional) names only parameters of that event, each a non-negative integer;
  parameters left out take the event's defaults;
* no other keys;

and per deck, once every card is valid: ranks are unique (OZD-12), there are at least
:data:`MIN_CARDS` cards, and every colour has at least one card (OZD-1: four factions, each
raised by its own cards). An event's parameter names are likewise checked once its event and
values are valid. The deck size is not fixed: the reference deck has 40 cards, but a
designer may add or remove some, and ranks need not be contiguous. Whether a deck is big
enough for a given table (hands of 3 and a market of 5) is the rules engine's check at setup.

Every problem raises :class:`CardsError`, whose message names the card (``card W17``, or
``card at index 3`` when its suit or rank is unreadable) and the rule it breaks.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
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
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS, EVENTS, Card

#: The card-file format this module reads.
FORMAT = "meeple-ozymandias-market-cards/1"
#: The packaged reference deck (rules-questions §2.4).
DEFAULT_CARDS_PATH = Path(__file__).parent / "data" / "cards.json"
#: Fewest cards a deck may have: a round compares at least two ranks (OZD-12). Every colour
#: must also be present, so a valid deck in practice has at least four.
MIN_CARDS = 2



class CardsError(ContentError):
    """A card file is missing, unreadable or breaks a content rule.

    ``problems`` lists every problem found, each naming the card and the rule; the message
    joins them after the file's source (its path, or a label for in-memory data).
    """


def _is_count(value: Any) -> bool:
    """A JSON integer (``true``/``false`` are not) that is at least 0."""
    return type(value) is int and value >= 0


def card_id(suit: str, rank: int) -> str:
    """The card's name in the notation: colour initial and rank, ``card_id("WHITE", 17)`` ->
    ``"W17"`` (the same as :attr:`Card.id`)."""
    return f"{COLOUR_INITIALS[COLOURS.index(suit)]}{rank}"


class CardEntry(BaseModel):
    """One card as stored in the file: ``rank``, ``suit``, ``event`` and optional ``params``.

    Validation enforces OZD-1, OZD-12 and OZD-13 per card (see the module docstring);
    ``params`` holds only what the file states (defaults are filled in by :meth:`to_card`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: int
    suit: StrictStr
    event: StrictStr
    params: dict[str, int] = Field(default_factory=dict)

    @field_validator("rank", mode="before")
    @classmethod
    def _rank_is_positive(cls, value: Any) -> int:
        if type(value) is not int or value < 1:
            raise ValueError(f"rank {value!r} is not a positive integer (OZD-12: ranks are "
                             "whole numbers from 1 up; the rank is the card's initiative)")
        return value

    @field_validator("suit", mode="before")
    @classmethod
    def _suit_is_a_colour(cls, value: Any) -> str:
        if not isinstance(value, str) or value not in COLOURS:
            raise ValueError(f"unknown suit {value!r}; suits: {', '.join(COLOURS)} "
                             "(OZD-1: the four faction colours)")
        return value

    @field_validator("event", mode="before")
    @classmethod
    def _event_is_known(cls, value: Any) -> str:
        if not isinstance(value, str) or value not in EVENTS:
            raise ValueError(f"unknown event {value!r}; events: {', '.join(EVENTS)} "
                             "(OZD-13: each card names one effect of the event vocabulary)")
        return value

    @field_validator("params", mode="before")
    @classmethod
    def _params_are_counts(cls, value: Any) -> dict[str, int]:
        if not isinstance(value, dict):
            raise ValueError("params must be a JSON object of parameter names to values, "
                             f'e.g. {{"times": 2}}; got {type(value).__name__}')
        problems = [f"parameter {name!r} must be a non-negative integer; got {v!r} "
                    "(event parameters are counts)"
                    for name, v in value.items() if not _is_count(v)]
        if problems:
            raise ValueError("\n".join(problems))
        return value

    @model_validator(mode="after")
    def _params_belong_to_the_event(self) -> Self:
        allowed = EVENTS[self.event].params
        unknown = [name for name in self.params if name not in allowed]
        if unknown:
            takes = (f"{self.event} takes: {', '.join(allowed)}" if allowed
                     else f"{self.event} takes no parameters")
            raise ValueError("\n".join(
                f"unknown parameter {name!r} for event {self.event}; {takes} (OZD-13)"
                for name in unknown))
        return self

    @property
    def id(self) -> str:
        """The card's name, e.g. ``W17``."""
        return card_id(self.suit, self.rank)

    def to_card(self) -> Card:
        """The runtime card: the suit as an index into ``COLOURS``, parameters with defaults
        filled in, as sorted ``(name, value)`` pairs."""
        params = {**EVENTS[self.event].params, **self.params}
        return Card(self.rank, COLOURS.index(self.suit), self.event,
                    tuple(sorted(params.items())))


class CardsManifest(ContentManifest):
    """A whole card file: ``format``, ``description`` and the ``cards`` (any order).

    Beyond each :class:`CardEntry`'s rules: ranks are unique (OZD-12), the deck has at least
    :data:`MIN_CARDS` cards and every colour is present (OZD-1).
    """

    FORMAT = FORMAT
    cards: tuple[CardEntry, ...]

    @model_validator(mode="after")
    def _deck_rules(self) -> Self:
        problems = []
        first: dict[int, tuple[int, str]] = {}
        for index, entry in enumerate(self.cards):
            if entry.rank in first:
                other_index, other_id = first[entry.rank]
                problems.append(f"card {entry.id}: duplicate rank {entry.rank}, also on card "
                                f"{other_id} (cards at index {other_index} and {index}; "
                                "OZD-12: ranks are unique)")
            else:
                first[entry.rank] = (index, entry.id)
        if len(self.cards) < MIN_CARDS:
            problems.append(f"the deck has {len(self.cards)} card(s); a deck needs at least "
                            f"{MIN_CARDS} (OZD-12: initiative compares ranks)")
        present = {entry.suit for entry in self.cards}
        missing = [c for c in COLOURS if c not in present]
        if missing:
            problems.append(f"no card of suit {', '.join(missing)}; every colour needs at least "
                            "one card (OZD-1: four factions, each raised by its own cards)")
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def runtime_cards(self) -> tuple[Card, ...]:
        """The runtime cards in rank order (the order of initiative, OZD-12)."""
        return tuple(entry.to_card() for entry in sorted(self.cards, key=lambda e: e.rank))


def _card_label(data: Any, index: int) -> str:
    """``card W17``, or ``card at index 3`` when the raw entry's suit or rank is unreadable."""
    try:
        entry = data["cards"][index]
        rank, suit = entry["rank"], entry["suit"]
    except (TypeError, KeyError, IndexError):
        return f"card at index {index}"
    if type(rank) is int and rank >= 1 and isinstance(suit, str) and suit in COLOURS:
        return f"card {card_id(suit, rank)}"
    return f"card at index {index}"


def _problems(error: ValidationError, data: Any) -> list[str]:
    """Readable one-line problems, each naming the card (or the file) and the rule."""
    return pydantic_problems(error, items="cards", label=lambda i: _card_label(data, i),
                             entry=CardEntry, manifest=CardsManifest)


def validate_cards_data(data: Any, source: str = "<in-memory data>") -> CardsManifest:
    """Validate an in-memory card file (the parsed JSON object) and return it as a model.

    ``source`` names the data in error messages (a path, or a label). Raises
    :class:`CardsError` listing every problem found, each naming the card and the rule.
    """
    try:
        return CardsManifest.model_validate(data)
    except ValidationError as error:
        raise problems_error(CardsError, f"card file {source}", _problems(error, data),
                             CardsManifest.format_hint()) from None


def read_cards_manifest(path: str | Path | None = None) -> CardsManifest:
    """Read and validate a card file (default: the packaged reference deck).

    Raises :class:`CardsError` if the file is missing or unreadable, is not valid JSON (the
    message gives the path and the line), or breaks any content rule.
    """
    if path is None:
        return _packaged_manifest()
    return _read(Path(path))


@cache
def _packaged_manifest() -> CardsManifest:
    return _read(DEFAULT_CARDS_PATH)


def _read(path: Path) -> CardsManifest:
    return validate_cards_data(read_json(path, "card file", CardsError), str(path))


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """Load a deck as runtime :class:`Card` values, in rank order.

    In: ``path`` to a card file (default: the packaged ``data/cards.json``).
    Out: a tuple of ``Card(rank, suit, event, params)`` sorted by rank, where ``suit`` is an
    index into ``COLOURS`` and ``params`` holds every parameter of the event (the file's
    values over the defaults of ``EVENTS``) as sorted ``(name, value)`` pairs.
    Raises :class:`CardsError` on any problem: missing file, invalid JSON, or a card breaking
    a rule (the message names the card and the rule).
    """
    return read_cards_manifest(path).runtime_cards()
