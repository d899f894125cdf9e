"""The lobby page in a real Chromium against a real ``meeple serve``: the tables and recent
games are pushed by the server (no polling), the list pages with "Show more", the New table
form is built from each game's parameter schema (checked before sending, the server's refusals
in words), players and seats follow the game's seat names, each table shows its seats by name
with colour chips and how many watch, recent games give their length in the game's unit, a
phone reaches the form on its first screen, and errors push the page down instead of covering
it. Screenshots go to tests/server/screenshots/ (lobby-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from tests.server.browser_kit import (
    FOUR_GODS,
    SHOTS,
    Browser,
    Page,
    Person,
    Server,
    expect,
    shot,
    skip_without_a_browser,
)
from tests.server.test_crash import Seat

DECK = Path(__file__).resolve().parents[2] / "src/meeple/games/damocles/data/codices.json"


def _create(server: Server, game: str, **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", json={"game": game, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def _table_requests(page: Page) -> list[str]:
    """The URLs of every request ``page`` makes to ``GET /api/tables`` (the list itself, not
    one table's ``/api/tables/ID``), from now on."""
    seen: list[str] = []
    page.on("request", lambda r: urlparse(r.url).path == "/api/tables" and seen.append(r.url))
    return seen


def _row(page: Page, table_id: str):
    return page.locator(f"#tables tr[data-table='{table_id}']")


# ------------------------------------------------------------------ 1, 4: pushed, not polled

def create_unseated(page) -> str:
    """Click *Create table* (not sitting) and return the id the lobby says it created."""
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#create-status")).to_contain_text("is created")
    return re.search(r"Table (\S+) is created", page.locator("#create-status").inner_text())[1]

def test_tables_are_pushed_with_seats_chips_and_watchers(server: Server,
                                                         browser: Browser) -> None:
    first = _create(server, FOUR_GODS, seats=[{}, {"bot": "heuristic"}], timer_seconds=30)
    person = Person(browser, server, "ann")
    requests = _table_requests(person.page)
    page = person.lobby()
    expect(_row(page, first["id"])).to_be_visible()
    # another client's new table appears without a reload, and nothing polls the list
    second = _create(server, "damocles", players=3, seats=[{}, {"bot": "random"}])
    expect(_row(page, second["id"])).to_be_visible(timeout=2500)
    # a person joins and a spectator watches: the row says so, pushed too
    httpx.post(f"{server.url}/api/tables/{first['id']}/join", json={"name": "bo"})
    spectator = Seat(server, first["id"], None)
    try:
        row = _row(page, first["id"])
        expect(row.locator(".watching")).to_have_text("1 watching", timeout=2500)
        expect(row).to_contain_text("RED: bo (away)")
        expect(row).to_contain_text("BLUE: bot heuristic")
        expect(row).to_contain_text("30 s")
        expect(row.locator(".status")).to_have_text("open")
        # seats by the game's names, with a chip of the seat's colour next to each
        chips = row.locator(".seat-chip")
        expect(chips).to_have_count(4)
        assert chips.nth(0).evaluate("e => getComputedStyle(e).backgroundColor") == \
            "rgb(255, 0, 0)"
        expect(page.get_by_role("button", name=f"Join {first['id']} as GREEN", exact=True)
               ).to_be_visible()
        # seats counted from 1 for a game whose engine names them Seat 0, Seat 1...
        other = _row(page, second["id"])
        expect(page.get_by_role("button", name=f"Join {second['id']} as seat 1", exact=True)
               ).to_be_visible()
        expect(other).to_contain_text("seat 2: bot random")
        assert "Seat 0" not in other.inner_text()
        expect(page.get_by_role("link", name=f"Watch {first['id']}")).to_be_visible()
        page.wait_for_timeout(3000)  # the old lobby polled every 2 s
        shot(page, "lobby-desktop")
    finally:
        spectator.ws.close()
    assert requests == [], requests
    person.close()


# ------------------------------------------------------------------ 7: errors push content
def test_a_lobby_error_pushes_the_page_down_instead_of_covering_it(
        server: Server, browser: Browser) -> None:
    table = _create(server, FOUR_GODS, seats=[{}, {"bot": "random"}])
    person = Person(browser, server, "")
    page = person.lobby()
    page.get_by_role("button", name=f"Join {table['id']} as RED", exact=True).click()
    error = page.locator("#errors .error")
    expect(error).to_contain_text("Type your name first")
    assert page.locator("#errors").evaluate("e => getComputedStyle(e).position") != "fixed"
    box = error.bounding_box()
    lists = page.locator("section.lists").bounding_box()
    assert box is not None and lists is not None
    assert box["y"] + box["height"] <= lists["y"], (box, lists)
    expect(page.locator("#player-name")).to_be_focused()
    shot(page, "lobby-error")
    person.close()


# ------------------------------------------------------------------ 1: Show more
@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own holding 54 open tables (more than one page of 50), made from three
    loopback addresses (each client address may hold 20 tables waiting for people)."""
    skip_without_a_browser()
    folder = tmp_path_factory.mktemp("crowded")
    running = Server(f"sqlite:///{folder / 'meeple.db'}", folder)
    try:
        for address in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            transport = httpx.HTTPTransport(local_address=address)
            with httpx.Client(transport=transport, base_url=running.url) as client:
                for _ in range(18):
                    made = client.post("/api/tables", json={"game": "damocles", "players": 2})
                    assert made.status_code == 201, made.text
        yield running
    finally:
        running.kill()


def test_show_more_loads_the_next_page(crowded: Server, browser: Browser) -> None:
    person = Person(browser, crowded, "ann")
    requests = _table_requests(person.page)
    page = person.lobby()
    rows = page.locator("#tables tbody tr")
    expect(rows).to_have_count(50)
    more = page.get_by_role("button", name="Show more (4 more)")
    more.click()
    expect(rows).to_have_count(54)
    expect(page.locator("#more-tables")).to_be_hidden()
    assert [urlparse(u).query for u in requests] == ["offset=50"], requests
    # a new table is pushed on top; the longer list stays whole
    made = _create(crowded, "damocles", players=2)
    expect(_row(page, made["id"])).to_be_visible(timeout=2500)
    expect(rows).to_have_count(55)
    expect(rows.first).to_have_attribute("data-table", made["id"])
    person.close()


# ------------------------------------------------------------------ 2: the form from the schema
def test_the_form_is_built_from_the_parameter_schema(server: Server,
                                                     browser: Browser) -> None:
    person = Person(browser, server, "ann")
    page = person.lobby()
    games = {g["name"]: g for g in httpx.get(f"{server.url}/api/games").json()}
    page.select_option("#game", "damocles")
    page.locator("#params-box summary").click()
    schema = {p["name"]: p for p in games["damocles"]["parameters"]}
    # each parameter's input from its type, its doc as the hint
    expect(page.locator("#param-mirror")).to_have_attribute("type", "checkbox")
    expect(page.locator("#param-deal")).to_have_attribute("type", "number")
    expect(page.locator("#param-deal")).to_have_attribute("min", "1")
    expect(page.locator("#param-deal")).to_have_attribute("max", "20")
    assert page.locator("#param-match option").all_text_contents() == \
        schema["match"]["choices"]
    expect(page.locator("#param-deck")).to_have_value("")
    expect(page.locator("#param-deck option").first).to_have_text("packaged (default)")
    expect(page.locator("#param-deal-hint")).to_have_text(schema["deal"]["doc"])
    expect(page.get_by_label("Deal", exact=True)).to_have_value("8")
    # the variant's params over the defaults; changing the variant resets the inputs
    page.select_option("#param-bank", "infinite")
    page.select_option("#variant", "strict")
    expect(page.locator("#param-bank")).to_have_value("shared20")
    expect(page.locator("#param-strict_steps")).to_be_checked()
    page.select_option("#variant", "seed")
    expect(page.locator("#param-bank")).to_have_value("separate4")
    expect(page.locator("#param-strict_steps")).not_to_be_checked()
    # a refused upload says why in the server's words; a good one is added and selected
    page.locator("#param-deck-upload").set_input_files(files=[{
        "name": "broken.json", "mimeType": "application/json", "buffer": b'{"x": 1}'}])
    expect(page.locator("#param-deck-upload-status")).to_contain_text(
        "Not uploaded: invalid deck broken.json")
    page.locator("#param-deck-upload").set_input_files(str(DECK))
    expect(page.locator("#param-deck-upload-status")).to_contain_text("Uploaded codices.json")
    deck = page.locator("#param-deck").input_value()
    assert deck.startswith("upload-codices"), deck
    page.locator("#param-mirror").check()
    shot(page, "lobby-create-form")

    # a value out of range is refused before sending, next to its field
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and urlparse(r.url).path == "/api/tables"
            and posts.append(r.url))
    page.fill("#param-deal", "50")
    page.fill("#timer", "2")
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#param-deal-problem")).to_have_text(
        "Must be a whole number from 1 to 20.")
    expect(page.locator("#param-deal")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#timer-problem")).to_contain_text("from 5 to 86400")
    expect(page.locator("#timer")).to_be_focused()
    shot(page, "lobby-refused-value")
    assert posts == []
    page.fill("#param-deal", "7")
    expect(page.locator("#param-deal-problem")).to_be_hidden()
    # a combination only the server refuses: its message in words, no code, by the form
    page.fill("#timer", "")
    page.fill("#param-deal", "1")
    page.fill("#param-setup_discard", "5")
    page.get_by_role("button", name="Create table").click()
    refusal = page.locator("#create-error")
    expect(refusal).to_contain_text("setup_discard = 5 must be below deal = 1")
    assert "(bad_table)" not in refusal.inner_text()
    expect(page.locator("#param-setup_discard-problem")).to_contain_text("must be below")
    shot(page, "lobby-server-refusal")
    # put right, the table is made with the uploaded deck and the changed values
    page.fill("#param-deal", "6")
    page.fill("#param-setup_discard", "1")
    page.locator("#sit").uncheck()
    table_id = create_unseated(page)
    params = httpx.get(f"{server.url}/api/tables/{table_id}").json()["params"]
    assert (params["deck"], params["deal"], params["setup_discard"], params["mirror"]) == \
        (deck, 6, 1, True)
    assert len(posts) == 2
    person.close()


# ------------------------------------------------------------------ 3: players and seats
def test_players_and_seats_follow_the_games_seat_names(server: Server,
                                                       browser: Browser) -> None:
    person = Person(browser, server, "ann")
    page = person.lobby()
    page.select_option("#game", FOUR_GODS)
    assert page.locator("#players option").all_text_contents() == ["2", "3", "4"]
    seat_rows = page.locator("#seats .seat-row span")
    assert seat_rows.all_text_contents() == ["RED", "BLUE", "GREEN", "ORANGE"]
    page.select_option("#players", "2")
    expect(seat_rows).to_have_text(["RED", "BLUE"])
    page.select_option("#game", "damocles")
    assert page.locator("#players option").all_text_contents() == ["2", "3", "4", "5", "6"]
    expect(seat_rows).to_have_text(["Seat 1", "Seat 2", "Seat 3", "Seat 4"])
    page.select_option("#players", "3")
    expect(seat_rows).to_have_text(["Seat 1", "Seat 2", "Seat 3"])
    assert "Seat 0" not in page.locator("#create-section").inner_text()
    # who takes a leaving person's seat: the heuristic bot unless chosen otherwise
    expect(page.get_by_label("If a person leaves")).to_have_value("heuristic")
    options = page.locator("#replace option").all_text_contents()
    assert options[-1] == "the timer plays for them" and \
        "the heuristic bot plays for them" in options
    expect(page.locator("#timer")).to_have_attribute("min", "5")
    expect(page.locator("#timer")).to_have_attribute("max", "86400")
    page.get_by_label("Seat 2: who plays").select_option("random")
    page.select_option("#replace", "timer")
    page.fill("#timer", "7")
    page.locator("#sit").uncheck()
    table_id = create_unseated(page)
    info = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert (info["players"], info["replace"], info["timer_seconds"]) == (3, "timer", 7)
    assert [s["kind"] for s in info["seats"]] == ["open", "bot", "open"]
    expect(page.get_by_role("button", name=f"Join {table_id} as seat 3", exact=True)
           ).to_be_visible()
    person.close()


# ------------------------------------------------------------------ 5, 4: recent games, rematch
def test_recent_games_give_their_length_in_the_games_unit_and_a_rematch_says_so(
        server: Server, browser: Browser) -> None:
    # a person's game, finished by its 5 s timer (ann never comes), and two bots' games
    personal = _create(server, FOUR_GODS, players=2, seats=[{}, {"bot": "random"}],
                       timer_seconds=5, params={"max_rounds": 1})
    httpx.post(f"{server.url}/api/tables/{personal['id']}/join", json={"name": "ann"})
    person = Person(browser, server, "cy")
    page = person.lobby()
    expect(page.locator("#recent-title")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open: what finishes now is pushed
    rounds = _create(server, FOUR_GODS, players=2, seats=[{"bot": "random"}] * 2,
                     params={"max_rounds": 3})
    turns = _create(server, "damocles", players=2, seats=[{"bot": "random"}] * 2,
                    params={"cycles": 1})
    for table in (rounds, turns, personal):
        expect(page.locator(f"#recent tr[data-table='{table['id']}']")).to_be_visible(
            timeout=15_000)
    recent = {g["id"]: g for g in httpx.get(f"{server.url}/api/recent").json()}
    for table, unit in ((rounds, "rounds"), (turns, "turns"), (personal, "round")):
        game = recent[table["id"]]
        row = page.locator(f"#recent tr[data-table='{table['id']}']")
        expect(row).to_contain_text(f"{game['length']} {unit}")
        assert "steps" not in row.inner_text()
    assert recent[rounds["id"]]["length"] == 3 and recent[personal["id"]]["length"] == 1
    row = page.locator(f"#recent tr[data-table='{personal['id']}']")
    expect(row.locator("td").nth(2)).to_contain_text("RED (ann)")
    expect(row.locator("td").nth(2)).to_contain_text("BLUE (bot random)")
    labels = {0: "RED (ann)", 1: "BLUE (bot random)"}
    winners = row.locator("td").nth(3)
    expect(winners.locator("li")).to_have_text(
        [labels[s] for s in recent[personal["id"]]["winners"]])
    turns_row = page.locator(f"#recent tr[data-table='{turns['id']}']")
    expect(turns_row.locator("td").nth(2)).to_contain_text("seat 1 (bot random)")
    expect(page.get_by_role("link", name=f"Replay {rounds['id']}")).to_be_visible()
    # the person's game played again: its table says whose rematch it is
    rematch = httpx.post(f"{server.url}/api/tables/{personal['id']}/rematch")
    assert rematch.status_code == 200, rematch.text
    expect(_row(page, rematch.json()["id"]).locator(".rematch-of")).to_have_text(
        f"rematch of {personal['id']}")
    shot(page, "lobby-recent")
    person.close()


# ------------------------------------------------------------------ 6: phone
def test_a_phone_reaches_the_new_table_form_on_its_first_screen(
        server: Server, browser: Browser) -> None:
    for _ in range(4):  # a lobby with several tables above the form
        _create(server, FOUR_GODS, seats=[{}, {"bot": "random"}])
    person = Person(browser, server, "ann")
    page = person.page
    page.set_viewport_size({"width": 390, "height": 844})
    person.lobby()
    expect(page.locator("#tables tbody tr").first).to_be_visible()
    entry = page.get_by_role("link", name="New table")
    box = entry.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844, box
    assert box["x"] + box["width"] <= 390, box
    shot(page, "lobby-phone")
    entry.click()
    expect(page.locator("#game")).to_be_focused()
    expect(page.locator("#create-title")).to_be_in_viewport()
    expect(page.locator("#game")).to_be_in_viewport()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby is {width} px wide on a 390 px screen"
    page.screenshot(path=str(SHOTS / "lobby-phone-form.png"))  # the screen, not the page
    person.close()
