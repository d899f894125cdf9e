"""Tests of meeple.lab.experiments.compare and its page (compare_page)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from meeple import load_game
from meeple.engine.errors import ParameterError
from meeple.lab.analysis.stats import difference_interval
from meeple.lab.experiments.compare import (
    Arm,
    compare_arms,
    default_bots,
    parse_arm,
    run_compare,
    skilled_bot,
)
from meeple.lab.pages.compare_page import write_compare

GAME = "battle-of-the-four-gods"


def test_parse_arm_reads_variant_players_and_parameters():
    arm = parse_arm("variant=rulebook-2018, players=3, start_energy=30")
    assert arm == Arm(label="variant=rulebook-2018, players=3, start_energy=30",
                      variant="rulebook-2018", players=3, params={"start_energy": "30"})
    assert parse_arm("damage=5", variant="seed").variant == "seed"
    with pytest.raises(ParameterError, match="NAME=VALUE"):
        parse_arm("damage")
    with pytest.raises(ParameterError, match="players"):
        parse_arm("players=four")


def test_default_line_up_measures_skill():
    assert default_bots(load_game(GAME)) == ["heuristic", "random"]
    assert default_bots(load_game("epoch-ellipse")) == ["heuristic"]  # a co-op: its line-up
    assert skilled_bot(["heuristic", "random"]) == "heuristic"
    assert skilled_bot(["random", "ismcts-50"]) == "ismcts-50"
    assert skilled_bot(["random"]) is None and skilled_bot(["heuristic"] * 2) is None


def _share(k, n, group="outcomes"):
    return {"label": "s", "kind": "share", "group": group, "k": k, "n": n, "value": k / n}


def _mean(values):
    a = np.asarray(values, float)
    return {"label": "m", "kind": "mean", "group": "length", "n": a.size,
            "value": float(a.mean()), "values": a}


def test_compare_arms_tests_shares_edges_and_means_with_holm():
    rng = np.random.default_rng(1)
    a_len, b_len = rng.normal(30, 3, 200), rng.normal(25, 3, 200)
    base = {"wins": _share(40, 200), "same": _share(50, 200), "length": _mean(a_len),
            "edge": {**_share(60, 200, "skill"), "kind": "edge", "fair": 0.25, "value": 0.05}}
    other = {"wins": _share(70, 200), "same": _share(52, 200), "length": _mean(b_len),
             "edge": {**_share(90, 200, "skill"), "kind": "edge", "fair": 0.2, "value": 0.25}}
    rows = {r["metric"]: r for r in compare_arms([base, other])}
    wins = rows["wins"]["comparisons"][0]
    assert wins["difference"] == pytest.approx(0.15)
    assert wins["ci"] == pytest.approx(list(difference_interval(70, 200, 40, 200)))
    assert wins["p_value"] == pytest.approx(
        sps.fisher_exact([[70, 130], [40, 160]]).pvalue)
    assert wins["flag"] and not rows["same"]["comparisons"][0]["flag"]
    length = rows["length"]["comparisons"][0]
    welch = sps.ttest_ind(b_len, a_len, equal_var=False)
    assert length["p_value"] == pytest.approx(welch.pvalue)
    assert length["ci"][0] < length["difference"] < length["ci"][1] < 0
    edge = rows["edge"]["comparisons"][0]
    low, high = difference_interval(90, 200, 60, 200)
    assert edge["difference"] == pytest.approx(0.2)
    assert edge["ci"] == pytest.approx([low + 0.05, high + 0.05])  # the fair share fell 5 pts
    # Holm over the four tests: the smallest p is multiplied by 4
    ps = sorted(c["p_value"] for r in rows.values() for c in r["comparisons"])
    assert min(c["p_holm"] for r in rows.values() for c in r["comparisons"]) == \
        pytest.approx(min(1.0, 4 * ps[0]))
    assert rows["wins"]["values"][1]["ci"][0] < 0.35 < rows["wins"]["values"][1]["ci"][1]


def test_run_compare_plays_both_arms_on_the_same_seeds(tmp_path: Path):
    arms = [parse_arm("start_energy=6"), parse_arm("start_energy=12")]
    data = run_compare(GAME, arms, games=8, seed=3, jobs=1, bots=["heuristic", "random"])
    assert [a["label"] for a in data["arms"]] == ["start_energy=6", "start_energy=12"]
    assert data["arms"][1]["params"]["start_energy"] == 12
    rows = {r["metric"]: r for r in data["rows"]}
    assert {"length", "length_median", "truncated", "draws", "first_seat", "skill_edge",
            "seat:RED", "lead_changes", "first_elimination"} <= set(rows)
    assert rows["length"]["values"][1]["value"] > rows["length"]["values"][0]["value"]
    seeds = [a["summary"]["seed"] for a in data["arms"]]
    assert seeds == [3, 3]
    assert sum(data["arms"][0]["length_counts"].values()) == 8
    json.dumps(data)  # JSON-ready, no numpy arrays left
    page = write_compare(data, tmp_path).read_text()
    assert "What start_energy=12 changes against start_energy=6" in page
    assert "Skill over luck" in page and "Holm" in page
    for name in ("compare.json", "compare_length.png", "compare_seats.png",
                 "compare_differences.png"):
        assert (tmp_path / name).stat().st_size > 0


def test_run_compare_refuses_a_single_arm_and_repeated_labels():
    with pytest.raises(ParameterError, match="two or more arms"):
        run_compare(GAME, [Arm("seed", "seed")], games=2)
    with pytest.raises(ParameterError, match="repeat"):
        run_compare(GAME, [Arm("seed", "seed"), Arm("seed", "seed")], games=2)


def test_a_loss_cause_seen_in_one_arm_only_is_compared_as_zero_in_the_other():
    from meeple.lab.experiments.compare import align_causes

    base = {"truncated": _share(0, 10), "loss:combat": _share(2, 10, "team")}
    other = {"truncated": _share(0, 12), "loss:curse": _share(6, 12, "team")}
    align_causes([base, other])
    rows = {r["metric"]: r for r in compare_arms([base, other])}
    curse = rows["loss:curse"]
    assert curse["values"][0]["k"] == 0 and curse["values"][0]["n"] == 10
    assert curse["comparisons"][0]["difference"] == pytest.approx(0.5)
    assert rows["loss:combat"]["values"][1]["k"] == 0
