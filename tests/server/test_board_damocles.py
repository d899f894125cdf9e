"""The Damocles web board (static/js/boards/damocles.js) in a real Chromium against a real
``meeple serve``: a person plays a short game against a random bot to the end by clicking the
board (the circle's tokens, the bank, the codices, the turn panel's buttons; never a list of
action texts), with the setup discard played by keyboard only; screenshots mid-game at
1280x800 and 390x844; no horizontal overflow on the phone; no page errors.
"""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from meeple.games.damocles.codex import GODS
from meeple.games.damocles.matching import match_mask
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

LIVE = ".dmc button.action:enabled"


def _circle(page: Page) -> list[str]:
    return [page.locator(f".dmc-slot[data-slot='{s}']").get_attribute("data-god") or ""
            for s in range(1, 8)]


def _matches(circle: list[str], pattern: list) -> bool:
    if any(not g for g in circle):
        return False
    ring = tuple(GODS.index(g) for g in circle)
    pat = tuple((p - 1, GODS.index(g)) for p, g in pattern)
    return bool(match_mask(ring, pat, True, False))


def _pair_value(circle: list[str], mine: list[str], content: dict) -> int:
    """How many (Production, Number) pairs of ``mine`` match ``circle`` (a test-side planner,
    so the person gets to play pairs by clicking)."""
    codices, types = content["codices"], content["types"]
    live = [c for c in mine if _matches(circle, codices[c]["pattern"])]
    prods = sum(types[codices[c]["type"]]["class"] == "Production" for c in live)
    nums = sum(types[codices[c]["type"]]["class"] == "Number" for c in live)
    return prods * nums * 10 + prods + nums


def _plan_swap(page: Page, content: dict, rng: random.Random) -> list[str]:
    """The clicks (CSS selectors) of the swap making the most pairs match."""
    circle = _circle(page)
    mine = page.locator(".dmc-hand .dmc-card, .dmc-seat.mine .dmc-card").evaluate_all(
        "els => els.map(e => e.dataset.codex)")
    bank = {g: int(page.locator(f".dmc-bank-god[data-god='{g}']").inner_text().split("×")[-1])
            for g in GODS}
    options = []
    slot = ".dmc-slot[data-slot='{}']".format
    for a in range(7):
        for b in range(a + 1, 7):
            if circle[a] != circle[b]:
                new = list(circle)
                new[a], new[b] = new[b], new[a]
                options.append((_pair_value(new, mine, content), rng.random(),
                                [slot(a + 1), slot(b + 1)]))
        for g in GODS:
            if g != circle[a] and bank[g] > 0:
                new = list(circle)
                new[a] = g
                options.append((_pair_value(new, mine, content), rng.random(),
                                [slot(a + 1), f".dmc-bank-god[data-god='{g}']"]))
    return max(options)[2]


def _click(page: Page, selector: str, index: int = 0) -> bool:
    try:
        page.locator(f"{selector}:enabled").nth(index).click(timeout=2000)
        return True
    except PlaywrightTimeout:
        return False


def _tab_to(page: Page, selector: str, key: str = "Tab") -> None:
    """Press Tab (or ``key``) until the focused element matches ``selector``."""
    for _ in range(80):
        if page.evaluate(f"!!document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector}")


def _discard_by_keyboard(page: Page) -> None:
    """The setup discard played with Tab, Space and Enter only."""
    def focus(selector: str, key: str = "Tab") -> None:
        _tab_to(page, selector, key)

    first = page.locator(".dmc-hand button.dmc-card").first.get_attribute("data-codex")
    page.locator("#table-title").click()  # start from the top of the page
    focus(".dmc-hand button.dmc-card")
    page.keyboard.press("Space")
    expect(page.locator(".dmc-building code")).to_contain_text(first)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator(".dmc-confirm")).to_be_enabled()
    focus(".dmc-confirm", "Shift+Tab")
    page.keyboard.press("Enter")


