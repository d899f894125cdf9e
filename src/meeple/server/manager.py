"""The tables one server process owns: creating them within the server's limits, finding them,
rebuilding them after a restart, and closing the ones nobody plays.

On start, :class:`TableManager` lists the unfinished tables and rebuilds them **in the
background**, one after another, while the server already answers (so start-up does not depend
on how many tables the database holds: it logs how many it rebuilds and when it is done); a
request for a table not rebuilt yet rebuilds that one first. Each rebuild replays the table's
actions from its seed and checks the stored digest (a table whose replay differs is marked
``broken`` and never served), then re-arms its deadline and its bots. A sweep closes open tables
nobody filled (``expired``) and running ones nobody attends (``abandoned``). Database calls run
in a worker thread (one for SQLite, whose writes are serial anyway; four for PostgreSQL); bots
think in :class:`~meeple.server.bots.BotPool`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.server import protocol as p
from meeple.server.bots import BotPool, check_bot_name, seat_bot
from meeple.server.content import ContentCatalog
from meeple.server.db import Store, StoredTable
from meeple.server.limits import Limits
from meeple.server.tables import Table, TableError, default_replacement

log = logging.getLogger("meeple.server")

#: Seconds between two sweeps for tables to close.
SWEEP_SECONDS = 30.0
#: Game specs kept for reuse (tables of the same game, variant, seat count and parameters
#: share one: a spec is immutable, and loading one can take 20 ms).
SPECS_KEPT = 64
#: Tables read from the database at once by the background rebuild.
REBUILD_BATCH = 100


def new_table_id() -> str:
    """A fresh table id: 11 URL-safe characters (64 random bits, ``secrets.token_urlsafe``)
    that never begin with ``-``, so a command line (``meeple export URL ID``) reads the id as
    an argument, not as an option (one id in 64 did)."""
    while True:
        table_id = secrets.token_urlsafe(8)
        if not table_id.startswith("-"):
            return table_id


class TableManager:
    """Every table this process owns, the database runner and the bots' threads.

    Args:
        store: the database.
        records_dir: a folder to also write each finished game's record to (``TABLE.json``),
            or None.
        clock: Unix time in seconds (``time.time``).
        bot_threads: threads searching bots think in (None: ``limits.bot_threads``).
        limits: the server's limits (:class:`~meeple.server.limits.Limits`; defaults).
        content: the content files tables may use (None: only the packaged ones).
    """

    def __init__(self, store: Store, records_dir: Path | None = None,
                 clock: Callable[[], float] = time.time, bot_threads: int | None = None,
                 limits: Limits | None = None, content: ContentCatalog | None = None) -> None:
        self.store = store
        self.records_dir = records_dir
        self.clock = clock
        self.limits = limits or Limits()
        self.content = content or ContentCatalog(None, self.limits)
        self.tables: dict[str, Table] = {}
        self.bots = BotPool(bot_threads or self.limits.bot_threads)
        # SQLite has one writer: one thread keeps its commits in order without lock waits.
        self.db_pool = ThreadPoolExecutor(1 if store.is_sqlite else 4,
                                          thread_name_prefix="meeple-db")
        self._tasks: set[asyncio.Task] = set()
        self.stopping = False
        #: Set when the server shuts down: lobby streams end (:meth:`end_streams`).
        self.closing = False
        self._loop = asyncio.get_running_loop()
        self._writes: list[tuple[str, tuple[Any, ...], asyncio.Future]] = []
        self._write_lock = threading.Lock()
        self._flushing = False
        #: Tables listed at start and not rebuilt yet, each with the task rebuilding it once
        #: asked for.
        self.unbuilt: dict[str, asyncio.Task | None] = {}
        #: Whether the background rebuild has finished (``GET /api/health`` says so).
        self.ready = asyncio.Event()
        #: Set whenever the lobby's list changes (a table made, joined, started, closed, a
        #: person connected or gone): the lobby streams wait on it (:meth:`lobby_changed`).
        self.lobby_version = 0
        self._lobby_event = asyncio.Event()
        self._specs: OrderedDict[tuple[Any, ...], Game] = OrderedDict()
        #: Games finished since start (the lobby's *Recent games* refresh when it grows).
        self.finished_count = 0

    # ------------------------------------------------------------------ runners
    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking :class:`Store` call in the database thread."""
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    async def write(self, name: str, *args: Any) -> None:
        """Commit one write (``name`` in :data:`Store.BATCHABLE`) with group commit: writes
        queued while a commit runs go together in the next transaction, each in its own
        savepoint. Returns once it is committed.

        Raises:
            Whatever the write (or the commit) raised; nothing of it was written then.
        """
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._write_lock:
            self._writes.append((name, args, future))
            start = not self._flushing
            self._flushing = True
        if start:
            loop.run_in_executor(self.db_pool, self._flush_writes, loop)
        await future

    def _flush_writes(self, loop: asyncio.AbstractEventLoop) -> None:
        """The database thread's loop: commit everything queued, batch after batch."""
        while True:
            with self._write_lock:
                batch, self._writes = self._writes, []
                if not batch:
                    self._flushing = False
                    return
            try:
                results: list[BaseException | None] = self.store.write_batch(
                    [(name, args) for name, args, _ in batch])
            except Exception as exc:
                results = [exc] * len(batch)
            for (_, _, future), error in zip(batch, results, strict=True):
                loop.call_soon_threadsafe(_settle, future, error)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` as a task kept alive until done (for timer and bot callbacks); once
        the manager is stopping, nothing new starts."""
        if self.stopping:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def end_streams(self) -> None:
        """The server is shutting down: every lobby stream ends at its next wake-up, which
        this brings (thread-safe: a signal handler may call it)."""
        self.closing = True
        self._loop.call_soon_threadsafe(self.lobby_changed)

    def lobby_changed(self) -> None:
        """Wake the lobby streams: the list of open and running tables changed."""
        self.lobby_version += 1
        event, self._lobby_event = self._lobby_event, asyncio.Event()
        event.set()

    async def lobby_wait(self, version: int, timeout: float) -> int:
        """Wait until the lobby's version is past ``version`` (or ``timeout`` seconds);
        the version now."""
        if self.lobby_version == version:
            event = self._lobby_event
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass
        return self.lobby_version

    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """List the open and running tables and start rebuilding them in the background
        (:meth:`rebuild`); start the sweep that closes idle tables. Returns at once."""
        ids = await self.db(self.store.table_ids, ["open", "running"])
        self.unbuilt = dict.fromkeys(ids)
        if ids:
            log.info("rebuilding %d open and running tables in the background; the server "
                     "answers meanwhile", len(ids))
        self.spawn(self._rebuild_all(ids))
        self.spawn(self._sweeper())

    async def _rebuild_all(self, ids: list[str]) -> None:
        began = time.monotonic()
        for start in range(0, len(ids), REBUILD_BATCH):
            batch = [i for i in ids[start:start + REBUILD_BATCH]
                     if i in self.unbuilt and self.unbuilt[i] is None]
            for stored in await self.db(self.store.load_tables, batch):
                if self.unbuilt.get(stored.row["id"], False) is None:  # not asked for meanwhile
                    await self._build(stored)
                    self.unbuilt.pop(stored.row["id"], None)
            await asyncio.sleep(0)  # let requests and timers in between two batches
        for task in list(self.unbuilt.values()):  # those asked for meanwhile
            if task is not None:
                await asyncio.shield(task)
        self.ready.set()
        if ids:
            log.info("rebuilt %d tables in %.1f s", len(ids), time.monotonic() - began)

    async def rebuild(self, table_id: str) -> Table | None:
        """Rebuild one listed table now, before its turn in the background (once; a second
        caller waits for the first). None when it could not be (see :meth:`_build`)."""
        if table_id not in self.unbuilt:
            return self.tables.get(table_id)
        task = self.unbuilt[table_id]
        if task is None:
            task = self.unbuilt[table_id] = asyncio.get_running_loop().create_task(
                self._rebuild_one(table_id))
        try:
            return await asyncio.shield(task)
        finally:
            self.unbuilt.pop(table_id, None)

    async def _rebuild_one(self, table_id: str) -> Table | None:
        stored = await self.db(self.store.load_table, table_id)
        return None if stored is None else await self._build(stored)

    async def _build(self, stored: StoredTable) -> Table | None:
        """A stored open or running table, live again: an open table older than
        ``open_table_seconds`` is closed as ``expired`` instead, and a table whose replay fails
        is marked ``broken`` (logged); both give None."""
        row = stored.row
        table_id = row["id"]
        if row["status"] == "open" and row["created_at"] < self.clock() - \
                self.limits.open_table_seconds:
            await self.db(self.store.mark, table_id, "expired")
            return None
        try:
            table = Table(self, stored)
        except Exception:
            log.exception("table %s cannot be rebuilt; marked broken", table_id)
            await self.db(self.store.mark, table_id, "broken")
            return None
        self.tables[table_id] = table
        table.resume()
        self.lobby_changed()
        return table

    async def stop(self) -> None:
        """Stop timers and tasks, wait for the threads, close the database."""
        self.stopping = True
        for table in self.tables.values():
            table.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in self.unbuilt.values():
            if task is not None:
                task.cancel()
        self.bots.shutdown()
        self.db_pool.shutdown(wait=True)
        self.store.dispose()

    # ------------------------------------------------------------------ tables
    def spec(self, name: str, variant: str | None, players: int | None,
             params: dict[str, Any]) -> Game:
        """``load_game(name, variant, players, **params)`` with ``params`` naming content by
        id (:meth:`ContentCatalog.resolve`), one shared spec per distinct request (the last
        :data:`SPECS_KEPT`).

        Raises:
            MeepleError: as ``load_game``, and an id the content catalog does not offer.
        """
        resolved = self.content.resolve(name, params)
        try:
            key: tuple[Any, ...] | None = (name, variant, players,
                                           tuple(sorted(resolved.items())))
            hash(key)
        except TypeError:  # an unhashable value: load_game will say what is wrong with it
            key = None
        game = None if key is None else self._specs.get(key)
        if game is None:
            game = load_game(name, variant, players, **resolved)
            if key is not None:
                self._specs[key] = game
                while len(self._specs) > SPECS_KEPT:
                    self._specs.popitem(last=False)
        elif key is not None:
            self._specs.move_to_end(key)
        return game

    def live(self) -> list[Table]:
        """The open and running tables in memory, open ones first, newest first."""
        tables = [t for t in self.tables.values() if t.status in ("open", "running")]
        tables.sort(key=lambda t: (t.status != "open", -t.created_at))
        return tables

    async def create(self, request: p.CreateTable, client: str | None = None,
                     from_web: bool = True) -> Table:
        """A new table from ``request``; it starts at once if every seat is a bot.

        Args:
            client: the requesting client's address (None: an in-process caller), counted
                against ``open_per_client``.
            from_web: check the request as a client's: bots within the server's budgets
                (:func:`~meeple.server.bots.check_bot_name`), file parameters as content ids
                (:meth:`ContentCatalog.resolve`). A rematch (False) repeats a table's own.
        Raises:
            MeepleError: an unknown game, variant, bot, content or a bad parameter or seat
                count.
            TableError: ``bad_seats`` (more seat entries than seats), ``bad_timer`` (outside
                the server's timer limits), ``too_many_tables`` (the server's or this
                client's limit of tables waiting for people, or of tables at all).
        """
        limits = self.limits
        timer = request.timer_seconds
        if timer is not None and not (limits.min_timer_seconds <= timer
                                      <= limits.max_timer_seconds):
            raise TableError("bad_timer", f"a decision timer is {limits.min_timer_seconds:g} to "
                             f"{limits.max_timer_seconds:g} seconds on this server, or none")
        public = dict(request.params)
        game = self.spec(request.game, request.variant, request.players, public)
        if len(request.seats) > game.players:
            raise TableError("bad_seats", f"{len(request.seats)} seat entries for a "
                             f"{game.players}-seat game")
        seats = []
        for i in range(game.players):
            bot = request.seats[i].bot if i < len(request.seats) else None
            if bot is not None:
                if from_web:
                    check_bot_name(bot, game, limits)
                seat_bot(bot, game, i, 0, limits)  # raises ParameterError naming the bots
            seats.append(dict(seat=i, kind="open" if bot is None else "bot", name=bot or "",
                              token_hash=None))
        replace = request.replace or default_replacement(game)
        if from_web:
            check_bot_name(replace, game, limits)
        seat_bot(replace, game, 0, 0, limits)
        all_bots = all(s["kind"] == "bot" for s in seats)
        self._check_room(client, opening=not all_bots)
        row = dict(id=new_table_id(), game=game.name, variant=game.variant,
                   players=game.players, params=self._public_params(game, public),
                   seed=secrets.randbits(62), timer_seconds=timer,
                   status="running" if all_bots else "open", created_at=self.clock(),
                   record=None, rematch=None)
        await self.db(self.store.create_table, row, seats, replace)
        table = Table(self, StoredTable(row, seats, replace=replace), creator=client)
        self.tables[table.id] = table
        if all_bots:
            async with table.lock:
                await table._start()
        self.lobby_changed()
        return table

    def _public_params(self, game: Any, public: dict[str, Any]) -> dict[str, Any]:
        """The spec's resolved parameters with each file parameter as the request named it
        (a content id, or "" for the packaged file): what is stored and shown."""
        out = dict(game.params)
        for name in self.content.offered(game.name):
            out[name] = public.get(name) or ""
        return out

    def _check_room(self, client: str | None, opening: bool) -> None:
        limits = self.limits
        live = self.live()
        if len(live) + len(self.unbuilt) >= limits.live_tables:
            raise TableError("too_many_tables", "the server is full; try again later")
        if not opening:
            return
        waiting = [t for t in live if t.status == "open"]
        if len(waiting) >= limits.open_tables:
            raise TableError("too_many_tables", f"{len(waiting)} tables already wait for "
                             "players: join one, or try again later")
        if client is not None and sum(t.creator == client for t in waiting) \
                >= limits.open_per_client:
            raise TableError("too_many_tables", f"you have {limits.open_per_client} tables "
                             "waiting for players already: fill or leave them first")

    async def rematch(self, table: Table) -> Table:
        """The rematch of a finished ``table``: a new table of the same game, variant, seat
        count, parameters, timer and bots, with the people's seats open; made once (asking
        again returns the same table). Its listeners get a ``rematch`` message.

        Raises:
            TableError: ``not_finished``; ``too_many_tables`` as :meth:`create`.
        """
        async with table.lock:
            if table.status != "finished":
                raise TableError("not_finished", "a rematch follows a finished game")
            if table.rematch is not None:
                return await self.get(table.rematch)
            game = table.game
            new = await self.create(p.CreateTable(
                game=game.name, variant=game.variant, players=game.players,
                params=dict(table.params), timer_seconds=table.timer_seconds,
                replace=table.replace,
                seats=[p.SeatRequest(bot=s["name"] if s["kind"] == "bot" and not any(
                    d["seat"] == i for d in table.departures) else None)
                       for i, s in enumerate(table.seats)]), from_web=False)
            new.rematch_of = table.id
            await self.db(self.store.set_rematch, table.id, new.id)
            table.rematch = new.id
            text = p.dump(p.Rematch(table=new.info()))
            for listener in list(table.listeners):
                listener.send(text)
            return new

    async def get(self, table_id: str) -> Table:
        """The table ``table_id`` (one not rebuilt yet is rebuilt first; a finished one is
        loaded from the database on demand).

        Raises:
            TableError: ``unknown_table``.
        """
        table = self.tables.get(table_id)
        if table is None and table_id in self.unbuilt:
            table = await self.rebuild(table_id)
        if table is None:
            stored = await self.db(self.store.load_table, table_id)
            if stored is None or stored.row["status"] != "finished":
                raise TableError("unknown_table", f"no table {table_id[:40]!r}")
            table = self.tables.get(table_id) or Table(self, stored)
            self.tables[table_id] = table
        return table

    def finished(self, table: Table, record: dict[str, Any]) -> None:
        """A table's game ended (its record is committed): also write it to ``records_dir``."""
        self.bots.forget(table.id)
        self.finished_count += 1
        self.lobby_changed()
        if self.records_dir is not None:
            try:
                self.records_dir.mkdir(parents=True, exist_ok=True)
                (self.records_dir / f"{table.id}.json").write_text(
                    json.dumps(record, indent=1) + "\n")
            except OSError:
                log.exception("table %s: cannot write its record file", table.id)

    # ------------------------------------------------------------------ closing idle tables
    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep for idle tables failed")

    async def sweep(self) -> list[str]:
        """Close the tables nobody plays: an open table that nobody filled within
        ``open_table_seconds`` of its creation (``expired``), and a running table with a
        person's seat where no person is connected and nothing happened for
        ``idle_table_seconds`` (``abandoned``). Their connections are told; they leave
        memory. Returns the ids closed."""
        now = self.clock()
        closed = []
        for table in list(self.tables.values()):
            if table.status == "open" and now - table.created_at > self.limits.open_table_seconds:
                status = "expired"
            elif table.status == "running" and table.has_people() and not table.attended() \
                    and now - table.last_activity > self.limits.idle_table_seconds:
                status = "abandoned"
            else:
                continue
            await table.close(status)
            closed.append(table.id)
        if closed:
            log.info("closed %d idle tables", len(closed))
        return closed

    def forget(self, table: Table) -> None:
        """Drop a closed table from memory (its rows stay in the database)."""
        self.bots.forget(table.id)
        self.tables.pop(table.id, None)
        self.lobby_changed()


def _settle(future: asyncio.Future, error: BaseException | None) -> None:
    if not future.done():
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
