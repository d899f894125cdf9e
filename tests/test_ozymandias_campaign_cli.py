"""Ozymandias (campaign edition) in the terminal: the view renderer (render.py) and the
command line end to end (``meeple play``, ``meeple replay``, ``meeple playtest``)."""

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
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.render import render_view

GAME = "ozymandias-campaign"
runner = CliRunner()
KIND_WORDS = {"COLONY": "colony", "INTERSECTION": "intersection", "HAZARD": "hazard"}


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


def play_until(game, seed: int, stop) -> Any:
    """The first state of a heuristic-bot game (from ``seed``) for which ``stop`` holds."""
    for state in bot_steps(game, seed):
        if stop(state):
            return state
    raise AssertionError("the game ended before the wanted state")


def seat_block(text: str, seat: int) -> list[str]:
    """The lines of ``Seat N``'s summary: its header line and its tableau lines."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"Seat {seat}"))
    block = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


# ----------------------------------------------------------------------- fresh state
def test_fresh_spectator_view_shows_every_placed_tile_and_no_hand() -> None:
    game = load_game(GAME, players=4, setup_tiles="two_if_4plus")
    state = game.new_initial_state(3)
    view = state.view(None)
    text = plain(game, view)
    assert "(spectator)" in text and "Your hand" not in text and "(you" not in text
    placed = [entry["tile"] for entry in view["map"]]
    assert len(placed) == 2
    for tile_id in placed:
        assert re.search(rf"^  {re.escape(tile_id)} \(", text, re.M), tile_id
    first = state.active
    for seat in range(4):
        tag = " (to act)" if seat == first else ""
        assert f"Seat {seat}{tag}: 0 VP, unrest 0, incoming 1G 1R 1B" in text
        assert seat_block(text, seat)[1:] == ["    tableau: empty"]
    assert f"round 1, Seat {first}'s turn" in text
    assert f"Seat {first} chooses a mode: intake, migrate or campaign" in text
    assert "The end comes when a seat reaches 21 VP" in text


def test_a_seat_sees_its_own_hand_only() -> None:
    game = load_game(GAME, players=3)
    state = game.new_initial_state(5)
    texts = [plain(game, state.view(s)) for s in range(3)]
    for seat, text in enumerate(texts):
        hand = state.view(seat)["hand"]
        assert f"Your hand: {' '.join(hand)}" in text
        assert text.count("Your hand:") == 1
        assert f"(you are Seat {seat})" in text
        assert seat_block(text, seat)[0].startswith(f"Seat {seat} (you")
        for other in set(range(3)) - {seat}:
            assert "(you" not in seat_block(text, other)[0]
            assert "hand 5" in seat_block(text, other)[0]


def test_rendering_is_deterministic_valid_markup_without_trailing_whitespace() -> None:
    game = load_game(GAME, players=3)
    for state in list(bot_steps(game, 11))[::25]:
        for seat in (None, 0, 1, 2):
            view = state.view(seat)
            out = render_view(game, view)
            assert out == render_view(game, state.view(seat))
            for line in out.splitlines():
                assert line == line.rstrip(), line
            Console(width=100, record=True, color_system=None).print(out)  # renders


# --------------------------------------------------------------------------- mid-game
@pytest.fixture(scope="module")
def midgame():
    """A 3-seat game after some heuristic play: several tiles placed, cards in tableaus."""
    game = load_game(GAME, players=3)
    state = play_until(game, 3, lambda s: len(s.map.placements) >= 3
                       and sum(len(t) >= 2 for t in s.tableaus) >= 1 and s.standing
                       and s.step == "mode")
    return game, state


def test_map_lists_every_point_with_kind_occupants_neighbours_and_ports(midgame) -> None:
    game, state = midgame
    view = state.view(None)
    text = plain(game, view)
    sector_map = SectorMap.from_json(view["map"], {t.id: t for t in game.tiles})
    ports: dict[str, set[str]] = {}
    for point, port in view["open_ports"]:
        ports.setdefault(point, set()).add(port)
    seen, tile = set(), None
    for line in text.splitlines():
        header = re.match(r"^  ([A-Z]+-\d+) \((GOLD|RED|BLUE) sector; ", line)
        if header:
            tile = header.group(1)
            assert game.tiles[game.tile_index[tile]].id == tile
            assert header.group(2) == ("GOLD", "RED", "BLUE")[
                game.tiles[game.tile_index[tile]].suit]
            continue
        point_line = re.match(r"^    (\S+)\s+(colony|intersection|hazard)\s+(.*?)\s+-> (.*)$",
                              line)
        if not point_line or tile is None:
            continue
        short, kind, occupant, rest = point_line.groups()
        name = f"{tile}:{short}"
        seen.add(name)
        assert kind == KIND_WORDS[sector_map.kinds[name]]
        if name in view["stacks"]:
            assert occupant == "stack " + ",".join(map(str, view["stacks"][name]))
        elif name in view["standing"]:
            assert occupant == f"seat {view['standing'][name]}"
        else:
            assert occupant == "-"
        near, _, port_text = rest.partition("  port ")
        full = {n if ":" in n else f"{tile}:{n}" for n in near.split()}
        assert full == set(sector_map.adjacency[name]), name
        assert set(filter(None, port_text.split(","))) == ports.get(name, set())
    assert seen == set(sector_map.kinds)
    # a join between two tiles shows on both sides, with the full point names
    second = view["map"][1]
    at, joined = second["join"][0], sector_map.adjacency[second["join"][0]]
    assert any(n.startswith(second["tile"] + ":") for n in joined)
    assert re.search(rf"-> .*{re.escape(at)}", text)


def test_tableau_is_numbered_from_one_as_the_actions_are(midgame) -> None:
    game, state = midgame
    view = state.view(None)
    text = plain(game, view)
    for seat, player in enumerate(view["players"]):
        block = seat_block(text, seat)
        assert f"{player['vp']} VP, unrest {player['unrest']}" in block[0]
        assert f"workers {player['supply']} supply / {player['bag']} bag" in block[0]
        assert f"hand {player['hand_size']}" in block[0]
        if not player["tableau"]:
            continue
        assert len(block) == 1 + len(player["tableau"])
        for i, (line, card) in enumerate(zip(block[1:], player["tableau"], strict=True)):
            assert line.startswith(f"    {i + 1:>2}. {card['card']}  ")
            assert ("untapped" not in line) == card["tapped"]
            assert ("laid-down worker" in line) == card["laid"]
            assert ("harvest worker" in line) == card["harvest"]
    # 'lay N' names the card shown as N
    state = state.clone()
    seat = state.active
    state.apply_action(game.parse_action("campaign", seat), seat)
    if state.step == "campaign":
        for action in state.legal_actions(seat):
            if action.kind == "lay":
                n = int(str(action).split()[1])
                card = state.view(seat)["players"][seat]["tableau"][n - 1]
                assert not card["tapped"] and not card["laid"]


def test_every_step_says_what_it_asks_for() -> None:
    """Over several bot games, each step's view names the acting seat and what to type."""
    phrases = {
        "mode": "chooses a mode: intake, migrate or campaign",
        "distribute": "takes intake: place incoming cubes",
        "migrate": "migrates card",
        "recover_standing": "may recover standing or harvest workers",
        "recover_colony": "colony worker",
        "campaign": "campaigns: 'stand TILE:i1'",
        "play": "plays a card from hand to the tableau",
        "explore": "'attach PORT TILEPORT'",
        "war": "War at ",
    }
    found: set[str] = set()
    for players, seed in ((4, 1), (3, 3), (6, 8), (2, 5)):
        game = load_game(GAME, players=players)
        for state in bot_steps(game, seed):
            if state.step in found or state.step == "over":
                continue
            found.add(state.step)
            seat = state.current_players()[0]
            view = state.view(seat)
            text = plain(game, view)
            assert phrases[state.step] in text, state.step
            lines = text.splitlines()
            now = max(i for i, line in enumerate(lines) if line.startswith("Now: "))
            assert all(line.startswith("     ") for line in lines[now + 1:])
            last = lines[now]
            if state.step == "war":
                war = view["war"]
                assert (f"War at {war['point']} (a {war['kind']} war in a "
                        f"{war['sector_suit']} sector): Seat {war['attacker']} attacks "
                        f"Seat {war['defender']}") in text
                assert f"{war['sector_suit']} cards count double" in text
                assert f"ties go to Seat {war['attacker']}" in text
            elif state.step == "explore":
                assert f"draws tile {view['explore']['tile']}" in text
            else:
                assert f"Seat {state.active}" in last
    assert found == set(phrases)


