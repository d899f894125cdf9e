"""Ozymandias (campaign edition) actions: one value type, one canonical text per kind.

================ ============================ =================================================
kind             canonical text                when (step)
================ ============================ =================================================
intake           ``intake``                    mode: choose Intake
migrate          ``migrate``                   mode: choose Migration
campaign         ``campaign``                  mode: choose Campaign
cube             ``cube G 2``                  intake (a): a G cube onto tableau card 2
pass             ``pass``                      intake (a): pass the rest on to the right
recover          ``recover GOLD-1:c1``         intake (b): recover a colony worker there (OZW-18)
                                               / migration: recover the worker standing there
recover          ``recover card 3``            migration: recover card 3's harvest worker
done             ``done``                      stop recovering (migration; optional recovery)
move             ``move G 4`` / ``move G out`` migration: a G cube from the current card to
                                               card 4, or to the right neighbour (OZW-13)
keep             ``keep``                      free migration: leave this card's other cubes
stand            ``stand GOLD-1:i3``           campaign: stand a worker (OZW-22, war if held)
colony           ``colony GOLD-1:c1``          campaign: lay a colony worker (OZW-24..27)
lay              ``lay 2``                     campaign: lay a worker on tableau card 2 (OZW-17)
harvest          ``harvest 3``                 campaign: mark tapped card 3 for harvest
end              ``end``                       campaign: end the turn
fight            ``fight R5``                  war: the card to reveal (simultaneous, OZW-30)
play             ``play B4``                   after a colony: the card for the tableau
attach           ``attach a c``                exploration: join the drawn tile's port ``c`` to
                                               this point's open port ``a`` (OZW-32)
================ ============================ =================================================

Cards are written by suit initial and rank (``G5``: GOLD rank 5); copies of a suit and rank are
interchangeable, so one action stands for all of them. Tableau cards are numbered from 1 at
the left; points are named ``TILE:point`` (case does not matter when typing).
"""

from __future__ import annotations

import re
from typing import Any

from meeple.engine.action import KindAction
from meeple.engine.errors import ActionParseError
from meeple.games.ozymandias_campaign.vocab import SUITS

#: Suit initials used in card names and cube actions: G(OLD), R(ED), B(LUE).
SUIT_INITIALS = "".join(s[0] for s in SUITS)

BARE_KINDS = ("intake", "migrate", "campaign", "pass", "done", "keep", "end")
POINT_KINDS = ("stand", "colony")
CARD_POSITION_KINDS = ("lay", "harvest")
HAND_KINDS = ("fight", "play")


def card_name(suit: int, rank: int) -> str:
    """``G5`` for GOLD rank 5."""
    return f"{SUIT_INITIALS[suit]}{rank}"


class Move(KindAction):
    """One Ozymandias (campaign) action of ``seat``.

    Arguments (internal form, positions 0-based): ``cube``: (suit, position); ``move``: (suit,
    position or -1 for the right neighbour); ``recover``: (point,) or ("card", position);
    ``stand``/``colony``: (point,); ``lay``/``harvest``: (position,); ``fight``/``play``:
    (suit, rank); ``attach``: (map port, tile port); the bare kinds: ().
    """

    __slots__ = ()

    @staticmethod
    def describe(kind: str, args: tuple[Any, ...]) -> str:
        if kind in ("cube", "move"):
            suit, where = args
            dest = "out" if where == -1 else str(where + 1)
            return f"{kind} {SUIT_INITIALS[suit]} {dest}"
        if kind == "recover" and args[0] == "card":
            return f"recover card {args[1] + 1}"
        if kind in CARD_POSITION_KINDS:
            return f"{kind} {args[0] + 1}"
        if kind in HAND_KINDS:
            return f"{kind} {card_name(*args)}"
        return " ".join([kind, *map(str, args)])


def _suit(word: str) -> int:
    w = word.upper()
    for i, name in enumerate(SUITS):
        if w in (name, name[0]):
            return i
    raise ActionParseError(f"{word!r} is not a suit (G, R or B)")


def _position(word: str) -> int:
    if not word.isdigit() or int(word) < 1:
        raise ActionParseError(f"{word!r} is not a tableau card number (1 is the left-most)")
    return int(word) - 1


def _card(word: str) -> tuple[int, int]:
    w = word.upper()
    if len(w) < 2 or not w[1:].isdigit():
        raise ActionParseError(f"{word!r} is not a card (write suit initial and rank, e.g. G5)")
    return _suit(w[0]), int(w[1:])


def parse_move(text: str, seat: int, points: dict[str, str]) -> Move:
    """Read ``text`` (notation in the module docstring) as ``seat``'s action.

    Args:
        points: upper-cased point name -> the map's point name, to read points in any case.
    Raises:
        ActionParseError: naming what could not be read.
    """
    words = re.sub(r"\s+", " ", text.strip()).split(" ") if text.strip() else []
    if not words:
        raise ActionParseError("empty action; e.g. 'intake', 'stand GOLD-1:i3', 'end'")
    kind, rest = words[0].lower(), words[1:]

    def point(word: str) -> str:
        found = points.get(word.upper())
        if found is None:
            raise ActionParseError(f"{word!r} is not a point of any sector tile (e.g. "
                                   "GOLD-1:i3)")
        return found

    try:
        if kind in BARE_KINDS and not rest:
            return Move(seat, kind)
        if kind in ("cube", "move") and len(rest) == 2:
            dest = -1 if kind == "move" and rest[1].lower() == "out" else _position(rest[1])
            return Move(seat, kind, (_suit(rest[0]), dest))
        if kind == "recover" and len(rest) == 2 and rest[0].lower() == "card":
            return Move(seat, kind, ("card", _position(rest[1])))
        if kind in (*POINT_KINDS, "recover") and len(rest) == 1:
            return Move(seat, kind, (point(rest[0]),))
        if kind in CARD_POSITION_KINDS and len(rest) == 1:
            return Move(seat, kind, (_position(rest[0]),))
        if kind in HAND_KINDS and len(rest) == 1:
            return Move(seat, kind, _card(rest[0]))
        if kind == "attach" and len(rest) == 2:
            return Move(seat, kind, (rest[0], rest[1]))
    except ActionParseError as exc:
        raise ActionParseError(f"cannot read {text!r}: {exc}") from None
    raise ActionParseError(
        f"cannot read {text!r}: write e.g. 'intake', 'migrate', 'campaign', 'cube G 2', "
        "'pass', 'move G 3', 'move G out', 'stand GOLD-1:i3', 'colony GOLD-1:c1', 'lay 2', "
        "'harvest 1', 'fight R5', 'play B4', 'attach a c', 'recover GOLD-1:c1', 'done' or 'end'"
    )
