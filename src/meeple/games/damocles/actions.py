"""Damocles actions: one value type, one canonical text per kind (docs/rules/damocles.md).

A turn is split into sub-decisions (rules-questions X-3), each with a small legal list:

========== ============================ ===============================================
kind       canonical text                when
========== ============================ ===============================================
discard    ``discard GEN-01 ONE-03``     setup: keep 6 of 8, all seats at once (DAM-25)
place      ``place HADES 3``             setup: a god on an empty slot (1-7) (DAM-10)
haste      ``haste HAS-02``              turn step 1, before swapping (DAM-13)
swap       ``swap 2 5``                  internal swap of slots 2 and 5 (DAM-11)
swap       ``swap 3 NYX``                external swap: slot 3 with a bank Nyx (DAM-11)
stop       ``stop``                      end swapping early (second Haste swap; DAM-12)
play       ``play REF-01`` / ``REF-01*`` a Manipulation or Destruction codex; ``*`` = its
                                         match uses a Reflex (DAM-6)
pair       ``pair GEN-02 ONE-05*``       a Production with a Number (DAM-14, DAM-15); ``*``
                                         marks the codex a Reflex relaxes
keep       ``keep TWO-03 GEN-07``        after an Oracle: the codices kept (DAM-21)
destroy    ``destroy GEN-04``            a Destruction target (DAM-32)
end        ``end``                       end the turn (step 5)
========== ============================ ===============================================

Slots are written 1-7 as in the seed's notation; gods by name or initial (H P A D N).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from meeple.engine.action import KindAction
from meeple.engine.errors import ActionParseError
from meeple.games.damocles.codex import CIRCLE, GOD_INITIALS, GODS

KINDS = ("discard", "place", "haste", "swap", "trade", "stop", "play", "pair", "keep",
         "destroy", "end")


class Move(KindAction):
    """One Damocles action of ``seat``: a ``kind`` from :data:`KINDS` and its arguments.

    Arguments by kind: discard ``(id, id)`` sorted; place ``(god, slot)``; haste ``(id,)``;
    swap ``(slot, slot)`` ascending; trade ``(slot, god)``; play ``(id, relaxed)``; pair
    ``(production id, number id, relax production, relax number)``; keep ``(ids...)`` sorted;
    destroy ``(id,)``; stop and end ``()``. Slots are 0-6 and gods 0-4 internally.
    """

    __slots__ = ()

    @staticmethod
    def describe(kind: str, args: tuple[Any, ...]) -> str:
        return _text(kind, args)


@cache
def move(seat: int, kind: str, args: tuple[Any, ...] = ()) -> Move:
    """The shared (interned) :class:`Move` for these values: the legal-move generator asks
    for the same swaps, trades and placements at every turn, so they are built once."""
    return Move(seat, kind, args)


def _star(codex_id: str, relaxed: bool) -> str:
    return codex_id + ("*" if relaxed else "")


def _text(kind: str, args: tuple[Any, ...]) -> str:
    if kind == "discard":
        return "discard " + " ".join(args)
    if kind == "place":
        return f"place {GODS[args[0]]} {args[1] + 1}"
    if kind == "haste":
        return f"haste {args[0]}"
    if kind == "swap":
        return f"swap {args[0] + 1} {args[1] + 1}"
    if kind == "trade":
        return f"swap {args[0] + 1} {GODS[args[1]]}"
    if kind == "play":
        return "play " + _star(args[0], args[1])
    if kind == "pair":
        return f"pair {_star(args[0], args[2])} {_star(args[1], args[3])}"
    if kind == "keep":
        return "keep " + " ".join(args) if args else "keep"
    if kind == "destroy":
        return f"destroy {args[0]}"
    return kind  # stop, end


def _god(word: str) -> int:
    word = word.upper()
    if word in GODS:
        return GODS.index(word)
    if len(word) == 1 and word in GOD_INITIALS:
        return GOD_INITIALS.index(word)
    raise ActionParseError(f"{word!r} is not a god; gods: {', '.join(GODS)} (or H P A D N)")


def _slot(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= CIRCLE:
        raise ActionParseError(f"{word!r} is not a slot of the circle (1-{CIRCLE})")
    return int(word) - 1


def _codex(word: str) -> tuple[str, bool]:
    relaxed = word.endswith("*")
    return word.rstrip("*").upper(), relaxed


def parse_move(text: str, seat: int) -> Move:
    """Read ``text`` in the notation of this module's table as ``seat``'s action.

    Raises:
        ActionParseError: naming what could not be read and showing the notation. Whether
            the codices exist, are in hand, match the circle, etc. is checked on apply.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise ActionParseError("empty action; e.g. 'swap 2 5', 'pair GEN-02 ONE-05', 'end'")
    kind, rest = words[0].lower(), words[1:]
    try:
        if kind in ("end", "stop") and not rest:
            return Move(seat, kind)
        if kind == "discard" and rest:  # as many ids as setup_discard asks for
            return Move(seat, kind, tuple(sorted(w.upper() for w in rest)))
        if kind == "place" and len(rest) == 2:
            return Move(seat, kind, (_god(rest[0]), _slot(rest[1])))
        if kind == "haste" and len(rest) == 1:
            return Move(seat, kind, (rest[0].upper(),))
        if kind == "swap" and len(rest) == 2:
            a = _slot(rest[0])
            if rest[1].isdigit():
                b = _slot(rest[1])
                return Move(seat, "swap", (min(a, b), max(a, b)))
            return Move(seat, "trade", (a, _god(rest[1])))
        if kind == "play" and len(rest) == 1:
            return Move(seat, kind, _codex(rest[0]))
        if kind == "pair" and len(rest) == 2:
            (p, rp), (n, rn) = _codex(rest[0]), _codex(rest[1])
            return Move(seat, kind, (p, n, rp, rn))
        if kind == "keep":
            return Move(seat, kind, tuple(sorted(w.upper() for w in rest)))
        if kind == "destroy" and len(rest) == 1:
            return Move(seat, kind, (rest[0].upper(),))
    except ActionParseError as exc:
        raise ActionParseError(f"cannot read {text!r}: {exc}") from None
    if kind in NOTATION:
        raise ActionParseError(f"cannot read {text!r}: write {NOTATION[kind]}")
    raise ActionParseError(f"cannot read {text!r}: {kind!r} is not a Damocles move ('help' "
                           "at the prompt lists the moves legal now)")


#: How each move is written, by its first word (the messages for a move that cannot be read).
NOTATION: dict[str, str] = {
    "discard": "'discard ID ID' (the codices of your hand to discard)",
    "place": "'place GOD SLOT', e.g. 'place HADES 3'",
    "haste": "'haste ID', e.g. 'haste HAS-02'",
    "swap": "'swap SLOT SLOT' or 'swap SLOT GOD', e.g. 'swap 2 5', 'swap 3 NYX'",
    "stop": "'stop' alone",
    "play": "'play ID', e.g. 'play REF-01' (add * to a codex a Reflex relaxes)",
    "pair": "'pair PRODUCTION NUMBER', e.g. 'pair GEN-02 ONE-05' (add * to a codex a Reflex "
            "relaxes)",
    "keep": "'keep ID ...', the codices kept, e.g. 'keep TWO-03 GEN-07'",
    "destroy": "'destroy ID', e.g. 'destroy GEN-04'",
    "end": "'end' alone",
}
