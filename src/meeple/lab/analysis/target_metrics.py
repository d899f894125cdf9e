"""The metrics a design target names (``meeple study --target``), from the runner's per-game
results, and their 95% intervals.

Definitions follow :func:`meeple.lab.analysis.stats.summarize` (a *sole win* is a game with
exactly one winner; anything else is a draw): see :data:`METRICS`. Intervals (95%):

* shares (``draw_rate``, ``truncated_rate``, ``team_win_rate``): Wilson score interval
  (:func:`meeple.lab.analysis.stats.rate_entry`);
* ``first_seat_edge``: the Wilson interval of seat 1's sole-win share, shifted by the fair
  share (as ``meeple compare`` and ``meeple sweep`` do);
* means (``mean_rounds``, ``mean_decisions``): Student's t interval
  (``scipy.stats.ttest_1samp(...).confidence_interval``);
* ``p90_rounds``: percentile bootstrap over games (``scipy.stats.bootstrap``,
  :data:`RESAMPLES` resamples, seeded);
* ``seat_spread``: from every seat's Wilson interval at 95% / players (Bonferroni, so that
  they hold together): from the largest lower end minus the smallest upper end (at least 0)
  to the largest upper end minus the smallest lower end. A bootstrap does not fit the spread
  (the largest of several noisy shares minus the smallest): its percentile interval barely
  covers the estimate and BCa's is far too narrow. The interval is conservative, so
  ``seat_spread<0.05`` needs a few thousand games to be shown met with 4 players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.lab.analysis.coop_stats import team_result
from meeple.lab.analysis.stats import CONFIDENCE, rate_entry, wilson_interval

__all__ = ["METRICS", "RESAMPLES", "UNAVAILABLE", "equal_seats_spread", "metric_intervals",
           "target_metrics"]

#: Per metric: what it is, its unit (``length unit``: the game's
#: ``capabilities.length_unit``), whether it is a share in [0, 1] (or a difference of shares),
#: and the games it needs (``competitive``, ``cooperative`` or ``any``).
METRICS: dict[str, dict[str, Any]] = {
    "mean_rounds": {"doc": "mean game length", "unit": "length unit", "share": False,
                    "games": "any"},
    "p90_rounds": {"doc": "90th percentile of the game length (numpy, linear)",
                   "unit": "length unit", "share": False, "games": "any"},
    "mean_decisions": {"doc": "mean decisions per game (every seat's actions)",
                       "unit": "decisions", "share": False, "games": "any"},
    "seat_spread": {"doc": "most-winning seat's sole-win share minus the least-winning "
                           "seat's", "unit": "share", "share": True, "games": "competitive"},
    "first_seat_edge": {"doc": "seat 0's sole-win share minus the fair share "
                               "(1 - draw rate) / players", "unit": "share", "share": True,
                        "games": "competitive"},
    "draw_rate": {"doc": "share of games without a sole winner", "unit": "share",
                  "share": True, "games": "any"},
    "truncated_rate": {"doc": "share of games that hit the length cap", "unit": "share",
                       "share": True, "games": "any"},
    "team_win_rate": {"doc": "share of games the team wins", "unit": "share", "share": True,
                      "games": "cooperative"},
}
#: Why a metric may be missing from :func:`target_metrics`' answer.
UNAVAILABLE = {"competitive": "only for competitive games",
               "cooperative": "only for co-operative games",
               "mean_decisions": "the results carry no per-seat action counts"}
#: Bootstrap resamples of the bootstrapped intervals.
RESAMPLES = 999


def _sole(results: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """Per game the sole winner's seat, -1 for a draw."""
    return np.array([r["winners"][0] if len(r["winners"]) == 1 else -1 for r in results])


def _decisions(results: Sequence[Mapping[str, Any]]) -> np.ndarray | None:
    if not all(r.get("actions") for r in results):
        return None
    return np.array([sum(sum(seat.values()) for seat in r["actions"]) for r in results],
                    dtype=float)


def _spread(sole: np.ndarray, players: int) -> float:
    shares = [float(np.mean(sole == s)) for s in range(players)]
    return max(shares) - min(shares)


def target_metrics(results: Sequence[Mapping[str, Any]], players: int,
                   cooperative: bool = False) -> dict[str, float]:
    """Every :data:`METRICS` value ``results`` can give (a missing one is left out: see
    :data:`UNAVAILABLE`).

    Args:
        results: the runner's per-game dicts (``winners``, ``length``, ``truncated``, and
            ``actions`` for ``mean_decisions``, ``outcome`` for a co-op team win); at least one.
        players: the seat count; cooperative: the game's ``capabilities.cooperative``.
    Returns:
        ``{metric: value}``; shares in [0, 1], lengths in the game's length unit.
    Raises:
        ValueError: no results.
    """
    if not results:
        raise ValueError("no games: the metrics of a target need at least one")
    n = len(results)
    lengths = np.array([float(r["length"]) for r in results])
    sole = _sole(results)
    out: dict[str, float] = {
        "mean_rounds": float(lengths.mean()),
        "p90_rounds": float(np.percentile(lengths, 90)),
        "draw_rate": float(np.mean(sole == -1)),
        "truncated_rate": sum(1 for r in results if r["truncated"]) / n,
    }
    decisions = _decisions(results)
    if decisions is not None:
        out["mean_decisions"] = float(decisions.mean())
    if cooperative:
        out["team_win_rate"] = sum(1 for r in results if team_result(r)[0]) / n
    elif players > 1:
        out["seat_spread"] = _spread(sole, players)
        out["first_seat_edge"] = float(np.mean(sole == 0)) - (1 - out["draw_rate"]) / players
    return out


