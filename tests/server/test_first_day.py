"""What a first-day player met on the web client, in a real Chromium against a real
``meeple serve``: no failed request and no console error on the lobby and on a table of every
game (a Four Gods table probed a stylesheet it does not have; the lobby had no favicon); the
Four Gods results table says whether each attack was defended or hit and for how much; the
Damocles placement says the first god goes to slot 1 and marks the one slot that takes it.
Screenshots go to tests/server/screenshots/ (first-day-*.png)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from tests.server.browser_kit import (
    Browser,
    Page,
    Person,
    Server,
    expect,
    lobby_seat_label,
    shot,
)

GAMES = ["battle-of-the-four-gods", "damocles", "epoch-ellipse", "ozymandias-campaign",
         "ozymandias-market"]


class Watch:
    """Every failed request (a network failure or an HTTP status of 400 or more) and every
    console error of ``page``, from now on. The lobby's update stream (server-sent events)
    never ends by itself: the browser aborts it when the person leaves the lobby, which is
    not a failure."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        page.on("requestfailed", lambda r: None if (
            r.url.endswith("/api/lobby/events") and r.failure == "net::ERR_ABORTED"
        ) else self.problems.append(f"failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(
            f"{r.status}: {r.url}"))
        page.on("console", lambda m: m.type == "error" and self.problems.append(
            f"console: {m.text}"))


