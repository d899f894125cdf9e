"""Epoch Ellipse in the terminal: the view renderer (render.py) and the command line end to end
(``meeple play``, ``meeple replay``, ``meeple playtest``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from meeple import load_game
from meeple.bots import make_bot
from meeple.cli import app
from meeple.engine.record import Record
from meeple.games.epoch_ellipse.actions import slug
from meeple.games.epoch_ellipse.render import render_view

GAME = "epoch-ellipse"
runner = CliRunner()
#: What each step's header says (the acting seat's name comes first).
PHRASES = {
    "pick": "takes over a survivor: 'pick N'",
    "plan": "plans: 'trade SEAT GIVE GET' offers a 1-for-1 salvage trade, or 'pass'",
    "answer": "trade offer: 'accept' or 'decline'",
    "treat": "'treat CARD' trashes a catastrophe in hand; 'done' stops",
    "choose": "explores: 'new' (a NEW LOCATION) or 'explore L K'",
    "flip": "has flipped the exploration of",
    "combat": "fights ",
    "collapse": "collapses at ",
    "rescue": "rescues ",
    "limit": "over the hand limit of 5: 'return CARD'",
    "hunger": "is hungry: 'eat CARD MODE' pays 1 food; 'starve'",
}
#: Move kinds whose every legal move the header quotes (the cards that can do it).
QUOTED_KINDS = ("use", "eat", "stabilize", "give", "treat", "charm", "redraw")
LOCATION_LINE = re.compile(r"^ +(\d+)\. (.+?) +(\d+) VP +(\d+) tokens? +(\d+) cards?(.*)$")


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def plain(game, view: dict[str, Any]) -> str:
    """The rendering as the person reads it: markup removed (and checked to be valid)."""
    return Text.from_markup(render_view(game, view)).plain


def bot_steps(game, seed: int) -> Iterator[Any]:
    """Yield the state before every decision of a heuristic-bot game, then the final one."""
    state = game.new_initial_state(seed)
    bots = [make_bot("heuristic", game, s, seed) for s in range(game.players)]
    while not state.is_terminal():
        yield state
        for s in state.current_players():
            state.apply_action(bots[s].act(state.view(s), state.legal_actions(s)), s)
    yield state


def play_until(game, seed: int, stop, tries: int = 8) -> Any:
    """The first state of a heuristic-bot game for which ``stop`` holds: from ``seed``, else
    from the next seeds (so a change to the bots or the decks keeps the test meaningful)."""
    for s in range(seed, seed + tries):
        for state in bot_steps(game, s):
            if stop(state):
                return state
    raise AssertionError("no game reached the wanted state")


def grouped(names: list[str]) -> str:
    """``TINNED HAM x2, BULLET``: how the renderer lists cards."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(n + (f" x{k}" if k > 1 else "") for n, k in counts.items()) or "empty"