@pytest.mark.parametrize("variant", ["seed", "future"])
def test_a_person_plays_damocles_to_the_end_on_the_board(server: Server, browser: Browser,
                                                           variant: str) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": "damocles", "variant": variant, "players": 2, "params": {"cycles": 3},
        "seats": [{"bot": None}, {"bot": "random"}]}).json()
    content = httpx.get(f"{server.url}/api/tables/{table['id']}/board").json()
    person = Person(browser, server, "ann")
    person.join(table["id"], "Seat 0")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    rng = random.Random(20)
    suffix = "" if variant == "seed" else f"-{variant}"
    expect(page.locator(".dmc-hand button.dmc-card").first).to_be_visible()
    assert page.locator("#actions button.action").count() == 0  # no list of action texts
    _discard_by_keyboard(page)
    expect(page.locator(".dmc-prompt")).not_to_contain_text("Setup: choose")

    kinds: set[str] = set()
    shots_taken = False
    deadline = time.monotonic() + 120  # generous: CI runs two browser tests at once
    while not finished(page):
        if time.monotonic() > deadline:
            shot(page, f"damocles-board-stuck{suffix}")
            raise AssertionError(f"not over; played {sorted(kinds)}")
        if not page.locator(".dmc-panel.mine").count() or not page.locator(LIVE).count():
            page.wait_for_timeout(40)
            continue
        prompt = page.locator(".dmc-prompt").inner_text()
        if prompt.startswith("Your move. Placement") and "place" not in kinds:
            # the first placement by keyboard: a slot, then a god (Enter on each)
            kinds.add("place")
            _tab_to(page, ".dmc-slot.action")
            page.keyboard.press("Enter")
            expect(page.locator(".dmc-building code")).to_contain_text("place …")
            _tab_to(page, ".dmc-bank-god.action")
            page.keyboard.press("Enter")
            expect(page.locator("#log li.log-event.mine").last).to_contain_text(
                re.compile(r"^ann \(you\) places \w+ on slot \d"))
        elif prompt.startswith("Your move. Placement"):
            slots = page.locator(".dmc-slot.action:enabled").count()
            if _click(page, ".dmc-slot.action", rng.randrange(slots)):
                _click(page, ".dmc-bank-god.action", rng.randrange(5))
        elif page.locator(".dmc-stop").count():
            kinds.add("stop")
            _click(page, ".dmc-stop")
        elif prompt.startswith("Your move. Swap") or prompt.startswith("Your move. Second"):
            hastes = page.locator(".dmc-hand button.dmc-card[aria-label^='Play Haste']")
            if hastes.count() and "haste" not in kinds:
                kinds.add("haste")
                hastes.first.click()
                continue
            first, second = _plan_swap(page, content, rng)
            if _click(page, first):
                expect(page.locator(".dmc-building code")).to_contain_text("swap")
                if not kinds & {"swap", "swap-bank"}:
                    shot(page, f"damocles-board-swap{suffix}")
                kinds.add("swap-bank" if "bank" in second else "swap")
                if not _click(page, second):
                    page.locator(".dmc-cancel").click()
        elif prompt.startswith("Your move. Play"):
            if not shots_taken and page.locator(".dmc-match-badge").count():
                shot(page, f"damocles-board{suffix}")
                page.set_viewport_size({"width": 390, "height": 844})
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"the page is {width} px wide on a 390 px screen"
                shot(page, f"damocles-board-phone{suffix}")
                page.set_viewport_size({"width": 1280, "height": 800})
                shots_taken = True
            pair = page.locator("button.dmc-card[aria-label^='Select Production']")
            manip = page.locator(".dmc-hand button.dmc-card[aria-label^='Play ']")
            if pair.count():
                pair.first.click()
                expect(page.locator(".dmc-building code")).to_contain_text("pair")
                if "pair" not in kinds:
                    shot(page, f"damocles-board-pair{suffix}")
                kinds.add("pair")
                _click(page, "button.dmc-card[aria-label^='Pair with']")
            elif manip.count():
                kinds.add("play")
                manip.first.click()
            else:
                _click(page, ".dmc-end")
        elif prompt.startswith("Your move. Destroy"):
            kinds.add("destroy")
            _click(page, ".dmc-seat.target button.dmc-card")
        elif prompt.startswith("Your move. Oracle"):
            if "keep" not in kinds:
                shot(page, f"damocles-board-keep{suffix}")
            kinds.add("keep")
            while not page.locator(".dmc-confirm:enabled").count():
                page.locator(".dmc-pool button.dmc-card[aria-pressed='false']").first.click()
            _click(page, ".dmc-confirm")
        else:
            raise AssertionError(f"unexpected prompt: {prompt}")
        page.wait_for_timeout(30)
    expect(page.locator("#result .headline")).not_to_be_empty()
    expect(page.locator(".dmc-prompt")).to_have_text("Game over.")
    assert {"place", "swap"} <= kinds or {"place", "swap-bank"} <= kinds, kinds
    if not shots_taken:
        shot(page, f"damocles-board{suffix}")
    assert page.locator("#actions button").count() == 0
    done = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert done["status"] == "finished"
    print("played:", sorted(kinds))
    person.close()


