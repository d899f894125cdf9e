"""The web application: a REST lobby and one websocket per connection to a table.

``create_app(db_url)`` returns a FastAPI app. On startup it rebuilds every unfinished table from
the database (replaying actions from the seed, checking digests, re-arming deadlines); on
shutdown it stops the timers and closes the database.

REST (JSON): ``GET /api/games``; ``GET /api/tables``; ``POST /api/tables`` (create);
``GET /api/tables/{id}``; ``GET /api/tables/{id}/board`` (the game's public board content);
``POST /api/tables/{id}/join`` (returns the seat's secret token,
once); ``POST /api/tables/{id}/rematch``; ``GET /api/tables/{id}/record`` (a finished game's
meeple record, talk filtered to what the caller may read). Pages: ``/`` (the lobby),
``/table/{id}`` and ``/static/`` (the browser client's files). Replays (finished tables and
``meeple replay --web`` records): :mod:`meeple.server.replays`. Websocket: ``/ws/tables/{id}``,
protocol in :mod:`meeple.server.protocol`.
A refused request gets an ``error`` to the requesting connection only; a bad frame closes
nothing. docs/server.md has the whole protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from meeple.bots import bot_names
from meeple.engine.errors import MeepleError
from meeple.engine.registry import game_class, game_names, load_game
from meeple.server import protocol as p
from meeple.server.db import DEFAULT_URL, Store, make_engine
from meeple.server.manager import TableManager
from meeple.server.replays import LocalReplays, add_replay_routes
from meeple.server.tables import Table, TableError, clean_text

log = logging.getLogger("meeple.server")

#: The browser client: static HTML, CSS and ES modules, no build step (docs/server.md).
STATIC = Path(__file__).parent / "static"
#: The pages are small; always revalidated so an upgraded server serves its own client.
NO_CACHE = {"Cache-Control": "no-cache"}

#: Frames a connection may queue before it is dropped as too slow (it reconnects and resyncs).
MAX_QUEUE = 1000


class RateLimit:
    """A token bucket: ``rate`` per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One websocket: its seat, an outgoing queue drained by a writer task, rate limits.

    Args:
        websocket: the accepted socket.
        talk_rate, talk_burst: table-talk messages per second and burst.
        frame_rate, frame_burst: any client frames per second and burst.
    """

    def __init__(self, websocket: WebSocket, talk_rate: float = 1.0, talk_burst: float = 5,
                 frame_rate: float = 30.0, frame_burst: float = 60) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.last_key: Any = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.talk_limit = RateLimit(talk_rate, talk_burst)
        self.frame_limit = RateLimit(frame_rate, frame_burst)
        self.overflowed = False

    def send(self, text: str) -> None:
        """Queue ``text``; a connection that falls :data:`MAX_QUEUE` frames behind is closed."""
        if self.overflowed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        """Send queued frames in order until ``None`` (then close if still open)."""
        try:
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            return
        if self.overflowed and self.websocket.client_state == WebSocketState.CONNECTED:
            await self.websocket.close(code=1013, reason="too slow; reconnect")


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a websocket from ``origin`` may connect: no Origin header (not a browser), the
    same host and port as the request's ``Host``, or one of ``allowed`` (``*``: any)."""
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.netloc == host and parts.scheme in ("http", "https")


def _error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


#: Gen-1 collections between two full collections (CPython's default is 10); see
#: :func:`tune_collector`.
FULL_COLLECTION_EVERY = 100