def seat_block(text: str, seat: int) -> list[str]:
    """The lines of ``Seat N``'s summary: its status line, then its hand and discard lines."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"Seat {seat}"))
    block = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


def location_rows(text: str) -> list[tuple[str, ...]]:
    return [m.groups() for m in map(LOCATION_LINE.match, text.splitlines()) if m]


# ----------------------------------------------------------------------- fresh state
def test_fresh_views_show_the_table_and_mark_the_viewer() -> None:
    game = load_game(GAME, players=3)
    state = game.new_initial_state(5)
    spectator = plain(game, state.view(None))
    assert "(spectator)" in spectator and "(you" not in spectator
    assert "Your cards" not in spectator
    assert spectator.splitlines()[0] == "Epoch Ellipse - day 1, PLAN, Seat 0 to act  (spectator)"
    assert location_rows(spectator) == [
        ("1", "GRAVEYARD", "0", "0", "0", "  Recovered  (trashed cards and the dead)"),
        ("2", "APARTMENT BUILDING", "1", "3", "8", "")]
    assert "Team: 0 of 10 VP Recovered (the team wins at 10); first player today: Seat 0" \
        in spectator
    decks = state.view(None)["decks"]
    assert (f"Decks: Location 10 ('new'), Salvage {decks['SALVAGE']}, Survivor "
            f"{decks['SURVIVOR']}, Catastrophe {decks['CATASTROPHE']}, Night {decks['NIGHT']}"
            ) in spectator
    assert "Survivor pool ('pick N' at WAKE UP, in death order): empty" in spectator
    assert "Death queue: empty" in spectator
    for seat in range(3):
        text = plain(game, state.view(seat))
        assert f"(you are Seat {seat})" in text
        player = state.view(seat)["players"][seat]
        assert text.count("Your cards (typed as quoted):") == 1
        for name in player["hand"]:
            assert f"  '{slug(name)}'" in text
        for other in range(3):  # hands are public: every seat's hand is shown to everyone
            block = seat_block(text, other)
            hand = state.hands[other]
            assert ("(you" in block[0]) == (other == seat)
            assert block[0].split(": ", 1)[1].startswith("alive, deck 5, danger 0/3")
            assert block[1] == f"    hand (5): {grouped([state.name(c) for c in hand])}"
            assert block[2] == "    discard (0): empty"
    assert plain(game, state.view(0)).splitlines()[-1] == (
        "Now: Seat 0 plans: 'trade SEAT GIVE GET' offers a 1-for-1 salvage trade, or 'pass'")


def test_rendering_is_deterministic_valid_markup_without_trailing_whitespace() -> None:
    for players, variant in ((3, "seed"), (2, "d6"), (4, "forgiving"), (1, "strict")):
        game = load_game(GAME, variant=variant, players=players)
        for state in list(bot_steps(game, 2))[::7]:
            for seat in (None, *range(players)):
                out = render_view(game, state.view(seat))
                assert out == render_view(game, state.view(seat))
                for line in out.splitlines():
                    assert line == line.rstrip(), line
                Text.from_markup(out)  # valid markup
                Console(width=100, record=True, color_system=None).print(out)


# --------------------------------------------------------------------------- mid-game
@pytest.fixture(scope="module")
def midgame():
    """A 4-seat game during a combat, after some heuristic play: several locations in play,
    a survivor pool, a Mournful Sacrifice, cards still to resolve."""
    game = load_game(GAME, "hard", players=4)  # deaths, and so Mournful seats, are common
    state = play_until(game, 1, lambda s: s.step == "combat" and len(s.locations) >= 5
                       and s.expl_cats and "mournful" in s.status and s.pool, tries=40)
    return game, state


def test_locations_are_numbered_as_explore_counts_them(midgame) -> None:
    game, state = midgame
    view = state.view(0)
    text = plain(game, view)
    rows = location_rows(text)
    assert len(rows) == len(view["locations"]) >= 5
    for i, (row, loc) in enumerate(zip(rows, view["locations"], strict=True)):
        number, name, vp, tokens, cards, rest = row
        assert (int(number), name, int(vp), int(tokens), int(cards)) == (
            i + 1, loc["name"], loc["vp"], loc["tokens"], loc["cards"])
        assert ("Recovered" in rest) == loc["recovered"]
        assert ("<- Seat" in rest) == (i == state.expl_pos)
    assert (f"Recovered {view['recovered_vp']} of {view['target_vp']} VP" in text)
    # 'explore L K' names the location shown as L
    assert f"Exploration: Seat {state.explorer} at {state.expl_pos + 1}. " \
           f"{view['locations'][state.expl_pos]['name']}" in text


def test_seats_show_status_hand_discard_danger_and_mournful_cards(midgame) -> None:
    game, state = midgame
    view = state.view(2)
    text = plain(game, view)
    for seat, player in enumerate(view["players"]):
        block = seat_block(text, seat)
        assert ("(you" in block[0]) == (seat == 2)
        assert ("to act" in block[0]) == (seat in view["acting"])
        if player["status"] == "alive":
            assert f"alive, deck {player['deck']}, danger " \
                   f"{player['catastrophes_in_discard']}/3" in block[0]
            assert block[1] == f"    hand ({len(player['hand'])}): {grouped(player['hand'])}"
            assert block[2] == (f"    discard ({len(player['discard'])}): "
                                f"{grouped(player['discard'])}")
        elif player["status"] == "mournful":
            assert len(block) == 1 and "Mournful Sacrifice" in block[0]
            if player["mournful_card"]:
                assert f"holds {player['mournful_card']}" in block[0]
            place = view["queue"].index(seat) + 1
            ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
            assert block[0].endswith(f"; {ordinal} in the death queue")
        else:
            assert "dead" in block[0]
    assert "Death queue: " + ", ".join(f"Seat {s}" for s in view["queue"]) in text


def test_the_exploration_and_the_combat_are_shown(midgame) -> None:
    game, state = midgame
    view = state.view(None)
    text = plain(game, view)
    expl = view["exploration"]
    where = f"{state.expl_pos + 1}. {expl['location']}"
    assert text.splitlines()[1] == (f"  Seat {state.explorer} fights {expl['current']} at "
                                    f"{where}: difficulty {expl['difficulty']}, "
                                    f"{expl['paid']} weapon paid")
    assert (f"    resolving: {expl['current']} (combat, difficulty {expl['difficulty']}, "
            f"weapon paid {expl['paid']})") in text
    assert f"    catastrophes to resolve: {grouped(expl['catastrophes'])}" in text
    assert f"    salvage for the hand: {grouped(expl['salvage']).replace('empty', '-')}" \
        in text
    assert text.splitlines()[-1].startswith(f"Now: Seat {state.explorer} fights ")
    # a weapon paid shows in the header
    seat = state.explorer
    pay = [m for m in state.legal_actions(seat) if m.kind == "use"]
    if pay:
        after = state.clone()
        after.apply_action(pay[0], seat)
        if after.step == "combat" and after.current == state.current:
            assert f"{after.paid} weapon paid" in plain(game, after.view(None))


def test_survivor_piles_are_numbered_as_pick_counts_them() -> None:
    game = load_game(GAME, "hard", players=3)
    state = play_until(game, 1, lambda s: s.step == "pick" and len(s.pool) >= 1, tries=40)
    seat = state.current_players()[0]
    view = state.view(seat)
    text = plain(game, view)
    for n, pile in enumerate(view["pool"], start=1):
        assert f"  {n:>2}. {pile[0]} with {grouped(pile[1:]).replace('empty', 'no cards')}" \
            in text
    assert [str(m) for m in state.legal_actions(seat)] == [
        f"pick {n}" for n in range(1, len(view["pool"]) + 1)]
    after = state.clone()
    after.apply_action(game.parse_action(f"pick {len(view['pool'])}", seat), seat)
    assert f"takes over {view['pool'][-1][0]}" in after.events[-1][2]


def test_every_step_says_what_it_asks_for_and_quotes_the_legal_moves() -> None:
    """Over several bot games, each step's view names the acting seat and what to type, and
    every legal move that pays with (or plays) a card is quoted as typed."""
    found: set[str] = set()
    for players, seed in ((3, 0), (3, 1), (4, 0), (2, 0), (3, 3)):
        game = load_game(GAME, players=players)
        for state in bot_steps(game, seed):
            if state.step == "over":
                continue
            seat = state.current_players()[0]
            view = state.view(seat)
            text = plain(game, view)
            legal = state.legal_actions(seat)
            for move in legal:
                if move.kind in QUOTED_KINDS:
                    assert f"'{move}'" in text, (state.step, str(move))
            if state.step == "choose":
                explore = {}
                for move in legal:
                    if move.kind == "explore":
                        where, count = move.args
                        explore[where] = max(explore.get(where, 0), count)
                options = text.split("open now: ", 1)[1].splitlines()[0]
                assert ("'new'" in options) == any(m.kind == "new" for m in legal)
                for where, top in explore.items():
                    shown = f"explore {where + 1} 1" + (f"..{top}" if top > 1 else "")
                    assert f"'{shown}'" in options
                assert options.count("'explore ") == len(explore)
            if state.step in found:
                continue
            found.add(state.step)
            assert PHRASES[state.step] in text, state.step
            assert text.splitlines()[1].startswith(f"  Seat {seat} "), state.step
            now = text.splitlines()[-1]
            assert now.startswith(f"Now: Seat {seat} ")
            if state.step == "answer":
                offer = view["offer"]
                assert (f"Seat {offer['from']} gives {offer['give']} for Seat {offer['to']}'s "
                        f"{offer['receive']}") in text
            elif state.step == "rescue":
                pile = view["exploration"]["rescue"]
                assert f"the pile so far: {pile[0]} with " in text
            elif state.step == "treat":
                assert f"({view['credits']} medical point" in text
        if found == set(PHRASES):
            break
    assert found == set(PHRASES)


# --------------------------------------------------------------------------- the end
def test_a_won_game_names_the_survivors() -> None:
    game = load_game(GAME, players=3)
    state = play_until(game, 0, lambda s: s.result == "won")
    text = plain(game, state.view(1))
    lines = text.splitlines()
    assert lines[0] == f"Epoch Ellipse - game over on day {state.day}  (you are Seat 1)"
    alive = [s for s in range(3) if state.status[s] == "alive"]
    assert (f"The team wins on day {state.day}: {state.recovered_vp()} VP of locations "
            "Recovered (target 10)") in lines[-2]
    assert lines[-1].startswith("  survivors alive (they win): "
                                + ", ".join(f"Seat {s}" for s in alive))
    assert [s for s in range(3) if state.returns()[s] == 1.0] == alive
    assert "Now:" not in text


def test_a_lost_game_names_the_cause() -> None:
    game = load_game(GAME, "hard", players=3)
    state = play_until(game, 4, lambda s: s.result == "lost", tries=40)
    text = plain(game, state.view(None))
    cause = {"combat": "a lost combat", "collapse": "injuries (a collapse)", "curse": "a curse",
             "starvation": "starvation"}[state.cause]
    assert text.splitlines()[-1] == (
        f"The team loses on day {state.day}: no survivor is left alive (the last died of "
        f"{cause}); {state.recovered_vp()} of 10 VP Recovered")
    assert all(p["status"] != "alive" for p in state.view(None)["players"])


def test_a_truncated_game_says_so() -> None:
    game = load_game(GAME, players=3, max_days=2)
    state = play_until(game, 1, lambda s: s.is_truncated(), tries=20)
    text = plain(game, state.view(0))
    assert ("The team loses: the day cap of 2 is reached (truncated) with "
            f"{state.recovered_vp()} of 10 VP Recovered") in text


# ------------------------------------------------------------------------ end to end
def test_a_person_plays_a_whole_game_from_the_prompt_and_it_replays(tmp_path) -> None:
    """Seat 1 against two heuristic bots: 'list', an illegal action (re-prompted), 'pass' at
    its first plan, then always the first legal action; the game ends and the record
    replays."""
    record = tmp_path / "epe.json"
    lines = ["list", "explore 99 1", "pass"] + ["0"] * 3000
    result = invoke("play", GAME, "--seat", "1", "--players", "3", "--bots", "heuristic",
                    "--seed", "3", "--record", str(record), input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Traceback" not in out and "input ended" not in out
    assert "(you are Seat 1)" in out and "Your cards (typed as quoted):" in out
    assert "Now: Seat 1 plans: " in out and "  1. GRAVEYARD" in out
    assert "'explore' moves are not legal at the plan step; legal kinds now: " in out
    assert "(EPE-7, EPE-8, EPE-53, EPE-54); legal now: " in out  # the rule, then the moves
    assert re.search(r"The team (wins|loses) on day \d+", out)
    saved = Record.load(record)
    mine = [step["1"] for step in saved.steps if "1" in step]
    assert mine[0] == "pass" and len(mine) > 10
    replayed = invoke("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "matches the recorded final state" in replayed.output


def test_playtest_with_heuristic_bots_writes_its_report(tmp_path) -> None:
    out = tmp_path / "pt"
    result = invoke("playtest", GAME, "--players", "3", "--games", "12", "--bots",
                    "heuristic", "--jobs", "1", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    for name in ("summary.json", "results.jsonl", "report.html"):
        assert (out / name).is_file(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == GAME and summary["games"] == 12 and summary["players"] == 3
    assert summary["bots"] == ["heuristic"]
    assert summary["length"]["unit"] == "days"
    assert len((out / "results.jsonl").read_text().splitlines()) == 12
