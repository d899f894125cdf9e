"""The browser client in a real Chromium (Playwright's sync API driving Debian's ``chromium``)
against a real ``meeple serve`` subprocess on a free port with a temporary SQLite file: four
people play Battle of the Four Gods to the end through the lobby and the designer's layout
(private talk seen by its recipient only, a timer expiry, a rematch); a person plus bots finish
a game of each other design by clicking legal actions; a reload mid-game keeps the seat.
Screenshots of the lobby and of tables go to tests/server/screenshots/ (gitignored) for review.

Skips, saying so, only when Playwright or chromium cannot be found (``.ci/run`` installs
Debian's chromium; ``MEEPLE_CHROMIUM`` names another binary).
"""

from __future__ import annotations

import random
import time

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
)

FOUR_GODS = "battle-of-the-four-gods"


# ------------------------------------------------------------------ (a) Four Gods, four people
def test_four_people_play_four_gods_to_the_end(server: Server, browser: Browser) -> None:
    people = [Person(browser, server, n) for n in ("ann", "bo", "cy", "di")]
    red, blue, green, orange = people
    # RED creates the table through the lobby's form and sits at the first open seat
    page = red.lobby()
    page.select_option("#game", FOUR_GODS)
    page.fill("#timer", "5")
    page.locator("#params-box summary").click()
    page.fill("#param-start_energy", "7")
    page.fill("#param-max_rounds", "8")
    shot(page, "lobby-create")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#turn")).to_contain_text("Waiting for 3 more players")
    info = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["params"]["start_energy"] == 7 and info["timer_seconds"] == 5
    lobby = blue.lobby()
    expect(lobby.get_by_role("button", name=f"Join {table_id} as BLUE")).to_be_visible()
    shot(lobby, "lobby")
    blue.join(table_id, "BLUE")
    green.join(table_id, "GREEN")
    orange.join(table_id, "ORANGE")

    # round 1: three submit, ORANGE lets the timer run out
    for person, target in ((red, "BLUE"), (blue, "GREEN"), (green, "ORANGE")):
        p = person.page
        expect(p.locator("#timer")).to_contain_text("left")
        p.get_by_role("button", name=f"Attack {target}").click()
        expect(p.get_by_role("button", name=f"Attack {target}")).to_have_attribute(
            "aria-pressed", "true")
        p.get_by_role("button", name=f"Submit: atk:{target[0]}").click()
        expect(p.locator(".submitted-note")).to_contain_text(f"atk:{target[0]}")
    turn = orange.page.locator("#turn")
    # a seat is named as people name it: its colour and its person
    expect(turn).to_contain_text("Submitted: RED (ann), BLUE (bo), GREEN (cy)")
    expect(turn).to_contain_text("Still choosing: ORANGE (di) (you)")
    shot(orange.page, "four-gods-waiting")
    # who submitted, never what: ORANGE's page shows none of the others' choices
    assert "atk:" not in orange.page.locator("body").inner_text()
    for person in people:  # the deadline passes: the server passes for ORANGE
        expect(person.page.locator(".last-round h3")).to_have_text("Round 1 results",
                                                                   timeout=15_000)
    expect(red.page.locator("#log")).to_contain_text("ORANGE passes")
    expect(orange.page.locator("#log")).to_contain_text("RED attacks BLUE")

    # talk: private by ticking a recipient, private by the -g prefix, public with markup
    red.page.get_by_label("To BLUE").check()
    red.page.get_by_label("Message").fill("meet me at dawn")
    red.page.get_by_role("button", name="Send").click()
    expect(blue.page.locator(".talk-list")).to_contain_text("meet me at dawn")
    blue.page.get_by_label("Message").fill("-g psst green")
    blue.page.get_by_label("Message").press("Enter")
    expect(green.page.locator(".talk-list")).to_contain_text("psst green")
    expect(green.page.locator(".talk-message.is-private")).to_contain_text("private to GREEN (cy)")
    markup = "<script>window.pwned=1</script><b>hi</b> all"
    red.page.get_by_label("Message").fill(markup)
    red.page.get_by_role("button", name="Send").click()
    for person in people:
        expect(person.page.locator(".talk-list")).to_contain_text(markup)
        assert person.page.locator(".talk-list b").count() == 0
        assert person.page.evaluate("window.pwned") is None
    assert "meet me at dawn" in blue.talk_texts() and "meet me at dawn" in red.talk_texts()
    for person in (green, orange):
        assert "meet me at dawn" not in person.talk_texts()
    for person in (red, orange):
        assert "psst green" not in person.talk_texts()
    # a message refused by the server is shown to its sender only, under the talk box
    red.page.get_by_label("Message").fill("-r note to self")
    red.page.get_by_role("button", name="Send").click()
    expect(red.page.locator("#talk .talk-errors")).to_contain_text("talk_error")
    assert blue.page.locator(".error").count() == 0
    shot(red.page, "four-gods-table")

    # play on: everyone attacks its first alive opponent until the game is over
    deadline = time.monotonic() + 60
    while not all(finished(p.page) for p in people):
        assert time.monotonic() < deadline, "the Four Gods game did not end"
        for person in people:
            p = person.page
            if finished(p) or not p.locator("button.submit").count():
                continue
            try:
                p.locator("button.toggle.atk").first.click(timeout=1000)
                p.locator("button.submit").click(timeout=1000)
            except PlaywrightTimeout:
                continue  # the round moved on meanwhile (or this god is out)
        time.sleep(0.05)
    for person in people:
        expect(person.page.locator("#result h2")).to_have_text("Game over")
        expect(person.page.locator("#turn")).to_have_text("Game over.")
    # the after-game survey: GREEN answers; the answers are stored for GREEN's seat only
    survey = green.page.get_by_role("form", name="After-game survey")
    survey.get_by_label("4").check()
    survey.get_by_label("too long").check()
    survey.get_by_label("What was confusing?").fill("when <i>drain</i> starts")
    survey.get_by_label("maybe").check()
    survey.get_by_role("button", name="Send answers").click()
    expect(survey.locator(".survey-status")).to_have_text("Thank you: your answers are saved.")
    shot(green.page, "four-gods-over")
    token = green.page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seat.{table_id}'))"
                                ".token")
    answers = httpx.get(f"{server.url}/api/tables/{table_id}/survey",
                        headers={"Authorization": f"Bearer {token}"}).json()
    assert answers == {"fun": 4, "length": "too long", "confusing": "when <i>drain</i> starts",
                       "again": "maybe", "comment": None}
    assert red.page.get_by_role("form", name="After-game survey").count() == 1  # RED's own
    state = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert state["status"] == "finished"
    # a rematch: RED asks for it and lands in the same seat of the new table
    red.page.get_by_role("button", name="Rematch").click()
    red.page.wait_for_url(lambda url: table_id not in url)
    expect(red.page.locator("#table-title")).to_contain_text("you: RED (ann)")
    expect(blue.page.get_by_role("button", name="Join the rematch")).to_be_visible()
    for person in people:
        person.close()


