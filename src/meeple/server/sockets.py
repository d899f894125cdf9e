"""The table websocket (``/ws/tables/{id}``): one :class:`Connection` per socket, the frames
it reads answered in order (protocol in :mod:`meeple.server.protocol`, docs/server.md).

A refused frame gets an ``error`` to the requesting connection only and closes nothing; only a
bad token (4401) or an unknown table (4404) ends the connection from the server's side, and a
connection that falls :data:`MAX_QUEUE` frames behind is closed (1013) to reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from meeple.server import protocol as p
from meeple.server.limits import Limits, RateLimit
from meeple.server.manager import TableManager
from meeple.server.tables import Table, TableError

#: Frames a connection may queue before it is dropped as too slow (it reconnects and resyncs).
MAX_QUEUE = 1000


class Connection:
    """One websocket: its seat, an outgoing queue drained by a writer task, rate limits.

    Args:
        websocket: the accepted socket.
        limits: ``talk_rate``, ``talk_burst`` (table-talk messages per second and burst),
            ``frame_rate``, ``frame_burst`` (any client frames).
    """

    def __init__(self, websocket: WebSocket, limits: Limits | None = None) -> None:
        limits = limits or Limits()
        self.websocket = websocket
        self.seat: int | None = None
        self.last_key: Any = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.talk_limit = RateLimit(limits.talk_rate, limits.talk_burst)
        self.frame_limit = RateLimit(limits.frame_rate, limits.frame_burst)
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


def add_socket_route(app: FastAPI, allowed: Sequence[str], limits: Limits) -> None:
    """Add ``/ws/tables/{table_id}`` to ``app`` (whose ``state.manager`` is set at start)."""

    @app.websocket("/ws/tables/{table_id}")
    async def websocket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(websocket.headers.get("origin"),
                              websocket.headers.get("host"), allowed):
            await websocket.close(code=1008, reason="origin not allowed")
            return
        await websocket.accept()
        connection = Connection(websocket, limits)
        writer = asyncio.create_task(connection.writer())
        table: Table | None = None
        close: tuple[int, str] | None = None
        manager: TableManager = websocket.app.state.manager
        try:
            try:
                table = await manager.get(table_id)
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
