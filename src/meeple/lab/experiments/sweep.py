"""Parameter sweeps: play every point of a grid of parameter values and rank the points.

``meeple sweep GAME --param NAME=V1,V2 [--param ...] [--target METRIC=VALUE ...]`` plays the
cartesian product of the values (``players`` and ``variant`` may be swept like any parameter),
every point with the same games, bots and seed, and reports each point's metrics (those of
:func:`meeple.lab.experiments.compare.arm_metrics`) with 95% intervals: Wilson for shares (shifted
by the fair share for edges), Student's t for means, none for the median.

Targets rank the points by closeness: for each target ``METRIC=VALUE`` the distance of a point is
``|value - target| / |target|`` (relative), or ``|value|`` divided by the largest ``|value|``
over the points when the target is 0; a point's distance is the sum over the targets, and the
points are ranked from the smallest (a point lacking a targeted metric is ranked last). Shares
and edges may be written as fractions (``0.25``) or percentages (``25%``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.lab.analysis.stats import ALPHA, CONFIDENCE, _clean, wilson_interval
from meeple.lab.experiments.compare import Arm, arm_metrics, check_arms, default_bots, play_arm
from meeple.lab.run.estimate import Stage

__all__ = ["METRICS", "SWEEP_FORMAT", "parse_param", "parse_target", "point_metrics", "rank",
           "run_sweep",
           "sweep_stages"]

SWEEP_FORMAT = "meeple-sweep/1"
#: Metric names a target may use (aliases on the left), as in :func:`arm_metrics`.
METRICS = {
    "length": "length", "length_mean": "length", "length_median": "length_median",
    "truncated": "truncated", "truncation": "truncated", "draws": "draws",
    "draw_rate": "draws", "first_seat": "first_seat", "skill_edge": "skill_edge",
    "skill": "skill_edge", "margin": "margin", "lead_changes": "lead_changes",
    "score": "score", "team_win": "team_win", "first_elimination": "first_elimination",
    "last_elimination_decided": "last_elimination_decided",
    # the names ``meeple study --target`` uses (target_metrics.METRICS), for the same metrics
    "mean_rounds": "length", "mean_length": "length", "truncated_rate": "truncated",
    "first_seat_edge": "first_seat", "team_win_rate": "team_win",
}


def parse_param(text: str) -> tuple[str, list[str]]:
    """``"NAME=V1,V2,..."`` -> ``(NAME, [V1, V2, ...])`` (values stripped, order kept,
    repeats dropped).

    Raises:
        ParameterError: without ``=``, with an empty name or no value.
    """
    name, sep, values = text.partition("=")
    name = name.strip()
    items = list(dict.fromkeys(v.strip() for v in values.split(",") if v.strip()))
    if not sep or not name or not items:
        raise ParameterError(f"--param {text!r} must look like NAME=V1,V2,...")
    return name, items


def parse_target(text: str) -> tuple[str, float]:
    """``"length=30"`` -> ``("length", 30.0)``; ``"draws=5%"`` -> ``("draws", 0.05)``.

    Raises:
        ParameterError: for an unknown metric (the message lists them) or a non-number.
    """
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise ParameterError(f"--target {text!r} must look like METRIC=VALUE with a metric "
                             f"of: {', '.join(sorted(METRICS))}")
    metric = METRICS.get(name.strip().lower().replace("-", "_"))
    if metric is None:
        raise ParameterError(f"--target {text!r}: unknown metric {name.strip()!r}; metrics: "
                             f"{', '.join(sorted(METRICS))}")
    value = value.strip()
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        raise ParameterError(f"--target {text!r}: {value!r} is not a number") from None
    return metric, number


def _interval(m: Mapping[str, Any]) -> list[float] | None:
    """The 95% interval of one metric's point estimate (module docstring)."""
    if m["value"] is None:
        return None
    if m["kind"] in ("share", "edge"):
        if not m["n"]:
            return None
        low, high = wilson_interval(m["k"], m["n"])
        shift = m.get("fair", 0.0) if m["kind"] == "edge" else 0.0
        return [low - shift, high - shift]
    if m["kind"] == "mean" and m["n"] > 1:
        sem = float(np.std(m["values"], ddof=1)) / math.sqrt(m["n"])
        half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, m["n"] - 1)) * sem
        return [m["value"] - half, m["value"] + half]
    return None


def point_metrics(summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
                  ) -> dict[str, dict[str, Any]]:
    """JSON-ready metrics of one point: per name ``label``, ``kind``, ``group``, ``unit``,
    ``value``, ``ci`` (or ``None``) and ``n``."""
    out = {}
    for name, m in arm_metrics(summary, results).items():
        out[name] = {"label": m["label"], "kind": m["kind"], "group": m["group"],
                     "unit": m.get("unit", ""), "value": m["value"], "ci": _interval(m),
                     "n": m["n"]}
    return out


def rank(points: Sequence[Mapping[str, Any]], targets: Mapping[str, float]
         ) -> list[dict[str, Any]]:
    """Rank ``points`` (each with ``label`` and ``metrics``) by closeness to ``targets``.

    Returns:
        One entry per point, best first: ``label``, ``index`` (in ``points``), ``distance``
        (``None`` when a targeted metric is missing) and ``parts`` (per target: value,
        target, distance).
    """
    scale: dict[str, float] = {}
    for metric, target in targets.items():
        if target != 0:
            scale[metric] = abs(target)
        else:
            seen = [abs(p["metrics"][metric]["value"]) for p in points
                    if p["metrics"].get(metric) and p["metrics"][metric]["value"] is not None]
            scale[metric] = max(seen, default=0.0) or 1.0
    ranked = []
    for i, p in enumerate(points):
        parts, total = {}, 0.0
        for metric, target in targets.items():
            m = p["metrics"].get(metric)
            value = None if m is None else m["value"]
            if value is None:
                total = math.inf
                parts[metric] = {"value": None, "target": target, "distance": None}
                continue
            dist = abs(value - target) / scale[metric]
            total += dist
            parts[metric] = {"value": value, "target": target, "distance": dist}
        ranked.append({"label": p["label"], "index": i,
                       "distance": None if math.isinf(total) else total, "parts": parts})
    ranked.sort(key=lambda e: (e["distance"] is None, e["distance"] or 0.0, e["index"]))
    for place, entry in enumerate(ranked, 1):
        entry["rank"] = place
    return ranked