# ------------------------------------------------- (b) a person and bots, each other design
# (a game with its own board is played by its board test: test_board_GAME.py)
OTHERS = {
    "damocles": {"players": 2, "params": {"cycles": 1}, "bot": "random"},
    "epoch-ellipse": {"players": 2, "params": {"target_vp": 3}, "bot": "heuristic"},
}


@pytest.mark.parametrize("game", sorted(OTHERS))
def test_a_person_and_bots_finish_each_other_design(server: Server, browser: Browser,
                                                    game: str) -> None:
    spec = OTHERS[game]
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "players": spec["players"], "params": spec["params"],
        "seats": [{}] + [{"bot": spec["bot"]}] * (spec["players"] - 1)}).json()
    person = Person(browser, server, "ann")
    person.join(table["id"], "Seat 0")
    page = person.page
    rng = random.Random(game)
    clicks, deadline = 0, time.monotonic() + 45
    while not finished(page):
        assert time.monotonic() < deadline, f"{game}: not over after {clicks} clicks"
        buttons = page.locator("button.action:enabled")
        if not buttons.count():
            page.wait_for_timeout(30)
            continue
        if clicks == 2:
            shot(page, f"{game}-table")
        texts = buttons.all_text_contents()
        try:
            buttons.nth(rng.randrange(len(texts))).click(timeout=1000)
        except PlaywrightTimeout:
            continue
        clicks += 1
        # no optimistic play: the buttons stay disabled until the server's next state
        page.wait_for_function("!document.querySelector('button.action.sent')"
                               " || document.querySelector('#result:not([hidden])')")
    assert clicks > 0
    expect(page.locator("#result .headline")).not_to_be_empty()
    expect(page.locator("#log")).to_contain_text("Game over")
    done = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert done["status"] == "finished"
    person.close()


