"""The lab on cooperative games: outcomes in the results, team win rate, loss causes, survival,
the team verdict, the report and ``meeple playtest`` on the test co-op ``tests/coop_example.py``.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.registry import game_names, load_game
from meeple.lab.analysis.stats import summarize, wilson_interval
from meeple.lab.analysis.trace import TRACE_FIELDS
from meeple.lab.pages.report import LOSS_CAUSES_PLOT, PLOT_FILES, summary_table, write_report
from meeple.lab.pages.report_extra import DIAGNOSTIC_PLOTS
from meeple.lab.run.runner import play_one, run_playtest
from tests.coop_example import NAME, CoopExample, registered

TEAM_KEYS = ("team_win_rate", "loss_causes", "survival")
COMPETITIVE_RESULT_KEYS = {"index", "seed", "bots", "winners", "returns", "scores", "length",
                           "truncated", "seconds"}


def summary_of(results: list[dict[str, Any]], players: int, bots: list[str],
               cooperative: bool = True) -> dict[str, Any]:
    return summarize(results, game=NAME, variant="standard", players=players, params={},
                     seed=0, bots=bots, seat_names=[f"Seat {s}" for s in range(players)],
                     length_unit="rounds", elapsed_seconds=1.0, jobs=1, cooperative=cooperative)


def result(index: int, returns: list[float], outcome: dict[str, Any] | None, *,
           bots: list[str] | None = None, truncated: bool = False) -> dict[str, Any]:
    """One synthetic co-op result in the runner's shape (winners as ``State.winners``)."""
    best = max(returns)
    out = {"index": index, "seed": index, "bots": bots or ["random"] * len(returns),
           "winners": [s for s, r in enumerate(returns) if r == best], "returns": returns,
           "scores": [0.0] * len(returns), "length": 3 + index % 4, "truncated": truncated,
           "seconds": 0.001}
    if outcome is not None:
        out["outcome"] = outcome
    return out


@pytest.fixture(scope="module")
def coop_run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """300 random games of the 3-seat co-op: wins, overruns and truncations all occur."""
    game = CoopExample(players=3)
    results, elapsed = run_playtest(game, ["random"], 300, seed=3)
    summary = summarize(results, game=game.name, variant=game.variant, players=3,
                        params=dict(game.params), seed=3, bots=["random"],
                        seat_names=list(game.seat_names()), length_unit="rounds",
                        elapsed_seconds=elapsed, jobs=1,
                        cooperative=game.capabilities.cooperative)
    return results, summary


# -------------------------------------------------------------------------- engine, runner
def test_the_test_game_is_cooperative_and_not_registered_outside_the_block() -> None:
    assert CoopExample().capabilities.cooperative is True
    assert NAME not in game_names()
    with registered():
        assert NAME in game_names()
        assert load_game(NAME, players=2).players == 2
    assert NAME not in game_names()


def test_outcome_is_empty_before_the_end_and_by_default() -> None:
    state = CoopExample(players=2).new_initial_state(1)
    assert state.outcome() == {}
    pig = load_game("pig").new_initial_state(1)  # a competitive game keeps the default
    pig.playout(__import__("random").Random(0))
    assert pig.is_terminal() and pig.outcome() == {}


def test_runner_records_the_outcome(coop_run) -> None:
    results, _ = coop_run
    causes = Counter()
    for r in results:
        outcome = r["outcome"]
        assert set(outcome) == {"team_win", "cause", "threat"}
        assert outcome["team_win"] == (outcome["cause"] == "cleared")
        assert outcome["team_win"] == all(x == 1.0 for x in r["returns"])
        assert r["truncated"] == (outcome["cause"] == "truncation")
        causes[outcome["cause"]] += 1
        json.dumps(r, allow_nan=False)
    assert set(causes) == {"cleared", "overrun", "truncation"}


