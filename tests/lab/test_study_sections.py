"""``meeple study``'s later sections (issue 21): the Holm correction of seat fairness across
seat counts, card power (section 5), elimination, kingmaking and loss causes (section 7), and
``--against`` (what changed against an earlier study). Synthetic results where a planted
effect must be found, and tiny real studies."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.errors import ParameterError
from meeple.lab.analysis.against import compare_studies
from meeple.lab.analysis.diagnostics import diagnose
from meeple.lab.analysis.verdicts import (
    UNDECIDED,
    card_power_answer,
    elimination_answer,
    fairness_answer,
)
from meeple.lab.experiments.study import plan_study, run_study


# ------------------------------------------------------------------ Holm over seat counts
def _seat_summary(p_value: float, significant: bool) -> dict:
    seats = [{"seat": 0, "name": "RED", "wins": 130, "rate": 0.325, "ci_low": 0.28,
              "ci_high": 0.37},
             {"seat": 1, "name": "BLUE", "wins": 90, "rate": 0.225, "ci_low": 0.19,
              "ci_high": 0.27}]
    return {"games": 400, "seat_win_rate": seats, "fair_share": 0.25,
            "seat_balance": {"p_value": p_value, "significant": significant,
                             "too_few_games": None}}


def test_a_seat_advantage_must_survive_the_holm_correction() -> None:
    summary = _seat_summary(0.03, True)
    alone = fairness_answer(summary, 2)
    assert alone["finding"] == "first-seat advantage" and "first-seat advantage" in \
        alone["verdict"]
    kept = fairness_answer(summary, 2, p_holm=0.03 * 2, family=3)
    assert kept["finding"] == "no seat advantage" and kept["decided"]
    assert "not an advantage once the 3 seat counts" in kept["verdict"]
    strong = fairness_answer(_seat_summary(0.001, True), 2, p_holm=0.003, family=3)
    assert strong["finding"] == "first-seat advantage"
    assert "Holm-adjusted over 3 seat counts" in strong["verdict"]


# ----------------------------------------------------------------------- card power
def _traced_games(n: int, strong: str, seed: int = 1) -> list[dict]:
    """Two-seat games where each seat plays 3 of 8 cards; a seat that played ``strong``
    wins 80% of the time against one that did not, else a fair coin."""
    rng = random.Random(seed)
    cards = [f"C{i}" for i in range(8)]
    out = []
    for i in range(n):
        hands = [rng.sample(cards, 3) for _ in range(2)]
        has = [strong in h for h in hands]
        if has[0] != has[1]:
            winner = (0 if has[0] else 1) if rng.random() < 0.8 else (1 if has[0] else 0)
        else:
            winner = rng.randrange(2)
        out.append({"index": i, "seed": i, "bots": ["b", "b"], "winners": [winner],
                    "returns": [1.0 if s == winner else -1.0 for s in range(2)],
                    "scores": [1 if s == winner else 0 for s in range(2)], "length": 10,
                    "truncated": False, "seconds": 0.0, "lead_changes": 0,
                    "leader_before_final": winner, "eliminations": [],
                    "actions": [{"play": 3}, {"play": 3}],
                    "cards": [{c: 1 for c in h} for h in hands]})
    return out


def test_card_power_finds_a_planted_strong_card_and_no_noise() -> None:
    results = _traced_games(1200, "C3")
    diag = diagnose(results, players=2, seat_names=["A", "B"])
    strong, weak = card_power_answer(diag, len(results), 2, ["b"])
    assert strong["what"] == "card" and strong["strong"] == ["C3"]
    assert "C3 wins" in strong["verdict"] and strong["finding"] == "stronger than most: C3"
    low, high = strong["interval"]
    assert 0 < low < high
    assert all(0 <= k["play_rate"] <= 1 for k in strong["keys"])
    # the same games with no planted card: nothing stands out
    fair = _traced_games(1200, "none")
    plain, _ = card_power_answer(diagnose(fair, players=2, seat_names=["A", "B"]),
                                 len(fair), 2, ["b"])
    assert plain["strong"] == [] and plain["finding"] == "none"
    assert weak["question"] == "Card power: too weak?"


def test_untraced_runs_give_no_card_or_elimination_answer() -> None:
    results = _traced_games(50, "C1")
    for r in results:
        for key in ("lead_changes", "leader_before_final", "eliminations", "actions", "cards"):
            del r[key]
    diag = diagnose(results, players=2, seat_names=["A", "B"])
    assert card_power_answer(diag, 50, 2, ["b"]) == []
    assert elimination_answer(diag, results, 2, "rounds") == []


def test_no_elimination_is_said_plainly() -> None:
    results = _traced_games(60, "C1")
    diag = diagnose(results, players=2, seat_names=["A", "B"])
    (entry,) = elimination_answer(diag, results, 2, "rounds")
    assert entry["answer"] == "nobody is knocked out" and "60 games" in entry["verdict"]


# ----------------------------------------------------------- real tiny studies: 5 and 7
@pytest.fixture(scope="module")
def b4g(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("b4g")
    return run_study(plan_study("battle-of-the-four-gods", budget_seconds=8, jobs=1), out,
                     jobs=1)


def test_four_gods_study_answers_action_power_and_eliminations(b4g: dict) -> None:
    content = b4g["sections"]["content"]
    assert [e["what"] for e in content] == ["action", "action"]  # no cards in Four Gods
    assert {k["key"] for k in content[0]["keys"]} >= {"pass", "1 atk"}
    endings = b4g["sections"]["endings"]
    assert endings[0]["question"] == "Elimination, 4 players"
    low, high = endings[0]["interval"]
    assert 0.5 < high <= 1.0 and low <= high  # Four Gods ends by knocking seats out
    assert 0.0 <= endings[0]["sit_out"]["mean"] <= 1.0
    assert any(e["question"].startswith("Kingmaking") for e in endings)
    sections = [r["section"] for r in b4g["rows"]]
    assert sections.index("variants") < sections.index("content") < sections.index("endings")
    # section 6 ran in its share of the budget, its best policy confirmed in stored runs
    strategies = b4g["sections"]["strategies"]
    assert strategies and all(isinstance(e["verdict"], str) for e in strategies)
    detail = b4g["strategies_detail"]
    assert detail["searched"] and detail["trials"]
    assert detail["elapsed_seconds"] <= 8 * 0.15 * 3  # its share, with slack for a busy host
    # the biggest upset, when there is one, is a game a random seat won against the heuristic
    upset = b4g["upset"]
    if upset is not None:
        assert upset["dir"].startswith("skill-") and "random seat won" in upset["what"]
        assert upset["command"].startswith("meeple replay ") and upset["command"].endswith("--web")
    # the fairness p-values were corrected together: every seat answer carries its Holm p
    for e in b4g["sections"]["fairness"]:
        assert e["p_holm"] is None or e["p_holm"] >= e["p_value"]


def test_a_cooperative_study_gives_loss_causes_and_card_power(tmp_path: Path) -> None:
    data = run_study(plan_study("epoch-ellipse", budget_seconds=5, jobs=1), tmp_path, jobs=1)
    (loss,) = data["sections"]["endings"]
    assert loss["question"].startswith("Loss causes")
    if loss["causes"]:  # the heuristic team loses some games; each cause has its interval
        assert loss["causes"][0]["count"] >= loss["causes"][-1]["count"]
        for c in loss["causes"]:
            assert 0 <= c["ci"][0] <= c["rate"] <= c["ci"][1] <= 1
    assert data["sections"]["content"][0]["what"] == "card"


# ---------------------------------------------------------------------------- --against
def _study(rows: list[dict], game: str = "g") -> dict:
    return {"game": game, "variant": "v", "seed": 0, "budget": 1, "games": 10, "rows": rows}


def _row(question: str, interval: list[float] | None, finding: str | None) -> dict:
    return {"section": "fairness", "question": question, "answer": "a", "interval": interval,
            "verdict": "v", "finding": finding}


def test_against_flags_moved_answers_only() -> None:
    before = _study([_row("same", [0.2, 0.3], "no seat advantage"),
                     _row("interval", [0.2, 0.3], None),
                     _row("finding", [0.2, 0.3], "no seat advantage"),
                     _row("undecided", [0.1, 0.5], UNDECIDED),
                     _row("gone", None, None)])
    now = _study([_row("same", [0.25, 0.35], "no seat advantage"),
                  _row("interval", [0.31, 0.4], None),
                  _row("finding", [0.22, 0.31], "first-seat advantage"),
                  _row("undecided", [0.4, 0.45], "no seat advantage"),
                  _row("new", None, None)])
    out = compare_studies(now, before, "base")
    status = {r["question"]: r["status"] for r in out["rows"]}
    assert status == {"same": "same", "interval": "moved", "finding": "moved",
                      "undecided": "undecided", "new": "new", "gone": "gone"}
    assert (out["moved"], out["new"], out["gone"]) == (2, 1, 1)
    with pytest.raises(ParameterError):
        compare_studies(now, _study([], game="other"))


def test_the_command_compares_with_a_baseline_study(tmp_path: Path) -> None:
    import examples.pig  # noqa: F401  (registers "pig": quick games)

    base = tmp_path / "base"
    args = ["study", "pig", "--budget", "4s", "--jobs", "1", "--quiet"]
    assert CliRunner().invoke(app, args + ["--out", str(base)]).exit_code == 0
    again = CliRunner().invoke(app, args + ["--out", str(tmp_path / "again"), "--against",
                                            str(base)])
    assert again.exit_code == 0, again.output
    data = json.loads((tmp_path / "again" / "study.json").read_text())
    assert data["against"]["baseline"] == str(base)
    # same game, seed and budget share: the same seeds give the same answers
    assert data["against"]["moved"] == 0
    assert "What changed against" in (tmp_path / "again" / "study.html").read_text()
    wrong = CliRunner().invoke(app, ["study", "battle-of-the-four-gods", "--budget", "4s",
                                     "--out", str(tmp_path / "x"), "--against", str(base)])
    assert wrong.exit_code == 2 and "is a study of pig" in wrong.output
    missing = CliRunner().invoke(app, args + ["--out", str(tmp_path / "y"), "--against",
                                              str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "holds no study.json" in missing.output
    bad = CliRunner().invoke(app, args + ["--out", str(tmp_path / "z"), "--backend", "mpi"])
    assert bad.exit_code == 2 and "--backend" in bad.output


def test_a_study_on_ray_answers_as_on_the_process_pool(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    import examples.pig  # noqa: F401

    plan = plan_study("pig", budget_seconds=3, jobs=2)
    pool = run_study(plan, tmp_path / "pool", jobs=2)
    ray = run_study(plan, tmp_path / "ray", jobs=2, backend="ray")
    assert ray["rows"] == pool["rows"] and ray["games"] == pool["games"]


def test_a_study_toward_a_target_reports_settings_with_evidence(tmp_path: Path) -> None:
    import examples.pig  # noqa: F401  (pig: "target" points decide the length)

    with pytest.raises(ParameterError):
        plan_study("pig", budget_seconds=6, jobs=1, target="mean_rounds=banana")
    with pytest.raises(ParameterError):
        plan_study("pig", budget_seconds=6, jobs=1, target="mean_rounds=2..6",
                   vary=["no_such_parameter"])
    plan = plan_study("pig", budget_seconds=8, jobs=1, target="mean_rounds=2..6",
                      vary=["target"], exploit=False)
    assert plan.target_seconds > 0 and plan.exploit_seconds == 0
    data = run_study(plan, tmp_path, jobs=1)
    detail = data["target_detail"]
    assert [d["name"] for d in detail["space"]] == ["target"]
    assert data["sections"]["target"] and data["sections"]["strategies"] == []
    confirmed = detail["confirmed"]
    assert confirmed and (tmp_path / confirmed[0]["dir"] / "summary.json").is_file()
    # the default (first to 30) is far longer than 2..6 turns; a lower target gets there
    assert not detail["default"]["met"]
    if detail["met"]:
        assert detail["best"]["settings"]["target"] < 30


def test_vary_without_a_target_is_a_clean_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["study", "battle-of-the-four-gods", "--vary", "damage",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--target" in result.output


@pytest.mark.parametrize(("share", "ci", "finding"), [
    (0.60, [0.55, 0.65], "pays"),                      # above the fair share
    (0.10, [0.07, 0.14], "pays less"),                 # below it
    (0.30, [0.10, 0.50], UNDECIDED),                   # too wide to tell
    (0.26, [0.23, 0.29], "no edge"),                   # narrow, around the fair share
])
def test_every_skill_verdict_names_its_finding(share: float, ci: list[float],
                                               finding: str) -> None:
    from meeple.lab.analysis.verdicts import skill_answer

    step = {"upper": "heuristic", "lower": "random", "games": 400, "upper_share": share,
            "fair_share": 0.25, "ci": ci, "pays": ci[0] > 0.25}
    answer = skill_answer(step, False, 4)
    assert answer["finding"] == finding and answer["decided"] == (finding != UNDECIDED)


def test_a_key_nearly_every_unit_plays_is_not_compared_or_flagged() -> None:
    """A card in nearly every hand: the few units without it are another kind of game (here
    they all win), so the card gets no difference, no flag and no outlier verdict, and it does
    not set the typical difference."""
    results = _traced_games(1200, "none")
    for i, r in enumerate(results):
        for seat, cards in enumerate(r["cards"]):
            if i % 100 == 0 and seat == r["winners"][0]:
                cards.pop("C1", None)  # 1% of units lack C1, and each of them won
            else:
                cards["C1"] = 1
    diag = diagnose(results, players=2, seat_names=["A", "B"])
    row = next(k for k in diag["cards"]["keys"] if k["key"] == "C1")
    assert row["comparable"] is False and row["difference"] is None
    assert row["flag"] is None and row["outlier"] is None
    _, weak = card_power_answer(diag, len(results), 2, ["b"])
    assert "C1" not in weak["weak"]
