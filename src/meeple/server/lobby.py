"""The REST lobby: games, tables (paged, and pushed to the lobby page as server-sent events),
joining, rematches, records, surveys and content uploads (docs/server.md, "The lobby").

Every route reads hostile input: bodies are bounded (``Limits.body_bytes``; an upload
``Limits.upload_bytes``), creating tables and uploading are rate-limited per client address,
and a refusal is ``{"detail": {"code", "message"}}`` with a 4xx status, never a 500.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from fastapi.sse import EventSourceResponse, ServerSentEvent

from meeple.bots import bot_names
from meeple.engine.errors import MeepleError
from meeple.engine.registry import game_class, game_names, load_game
from meeple.server import protocol as p
from meeple.server.content import ContentRefused
from meeple.server.limits import ClientBuckets, Limits
from meeple.server.manager import TableManager
from meeple.server.tables import Table, TableError, clean_text

#: Seconds a lobby stream waits between two pushes (changes in between are sent together).
LOBBY_PUSH_SECONDS = 0.5
#: Seconds a lobby stream waits for a change before sending the page again anyway.
LOBBY_REFRESH_SECONDS = 30.0


def error(status: int, code: str, message: str) -> HTTPException:
    """An HTTP error with the lobby's body, ``{"detail": {"code", "message"}}`` (the message
    made safe to send as UTF-8)."""
    return HTTPException(status, detail={"code": code, "message": p.printable(message)})


def client_of(request: Request) -> str:
    """The client's address (the peer of the connection; behind a proxy, the proxy's unless
    uvicorn's ``--forwarded-allow-ips`` trusts it)."""
    return request.client.host if request.client else "unknown"


def game_entry(name: str, manager: TableManager) -> dict[str, Any]:
    """One game as ``GET /api/games`` lists it (docs/server.md)."""
    cls = game_class(name)
    game = load_game(name)
    return {
        "name": name, "title": cls.title, "summary": cls.summary,
        "min_players": cls.min_players, "max_players": cls.max_players,
        "default_players": cls.default_players, "rules_page": cls.rules_page,
        "variants": [{"name": v.name, "description": v.description, "params": dict(v.params)}
                     for v in cls.variants],
        "params": {k: ("" if k in manager.content.offered(name) else v)
                   for k, v in game.params.items()},
        "parameters": [parameter.schema() for parameter in cls.parameters],
        "content": manager.content.offered(name),
        "bots": bot_names(game), "talk_modes": list(game.capabilities.talk_modes),
        "timer_seconds": game.params.get("timer_seconds"),
        "length_unit": game.capabilities.length_unit,
        "layout": game.board_layout(),
        "seat_names": [list(load_game(name, players=n).seat_names())
                       for n in range(cls.min_players, cls.max_players + 1)],
        "limits": {"min_timer_seconds": manager.limits.min_timer_seconds,
                   "max_timer_seconds": manager.limits.max_timer_seconds,
                   "bot_seconds": manager.limits.bot_seconds,
                   "bot_iterations": manager.limits.bot_iterations,
                   "upload_bytes": manager.limits.upload_bytes},
    }


