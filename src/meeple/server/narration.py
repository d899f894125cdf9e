"""A table's log: one ordered list of what happened at the table, in words, that each connection
receives as ``log`` frames and gets whole again on every (re)connection (docs/server.md, "The
log").

Its entries come from what the connection may know, and only from that (the leak audit
rebuilds them from views, ``tests/server/test_leak_audit.py``):

* **the game's own narration**: the new entries of the public view's ``events`` after each
  step (a game that narrates; Four Gods' board writes its rounds from the view's history);
* **your choice** at a simultaneous decision, to you alone ("You chose atk:B", secret from the
  others until everyone has chosen);
* **timeouts**: everyone reads that time ran out for a seat; the seat alone reads what the timer
  played for it;
* **departures** (a person left; who plays the seat now) and the **end** of the game.

A game that names seats with the engine's default names (``Seat 2``, and a market card's
``seat 2 B3``) has those names written as ``{seat:2}`` in the entries' text, which a client
shows as the seat's person and colour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from meeple.engine.game import Game
from meeple.server import protocol as p

#: How the engine's default seat names read inside a game's narration.
SEAT_REF = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_refs(game: Game, text: str) -> str:
    """``text`` with each default seat name (``Seat 2``, ``seat 2``) of a seat of ``game``
    written ``{seat:2}``; a game with names of its own (Four Gods' colours) is left as it is."""
    if tuple(game.seat_names()) != tuple(f"Seat {i}" for i in range(game.players)):
        return text
    return SEAT_REF.sub(lambda m: f"{{seat:{m.group(1)}}}" if int(m.group(1)) < game.players
                        else m.group(0), text)


def new_events(before: Sequence[Any] | None, after: Sequence[Any] | None) -> list[Any]:
    """The entries ``after`` added to ``before`` (two consecutive views' ``events``, each the
    last few of a growing list): what follows the longest overlap of the end of ``before`` with
    the start of ``after``."""
    old, new = list(before or ()), list(after or ())
    overlap = min(len(old), len(new))
    while overlap and old[len(old) - overlap:] != new[:overlap]:
        overlap -= 1
    return new[overlap:]


class TableLog:
    """A table's log entries, each public or for one seat, oldest first."""

    def __init__(self) -> None:
        self.entries: list[tuple[int | None, p.LogEntry]] = []

    def add(self, entry: p.LogEntry, to: int | None = None) -> None:
        """Append ``entry`` for everyone (``to`` None) or for seat ``to`` alone."""
        self.entries.append((to, entry))

    def visible_to(self, seat: int | None, start: int = 0) -> list[p.LogEntry]:
        """The entries from index ``start`` on that ``seat`` (None: a spectator) may read."""
        return [e for to, e in self.entries[start:] if to is None or to == seat]


def step_entries(game: Game, step: int, seat: int, text: str, source: str,
                 simultaneous: bool, before: Sequence[Any] | None,
                 after: Sequence[Any] | None, over: bool
                 ) -> list[tuple[int | None, p.LogEntry]]:
    """The log entries of one accepted action.

    Args:
        step: the game's length (``State.length()``) before the action.
        seat, text, source: who acted, the action's canonical text, and how it was decided
            (``person``, ``bot``, ``timeout``).
        simultaneous: the seat acted at a decision several seats take at once.
        before, after: the public view's ``events`` before and after the action.
        over: the action ended the game.
    Returns:
        ``(seat it is for, or None for everyone; entry)`` pairs, in order.
    """
    out: list[tuple[int | None, p.LogEntry]] = []
    if source == "timeout":
        out.append((None, p.LogEntry(kind="timeout", seat=seat, step=step,
                                     text=f"Time ran out for {{seat:{seat}}}.")))
        out.append((seat, p.LogEntry(kind="timeout", seat=seat, step=step,
                                     text=f"Time ran out: the timer played {text} for you.")))
    elif simultaneous:
        out.append((seat, p.LogEntry(kind="you", seat=seat, step=step,
                                     text=f"You chose {text} (secret until everyone has "
                                          "chosen).")))
    for event in new_events(before, after):
        when, who, words = (list(event) + [None, None, None])[:3]
        out.append((None, p.LogEntry(kind="event", seat=who if isinstance(who, int)
                                     and 0 <= who < game.players else None,
                                     step=step, when=when if isinstance(when, int) else None,
                                     text=seat_refs(game, str(words)))))
    if over:
        out.append((None, p.LogEntry(kind="end", seat=None, step=step + 1,
                                     text="Game over.")))
    return out


def departure_entry(step: int, seat: int, name: str, replacement: str) -> p.LogEntry:
    """The public entry of person ``name`` leaving ``seat``; ``replacement`` plays it now (a
    bot's name, or ``timer``: every decision times out at once)."""
    now = "the timer plays for them now" if replacement == "timer" else \
        f"the {replacement} bot plays for them now"
    return p.LogEntry(kind="seat", seat=seat, step=step, text=f"{name} left; {now}.")
