"""The Ozymandias (campaign edition) web board (static/js/boards/ozymandias-campaign.js) in a
real Chromium against a real ``meeple serve``: a person plays a two-seat game against the
heuristic bot to the end by clicking the board (map points, tableau cards, cubes, hand cards,
the drawn tile's ports, and the turn panel's mode and step buttons), with screenshots mid-game
at 1280x800 and 390x844; a campaign played by keyboard only; no horizontal overflow at 390 px.
"""

from __future__ import annotations

import random
import time

import httpx

from tests.server.browser_kit import (
    Browser,
    Page,
    Person,
    PlaywrightTimeout,
    Server,
    expect,
    finished,
    shot,
)

GAME = "ozymandias-campaign"
PARAMS = {"target_vp": 5, "max_rounds": 5}

#: every enabled control of the board and the turn panel: its action text or selection
CONTROLS = """() => [...document.querySelectorAll(
  '#board [data-action], #actions [data-action], #board [data-select], #actions [data-select]')]
  .filter((n) => !n.disabled && n.getAttribute('aria-disabled') !== 'true')
  .map((n) => ({action: n.dataset.action || null, select: n.dataset.select || null,
                other: n.classList.contains('oz-other-move'),
                war: n.tagName === 'g' && Boolean(n.querySelector('.worker'))}))"""

#: board moves first, in this order; the turn panel's step buttons last
PRIORITY = ("play", "fight", "attach", "colony", "harvest", "lay", "cube", "move", "recover",
            "stand")


def new_table(server: Server) -> str:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": GAME, "players": 2, "params": PARAMS,
        "seats": [{}, {"bot": "heuristic"}]}).json()
    return table["id"]


def choose(controls: list[dict], rng: random.Random) -> dict | None:
    """A control to click: a war if one can be made, else (a quarter of the time) a button that
    closes the step, else a board move by PRIORITY (a stand only sometimes), else a cube to
    select, else a step button (a random mode)."""
    actions = [c for c in controls if c["action"] and not c["other"]]
    wars = [c for c in actions if c["war"] and c["action"].split(" ")[0] in ("stand", "colony")]
    if wars:  # a point with an enemy worker: make war, to see the reveal
        return rng.choice(wars)
    closers = [c for c in actions if c["action"].split(" ")[0] in ("end", "done", "pass")]
    if closers and rng.random() < 0.25:  # close a step now and then, so every game ends
        return rng.choice(closers)
    for verb in PRIORITY:
        group = [c for c in actions if c["action"].split(" ")[0] == verb]
        if group and (verb != "stand" or rng.random() < 0.5):
            return rng.choice(group)
    selects = [c for c in controls if c["select"]]
    if selects:
        return rng.choice(selects)
    if actions:
        return rng.choice(actions)
    return None


def click(page: Page, control: dict) -> None:
    if control["action"]:
        target = page.locator(f'[data-action="{control["action"]}"]').first
        handle = target.locator("circle.port-end")
        # a drawn tile's port is a group of its stub line, handle and letter: a person clicks
        # the handle (the group's centre can lie on the line, under a neighbouring stub)
        (handle.first if handle.count() else target).click(timeout=2000)
        # no optimistic play: wait for the server's next state to redraw the board
        page.wait_for_function("!document.querySelector('#board .sent, #actions .sent')"
                               " || document.querySelector('#result:not([hidden])')")
    else:
        page.locator(f'[data-select="{control["select"]}"]').first.click(timeout=2000)