def test_the_end_trigger_is_shown_until_the_end() -> None:
    game = load_game(GAME, players=3)
    state = play_until(game, 4, lambda s: s.trigger is not None and s.step != "over")
    text = plain(game, state.view(0))
    last = (state.trigger - 1) % 3
    assert (f"End triggered: Seat {state.trigger} reached 21 VP; the game ends after "
            f"Seat {last}'s turn") in text


# --------------------------------------------------------------------------- the end
def test_terminal_state_names_the_winner() -> None:
    game = load_game(GAME, players=3)
    state = list(bot_steps(game, 4))[-1]
    assert state.is_terminal()
    text = plain(game, state.view(None))
    winners, vp = state.winners(), state.vp
    if len(winners) == 1:
        line = f"Seat {winners[0]} wins with {vp[winners[0]]} VP"
    else:
        line = "Shared win: " + ", ".join(f"Seat {w}" for w in winners)
    assert text.splitlines()[-1].startswith(line)
    assert "game over in round" in text.splitlines()[0] and "truncated" not in text


def test_a_truncated_game_says_so() -> None:
    game = load_game(GAME, players=2, max_rounds=2)
    state = list(bot_steps(game, 1))[-1]
    assert state.is_truncated()
    text = plain(game, state.view(1))
    assert text.splitlines()[-1].endswith("(round cap reached: truncated)")
    assert "Your hand:" in text


