"""Reconnecting in a real Chromium (Playwright, Debian's ``chromium``) against a real ``meeple
serve`` subprocess: the page finds its seat again by itself, with its token from
``localStorage``, after (1) the server is killed with SIGKILL and restarted on the same port and
database, (2) the network is cut and comes back (a TCP proxy inside the test, between the
browser and the server, drops every connection and refuses new ones), (3) the tab is closed
while the others play on and a new one is opened, (4) the proxy goes silent without closing
anything (only the client's heartbeat can tell; Playwright's clock runs the page's timers
ahead). Each time the page shows the same seat and the server's current state (what changed
meanwhile too), its talk, and the person can act again.

The page's connection badge (``#connection``) is recorded with a MutationObserver, so the test
also checks that it says the connection is lost and that the backoff grows from 1 s and starts
again from 1 s after a successful reconnect. Screenshots go to tests/server/screenshots/.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.server.browser_kit import FOUR_GODS, Person, shot
from tests.server.test_crash import Seat, Server

try:
    from playwright.sync_api import Browser, Page, expect
except ImportError:  # pragma: no cover - the fixtures skip, saying why
    pass

# the fixtures `browser` and `server` (one chromium, one `meeple serve` for the tests that do not
# kill it) come from conftest.py (browser_kit.py)

LOST = re.compile(r"connection lost|reconnecting")
WATCH_STATUS = """() => {
  const box = document.getElementById('connection');
  window.statuses = [box.textContent];
  new MutationObserver(() => window.statuses.push(box.textContent))
    .observe(box, {childList: true, characterData: true, subtree: true});
}"""


class Proxy:
    """A TCP proxy on a free port forwarding bytes unchanged to ``127.0.0.1:target`` (so the
    Host header and the Origin both name the proxy: the server's origin check passes).
    :meth:`cut` closes every proxied connection and refuses new ones (accepted, then closed at
    once) until :meth:`restore`; :meth:`hold` refuses new ones too but leaves the open ones
    open, silently dropping whatever they carry from then on (a path that died without a word,
    as when a phone changes network)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        self.silent: set[socket.socket] = set()
        self.down = False
        self.closed = False
        self.refused = 0
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            upstream = None
            if not self.down:
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                    upstream.settimeout(None)
                except OSError:
                    upstream = None
            with self.lock:
                if self.down or upstream is None:
                    self.refused += 1
                    for sock in (client, upstream):
                        if sock is not None:
                            sock.close()
                    continue
                self.open |= {client, upstream}
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                if src not in self.silent:
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            self._drop(src)
            self._drop(dst)

    def _drop(self, sock: socket.socket) -> None:
        with self.lock:
            self.open.discard(sock)
        try:
            sock.shutdown(socket.SHUT_RDWR)  # wakes the pump blocked in recv on it
        except OSError:
            pass
        sock.close()

    def cut(self) -> None:
        with self.lock:
            self.down = True
            doomed, self.open = list(self.open), set()
        for sock in doomed:
            self._drop(sock)

    def hold(self) -> None:
        with self.lock:
            self.down = True
            self.silent |= self.open

    def restore(self) -> None:
        with self.lock:
            self.down = False

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()
        self.thread.join(timeout=5)


def wait_until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def four_gods(url: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    response = httpx.post(f"{url}/api/tables", json={
        "game": FOUR_GODS, "seats": seats, "timer_seconds": 600})
    assert response.status_code == 201, response.text
    return response.json()


def red_connected(url: str, table_id: str) -> bool:
    return httpx.get(f"{url}/api/tables/{table_id}").json()["seats"][0]["connected"]


def energies(page: Page) -> Any:
    return page.locator(".gods-energy .energy-value")


def row(page: Page, colour: str) -> Any:
    """The row of ``colour`` in the last round's results table (God, Attacked with each
    attack's outcome, Defended, +/-): its first cell's ``.god`` chips are the gods attacked."""
    return page.locator(".last-round tbody tr").filter(has=page.locator(f"th .god-{colour}"))


def submit(person: Person, toggles: list[str], text: str) -> None:
    """Toggle, submit, and wait for the server's ``accepted`` frame (the page writes no log
    line of its own for it: the server's log says what happened)."""
    page = person.page
    count = person.accepted.count(text)
    for name in toggles:
        page.get_by_role("button", name=name).click()
    page.get_by_role("button", name=f"Submit: {text}").click()
    person.wait_accepted(text, count + 1)


def retry_delays(page: Page) -> list[list[int]]:
    """The badge's "retrying in N s" values, one list per outage (split at "connected")."""
    outages: list[list[int]] = [[]]
    for text in page.evaluate("window.statuses"):
        if text == "connected":
            outages.append([])
        elif found := re.fullmatch(r"connection lost; retrying in (\d+) s", text):
            outages[-1].append(int(found.group(1)))
    return [o for o in outages if o]


def check_backoff(delays: list[int]) -> None:
    # 0.5 s, 1 s, 2 s, ... each +-25 % and rounded up: the first retry says 1 s, and no retry
    # waits less than the one before it
    print(f"retry delays shown (s): {delays}")
    assert delays[0] == 1, delays
    assert delays == sorted(delays), delays


# --------------------------------------------------- (1) kill -9 and restart on the same port
def test_a_killed_and_restarted_server_is_rejoined_without_a_reload(
        browser: Browser, tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'meeple.db'}"
    first = Server(db_url, tmp_path)
    restarted = None
    ann = Person(browser, first, "ann")
    try:
        table = four_gods(first.url, [{}] + [{"bot": "random"}] * 3)
        ann.join(table["id"], "RED")
        page = ann.page
        page.evaluate(WATCH_STATUS)
        expect(page.locator("#connection")).to_have_text("connected")
        submit(ann, ["Attack BLUE"], "atk:B")
        expect(page.locator(".last-round h3")).to_have_text("Round 1 results")
        submit(ann, [], "pass")
        expect(page.locator(".last-round h3")).to_have_text("Round 2 results")
        page.get_by_label("Message").fill("back after the crash?")
        page.get_by_role("button", name="Send").click()
        expect(page.locator(".talk-list")).to_contain_text("back after the crash?")
        expect(page.get_by_role("button", name="Submit: pass")).to_be_enabled()
        token = page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seat.{table['id']}'))"
                              ".token")
        seat = Seat(first, table["id"], token)  # the server's own view of RED, before the kill
        before = seat.state
        assert before["view"]["round"] == 3 and before["legal"]
        expect(energies(page)).to_have_text([str(e) for e in before["view"]["energy"]])
        log = page.locator("#log li").all_text_contents()

        first.kill()  # SIGKILL: no shutdown hook runs, every socket just closes
        badge = page.locator("#connection")
        expect(badge).to_have_text(LOST)
        expect(page.locator(".seat.mine .presence")).to_have_text("away")
        shot(page, "reconnect-server-killed")
        # an action while down is not sent, and says so; the button is usable again after
        page.get_by_role("button", name="Submit: pass").click()
        expect(page.locator("#act-errors")).to_contain_text("Not connected")
        expect(page.get_by_role("button", name="Submit: pass")).to_be_enabled()

        restarted = Server(db_url, tmp_path, port=first.port)
        expect(badge).to_have_text("connected", timeout=30_000)  # no reload: by itself
        expect(page.locator(".seat.mine .presence")).to_have_text("online")
        expect(page.locator("#table-title")).to_contain_text("you: RED (ann)")
        again = Seat(restarted, table["id"], token)
        after = again.state
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        assert after["timer"]["deadline"] == before["timer"]["deadline"]
        expect(energies(page)).to_have_text([str(e) for e in after["view"]["energy"]])
        expect(page.locator(".last-round h3")).to_have_text("Round 2 results")
        expect(page.locator("h2", has_text="your choice")).to_have_text("Round 3: your choice")
        assert page.locator("#log li").all_text_contents() == log  # resynced, nothing twice
        assert "back after the crash?" in ann.talk_texts()
        # the timer counts down to the deadline stored before the kill
        left = after["timer"]["deadline"] - time.time()
        shown = page.locator("#timer").inner_text()
        minutes, seconds = re.fullmatch(r"(\d+):(\d\d) left", shown).groups()
        assert abs(int(minutes) * 60 + int(seconds) - left) < 5, (shown, left)

        submit(ann, ["Attack GREEN"], "atk:G")  # accepted
        expect(page.locator(".last-round h3")).to_have_text("Round 3 results")  # bots resumed
        expect(row(page, "red").locator("td").first.locator(".god")).to_have_text("GREEN")
        check_backoff(retry_delays(page)[0])
        print(f"restart to ready: {restarted.ready_seconds:.1f} s")
        again.ws.close()
        ann.close()
    finally:
        first.kill()
        if restarted is not None:
            restarted.kill()


# ------------------------------------------------------ (2) the network is cut and comes back
def test_a_cut_network_is_rejoined_with_what_happened_meanwhile(
        browser: Browser, server: Server) -> None:
    table = four_gods(server.url, [{}, {}, {"bot": "random"}, {"bot": "random"}])
    proxy = Proxy(server.port)
    ann = Person(browser, proxy, "ann")  # the page only ever reaches the server through it
    try:
        ann.join(table["id"], "RED")
        token = httpx.post(f"{server.url}/api/tables/{table['id']}/join",
                           json={"name": "bo"}).json()["token"]
        blue = Seat(server, table["id"], token)  # BLUE: a websocket client, never cut
        page = ann.page
        page.evaluate(WATCH_STATUS)
        badge = page.locator("#connection")
        expect(badge).to_have_text("connected")
        submit(ann, [], "pass")
        blue.send({"type": "act", "action": "pass"})
        expect(page.locator(".last-round h3")).to_have_text("Round 1 results")
        submit(ann, ["Attack BLUE"], "atk:B")

        proxy.cut()
        expect(badge).to_have_text(LOST)
        wait_until(lambda: not red_connected(server.url, table["id"]), "the server to see RED go")
        shot(page, "reconnect-network-cut")
        # meanwhile BLUE defends against RED (the round resolves: the bots are in) and talks
        assert "def:R" in blue.state["legal"]
        blue.send({"type": "act", "action": "def:R"})
        blue.send({"type": "say", "text": "-r you missed round 2"})
        wait_until(lambda: blue.drain() or blue.state["view"]["round"] == 3, "round 3")
        wait_until(lambda: proxy.refused >= 2, "two refused reconnection attempts")
        expect(page.locator(".last-round h3")).to_have_text("Round 1 results")  # really cut
        assert red_connected(server.url, table["id"]) is False

        proxy.restore()
        expect(badge).to_have_text("connected", timeout=20_000)
        expect(page.locator(".last-round h3")).to_have_text("Round 2 results")
        expect(row(page, "red").locator("td").first.locator(".god")).to_have_text("BLUE")
        expect(row(page, "blue").locator("td").nth(1)).to_have_text("RED")
        expect(page.locator(".talk-message.is-private")).to_contain_text("you missed round 2")
        expect(energies(page)).to_have_text([str(e) for e in blue.state["view"]["energy"]])
        expect(page.locator("#table-title")).to_contain_text("you: RED (ann)")
        assert red_connected(server.url, table["id"]) is True
        submit(ann, [], "pass")
        wait_until(lambda: blue.drain() or 0 in blue.state["view"]["submitted"]
                   or blue.state["view"]["round"] == 4, "RED's round 3 submission")

        # a second, short outage: the backoff starts again from its first step
        proxy.cut()
        expect(badge).to_have_text(LOST)
        proxy.restore()
        expect(badge).to_have_text("connected", timeout=20_000)
        first, second = retry_delays(page)
        check_backoff(first)
        check_backoff(second)
        assert len(first) >= 2
        blue.ws.close()
        ann.close()
    finally:
        proxy.close()


# --------------------------------------------- (3) the tab closed while the others play on
def test_a_closed_tab_comes_back_to_the_seat_and_what_was_missed(
        browser: Browser, server: Server) -> None:
    table = four_gods(server.url, [{}, {}, {"bot": "random"}, {"bot": "random"}])
    ann = Person(browser, server, "ann")
    ann.join(table["id"], "RED")
    token = httpx.post(f"{server.url}/api/tables/{table['id']}/join",
                       json={"name": "bo"}).json()["token"]
    blue = Seat(server, table["id"], token)
    submit(ann, ["Attack GREEN"], "atk:G")
    ann.page.close()  # the whole tab, not a reload
    wait_until(lambda: not red_connected(server.url, table["id"]), "the server to see RED go")
    blue.send({"type": "act", "action": "atk:R"})
    blue.send({"type": "say", "text": "-r where did you go?"})
    blue.send({"type": "say", "text": "round 1 is over"})
    wait_until(lambda: blue.drain() or blue.state["view"]["round"] == 2, "round 2")
    blue.send({"type": "act", "action": "pass"})

    # a new tab of the same browser (its localStorage holds the token), straight at the table
    page = ann.page = ann.context.new_page()
    page.on("pageerror", lambda e: ann.errors.append(str(e)))
    page.on("websocket", ann.watch_socket)
    page.goto(f"{server.url}/table/{table['id']}")
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#table-title")).to_contain_text("you: RED (ann)")
    expect(page.locator(".last-round h3")).to_have_text("Round 1 results")
    expect(row(page, "red").locator("td").first.locator(".god")).to_have_text("GREEN")
    expect(row(page, "blue").locator("td").first.locator(".god")).to_have_text("RED")
    expect(page.locator(".talk-message.is-private")).to_contain_text("where did you go?")
    expect(page.locator(".talk-list")).to_contain_text("round 1 is over")
    expect(page.locator("#turn")).to_contain_text("Still choosing: RED (ann) (you)")
    expect(page.locator("#turn")).to_contain_text("BLUE")
    expect(energies(page)).to_have_text([str(e) for e in blue.state["view"]["energy"]])
    assert red_connected(server.url, table["id"]) is True
    submit(ann, [], "pass")
    expect(page.locator(".last-round h3")).to_have_text("Round 2 results")
    blue.ws.close()
    ann.close()


# -------------------------------- (4) a connection that died silently: the client's heartbeat
def test_a_silently_dead_connection_is_noticed_and_rejoined(
        browser: Browser, server: Server) -> None:
    # Neither side of the page's websocket is closed: only its heartbeat (a ping every 10 s;
    # no answer for 15 s: dead) can tell. Playwright's clock runs the page's timers ahead.
    table = four_gods(server.url, [{}] + [{"bot": "random"}] * 3)
    proxy = Proxy(server.port)
    ann = Person(browser, proxy, "ann")
    try:
        ann.page.clock.install()
        ann.join(table["id"], "RED")
        page = ann.page
        badge = page.locator("#connection")
        expect(badge).to_have_text("connected")
        # the bots are in: no frame is on its way (any frame would restart the silence)
        expect(page.locator("#turn")).to_contain_text(
            "Submitted: BLUE (bot random), GREEN (bot random), ORANGE (bot random).")
        proxy.hold()
        page.clock.run_for(50_000)  # a ping at 10 s, still unanswered at 30 s: dead
        expect(badge).to_have_text(LOST)
        shot(page, "reconnect-silent")
        proxy.restore()
        page.clock.run_for(20_000)
        expect(badge).to_have_text("connected")
        wait_until(lambda: red_connected(server.url, table["id"]), "RED back")
        submit(ann, ["Attack ORANGE"], "atk:O")
        expect(page.locator(".last-round h3")).to_have_text("Round 1 results")
        ann.close()
    finally:
        proxy.close()
