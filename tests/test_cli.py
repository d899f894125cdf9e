"""End-to-end tests of the ``meeple`` command line: games, playtest, replay, play."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.record import Record

GAME = "battle-of-the-four-gods"
runner = CliRunner()


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_games_json_lists_four_gods_with_variants_and_bots():
    result = invoke("games", "--json")
    assert result.exit_code == 0, result.output
    listing = {g["name"]: g for g in json.loads(result.output)}
    entry = listing[GAME]
    names = [v["name"] for v in entry["variants"]]
    assert names[0] == "seed" and "rulebook-2018-04" in names
    assert {"random", "heuristic"} <= set(entry["bots"])
    assert entry["capabilities"]["simultaneous"] is True
    assert entry["players"] == {"min": 2, "max": 4, "default": 4}


def test_games_text_lists_the_game():
    result = invoke("games", GAME)
    assert result.exit_code == 0
    assert GAME in result.output and "rulebook-2018-04" in result.output


@pytest.fixture(scope="module")
def playtest_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("playtest")
    result = invoke("playtest", GAME, "--games", "40", "--bots", "heuristic,random",
                    "--seed", "7", "--out", str(out), "--records", "--quiet")
    assert result.exit_code == 0, result.output
    return out


def test_playtest_writes_summary_report_results_and_records(playtest_dir):
    summary = json.loads((playtest_dir / "summary.json").read_text())
    for key in ("game", "variant", "players", "games", "seed", "bots", "seat_win_rate",
                "bot_win_rate", "draw_rate", "truncated_rate", "length", "games_per_second"):
        assert key in summary, key
    assert summary["game"] == GAME and summary["games"] == 40 and summary["seed"] == 7
    assert len(summary["seat_win_rate"]) == 4
    for seat in summary["seat_win_rate"]:
        assert seat["ci_low"] <= seat["rate"] <= seat["ci_high"]
    # bots cycled over 4 seats and rotated: each bot played 2 seats in each of the 40 games
    assert summary["bot_win_rate"]["heuristic"]["pairs"] == 80
    assert summary["bot_win_rate"]["random"]["pairs"] == 80
    assert {"mean", "median", "p90"} <= set(summary["length"])
    assert (playtest_dir / "report.html").read_text().count(GAME) >= 1
    results = [json.loads(line) for line in (playtest_dir / "results.jsonl").read_text()
               .splitlines()]
    assert [r["index"] for r in results] == list(range(40))
    records = (playtest_dir / "records.jsonl").read_text().splitlines()
    assert len(records) == 40


def test_playtest_results_do_not_depend_on_jobs(tmp_path, playtest_dir):
    out = tmp_path / "parallel"
    result = invoke("playtest", GAME, "--games", "40", "--bots", "heuristic,random",
                    "--seed", "7", "--out", str(out), "--jobs", "2", "--quiet")
    assert result.exit_code == 0, result.output

    def strip(path):
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert strip(out / "results.jsonl") == strip(playtest_dir / "results.jsonl")


def test_replay_of_a_playtest_record_matches(playtest_dir):
    result = invoke("replay", str(playtest_dir / "records.jsonl"), "--index", "5")
    assert result.exit_code == 0, result.output
    assert "matches the recorded final state" in result.output


def test_replay_refuses_a_tampered_record(tmp_path, playtest_dir):
    line = (playtest_dir / "records.jsonl").read_text().splitlines()[0]
    data = json.loads(line)
    data["result"]["digest"] = "0" * 64
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert "does not reach the recorded final state" in result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("playtest", "no-such-game"), "no game called 'no-such-game'"),
        (("playtest", GAME, "--variant", "nope"), "has no variant 'nope'"),
        (("playtest", GAME, "--param", "start_energy=0"), "start_energy"),
        (("playtest", GAME, "--param", "bogus=1"), "unknown parameter 'bogus'"),
        (("playtest", GAME, "--players", "5"), "players = 5"),
        (("playtest", GAME, "--bots", "nobody"), "no bot called 'nobody'"),
        (("replay", "/nonexistent/record.json"), "no such file"),
    ],
)
def test_errors_are_one_line_messages_with_exit_code_2(args, needle, tmp_path):
    result = invoke(*args, "--quiet", "--out", str(tmp_path)) if args[0] == "playtest" \
        else invoke(*args)
    assert result.exit_code == 2, result.output
    assert needle in result.output
    assert "Traceback" not in result.output


def test_play_rejects_bad_input_then_records_a_replayable_game(tmp_path):
    record_path = tmp_path / "game.json"
    lines = ["atk:Q", "atk:R", "99", "list", "say -bg hello blue and green",
             "def:BGO"] + ["pass"] * 400
    result = invoke("play", GAME, "--seat", "0", "--bots", "random", "--seed", "11",
                    "--record", str(record_path), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "cannot read 'q'" in out
    assert "no indicator for its own colour" in out
    assert "no action number 99" in out
    assert "41  def:BGO" in out  # the numbered legal action list
    assert "RED -> BLUE, GREEN: hello blue and green" in out
    assert "Round 1 revealed" in out and "RED: def:BGO" in out
    assert "wins" in out or "Draw" in out
    assert "Traceback" not in out
    record = Record.load(record_path)
    assert [step["0"] for step in record.steps if "0" in step][0] == "def:BGO"
    assert record.talk and record.talk[0]["recipients"] == [1, 2]
    assert invoke("replay", str(record_path)).exit_code == 0


def test_play_hides_other_seats_pending_choices_and_quits_cleanly():
    result = invoke("play", GAME, "--seat", "2", "--bots", "heuristic", input="quit\n")
    assert result.exit_code == 0  # 'quit' is a normal way to end
    assert "you play GREEN" in result.output
    assert "Traceback" not in result.output


def test_console_script_runs_a_playtest(tmp_path):
    """The installed entry point works as the README says (a real subprocess)."""
    out = tmp_path / "script"
    proc = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "playtest", GAME, "--games", "8", "--bots",
         "heuristic,random", "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert (out / "report.html").exists() and (out / "summary.json").exists()


def test_play_timer_submits_pass_when_time_runs_out():
    """B4G-17: with --timer, a silent seat submits the empty selection when time is up."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "play", GAME, "--seat", "0", "--bots", "random",
         "--timer", "--param", "timer_seconds=1", "--record", "/dev/null"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        first = proc.stdout.readline()  # the game has started (however slow the machine is)
        time.sleep(1.6)  # one decision's timer (1 s) runs out while we stay silent
        out, err = proc.communicate("quit\n", timeout=60)
        out = first + out
    finally:
        proc.kill()
    assert "time is up: pass submitted" in out, out + err
    assert "RED: pass" in out
    assert "Traceback" not in out + err


