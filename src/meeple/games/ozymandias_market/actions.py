"""Ozymandias (market edition) actions: one value type, one canonical text per kind.

================ =========================== ==========================================
kind             canonical text               when
================ =========================== ==========================================
plan             ``plan W17``                 secret plans: the card to play (OZD-15)
expand           ``expand 1,-1``              raise: a disk of the card's colour (OZD-7..10)
expand (2015)    ``expand 1,-1 from 0,0``     raise, supply empty, ``take_from_map`` (OZD-3)
explore          ``explore 2,-1``             event: a new sector and a disk on it (E1)
raze             ``raze 1,0``                 event: destroy a top disk (E2)
march            ``march 0,0 1,0``            event: move a top disk to a neighbour (E3)
coup             ``coup 1,0``                 event: swap a stack's top two disks (E4)
surge            ``surge 1,0``                event: one of up to N expansions (E5)
diaspora         ``diaspora 1,0``             event: a disk anywhere legal (E6)
tribute          ``tribute``                  event: VP from the colour's value (E7)
bazaar           ``bazaar W17 B3``            event: swap a hand card with a market card (E8)
augury           ``augury``                   event: look at the deck top (E9), then
order            ``order B3 W17 K2``          the order to put them back, top first
embargo          ``embargo B3``               event: a market card to the discard pile (E10)
pass             ``pass``                     raise, when nothing else is legal (OZD-14)
trade            ``trade W17 B3``             trade a card for a market card (OZD-16..19)
trade            ``trade W17 deck``           ... or for the deck's top card (OZD-19)
done             ``done``                     skip the optional played-card trade / stop a
                                              Surge early
================ =========================== ==========================================

Cards are written by colour initial and rank (``W17``; the rank alone also reads, as ranks
are unique); sectors as ``q,r`` axial coordinates.
"""

from __future__ import annotations

import re
from typing import Any

from meeple.engine.action import KindAction
from meeple.engine.errors import ActionParseError
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS
from meeple.games.ozymandias_market.hexes import hex_text, parse_hex

HEX_KINDS = ("explore", "raze", "coup", "surge", "diaspora")
CARD_KINDS = ("plan", "embargo")


def card_text(rank: int, suit: int) -> str:
    return f"{COLOUR_INITIALS[suit]}{rank}"


class Order(KindAction):
    """One Ozymandias action of ``seat``. Arguments (internal form): cards as ranks, sectors as
    ``(q, r)``, ``"deck"`` for the deck top. ``expand``: ``(hex, source hex or None)``;
    ``march``: ``(from, to)``; ``trade``/``bazaar``: ``(given rank, taken rank or "deck")``;
    ``order``: ranks top first. The text needs suits, so it is given at construction."""

    __slots__ = ()

    @staticmethod
    def describe(kind: str, args: tuple[Any, ...]) -> str:
        parts = [kind]
        for a in args:
            if a is None:
                continue
            parts.append(hex_text(a) if isinstance(a, tuple) else str(a))
        return " ".join(parts)



def make_order(seat: int, kind: str, suit_of: dict[int, int], args: tuple[Any, ...] = ()
               ) -> Order:
    """The :class:`Order` of ``seat`` with its canonical text (cards by colour and rank)."""
    shown = [kind]
    for a in args:
        if a is None:
            continue
        if isinstance(a, tuple):
            shown.append(hex_text(a))
        elif isinstance(a, int):
            shown.append(card_text(a, suit_of[a]))
        else:
            shown.append(str(a))
    if kind == "expand" and len(args) > 1 and args[1] is not None:
        shown.insert(2, "from")
    return Order(seat, kind, args, " ".join(shown))


def parse_order(text: str, seat: int, suit_of: dict[int, int]) -> Order:
    """Read ``text`` (notation in the module docstring) as ``seat``'s action.

    Args:
        suit_of: rank -> suit of every card of the game (to read and print card names).
    Raises:
        ActionParseError: naming what could not be read.
    """
    words = re.sub(r"\s*,\s*", ",", text).replace(" from ", " from:").split()
    if not words:
        raise ActionParseError("empty action; e.g. 'plan W17', 'expand 1,0', 'trade W17 B3'")
    kind, rest = words[0].lower(), words[1:]

    def card(word: str) -> int:
        w = word.upper()
        digits = w[1:] if w[:1] in COLOUR_INITIALS else w
        if not digits.isdigit() or int(digits) not in suit_of:
            raise ActionParseError(f"{word!r} is not a card of this game (e.g. W17)")
        rank = int(digits)
        if w[:1] in COLOUR_INITIALS and COLOUR_INITIALS.index(w[0]) != suit_of[rank]:
            raise ActionParseError(f"card {rank} is {card_text(rank, suit_of[rank])}, not {w}")
        return rank

    try:
        if kind in ("pass", "done", "tribute", "augury") and not rest:
            return make_order(seat, kind, suit_of, ())
        if kind in CARD_KINDS and len(rest) == 1:
            return make_order(seat, kind, suit_of, (card(rest[0]),))
        if kind in HEX_KINDS and len(rest) == 1:
            return make_order(seat, kind, suit_of, (parse_hex(rest[0]),))
        if kind == "expand" and len(rest) in (1, 2):
            source = None
            if len(rest) == 2:
                if not rest[1].startswith("from:"):
                    raise ActionParseError("write 'expand q,r' or 'expand q,r from q,r'")
                source = parse_hex(rest[1][5:])
            return make_order(seat, kind, suit_of, (parse_hex(rest[0]), source))
        if kind == "march" and len(rest) == 2:
            return make_order(seat, kind, suit_of, (parse_hex(rest[0]), parse_hex(rest[1])))
        if kind in ("trade", "bazaar") and len(rest) == 2:
            taken = "deck" if rest[1].lower() == "deck" and kind == "trade" else card(rest[1])
            return make_order(seat, kind, suit_of, (card(rest[0]), taken))
        if kind == "order" and rest:
            return make_order(seat, kind, suit_of, tuple(card(w) for w in rest))
    except ActionParseError as exc:
        raise ActionParseError(f"cannot read {text!r}: {exc}") from None
    raise ActionParseError(
        f"cannot read {text!r}: write e.g. 'plan W17', 'expand 1,0', 'raze 1,0', "
        "'march 0,0 1,0', 'bazaar W17 B3', 'trade W17 B3', 'trade W17 deck', 'done' or 'pass'"
    )
