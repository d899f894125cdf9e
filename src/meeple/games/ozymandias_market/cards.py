"""Ozymandias (market edition) vocabulary: colours, the event vocabulary, the ``Card`` value.

Rules: seeds/ozymandias-market.md (Components, The Cards); decisions OZD-n in
docs/rules/ozymandias-market.md. The cards themselves are data (``data/cards.json``), validated
by :mod:`.content`. Events are data too: each card names one effect from :data:`EVENTS` with
its parameters (OZD-13), so the rules implement ten effects, not forty card texts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.engine.errors import ParameterError

#: The four faction colours (OZD-1), in a fixed order (index = colour id).
COLOURS: tuple[str, ...] = ("RED", "WHITE", "BLUE", "BLACK")
#: One-letter initials used in card names and the notation: R W B K.
COLOUR_INITIALS: tuple[str, ...] = ("R", "W", "B", "K")


@dataclass(frozen=True, slots=True)
class EventKind:
    """One effect of the event vocabulary (rules-questions 2.4, E1-E10).

    Attributes:
        name: the effect's key in the card file.
        text: what it does, with ``{colour}`` for the card's colour and parameters in braces.
        params: parameter names with their default values (all non-negative integers);
            ``explore`` (0 or 1) lets a placing event attach a new sector as well, which is how
            the map grows (OZD-10: with Explore, Surge and Diaspora, 12 of the 40 reference
            cards, 30%, can add a sector).
    """

    name: str
    text: str
    params: dict[str, int] = field(default_factory=dict)


EVENTS: dict[str, EventKind] = {e.name: e for e in (
    EventKind("EXPLORE", "Explore: attach a new sector to the map and place a {colour} disk on "
              "it, ignoring adjacency."),
    EventKind("RAZE", "Raze: destroy the top disk of one sector."),
    EventKind("MARCH", "March: move a top {colour} disk to an adjacent sector without "
              "{colour}."),
    EventKind("COUP", "Coup: swap the top two disks of one stack."),
    EventKind("SURGE", "Surge: expand with {colour} up to {times} times{explores}.",
              {"times": 2, "explore": 1}),
    EventKind("DIASPORA", "Diaspora: place a {colour} disk on any sector without {colour}, "
              "ignoring adjacency{explores}.", {"explore": 1}),
    EventKind("TRIBUTE", "Tribute: gain VP equal to {colour}'s faction value minus {minus}.",
              {"minus": 1}),
    EventKind("BAZAAR", "Bazaar: swap a card in hand with a market card, scoring nothing."),
    EventKind("AUGURY", "Augury: look at the top {depth} cards of the deck and put them back "
              "in any order.", {"depth": 3}),
    EventKind("EMBARGO", "Embargo: move one market card to the discard pile."),
)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suit (colour index), a unique rank (initiative, OZD-12) and one event.

    Attributes:
        rank: unique, 1..N; lower ranks raise first and trade last.
        suit: colour index into :data:`COLOURS`.
        event: a key of :data:`EVENTS`.
        params: the event's parameters (defaults filled in), as sorted ``(name, value)`` pairs.
    """

    rank: int
    suit: int
    event: str
    params: tuple[tuple[str, int], ...] = ()

    @property
    def id(self) -> str:
        """The card's name in the notation: colour initial and rank, e.g. ``W17``."""
        return f"{COLOUR_INITIALS[self.suit]}{self.rank}"

    def param(self, name: str) -> int:
        return dict(self.params).get(name, EVENTS[self.event].params.get(name, 0))

    def event_text(self) -> str:
        values: dict[str, Any] = {"colour": COLOURS[self.suit].title()}
        values.update(EVENTS[self.event].params)
        values.update(dict(self.params))
        values["explores"] = ", a new sector allowed" if values.get("explore") else ""
        return EVENTS[self.event].text.format(**values)

    def __str__(self) -> str:
        return f"{self.id} ({COLOURS[self.suit].title()} {self.rank}: {self.event_text()})"


def parse_card(suit_of: Mapping[int, int], word: int | str, what: str) -> int:
    """A card's rank from ``W17``, ``"17"`` or ``17`` (a scenario's words; ``suit_of``: the
    game's rank -> colour).

    Raises:
        ParameterError: naming ``what`` (the description's field) and the word.
    """
    w = str(word).strip().upper()
    digits = w[1:] if w[:1] in COLOUR_INITIALS else w
    if not digits.isdigit() or int(digits) not in suit_of:
        raise ParameterError(f"{what}: {word!r} is not a card of this game (e.g. W17)")
    rank = int(digits)
    if w[:1] in COLOUR_INITIALS and COLOUR_INITIALS.index(w[0]) != suit_of[rank]:
        raise ParameterError(f"{what}: card {rank} is "
                             f"{COLOUR_INITIALS[suit_of[rank]]}{rank}, not {w}")
    return rank


def parse_colour(word: int | str, what: str) -> int:
    """A colour index from a name or initial (``RED``, ``R``; ``K`` is black) or an index.

    Raises:
        ParameterError: naming ``what`` and the word.
    """
    if isinstance(word, int) and 0 <= word < len(COLOURS):
        return word
    w = str(word).strip().upper()
    if w in COLOURS:
        return COLOURS.index(w)
    if w in COLOUR_INITIALS:
        return COLOUR_INITIALS.index(w)
    raise ParameterError(f"{what}: {word!r} is not a colour ({', '.join(COLOURS)} or "
                         f"{' '.join(COLOUR_INITIALS)})")