def add_lobby_routes(app: FastAPI, limits: Limits) -> None:
    """Add the lobby's REST routes to ``app`` (whose ``state.manager`` is set at start)."""
    creating = ClientBuckets(limits.create_rate, limits.create_burst, limits.clients_tracked)
    uploading = ClientBuckets(limits.upload_rate, limits.upload_burst, limits.clients_tracked)
    streams = {"open": 0}
    games_cache: dict[str, list[dict[str, Any]]] = {}

    def manager_of(request: Request) -> TableManager:
        return request.app.state.manager

    async def table_or_404(request: Request, table_id: str) -> Table:
        try:
            return await manager_of(request).get(table_id)
        except TableError as exc:
            raise error(404, exc.code, exc.message) from None

    def limited(buckets: ClientBuckets, request: Request, what: str) -> None:
        bucket = buckets.get(client_of(request))
        if not bucket.allow():
            raise HTTPException(429, detail={"code": "rate_limited", "message":
                                             f"too many {what} from your address; try again "
                                             f"in {bucket.wait():.0f} s"},
                                headers={"Retry-After": str(max(1, round(bucket.wait())))})

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        """Whether the tables of the database are all rebuilt, and how many are live."""
        manager = manager_of(request)
        return {"ready": manager.ready.is_set(), "rebuilding": len(manager.unbuilt),
                "tables": len(manager.live())}

    @app.get("/api/games")
    async def games(request: Request) -> list[dict[str, Any]]:
        manager = manager_of(request)
        key = str(manager.content.index_version)
        if key not in games_cache:
            games_cache.clear()
            games_cache[key] = [game_entry(name, manager) for name in game_names()]
        return games_cache[key]

    def page(manager: TableManager, offset: int, limit: int,
             game: str | None = None) -> p.TablePage:
        tables = manager.live()
        if game is not None:
            tables = [t for t in tables if t.game.name == game]
        return p.TablePage(tables=[t.info() for t in tables[offset:offset + limit]],
                           total=len(tables), offset=offset, limit=limit)

    @app.get("/api/tables", response_model=p.TablePage)
    async def list_tables(request: Request, offset: Annotated[int, Query(ge=0)] = 0,
                          limit: Annotated[int | None, Query(ge=1)] = None,
                          game: Annotated[str | None, Query(max_length=64)] = None
                          ) -> p.TablePage:
        """One page of the open and running tables (``limit`` at most ``page_size``)."""
        size = min(limit or limits.page_size, limits.page_size)
        return page(manager_of(request), offset, size, game)

    @app.get("/api/lobby/events", response_class=EventSourceResponse)
    async def lobby_events(request: Request) -> AsyncIterator[ServerSentEvent]:
        """The lobby, pushed: a ``tables`` event (the first page, as ``GET /api/tables``)
        now and after every change, at most one each :data:`LOBBY_PUSH_SECONDS`; a
        ``recent`` event when a game finished."""
        if streams["open"] >= limits.lobby_streams:
            raise error(503, "busy", "too many lobby streams open; reload in a while")
        manager = manager_of(request)
        streams["open"] += 1
        try:
            version, finished = -1, -1
            while not manager.closing:
                now = manager.lobby_version
                if now != version:
                    version = now
                    yield ServerSentEvent(event="tables", raw_data=page(
                        manager, 0, limits.page_size).model_dump_json())
                    if manager.finished_count != finished:
                        finished = manager.finished_count
                        yield ServerSentEvent(event="recent", raw_data=str(finished))
                    await asyncio.sleep(LOBBY_PUSH_SECONDS)
                version_seen = version
                if await manager.lobby_wait(version_seen, LOBBY_REFRESH_SECONDS) == version_seen:
                    version = -1  # nothing changed for a while: send the page again anyway
        finally:
            streams["open"] -= 1

    @app.post("/api/tables", response_model=p.TableInfo, status_code=201)
    async def create_table(body: p.CreateTable, request: Request) -> p.TableInfo:
        limited(creating, request, "new tables")
        try:
            table = await manager_of(request).create(body, client=client_of(request))
        except TableError as exc:
            status = 429 if exc.code == "too_many_tables" else 400
            raise error(status, exc.code, exc.message) from None
        except MeepleError as exc:
            raise error(400, "bad_table", str(exc)) from None
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
            raise error(409 if exc.code in ("seat_taken", "not_open") else 400,
                        exc.code, exc.message) from None
        return p.Joined(table=table.info(), seat=seat, token=token)

    @app.post("/api/tables/{table_id}/leave", response_model=p.TableInfo)
    async def leave(table_id: str, request: Request,
                    authorization: str | None = Header(default=None)) -> p.TableInfo:
        """The caller's person leaves their seat (the seat's token as ``Authorization: Bearer
        TOKEN``; the token stops working): before the start the seat opens again, during the
        game the table's ``replace`` plays it; a table with no person left ends."""
        table = await table_or_404(request, table_id)
        seat = seat_from(table, authorization)
        try:
            await table.leave(seat)
        except TableError as exc:
            raise error(409, exc.code, exc.message) from None
        return table.info()

    @app.post("/api/tables/{table_id}/rematch", response_model=p.TableInfo)
    async def rematch(table_id: str, request: Request) -> p.TableInfo:
        table = await table_or_404(request, table_id)
        try:
            return (await manager_of(request).rematch(table)).info()
        except TableError as exc:
            raise error(429 if exc.code == "too_many_tables" else 409, exc.code,
                        exc.message) from None

    def seat_from(table: Table, authorization: str | None) -> int:
        """The seat of a ``Bearer`` token at ``table`` (403 without one that holds a seat)."""
        seat = None
        if authorization and authorization.startswith("Bearer "):
            seat = table.seat_of(authorization[7:])
        if seat is None:
            raise error(403, "bad_token", "send the seat's token: Authorization: Bearer TOKEN")
        return seat

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request,
                     authorization: str | None = Header(default=None)) -> JSONResponse:
        table = await table_or_404(request, table_id)
        manager = manager_of(request)
        data = await manager.db(manager.store.record, table.id)
        if data is None:
            raise error(409, "not_finished", "the record exists once the game is over")
        seat = None if authorization is None else seat_from(table, authorization)
        data["talk"] = [m for m in data["talk"] if m["recipients"] is None
                        or (seat is not None and (seat == m["sender"]
                                                  or seat in m["recipients"]))]
        data["params"] = dict(table.params)  # content ids, not the server's paths
        return JSONResponse(data)

    @app.post("/api/tables/{table_id}/survey", response_model=p.Survey)
    async def post_survey(table_id: str, body: p.Survey, request: Request,
                          authorization: str | None = Header(default=None)) -> p.Survey:
        """A person's after-game survey (docs/server.md, "Human playtests")."""
        table = await table_or_404(request, table_id)
        seat = seat_from(table, authorization)
        if table.status != "finished":
            raise error(409, "not_finished", "the survey opens when the game is over")
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

    @app.post("/api/content/{game}/{param}", status_code=201,
              max_body_size=limits.upload_bytes)
    async def upload(game: str, param: str, request: Request,
                     name: Annotated[p.Text, Query(max_length=80)] = "upload"
                     ) -> dict[str, Any]:
        """Upload a content file (the raw JSON as the body) for ``game``'s file parameter
        ``param``: validated by loading the game with it, then kept under an id that a table's
        ``params`` name (docs/server.md, "Content")."""
        limited(uploading, request, "uploads")
        data = await request.body()
        manager = manager_of(request)
        try:
            ident, new = await asyncio.to_thread(manager.content.upload, game, param, name,
                                                 data)
        except ContentRefused as exc:
            status = {"no_uploads": 403, "unknown_content": 404,
                      "too_many_uploads": 507}.get(exc.code, 400)
            raise error(status, exc.code, exc.message) from None
        return {"game": game, "param": param, "id": ident, "new": new,
                "size": len(data), "at": time.time()}
