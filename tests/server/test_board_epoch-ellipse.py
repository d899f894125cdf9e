"""The Epoch Ellipse web board (static/js/boards/epoch-ellipse.js) in a real Chromium against a
real ``meeple serve``: a person and a heuristic bot play a short game (``target_vp=3``) to the
end by clicking the board (cards, locations, the step's buttons; never a generic action list),
a trade is built by two clicks, one action is played by keyboard only, screenshots are taken
mid-game at 1280x800 and 390x844, and the phone-sized page does not scroll sideways.
"""

from __future__ import annotations

import random
import re
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

GAME = "epoch-ellipse"
#: What the person prefers to click, first match wins (a careful, quick player).
PRIORITY = (r"^accept$", r"^pick \d+$", r"^resolve$", r"^use ", r"^treat ", r"^eat ",
            r"^return ", r"^done$", r"^explore ", r"^new$", r"^pass$", r"^suffer$",
            r"^starve$", r"^skip$", r"^decline$")


def board_actions(page: Page) -> list[str]:
    """The action texts of the enabled controls drawn on the board (not "Other moves")."""
    return page.eval_on_selector_all(
        "#board button.action:enabled", "bs => bs.map(b => b.dataset.action)")


def choose(texts: list[str], page: Page) -> str:
    """The person's pick: by PRIORITY; to explore, the location with the fewest tokens left
    (not the Graveyard), as many cards as it offers."""
    explores = [t for t in texts if t.startswith("explore ")]
    if explores and not any(re.match(p, t) for p in PRIORITY[:8] for t in texts):
        tokens = page.eval_on_selector_all(
            "#board .ee-location:not(.ee-new)",
            "ls => ls.map(l => Number((l.querySelector('.ee-tokens').textContent"
            ".match(/(\\d+) token/) || [0, 0])[1]))")
        best = None
        for t in explores:
            _, loc, k = t.split()
            n = int(loc)
            if n == 1 or tokens[n - 1] == 0:
                continue
            key = (tokens[n - 1], -int(k))
            if best is None or key < best[0]:
                best = (key, t)
        if best is not None:
            return best[1]
        if "new" in texts:
            return "new"
    for pattern in PRIORITY:
        for t in texts:
            if re.match(pattern, t):
                return t
    return texts[0]


def wait_settled(page: Page) -> None:
    """No optimistic play: wait until the sent control is replaced by the next state."""
    page.wait_for_function("!document.querySelector('button.action.sent')"
                           " || document.querySelector('#result:not([hidden])')")


def _play_to_the_end(server: Server, browser: Browser) -> tuple[Person, dict, bool]:
    """A person plays a new table (a random seed, as the server gives every table) to the
    end; returns the person, the table and whether the mid-game screenshots were taken."""
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": GAME, "players": 2, "params": {"target_vp": 3},
        "seats": [{"bot": None}, {"bot": "heuristic"}]}).json()
    person = Person(browser, server, "ann")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    person.join(table["id"], "Seat 0")
    expect(page.locator(".ee-board .ee-phases")).to_be_visible()
    expect(page.locator(".ee-board .ee-progress")).to_contain_text("VP Recovered")

    # day 1, PLAN: a trade built by two clicks on cards, one of mine, then one of the partner's
    page.wait_for_selector("#board button.ee-select")
    page.locator("#board .ee-player.mine button.ee-select").first.click()
    page.locator("#board .ee-player:not(.mine) button.ee-select").first.click()
    built = page.locator("#board .ee-building").inner_text()
    assert re.fullmatch(r"trade 1 [a-z-]+ [a-z-]+", built), built
    send = page.get_by_role("button", name=re.compile("^Offer bot heuristic your"))
    expect(send).to_have_attribute("data-action", built)
    send.click()
    person.wait_accepted(built)
    wait_settled(page)

    # (c) keyboard only: Tab until a legal control of the board has the focus, then Enter;
    # the next decision the same way with Space
    for key in ("Enter", "Space"):
        page.wait_for_selector("#board button.action:enabled")
        focused = ""
        for _ in range(150):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                "(() => { const b = document.activeElement; return b && b.matches("
                "'#board button.action:enabled') ? b.dataset.action : ''; })()")
            if focused:
                break
        assert focused, "no legal control of the board is reachable with Tab"
        page.keyboard.press(key)
        person.wait_accepted(focused)
        wait_settled(page)
        if finished(page):
            break

    clicks, shots = 0, False
    deadline = time.monotonic() + 120  # generous: CI runs two browser tests at once
    while not finished(page):
        assert time.monotonic() < deadline, f"not over after {clicks} clicks"
        # every legal action has a place on the board: no "Other moves" group
        assert page.locator("#actions .ee-other").count() == 0
        texts = board_actions(page)
        if not texts:
            page.wait_for_timeout(30)
            continue
        # (b) screenshots mid-game, while an exploration is being resolved
        if not shots and (page.locator("#board .ee-current").count() or clicks >= 6):
            shot(page, "epoch-ellipse-board")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(100)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide on a 390 px screen"
            shot(page, "epoch-ellipse-board-phone")
            page.set_viewport_size({"width": 1280, "height": 800})
            shots = True
        text = choose(texts, page)
        try:
            page.locator(f'#board button.action[data-action="{text}"]').first.click(timeout=2000)
        except PlaywrightTimeout:
            continue  # the state moved on meanwhile
        clicks += 1
        wait_settled(page)
    return person, table, shots


