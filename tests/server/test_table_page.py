"""The table page a person expects, in a real Chromium against a real ``meeple serve``:

1. one ordered log from the server, in words, the same after a reload (no "You played" lines;
   Four Gods' round lines merged in by step, after that round's choices and timeouts);
2. a timer that shows 0:00 before the timeout, and a notice by the actions saying what the timer
   played for you, gone once you act again;
3. leaving a table (with a confirmation): the seat played by the replacement bot, or open again
   before the start; the page watches on; the seat list counts who is watching;
4. seats named by their person and colour, counted from 1: no "Seat 0" on a Damocles table;
5. talk that says, as you type, who a message goes to (the server's dash rule), and errors that
   sit under the talk box or by the actions, dismissable and gone after a while, never over the
   log;
6. a Rules link, "▶ Your turn" in the tab's title, a remembered sound toggle with a beep when a
   turn starts, "rematch of TABLE" in a rematch's header;
7. results in words (Epoch Ellipse's team and survivors; "won", "lost" in every result table);
9. Ozymandias (campaign) on a phone: the hand and tableau right after the prompt, a map that
   says it scrolls sideways, and does.

Screenshots go to tests/server/screenshots/table-*.png (desktop 1280x860, phone 390x844)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from tests.server.browser_kit import FOUR_GODS, Browser, Page, Person, Server, expect, shot

PHONE = {"width": 390, "height": 844}

#: Every text the timer box shows, in order (recorded from the page's first paint on).
TIMER_WATCH = """
window.timerTexts = [];
document.addEventListener('DOMContentLoaded', () => {
  const box = document.getElementById('timer');
  if (box) new MutationObserver(() => window.timerTexts.push(box.textContent))
    .observe(box, {childList: true, characterData: true, subtree: true});
});"""

#: A WebAudio stand-in that counts the tones the page starts.
FAKE_AUDIO = """
window.beeps = 0;
window.AudioContext = class {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  createOscillator() { return {type: '', frequency: {value: 0}, connect() {}, stop() {},
    start() { window.beeps += 1; }}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
    connect() {}}; }
  resume() { return Promise.resolve(); }
};"""

#: While ``window.garble`` is set, every action this page sends becomes ``atk:Q`` (no such
#: god): the server refuses it, as it would a stale or mistyped action.
GARBLE = """
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (window.garble) {
    const frame = JSON.parse(data);
    if (frame.type === 'act') data = JSON.stringify({...frame, action: 'atk:Q'});
  }
  return realSend.call(this, data);
};"""


def new_table(server: Server, game: str, seats: list[dict], **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", json={
        "game": game, "players": len(seats), "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def sit(person: Person, table_id: str, seat: int | None = None) -> Page:
    """Join ``table_id`` as ``person`` through the API, keep the token as the lobby does, and
    open the table's page."""
    body = {"name": person.name} if seat is None else {"name": person.name, "seat": seat}
    joined = httpx.post(f"{person.server.url}/api/tables/{table_id}/join", json=body)
    assert joined.status_code == 200, joined.text
    page = person.page
    page.goto(person.server.url + "/static/favicon.svg")  # the origin, for its localStorage
    page.evaluate("([id, seat, token]) => localStorage.setItem(`meeple.seat.${id}`,"
                  " JSON.stringify({seat, token}))",
                  [table_id, joined.json()["seat"], joined.json()["token"]])
    page.goto(f"{person.server.url}/table/{table_id}")
    expect(page.locator("#connection")).to_have_text("connected")
    return page


def finished_bots_table(server: Server, game: str, players: int,
                        params: dict[str, Any]) -> str:
    table = new_table(server, game, [{"bot": "random"}] * players, params=params)
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots' {game} game did not end"
        time.sleep(0.1)
    return table["id"]


def log_lines(page: Page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("#log li").all_inner_texts()]