def test_runner_leaves_competitive_results_unchanged() -> None:
    r = play_one(load_game("pig"), ["random"], 5, 0)
    assert set(r) == COMPETITIVE_RESULT_KEYS | set(TRACE_FIELDS)  # no outcome key


# ---------------------------------------------------------------------------------- stats
def test_team_win_rate_matches_a_count_of_the_results(coop_run) -> None:
    results, summary = coop_run
    wins = sum(1 for r in results if r["outcome"]["team_win"])
    team = summary["team_win_rate"]
    assert set(team) == {"wins", "games", "rate", "ci_low", "ci_high"}
    assert (team["wins"], team["games"]) == (wins, 300)
    assert team["rate"] == pytest.approx(wins / 300)
    low, high = wilson_interval(wins, 300)
    assert (team["ci_low"], team["ci_high"]) == (pytest.approx(low), pytest.approx(high))
    assert 0 < team["ci_low"] < team["rate"] < team["ci_high"] < 1


def test_loss_causes_and_wins_add_up_to_the_games(coop_run) -> None:
    results, summary = coop_run
    causes = summary["loss_causes"]
    assert set(causes) == {"overrun", "truncation"}
    counted = Counter(r["outcome"]["cause"] for r in results if not r["outcome"]["team_win"])
    for cause, entry in causes.items():
        assert entry == {"count": counted[cause], "rate": pytest.approx(counted[cause] / 300)}
    assert causes["truncation"]["count"] == sum(r["truncated"] for r in results)
    assert summary["team_win_rate"]["wins"] + sum(e["count"] for e in causes.values()) == 300
    counts = [e["count"] for e in causes.values()]
    assert counts == sorted(counts, reverse=True)  # the commonest cause first
    assert summary["length"]["unit"] == "rounds"
    assert summary["length"]["max"] <= 12


def test_survival_and_the_team_verdict_of_one_line_up(coop_run) -> None:
    results, summary = coop_run
    wins = summary["team_win_rate"]["wins"]
    survival = summary["survival"]
    assert [e["survived"] for e in survival["seats"]] == [wins] * 3  # all live or fall together
    assert survival["bots"]["random"]["pairs"] == 900
    assert survival["bots"]["random"]["survived"] == 3 * wins
    svl = summary["skill_vs_luck"]
    team = summary["team_win_rate"]
    expected = (f"team of random: wins {100 * team['rate']:.0f}% (95% CI "
                f"{100 * team['ci_low']:.0f}-{100 * team['ci_high']:.0f}%)")
    assert svl["verdict"].startswith(expected), svl["verdict"]
    assert "overrun" in svl["verdict"]
    assert svl["skill_matters"] is None
    assert svl["team"]["lineups"]["random"]["games"] == 300
    # the competitive statistics keep working: every game is shared by the whole team
    assert summary["draw_rate"] == 1.0
    assert "note" in summary["seat_balance"] and "between_bots" in svl
    assert json.loads(json.dumps(summary, allow_nan=False)) == summary


def test_line_ups_are_compared_by_their_team_win_rate() -> None:
    game = CoopExample(players=3)
    workers, _ = run_playtest(game, ["worker"], 90, seed=1)
    randoms, _ = run_playtest(game, ["random"], 90, seed=2)
    mixed, _ = run_playtest(game, ["worker", "random"], 90, seed=3)
    for i, r in enumerate(workers + randoms + mixed):
        r["index"] = i
    s = summary_of(workers + randoms + mixed, 3, ["worker", "random"])
    lineups = s["skill_vs_luck"]["team"]["lineups"]
    assert list(lineups) == ["worker", "random", "2 worker + 1 random"]
    assert lineups["worker"]["wins"] == sum(r["outcome"]["team_win"] for r in workers)
    assert lineups["worker"]["rate"] > lineups["random"]["rate"]
    between = s["skill_vs_luck"]["team"]["between_lineups"]
    assert between["p_value"] < 0.05 and between["significant"] is True
    assert s["skill_vs_luck"]["skill_matters"] is True
    verdict = s["skill_vs_luck"]["verdict"]
    assert verdict.startswith("team of worker: wins ")
    assert "team of random: wins " in verdict and "line-ups differ" in verdict
    # survival by bot: the worker seats of all three runs against the random seats
    bots = s["survival"]["bots"]
    assert bots["worker"]["pairs"] == 90 * 3 + 90 * 2
    assert bots["random"]["pairs"] == 90 * 3 + 90
    assert s["survival"]["between_bots"]["p_value"] < 0.05