# ---------------------------------------------------------------- (c) a reload keeps the seat
def test_a_reload_mid_game_keeps_the_seat_and_a_stranger_only_watches(
        server: Server, browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": FOUR_GODS, "seats": [{}, {}, {"bot": "random"}, {"bot": "random"}],
        "timer_seconds": 600}).json()
    ann, bo = Person(browser, server, "ann"), Person(browser, server, "bo")
    ann.join(table["id"], "RED")
    bo.join(table["id"], "BLUE")
    ann.page.get_by_role("button", name="Attack GREEN").click()
    ann.page.get_by_role("button", name="Submit: atk:G").click()
    expect(ann.page.locator(".submitted-note")).to_contain_text("atk:G")
    ann.page.reload()
    expect(ann.page.locator("#table-title")).to_contain_text("you: RED (ann)")
    expect(ann.page.locator(".submitted-note")).to_contain_text("Submitted: atk:G")
    expect(ann.page.locator("#connection")).to_have_text("connected")
    bo.page.get_by_role("button", name="Submit: pass").click()
    expect(ann.page.locator(".last-round h3")).to_have_text("Round 1 results")
    expect(ann.page.get_by_role("button", name="Submit: pass")).to_be_enabled()
    # another browser (no token for this table) watches: no chooser, no talk box
    stranger = Person(browser, server, "cy")
    stranger.page.goto(f"{server.url}/table/{table['id']}")
    expect(stranger.page.locator("#table-title")).to_contain_text("watching")
    expect(stranger.page.locator("#actions")).to_contain_text("You are watching.")
    assert stranger.page.get_by_label("Message").count() == 0
    # a token the server does not know (a reset database): told so, and it watches instead
    stale = Person(browser, server, "di")
    stale.page.goto(server.url + "/")
    stale.page.evaluate(f"localStorage.setItem('meeple.seat.{table['id']}',"
                        " JSON.stringify({seat: 3, token: 'not-a-token'}))")
    stale.page.goto(f"{server.url}/table/{table['id']}")
    expect(stale.page.locator("#errors")).to_contain_text("not valid")
    expect(stale.page.locator("#table-title")).to_contain_text("watching")
    for person in (ann, bo, stranger, stale):
        person.close()


def test_a_phone_sized_table_fits_the_screen(server: Server, browser: Browser) -> None:
    # At 390 px the results table and the attack/defend rows used to widen the page past the
    # screen (the one-column grid took its children's min-content width).
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": FOUR_GODS, "seats": [{}, {"bot": "random"}, {"bot": "random"},
                                     {"bot": "random"}], "timer_seconds": 600}).json()
    ann = Person(browser, server, "ann")
    ann.page.set_viewport_size({"width": 390, "height": 844})
    # the lobby's table list: each table a card, its Join buttons on screen (they were off to
    # the right of a scrolling table)
    join = ann.lobby().get_by_role("button", name=f"Join {table['id']} as RED")
    box = join.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, box
    shot(ann.page, "lobby-phone")
    ann.join(table["id"], "RED")
    ann.page.get_by_role("button", name="Submit: pass").click()
    expect(ann.page.locator(".last-round h3")).to_have_text("Round 1 results")
    width = ann.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    shot(ann.page, "four-gods-phone")
    ann.close()
