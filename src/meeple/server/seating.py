"""Who sits where at a table: joining, leaving, opening and closing (docs/server.md,
"Tables, timers and reconnecting" and "Leaving").

:class:`Seating` is the part of :class:`meeple.server.tables.Table` that changes its seats and
its status: a person joins an open seat (the table starts when the last one is taken), a person
leaves (their seat opens again before the start; afterwards the table's ``replace`` takes it:
a bot, or the timer), and a table nobody plays any more closes (``expired``, ``abandoned``).
Every change is stored before anyone hears of it, under the table's lock, like an action.
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import TYPE_CHECKING, Any, Protocol

from meeple.server import protocol as p
from meeple.server.bots import seat_bot
from meeple.server.db import hash_token
from meeple.server.narration import departure_entry

if TYPE_CHECKING:
    import asyncio

    from meeple.engine.game import Game
    from meeple.engine.state import State
    from meeple.server.manager import TableManager


class TableError(Exception):
    """A refused request: ``code`` and ``message`` as in :class:`protocol.ProtocolError`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Listener(Protocol):
    """A connection watching a table: its ``seat`` (None: spectator), ``send(text)`` (must not
    block; it queues), and ``last_key`` (the table's memory of the last state it sent)."""

    seat: int | None
    last_key: Any

    def send(self, text: str) -> None: ...


def clean_text(text: str) -> str:
    """Chat text with control characters (except newline and tab) removed and surrounding
    space stripped; markup is kept as typed (clients show it as text)."""
    return "".join(c for c in text if c in "\n\t" or unicodedata.category(c)[0] != "C").strip()


class Seating:
    """The seat-changing half of a table (a base of :class:`~meeple.server.tables.Table`,
    which sets the attributes below and the methods it calls: ``info``, ``snapshot``,
    ``resume``, ``stop`` and the ``_broadcast_*`` ones)."""

    manager: TableManager
    id: str
    seed: int
    game: Game
    state: State
    status: str
    seats: list[dict[str, Any]]
    replace: str
    departures: list[dict[str, Any]]
    steps: list[tuple[int, str, str]]
    bots: dict[int, Any]
    listeners: set[Listener]
    lock: asyncio.Lock
    last_activity: float
    opened: dict[int, float]
    timer_seconds: float | None
    epoch: int
    deadline: float | None

    def touch(self) -> None:
        """Note that something happened at this table now (see :attr:`last_activity`)."""
        self.last_activity = self.manager.clock()

    def has_people(self) -> bool:
        """Whether a person holds a seat here."""
        return any(s["kind"] == "person" for s in self.seats)

    def attended(self) -> bool:
        """Whether a person is connected to their seat now."""
        return any(listener.seat is not None for listener in self.listeners)

    async def close(self, status: str) -> None:
        """End an unfinished table without a result (``expired``: nobody filled it;
        ``abandoned``: nobody attended it): stored, its timer and bots stopped, its
        connections sent the last ``table`` and ``state``; the manager forgets it."""
        async with self.lock:
            if self.status not in ("open", "running"):
                return
            await self.manager.db(self.manager.store.mark, self.id, status)
            self.status = status
            self.deadline = None
            self.stop()
            self._broadcast_table()
            self._broadcast_state()
        self.manager.forget(self)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None."""
        digest = hash_token(token)
        for i, s in enumerate(self.seats):
            if s["token_hash"] is not None and secrets.compare_digest(s["token_hash"], digest):
                return i
        return None

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Give a person an open seat (``seat``, or the first open one).

        Returns:
            ``(seat, token)``: the token is the seat's secret, returned only here.
        Raises:
            TableError: ``not_open`` (the table started or ended), ``bad_seat``, ``seat_taken``.
        """
        name = clean_text(name)
        if not name:
            raise TableError("bad_name", "a display name is needed")
        async with self.lock:
            if self.status != "open":
                raise TableError("not_open", f"table {self.id} is {self.status}")
            if seat is None:
                seat = next((i for i, s in enumerate(self.seats) if s["kind"] == "open"), None)
                if seat is None:
                    raise TableError("seat_taken", "no open seat")
            if not 0 <= seat < len(self.seats):
                raise TableError("bad_seat", f"seat {seat} is not a seat of this "
                                 f"{len(self.seats)}-seat table")
            if self.seats[seat]["kind"] != "open":
                raise TableError("seat_taken", f"seat {seat} is taken")
            token = secrets.token_urlsafe(32)
            start = sum(s["kind"] == "open" for s in self.seats) == 1
            ok = await self.manager.db(self.manager.store.take_seat, self.id, seat, name,
                                       hash_token(token), start)
            if not ok:
                raise TableError("seat_taken", f"seat {seat} is taken")
            self.seats[seat] = dict(kind="person", name=name, token_hash=hash_token(token))
            self.touch()
            if start:
                await self._start()
            self._broadcast_table()
            self._broadcast_state()
            self.manager.lobby_changed()
            return seat, token

    async def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves. Before the game starts their seat opens again; during
        it :attr:`replace` takes the seat (a bot, or ``timer``: each decision times out at
        once), a public log entry says so, and the seat's connections are told (``left``) and
        watch from then on. A table no person is left at ends (``abandoned``).

        Raises:
            TableError: ``not_seated`` (no person holds that seat), ``not_running`` (the game
                is over).
        """
        async with self.lock:
            if self.status not in ("open", "running"):
                raise TableError("not_running", f"table {self.id} is {self.status}")
            if self.seats[seat]["kind"] != "person":
                raise TableError("not_seated", f"no person holds seat {seat}")
            name = self.seats[seat]["name"]
            if self.status == "open":
                await self.manager.db(self.manager.store.free_seat, self.id, seat)
                self.seats[seat] = dict(kind="open", name="", token_hash=None)
            else:
                departure = dict(seat=seat, name=name, after_action=len(self.steps),
                                 replacement=self.replace)
                await self.manager.db(self.manager.store.leave_seat, self.id, departure)
                self.seats[seat] = dict(kind="bot", name=self.replace, token_hash=None)
                self.bots[seat] = seat_bot(self.replace, self.game, seat, self.seed,
                                           self.manager.limits)
                self.departures.append(departure)
                self._broadcast_log([(None, departure_entry(
                    self.state.length(), seat, name, self.replace))])
            self.touch()
            info = p.dump(p.Left(table=self.info()))
            for listener in list(self.listeners):
                if listener.seat == seat:
                    listener.send(info)
                    listener.seat = None
                    listener.last_key = None
                    self.snapshot(listener, with_table=False)
            self._broadcast_table()
            self._broadcast_state()
            self.manager.lobby_changed()
            empty = not self.has_people()
            if not empty and self.status == "running":
                self.resume()
        if empty:
            await self.close("abandoned")

    async def _start(self) -> None:
        """Mark running (the caller stored it), start the timer and the bots."""
        self.status = "running"
        now = self.manager.clock()
        self.opened = {s: now for s in self.state.current_players()}
        if self.timer_seconds:
            self.epoch += 1
            self.deadline = self.manager.clock() + self.timer_seconds
            await self.manager.write("set_deadline", self.id,
                                  (self.epoch, self.deadline))
        self.resume()
