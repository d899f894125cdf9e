"""The terminal at the ``meeple play`` prompt (issue 18, section 5): ``help``/``?`` at any
decision, refusals, and every event since the person's last decision."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.record import Record

runner = CliRunner()
GAMES = ["battle-of-the-four-gods", "damocles", "epoch-ellipse", "ozymandias-campaign",
         "ozymandias-market"]
PAGES = {g: f"docs/rules/{g}.md" for g in GAMES}


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("word", ["help", "?"])
def test_help_at_the_prompt_lists_legal_moves_and_the_decision(game: str, word: str) -> None:
    result = invoke("play", game, "--seat", "0", "--bots", "random", "--seed", "2",
                    input=f"{word}\nlist\nquit\n")
    out = result.output
    assert "Traceback" not in out
    head, _, listing = out.partition("legal now (type one")
    assert listing, out[-1500:]
    assert "this decision: " in listing and PAGES[game] in listing
    # the first numbered legal move of 'list' is among help's examples, in the same notation
    first = re.search(r"^\s+0  (.+)$", listing, re.M).group(1).strip()
    summary = listing.split("this decision: ")[0]
    assert first in summary


def test_a_refused_move_at_the_prompt_names_the_rule_and_what_is_legal() -> None:
    result = invoke("play", "damocles", "--seat", "0", "--players", "4", "--bots", "heuristic",
                    input="swap 1 2\nquit\n")
    out = result.output
    assert ("cannot play swap 1 2: 'swap' is not a move during the setup discard; now choose "
            "2 codices of your hand to discard ('discard ID ID')") in out
    assert "legal kinds now: discard (SETUP 1, DAM-25); legal now: discard " in out


def _verb(action: str) -> str:
    """The word a Damocles event starts with for a move (its log's wording)."""
    kind = action.split(" ")[0]
    return {"swap": "swaps", "stop": "stops", "end": "ends", "play": "plays", "haste": "plays",
            "pair": "pairs", "keep": "keeps", "destroy": "destroys", "place": "places"}[kind]


def test_damocles_shows_every_opponent_move_since_the_last_decision(tmp_path) -> None:
    """4 seats, 3 heuristic bots: between two of the person's prompts the output holds every
    opponent move the record holds for that stretch, in order (the board showed six)."""
    path = tmp_path / "dam.json"
    result = invoke("play", "damocles", "--seat", "0", "--players", "4", "--bots", "heuristic",
                    "--seed", "4", "--record", str(path), input="0\n" * 40 + "quit\n")
    assert "Traceback" not in result.output
    record = Record.load(path)
    segments = re.split(r"Seat 0 \(\d+ legal", result.output)[1:]  # text after each prompt
    mine = [i for i, step in enumerate(record.steps) if "0" in step]
    longest = 0
    for k in range(len(mine) - 1):
        between = [(int(s), a) for step in record.steps[mine[k] + 1:mine[k + 1]]
                   for s, a in step.items() if not a.startswith("discard")]
        shown = re.findall(r"^  Seat ([123]): (\w+)", segments[k], re.M)
        shown = [(int(s), w) for s, w in shown if w not in ("draws", "the")]
        assert shown == [(s, _verb(a)) for s, a in between], (k, between, segments[k])
        longest = max(longest, len(between))
    assert len(mine) > 10 and longest > 6  # more than the board's own tail of six


# ------------------------------------------------------------- games, --version, quit
def test_games_is_a_short_table_of_name_players_and_summary() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) < 25  # a header, a row per game (wrapped at 80 columns), a footnote
    for game in GAMES:
        row = next(line for line in lines if line.strip().startswith(game))
        assert re.search(r"\d-\d \(\d\)", row), row
    assert "rulebook-2018-04" not in result.output and "parameter" not in result.output


