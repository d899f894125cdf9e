"""The games' rules pages on the web: ``GET /rules/{game}`` shows ``docs/rules/GAME.md`` (every
rule and every numbered decision of the design) as HTML, so a table links to the rules it is
played by.

The page is read from the source tree where meeple runs from one (an editable install: the
newest text), else from the copy installed beside the package's data
(``share/meeple/rules``, pyproject's ``data-files``). Markdown becomes HTML through
markdown-it-py with raw HTML off.
"""

from __future__ import annotations

import functools
import html
import sysconfig
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

import meeple
from meeple.engine.registry import game_class, game_names

#: Where an installed meeple keeps the rules pages.
INSTALLED = Path(sysconfig.get_path("data")) / "share" / "meeple" / "rules"
#: The source tree's root, when meeple runs from one.
SOURCE = Path(meeple.__file__).resolve().parents[2]


def rules_file(game: str) -> Path | None:
    """The rules page of ``game`` (a registered game's name), or None where neither the
    source tree nor the installation has it."""
    page = game_class(game).rules_page
    if not page:
        return None
    for path in (SOURCE / page, INSTALLED / Path(page).name):
        if path.is_file():
            return path
    return None


@functools.cache
def render(game: str) -> str:
    """The HTML page of ``game``'s rules (cached: the file is fixed for the process's life).

    Raises:
        LookupError: the page cannot be found.
    """
    path = rules_file(game)
    if path is None:
        raise LookupError(game)
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(
        path.read_text(encoding="utf-8"))
    title = html.escape(game_class(game).title)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Rules: {title}</title>"
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/meeple.css"></head>'
            f'<body class="rules-page"><header class="top"><h1><a href="/">meeple</a></h1>'
            f'<div class="table-title">Rules: {title}</div></header>'
            f'<main class="rules">{body}</main></body></html>')


def add_rules_routes(app: FastAPI) -> None:
    """Add ``GET /rules/{game}`` to ``app``."""

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules(game: str) -> HTMLResponse:
        if game not in game_names():
            raise HTTPException(404, detail={"code": "unknown_game",
                                             "message": f"no game {game[:40]!r}"})
        try:
            return HTMLResponse(render(game), headers={"Cache-Control": "no-cache"})
        except LookupError:
            raise HTTPException(404, detail={"code": "no_rules", "message":
                                             f"the rules page of {game} is not installed"}
                                ) from None