def _table(server: Server, game: str, **extra: Any) -> dict[str, Any]:
    players = extra.pop("players", 2 if game != "battle-of-the-four-gods" else 4)
    response = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "players": players, "timer_seconds": 600,
        "seats": [{}] + [{"bot": "heuristic"}] * (players - 1), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_the_favicon_is_served(server: Server) -> None:
    for path in ("/favicon.ico", "/static/favicon.svg"):
        response = httpx.get(server.url + path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert response.text.lstrip().startswith("<svg")


@pytest.mark.parametrize("game", GAMES)
def test_lobby_and_table_load_with_no_failed_request_or_console_error(
        server: Server, browser: Browser, game: str) -> None:
    table = _table(server, game)
    person = Person(browser, server, "ann")
    watch = Watch(person.page)
    page = person.lobby()
    seat = lobby_seat_label(table["seat_names"][0])
    expect(page.get_by_role("button", name=f"Join {table['id']} as {seat}", exact=True)
           ).to_be_visible()
    page.wait_for_load_state("networkidle")
    if game == GAMES[0]:
        shot(page, "first-day-lobby")
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    assert icon.endswith("/static/favicon.svg")
    person.join(table["id"], table["seat_names"][0])
    expect(page.locator("#board")).not_to_be_empty()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # late module and stylesheet loads
    shot(page, f"first-day-{game}")
    assert not watch.problems, watch.problems
    person.close()



def test_four_gods_results_say_whether_each_attack_was_defended_or_hit(
        server: Server, browser: Browser) -> None:
    """RED attacks everyone each round against heuristic bots: every attack in the results
    table reads 'defended (+refund)' exactly when its target defended against the attacker
    (the table's own 'Defended against' column), else 'hit (-damage)'; the log says the same."""
    table = _table(server, "battle-of-the-four-gods", params={"damage": 5, "defend_refund": 1})
    person = Person(browser, server, "ann")
    person.join(table["id"], "RED")
    page = person.page
    seen: set[str] = set()
    for round_no in range(1, 6):
        page.get_by_role("button", name="Attack BLUE").click()
        page.get_by_role("button", name="Attack GREEN").click()
        page.get_by_role("button", name="Attack ORANGE").click()
        page.get_by_role("button", name="Submit: atk:BGO").click()
        expect(page.locator(".last-round h3")).to_have_text(f"Round {round_no} results")
        rows = page.locator(".results tbody tr").evaluate_all("""rows => rows.map(r => ({
            god: r.querySelector('th').innerText.trim(),
            attacks: [...r.querySelectorAll('.attack-outcomes li')].map(li => ({
                target: li.querySelector('.god').innerText.trim(),
                outcome: li.querySelector('.outcome').innerText.trim()})),
            defended: [...r.querySelectorAll('td:nth-of-type(2) .god')].map(
                g => g.innerText.trim())}))""")
        defends = {row["god"]: row["defended"] for row in rows}
        red = next(row for row in rows if row["god"] == "RED")
        assert [a["target"] for a in red["attacks"]] == ["BLUE", "GREEN", "ORANGE"], red
        for row in rows:
            for attack in row["attacks"]:
                blocked = row["god"] in defends[attack["target"]]
                assert attack["outcome"] == ("defended (+1)" if blocked else "hit (-5)"), rows
                seen.add(attack["outcome"].split(" ")[0])
        log = page.locator("#log").inner_text()
        assert re.search(rf"Round {round_no}: RED attacks BLUE: (hit \(-5\)|defended \(\+1\)), "
                         r"GREEN: (hit|defended) \(\S+\), ORANGE: .*, energy -\d", log), log
        if round_no == 1:
            shot(page, "first-day-four-gods-results")
        if seen == {"hit", "defended"}:
            shot(page, "first-day-four-gods-results-hit")
            break
    assert seen == {"hit", "defended"}, seen
    person.close()


def test_damocles_first_placement_names_slot_1_and_marks_it(
        server: Server, browser: Browser) -> None:
    table = _table(server, "damocles", params={"setup_discard": 0, "first_placer": "seat0"})
    person = Person(browser, server, "ann")
    person.join(table["id"], "Seat 0")
    page = person.page
    prompt = page.locator(".dmc-turn, #actions").first
    expect(page.locator("body")).to_contain_text(
        "the first god goes to slot 1: under rotational matching its slot does not matter")
    live = page.locator(".dmc-slot.dmc-target")
    expect(live).to_have_count(1)
    assert live.get_attribute("data-slot") == "1"
    expect(live).to_contain_text("▸ here")
    expect(page.get_by_role("button", name="Choose slot 1: empty, place here")).to_be_visible()
    for s in range(2, 8):  # the other empty slots are not buttons and say only "empty"
        other = page.locator(f".dmc-slot[data-slot='{s}']")
        assert other.evaluate("e => e.tagName") == "DIV"
        expect(other).to_contain_text("empty")
    assert prompt.count() == 1
    shot(page, "first-day-damocles-placement")
    page.get_by_role("button", name="Choose slot 1: empty, place here").click()
    page.get_by_role("button", name="Place Nyx on slot 1").click()
    # the bot places, then the person again: now every empty slot takes a god, all marked
    expect(page.locator(".dmc-slot.dmc-target").first).to_be_visible(timeout=15_000)
    expect(page.locator("body")).to_contain_text("Placement: click an empty slot marked")
    targets = page.locator(".dmc-slot.dmc-target")
    empty = [s for s in range(1, 8)
             if not page.locator(f".dmc-slot[data-slot='{s}']").get_attribute("data-god")]
    assert targets.count() == len(empty) == 5
    shot(page, "first-day-damocles-placement-2")
    person.close()


@pytest.mark.parametrize(("game", "params", "styled"), [
    ("battle-of-the-four-gods", {"start_energy": 6}, False),
    ("damocles", {"cycles": 1}, True)])
def test_a_replay_page_loads_with_no_failed_request_and_its_board_styles(
        server: Server, browser: Browser, game: str, params: dict, styled: bool) -> None:
    """A finished bots-only table's replay: no failed request or console error, the board's
    stylesheet linked only where the board has one, the last step drawn by the board."""
    players = 4 if game == "battle-of-the-four-gods" else 2
    response = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "players": players, "params": params,
        "seats": [{"bot": "random"}] * players})
    assert response.status_code == 201, response.text
    table_id = response.json()["id"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    person = Person(browser, server, "ann")
    watch = Watch(person.page)
    page = person.page
    page.goto(f"{server.url}/replay/{table_id}")
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_have_attribute("max", re.compile(r"^[1-9]\d*$"))  # the record is in
    page.get_by_role("button", name="Last »").click()
    page.wait_for_function("() => { const s = document.querySelector('input[type=range]');"
                           " return s && s.max !== '0' && s.value === s.max; }")
    page.wait_for_load_state("networkidle")
    links = page.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')]"
                          ".map(l => new URL(l.href).pathname)")
    assert (f"/static/boards/{game}.css" in links) is styled, links
    if game == "battle-of-the-four-gods":  # the last round's attacks, each with its outcome
        expect(page.locator(".last-round .results")).to_be_visible()
        for text in page.locator(".attack-outcomes .outcome").all_inner_texts():
            assert re.fullmatch(r"hit \(-3\)|defended \(\+0\)", text), text
    shot(page, f"first-day-replay-{game}")
    assert not watch.problems, watch.problems
    person.close()


def test_four_gods_results_fit_a_phone(server: Server, browser: Browser) -> None:
    """On a 390-pixel-wide screen the round's results table (attack outcomes added a wide
    column) scrolls inside its card: its last column, the energy change, can be brought into
    view, and the page itself never scrolls sideways."""
    table = _table(server, "battle-of-the-four-gods")
    person = Person(browser, server, "ann")
    page = person.page
    page.set_viewport_size({"width": 390, "height": 844})
    person.lobby()
    person.join(table["id"], "RED")
    page.get_by_role("button", name="Attack").first.click()
    page.get_by_role("button", name="Defend").nth(1).click()
    page.locator("button", has_text="Submit").first.click()
    results = page.locator(".last-round")
    expect(results.locator(".results")).to_be_visible()
    # The table may be drawn again as the bots' moves arrive (a new element, scrolled back
    # to the left), so scroll and measure in one step, retried until a drawing holds still.
    page.wait_for_function(
        """() => {
            const card = document.querySelector('.last-round');
            const heads = card && card.querySelectorAll('thead th');
            if (!heads || !heads.length) return false;
            card.scrollLeft = card.scrollWidth;
            const box = heads[heads.length - 1].getBoundingClientRect();
            return box.width > 0 && box.right <= 390 + 1;
        }""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "first-day-four-gods-results-phone")
    person.close()
