"""The skill ladder: its statistics, its summary, its files and its command."""

from __future__ import annotations

import json

import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

import examples.pig  # noqa: F401  (registers "pig")
from meeple.cli import app
from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.lab.analysis.stats import difference_interval, wilson
from meeple.lab.experiments.ladder import (
    BUDGET_SCALES,
    MAX_GAMES,
    competitive_step,
    default_budgets,
    default_games,
    default_tiers,
    planned_ladder,
    run_ladder,
    skill_depth,
    team_entry,
    team_step,
)
from meeple.lab.pages.report import write_ladder
from tests.coop_example import CoopExample, registered


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (57, 200)])
def test_wilson_matches_scipy_for_whole_counts(k: int, n: int) -> None:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)


@pytest.mark.parametrize("n", [1, 7, 12, 200, 4001])
def test_wilson_is_exactly_zero_or_one_at_the_ends(n: int) -> None:
    # float rounding left 2.8e-17 as the lower bound of 0 wins in 12, so "share - low" was
    # negative and a plot's error bar refused it
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    assert 0.0 < wilson(0, n)[1] and wilson(n, n)[0] < 1.0


def test_wilson_of_shared_wins_lies_between_its_neighbours() -> None:
    low, high = wilson(4.5, 10)
    assert wilson(4, 10)[0] < low < wilson(5, 10)[0]
    assert wilson(4, 10)[1] < high < wilson(5, 10)[1]
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_difference_interval_brackets_the_difference() -> None:
    low, high = difference_interval(40, 50, 20, 50)
    assert low < 0.4 < high and low > 0
    low, high = difference_interval(25, 50, 25, 50)
    assert low < 0 < high


def _step(lower: str, upper: str, pays: bool) -> dict:
    return {"lower": lower, "upper": upper, "pays": pays}


def test_skill_depth_counts_paying_budget_steps_and_the_unbroken_chain() -> None:
    steps = [_step("random", "heuristic", True), _step("heuristic", "ismcts-50", True),
             _step("ismcts-50", "ismcts-100", True), _step("ismcts-100", "ismcts-200", False),
             _step("ismcts-200", "ismcts-400", True)]
    depth = skill_depth(steps)
    assert depth["reached"] == "ismcts-100"
    assert (depth["search_doublings"], depth["paying_doublings"]) == (3, 2)
    assert depth["paying_steps"] == 4
    assert "ismcts-50 beats heuristic" in depth["text"]
    assert "ismcts-200 -> ismcts-400" in depth["text"]
    assert skill_depth([_step("random", "heuristic", False)])["reached"] == "random"


def test_default_tiers() -> None:
    game = load_game("damocles")
    assert default_tiers(game, (10, 20)) == ["random", "heuristic", "ismcts-10", "ismcts-20"]
    assert default_tiers(load_game("pig"), (5,), "heuristic") == ["random", "ismcts-5-heuristic"]


def test_default_budgets_double_around_the_game_default() -> None:
    four_gods = load_game("battle-of-the-four-gods")
    base = four_gods.search["iterations"]
    budgets = default_budgets(four_gods)
    assert base in budgets and budgets == sorted(budgets)
    assert all(1.9 < b2 / b1 < 2.1 for b1, b2 in zip(budgets, budgets[1:], strict=False))
    assert default_tiers(four_gods)[2:] == [f"ismcts-{b}" for b in budgets]


def test_competitive_ladder_on_pig() -> None:
    game = load_game("pig")
    ladder = run_ladder(game, ["random", "ismcts-60"], games=30, seed=2)
    (step,) = ladder["steps"]
    assert step["fair_share"] == 0.5 and step["games"] == 30
    low, high = step["ci"]
    assert low <= step["upper_share"] <= high
    assert step["pays"] == (low > 0.5)
    assert step["upper_share"] > 0.6, "search should beat random play at pig"
    assert ladder["depth"]["reached"] == ("ismcts-60" if step["pays"] else "random")
    json.dumps(ladder)  # JSON-compatible
    with pytest.raises(ParameterError):
        run_ladder(game, ["random"], games=4)
    with pytest.raises(ParameterError):
        run_ladder(game, ["random", "random"], games=4)


