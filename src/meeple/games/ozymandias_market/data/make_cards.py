"""Generate the Ozymandias (market edition) reference deck, ``cards.json`` (rules-questions §2.4).

The seed gives every card a suit and a unique rank but lists no cards and no events (OZD-12,
OZD-13), so this script authored the deck. It was run ONCE and its output checked in; games
shuffle the frozen file and never regenerate it. Running it again rewrites ``cards.json`` byte
for byte (no randomness at all: every card follows from two formulas)::

    python src/meeple/games/ozymandias_market/data/make_cards.py          # rewrite cards.json
    python src/meeple/games/ozymandias_market/data/make_cards.py --check  # exit 1 if it differs

In: nothing but the constants below. Out: the file text (:func:`manifest_text`).

How the deck is made (ranks ``r`` = 1..40, colour indices R=0 W=1 B=2 K=3 as in ``COLOURS``,
archetype indices 0..9 in the order of ``EVENTS``: Explore, Raze, March, Coup, Surge,
Diaspora, Tribute, Bazaar, Augury, Embargo):

1. Composition (§2.4): 40 cards, ranks 1..40, each rank once (OZD-12); 10 per colour.
2. Suits by the fixed Latin-square cycle of §2.4. The ranks fall into ten blocks of four,
   ``block = (r - 1) // 4``; within a block the suits run R W B K rotated by the block
   number: ``suit = ((r - 1) % 4 + block) % 4``. So ranks 1-4 are R W B K, 5-8 W B K R,
   9-12 B K R W, 13-16 K R W B, then the cycle repeats. Every block holds each colour once,
   so each colour's ten ranks span the whole range, one per block.
3. Events: 10 archetypes x 4 colours, each colour having each archetype exactly once. The
   card of colour ``c`` in block ``b`` gets archetype ``(b - 3c) mod 10``; read the other
   way, archetype ``e`` of colour ``c`` sits in block ``(e + 3c) mod 10``. Per colour this is
   a bijection of blocks onto archetypes (each colour has each event once), and the colours
   are staggered by 3 blocks, so an archetype's four cards lie in the blocks
   ``e, e+3, e+6, e+9 (mod 10)``: four different blocks, at least 4 ranks apart, and always
   at least one in each band: low (ranks 1-12), mid (13-28) and high (29-40). No event is
   reserved for early or late initiative.
4. Parameters: every card uses the defaults of ``EVENTS`` (Surge times 2, Tribute minus 1,
   Augury depth 3), so no card lists ``params``; a designer may add them to vary a card.
5. Cards are written in rank order, one per line, after validation by
   :func:`meeple.games.ozymandias_market.content.validate_cards_data`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a file: import meeple from this checkout, not another
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from meeple.engine.content import item_per_line, write_or_check
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS, EVENTS  # noqa: E402
from meeple.games.ozymandias_market.content import FORMAT, validate_cards_data  # noqa: E402

#: Ranks 1..CARDS (rules-questions §2.4: 40 cards).
CARDS = 40
#: Ranks per block of the suit cycle: one card of each colour.
BLOCK = len(COLOURS)
#: How many blocks each colour's archetype sequence is shifted against the previous colour's.
STAGGER = 3
#: The archetypes (E1..E10 of §2.4), in the vocabulary's order.
ARCHETYPES: tuple[str, ...] = tuple(EVENTS)
#: Rank bands used to state (and test) the spread: low, mid, high.
BANDS: tuple[tuple[str, range], ...] = (
    ("low", range(1, 13)), ("mid", range(13, 29)), ("high", range(29, CARDS + 1)))
OUT = Path(__file__).with_name("cards.json")


def suit_of(rank: int) -> int:
    """The colour index of ``rank`` under the Latin-square cycle (R W B K, W B K R, ...)."""
    block = (rank - 1) // BLOCK
    return ((rank - 1) % BLOCK + block) % BLOCK


def event_of(rank: int) -> str:
    """The archetype of ``rank``: ``(block - STAGGER * colour) mod 10``."""
    block = (rank - 1) // BLOCK
    return ARCHETYPES[(block - STAGGER * suit_of(rank)) % len(ARCHETYPES)]


def build_cards() -> list[tuple[int, int, str]]:
    """Author the deck: ``(rank, colour index, event)`` for ranks 1..40."""
    return [(rank, suit_of(rank), event_of(rank)) for rank in range(1, CARDS + 1)]


def _describe(cards: Sequence[tuple[int, int, str]]) -> str:
    def name(rank: int, suit: int) -> str:
        return f"{COLOUR_INITIALS[suit]}{rank}"

    per_event = "; ".join(
        f"{event.title()} " + " ".join(name(r, s) for r, s, e in cards if e == event)
        for event in ARCHETYPES)
    bands = ", ".join(f"{label} {band.start}-{band.stop - 1}" for label, band in BANDS)
    return (
        "Reference card deck for Ozymandias, market edition (OZD-12, OZD-13; rules-questions "
        "section 2.4). Generated once by data/make_cards.py (no randomness) and checked in; "
        "games shuffle it (seeded, X-1) but never regenerate it. "
        f"Composition: {len(cards)} cards, ranks 1-{len(cards)}, each rank once (OZD-12: "
        f"initiative is total); {len(cards) // len(COLOURS)} cards per colour "
        f"({', '.join(COLOURS)}; OZD-1). "
        "Suits follow the fixed Latin-square cycle of section 2.4: in each block of four ranks "
        "the suits run R W B K rotated by the block number (ranks 1-4 R W B K, 5-8 W B K R, "
        "9-12 B K R W, 13-16 K R W B, then repeat), so each colour has one card in every "
        "block and its ranks span the range. "
        f"Events: the {len(ARCHETYPES)} archetypes x {len(COLOURS)} colours, each colour "
        "having each archetype exactly once. Rule: the card of colour c (R=0 W=1 B=2 K=3) in "
        f"block b (ranks 4b+1..4b+4) has archetype (b - {STAGGER}c) mod 10, archetypes "
        f"numbered in this order: {', '.join(a.title() for a in ARCHETYPES)}. So an "
        f"archetype's four cards lie in blocks e, e+{STAGGER}, e+{2 * STAGGER}, "
        f"e+{3 * STAGGER} (mod 10): four different blocks, at least 4 ranks apart, with at "
        f"least one card in each band ({bands}). "
        f"Per event: {per_event}. "
        "Parameters: every card uses the vocabulary's defaults (Surge times 2, Tribute minus "
        "1, Augury depth 3), so no card lists params; a card may override them."
    )


def build_manifest() -> dict[str, Any]:
    """The card file as a JSON-ready dict, validated by the content rules (OZD-1, OZD-12)."""
    cards = build_cards()
    manifest = {
        "format": FORMAT,
        "description": _describe(cards),
        "cards": [{"rank": rank, "suit": COLOURS[suit], "event": event}
                  for rank, suit, event in cards],
    }
    validate_cards_data(manifest, "make_cards output")
    return manifest


def manifest_text(manifest: dict[str, Any] | None = None) -> str:
    """The card file as the checked-in text: one card per line, ending with a newline."""
    return item_per_line(build_manifest() if manifest is None else manifest, "cards")


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``cards.json`` (or, with ``--check``, report whether it is up to date)."""
    text = manifest_text()
    return write_or_check(OUT, text, argv, "make_cards.py", "cards", len(text.splitlines()) - 6)


if __name__ == "__main__":
    raise SystemExit(main())
