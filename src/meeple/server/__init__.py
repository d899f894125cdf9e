"""meeple's web server: tables where people and bots play any game in a browser.

``create_app(db_url)`` (:mod:`meeple.server.app`) is the ASGI app; ``meeple serve`` runs it
with uvicorn. Modules: :mod:`~meeple.server.db` (SQLAlchemy models and every query),
:mod:`~meeple.server.tables` (a table: actions, talk, timers, bots, replay from the database),
:mod:`~meeple.server.manager` (the tables a process owns, rebuilt at start),
:mod:`~meeple.server.protocol` (every message, versioned), :mod:`~meeple.server.app` (REST
lobby and websockets). The server depends on the engine, the games and the bots; nothing
depends on the server. See docs/server.md.
"""

from __future__ import annotations

from meeple.server.app import create_app

__all__ = ["create_app"]
