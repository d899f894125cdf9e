"""The generic board (static/js/layout.js, drawn from ``Game.board_layout()``) in a real Chromium
against a real ``meeple serve``: a game with no board module of its own (the Crazy Eights
template, examples/crazy_eights.py) is played to the end by clicking its cards, with the other
seat's hand shown only as a face-down count; and every design, opened with ``?board=generic``,
is drawn from its declaration alone (its zones, a panel per seat) and playable there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from meeple.engine.registry import load_game
from tests.server.browser_kit import (
    Browser,
    Page,
    Person,
    PlaywrightTimeout,
    Server,
    expect,
    finished,
    shot,
    skip_without_a_browser,
)

DESIGNS = ("damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
           "epoch-ellipse", "hanabi")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``meeple serve`` with the Crazy Eights template imported (it registers its game)."""
    skip_without_a_browser()
    folder = tmp_path_factory.mktemp("generic")
    running = Server(f"sqlite:///{folder / 'meeple.db'}", folder,
                     preload=("examples.crazy_eights",))
    try:
        yield running
    finally:
        running.kill()


def wait_settled(page: Page) -> None:
    """Wait until the control just used is replaced by the next state (or the game ended)."""
    page.wait_for_function("!document.querySelector('button.action.sent')"
                           " && !document.querySelector('button.card.actionable:disabled')"
                           " || document.querySelector('#result:not([hidden])')")


def enabled(page: Page, selector: str, data: str) -> list[str]:
    """The ``data-*`` value of every enabled button ``selector`` matches (an action's text, a
    card's piece)."""
    return page.eval_on_selector_all(f"{selector}:enabled", f"bs => bs.map(b => b.dataset.{data})")


def view_of(page: Page) -> dict:
    """The hand sizes the page shows for each seat panel: the cards face up, or the count on
    the face-down stack (None when the panel shows neither)."""
    return page.evaluate("""() => [...document.querySelectorAll('.seat-panel')].map((p) => {
        const zone = p.querySelector('[data-zone=hands]');
        if (!zone) return null;
        const back = zone.querySelector('.card.back');
        return back ? {down: Number(back.textContent.match(/\\d+/)[0])}
                    : {up: zone.querySelectorAll('.card').length}; })""")


def test_crazy_eights_is_played_to_the_end_on_the_generic_board(server: Server,
                                                                 browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": "crazy-eights", "players": 2,
        "seats": [{"bot": None}, {"bot": "random"}]}).json()
    person = Person(browser, server, "ann")
    page = person.page
    person.join(table["id"], "Seat 0")
    expect(page.locator(".generic-board")).to_be_visible()
    expect(page.locator(".seat-panel")).to_have_count(2)
    expect(page.locator("[data-zone=stock] .card.back")).to_contain_text("face down")
    card_clicks = other_clicks = 0
    shots = False
    deadline = time.monotonic() + 120
    while not finished(page):
        assert time.monotonic() < deadline, f"not over after {card_clicks + other_clicks} clicks"
        legal = enabled(page, "#actions button.action", "action")
        if not legal:
            page.wait_for_timeout(30)
            continue
        # what the board draws: my hand face up, the other hand as a face-down count only
        hands = view_of(page)
        assert "up" in hands[0] and "down" in hands[1], hands
        assert page.locator(".seat-panel[data-seat='1'] .card:not(.back)").count() == 0
        cards = enabled(page, "#board button.card.actionable", "piece")
        # a card is a button exactly when a legal action names it
        named = {c for c in (w for a in legal for w in a.split()) if c in cards}
        assert set(cards) == named, (cards, legal)
        if not shots and card_clicks >= 2:
            shot(page, "generic-board-crazy-eights")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(100)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide on a 390 px screen"
            shot(page, "generic-board-crazy-eights-phone")
            page.set_viewport_size({"width": 1280, "height": 860})
            shots = True
        try:
            if cards:
                before = person.accepted.count(f"play {cards[0]}")
                page.locator(f'#board button.card[data-piece="{cards[0]}"]').click(timeout=2000)
                person.wait_accepted(f"play {cards[0]}", count=before + 1)  # one click, played
                card_clicks += 1
            else:
                page.locator(f'#actions button.action[data-action="{legal[0]}"]').click(
                    timeout=2000)
                other_clicks += 1
        except PlaywrightTimeout:
            continue  # the state moved on meanwhile
        wait_settled(page)
    assert card_clicks >= 1 and shots
    person.close()


@pytest.mark.parametrize("game", DESIGNS)
def test_every_design_is_drawn_and_played_on_the_generic_board(server: Server, browser: Browser,
                                                               game: str) -> None:
    # three seats (Four Gods needs four), random bots; the person plays five decisions with
    # the board module switched off: the layout's zones and seat panels are drawn, a piece a
    # legal action names is a button, and one click on it narrows the actions to its own
    players = 4 if game == "battle-of-the-four-gods" else 3
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "players": players,
        "seats": [{"bot": None}] + [{"bot": "random"}] * (players - 1)}).json()
    layout = next(g["layout"] for g in httpx.get(f"{server.url}/api/games").json()
                  if g["name"] == game)
    person = Person(browser, server, "ann")
    page = person.page
    person.join(table["id"], load_game(game, players=players).seat_names()[0])
    page.goto(f"{server.url}/table/{table['id']}?board=generic")
    expect(page.locator(".generic-board")).to_be_visible()
    # a panel per seat when the layout has per-seat zones the view shows, or per-seat values
    per_seat = any(z["per_seat"] and (z["show"] or z["count"]) for z in layout["zones"]) or any(
        v["per_seat"] for v in layout["values"])
    expect(page.locator(".seat-panel")).to_have_count(players if per_seat else 0)
    decisions, deadline = 0, time.monotonic() + 60
    while decisions < 5 and not finished(page):
        assert time.monotonic() < deadline, f"{decisions} decisions in 60 s"
        legal = enabled(page, "#actions button.action", "action")
        if not legal:
            page.wait_for_timeout(30)
            continue
        if decisions == 0:
            shot(page, f"generic-board-{game}")
        cards = enabled(page, "#board button.card.actionable", "piece")
        try:
            if cards and decisions % 2 == 0:
                page.locator(f'#board button.card[data-piece="{cards[0]}"]').click(timeout=2000)
                naming = [a for a in legal if cards[0] in a.split()]
                if len(naming) > 1:  # the action list now holds only the actions naming it
                    page.wait_for_function(
                        "n => [...document.querySelectorAll('#actions button.action')]"
                        ".map(b => b.dataset.action).sort().join('|') === n",
                        arg="|".join(sorted(naming)), timeout=5000)
                    page.locator(f'#actions button.action[data-action="{naming[0]}"]').click(
                        timeout=2000)
            else:
                page.locator(f'#actions button.action[data-action="{legal[0]}"]').click(
                    timeout=2000)
        except PlaywrightTimeout:
            continue
        decisions += 1
        wait_settled(page)
    assert decisions == 5 or finished(page)
    person.close()