def first(lines: list[str], pattern: str) -> int:
    """The index of the first line matching ``pattern`` (fails when there is none)."""
    found = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    assert found, (pattern, lines)
    return found[0]


def boxes_overlap(page: Page, one: str, other: str) -> bool:
    a = page.locator(one).first.bounding_box()
    b = page.locator(other).first.bounding_box()
    assert a and b, (one, other)
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


# ------------------------------------------------------------- (1, 2) the log and the timer
def test_the_log_is_the_servers_in_order_and_a_timeout_shows_by_the_actions(
        server: Server, browser: Browser) -> None:
    table = new_table(server, FOUR_GODS, [{}] + [{"bot": "random"}] * 3, timer_seconds=5)
    ann = Person(browser, server, "ann")
    ann.context.add_init_script(TIMER_WATCH)
    page = sit(ann, table["id"])
    # round 1: ann attacks BLUE; her secret choice is logged to her, then the round, in words
    page.get_by_role("button", name="Attack BLUE").click()
    page.get_by_role("button", name="Submit: atk:B").click()
    expect(page.locator(".last-round h3")).to_have_text("Round 1 results")
    # round 2: ann lets the timer run out; the countdown reaches 0:00 first
    notice = page.locator("#act-notices .timeout-notice")
    expect(notice).to_have_text(re.compile("Time ran out: the timer played pass for you"),
                                timeout=12_000)
    shown = page.evaluate("window.timerTexts")
    assert "0:00 left" in shown, shown[-12:]
    zero = shown.index("0:00 left")
    assert "0:01 left" in shown[:zero], shown[:zero]  # counted down to it, second by second
    # the notice sits by the actions (above the chooser), not over anything
    assert not boxes_overlap(page, "#act-notices .timeout-notice", "#log")
    notice_box, chooser = notice.bounding_box(), page.locator("#actions").bounding_box()
    assert notice_box and chooser
    assert 0 <= chooser["y"] - (notice_box["y"] + notice_box["height"]) < 24  # right above
    shot(page, "table-timeout-notice")
    lines = log_lines(page)
    round1 = first(lines, r"^Round 1: RED attacks BLUE")
    timeout = first(lines, r"^Time ran out: the timer played pass for you\.$")
    round2 = first(lines, r"^Round 2: .*RED passes")
    assert round1 < timeout < round2, lines
    assert not any("You played" in line or "Time is up" in line for line in lines), lines
    # your own timeout is said once (not also "Time ran out for RED (ann)")
    assert not any(line.startswith("Time ran out for RED") for line in lines), lines
    # the next own action ends the notice
    page.get_by_role("button", name="Submit: pass").click()
    expect(notice).to_have_count(0)
    # a reload shows the same log, in the same order
    before = log_lines(page)
    page.reload()
    expect(page.locator("#log")).to_contain_text("Round 2:")
    after = log_lines(page)
    assert after[:len(before)] == before, (before, after)
    page.set_viewport_size(PHONE)
    shot(page, "table-log-phone")
    ann.close()