def no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_person_plays_to_the_end_by_clicking_the_board(server: Server,
                                                         browser: Browser) -> None:
    table_id = new_table(server)
    person = Person(browser, server, "ann")
    person.join(table_id, "Seat 0")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator(".oz-map")).to_be_visible()
    rng = random.Random(20)
    clicks, shots, verbs, seen = 0, False, set(), set()
    deadline = time.monotonic() + 120  # generous: CI runs two browser tests at once
    while not finished(page):
        assert time.monotonic() < deadline, f"not over after {clicks} clicks"
        controls = page.evaluate(CONTROLS)
        # every legal move is on the board or a turn-panel step button (rules page, WEB-10)
        assert not any(c["other"] for c in controls), controls
        control = choose(controls, rng)
        if control is None:
            page.wait_for_timeout(40)
            continue
        if not shots and clicks >= 4 and control["action"]:
            shot(page, "ozymandias-campaign-board")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(100)
            no_overflow(page)
            shot(page, "ozymandias-campaign-board-phone")
            page.set_viewport_size({"width": 1280, "height": 800})
            shots = True
        for panel in (".oz-explore", ".oz-war.revealed"):
            if panel not in seen and page.locator(panel).count():
                seen.add(panel)
                shot(page, f"ozymandias-campaign-{panel.split('.')[-1]}")
        try:
            click(page, control)
        except PlaywrightTimeout:
            continue  # redrawn meanwhile (a bot moved)
        clicks += 1
        if control["action"]:
            verbs.add(control["action"].split(" ")[0])
    assert shots and clicks > 0
    assert {"campaign", "colony", "play"} <= verbs, verbs
    expect(page.locator("#result .headline")).not_to_be_empty()
    expect(page.locator(".oz-head h2")).to_contain_text("Game over")
    done = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert done["status"] == "finished"
    person.close()


def tab_to(page: Page, selector: str, limit: int = 80) -> str:
    """Press Tab until the focused element matches ``selector``; its action text."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        found = page.evaluate("(sel) => { const n = document.activeElement;"
                              " return n && n.matches(sel) ? n.dataset.action : null; }", selector)
        if found:
            return found
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_play_and_a_phone_viewport(server: Server, browser: Browser) -> None:
    table_id = new_table(server)
    person = Person(browser, server, "bo")
    person.join(table_id, "Seat 0")
    page = person.page
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".oz-map")).to_be_visible()
    # wait for this seat's mode choice (the bot may move first)
    expect(page.locator('[data-action="campaign"]')).to_be_visible(timeout=15_000)
    no_overflow(page)
    page.locator("body").focus()
    assert tab_to(page, '[data-action="campaign"]') == "campaign"
    page.keyboard.press("Enter")
    # a colony on the map (a free one if any), then a card from the hand: Tab to an SVG point
    # and press Space, Tab to a hand card and press Enter (a war's card first, if it is one)
    expect(page.locator('#board g[data-action^="colony"]').first).to_be_attached()
    free = '#board g[data-action^="colony"]:not(:has(.worker))'
    page.locator("body").focus()
    colony = tab_to(page, free if page.locator(free).count() else 'g[data-action^="colony"]')
    page.keyboard.press(" ")
    cards = page.locator('#board button[data-action^="play"], #board button[data-action^="fight"]')
    expect(cards.first).to_be_visible()
    if page.locator('#board button[data-action^="fight"]').count():
        page.locator("body").focus()
        tab_to(page, 'button[data-action^="fight"]')
        page.keyboard.press("Enter")
        expect(page.locator(".oz-war.revealed")).to_be_visible()
    expect(page.locator('#board button[data-action^="play"]').first).to_be_visible()
    page.locator("body").focus()
    played = tab_to(page, 'button[data-action^="play"]')
    page.keyboard.press("Enter")
    person.wait_accepted(colony)
    expect(page.locator("#log")).to_contain_text(
        f"bo (you) plays {played.split()[1]} to the tableau")
    no_overflow(page)
    # a spectator sees the public board and no controls
    watcher = Person(browser, server, "cy")
    watcher.page.goto(f"{server.url}/table/{table_id}")
    expect(watcher.page.locator(".oz-map")).to_be_visible()
    expect(watcher.page.locator("#actions")).to_contain_text("You are watching")
    assert watcher.page.locator("[data-action], [data-select], .oz-hand").count() == 0
    watcher.close()
    person.close()
