"""The replay page in a real Chromium against a real ``meeple serve``: an all-bot Four Gods
table finishes, the lobby lists it under *Recent games*, and its replay steps forward and back
by buttons and keys and switches perspective, the board following. Screenshots go to
tests/server/screenshots/ (gitignored). Skips, saying so, without Playwright or chromium."""

from __future__ import annotations

import time

import httpx

from tests.server.browser_kit import (
    Browser,
    Person,
    Server,
    expect,
    shot,
)

FOUR_GODS = "battle-of-the-four-gods"


def _finished_bot_table(server: Server) -> str:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": FOUR_GODS, "params": {"start_energy": 7, "max_rounds": 8},
        "seats": [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"},
                  {"bot": "random"}]}).json()
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return table["id"]


def test_a_finished_game_replays_from_the_lobby(server: Server, browser: Browser) -> None:
    table_id = _finished_bot_table(server)
    steps = httpx.get(f"{server.url}/api/tables/{table_id}/replay").json()["steps"]
    viewer = Person(browser, server, "eve")
    page = viewer.lobby()
    row = page.locator(f"#recent tr[data-table='{table_id}']")
    expect(row).to_contain_text("Battle of the Four Gods")
    shot(page, "replay-lobby")
    row.get_by_role("link", name=f"Replay {table_id}").click()
    page.wait_for_url(f"**/replay/{table_id}*")
    step = page.locator("#step")
    expect(step).to_have_text(f"Step 0 of {steps}")
    expect(page.locator("#now")).to_contain_text("The start")
    expect(page.locator(".god-card")).to_have_count(4)   # the Four Gods board module drew it
    energy = page.locator(".god-card .energy-value")
    assert energy.all_text_contents() == ["7"] * 4
    page.get_by_role("button", name="Forward").click()
    expect(step).to_have_text(f"Step 1 of {steps}")
    expect(page.locator("#now")).to_contain_text("RED:")
    page.keyboard.press("End")
    expect(step).to_have_text(f"Step {steps} of {steps}")
    expect(page.locator("#result")).to_be_visible()
    assert energy.all_text_contents() != ["7"] * 4
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {steps - 1} of {steps}")
    page.get_by_role("button", name="Back").click()
    expect(step).to_have_text(f"Step {steps - 2} of {steps}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step {steps - 1} of {steps}")
    page.keyboard.press("Home")
    expect(step).to_have_text(f"Step 0 of {steps}")
    # RED's perspective: in the first round's middle RED sees its own submission, the
    # spectator does not
    page.keyboard.press("ArrowRight")
    expect(page.locator(".god-card.mine")).to_have_count(0)
    page.select_option("#perspective", "0")
    expect(page.locator("#table-title")).to_contain_text("as RED (bot random)")
    expect(page.locator(".god-card.mine")).to_have_count(1)
    expect(page.locator(".god-card.mine")).to_contain_text("RED (you)")
    expect(step).to_have_text(f"Step 1 of {steps}")   # the step is kept
    assert "seat=0" in page.url and "step=1" in page.url
    page.get_by_role("button", name="Last").click()
    shot(page, "replay-red-last")
    page.select_option("#perspective", "")
    expect(page.locator(".god-card.mine")).to_have_count(0)
    page.get_by_role("button", name="First").click()
    expect(step).to_have_text(f"Step 0 of {steps}")
    # the slider
    page.locator("#slider").fill(str(steps // 2))
    expect(step).to_have_text(f"Step {steps // 2} of {steps}")
    shot(page, "replay-spectator-middle")
    viewer.close()


def test_private_talk_shows_only_to_its_recipients_browser(server: Server,
                                                           browser: Browser) -> None:
    from tests.server.test_crash import Seat

    table = httpx.post(f"{server.url}/api/tables", json={
        "game": FOUR_GODS, "params": {"start_energy": 7, "max_rounds": 8},
        "seats": [{}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]}).json()
    token = httpx.post(f"{server.url}/api/tables/{table['id']}/join",
                       json={"name": "ann"}).json()["token"]
    seat = Seat(server, table["id"], token)
    seat.send({"type": "say", "text": "hello table", "id": "t1"})
    seat.send({"type": "say", "text": "-b psst blue", "id": "t2"})
    deadline = time.monotonic() + 60
    while seat.state["status"] != "finished":
        assert time.monotonic() < deadline
        if seat.state["legal"]:
            seat.send({"type": "act", "action": seat.state["legal"][0]})
        else:
            time.sleep(0.05)
            seat.drain()
    seat.ws.close()
    url = f"{server.url}/replay/{table['id']}?seat=1"
    ann = Person(browser, server, "ann")
    ann.page.goto(server.url + "/")
    ann.page.evaluate("([id, token]) => localStorage.setItem(`meeple.seat.${id}`, "
                      "JSON.stringify({seat: 0, token}))", [table["id"], token])
    ann.page.goto(url)
    expect(ann.page.locator("#step")).to_contain_text("Step 0 of")
    talk = ann.page.locator("#talk .text")
    ann.page.keyboard.press("End")   # (the bots may have submitted before ann spoke)
    expect(talk).to_have_text(["hello table", "psst blue"])
    expect(ann.page.locator("#talk .is-private")).to_contain_text("to BLUE (private)")
    ann.page.select_option("#perspective", "2")                # GREEN never saw it
    expect(talk).to_have_text(["hello table"])
    ann.page.select_option("#perspective", "1")
    expect(talk).to_have_text(["hello table", "psst blue"])
    shot(ann.page, "replay-private-talk")
    stranger = Person(browser, server, "eve")
    stranger.page.goto(url)
    expect(stranger.page.locator("#step")).to_contain_text("Step 0 of")
    stranger.page.keyboard.press("End")
    expect(stranger.page.locator("#talk .text")).to_have_text(["hello table"])
    ann.close()
    stranger.close()


def test_a_game_without_a_board_module_replays_in_the_generic_view(server: Server,
                                                                  browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": "damocles", "players": 2, "params": {"cycles": 1},
        "seats": [{"bot": "random"}, {"bot": "random"}]}).json()
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    viewer = Person(browser, server, "eve")
    page = viewer.page
    page.goto(f"{server.url}/replay/{table['id']}?seat=0&step=3")
    expect(page.locator("#step")).to_contain_text("Step 3 of")
    expect(page.locator("#board")).not_to_be_empty()
    expect(page.locator("#table-title")).to_contain_text("as Seat 0")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step")).to_contain_text("Step 4 of")
    shot(page, "replay-generic")
    viewer.close()
