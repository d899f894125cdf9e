"""Tests of meeple.lab.experiments.sweep and its page (sweep_page)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.engine.errors import MeepleError, ParameterError
from meeple.lab.experiments.sweep import parse_param, parse_target, rank, run_sweep
from meeple.lab.pages.sweep_page import write_sweep

GAME = "battle-of-the-four-gods"


def test_parse_param_and_target():
    assert parse_param("players=2, 3,4,3") == ("players", ["2", "3", "4"])
    assert parse_target("length=30") == ("length", 30.0)
    assert parse_target("Draw-Rate=5%") == ("draws", pytest.approx(0.05))
    assert parse_target("skill=0.2") == ("skill_edge", 0.2)
    for bad in ("players", "=1,2", "players="):
        with pytest.raises(ParameterError, match="NAME=V1,V2"):
            parse_param(bad)
    with pytest.raises(ParameterError, match="unknown metric 'speed'; metrics: .*length"):
        parse_target("speed=3")
    with pytest.raises(ParameterError, match="must look like METRIC=VALUE"):
        parse_target("length")
    # the names `meeple study --target` uses mean the same metrics here
    assert parse_target("mean_rounds=25") == ("length", 25.0)
    assert parse_target("truncated_rate=1%") == ("truncated", pytest.approx(0.01))
    assert parse_target("first_seat_edge=0") == ("first_seat", 0.0)
    with pytest.raises(ParameterError, match="not a number"):
        parse_target("length=long")


def _point(label, **values):
    return {"label": label, "metrics": {k: {"value": v} for k, v in values.items()}}


def test_rank_sums_relative_distances_and_puts_missing_metrics_last():
    points = [_point("a", length=36, first_seat=0.02), _point("b", length=31, first_seat=0.10),
              _point("c", length=30), _point("d", length=29, first_seat=-0.05)]
    ranked = rank(points, {"length": 30, "first_seat": 0})
    assert [e["label"] for e in ranked] == ["a", "d", "b", "c"]
    assert ranked[0]["distance"] == pytest.approx(6 / 30 + 0.02 / 0.10)
    d = ranked[1]
    # |29 - 30| / 30 + |-0.05| / max(|0.02|, |0.10|, |-0.05|)
    assert d["distance"] == pytest.approx(1 / 30 + 0.05 / 0.10)
    assert ranked[-1]["distance"] is None and ranked[-1]["rank"] == 4


def test_run_sweep_plays_the_grid_and_writes_the_page(tmp_path: Path):
    data = run_sweep(GAME, [("players", ["2", "3"]), ("start_energy", ["4", "8"])],
                     games=6, seed=1, jobs=1, targets={"length": 5.0})
    assert [p["label"] for p in data["points"]] == [
        "players=2, start_energy=4", "players=2, start_energy=8",
        "players=3, start_energy=4", "players=3, start_energy=8"]
    assert [p["players"] for p in data["points"]] == [2, 2, 3, 3]
    assert data["points"][1]["params"]["start_energy"] == 8
    lengths = [p["metrics"]["length"]["value"] for p in data["points"]]
    assert lengths[1] > lengths[0] and lengths[3] > lengths[2]  # more energy, longer games
    ci = data["points"][0]["metrics"]["length"]["ci"]
    assert ci[0] <= lengths[0] <= ci[1]
    assert len(data["points"][2]["seat_win_rate"]) == 3
    best = data["ranking"][0]
    assert best["distance"] == min(abs(v - 5) / 5 for v in lengths)
    json.dumps(data)
    page = write_sweep(data, tmp_path).read_text()
    assert "Closest to the targets" in page and "players=2, start_energy=4" in page
    assert (tmp_path / "sweep_length.png").stat().st_size > 0
    assert (tmp_path / "sweep_seats.png").exists() and (tmp_path / "sweep.json").exists()


def test_run_sweep_checks_every_point_before_playing():
    with pytest.raises(MeepleError):
        run_sweep(GAME, [("start_energy", ["5", "-3"])], games=2)
    with pytest.raises(ParameterError, match="repeat"):
        run_sweep(GAME, [("damage", ["1"]), ("damage", ["2"])], games=2)
    with pytest.raises(ParameterError):
        run_sweep(GAME, [], games=2)