def run_sweep(game_name: str, grid: Sequence[tuple[str, Sequence[str]]], *,
              variant: str | None = None, players: int | None = None,
              bots: Sequence[str] | None = None, games: int = 500, seed: int = 0,
              jobs: int = 1, targets: Mapping[str, float] | None = None,
              on_point: Callable[[str, Game], Callable[[int], None] | None] | None = None
              ) -> dict[str, Any]:
    """Play every point of ``grid`` and rank the points.

    Args:
        game_name: a registered game.
        grid: ``[(name, [values...]), ...]``: parameters (or ``players``, ``variant``) and
            their values as text; names must not repeat.
        variant, players: the defaults of the points that do not sweep them.
        bots: the line-up (``None``: :func:`meeple.lab.experiments.compare.default_bots` of the
            first point); games (>= 1), seed, jobs: as for a playtest, for every point.
        targets: ``{metric: value}`` (names of :data:`METRICS` values) to rank by.
        on_point: called before each point with its label and game; may return an
            ``on_progress`` callback.
    Returns:
        JSON-ready: ``format``, ``game``, ``grid`` ([{name, values}]), ``bots``, ``games``,
        ``seed``, ``targets``, ``points`` (per point: ``label``, ``settings`` {name: value},
        ``variant``, ``players``, ``params``, ``metrics`` (:func:`point_metrics`),
        ``seat_win_rate``, ``seat_balance``, ``elapsed_seconds``) and ``ranking``
        (:func:`rank`; empty without targets).
    Raises:
        ParameterError: an empty grid, a repeated name, games < 1, a bot that cannot play
            some point (:func:`meeple.lab.experiments.compare.check_arms`).
        MeepleError: a point's game cannot be loaded (checked before any game is played).
    """
    arms, lineup = _grid_arms(game_name, grid, variant, players, bots, games)
    points = []
    for arm, settings, game in arms:
        progress = on_point(arm.label, game) if on_point else None
        summary, results = play_arm(game, lineup, games, seed, jobs, progress)
        points.append({
            "label": arm.label, "settings": settings, "variant": game.variant,
            "players": game.players, "params": dict(game.params),
            "metrics": point_metrics(summary, results),
            "seat_win_rate": (summary["survival"]["seats"] if "team_win_rate" in summary
                              else summary["seat_win_rate"]),
            "seat_balance": (summary["survival"]["seat_balance"] if "team_win_rate" in summary
                             else summary["seat_balance"]),
            "elapsed_seconds": summary["elapsed_seconds"],
        })
    targets = dict(targets or {})
    return _clean({
        "format": SWEEP_FORMAT, "game": arms[0][2].name,
        "grid": [{"name": name, "values": list(values)} for name, values in grid],
        "bots": lineup, "games": games, "seed": seed, "alpha": ALPHA, "confidence": CONFIDENCE,
        "targets": targets, "points": points,
        "ranking": rank(points, targets) if targets else [],
    })


def _grid_arms(game_name: str, grid: Sequence[tuple[str, Sequence[str]]], variant: str | None,
               players: int | None, bots: Sequence[str] | None, games: int
               ) -> tuple[list[tuple[Arm, dict[str, str], Game]], list[str]]:
    """Every point of ``grid`` loaded and checked: ``([(arm, settings, game)], line-up)``
    (errors as :func:`run_sweep`'s)."""
    if not grid:
        raise ParameterError("a sweep needs at least one --param NAME=V1,V2,...")
    names = [name for name, _ in grid]
    if len(set(names)) != len(names):
        raise ParameterError(f"--param names repeat: {', '.join(names)}")
    if games < 1:
        raise ParameterError(f"games = {games} must be at least 1")
    arms = []
    for combo in itertools.product(*(values for _, values in grid)):
        settings = dict(zip(names, combo, strict=True))
        params = {k: v for k, v in settings.items() if k not in ("players", "variant")}
        try:
            n_players = int(settings["players"]) if "players" in settings else players
        except ValueError:
            raise ParameterError(f"players = {settings['players']!r} is not an integer"
                                 ) from None
        arm = Arm(label=", ".join(f"{k}={v}" for k, v in settings.items()),
                  variant=settings.get("variant", variant), players=n_players, params=params)
        arms.append((arm, settings, arm.load(game_name)))
    lineup = list(bots) if bots else default_bots(arms[0][2])
    check_arms([(arm.label, game) for arm, _, game in arms], lineup)
    return arms, lineup


def sweep_stages(game_name: str, grid: Sequence[tuple[str, Sequence[str]]], *,
                 variant: str | None = None, players: int | None = None,
                 bots: Sequence[str] | None = None, games: int = 500) -> list[Stage]:
    """The points of :func:`run_sweep` (same arguments) as stages in play order, for
    estimates and progress bars (label: the point's label). Raises as :func:`run_sweep`."""
    arms, lineup = _grid_arms(game_name, grid, variant, players, bots, games)
    return [Stage(arm.label, game, lineup, games) for arm, _, game in arms]