def test_individual_survival_truncation_and_missing_outcomes() -> None:
    mix = ["a", "b"]
    results = [
        result(0, [1.0, 0.0], {"team_win": True, "cause": "recovered"}, bots=mix),
        result(1, [1.0, 1.0], {"team_win": True, "cause": "recovered"}, bots=mix[::-1]),
        result(2, [0.0, 0.0], {"team_win": False, "cause": "starvation"}, bots=mix),
        result(3, [0.0, 0.0], {"team_win": False, "cause": "starvation"}, bots=mix[::-1]),
        result(4, [0.0, 0.0], {"team_win": False, "cause": "curse"}, bots=mix),
        # truncation wins over the cause the game gave, unless the team won
        result(5, [0.0, 0.0], {"team_win": False, "cause": "combat"}, bots=mix[::-1],
               truncated=True),
        result(6, [0.0, 0.0], None, bots=mix, truncated=True),
        # no outcome: a positive return is a team win, else an unknown loss
        result(7, [0.0, 1.0], None, bots=mix[::-1]),
        result(8, [0.0, 0.0], None, bots=mix),
        result(9, [0.0, 0.0], {"team_win": False}, bots=mix[::-1]),
    ]
    s = summary_of(results, 2, mix)
    assert s["team_win_rate"]["wins"] == 3 and s["team_win_rate"]["games"] == 10
    assert {c: e["count"] for c, e in s["loss_causes"].items()} == {
        "starvation": 2, "truncation": 2, "unknown": 2, "curse": 1}
    assert list(s["loss_causes"]) == ["starvation", "truncation", "unknown", "curse"]
    assert s["loss_causes"]["curse"]["rate"] == pytest.approx(0.1)
    assert s["team_win_rate"]["wins"] + sum(e["count"] for e in s["loss_causes"].values()) == 10
    seats = s["survival"]["seats"]
    assert [(e["survived"], e["games"]) for e in seats] == [(2, 10), (2, 10)]
    assert seats[0]["rate"] == pytest.approx(0.2)
    bots = s["survival"]["bots"]
    # a survived in games 0 (seat 0), 1 and 7 (seat 1); b only in game 1 (seat 0)
    assert (bots["a"]["survived"], bots["a"]["pairs"]) == (3, 10)
    assert (bots["b"]["survived"], bots["b"]["pairs"]) == (1, 10)
    assert bots["a"]["rate"] == pytest.approx(0.3)
    assert s["skill_vs_luck"]["verdict"].startswith("team of 1 a + 1 b: wins 30% (95% CI")


def test_no_losses_keeps_truncation_at_zero() -> None:
    results = [result(i, [1.0, 1.0], {"team_win": True, "cause": "recovered"})
               for i in range(4)]
    s = summary_of(results, 2, ["random"])
    assert s["loss_causes"] == {"truncation": {"count": 0, "rate": 0.0}}
    assert s["team_win_rate"]["rate"] == 1.0
    assert "lost" not in s["skill_vs_luck"]["verdict"]


