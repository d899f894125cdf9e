"""The web application: the pages, the REST lobby (:mod:`meeple.server.lobby`), the table
websockets (:mod:`meeple.server.sockets`) and the replays (:mod:`meeple.server.replays`).

``create_app(db_url)`` returns a FastAPI app. On startup it starts rebuilding the unfinished
tables from the database in the background (:meth:`TableManager.start`); on shutdown it stops
the timers and closes the database. Every request body is bounded (``Limits.body_bytes``) and
every refusal, a malformed body included, is ``{"detail": {"code", "message"}}``: a client's
bytes are never echoed back raw, so no input (``NaN``, a lone surrogate) can turn a refusal
into a 500. docs/server.md has the whole protocol and the security model.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from meeple.server import protocol as p
from meeple.server.content import ContentCatalog
from meeple.server.db import DEFAULT_URL, Store, make_engine
from meeple.server.limits import Limits
from meeple.server.lobby import add_lobby_routes
from meeple.server.manager import TableManager
from meeple.server.replays import LocalReplays, add_replay_routes
from meeple.server.rules_pages import add_rules_routes
from meeple.server.sockets import add_socket_route

#: The browser client: static HTML, CSS and ES modules, no build step (docs/server.md).
STATIC = Path(__file__).parent / "static"
#: The pages are small; always revalidated so an upgraded server serves its own client.
NO_CACHE = {"Cache-Control": "no-cache"}
#: The ``code`` of a refusal that Starlette or FastAPI made with a bare message, by status:
#: a body that is not JSON (400), too large (413), an unknown path (404), a wrong method (405).
HTTP_CODES = {400: "bad_json", 404: "not_found", 405: "bad_method", 413: "too_large"}
#: Gen-1 collections between two full collections (CPython's default is 10); see
#: :func:`tune_collector`.
FULL_COLLECTION_EVERY = 100


def tune_collector() -> None:
    """Tune Python's cyclic garbage collector for a long-running server process (process-wide;
    ``meeple serve`` calls it once the app has started).

    A full collection scans every tracked object and stops the event loop meanwhile: with 1,000
    websockets open (about 185 objects each, mostly Starlette's coroutine chain) one took about
    0.1 s of CPU, and CPython ran one every ~5 s under ``benchmarks/bench_server.py``'s load,
    which set the latency's p99. So: what is alive at start (modules, content, ~70,000
    objects) is frozen out of the collector's sight (``gc.freeze``), and a full collection
    waits for :data:`FULL_COLLECTION_EVERY` younger collections instead of 10 (about once a
    minute at that load). Young collections and reference counting, which free nearly
    everything, are unchanged.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


#: Seconds a thread holding the interpreter runs before another may take it (CPython's
#: default is 0.005); see :func:`tune_switching`.
SWITCH_INTERVAL = 0.001


def tune_switching() -> None:
    """Let the event loop and the database thread take the interpreter back sooner from a
    searching bot's thread (process-wide; ``meeple serve`` calls it at start).

    A search is pure Python: while one runs, every other thread waits up to the switch
    interval for the interpreter each time it gave it up, for a syscall, a database query, a
    loop turn. At CPython's 5 ms, one search slowed the restart's rebuild of 2,000 tables from
    6 s to 20 s; at 1 ms it hardly shows (tests/server/test_security.py, docs/server.md).
    """
    sys.setswitchinterval(SWITCH_INTERVAL)


def _refusal(errors: Sequence[Any]) -> str:
    """A malformed body's problems in words: each field's path and pydantic's message, never
    the input (which may be ``NaN``, a lone surrogate or 60 KB)."""
    out = []
    for err in list(errors)[:3]:
        where = ".".join(str(part) for part in err.get("loc", ()) if part != "body")
        out.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return p.printable("; ".join(out) or "malformed request")


def create_app(db_url: str = DEFAULT_URL, *, allowed_origins: Sequence[str] = (),
               records_dir: str | Path | None = None, bot_threads: int | None = None,
               limits: Limits | Mapping[str, Any] | None = None, tune_gc: bool = False,
               replays: LocalReplays | None = None,
               content_dir: str | Path | None = None) -> FastAPI:
    """The meeple server as an ASGI app.

    Args:
        db_url: ``sqlite:///FILE`` or ``postgresql://USER@HOST:PORT/DB``.
        allowed_origins: browser origins allowed besides the server's own (``*``: any).
        records_dir: also write each finished game's record there as ``TABLE.json``.
        bot_threads: threads searching bots think in (None: ``limits.bot_threads``).
        limits: the server's limits, or overrides of their defaults by name
            (:class:`~meeple.server.limits.Limits`; e.g. ``{"min_timer_seconds": 1}``).
        tune_gc: tune the process's garbage collector and thread switching at startup
            (:func:`tune_collector`, :func:`tune_switching`; for a server process of its own,
            not for an app inside a test or another program).
        replays: record files to serve as replays (``meeple replay FILE --web``).
        content_dir: the folder of content files tables may use and uploads are kept in
            (:mod:`meeple.server.content`); None: only the packaged files, no uploads.
    Raises:
        ValueError: for an unsupported database URL or a bad limit (at startup:
            SQLAlchemy's errors when the database cannot be reached).
    """
    allowed = tuple(allowed_origins)
    bounds = Limits.of(limits)
    content = ContentCatalog(None if content_dir is None else Path(content_dir), bounds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(make_engine(db_url))
        manager = TableManager(store, None if records_dir is None else Path(records_dir),
                               bot_threads=bot_threads, limits=bounds, content=content)
        await manager.start()
        if tune_gc:
            tune_collector()
            tune_switching()
        app.state.manager = manager
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="meeple", lifespan=lifespan, max_body_size=bounds.body_bytes)
    # replays and the lobby's JSON can be large; websockets are not touched by this
    app.add_middleware(GZipMiddleware, minimum_size=4096)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail
        if not isinstance(detail, dict):  # Starlette's and FastAPI's own refusals
            code = HTTP_CODES.get(exc.status_code, "bad_request")
            detail = {"code": code, "message": p.printable(str(detail))}
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        code = "bad_json" if any(e.get("type") == "json_invalid" for e in errors) \
            else "bad_request"
        return JSONResponse({"detail": {"code": code, "message": _refusal(errors)}},
                            status_code=422)

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
    add_rules_routes(app)
    add_lobby_routes(app, bounds)
    add_socket_route(app, allowed, bounds)
    return app
