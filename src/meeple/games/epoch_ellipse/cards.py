"""Epoch Ellipse vocabulary: card kinds, typed points, effects, and the ``Card`` and
``Location`` values.

Rules: seeds/epoch-ellipse.txt (DECKS, TRASH VS. DISCARD, 3C-3E, COMBAT); decisions EPE-n in
docs/rules/epoch-ellipse.md. Cards are data (``data/cards.json``), validated by
:mod:`.content`.

**Abilities** (EPE-9): a card may print a *Discard* ability and/or a *Trash* ability. Using a
card means choosing one printed mode: discard sends it to its owner's discard pile, trash to
the top of the Graveyard's event deck (EPE-10). An ability is a set of typed points from
:data:`POINTS`, e.g. ``{"weapon": 1}`` (BULLET, Trash) or ``{"avoid_collapse": 1}`` (FIRST AID,
Discard). Points of one card are not split across two checks (EPE-9).

**Effects** (EPE-20, EPE-25, EPE-32): curses, charms and night cards carry one effect from
:data:`EFFECTS` with parameters, e.g. ``{"effect": "trash_random_hand", "who":
"combat_in_discard"}`` (AND THEY TOOK MY STUFF, TOO). ``who`` selects the players it applies
to (:data:`WHO`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

#: Card kinds (DECKS) and their subtypes (3C, 3E).
SALVAGE, SURVIVOR, CATASTROPHE, NIGHT = "SALVAGE", "SURVIVOR", "CATASTROPHE", "NIGHT"
KINDS: tuple[str, ...] = (SALVAGE, SURVIVOR, CATASTROPHE, NIGHT)
FOOD, WEAPON, MEDICAL, ALLY, CHARM = "FOOD", "WEAPON", "MEDICAL", "ALLY", "CHARM"
COMBAT, COLLAPSE, CURSE = "COMBAT", "COLLAPSE", "CURSE"
SUBTYPES: dict[str, tuple[str, ...]] = {
    SALVAGE: (FOOD, WEAPON, MEDICAL, ALLY, CHARM),
    CATASTROPHE: (COMBAT, COLLAPSE, CURSE),
    SURVIVOR: (),
    NIGHT: (),
}

#: Typed points an ability produces (EPE-9): ``weapon`` (combat, COMBAT), ``food`` (HUNGER),
#: ``medical`` (avoid one collapse, trash one catastrophe from hand in PLAN, or one
#: emergency stabilization: EPE-8, EPE-19, EPE-30), ``avoid_collapse`` (only to avoid a
#: COLLAPSE), ``trash_catastrophe`` (only to trash a catastrophe from hand), ``redraw``
#: (JUSTICE LIN: put the exploration back, reshuffle and draw again, EPE-43), ``draw`` (draw
#: that many cards from your own deck).
POINTS: tuple[str, ...] = ("weapon", "food", "medical", "avoid_collapse", "trash_catastrophe",
                           "redraw", "draw")

#: Effects of curses, charms and night cards, with their parameters and defaults.
#: ``who`` picks the players (:data:`WHO`); ``n`` is a count >= 1.
EFFECTS: dict[str, dict[str, Any]] = {
    # trash n random cards from the hand (AND THEY TOOK MY STUFF, TOO)
    "trash_random_hand": {"who": "self", "n": 1},
    # put the top n Catastrophe deck cards into the discard pile
    "catastrophe_to_discard": {"who": "self", "n": 1},
    # discard n random cards from the hand
    "discard_random_hand": {"who": "self", "n": 1},
    # n cards from the Catastrophe deck into a random explored location's event deck
    # (tokens follow, EPE-10 / 3F: a Recovered location may lose its status)
    "reinforce_location": {"n": 1},
    # draw n cards from the Salvage deck into the hand (boons)
    "draw_salvage": {"who": "self", "n": 1},
    # move up to n catastrophes from the discard pile to the Graveyard (boons)
    "heal": {"who": "self", "n": 1},
    # remove n catastrophes (and tokens) from the explored location with the fewest tokens
    "clear_location": {"n": 1},
    # nothing happens (a quiet night)
    "nothing": {},
}
#: Whom an effect applies to: the resolving player, every alive player, or every alive
#: player with a COMBAT / COLLAPSE catastrophe in the discard pile.
WHO: tuple[str, ...] = ("self", "all", "combat_in_discard", "collapse_in_discard")


@dataclass(frozen=True, slots=True)
class Card:
    """One card (all copies share a name; each copy is a distinct card index at runtime).

    Attributes:
        name: the printed name, upper case (``"TINNED HAM"``).
        kind: one of :data:`KINDS`; ``subtype``: one of ``SUBTYPES[kind]`` or ``""``.
        difficulty: weapon points needed to win a COMBAT (0 otherwise).
        discard, trash: the printed abilities, point -> amount (empty: no such mode).
        effect: the effect name of a CURSE, CHARM or NIGHT card (``""`` otherwise), and
            ``params`` its parameters (defaults filled in).
        text: the printed rules text, for people.
    """

    name: str
    kind: str
    subtype: str = ""
    difficulty: int = 0
    discard: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    trash: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    effect: str = ""
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    text: str = ""

    def modes(self) -> tuple[str, ...]:
        """The printed modes, ``"discard"`` and/or ``"trash"``."""
        return tuple(m for m in ("discard", "trash") if getattr(self, m))

    def points(self, mode: str) -> MappingProxyType:
        """The ability of ``mode`` (``"discard"`` or ``"trash"``)."""
        return getattr(self, mode)


@dataclass(frozen=True, slots=True)
class Location:
    """A location card (3A): how many cards of each deck build its event deck, and its VP.

    ``fixed``: put into play at setup (GAME START: the Graveyard and the Apartment Building)
    rather than shuffled into the Location deck.
    """

    name: str
    catastrophes: int
    salvage: int
    survivors: int
    vp: int
    fixed: bool = False
    text: str = ""


class PackedCounts:
    """Per card instance, the counts the evaluator reads, packed so that one integer sum
    counts a whole pile (built once per game spec, by its first search:
    ``EpochEllipse.packed_counts()``).

    Args:
        cards: the content's card types; ``ctype``: the type of each card instance.

    Attributes:
        cat, food, medical: by instance: a catastrophe (0/1), food points (at most 2), a
            medical card (0/1: medical, avoid_collapse or trash_catastrophe points).
        bits, mask: the width of one field and its mask: ``bits`` holds twice the card count,
            so a field never carries into the next in a sum over any set of cards.
        packed: by instance, ``cat | food << bits | medical << 2 bits | 1 << 3 bits`` (the
            last field counts cards).
        shift: ``4 * bits``; a seat's packed counts (the state's ``packs``) hold those of its
            hand and discard pile below ``shift`` and those of its whole deck (draw pile,
            hand and discard pile) from ``shift`` up.
        held: by instance, ``packed | packed << shift``: a card in a hand or discard pile
            (it counts in both parts); a card in a draw pile counts ``packed << shift``, so
            one moving between a draw pile and the same seat's hand or discard pile changes
            the seat's packs by ``packed``.
        deck_mask: ``-(1 << shift)``: ``packs & deck_mask`` keeps the whole deck's part (the
            hand and discard pile's part set to 0).
    """

    __slots__ = ("cat", "food", "medical", "bits", "mask", "packed", "shift", "held",
                 "deck_mask")

    def __init__(self, cards: Sequence[Card], ctype: Sequence[int]) -> None:
        def best(card: Card, points: tuple[str, ...]) -> int:
            return max((card.points(m).get(p, 0) for m in card.modes() for p in points),
                       default=0)

        # By type first (a few dozen), then by instance (a few hundred).
        cat = [1 if card.kind == CATASTROPHE else 0 for card in cards]
        food = [min(best(card, ("food",)), 2) for card in cards]
        medical = [1 if best(card, ("medical", "avoid_collapse", "trash_catastrophe")) else 0
                   for card in cards]
        self.cat = tuple(map(cat.__getitem__, ctype))
        self.food = tuple(map(food.__getitem__, ctype))
        self.medical = tuple(map(medical.__getitem__, ctype))
        bits = self.bits = (2 * len(ctype) + 1).bit_length()
        self.mask = (1 << bits) - 1
        self.packed = tuple(c | f << bits | m << 2 * bits | 1 << 3 * bits
                            for c, f, m in zip(self.cat, self.food, self.medical, strict=True))
        shift = self.shift = 4 * bits
        self.held = tuple(p | p << shift for p in self.packed)
        self.deck_mask = -(1 << shift)

    def seat(self, hand: Iterable[int], discard: Iterable[int], draws: Iterable[int]) -> int:
        """One seat's packs recounted from its piles (``hand``, ``discard``, ``draws``: card
        instances): the value the rules keep current in ``EpochState.packs``."""
        packed = self.packed  # summed as machine-size ints, shifted once
        near = sum(map(packed.__getitem__, [*hand, *discard]))
        return near + (near + sum(map(packed.__getitem__, draws)) << self.shift)