def test_a_game_left_mid_round_still_replays(tmp_path):
    """Bots submit before the person is asked; each submission is its own record step."""
    path = tmp_path / "nested" / "folder" / "left.json"  # folders are created up front
    result = invoke("play", GAME, "--seat", "2", "--bots", "random", "--record", str(path),
                    input="pass\nquit\n")
    assert result.exit_code == 0
    assert "you left the game" in result.output
    record = Record.load(path)
    # round 1: the bots (seats 0, 1, 3) submit first, one step each, then the person
    assert [list(step) for step in record.steps[:4]] == [["0"], ["1"], ["3"], ["2"]]
    assert record.steps[3] == {"2": "pass"}
    assert len(record.steps) == 7  # round 2: the bots submitted, then the person quit
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert "matches the recorded final state" in replayed.output


def test_play_tells_the_person_when_they_are_out_and_ignores_empty_lines():
    lines = ["", "   "] + ["pass"] * 400  # empty lines re-prompt; passing costs nothing...
    # seed 6 at 10 energy: RED (passing) falls in round 3 and three bots play on to round 6
    result = invoke("play", GAME, "--seat", "0", "--bots", "random", "--seed", "6",
                    "--param", "start_energy=10", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    # ...but random attackers bring RED down; the round that did it is shown, then the news
    assert "RED: pass" in result.output
    assert "you are out of the game; the bots play on" in result.output
    assert "Round 3 revealed" in result.output  # the round that put RED out is shown
    assert result.output.count("Round 1 revealed") == 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--games", "0"), "--games 0 must be at least 1"),
        (("--jobs", "-1"), "--jobs -1 must be 0"),
        (("--bots", "heuristic,"), "has an empty name"),
        (("--bots", "heuristc"), "no bot called 'heuristc'"),
    ],
)
def test_invalid_playtest_options_fail_before_any_work(tmp_path, args, needle):
    out = tmp_path / "never"
    result = invoke("playtest", GAME, "--out", str(out), *args)
    assert result.exit_code == 2 and needle in result.output
    assert "0/" not in result.output  # no progress bar was drawn
    assert not out.exists()  # and no output folder made