def equal_seats_spread(games: int, players: int, draw_rate: float, seed: int = 0,
                       draws: int = 2000) -> float:
    """The ``seat_spread`` that equal seats show on average in ``games`` games: the mean,
    over ``draws`` multinomial samples (numpy, seeded), of the largest minus the smallest
    seat's sole-win share when a game is drawn with ``draw_rate`` and otherwise won by every
    seat alike. With 4 players and 10% draws: about 0.18 at 28 games, 0.057 at 300 and 0.018
    at 3,000; the spread of a small sample is mostly noise.

    Raises:
        ValueError: games < 1, players < 2 or a draw rate outside [0, 1].
    """
    if games < 1 or players < 2 or not 0 <= draw_rate <= 1:
        raise ValueError(f"need games >= 1, players >= 2 and a draw rate in [0, 1], got "
                         f"{games}, {players}, {draw_rate}")
    probs = [(1 - draw_rate) / players] * players + [draw_rate]
    counts = np.random.default_rng(seed).multinomial(games, probs, size=draws)[:, :players]
    return float(np.mean(counts.max(axis=1) - counts.min(axis=1)) / games)


def _spread_interval(sole: np.ndarray, players: int) -> list[float]:
    """Bounds on the true spread from every seat's Wilson interval at 95% / ``players``
    (Bonferroni: all hold together with 95% confidence): the largest share is at most the
    highest upper end, the smallest at least the lowest lower end, and any two seats differ by
    at least one's lower end minus the other's upper end."""
    n = len(sole)
    ends = [wilson_interval(int(np.sum(sole == s)), n, 1 - (1 - CONFIDENCE) / players)
            for s in range(players)]
    low = max(0.0, max(lo for lo, _ in ends) - min(hi for _, hi in ends))
    return [low, max(hi for _, hi in ends) - min(lo for lo, _ in ends)]


def _t_interval(values: np.ndarray) -> list[float] | None:
    if values.size < 2:
        return None
    if np.all(values == values[0]):
        return [float(values[0])] * 2
    ci = sps.ttest_1samp(values, 0.0).confidence_interval(CONFIDENCE)
    return [float(ci.low), float(ci.high)]


def _bootstrap(data: tuple[np.ndarray, ...], statistic: Any, seed: int) -> list[float] | None:
    if data[0].size < 2:
        return None
    if all(np.all(d == d[0]) for d in data):
        value = float(statistic(*data))
        return [value, value]
    res = sps.bootstrap(data, statistic, n_resamples=RESAMPLES, confidence_level=CONFIDENCE,
                        method="percentile", vectorized=False, paired=True,
                        random_state=np.random.default_rng(seed))
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return None if not (np.isfinite(low) and np.isfinite(high)) else [low, high]


def metric_intervals(results: Sequence[Mapping[str, Any]], players: int, metrics: Sequence[str],
                     cooperative: bool = False, seed: int = 0) -> dict[str, dict[str, Any]]:
    """Each of ``metrics`` with its 95% interval (module docstring for the methods).

    Args:
        results, players, cooperative: as for :func:`target_metrics`.
        metrics: :data:`METRICS` names; seed: the bootstrap's seed.
    Returns:
        Per metric ``{"value", "interval" ([low, high] or None with fewer than 2 games),
        "method", "games"}``; a metric the results cannot give has ``value`` None and
        ``why`` (:data:`UNAVAILABLE`).
    Raises:
        ValueError: no results; KeyError: a name not in :data:`METRICS`.
    """
    values = target_metrics(results, players, cooperative)
    n = len(results)
    sole = _sole(results)
    out: dict[str, dict[str, Any]] = {}
    for name in metrics:
        spec = METRICS[name]
        if name not in values:
            why = UNAVAILABLE.get(name) or UNAVAILABLE[spec["games"]]
            out[name] = {"value": None, "interval": None, "method": None, "games": n,
                         "why": why}
            continue
        value = values[name]
        if name in ("draw_rate", "truncated_rate", "team_win_rate"):
            k = round(value * n)
            e = rate_entry(k, n)
            interval, method = [e["ci_low"], e["ci_high"]], "Wilson"
        elif name == "first_seat_edge":
            low, high = wilson_interval(int(np.sum(sole == 0)), n)
            fair = (1 - values["draw_rate"]) / players
            interval, method = [low - fair, high - fair], "Wilson, shifted by the fair share"
        elif name in ("mean_rounds", "mean_decisions"):
            data = (np.array([float(r["length"]) for r in results]) if name == "mean_rounds"
                    else _decisions(results))
            interval, method = _t_interval(data), "Student's t"
        elif name == "p90_rounds":
            lengths = np.array([float(r["length"]) for r in results])
            interval = _bootstrap((lengths,), lambda a: np.percentile(a, 90), seed)
            method = "percentile bootstrap"
        else:  # seat_spread
            interval, method = _spread_interval(sole, players), \
                "simultaneous Wilson intervals of the seats' shares (Bonferroni)"
        out[name] = {"value": value, "interval": interval, "method": method, "games": n}
    return out
