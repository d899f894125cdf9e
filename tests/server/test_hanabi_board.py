"""Hanabi on the generic board (static/js/layout.js; the game has no board module): a person
at seat 0 plays with two heuristic bots in a real Chromium against a real ``meeple serve``.
The person's own hand is drawn face down, the others' face up; the hints the person gives
appear on the hinted seat's cards and the hints the bots give the person appear on the
person's face-down cards (the zone's ``notes``: docs/rules/hanabi.md, HAN-9)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.server.browser_kit import (
    Browser,
    Person,
    PlaywrightTimeout,
    Server,
    expect,
    finished,
    shot,
    skip_without_a_browser,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    skip_without_a_browser()
    folder = tmp_path_factory.mktemp("hanabi")
    running = Server(f"sqlite:///{folder / 'meeple.db'}", folder)
    try:
        yield running
    finally:
        running.kill()


def notes(page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f".seat-panel[data-seat='{seat}'] [data-zone=hands] .card .note",
        "ns => ns.map(n => n.textContent)")


def test_a_person_and_bots_play_hanabi_with_hints_on_the_cards(server: Server,
                                                               browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": "hanabi", "players": 3,
        "seats": [{"bot": None}, {"bot": "heuristic"}, {"bot": "heuristic"}]}).json()
    person = Person(browser, server, "ann")
    page = person.page
    person.join(table["id"], "Seat 0")
    expect(page.locator(".generic-board")).to_be_visible()
    expect(page.locator(".seat-panel")).to_have_count(3)
    gave = received = False
    decisions, deadline = 0, time.monotonic() + 90
    while not (gave and received and decisions >= 6) and not finished(page):
        assert time.monotonic() < deadline, (decisions, gave, received)
        legal = page.eval_on_selector_all("#actions button.action:enabled",
                                          "bs => bs.map(b => b.dataset.action)")
        if not legal:
            page.wait_for_timeout(40)
            continue
        # my hand: five face-down cards; the others' hands face up
        expect(page.locator(".seat-panel[data-seat='0'] [data-zone=hands] .card.back")) \
            .to_have_count(5)
        assert page.locator(".seat-panel[data-seat='1'] [data-zone=hands] .card.back").count() \
            == 0
        received = received or bool(notes(page, 0))
        hints = [a for a in legal if a.startswith("hint 1 ")]
        action = hints[decisions % len(hints)] if hints and not gave else (
            "discard 0" if "discard 0" in legal else legal[0])
        try:
            before = person.accepted.count(action)
            page.locator(f'#actions button.action[data-action="{action}"]').click(timeout=2000)
            person.wait_accepted(action, count=before + 1)
        except PlaywrightTimeout:
            continue
        decisions += 1
        if action.startswith("hint 1 "):
            word = action.split()[2]
            # seat 1's cards say what the hint told: the touched ones that they are (the
            # word), the others that they are not ("not R"); seat 1 may already have played
            letter = word[0].upper() if word.isalpha() else word
            page.wait_for_function(
                "l => [...document.querySelectorAll(\".seat-panel[data-seat='1'] "
                "[data-zone=hands] .card .note\")].some(n => n.textContent.includes(l))",
                arg=letter, timeout=5000)
            gave = True
            shot(page, "hanabi-hint-given")
    assert gave and received, (gave, received)
    shot(page, "hanabi-generic-board")
    person.close()
