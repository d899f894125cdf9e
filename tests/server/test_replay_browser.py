# ruff: noqa: F811  (pytest fixtures imported from browser_kit are taken as arguments)
"""The replay page in a real Chromium against a real ``meeple serve``: an all-bot Four Gods
table finishes, the lobby lists it under *Recent games*, and its replay steps forward and back
by buttons and keys and switches perspective, the board following. Screenshots go to
tests/server/screenshots/ (gitignored). Skips, saying so, without Playwright or chromium."""

from __future__ import annotations

import time

import httpx

from tests.server.browser_kit import (  # noqa: F401 (fixtures and marks used by pytest)
    Browser,
    Person,
    Server,
    browser,
    expect,
    pytestmark,
    server,
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