def test_games_game_shows_parameters_with_defaults_and_ranges_variants_and_bots() -> None:
    result = invoke("games", "damocles")
    out = result.output
    assert result.exit_code == 0, out
    assert re.search(r"^\s+cycles\s+10\s+1\.\.100\s+complete", out, re.M)
    assert re.search(r"^\s+match\s+rotational\s+rotational,", out, re.M)  # wrapped at 80
    assert "variants" in out and "absolute" in out and "[match=absolute]" in out
    assert "bots: random, ismcts, heuristic" in out or "heuristic" in out.split("bots:")[1]
    assert "docs/rules/damocles.md" in out


def test_games_json_for_one_game_and_an_unknown_game() -> None:
    import json

    entry = json.loads(invoke("games", "damocles", "--json").output)
    assert entry["name"] == "damocles" and entry["parameters"][0]["name"]
    bad = invoke("games", "nope")
    assert bad.exit_code == 2 and "no game called 'nope'" in bad.output


def test_version_and_one_line_command_help() -> None:
    from importlib.metadata import version

    result = invoke("--version")
    assert result.exit_code == 0 and result.output.strip() == f"meeple {version('meeple')}"
    listing = invoke("--help").output
    for command in ("games", "play", "replay", "playtest", "report", "ladder", "compare",
                    "sweep"):
        row = next(line for line in listing.splitlines() if f" {command} " in line)
        assert row.rstrip(" │").endswith("."), row  # one line, not a wrapped paragraph


def test_quit_exits_with_status_0_and_lost_input_with_1() -> None:
    quit_ = invoke("play", "damocles", "--seat", "0", "--bots", "heuristic", input="quit\n")
    assert quit_.exit_code == 0 and "you left the game" in quit_.output
    lost = invoke("play", "damocles", "--seat", "0", "--bots", "heuristic", input="")
    assert lost.exit_code == 1 and "input ended" in lost.output


# ------------------------------------------------------------------- replay --show
@pytest.fixture(scope="module")
def damocles_record(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "dam.json"
    result = invoke("play", "damocles", "--seat", "0", "--players", "3", "--bots", "heuristic",
                    "--seed", "9", "--record", str(path), input="0\n" * 12 + "quit\n")
    assert result.exit_code == 0, result.output[-1500:]
    return path


def _steps_shown(out: str) -> list[tuple[int, str]]:
    return [(int(n), what) for n, what in re.findall(r"^step (\d+) of \d+: (.*)$", out, re.M)]


def test_replay_show_steps_next_back_jump_and_quit(damocles_record) -> None:
    record = Record.load(damocles_record)
    last = len(record.steps)

    def action(i: int) -> str:
        ((seat, text),) = record.steps[i - 1].items()
        return f"Seat {seat}: {text}"

    script = "next\n\nback\njump 7\nj 999\njump 0\nback\nq\n"
    result = invoke("replay", str(damocles_record), "--show", input=script)
    out = result.output
    assert result.exit_code == 0, out
    assert _steps_shown(out) == [(0, "the start, before any action"), (1, action(1)),
                                 (2, action(2)), (1, action(1)), (7, action(7)),
                                 (0, "the start, before any action")]
    assert f"(N in 0..{last})" in out  # 'j 999' is refused with the range
    assert "at the start;" in out  # 'back' at step 0
    assert out.count("Damocles - ") >= 6  # the board is drawn at every position
    assert "matches the recorded final state" in out


def test_replay_show_for_a_seat_hides_the_other_seats_actions(damocles_record) -> None:
    record = Record.load(damocles_record)
    result = invoke("replay", str(damocles_record), "--show", "--seat", "1",
                    input="n\nn\nn\n")  # input ends: the stepper stops, the check still runs
    out = result.output
    assert result.exit_code == 0, out
    shown = dict(_steps_shown(out))
    for i in (1, 2, 3):
        ((seat, text),) = record.steps[i - 1].items()
        assert shown[i] == (f"Seat 1: {text}" if seat == "1" else f"Seat {seat} acts")
    assert "(you are seat 1)" in out
    bad = invoke("replay", str(damocles_record), "--show", "--seat", "5", input="q\n")
    assert bad.exit_code == 2 and "--seat 5 is not a seat" in bad.output
