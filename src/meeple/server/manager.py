"""The tables one server process owns: creating them, finding them, rebuilding them at start.

On start, :class:`TableManager` replays every unfinished table's actions from its seed, checks
the stored digest (a table whose replay differs is marked ``broken`` and never served), and
re-arms its deadline and its bots. Database calls run in a worker thread (one for SQLite, whose
writes are serial anyway; four for PostgreSQL); bots think in their own threads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from meeple.bots import make_bot
from meeple.engine.registry import load_game
from meeple.server import protocol as p
from meeple.server.db import Store, StoredTable
from meeple.server.tables import Table, TableError

log = logging.getLogger("meeple.server")


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
        bot_threads: threads bots think in (off the event loop).
    """

    def __init__(self, store: Store, records_dir: Path | None = None,
                 clock: Callable[[], float] = time.time, bot_threads: int = 2) -> None:
        self.store = store
        self.records_dir = records_dir
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="meeple-bot")
        # SQLite has one writer: one thread keeps its commits in order without lock waits.
        self.db_pool = ThreadPoolExecutor(1 if store.is_sqlite else 4,
                                          thread_name_prefix="meeple-db")
        self._tasks: set[asyncio.Task] = set()
        self._writes: list[tuple[str, tuple[Any, ...], asyncio.Future]] = []
        self._write_lock = threading.Lock()
        self._flushing = False

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
        """Run ``coro`` as a task kept alive until done (for timer and bot callbacks)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self) -> None:
        """Rebuild every open and running table from the database, re-arm timers, start bots.
        A table whose replay fails is marked ``broken`` and logged, never served."""
        for table_id in await self.db(self.store.table_ids, ["open", "running"]):
            stored = await self.db(self.store.load_table, table_id)
            try:
                table = Table(self, stored)
            except Exception:
                log.exception("table %s cannot be rebuilt; marked broken", table_id)
                await self.db(self.store.mark, table_id, "broken")
                continue
            self.tables[table_id] = table
            table.resume()

    async def stop(self) -> None:
        """Stop timers and tasks, wait for the threads, close the database."""
        for table in self.tables.values():
            table.stop()
        for task in list(self._tasks):
            task.cancel()
        self.bot_pool.shutdown(wait=True, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.store.dispose()

    async def create(self, request: p.CreateTable) -> Table:
        """A new table from ``request``; it starts at once if every seat is a bot.

        Raises:
            MeepleError: an unknown game, variant, bot or a bad parameter or seat count.
            TableError: ``bad_seats`` (more seat entries than seats).
        """
        game = load_game(request.game, request.variant, request.players, **request.params)
        if len(request.seats) > game.players:
            raise TableError("bad_seats", f"{len(request.seats)} seat entries for a "
                             f"{game.players}-seat game")
        seats = []
        for i in range(game.players):
            bot = request.seats[i].bot if i < len(request.seats) else None
            if bot is not None:
                make_bot(bot, game, i, 0)  # raises ParameterError naming the bots
            seats.append(dict(seat=i, kind="open" if bot is None else "bot", name=bot or "",
                              token_hash=None))
        all_bots = all(s["kind"] == "bot" for s in seats)
        row = dict(id=new_table_id(), game=game.name, variant=game.variant,
                   players=game.players, params=dict(game.params),
                   seed=secrets.randbits(62), timer_seconds=request.timer_seconds,
                   status="running" if all_bots else "open", created_at=self.clock(),
                   record=None, rematch=None)
        await self.db(self.store.create_table, row, seats)
        table = Table(self, StoredTable(row, seats))
        self.tables[table.id] = table
        if all_bots:
            async with table.lock:
                await table._start()
        return table

    async def rematch(self, table: Table) -> Table:
        """The rematch of a finished ``table``: a new table of the same game, variant, seat
        count, parameters, timer and bots, with the people's seats open; made once (asking
        again returns the same table). Its listeners get a ``rematch`` message.

        Raises:
            TableError: ``not_finished``.
        """
        async with table.lock:
            if table.status != "finished":
                raise TableError("not_finished", "a rematch follows a finished game")
            if table.rematch is not None:
                return await self.get(table.rematch)
            game = table.game
            new = await self.create(p.CreateTable(
                game=game.name, variant=game.variant, players=game.players,
                params=dict(game.params), timer_seconds=table.timer_seconds,
                seats=[p.SeatRequest(bot=s["name"] if s["kind"] == "bot" else None)
                       for s in table.seats]))
            await self.db(self.store.set_rematch, table.id, new.id)
            table.rematch = new.id
            text = p.dump(p.Rematch(table=new.info()))
            for listener in list(table.listeners):
                listener.send(text)
            return new

    async def get(self, table_id: str) -> Table:
        """The table ``table_id`` (a finished one is loaded from the database on demand).

        Raises:
            TableError: ``unknown_table``.
        """
        table = self.tables.get(table_id)
        if table is None:
            stored = await self.db(self.store.load_table, table_id)
            if stored is None or stored.row["status"] not in ("finished",):
                raise TableError("unknown_table", f"no table {table_id!r}")
            table = self.tables[table_id] = Table(self, stored)
        return table

    def finished(self, table: Table, record: dict[str, Any]) -> None:
        """A table's game ended (its record is committed): also write it to ``records_dir``."""
        if self.records_dir is not None:
            try:
                self.records_dir.mkdir(parents=True, exist_ok=True)
                (self.records_dir / f"{table.id}.json").write_text(
                    json.dumps(record, indent=1) + "\n")
            except OSError:
                log.exception("table %s: cannot write its record file", table.id)


def _settle(future: asyncio.Future, error: BaseException | None) -> None:
    if not future.done():
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