def tune_collector() -> None:
    """Tune Python's cyclic garbage collector for a long-running server process (process-wide;
    ``meeple serve`` calls it once the tables are rebuilt).

    A full collection scans every tracked object and stops the event loop meanwhile: with 1,000
    websockets open (about 185 objects each, mostly Starlette's coroutine chain) one took about
    0.1 s of CPU, and CPython ran one every ~5 s under ``benchmarks/bench_server.py``'s load,
    which set the latency's p99. So: what is alive at start (modules, content, rebuilt tables,
    ~70,000 objects) is frozen out of the collector's sight (``gc.freeze``), and a full
    collection waits for :data:`FULL_COLLECTION_EVERY` younger collections instead of 10
    (about once a minute at that load). Young collections and reference counting, which free
    nearly everything, are unchanged.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def create_app(db_url: str = DEFAULT_URL, *, allowed_origins: Sequence[str] = (),
               records_dir: str | Path | None = None, bot_threads: int = 2,
               limits: dict[str, float] | None = None, tune_gc: bool = False,
               replays: LocalReplays | None = None) -> FastAPI:
    """The meeple server as an ASGI app.

    Args:
        db_url: ``sqlite:///FILE`` or ``postgresql://USER@HOST:PORT/DB``.
        allowed_origins: browser origins allowed besides the server's own (``*``: any).
        records_dir: also write each finished game's record there as ``TABLE.json``.
        bot_threads: threads the bots think in.
        limits: per-connection rate limits overriding the defaults of :class:`Connection`
            (``talk_rate``, ``talk_burst``, ``frame_rate``, ``frame_burst``).
        tune_gc: tune the process's garbage collector at startup (:func:`tune_collector`;
            for a server process of its own, not for an app inside a test or another
            program).
        replays: record files to serve as replays (``meeple replay FILE --web``).
    Raises:
        ValueError: for an unsupported database URL (at startup: SQLAlchemy's errors when the
            database cannot be reached).
    """
    allowed = tuple(allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(make_engine(db_url))
        manager = TableManager(store, None if records_dir is None else Path(records_dir),
                               bot_threads=bot_threads)
        await manager.start()
        if tune_gc:
            tune_collector()
        app.state.manager = manager
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="meeple", lifespan=lifespan)
    # replays and the lobby's JSON can be large; websockets are not touched by this
    app.add_middleware(GZipMiddleware, minimum_size=4096)

    def manager_of(request: Request | WebSocket) -> TableManager:
        return request.app.state.manager

    async def table_or_404(request: Request, table_id: str) -> Table:
        try:
            return await manager_of(request).get(table_id)
        except TableError as exc:
            raise _error(404, exc.code, exc.message) from None

    @app.get("/", response_class=HTMLResponse)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=NO_CACHE)

    @app.get("/table/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html", headers=NO_CACHE)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """The site icon where a browser asks for it without a page's ``<link rel=icon>``
        (the pages name ``/static/favicon.svg``): the same SVG."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_replay_routes(app, STATIC, replays)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for name in game_names():
            cls = game_class(name)
            game = load_game(name)
            out.append({
                "name": name, "title": cls.title, "summary": cls.summary,
                "min_players": cls.min_players, "max_players": cls.max_players,
                "default_players": cls.default_players, "rules_page": cls.rules_page,
                "variants": [{"name": v.name, "description": v.description}
                             for v in cls.variants],
                "params": dict(game.params), "bots": bot_names(game),
                "talk_modes": list(game.capabilities.talk_modes),
                "timer_seconds": game.params.get("timer_seconds"),
            })
        return out

    @app.get("/api/tables", response_model=list[p.TableInfo])
    async def list_tables(request: Request) -> list[p.TableInfo]:
        tables = manager_of(request).tables.values()
        return [t.info() for t in tables if t.status in ("open", "running")]

    @app.post("/api/tables", response_model=p.TableInfo, status_code=201)
    async def create_table(body: p.CreateTable, request: Request) -> p.TableInfo:
        try:
            table = await manager_of(request).create(body)
        except TableError as exc:
            raise _error(400, exc.code, exc.message) from None
        except MeepleError as exc:
            raise _error(400, "bad_table", str(exc)) from None
        return table.info()

    @app.get("/api/tables/{table_id}", response_model=p.TableInfo)
    async def get_table(table_id: str, request: Request) -> p.TableInfo:
        return (await table_or_404(request, table_id)).info()

    @app.get("/api/tables/{table_id}/board")
    async def board(table_id: str, request: Request) -> JSONResponse:
        """The table's game's public board content (:meth:`Game.board_content`); it depends
        only on the game spec, so browsers may cache it for the table's life."""
        table = await table_or_404(request, table_id)
        return JSONResponse(table.game.board_content(),
                            headers={"Cache-Control": "private, max-age=86400"})

    @app.post("/api/tables/{table_id}/join", response_model=p.Joined)
    async def join(table_id: str, body: p.JoinTable, request: Request) -> p.Joined:
        table = await table_or_404(request, table_id)
        try:
            seat, token = await table.join(body.name, body.seat)
        except TableError as exc:
            raise _error(409 if exc.code in ("seat_taken", "not_open") else 400,
                         exc.code, exc.message) from None
        return p.Joined(table=table.info(), seat=seat, token=token)

    @app.post("/api/tables/{table_id}/rematch", response_model=p.TableInfo)
    async def rematch(table_id: str, request: Request) -> p.TableInfo:
        table = await table_or_404(request, table_id)
        try:
            return (await manager_of(request).rematch(table)).info()
        except TableError as exc:
            raise _error(409, exc.code, exc.message) from None

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request,
                     authorization: str | None = Header(default=None)) -> JSONResponse:
        table = await table_or_404(request, table_id)
        data = await manager_of(request).db(manager_of(request).store.record, table.id)
        if data is None:
            raise _error(409, "not_finished", "the record exists once the game is over")
        seat = None
        if authorization and authorization.startswith("Bearer "):
            seat = table.seat_of(authorization[7:])
            if seat is None:
                raise _error(403, "bad_token", "this token holds no seat at this table")
        data["talk"] = [m for m in data["talk"] if m["recipients"] is None
                        or (seat is not None and (seat == m["sender"]
                                                  or seat in m["recipients"]))]
        return JSONResponse(data)

    def seat_from(table: Table, authorization: str | None) -> int:
        """The seat of a ``Bearer`` token at ``table`` (403 without one that holds a seat)."""
        seat = None
        if authorization and authorization.startswith("Bearer "):
            seat = table.seat_of(authorization[7:])
        if seat is None:
            raise _error(403, "bad_token", "send the seat's token: Authorization: Bearer TOKEN")
        return seat

    @app.post("/api/tables/{table_id}/survey", response_model=p.Survey)
    async def post_survey(table_id: str, body: p.Survey, request: Request,
                          authorization: str | None = Header(default=None)) -> p.Survey:
        """A person's after-game survey (docs/server.md, "Human playtests")."""
        table = await table_or_404(request, table_id)
        seat = seat_from(table, authorization)
        if table.status != "finished":
            raise _error(409, "not_finished", "the survey opens when the game is over")
        answers = body.model_dump()
        for key in ("confusing", "comment"):
            if answers[key] is not None:
                answers[key] = clean_text(answers[key]) or None
        manager = manager_of(request)
        await manager.db(manager.store.set_survey, table.id, seat, table.seats[seat]["name"],
                         answers)
        return p.Survey(**answers)

    @app.get("/api/tables/{table_id}/survey", response_model=p.Survey)
    async def get_survey(table_id: str, request: Request,
                         authorization: str | None = Header(default=None)) -> p.Survey:
        """The caller's own survey answers (empty before it answered)."""
        table = await table_or_404(request, table_id)
        seat = seat_from(table, authorization)
        manager = manager_of(request)
        for row in await manager.db(manager.store.surveys, table.id):
            if row["seat"] == seat:
                return p.Survey(**row["answers"])
        return p.Survey()

    @app.websocket("/ws/tables/{table_id}")
    async def websocket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(websocket.headers.get("origin"),
                              websocket.headers.get("host"), allowed):
            await websocket.close(code=1008, reason="origin not allowed")
            return
        await websocket.accept()
        connection = Connection(websocket, **(limits or {}))
        writer = asyncio.create_task(connection.writer())
        table: Table | None = None
        close: tuple[int, str] | None = None
        try:
            try:
                table = await manager_of(websocket).get(table_id)
            except TableError as exc:
                connection.send(p.dump(p.Error(code=exc.code, message=exc.message)))
                close = (4404, "unknown table")
            else:
                close = await _serve(websocket, connection, table)
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                table.detach(connection)
            connection.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            if close is not None and websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(code=close[0], reason=close[1])

    return app