def test_cooperative_ladder_compares_team_win_rates(tmp_path) -> None:
    game = CoopExample(players=2)
    ladder = run_ladder(game, ["random", "worker"], games=40, seed=0)
    team = ladder["team"]
    assert set(team) == {"random", "worker"}
    (step,) = ladder["steps"]
    assert step["difference"] == pytest.approx(team["worker"]["rate"] - team["random"]["rate"])
    assert step["ci"][0] <= step["difference"] <= step["ci"][1]
    report = write_ladder(ladder, tmp_path)
    page = report.read_text()
    assert "Skill ladder" in page and "team win" in page
    assert (tmp_path / "ladder.png").stat().st_size > 1000


def test_ladder_command_writes_json_and_report_section(tmp_path) -> None:
    out = tmp_path / "lad"
    result = CliRunner().invoke(app, ["ladder", "damocles", "--players", "2", "--tiers",
                                      "random,heuristic", "--games", "6", "--jobs", "1",
                                      "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    ladder = json.loads((out / "ladder.json").read_text())
    assert ladder["tiers"] == ["random", "heuristic"] and len(ladder["steps"]) == 1
    assert "heuristic vs 1 × random" in result.output or "heuristic" in result.output
    assert "Skill ladder" in (out / "report.html").read_text()
    # a playtest written into the same folder keeps the ladder's section in its report
    result = CliRunner().invoke(app, ["playtest", "damocles", "--players", "2", "--games", "4",
                                      "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text()
    assert "Skill ladder" in page and "Win rate by seat" in page


def test_ladder_command_refuses_bad_budgets(tmp_path) -> None:
    result = CliRunner().invoke(app, ["ladder", "damocles", "--budgets", "10,x",
                                      "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--budgets" in result.output


def test_cooperative_ladder_through_the_command(tmp_path) -> None:
    with registered():
        result = CliRunner().invoke(app, ["ladder", "coop-example", "--tiers", "random,worker",
                                          "--games", "8", "--jobs", "1", "--out",
                                          str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "ladder.json").read_text())["cooperative"] is True


def test_ladder_saves_every_step_and_resume_reuses_finished_steps(monkeypatch) -> None:
    game = load_game("pig")
    tiers = ["random", "ismcts-8", "ismcts-16"]
    partials: list[dict] = []
    full = run_ladder(game, tiers, games=6, seed=3,
                      on_step=lambda ladder: partials.append(json.loads(json.dumps(ladder))))
    assert [len(p["steps"]) for p in partials] == [1, 2]
    assert [p["complete"] for p in partials] == [False, False] and full["complete"] is True
    # resume from the ladder saved after the first step, with that step marked so reuse shows
    saved = partials[0]
    saved["steps"][0]["upper_share"] = 0.123
    import meeple.lab.experiments.ladder as ladder_module

    played: list[list[str]] = []
    real = ladder_module.run_playtest

    def counting(game, bots, *args, **kwargs):
        played.append(list(bots))
        return real(game, bots, *args, **kwargs)

    monkeypatch.setattr(ladder_module, "run_playtest", counting)
    finished: list[int] = []
    resumed = run_ladder(game, tiers, games=6, seed=3, resume=saved,
                         on_progress=finished.append)
    assert played == [["ismcts-16", "ismcts-8"]], "only the unfinished step is played"
    assert sum(finished) == 12, "the reused step's games count as finished"
    assert resumed["steps"][0]["upper_share"] == 0.123
    second = {k: v for k, v in resumed["steps"][1].items() if k != "seconds"}
    assert second == {k: v for k, v in full["steps"][1].items() if k != "seconds"}
    assert resumed["complete"] is True


def test_resume_refuses_a_ladder_of_another_run() -> None:
    game = load_game("pig")
    earlier = run_ladder(game, ["random", "ismcts-4"], games=2, seed=1)
    with pytest.raises(ParameterError, match="seed"):
        run_ladder(game, ["random", "ismcts-4"], games=2, seed=2, resume=earlier)
    with pytest.raises(ParameterError, match="games"):
        run_ladder(game, ["random", "ismcts-4"], games=3, seed=1, resume=earlier)


def test_cooperative_ladder_resume_keeps_finished_tiers() -> None:
    game = CoopExample(players=2)
    partials: list[dict] = []
    run_ladder(game, ["random", "worker"], games=10, seed=0,
               on_step=lambda ladder: partials.append(json.loads(json.dumps(ladder))))
    first = partials[0]
    assert list(first["team"]) == ["random"] and first["steps"] == []
    first["team"]["random"]["wins"] = 0
    first["team"]["random"]["rate"] = 0.0
    resumed = run_ladder(game, ["random", "worker"], games=10, seed=0, resume=first)
    assert resumed["team"]["random"]["rate"] == 0.0
    assert resumed["steps"][0]["lower_rate"] == 0.0


def test_ladder_command_resumes_an_interrupted_ladder(tmp_path) -> None:
    args = ["ladder", "pig", "--tiers", "random,ismcts-4,ismcts-8", "--games", "4",
            "--jobs", "1", "--out", str(tmp_path), "--quiet"]
    result = CliRunner().invoke(app, [*args, "--resume"])
    assert result.exit_code == 2 and "no ladder.json" in result.output
    assert CliRunner().invoke(app, args).exit_code == 0
    path = tmp_path / "ladder.json"
    ladder = json.loads(path.read_text())
    assert ladder["complete"] is True and len(ladder["steps"]) == 2
    ladder["steps"] = ladder["steps"][:1]  # as if stopped after the first step
    ladder["steps"][0]["upper_share"] = 0.321
    ladder["complete"] = False
    path.write_text(json.dumps(ladder))
    result = CliRunner().invoke(app, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    resumed = json.loads(path.read_text())
    assert resumed["complete"] is True and len(resumed["steps"]) == 2
    assert resumed["steps"][0]["upper_share"] == 0.321
    result = CliRunner().invoke(app, [*args, "--seed", "5", "--resume"])
    assert result.exit_code == 2 and "another run" in result.output


def test_default_games_fit_the_time_in_whole_rotations() -> None:
    game = load_game("damocles")  # 4 seats
    assert game.players == 4
    # 1 s a game in each of two stages, 2 workers: n games take n seconds
    assert default_games(game, [1.0, 1.0], workers=2, seconds=30) == 28
    assert default_games(game, [0.001], workers=2, seconds=30) == 60, "capped at most"
    assert default_games(game, [0.001], workers=1, seconds=30, most=10) == 8
    assert default_games(game, [100.0], workers=2, seconds=30) == 4, "one rotation at least"


def test_planned_ladder_picks_games_and_estimates_them() -> None:
    game = load_game("pig")
    games, estimate = planned_ladder(game, ["random", "ismcts-4"], jobs=1, seconds=5)
    assert games % game.players == 0 and game.players <= games <= MAX_GAMES
    assert len(estimate.stage_seconds) == 1 and estimate.workers == 1
    assert estimate.seconds == pytest.approx(sum(estimate.stage_seconds))
    assert estimate.seconds <= 5 or games == game.players


def test_default_budgets_end_at_the_game_default() -> None:
    game = load_game("ozymandias-market")
    assert default_budgets(game)[-1] == game.search["iterations"]
    assert default_budgets(game)[0] == round(game.search["iterations"] * BUDGET_SCALES[0])


def _results(upper_wins: int, games: int) -> list[dict]:
    """Two-seat games of ``upper`` against ``lower`` where ``upper`` wins ``upper_wins``."""
    return [{"bots": ["upper", "lower"], "returns": [1.0, 0.0] if i < upper_wins else [0.0, 1.0],
             "truncated": False, "length": 10} for i in range(games)]


def test_a_step_with_few_games_is_too_few_to_tell_not_a_no() -> None:
    """8 games at 50%: the interval (about 22-78%) cannot rule out an edge that matters, so
    the verdict is "too few games to tell"; 2,000 games at 50% decide "no"; 8 of 8 pays."""
    few = competitive_step(_results(4, 8), "upper", "lower", 2)
    assert not few["pays"] and few["verdict"] == "too few games to tell"
    many = competitive_step(_results(1000, 2000), "upper", "lower", 2)
    assert not many["pays"] and many["verdict"] == "no"
    sweep = competitive_step(_results(8, 8), "upper", "lower", 2)
    assert sweep["pays"] and sweep["verdict"] == "yes"
    depth = skill_depth([few, many])
    assert depth["undecided_steps"] == 1 and "1 of 2 steps had too few games" in depth["text"]
    team = {"a": team_entry([{"returns": [1.0], "outcome": {"team_win": i < 3},
                              "length": 5} for i in range(8)]),
            "b": team_entry([{"returns": [1.0], "outcome": {"team_win": i < 4},
                              "length": 5} for i in range(8)])}
    assert team_step(team, "a", "b")["verdict"] == "too few games to tell"
