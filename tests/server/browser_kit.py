"""What the browser tests share: Debian's chromium through Playwright for Python, a real
``meeple serve`` subprocess per test module, a :class:`Person` (one browser context and page),
screenshots to tests/server/screenshots/ (gitignored).

The fixtures ``server`` and ``browser`` are registered for every module of tests/server by its
conftest.py; a browser test module takes them as arguments and imports only the helpers it uses
(``Person``, ``shot``, ``expect``...). A test that uses them skips, saying so, only when
Playwright or chromium cannot be found (``.ci/run`` installs Debian's chromium;
``MEEPLE_CHROMIUM`` names another binary).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_crash import Server

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the skip below says why
    sync_playwright = None

__all__ = ["CHROMIUM", "FOUR_GODS", "SHOTS", "Browser", "Page", "Person", "PlaywrightTimeout",
           "Server", "browser", "expect", "finished", "lobby_seat_label", "server", "serving_for",
           "shot",
           "skip_without_a_browser"]

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).parent / "screenshots"
FOUR_GODS = "battle-of-the-four-gods"



def lobby_seat_label(seat_name: str) -> str:
    """The lobby's label of a seat from the engine's seat name: the engine's default names
    count from 0 and the lobby counts as people do (``Seat 0`` -> ``seat 1``); a game's own
    names (Four Gods' ``RED``) stay as they are."""
    match = re.fullmatch(r"Seat (\d+)", seat_name)
    return f"seat {int(match[1]) + 1}" if match else seat_name


def skip_without_a_browser() -> None:
    """Skip the calling test, saying why, when Playwright or chromium is missing."""
    if sync_playwright is None:
        pytest.skip("playwright is not installed: pip install 'meeple[test]'")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}: apt-get install chromium")


def serving_for(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Server]:
    """A ``meeple serve`` over a temporary SQLite file in a new folder ``name``, killed when
    the generator ends (the body of a module-scoped server fixture)."""
    folder = tmp_path_factory.mktemp(name)
    running = Server(f"sqlite:///{folder / 'meeple.db'}", folder)
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A ``meeple serve`` for the module's browser tests (a temporary SQLite file)."""
    skip_without_a_browser()
    yield from serving_for(tmp_path_factory, "browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless chromium for the module."""
    skip_without_a_browser()
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


class Person:
    """One browser context (its own localStorage: its own seat tokens) with one page; every
    uncaught script error on the page fails the test. ``accepted`` collects the action texts
    the server accepted from this page (its websocket's ``accepted`` frames): the page itself
    writes no log line of its own for them."""

    def __init__(self, browser: Browser, server: Server, name: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 860})
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.accepted: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", self.watch_socket)
        self.server, self.name = server, name

    def watch_socket(self, socket: Any) -> None:
        """Collect ``socket``'s ``accepted`` frames (``page.on("websocket", ...)`` of a new
        page of this person's)."""
        def received(payload: str | bytes) -> None:
            try:
                frame = json.loads(payload)
            except ValueError:
                return
            if isinstance(frame, dict) and frame.get("type") == "accepted":
                self.accepted.append(frame["action"])
        socket.on("framereceived", received)

    def wait_accepted(self, action: str, count: int = 1, timeout: float = 15.0) -> None:
        """Wait until the server accepted ``action`` from this page ``count`` times in all."""
        deadline = time.monotonic() + timeout
        while self.accepted.count(action) < count:
            assert time.monotonic() < deadline, (action, self.accepted[-5:])
            self.page.wait_for_timeout(40)

    def lobby(self) -> Page:
        self.page.goto(self.server.url + "/")
        self.page.fill("#player-name", self.name)
        self.page.locator("#player-name").dispatch_event("change")
        return self.page

    def join(self, table_id: str, seat_name: str) -> None:
        """Join ``table_id`` from the lobby at the seat the engine names ``seat_name``."""
        page = self.lobby()
        page.get_by_role("button", name=f"Join {table_id} as {lobby_seat_label(seat_name)}",
                         exact=True).click()
        page.wait_for_url(f"**/table/{table_id}")
        # a seat with a name of its own reads "RED (ann)"; one with the engine's default name
        # ("Seat 0") is its person: "ann"
        you = self.name if re.fullmatch(r"Seat \d+", seat_name) else f"{seat_name} ({self.name})"
        expect(page.locator("#table-title .you")).to_have_text(f"you: {you}")

    def talk_texts(self) -> list[str]:
        return self.page.locator(".talk-message .text").all_text_contents()

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def shot(page: Page, name: str) -> None:
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def finished(page: Page) -> bool:
    return page.locator("#result").is_visible()
