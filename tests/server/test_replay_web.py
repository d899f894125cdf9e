"""``meeple replay FILE --web`` end to end (a subprocess on a free port: the page, the frames,
other games of the same run), its refusals, and the playtest report's "Games worth watching"
with the ``--web`` command of each."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.record import Record
from meeple.lab.pages.report_extra import worth_watching
from tests.server.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
FOUR_GODS = "battle-of-the-four-gods"
runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny playtest of Four Gods: 6 games, two bots, small parameters."""
    out = tmp_path_factory.mktemp("run")
    result = runner.invoke(app, ["playtest", FOUR_GODS, "--games", "6", "--bots",
                                 "heuristic,random", "--seed", "5", "--jobs", "1",
                                 "--param", "start_energy=7", "--param", "max_rounds=8",
                                 "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def _results(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def test_the_report_names_its_longest_game_with_the_web_command(run_dir: Path) -> None:
    results = _results(run_dir)
    longest = max(results, key=lambda r: (r["length"], -r["index"]))
    page = (run_dir / "report.html").read_text()
    assert "Games worth watching" in page
    assert f"meeple replay {run_dir} --index {longest['index']} --web" in page
    named = {what: index for what, index, _ in worth_watching(results)}
    assert named["longest"] == longest["index"]
    assert "closest win" in named or all(len(r["winners"]) != 1 for r in results)


def test_worth_watching_finds_the_upset() -> None:
    def game(index: int, bots: list[str], winner: int, length: int) -> dict:
        return {"index": index, "bots": bots, "winners": [winner], "length": length,
                "scores": [3.0 if s == winner else 1.0 for s in range(2)]}

    results = [game(i, ["strong", "weak"], 0, 10 + i) for i in range(5)]
    results.append(game(5, ["strong", "weak"], 1, 3))
    named = {what: (index, why) for what, index, why in worth_watching(results)}
    assert named["biggest upset"][0] == 5 and "weak" in named["biggest upset"][1]
    assert named["longest"][0] == 4 and named["shortest"][0] == 5
    assert worth_watching([]) == []


def test_web_refuses_show_and_save(run_dir: Path, tmp_path: Path) -> None:
    for extra in (["--show"], ["--save", str(tmp_path / "x.json")]):
        result = runner.invoke(app, ["replay", str(run_dir), "--web", *extra])
        assert result.exit_code != 0 and "--web cannot be combined" in result.output
    result = runner.invoke(app, ["replay", str(run_dir), "--open"])
    assert result.exit_code != 0 and "go with --web" in result.output


def _serve(args: list[str]) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "meeple.cli", "replay", *args, "--web"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/replay/local/\d+)", line)
    if match is None:
        proc.kill()
        raise AssertionError(f"no address printed: {line}{proc.stdout.read()}")
    return proc, match.group(1)


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def test_web_serves_a_run_directory_game_and_a_record_file(run_dir: Path,
                                                           tmp_path: Path) -> None:
    port = free_port()
    proc, url = _serve([str(run_dir), "--index", "2", "--port", str(port)])
    try:
        assert url == f"http://127.0.0.1:{port}/replay/local/2"
        base = url.split("/replay/")[0]
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200 and "/static/js/replay.js" in page.text
        frames = httpx.get(f"{base}/api/replays/2?seat=1", timeout=30).json()
        from meeple.lab.run.store import RunStore

        record = RunStore.open(run_dir).record(2)
        assert frames["steps"] == len(record.steps) and frames["seat"] == 1
        assert frames["digest"] == record.result["digest"]
        assert len(frames["views"]) == frames["steps"] + 1
        other = httpx.get(f"{base}/api/replays/4", timeout=30).json()   # the same run's game 4
        assert other["steps"] == len(RunStore.open(run_dir).record(4).steps)
        assert httpx.get(f"{base}/api/replays/99", timeout=30).status_code == 404
        assert httpx.get(f"{base}/api/replays/2/board", timeout=10).status_code == 200
    finally:
        _stop(proc)
    path = tmp_path / "game.json"
    record.save(path)
    proc, url = _serve([str(path)])
    try:
        base = url.split("/replay/")[0]
        assert url.endswith("/replay/local/0")
        got = httpx.get(f"{base}/api/replays/0", timeout=30).json()
        assert got["steps"] == len(Record.load(path).steps)
        assert httpx.get(f"{base}/api/replays/1", timeout=10).status_code == 404
    finally:
        _stop(proc)