# --------------------------------------------------------------------------- (3) leaving
def test_a_person_leaves_a_running_and_an_open_table(server: Server,
                                                     browser: Browser) -> None:
    table = new_table(server, FOUR_GODS, [{}, {}, {"bot": "random"}, {"bot": "random"}])
    ann, bo, cy = (Person(browser, server, n) for n in ("ann", "bo", "cy"))
    cy.page.goto(f"{server.url}/table/{table['id']}")  # a spectator
    expect(cy.page.locator("#watching")).to_have_text("1 watching (you too).")
    page = sit(ann, table["id"])
    sit(bo, table["id"])
    expect(page.locator("#watching")).to_have_text("1 watching.")
    assert cy.page.get_by_role("button", name="Leave table").count() == 0  # nobody's seat
    # ann leaves: asked first, then told what became of her seat
    page.get_by_role("button", name="Leave table").click()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Leave this table? Bot heuristic plays your seat now")
    shot(page, "table-leave-confirm")
    page.get_by_role("button", name="Stay").click()
    expect(banner).to_be_hidden()
    page.get_by_role("button", name="Leave table").click()
    page.get_by_role("button", name="Yes, leave the table").click()
    expect(banner).to_contain_text(
        "You left this table; bot heuristic plays your seat now.")
    expect(banner.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    # the seat's token is forgotten; the page watches on, with no controls
    assert page.evaluate(f"localStorage.getItem('meeple.seat.{table['id']}')") is None
    expect(page.locator("#table-title")).to_contain_text("watching")
    expect(page.locator("#actions")).to_contain_text("You are watching.")
    assert page.get_by_role("button", name="Leave table").count() == 0
    assert page.get_by_label("Message").count() == 0
    expect(page.locator("#seat-list")).to_contain_text("RED (bot heuristic)")
    expect(page.locator("#watching")).to_have_text("2 watching (you too).")
    expect(page.locator("#log")).to_contain_text("ann left; the heuristic bot plays for them now.")
    # the others see the bot in ann's seat and play on with it
    expect(bo.page.locator("#seat-list")).to_contain_text("RED (bot heuristic)")
    bo.page.get_by_role("button", name="Submit: pass").click()
    expect(bo.page.locator(".last-round h3")).to_have_text("Round 1 results")
    shot(page, "table-left")
    page.set_viewport_size(PHONE)
    shot(page, "table-left-phone")
    # before the start, a leaver's seat opens again
    waiting = new_table(server, FOUR_GODS, [{}, {}, {}, {"bot": "random"}])
    page = sit(ann, waiting["id"])
    sit(bo, waiting["id"])
    page.get_by_role("button", name="Leave table").click()
    expect(page.locator("#banner")).to_contain_text("Your seat is open again")
    page.get_by_role("button", name="Yes, leave the table").click()
    expect(page.locator("#banner")).to_contain_text("You left this table; your seat is open again.")
    expect(bo.page.locator("#turn")).to_contain_text("Waiting for 2 more players")
    for person in (ann, bo, cy):
        person.close()


# ------------------------------------------------------------- (4) seats by name and colour
def test_seats_are_named_by_their_person_and_colour_never_seat_0(server: Server,
                                                                 browser: Browser) -> None:
    table = new_table(server, "damocles", [{}, {"bot": "random"}],
                      params={"setup_discard": 0, "first_placer": "seat0"})
    ann = Person(browser, server, "ann")
    page = sit(ann, table["id"])
    expect(page.locator("#table-title .you")).to_have_text("you: ann")
    seats = page.locator("#seat-list li")
    expect(seats).to_have_text([re.compile(r"^ann \(you\) online"), re.compile(r"^bot random")])
    expect(seats.nth(0).locator(".seat-chip")).to_have_attribute("data-colour", "crimson")
    expect(seats.nth(1).locator(".seat-chip")).to_have_attribute("data-colour", "royalblue")
    expect(page.locator(".dmc-seat.mine")).to_contain_text("seat 1")  # counted from 1
    expect(page.locator("#turn")).to_have_text("▶ Your turn.")
    # ann places the first god; the log names her, then the bot, each with its colour
    page.locator(".dmc-slot.action").first.click()
    page.locator(".dmc-bank-god.action").first.click()
    entries = page.locator("#log li.log-event")
    expect(entries.first).to_have_text(re.compile(r"^ann \(you\) places \w+ on slot 1\.$"))
    expect(entries.first).to_have_class(re.compile(r"\bmine\b"))
    expect(entries.nth(1)).to_have_text(re.compile(r"^bot random places \w+ on slot \d\.$"))
    expect(entries.nth(1).locator(".seat-chip")).to_have_attribute("data-colour", "royalblue")
    expect(page.locator("#log li.log-when").first).to_have_text(re.compile(r"^(Setup|Turn \d+)$"))
    for viewport, name in (({"width": 1280, "height": 860}, "table-names"),
                           (PHONE, "table-names-phone")):
        page.set_viewport_size(viewport)
        text = page.locator("body").inner_text()
        assert not re.search(r"\bSeat \d", text), re.findall(r".{30}\bSeat \d.{30}", text)
        shot(page, name)
    ann.close()


# ------------------------------------------------------------- (5) talk and where errors go
def test_talk_says_who_a_message_goes_to_and_errors_stay_out_of_the_log(
        server: Server, browser: Browser) -> None:
    table = new_table(server, FOUR_GODS, [{}] + [{"bot": "random"}] * 3)
    ann = Person(browser, server, "ann")
    ann.context.add_init_script(GARBLE)
    ann.page.clock.install()
    page = sit(ann, table["id"])
    message, to = page.get_by_label("Message"), page.locator("#talk-to")
    # the server's rule: only "-" + initials + a space + text is private
    for typed, says in (("- I think blue is bluffing", "To everyone."),
                        ("-3 for me", "To everyone."), ("-ok", "To everyone."),
                        ("-bx hi", "To everyone."),
                        ("-bg hi", "Private to BLUE (bot random), GREEN (bot random) "
                                   "(by the dash and initials)."),
                        ("-r note to self", "Addressed to nobody but you: the table refuses it.")):
        message.fill(typed)
        expect(to).to_have_text(says)
    message.fill("- I think blue is bluffing")
    page.get_by_label("To ORANGE").check()
    expect(to).to_have_text("Private to ORANGE (bot random).")
    page.get_by_label("To ORANGE").uncheck()
    page.get_by_role("button", name="Send").click()
    public = page.locator(".talk-message", has_text="I think blue is bluffing")
    expect(public).to_have_count(1)
    expect(public).not_to_have_class(re.compile("is-private"))
    expect(public.locator(".text")).to_have_text("- I think blue is bluffing")  # as typed
    message.fill("-bg hi")
    message.press("Enter")
    private = page.locator(".talk-message.is-private")
    expect(private).to_contain_text("private to BLUE (bot random), GREEN (bot random): hi")
    expect(message).to_have_value("")
    # a refused message: under the talk box, not over the log; dismissable; gone in a while
    message.fill("-r note to self")
    page.get_by_role("button", name="Send").click()
    talk_error = page.locator("#talk .talk-errors .error")
    expect(talk_error).to_contain_text("talk_error")
    assert page.locator("#errors .error").count() == 0
    assert not boxes_overlap(page, "#talk .talk-errors .error", "#log")
    # a refused action: by the actions, the chooser usable again
    page.evaluate("window.garble = true")
    page.get_by_role("button", name="Attack BLUE").click()
    page.get_by_role("button", name="Submit: atk:B").click()
    action_error = page.locator("#act-errors .error")
    expect(action_error).to_contain_text("parse_error")
    assert not boxes_overlap(page, "#act-errors .error", "#log")
    error_box, actions = action_error.bounding_box(), page.locator("#actions").bounding_box()
    assert error_box and actions
    assert 0 <= error_box["y"] - (actions["y"] + actions["height"]) < 24  # right under them
    expect(page.get_by_role("button", name="Submit: atk:B")).to_be_enabled()
    shot(page, "table-errors")
    page.set_viewport_size(PHONE)
    shot(page, "table-errors-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    action_error.get_by_role("button", name="Dismiss").click()
    expect(action_error).to_have_count(0)
    page.clock.fast_forward(13_000)  # errors leave by themselves after 12 s
    expect(talk_error).to_have_count(0)
    page.evaluate("window.garble = false")
    page.get_by_role("button", name="Submit: atk:B").click()
    ann.wait_accepted("atk:B")
    ann.close()


# --------------------------------------------- (6) rules, your turn, sound, rematch header
def test_rules_link_your_turn_title_sound_and_rematch_header(server: Server,
                                                             browser: Browser) -> None:
    table = new_table(server, FOUR_GODS, [{}] + [{"bot": "random"}] * 3)
    ann = Person(browser, server, "ann")
    ann.context.add_init_script(FAKE_AUDIO)
    page = sit(ann, table["id"])
    expect(page).to_have_title(re.compile(r"^▶ Your turn — meeple: Battle of the Four Gods"))
    rules = page.get_by_role("link", name="Rules of Battle of the Four Gods (opens in a new tab)")
    expect(rules).to_have_attribute("href", f"/rules/{FOUR_GODS}")
    expect(rules).to_have_attribute("target", "_blank")
    assert httpx.get(server.url + f"/rules/{FOUR_GODS}").status_code == 200
    # sound: off by default; on, it beeps at once and when a turn starts; remembered
    sound = page.get_by_role("button", name="Sound when your turn starts")
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text("♪ Sound off")
    page.evaluate("window.beeps = 0")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_text("♪ Sound on")
    assert page.evaluate("localStorage.getItem('meeple.sound')") == "on"
    assert page.evaluate("window.beeps") == 1
    page.get_by_role("button", name="Submit: pass").click()
    expect(page.locator(".last-round h3")).to_have_text("Round 1 results")  # round 2: a turn
    page.wait_for_function("window.beeps === 2")
    page.reload()
    expect(sound).to_have_attribute("aria-pressed", "true")
    # a spectator's tab never says "your turn"
    watcher = Person(browser, server, "cy")
    watcher.page.goto(f"{server.url}/table/{table['id']}")
    expect(watcher.page.locator("#table-title")).to_contain_text("watching")
    expect(watcher.page).to_have_title(re.compile(r"^meeple: Battle of the Four Gods"))
    # a rematch says whose rematch it is
    done = finished_bots_table(server, FOUR_GODS, 4, {"start_energy": 6})
    again = httpx.post(f"{server.url}/api/tables/{done}/rematch").json()
    watcher.page.goto(f"{server.url}/table/{again['id']}")
    title = watcher.page.locator("#table-title")
    expect(title).to_contain_text(f"rematch of table {done}")
    expect(title.get_by_role("link", name=f"table {done}")).to_have_attribute(
        "href", f"/table/{done}")
    shot(watcher.page, "table-rematch-header")
    ann.close()
    watcher.close()


# ------------------------------------------------------------------ (7) results in words
EPOCH_RESULT = """async ([result, view, mySeat]) => {
  const board = await import('/static/js/boards/epoch-ellipse.js');
  return board.resultText(result, view, {mySeat});
}"""


def test_results_are_in_words(server: Server, browser: Browser) -> None:
    watcher = Person(browser, server, "cy")
    page = watcher.page
    # Epoch Ellipse: the team's result and each survivor's, from returns (1: alive at a win)
    page.goto(server.url + "/static/favicon.svg")
    won = {"returns": [1, 0], "winners": [0], "scores": [5, 5], "truncated": False,
           "outcome": {"team_win": True, "cause": "recovered", "recovered_vp": 5,
                       "survivors": 1}}
    view = {"target_vp": 5, "recovered_vp": 5,
            "players": [{"status": "alive"}, {"status": "dead"}]}
    words = page.evaluate(EPOCH_RESULT, [won, view, 1])
    assert words["headline"] == ("The team won, but you did not survive: 5 VP Recovered (the "
                                 "target was 5).")
    assert words["rows"] == ["survived: won with the team", "did not survive (the team won)"]
    assert page.evaluate(EPOCH_RESULT, [won, view, 0])["headline"].startswith(
        "The team won and you survived: ")
    assert page.evaluate(EPOCH_RESULT, [won, view, None])["headline"].startswith("The team won: ")
    lost = {**won, "returns": [0, 0], "winners": [],
            "outcome": {"team_win": False, "cause": "combat", "recovered_vp": 2,
                        "survivors": 0}}
    words = page.evaluate(EPOCH_RESULT, [lost, {**view, "players": [{"status": "dead"}] * 2}, 0])
    assert words["headline"] == "The team lost: the last survivor died in a lost combat."
    assert words["rows"] == ["did not survive: lost with the team"] * 2
    # finished tables: every Result cell is words, the score column named by the game
    for game, players, params, score, headline in (
            ("epoch-ellipse", 2, {"target_vp": 3}, "Recovered VP", r"^The team (won|lost): "),
            (FOUR_GODS, 4, {"start_energy": 6}, "Final energy",
             r"^(.+ won\.|.+ shared the win\.|Nobody won\.)$")):
        table_id = finished_bots_table(server, game, players, params)
        page.goto(f"{server.url}/table/{table_id}")
        result = page.locator("#result")
        expect(result.locator(".headline")).to_have_text(re.compile(headline))
        expect(result.locator("thead th")).to_have_text(["Seat", score, "Result"])
        cells = result.locator("td.outcome-words").all_inner_texts()
        assert len(cells) == players, cells
        for cell in cells:
            assert re.fullmatch(r"[a-z][a-z ,:()]+", cell), cells  # words, no raw 0/1
        if game == FOUR_GODS:
            assert set(cells) <= {"won", "lost", "shared the win"}, cells
            assert "won" in cells or "shared the win" in cells, cells
        for score_cell in result.locator("td.score").all_inner_texts():
            assert re.fullmatch(r"-?\d+(\.\d+)?", score_cell), score_cell
        shot(page, f"table-result-{game}")
    page.set_viewport_size(PHONE)
    shot(page, "table-result-phone")
    watcher.close()


# -------------------------------------------------------------- (9) the campaign on a phone
def test_campaign_on_a_phone_hand_by_the_prompt_and_a_map_that_scrolls(
        server: Server, browser: Browser) -> None:
    table = new_table(server, "ozymandias-campaign", [{}, {"bot": "heuristic"}],
                      params={"target_vp": 5, "max_rounds": 5})
    ann = Person(browser, server, "ann")
    page = ann.page
    page.set_viewport_size(PHONE)
    sit(ann, table["id"])
    expect(page.locator('[data-action="campaign"]')).to_be_visible()  # ann's mode choice
    prompt = page.locator("#actions").bounding_box()
    hand = page.locator("#board .oz-player.mine .oz-hand").bounding_box()
    mine = page.locator("#board .oz-player.mine").bounding_box()
    game_map = page.locator(".oz-map-box").bounding_box()
    assert prompt and hand and mine and game_map
    # the seat's own panel follows the prompt (the board's round header between them)
    assert mine["y"] - (prompt["y"] + prompt["height"]) < 200, (prompt, mine)
    assert hand["y"] < game_map["y"], (hand, game_map)
    # the map is wider than the phone: it says so, shadows its far side, and scrolls
    hint = page.locator(".oz-scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("scroll it sideways")
    frame = page.locator(".oz-map-frame")
    expect(frame).to_have_class(re.compile(r"\bmore-right\b"))
    expect(frame).not_to_have_class(re.compile(r"\bmore-left\b"))
    shot(page, "table-campaign-phone")
    box = page.locator(".oz-map-box")
    box.evaluate("b => { b.scrollLeft = 0; }")
    box.hover()
    page.mouse.wheel(200, 0)
    page.wait_for_function("document.querySelector('.oz-map-box').scrollLeft > 0")
    expect(frame).to_have_class(re.compile(r"\bmore-left\b"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # on a desktop the whole map fits: no hint
    page.set_viewport_size({"width": 1280, "height": 860})
    page.locator('[data-action="campaign"]').click()
    ann.wait_accepted("campaign")
    expect(page.locator(".oz-map-wrap")).not_to_have_class(re.compile(r"\bscrolls\b"))
    expect(hint).to_be_hidden()
    shot(page, "table-campaign")
    ann.close()