# ------------------------------------------------------------------------ end to end
def test_a_person_plays_a_whole_game_from_the_prompt_and_it_replays(tmp_path) -> None:
    """Seat 1 against two heuristic bots: 'campaign' at its first mode choice, then always the
    first legal action (a wrong number just re-prompts); the game ends and the record replays."""
    record = tmp_path / "ozc.json"
    lines = ["2", "0", "0", "0"] * 600
    result = invoke("play", GAME, "--seat", "1", "--players", "3", "--bots", "heuristic",
                    "--seed", "4", "--record", str(record), input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Traceback" not in out and "input ended" not in out
    assert "(you are Seat 1)" in out and "Your hand:" in out and "Now: " in out
    assert re.search(r"Seat \d wins with \d+ VP|Shared win: ", out)
    saved = Record.load(record)
    mine = [step["1"] for step in saved.steps if "1" in step]
    assert mine[0] == "campaign" and len(mine) > 5
    replayed = invoke("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "matches the recorded final state" in replayed.output


def test_playtest_with_heuristic_and_random_bots_writes_its_report(tmp_path) -> None:
    out = tmp_path / "pt"
    result = invoke("playtest", GAME, "--players", "3", "--games", "20", "--bots",
                    "heuristic,random", "--jobs", "1", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    for name in ("summary.json", "results.jsonl", "report.html"):
        assert (out / name).is_file(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == GAME and summary["games"] == 20 and summary["players"] == 3
    assert summary["bots"] == ["heuristic", "random"]
    assert set(summary["bot_win_rate"]) == {"heuristic", "random"}
    assert summary["length"]["unit"] == "rounds"
    assert len((out / "results.jsonl").read_text().splitlines()) == 20
