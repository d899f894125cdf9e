"""Replays: a finished game, step by step, from any seat's perspective or the spectator's.

:func:`frames` turns a :class:`~meeple.engine.record.Record` into what the replay page shows
for one perspective P (a seat, or None for the spectator): the view ``State.view(P)`` after
0, 1, ..., n steps, each step's actions (who did what; a simultaneous decision played as one
joint step lists every seat's action), and the talk P could read, each message placed at the
step it was said after.

:func:`add_replay_routes` adds the endpoints and pages to the server app:

* ``GET /api/tables/{id}/replay?seat=P`` -- a finished server table (404 ``unknown_table``
  for an unknown table or one not finished). **Privacy**: once the game is over, hidden
  information is no longer secret, so any perspective may be asked for by anyone; private
  talk stays private: a message is included only if P could read it *and* the caller sent or
  received it, the caller's seat being named by its token (``Authorization: Bearer TOKEN``,
  as ``GET /api/tables/{id}/record`` does); without a token only public talk.
* ``GET /api/recent?limit=N`` -- the newest finished tables (for the lobby's *Recent games*).
* ``GET /api/replays/{key}?seat=P`` and ``GET /api/replays/{key}/board`` -- a record loaded by
  ``meeple replay FILE --web`` (its owner has the file, so all the talk P could read is shown).
* pages ``/replay/{id}`` and ``/replay/local/{key}`` (``static/replay.html``).

Frames are computed once per (game, perspective) and kept in a bounded cache.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.engine.errors import MeepleError
from meeple.engine.game import Game
from meeple.engine.record import Record, initial_state, replay
from meeple.engine.registry import load_game
from meeple.engine.state import State
from meeple.engine.talk import Message

#: Perspectives whose frames are kept (each holds every view of one game).
CACHE_SIZE = 48
#: Most finished tables ``GET /api/recent`` returns.
MAX_RECENT = 50


class ReplayError(Exception):
    """A record that cannot be replayed (an unknown game, an illegal or malformed step)."""


class BadSeat(ReplayError):
    """A perspective that is not a seat of the game."""


def _talk_frames(record: Record, lengths: list[int],
                 after: list[int] | None) -> list[int]:
    """The frame (steps applied) at which each of ``record.talk`` was said: ``after`` when
    known (the server stores it); else the first frame whose ``State.length()`` reached the
    message's ``step`` (talk is stamped with the game's length, e.g. the round)."""
    if after is not None:
        return [min(max(int(a), 0), len(lengths) - 1) for a in after]
    out = []
    for message in record.talk:
        target = int(message.get("step", 0))
        frame = next((i for i, length in enumerate(lengths) if length >= target),
                     len(lengths) - 1)
        out.append(frame)
    return out


def frames(record: Record, seat: int | None, after: list[int] | None = None) -> dict[str, Any]:
    """Every position of ``record`` as perspective ``seat`` sees it.

    Args:
        record: a finished (or partial) game.
        seat: the perspective: a seat number, or None for the spectator.
        after: optional, per message of ``record.talk``, how many steps had been applied when
            it was said (the server's ``after_action``); without it each message is placed at
            the first position whose game length reached its ``step``.
    Returns:
        ``{"seat", "steps": n, "views": [view after 0..n steps], "actions": [per step i
        (1..n, index i-1) a list of {"seat", "text"}], "talk": [every message ``seat`` may
        read: sender, recipients, text, step, "frame": the position it was said at],
        "lengths": [State.length() per position], "result": the record's result,
        "digest": the final state's digest}``. Talk is not filtered by who asks: callers do.
    Raises:
        ReplayError: the game cannot be loaded, the seat is not one of it, or a step does not
            apply.
    """
    if seat is not None and not 0 <= seat < record.players:
        raise BadSeat(f"seat {seat} is not a seat of this game (0..{record.players - 1})")
    views: list[Any] = []
    lengths: list[int] = []
    actions: list[list[dict[str, Any]]] = []

    def keep(state: State, joint: dict[int, Any] | None) -> None:
        views.append(state.view(seat))
        lengths.append(state.length())
        if joint is not None:
            actions.append([{"seat": s, "text": str(a)} for s, a in joint.items()])

    try:  # the engine's replay, watched step by step (its digest check is the caller's)
        game = load_game(record.game, record.variant, record.players, **record.params)
        keep(initial_state(game, record), None)
        state = replay(record, verify=False, on_step=keep)
    except MeepleError as exc:
        raise ReplayError(str(exc)) from None
    at = _talk_frames(record, lengths, after)
    talk = []
    for message, frame in zip(record.talk, at, strict=True):
        if Message.from_json(message).visible_to(seat):
            talk.append({"sender": message["sender"], "recipients": message.get("recipients"),
                         "step": message.get("step"), "text": message["text"], "frame": frame})
    return {"seat": seat, "steps": len(record.steps), "views": views, "actions": actions,
            "talk": talk, "lengths": lengths, "result": record.result, "digest": state.digest()}


def describe(record: Record, ident: str) -> dict[str, Any]:
    """The replay's heading: ``id``, ``game``, ``title``, ``variant``, ``players``, ``params``,
    ``seat_names``, ``seats`` (``seat``, ``kind``, ``name`` from the record's ``meta.seats``;
    else each seat's bot label from ``meta`` when known), ``seat_colours`` (CSS colour names,
    as a table's), ``length_unit``, ``finished_at``.

    Raises:
        ReplayError: the game cannot be loaded.
    """
    try:
        game = load_game(record.game, record.variant, record.players, **record.params)
    except MeepleError as exc:
        raise ReplayError(str(exc)) from None
    meta = record.meta or {}
    seats = meta.get("seats")
    bots = meta.get("bots")
    out_seats = []
    for i in range(game.players):
        if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict):
            out_seats.append({"seat": i, "kind": str(seats[i].get("kind", "")),
                              "name": str(seats[i].get("name", ""))})
        elif isinstance(bots, list) and i < len(bots):
            out_seats.append({"seat": i, "kind": "bot", "name": str(bots[i])})
        else:
            out_seats.append({"seat": i, "kind": "", "name": ""})
    return {"id": ident, "game": game.name, "title": game.title, "variant": game.variant,
            "players": game.players, "params": public_params(game),
            "seat_names": [str(n) for n in game.seat_names()], "seats": out_seats,
            "seat_colours": list(game.seat_colours()),
            "length_unit": game.capabilities.length_unit,
            "finished_at": meta.get("finished_at")}


def public_params(game: Game) -> dict[str, Any]:
    """``game``'s parameters as a replay shows them: a content file by its name without
    folder and ``.json`` (a server's content id; never the path on the disk)."""
    files = {parameter.name for parameter in game.parameters if parameter.file}
    return {k: (Path(v).stem if k in files and v else v) for k, v in game.params.items()}


class FrameCache:
    """A bounded least-recently-used cache of :func:`frames` by (source, key, seat)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.items: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.lock = threading.Lock()   # get() runs in worker threads

    def get(self, key: tuple[Any, ...], make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The cached value for ``key``, or ``make()`` stored (evicting the oldest); ``make``'s
        errors propagate and nothing is stored."""
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()   # outside the lock: two first requests may both compute it
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


class LocalReplays:
    """Records served by ``meeple replay FILE --web``, by key.

    Args:
        load: ``load(key)`` returns the record for ``key`` (raising ``KeyError`` for an
            unknown key; any :class:`~meeple.engine.errors.MeepleError` is shown as a 404).
        keys: the keys to list (``GET /api/replays``), e.g. the one game asked for.
    """

    def __init__(self, load: Callable[[str], Record], keys: list[str]) -> None:
        self._load = load
        self.keys = list(keys)
        self._records: OrderedDict[str, Record] = OrderedDict()

    @classmethod
    def of(cls, records: dict[str, Record]) -> LocalReplays:
        """Serve exactly ``records``."""
        return cls(lambda key: records[key], list(records))

    def record(self, key: str) -> Record:
        """The record for ``key``.

        Raises:
            KeyError: no such record (or it cannot be loaded).
        """
        if key not in self._records:
            try:
                self._records[key] = self._load(key)
            except (MeepleError, ValueError, IndexError) as exc:
                raise KeyError(key) from exc
            while len(self._records) > 16:
                self._records.popitem(last=False)
        return self._records[key]


def _not_found(code: str, message: str) -> HTTPException:
    return HTTPException(404, detail={"code": code, "message": message})


def _seat_param(seat: str | None) -> int | None:
    if seat in (None, "", "spectator", "null", "none"):
        return None
    try:
        return int(seat)
    except ValueError:
        raise HTTPException(400, detail={"code": "bad_seat",
                                         "message": f"seat must be a number, not {seat!r}"}
                            ) from None


def _viewer_can_read(message: dict[str, Any], viewer: int | None) -> bool:
    if message["recipients"] is None:
        return True
    return viewer is not None and (viewer == message["sender"]
                                   or viewer in message["recipients"])


def _stored_after(store: Any, table_id: str) -> list[int]:
    """Per stored message of a table, how many actions were accepted before it."""
    stored = store.load_table(table_id)
    return [] if stored is None else [int(m["after_action"]) for m in stored.messages]


def _recent(store: Any, limit: int) -> list[tuple[str, float]]:
    from meeple.server.db import TableRow

    with Session(store.engine) as session:
        rows = session.execute(select(TableRow.id, TableRow.created_at)
                               .where(TableRow.status == "finished",
                                      TableRow.record.is_not(None))
                               .order_by(TableRow.created_at.desc(), TableRow.id.desc())
                               .limit(limit))
        return [(r[0], r[1]) for r in rows]


async def _cached(cache: Any, key: tuple[Any, ...], make: Any) -> dict[str, Any]:
    """``cache.get(key, make)`` off the event loop; a bad perspective is a 400 ``bad_seat``, a
    record that does not replay a 404 ``bad_replay``."""
    try:
        return await asyncio.to_thread(cache.get, key, make)
    except BadSeat as exc:
        raise HTTPException(400, detail={"code": "bad_seat", "message": str(exc)}) from None
    except ReplayError as exc:
        raise _not_found("bad_replay", str(exc)) from None


def add_replay_routes(app: FastAPI, static: Any, local: LocalReplays | None = None) -> None:
    """Add the replay endpoints and pages (module docstring) to ``app``.

    Args:
        app: the server app (its ``state.manager`` is set at startup).
        static: the directory of the browser client (``replay.html``).
        local: records served under ``/api/replays/{key}`` (``meeple replay --web``); none by
            default.
    """
    router = APIRouter()
    cache = FrameCache()
    summaries: OrderedDict[str, dict[str, Any]] = OrderedDict()
    no_cache = {"Cache-Control": "no-cache"}

    @router.get("/replay/{table_id}", response_class=HTMLResponse)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(static / "replay.html", headers=no_cache)

    @router.get("/replay/local/{key}", response_class=HTMLResponse)
    async def local_page(key: str) -> FileResponse:
        return FileResponse(static / "replay.html", headers=no_cache)

    @router.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request, seat: str | None = None,
                           authorization: str | None = Header(default=None)) -> JSONResponse:
        manager = request.app.state.manager
        perspective = _seat_param(seat)
        data = await manager.db(manager.store.record, table_id)
        if data is None:
            raise _not_found("unknown_table", f"no finished table {table_id!r}")
        viewer = None
        if authorization and authorization.startswith("Bearer "):
            from meeple.server.tables import TableError

            try:
                table = await manager.get(table_id)
            except TableError as exc:
                raise _not_found(exc.code, exc.message) from None
            viewer = table.seat_of(authorization[7:])
            if viewer is None:
                raise HTTPException(403, detail={"code": "bad_token",
                                                 "message": "this token holds no seat here"})

        def make() -> dict[str, Any]:
            record = Record.from_json(data)
            after = _stored_after(manager.store, table_id)
            out = frames(record, perspective,
                         after if len(after) == len(record.talk) else None)
            out["table"] = describe(record, table_id)
            return out

        out = await _cached(cache, ("table", table_id, perspective), make)
        reply = dict(out, talk=[m for m in out["talk"] if _viewer_can_read(m, viewer)],
                     viewer=viewer)
        return JSONResponse(reply)

    @router.get("/api/recent")
    async def recent(request: Request, limit: int = Query(20, ge=1, le=MAX_RECENT)
                     ) -> list[dict[str, Any]]:
        manager = request.app.state.manager
        rows = await manager.db(_recent, manager.store, limit)
        out = []
        for table_id, created in rows:
            if table_id not in summaries:
                data = await manager.db(manager.store.record, table_id)
                try:
                    record = Record.from_json(data)
                    info = describe(record, table_id)
                except (MeepleError, ReplayError):
                    continue
                result = record.result or {}
                info.update(winners=list(result.get("winners") or []),
                            length=result.get("length"), steps=len(record.steps),
                            created_at=created)
                summaries[table_id] = info
                while len(summaries) > 4 * MAX_RECENT:
                    summaries.popitem(last=False)
            out.append(summaries[table_id])
        return out

    def local_record(key: str) -> Record:
        if local is None:
            raise _not_found("unknown_replay", "this server serves no record files")
        try:
            return local.record(key)
        except KeyError:
            raise _not_found("unknown_replay", f"no record {key!r}") from None

    @router.get("/api/replays")
    async def local_list() -> list[str]:
        return [] if local is None else local.keys

    @router.get("/api/replays/{key}")
    async def local_replay(key: str, seat: str | None = None) -> JSONResponse:
        perspective = _seat_param(seat)
        record = local_record(key)

        def make() -> dict[str, Any]:
            out = frames(record, perspective)
            out["table"] = describe(record, key)
            return out

        out = await _cached(cache, ("local", key, perspective), make)
        return JSONResponse(dict(out, viewer=None))

    @router.get("/api/replays/{key}/board")
    async def local_board(key: str) -> JSONResponse:
        record = local_record(key)
        try:
            game = load_game(record.game, record.variant, record.players, **record.params)
        except MeepleError as exc:
            raise _not_found("bad_replay", str(exc)) from None
        return JSONResponse(game.board_content())

    app.include_router(router)