def test_playtest_out_that_is_a_file_is_a_one_line_error(tmp_path):
    target = tmp_path / "a-file"
    target.write_text("x")
    result = invoke("playtest", GAME, "--games", "4", "--quiet", "--out", str(target))
    assert result.exit_code == 2
    assert "cannot be used as a folder" in result.output and "Traceback" not in result.output


def test_games_text_lists_parameters():
    result = invoke("games", GAME)
    assert "start_energy" in result.output and "--param NAME=VALUE" in result.output


def test_damocles_is_playable_from_the_terminal_and_playtests(tmp_path):
    """A person can play a whole Damocles game (always choosing action 0: every play, then
    'end'), and a small playtest writes its report."""
    record = tmp_path / "damocles.json"
    result = invoke("play", "damocles", "--seat", "1", "--players", "3", "--bots", "heuristic",
                    "--seed", "5", "--record", str(record), input="0\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "your hand:" in result.output and "game over after 30 turns" in result.output
    assert "Traceback" not in result.output
    assert invoke("replay", str(record)).exit_code == 0
    out = tmp_path / "pt"
    result = invoke("playtest", "damocles", "--games", "8", "--bots", "heuristic,random",
                    "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text())["game"] == "damocles"


def test_ozymandias_market_is_playable_from_the_terminal_and_playtests(tmp_path):
    """A person plays a whole market-edition game (always action 0), the record replays, and a
    small playtest reports VP as its score."""
    record = tmp_path / "ozd.json"
    result = invoke("play", "ozymandias-market", "--seat", "0", "--bots", "heuristic",
                    "--seed", "2", "--record", str(record), input="0\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "your hand:" in result.output and "plans revealed" in result.output
    assert "wins" in result.output and "Traceback" not in result.output
    assert invoke("replay", str(record)).exit_code == 0
    out = tmp_path / "pt"
    result = invoke("playtest", "ozymandias-market", "--players", "3", "--games", "9",
                    "--bots", "heuristic,random", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == "ozymandias-market" and summary["length"]["unit"] == "rounds"


# ------------------------------------------------------- stored records, report, --resume
def _results_without_seconds(path):
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_playtest_stores_every_game_as_parquet_with_its_run(playtest_dir):
    from meeple.lab.run.store import connect

    run = json.loads((playtest_dir / "run.json").read_text())
    assert (run["game"], run["seed"], run["games"], run["bots"]) == (
        GAME, 7, 40, ["heuristic", "random"])
    assert len(run["sessions"]) == 1 and run["sessions"][0]["games_played"] == 40
    assert list((playtest_dir / "records").glob("part-*.parquet"))
    con = connect(playtest_dir)
    assert con.sql('select count(*), count(distinct "index") from games').fetchall() == [
        (40, 40)]
    assert con.sql("select count(*) from (select unnest(bots) as b from games) "
                   "where b = 'heuristic'").fetchall() == [(80,)]


def test_jobs_1_gives_the_same_results_as_the_default_all_cores(tmp_path, playtest_dir):
    out = tmp_path / "serial"
    result = invoke("playtest", GAME, "--games", "40", "--bots", "heuristic,random",
                    "--seed", "7", "--out", str(out), "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert _results_without_seconds(out / "results.jsonl") == \
        _results_without_seconds(playtest_dir / "results.jsonl")


def test_report_rebuilds_the_summary_and_page_from_the_store_without_playing(
        tmp_path, playtest_dir, monkeypatch):
    import shutil

    import meeple.engine.episode
    import meeple.lab.run.runner

    def no_play(*args, **kwargs):
        raise AssertionError("meeple report must not play")

    monkeypatch.setattr(meeple.lab.run.runner, "play_one", no_play)
    monkeypatch.setattr(meeple.engine.episode, "play_episode", no_play)
    out = tmp_path / "copy"
    shutil.copytree(playtest_dir, out)
    (out / "summary.json").unlink()
    (out / "report.html").unlink()
    result = invoke("report", str(out))
    assert result.exit_code == 0, result.output
    assert "from 40 stored games" in result.output
    rebuilt = json.loads((out / "summary.json").read_text())
    assert rebuilt == json.loads((playtest_dir / "summary.json").read_text())
    assert GAME in (out / "report.html").read_text()


def test_replay_of_a_game_stored_in_a_playtest_directory(playtest_dir):
    result = invoke("replay", str(playtest_dir), "--index", "33")
    assert result.exit_code == 0, result.output
    assert "matches the recorded final state" in result.output
    result = invoke("replay", str(playtest_dir), "--index", "40")
    assert result.exit_code == 2 and "no stored game 40" in result.output


def test_resume_plays_the_missing_games_and_equals_a_straight_run(tmp_path, playtest_dir):
    """An interruption after 25 games is simulated by keeping only the stored rows 0-24."""
    import shutil

    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    out = tmp_path / "resumed"
    shutil.copytree(playtest_dir, out)
    for name in ("summary.json", "results.jsonl", "report.html"):
        (out / name).unlink()
    run = json.loads((out / "run.json").read_text())
    run["sessions"] = []
    (out / "run.json").write_text(json.dumps(run))
    table = pq.read_table(list((out / "records").glob("part-*.parquet")))
    for part in (out / "records").glob("part-*.parquet"):
        part.unlink()
    pq.write_table(table.filter(pc.less(table["index"], 25)),
                   out / "records" / "part-000000000-000000024-25.parquet")
    result = invoke("playtest", GAME, "--games", "40", "--bots", "heuristic,random",
                    "--seed", "7", "--out", str(out), "--resume", "--quiet")
    assert result.exit_code == 0, result.output
    assert _results_without_seconds(out / "results.jsonl") == \
        _results_without_seconds(playtest_dir / "results.jsonl")
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["games_played"] for s in sessions] == [15]


def test_resume_refuses_other_options_and_report_needs_a_stored_run(tmp_path, playtest_dir):
    result = invoke("playtest", GAME, "--games", "40", "--bots", "heuristic,random",
                    "--seed", "8", "--out", str(playtest_dir), "--resume", "--quiet")
    assert result.exit_code == 2
    assert "holds a different run: seed 7 (asked: 8)" in result.output
    result = invoke("report", str(tmp_path))
    assert result.exit_code == 2 and "no stored playtest" in result.output
    result = invoke("playtest", GAME, "--backend", "dask", "--out", str(tmp_path / "x"))
    assert result.exit_code == 2 and "--backend 'dask' must be process or ray" in result.output


def test_a_terminated_playtest_keeps_its_finished_games(tmp_path):
    """SIGTERM mid-run (a real subprocess): exit 130, the finished games are stored, and the
    report of the partial run says how many."""
    import signal

    out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "playtest", GAME, "--games", "400000",
         "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list((out / "records").glob("part-*.parquet")):
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "--resume" in err
    from meeple.lab.run.store import RunStore

    store = RunStore.open(out)
    kept = store.count()
    assert 0 < kept < 400000
    assert len(store.finished_indices()) == kept  # each stored game once
    assert store.run["sessions"][0]["games_played"] == kept
    assert store.run["sessions"][0]["status"] == "interrupted"
    result = invoke("report", str(out))
    assert result.exit_code == 0, result.output
    assert f"{kept} of 400000 games are stored" in result.output