def test_a_spectator_sees_the_board_without_controls(server: Server, browser: Browser) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={
        "game": "damocles", "players": 2, "params": {"cycles": 1},
        "seats": [{"bot": "random"}, {"bot": "random"}]}).json()
    watcher = Person(browser, server, "cy")
    watcher.page.set_viewport_size({"width": 390, "height": 844})
    watcher.page.goto(f"{server.url}/table/{table['id']}")
    expect(watcher.page.locator(".dmc-ring")).to_be_visible()
    expect(watcher.page.locator("#result .headline")).not_to_be_empty(timeout=20_000)
    assert watcher.page.locator(".dmc button").count() == 0
    assert watcher.page.locator(".dmc-hand").count() == 0
    width = watcher.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    shot(watcher.page, "damocles-spectator-phone")
    watcher.close()


# ------------------------------------- sub-decisions on real views, drawn outside a live table
def _find(variant: str, want: str):
    """A position (view, legal texts) of a heuristic-bot game where ``want`` is open for the
    seat to act: ``keep`` (an Oracle's pool), ``destroy`` (a Destruction target) or ``annex``
    (a legal pair using an opponent's tableau codex)."""
    from meeple import load_game
    from meeple.games.damocles.bot import HeuristicBot

    game = load_game("damocles", variant=variant, players=3)
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        bots = [HeuristicBot(game, i, seed) for i in range(3)]
        while not state.is_terminal():
            view = state.view(None)
            seat = view["to_act"][0]
            legal = [str(a) for a in state.legal_actions(seat)]
            mine = state.view(seat)
            others = {c for s, t in enumerate(view["tableaus"]) if s != seat for c in t}
            if (want == "annex" and any(a.startswith("pair ") and any(
                    w.rstrip("*") in others for w in a.split()[1:]) for a in legal)) or (
                    view["phase"] == "turn" and view["turn"]["step"] == want):
                return game, seat, mine, legal
            state.apply_action(bots[seat].act(mine, state.legal_actions(seat)))
    raise AssertionError(f"no {want} position in 200 games")


HARNESS = """async ([view, legal, content, params, seat, players]) => {
  const mod = await import('/static/js/boards/damocles.js');
  document.head.appendChild(Object.assign(document.createElement('link'),
    {rel: 'stylesheet', href: '/static/boards/damocles.css'}));
  document.body.replaceChildren();
  const main = document.createElement('main');
  main.className = 'board';
  const actions = document.createElement('div');
  actions.id = 'actions';
  document.body.append(main, actions);
  window.__acts = [];
  const ctx = {mySeat: seat, status: 'running', params, players, game: 'damocles',
    variant: 'future', content, seatName: (s) => `Seat ${s}`, playerName: () => 'bot',
    redraw: () => mod.render(main, actions, view, legal, ctx, (t) => window.__acts.push(t))};
  ctx.redraw();
  await new Promise((r) => setTimeout(r, 200));
}"""


@pytest.mark.parametrize("want", ["keep", "destroy", "annex"])
def test_sub_decisions_send_legal_texts(server: Server, browser: Browser, want: str) -> None:
    game, seat, view, legal = _find("future", want)
    person = Person(browser, server, "ann")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.evaluate(HARNESS, [view, legal, game.board_content(), dict(game.params), seat,
                            game.players])
    assert page.locator("#actions button").count() == 0  # every legal text is on the board
    # the "matches now" mark agrees with the rules' matcher, for every codex drawn
    content = game.board_content()
    for card in page.locator(".dmc-hand .dmc-card, .dmc-seat .dmc-card").all():
        cid = card.get_attribute("data-codex")
        marked = "dmc-match-now" in (card.get_attribute("class") or "")
        assert marked == _matches(view["circle"], content["codices"][cid]["pattern"]), cid
    if want == "keep":
        expect(page.locator(".dmc-prompt")).to_contain_text("Oracle")
        while not page.locator(".dmc-confirm:enabled").count():
            page.locator(".dmc-pool button.dmc-card[aria-pressed='false']").first.click()
        shot(page, "damocles-board-keep")
        page.locator(".dmc-confirm").click()
    elif want == "destroy":
        expect(page.locator(".dmc-seat.target")).to_contain_text("destroy target")
        shot(page, "damocles-board-destroy")
        page.locator(".dmc-seat.target button.dmc-card").first.click()
    else:
        others = {c for s, t in enumerate(view["tableaus"]) if s != seat for c in t}
        text = next(a for a in legal if a.startswith("pair ")
                    and any(w.rstrip("*") in others for w in a.split()[1:]))
        first, second = (w.rstrip("*") for w in text.split()[1:])
        page.locator(f".dmc button.dmc-card[data-codex='{first}']").click()
        expect(page.locator(".dmc-building code")).to_contain_text(f"pair {first}")
        page.locator(f".dmc button.dmc-card[data-codex='{second}']").click()
    acts = page.evaluate("window.__acts")
    assert len(acts) == 1 and acts[0] in legal, (acts, legal)
    assert acts[0].split()[0] == {"keep": "keep", "destroy": "destroy", "annex": "pair"}[want]
    person.close()