@pytest.mark.parametrize("outcome, message", [
    ("won", "not a mapping"),
    ({"team_win": 1, "cause": "x"}, "team_win"),
    ({"team_win": False, "cause": 3}, "cause"),
])
def test_malformed_outcomes_are_rejected(outcome: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        summary_of([result(0, [0.0, 0.0], outcome)], 2, ["random"])


def test_a_competitive_summary_has_no_team_keys(coop_run) -> None:
    game = load_game("pig")
    results, _ = run_playtest(game, ["random"], 20, seed=1)
    kwargs = dict(game="pig", variant="standard", players=2, params={}, seed=1,
                  bots=["random"], seat_names=["A", "B"], length_unit="turns",
                  elapsed_seconds=1.0, jobs=1)
    s = summarize(results, **kwargs)
    assert summarize(results, **kwargs, cooperative=False) == s
    assert not set(TEAM_KEYS) & set(s)
    assert "team" not in s["skill_vs_luck"]
    # the co-op results summarised as a competitive game: no team keys either
    coop = summary_of(coop_run[0], 3, ["random"], cooperative=False)
    assert not set(TEAM_KEYS) & set(coop)


# --------------------------------------------------------------------------------- report
def render(summary: dict[str, Any]) -> str:
    console = Console(file=io.StringIO(), width=220, color_system=None)
    console.print(summary_table(summary))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_summary_table_has_team_rows(coop_run) -> None:
    _, summary = coop_run
    out = render(summary)
    team = summary["team_win_rate"]
    row = re.search(r"team win rate\s*│\s*([\d.]+%)\s*│\s*([\d.]+–[\d.]+%)", out)
    assert row is not None, out
    assert row.group(1) == f"{100 * team['rate']:.1f}%"
    assert row.group(2) == f"{100 * team['ci_low']:.1f}–{100 * team['ci_high']:.1f}%"
    for cause, entry in summary["loss_causes"].items():
        assert f"lost to {cause}" in out
        assert f"{entry['count']}/300 games" in out
    assert "Seat 0 survival" in out and "seat Seat 0" not in out and "bot random survival" in out
    assert "win rate" not in out.replace("team win rate", "")  # no sole-win rows
    assert "draw rate" not in out
    assert summary["skill_vs_luck"]["verdict"] in out


def test_report_has_the_loss_causes_plot_and_the_team_header(coop_run, tmp_path: Path) -> None:
    results, summary = coop_run
    path = write_report(summary, results, tmp_path)
    text = path.read_text(encoding="utf-8")
    for name in (LOSS_CAUSES_PLOT, *PLOT_FILES):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    extra = [n for n in DIAGNOSTIC_PLOTS if (tmp_path / n).exists()]  # the designer's section
    assert len(re.findall(r'src="data:image/png;base64,', text)) == 5 + len(extra)
    team = summary["team_win_rate"]
    header = text.split("<h2>", 1)[0]
    assert f"Team win rate {100 * team['rate']:.1f}%" in header
    assert f"{100 * team['ci_low']:.1f}–{100 * team['ci_high']:.1f}%" in header
    assert "Loss causes" in text and "overrun" in text and "Survival by seat" in text


# ------------------------------------------------------------------------------------ CLI
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_playtest_of_a_coop_writes_and_prints_the_team_numbers(tmp_path: Path,
                                                                  jobs: str) -> None:
    with registered():
        result = CliRunner().invoke(app, ["playtest", NAME, "--players", "3", "--games", "60",
                                          "--seed", "4", "--jobs", jobs, "--quiet", "--out",
                                          str(tmp_path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    for key in (*TEAM_KEYS, "length"):
        assert key in summary, key
    lines = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    wins = sum(r["outcome"]["team_win"] for r in lines)
    assert summary["team_win_rate"]["wins"] == wins and summary["team_win_rate"]["games"] == 60
    assert wins + sum(e["count"] for e in summary["loss_causes"].values()) == 60
    assert summary["length"]["unit"] == "rounds"
    assert "team win rate" in result.output
    for cause, entry in summary["loss_causes"].items():
        assert (f"lost to {cause}" in result.output) == (entry["count"] > 0)
    assert "team of random: wins" in result.output
    assert (tmp_path / LOSS_CAUSES_PLOT).is_file()
