"""``meeple serve``: the web server (lobby, tables, websockets) with uvicorn."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import console, fail


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on (0: any free)")] = 8000,
    db: Annotated[str, typer.Option(
        "--db", help="database URL: sqlite:///FILE or postgresql://USER@HOST:PORT/DB")]
    = "sqlite:///meeple.db",
    records: Annotated[Path | None, typer.Option(
        "--records", help="also write each finished game's record to this folder")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", help="a browser origin allowed besides the server's own "
        "(repeatable; '*' for any)")] = None,
    bot_threads: Annotated[int | None, typer.Option(
        "--bot-threads", help="threads searching bots think in (default: the bot_threads "
        "limit, 2)")] = None,
    content: Annotated[Path | None, typer.Option(
        "--content", help="the folder of content files (decks, cards, tiles) tables may use, "
        "as CONTENT/GAME/PARAM/NAME.json, where uploads are kept too (default: "
        "meeple-content in the working directory)")] = None,
    no_uploads: Annotated[bool, typer.Option(
        "--no-uploads", help="offer only the content folder's files (and the packaged ones); "
        "take no uploads")] = False,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="override one of the server's limits, NAME=VALUE (repeatable; the "
        "names and defaults: docs/server.md, 'Security model')")] = None,
):
    """Serve tables where people and bots play in a browser (docs/server.md)."""
    import uvicorn

    from meeple.server.app import create_app
    from meeple.server.db import normalise_url
    from meeple.server.limits import Limits

    try:
        normalise_url(db)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not 0 <= port <= 65535:
        raise fail(f"--port {port} must be 0..65535")
    if bot_threads is not None and bot_threads < 1:
        raise fail(f"--bot-threads {bot_threads} must be at least 1")
    try:
        limits = Limits.parse(limit or [])
    except ValueError as exc:
        raise fail(str(exc)) from None
    folder = content or Path("meeple-content")
    if no_uploads:
        limits = dataclasses.replace(limits, uploads=0)
    # the server's own log (tables rebuilt, closed, uploads kept, errors) to stderr
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log = logging.getLogger("meeple.server")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    app = create_app(db, allowed_origins=allow_origin or (), records_dir=records,
                     bot_threads=bot_threads, tune_gc=True, limits=limits,
                     content_dir=folder)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    # No per-message deflate: compressing every frame cost a fifth of the server's CPU under
    # load (benchmarks/bench_server.py); frames are small JSON views.
    # A lobby's event stream never ends by itself: on Ctrl+C, wait at most 3 s for open
    # requests, then close them (uvicorn would wait forever).
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_per_message_deflate=False, timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    stop = server.handle_exit

    def handle_exit(sig: int, frame: object) -> None:
        """Ctrl+C (or SIGTERM): end the lobby's event streams, then stop as uvicorn does."""
        manager = getattr(app.state, "manager", None)
        if manager is not None:
            manager.end_streams()
        stop(sig, frame)

    server.handle_exit = handle_exit  # type: ignore[method-assign]
    if port:
        console.print(f"meeple server on http://{shown}:{port}/ (database {db}); Ctrl+C stops")
    else:
        _announce_free_port(server, shown, db)
    server.run()


def _announce_free_port(server: object, shown: str, db: str) -> None:
    """Print the URL once uvicorn has bound a free port (``--port 0``)."""
    original = server.startup  # type: ignore[attr-defined]

    async def startup(sockets: object = None) -> None:
        await original(sockets=sockets)
        for srv in getattr(server, "servers", []):
            for sock in srv.sockets:
                port = sock.getsockname()[1]
                console.print(f"meeple server on http://{shown}:{port}/ (database {db}); "
                              "Ctrl+C stops")
                return

    server.startup = startup  # type: ignore[attr-defined]
