"""Epoch Ellipse actions: one value type, one canonical text per kind.

================ ================================ ==========================================
kind             canonical text                    when (step)
================ ================================ ==========================================
pick             ``pick 2``                        wake up: take survivor pile 2 (EPE-38)
trade            ``trade 1 bullet tinned-ham``     plan: offer seat 1 a BULLET for a HAM
accept/decline   ``accept`` / ``decline``          plan: the partner answers (EPE-7)
use              ``use first-aid trash``           pay with a card's mode (points, EPE-9);
                                                   in plan also a card that draws (``draw``)
use              ``use ms 2 discard``              ... with seat 2's Mournful card (EPE-6)
treat            ``treat cracked-rib``             plan: trash a catastrophe from hand
done             ``done``                          end a giving / treating / paying window
pass             ``pass``                          plan: no more trades or treatment
new              ``new``                           explore: a NEW LOCATION (3A)
explore          ``explore 3 6``                   explore: location 3, 6 cards (3B, EPE-15);
                                                   ``explore 3 roll`` under explore_count=d6
skip             ``skip``                          explore: nothing can be explored (EPE-12)
redraw           ``redraw justice-lin``            3B: put the exploration back and redraw
resolve          ``resolve``                       3B: resolve the flipped cards
suffer           ``suffer``                        take the catastrophe into the discard pile
stabilize        ``stabilize first-aid discard``   3G: medical -> a catastrophe from discard
                                                   to deck (EPE-30)
give             ``give bullet`` / ``give x ham``  3D: a hand (or exploration ``x``) salvage
                                                   card to the rescued survivor
return           ``return bullet``                 3E: a card over the hand limit back
charm            ``charm lucky-coin``              play a CHARM from hand (EPE-25), or
                                                   ``charm ms 2``: seat 2's Mournful charm
eat              ``eat tinned-ham trash``          hunger: pay 1 food (or ``eat ms 2 trash``)
starve           ``starve``                        hunger: take a catastrophe instead
================ ================================ ==========================================

Cards are written by name in lower case with hyphens (``tinned-ham``); copies of a card are
interchangeable, so one action stands for all of them. Locations are numbered from 1 in the
order they came into play (1 is the Graveyard); survivor piles from 1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from meeple.engine.action import KindAction
from meeple.engine.errors import ActionParseError

BARE = ("accept", "decline", "done", "pass", "new", "skip", "resolve", "suffer", "starve")
#: Kinds whose arguments are (card type, mode) or ("ms", seat, mode).
PAYING = ("use", "stabilize", "eat")


def slug(name: str) -> str:
    """``TINNED HAM`` -> ``tinned-ham``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class Move(KindAction):
    """One Epoch Ellipse action of ``seat``. Arguments (internal form): cards as card type ids
    (indexes into the game's cards); ``use``/``stabilize``/``eat``: (type, mode) or ("ms",
    seat, mode); ``trade``: (partner, given type, received type); ``explore``: (location
    position 0-based, count); ``pick``: (pile 0-based,); ``give``: (type, from exploration
    bool); ``treat``/``return``/``charm``/``redraw``: (type,). The text needs card names, so
    it is given at construction (:func:`make_move`)."""

    __slots__ = ()


def make_move(seat: int, kind: str, names: tuple[str, ...], args: tuple[Any, ...] = ()
              ) -> Move:
    """The :class:`Move` with its canonical text; ``names`` are the card names by type id."""
    words = [kind]
    if kind == "charm" and args[0] == "ms":
        words += ["ms", str(args[1])]
    elif kind in PAYING:
        if args[0] == "ms":
            words += ["ms", str(args[1]), args[2]]
        else:
            words += [slug(names[args[0]]), args[1]]
    elif kind == "trade":
        words += [str(args[0]), slug(names[args[1]]), slug(names[args[2]])]
    elif kind == "explore":  # a count of 0 means a die roll (explore_count=d6)
        words += [str(args[0] + 1), str(args[1]) if args[1] else "roll"]
    elif kind == "pick":
        words.append(str(args[0] + 1))
    elif kind == "give":
        words += (["x"] if args[1] else []) + [slug(names[args[0]])]
    elif args:
        words.append(slug(names[args[0]]))
    return Move(seat, kind, args, " ".join(words))


def parse_move(text: str, seat: int, names: tuple[str, ...], by_slug: Mapping[str, int]
               ) -> Move:
    """Read ``text`` (notation in the module docstring) as ``seat``'s action.

    Args:
        names: card names by type id; by_slug: ``slug(name)`` -> type id.
    Raises:
        ActionParseError: naming what could not be read.
    """
    words = text.strip().lower().split()
    if not words:
        raise ActionParseError("empty action; e.g. 'explore 2 3', 'use bullet trash', 'pass'")
    kind, rest = words[0], words[1:]

    def card(word: str) -> int:
        key = slug(word)
        if key not in by_slug:
            raise ActionParseError(f"{word!r} is not a card of this game (e.g. tinned-ham)")
        return by_slug[key]

    def number(word: str) -> int:
        if not word.isdigit():
            raise ActionParseError(f"{word!r} is not a number")
        return int(word)

    def mode(word: str) -> str:
        if word not in ("discard", "trash"):
            raise ActionParseError(f"{word!r} is not a mode (discard or trash)")
        return word

    try:
        if kind in BARE and not rest:
            return make_move(seat, kind, names)
        if kind in PAYING and len(rest) == 3 and rest[0] == "ms":
            return make_move(seat, kind, names, ("ms", number(rest[1]), mode(rest[2])))
        if kind in PAYING and len(rest) == 2:
            return make_move(seat, kind, names, (card(rest[0]), mode(rest[1])))
        if kind == "trade" and len(rest) == 3:
            return make_move(seat, kind, names, (number(rest[0]), card(rest[1]), card(rest[2])))
        if kind == "explore" and len(rest) == 2:
            where = number(rest[0])
            if where < 1:
                raise ActionParseError("locations are numbered from 1")
            count = 0 if rest[1] == "roll" else number(rest[1])
            return make_move(seat, kind, names, (where - 1, count))
        if kind == "pick" and len(rest) == 1:
            pile = number(rest[0])
            if pile < 1:
                raise ActionParseError("survivor piles are numbered from 1")
            return make_move(seat, kind, names, (pile - 1,))
        if kind == "give" and len(rest) in (1, 2):
            if len(rest) == 2 and rest[0] != "x":
                raise ActionParseError("write 'give CARD' or 'give x CARD' (from the exploration)")
            return make_move(seat, kind, names, (card(rest[-1]), len(rest) == 2))
        if kind == "charm" and len(rest) == 2 and rest[0] == "ms":
            return make_move(seat, kind, names, ("ms", number(rest[1])))
        if kind in ("treat", "return", "charm", "redraw") and len(rest) == 1:
            return make_move(seat, kind, names, (card(rest[0]),))
    except ActionParseError as exc:
        raise ActionParseError(f"cannot read {text!r}: {exc}") from None
    raise ActionParseError(
        f"cannot read {text!r}: write e.g. 'new', 'explore 2 4', 'use bullet trash', "
        "'suffer', 'trade 1 bullet tinned-ham', 'accept', 'treat cracked-rib', 'give x bullet', "
        "'return bullet', 'eat tinned-ham trash', 'starve', 'pick 1', 'pass' or 'done'")
