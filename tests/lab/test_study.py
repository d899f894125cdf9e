"""``meeple study`` (issue 21): the planner fits and scales with the budget, a tiny study answers
every in-scope question with a verdict and an interval, co-operative games get team verdicts,
and the command line plans, and refuses a bad budget, cleanly. Tiny budgets: seconds each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.lab.experiments.study import (
    NOT_YET,
    load_plan,
    parse_budget,
    plan_study,
    run_study,
)
from meeple.lab.pages.study_page import write_study

B4G = "battle-of-the-four-gods"


def test_budgets_parse_and_bad_ones_are_refused() -> None:
    assert parse_budget("90s") == 90
    assert parse_budget("10m") == 600
    assert parse_budget("1h") == 3600
    assert parse_budget("1h30m") == 5400
    assert parse_budget("45") == 45
    for bad in ("", "ten minutes", "10x", "0s", "m"):
        with pytest.raises(ParameterError):
            parse_budget(bad)


def test_the_plan_fits_the_budget_and_scales_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # budgets well above the probe games' few seconds, so a busy machine still fits; the
    # second plan reuses the first one's (real) probe times, so that the scaling tested is the
    # planner's and not the machine's load changing between the two probes
    from meeple.lab.experiments import study as study_module

    real, seen = study_module._probe, {}

    def probe_once(game, bots, seed, budget):
        key = (repr(game.spec()), tuple(bots))
        if key not in seen:
            seen[key] = real(game, bots, seed, budget)
        return seen[key]

    monkeypatch.setattr(study_module, "_probe", probe_once)
    small = plan_study(B4G, budget_seconds=20, jobs=1)
    large = plan_study(B4G, budget_seconds=80, jobs=1)
    cls = type(load_game(B4G))
    for plan, budget in ((small, 20), (large, 80)):
        assert plan.seconds + plan.probe_seconds <= budget
        sections = plan.sections()
        assert [r.players for r in sections["fairness"]] == list(
            range(cls.min_players, cls.max_players + 1))
        assert {r.variant for r in sections["variants"]} == {v.name for v in cls.variants}
        assert sections["skill"] and all(r.games >= 2 for r in plan.runs)
        assert all(r.games % r.players == 0 for r in sections["fairness"])
    fair = lambda plan: sum(r.games for r in plan.sections()["fairness"])  # noqa: E731
    arms = lambda plan: sum(r.games for r in plan.sections()["variants"])  # noqa: E731
    assert fair(large) > 2 * fair(small) and arms(large) > 2 * arms(small)


@pytest.fixture(scope="module")
def b4g_study(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("study")
    plan = plan_study(B4G, budget_seconds=10, jobs=1)
    data = run_study(plan, out, jobs=1)
    write_study(data, out)
    return data, out


def _check_interval(interval: list[float] | None, share: bool = True) -> None:
    assert interval is not None and len(interval) == 2
    low, high = interval
    assert low <= high
    if share:
        assert 0.0 <= low <= high <= 1.0


def test_a_tiny_study_answers_every_question_in_scope(b4g_study: tuple[dict, Path]) -> None:
    data, out = b4g_study
    saved = json.loads((out / "study.json").read_text())
    assert saved["rows"] == data["rows"]
    sections = saved["sections"]
    assert [e["players"] for e in sections["fairness"]] == [2, 3, 4]
    assert [e["players"] for e in sections["length"]] == [2, 3, 4]
    for e in sections["fairness"]:
        assert isinstance(e["verdict"], str) and e["verdict"]
        assert "fair is" in e["verdict"] or "no seat advantage" in e["verdict"] \
            or "too few games" in e["verdict"]
        _check_interval(e["interval"])
    for e in sections["length"]:
        assert e["length"]["mean"] > 0 and e["decisions"]["mean"] > 0
        _check_interval(e["interval"])
    assert sections["skill"] and sections["skill"][0]["question"] == "Skill: heuristic vs random"
    for e in sections["skill"]:
        assert isinstance(e["verdict"], str)
        _check_interval(e["interval"])
    assert len(sections["variants"]) == len(type(load_game(B4G)).variants) - 1
    for e in sections["variants"]:
        assert isinstance(e["verdict"], str) and e["verdict"]
    assert all(isinstance(r["verdict"], str) for r in saved["rows"])
    assert saved["not_yet"] == NOT_YET
    longest = saved["longest"]
    assert longest["command"].startswith("meeple replay ") and "--web" in longest["command"]
    page = (out / "study.html").read_text()
    assert page.index("Summary") < page.index("1. Seat fairness")
    assert "meeple replay" in page and "Not yet studied" not in page
    for number in range(1, 9):  # every section of the issue has its heading
        assert f"<h2>{number}. " in page
    # a length row's interval is of the games that hit the cap, and says so
    length_rows = [r for r in saved["rows"] if r["section"] == "length"]
    assert length_rows and all(r["interval_label"] == "hit the cap" for r in length_rows)
    assert "% hit the cap</td>" in page


def test_a_finished_study_resumes_without_playing(b4g_study: tuple[dict, Path]) -> None:
    data, out = b4g_study
    plan = load_plan(out)
    assert plan is not None and plan.game == B4G
    started = []
    again = run_study(plan, out, jobs=1, resume=True,
                      on_run=lambda run: (lambda k: started.append(k)))
    assert again["rows"] == data["rows"] and again["games"] == data["games"]


def test_a_cooperative_study_gives_team_rates(tmp_path: Path) -> None:
    plan = plan_study("epoch-ellipse", budget_seconds=5, jobs=1)
    data = run_study(plan, tmp_path, jobs=1)
    counts = [e["players"] for e in data["sections"]["fairness"]]
    cls = type(load_game("epoch-ellipse"))
    assert counts == list(range(cls.min_players, cls.max_players + 1))
    for e in data["sections"]["fairness"]:
        assert e["kind"] == "team" and e["verdict"].startswith("the team of")
        _check_interval(e["interval"])
    assert any("team" in e["question"] for e in data["sections"]["skill"])
    for e in data["sections"]["skill"]:
        _check_interval(e["interval"], share="difference" not in e.get("interval_of", ""))


def test_plan_only_prints_the_plan_and_plays_nothing(tmp_path: Path) -> None:
    out = tmp_path / "s"
    result = CliRunner().invoke(app, ["study", B4G, "--budget", "5s", "--jobs", "1",
                                      "--plan-only", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "study plan" in result.output and "fairness-2p" in result.output
    assert "estimated" in result.output
    assert not (out / "study.json").exists()


def test_a_bad_budget_is_a_clean_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["study", B4G, "--budget", "ten minutes", "--out",
                                      str(tmp_path)])
    assert result.exit_code == 2
    assert "--budget" in result.output and "Traceback" not in result.output


def test_the_command_runs_a_study_and_resumes_it(tmp_path: Path) -> None:
    import examples.pig  # noqa: F401  (registers "pig": quick games, 2-6 players, 2 variants)

    out = tmp_path / "pig"
    args = ["study", "pig", "--budget", "6s", "--jobs", "1", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "study.json").read_text())
    assert [e["players"] for e in data["sections"]["fairness"]] == [2, 3, 4, 5, 6]
    assert (out / "study.html").is_file() and (out / "fairness-2p" / "report.html").is_file()
    assert "Seat fairness" in result.output and "study.html" in result.output
    again = CliRunner().invoke(app, args + ["--resume"])
    assert again.exit_code == 0, again.output
    assert json.loads((out / "study.json").read_text())["rows"] == data["rows"]


def test_param_overrides_reach_every_run_and_the_page(tmp_path: Path) -> None:
    """``meeple study --param``: a study of changed rules (here 30 starting energy) plays
    every run, every variant arm and the strategy search with the change, and says so."""
    out = tmp_path / "st"
    result = CliRunner().invoke(app, ["study", B4G, "--budget", "12s", "--jobs", "1",
                                      "--param", "start_energy=30", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "study.json").read_text())
    assert data["params"] == {"start_energy": "30"}
    specs = [json.loads(p.read_text()) for p in out.glob("*/run.json")]
    assert len(specs) >= 5 and all(s["params"]["start_energy"] == 30 for s in specs)
    assert "start_energy=30" in (out / "study.html").read_text()
    resumed = CliRunner().invoke(app, ["study", B4G, "--resume", "--param", "start_energy=40",
                                       "--out", str(out)])
    assert resumed.exit_code == 2 and "resume it without --param" in resumed.output