async def _serve(websocket: WebSocket, connection: Connection,
                 table: Table) -> tuple[int, str] | None:
    """Read frames until the socket closes; answer each (``error`` for refused ones).
    Returns the close code and reason when the server ends the connection (a bad token)."""
    hello = False
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return None
        raw = frame.get("text")
        if raw is None:
            raw = frame.get("bytes") or b""
        ref = None
        try:
            allowed = connection.frame_limit.allow()
            message = p.parse_client(raw)
            ref = getattr(message, "id", None)
            if not allowed:
                raise p.ProtocolError("rate_limited", "too many messages; slow down")
            if isinstance(message, p.Hello):
                if hello:
                    raise p.ProtocolError("bad_message", "hello was already sent")
                if message.token is not None:
                    seat = table.seat_of(message.token)
                    if seat is None:
                        connection.send(p.dump(p.Error(
                            code="bad_token", message="this token holds no seat at this table")))
                        return 4401, "bad token"
                    connection.seat = seat
                hello = True
                connection.send(p.dump(p.Welcome(table=table.info(), seat=connection.seat)))
                table.snapshot(connection, with_table=False)
                table.attach(connection)
                continue
            if not hello:
                raise p.ProtocolError("hello_first", "send hello first")
            if isinstance(message, p.Ping):
                connection.send(p.dump(p.Pong(id=message.id)))
            elif isinstance(message, p.Sync):
                table.snapshot(connection)
            elif connection.seat is None:
                raise p.ProtocolError("not_seated", "spectators cannot act or talk; join a seat")
            elif isinstance(message, p.Act):
                done = await table.act(connection.seat, message.action)
                connection.send(p.dump(p.Accepted(id=message.id, action=done)))
            elif isinstance(message, p.Say):
                if not connection.talk_limit.allow():
                    raise p.ProtocolError("rate_limited", "too many chat messages; slow down")
                await table.say(connection.seat, message.text, message.to)
                connection.send(p.dump(p.Said(id=message.id)))
        except p.ProtocolError as exc:
            connection.send(p.dump(p.Error(id=exc.ref if ref is None else ref, code=exc.code,
                                           message=exc.message)))
        except TableError as exc:
            connection.send(p.dump(p.Error(id=ref, code=exc.code, message=exc.message)))
