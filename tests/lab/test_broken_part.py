"""A broken record part (a truncated Parquet file, as a run that filled the disk leaves):
``meeple report``, ``meeple replay`` and ``meeple playtest --resume`` each say so in one line
naming the file and what to do, and resume plays again only that part's games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.registry import load_game
from meeple.lab.run.runner import run_playtest
from meeple.lab.run.store import BrokenPartError, RunStore, run_config

GAME = "battle-of-the-four-gods"
GAMES, SEED = 40, 3
ARGS = ["--bots", "random", "--games", str(GAMES), "--seed", str(SEED), "--jobs", "1"]


def one_line(output: str) -> str:
    """The CLI's message with the terminal's wrapping undone."""
    return " ".join(output.split())


@pytest.fixture()
def broken(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    """A finished 40-game run in parts of 10 games, the second part truncated to half."""
    game = load_game(GAME)
    store = RunStore.create(tmp_path, run_config(game, ["random"], GAMES, SEED))
    results, _ = run_playtest(game, ["random"], GAMES, SEED, 1, store=store, flush_rows=10)
    part = store.parts()[1]
    assert part.name.startswith("part-000000010-000000019-10")
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    return tmp_path, part, results


def test_report_names_the_broken_part_and_the_resume_command(broken) -> None:
    out, part, _ = broken
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 2
    text = one_line(result.output)
    assert "Traceback" not in result.output
    assert f"broken record part {part}" in text and "games 10-19" in text
    assert "--resume" in text and f"meeple playtest {GAME}" in text
    assert len(result.output.strip().splitlines()) <= 4  # one message, wrapped at most


def test_replay_of_a_game_in_the_broken_part_says_so_and_others_still_replay(broken) -> None:
    out, part, _ = broken
    result = CliRunner().invoke(app, ["replay", str(out), "--index", "12"])
    assert result.exit_code == 2
    assert f"broken record part {part}" in one_line(result.output)
    ok = CliRunner().invoke(app, ["replay", str(out), "--index", "25"])
    assert ok.exit_code == 0, ok.output
    assert "matches the recorded final state" in one_line(ok.output)


def test_resume_replays_only_the_broken_part(broken) -> None:
    out, part, results = broken
    other_parts = sorted(p for p in (out / "records").glob("part-*.parquet") if p != part)
    before = {p.name: p.stat().st_mtime_ns for p in other_parts}
    result = CliRunner().invoke(app, ["playtest", GAME, *ARGS, "--out", str(out), "--resume",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    text = one_line(result.output)
    assert f"broken record part {part}" in text and "re-playing its games" in text
    assert part.with_name(part.name + ".broken").is_file()
    # the other parts untouched; one new part with exactly games 10-19
    assert {p.name: p.stat().st_mtime_ns for p in other_parts} == before
    new = sorted(set((out / "records").glob("part-*.parquet")) - set(other_parts))
    assert [p.name for p in new] == ["part-000000010-000000019-10.parquet"]
    run = json.loads((out / "run.json").read_text())
    assert run["sessions"][-1]["games_played"] == 10
    stored = RunStore.open(out).read_results()
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in stored]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_the_store_raises_a_broken_part_error(broken) -> None:
    out, part, _ = broken
    with pytest.raises(BrokenPartError) as info:
        RunStore.open(out).read_results()
    assert info.value.path == part
    assert re.search(r"\(games 10-19, 10 games; ", str(info.value))
