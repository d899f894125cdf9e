"""End-to-end tests of ``meeple compare`` and ``meeple sweep``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli import app

GAME = "battle-of-the-four-gods"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_compare_variants_writes_json_and_page(tmp_path: Path):
    out = tmp_path / "cmp"
    result = invoke("compare", GAME, "--variant", "seed", "--variant", "rulebook-2018",
                    "--players", "2", "--games", "4", "--jobs", "1", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    data = json.loads((out / "compare.json").read_text())
    assert [a["label"] for a in data["arms"]] == ["seed", "rulebook-2018"]
    assert data["arms"][1]["variant"] == "rulebook-2018-04"  # the alias resolved
    assert data["bots"] == ["heuristic", "random"]
    assert "What rulebook-2018 changes against seed" in (out / "compare.html").read_text()
    assert "mean length (rounds)" in result.output and "compare.html" in result.output


def test_compare_param_sets_apply_on_top_of_a_single_variant(tmp_path: Path):
    out = tmp_path / "cmp"
    result = invoke("compare", GAME, "--variant", "rulebook-2018", "--param-set",
                    "start_energy=8", "--players", "2", "--bots", "random", "--games", "4",
                    "--jobs", "1", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    arms = json.loads((out / "compare.json").read_text())["arms"]
    assert [a["variant"] for a in arms] == ["rulebook-2018-04"] * 2
    assert arms[1]["params"]["start_energy"] == 8 and arms[0]["params"]["start_energy"] == 60


def test_compare_errors_are_one_line_messages(tmp_path: Path):
    result = invoke("compare", GAME, "--variant", "seed", "--out", str(tmp_path))
    assert result.exit_code == 2 and "two or more arms" in result.output
    result = invoke("compare", GAME, "--variant", "seed", "--variant", "nope",
                    "--out", str(tmp_path))
    assert result.exit_code == 2 and "nope" in result.output
    assert "Traceback" not in result.output


def test_sweep_writes_points_ranking_and_plots(tmp_path: Path):
    out = tmp_path / "sw"
    result = invoke("sweep", GAME, "--param", "start_energy=4,8", "--players", "2",
                    "--target", "length=6", "--games", "4", "--jobs", "1", "--out", str(out),
                    "-q")
    assert result.exit_code == 0, result.output
    data = json.loads((out / "sweep.json").read_text())
    assert [p["label"] for p in data["points"]] == ["start_energy=4", "start_energy=8"]
    assert data["targets"] == {"length": 6.0} and len(data["ranking"]) == 2
    assert (out / "sweep.html").exists() and (out / "sweep_length.png").exists()
    assert "rank" in result.output and "start_energy=8" in result.output


def test_sweep_errors_are_one_line_messages(tmp_path: Path):
    result = invoke("sweep", GAME, "--out", str(tmp_path))
    assert result.exit_code == 2 and "--param" in result.output
    result = invoke("sweep", GAME, "--param", "start_energy=4", "--target", "fun=1",
                    "--out", str(tmp_path))
    assert result.exit_code == 2 and "unknown metric 'fun'" in result.output


def test_a_refused_compare_or_sweep_checks_every_arm_first_and_leaves_no_folder(
        tmp_path: Path):
    """A bad second arm (variant, parameter value, player count) or a bot the game lacks is
    refused before the first game, with a one-line message, and --out is not created."""
    cases = [
        ("compare", GAME, "--variant", "seed", "--variant", "nope"),
        ("compare", GAME, "--param-set", "start_energy=8", "--param-set", "start_energy=abc"),
        ("compare", GAME, "--param-set", "players=2", "--param-set", "players=9"),
        ("compare", GAME, "--variant", "seed", "--variant", "rulebook-2018", "--bots",
         "heuristic,nobody"),
        ("sweep", GAME, "--param", "players=2,9"),
        ("sweep", GAME, "--param", "start_energy=4,abc"),
        ("sweep", GAME, "--param", "start_energy=4,8", "--bots", "random,nobody"),
    ]
    for i, args in enumerate(cases):
        out = tmp_path / f"out{i}"
        result = invoke(*args, "--games", "2", "--jobs", "1", "--out", str(out), "-q")
        assert result.exit_code == 2, (args, result.output)
        assert "error:" in result.output and "Traceback" not in result.output, args
        assert not out.exists(), args
    kept = tmp_path / "kept"  # a folder that was there before stays
    kept.mkdir()
    assert invoke("sweep", GAME, "--param", "players=2,9", "--out", str(kept)).exit_code == 2
    assert kept.is_dir()


def test_check_arms_names_the_arm_whose_game_a_bot_cannot_play(monkeypatch):
    """Every arm is checked, not only the first: a bot that only the second arm's game lacks
    is refused, naming that arm."""
    import pytest

    import meeple.bots
    from meeple.engine.errors import ParameterError
    from meeple.engine.registry import load_game
    from meeple.lab.experiments.compare import check_arms

    real = meeple.bots.make_bot

    def make_bot(name, game, seat, seed=0):
        if name == "heuristic" and game.players == 2:
            raise ParameterError(f"no bot called {name!r} for 2 players")
        return real(name, game, seat, seed)

    monkeypatch.setattr(meeple.bots, "make_bot", make_bot)
    check_arms([("a", load_game(GAME)), ("b", load_game("damocles"))], ["heuristic", "random"])
    with pytest.raises(ParameterError, match="arm 'players=2': no bot called 'heuristic'"):
        check_arms([("4p", load_game(GAME)), ("players=2", load_game(GAME, players=2))],
                   ["heuristic", "random"])


def test_long_runs_print_an_estimate_first_and_the_actual_time_last(tmp_path: Path):
    """Without --quiet, a ladder (with a tiny ISMCTS tier) and a compare print the estimate
    line before the first stage finishes, a line per stage, and the actual time at the end."""
    result = invoke("ladder", GAME, "--players", "2", "--tiers", "random,heuristic,ismcts-3",
                    "--games", "2", "--jobs", "1", "--out", str(tmp_path / "lad"))
    assert result.exit_code == 0, result.output
    out = result.output
    first = out.index("estimate: about")
    assert "probe game" in out[first:out.index("\n", first)]
    assert first < out.index("1/2 heuristic vs random") < out.index("2/2 ismcts-3 vs heuristic")
    assert out.index("2/2 ismcts-3 vs heuristic") < out.index("\ntook ") < out.index("wrote")
    assert "(estimated about" in out[out.index("\ntook "):]
    result = invoke("compare", GAME, "--variant", "seed", "--variant", "rulebook-2018",
                    "--players", "2", "--games", "2", "--jobs", "1", "--out",
                    str(tmp_path / "cmp"))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("estimate: about") < out.index("1/2 seed") < out.index("\ntook ")
    quiet = invoke("ladder", GAME, "--players", "2", "--tiers", "random,heuristic",
                   "--games", "2", "--jobs", "1", "--out", str(tmp_path / "q"), "-q")
    assert quiet.exit_code == 0 and "estimate:" not in quiet.output


def test_the_playtest_rate_column_shows_slow_runs_with_decimals() -> None:
    from types import SimpleNamespace

    from meeple.cli.common import RateColumn

    column = RateColumn()
    assert column.render(SimpleNamespace(finished_speed=None, speed=0.3)).plain == "0.30 games/s"
    assert column.render(SimpleNamespace(finished_speed=None, speed=2.46)).plain == "2.5 games/s"
    assert column.render(SimpleNamespace(finished_speed=1234.0, speed=None)).plain == \
        "1,234 games/s"
    assert column.render(SimpleNamespace(finished_speed=None, speed=None)).plain == ""