def test_a_person_plays_epoch_ellipse_to_the_end_on_the_board(server: Server,
                                                               browser: Browser) -> None:
    for _ in range(3):  # a table's seed is random: a rare game ends before the screenshots
        person, table, shots = _play_to_the_end(server, browser)
        if shots:
            break
        person.close()
    assert shots, "three games ended before the screenshots"
    page = person.page
    expect(page.locator("#result .headline")).not_to_be_empty()
    expect(page.locator(".ee-prompt.over")).to_contain_text("The team")
    expect(page.locator("#log")).to_contain_text("Game over")
    done = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert done["status"] == "finished"
    shot(page, "epoch-ellipse-board-over")
    person.close()


def test_a_spectator_sees_the_public_board_without_controls(server: Server,
                                                            browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": GAME, "players": 2, "params": {"target_vp": 3},
        "seats": [{"bot": None}, {"bot": "heuristic"}]}).json()
    ann = Person(browser, server, "ann")
    ann.join(table["id"], "Seat 0")
    watcher = Person(browser, server, "cy")
    watcher.page.set_viewport_size({"width": 390, "height": 844})
    watcher.page.goto(f"{server.url}/table/{table['id']}")
    expect(watcher.page.locator("#table-title")).to_contain_text("watching")
    expect(watcher.page.locator(".ee-board .ee-location").first).to_be_visible()
    expect(watcher.page.locator("#actions")).to_contain_text("You are watching.")
    assert watcher.page.locator("#board button.action, #board button.ee-select").count() == 0
    assert watcher.page.evaluate("document.documentElement.scrollWidth") <= 390
    for person in (ann, watcher):
        person.close()


def test_random_clicks_find_every_legal_action_on_the_board(server: Server,
                                                            browser: Browser) -> None:
    # Under d6 (explore L roll), with random bots and a person clicking any board control at
    # random (charms, stabilization, gifts, returns...), games one after another until 100
    # clicks: at every decision every legal action has a control on the board, so the "Other
    # moves" safety net stays empty.
    person = Person(browser, server, "ann")
    page = person.page
    rng = random.Random(20)
    clicks, kinds, games = 0, set(), 0
    # until 100 clicks that include a card's use (tables get secret random seeds, so a game
    # may offer none: play on, up to 300 clicks); the deadline only stops a hang
    deadline = time.monotonic() + 240
    while (clicks < 100 or "use" not in kinds) and clicks < 300 and time.monotonic() < deadline:
        table = httpx.post(f"{server.url}/api/tables", json={
            "game": GAME, "players": 3, "variant": "d6", "params": {"max_days": 4},
            "seats": [{"bot": None}, {"bot": "random"}, {"bot": "random"}]}).json()
        person.join(table["id"], "Seat 0")
        games += 1
        while not finished(page) and time.monotonic() < deadline:
            texts = board_actions(page)
            assert page.locator("#actions .ee-other").count() == 0, \
                page.locator("#actions .ee-other").inner_text()
            if not texts:
                page.wait_for_timeout(30)
                continue
            text = rng.choice(sorted(set(texts)))
            try:
                page.locator(f'#board button.action[data-action="{text}"]').first.click(
                    timeout=2000)
            except PlaywrightTimeout:
                continue
            clicks += 1
            kinds.add(text.split()[0])
            wait_settled(page)
        if finished(page):
            expect(page.locator(".ee-prompt.over")).to_contain_text("team")
    print(f"{clicks} clicks in {games} games; kinds: {sorted(kinds)}")
    assert clicks >= 40 and {"explore", "pass", "use"} <= kinds
    person.close()
