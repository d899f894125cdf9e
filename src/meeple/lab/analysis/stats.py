"""Statistics of a playtest run: per-game results in, one JSON-ready summary dict out.

The input is what the lab's runner records for every played game, a dict of this shape::

    {"index": int, "seed": int, "bots": [str per seat], "winners": [seat ints],
     "returns": [float per seat], "scores": [float per seat], "length": int,
     "truncated": bool, "seconds": float}

``winners`` with exactly one seat is a *sole win*; with several seats it is a draw (a shared
win), and an empty list is a game nobody won (also counted as a draw). Win rates below always
count sole wins only, so draws lower every seat's and every bot's rate alike. That is why the
*fair share* they are compared with is ``(1 - draw_rate) / players``: the sole-win rate every
seat and bot would have if all were equal, given the draws observed (``1 / players`` when
there are none; the summary also gives that ``nominal_share``).

Statistics used (all at the 95% confidence level, 5% significance level):

* win-rate intervals: Wilson score interval, ``scipy.stats.binomtest(k, n).proportion_ci(
  confidence_level=0.95, method="wilson")``;
* seat balance: chi-square goodness of fit of the sole wins per seat against equal seats
  (``scipy.stats.chisquare``);
* a bot's edge: two-sided exact binomial test of its sole wins over the (game, seat) pairs it
  played against the fair share (``scipy.stats.binomtest``); pairs of the same
  game are treated as independent, which is an approximation;
* bots against one another: chi-square test of homogeneity of the sole-win rates of the bots
  (``scipy.stats.chi2_contingency`` on a bots x {won, did not win} table);
* length and score: numpy mean, median, percentiles (linear interpolation, numpy's default) and
  the population standard deviation (``ddof=0``).

Cooperative games (``summarize(..., cooperative=True)``; computed in
:mod:`meeple.lab.analysis.coop_stats`) win or lose as a team. A result may then carry
``"outcome": {"team_win": bool, "cause": str, ...}`` (the game's
``State.outcome()``). A game is a *team win* when its outcome says so (without an outcome: when
some seat's return is positive); a lost game is lost to ``"truncation"`` when it was truncated,
else to its outcome's ``cause`` (``"unknown"`` when there is none), so the wins and the loss
counts add up to the number of games. On top of every competitive statistic (still computed from
sole wins, so the shape stays the same) the summary then gives:

* ``team_win_rate``: team wins with a Wilson interval;
* ``loss_causes``: per cause, the count and share of all games lost to it (``"truncation"``
  always listed);
* ``survival``: each seat's and each bot's individual result, the share of its games it ended
  with a positive return, with Wilson intervals, and chi-square tests of homogeneity of
  survival across seats and across bots (``scipy.stats.chi2_contingency``; seats of one game
  are treated as independent, an approximation);
* in ``skill_vs_luck``, ``team``: the team win rate of each line-up (the multiset of bots at
  the table), with a chi-square test of homogeneity across line-ups when there are several; the
  verdict is about the team (``"team of heuristic: wins 41% (95% CI 37-45%)"``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.lab.analysis.coop_stats import add_team_stats, team_result
from meeple.lab.analysis.diagnostics import diagnose
from meeple.lab.analysis.precision import too_few
from meeple.lab.analysis.rates import (
    ALPHA,
    CONFIDENCE,
    _num,
    difference_interval,
    rate_entry,
    wilson,
    wilson_interval,
    winning_margin,
)

__all__ = ["ALPHA", "CONFIDENCE", "difference_interval", "rate_entry", "seat_phrase", "summarize",
           "team_result", "wilson", "wilson_interval", "winning_margin"]


_REQUIRED_KEYS = ("index", "seed", "bots", "winners", "returns", "scores", "length",
                  "truncated", "seconds")


def summarize(
    results: Sequence[Mapping[str, Any]],
    *,
    game: str,
    variant: str,
    players: int,
    params: dict,
    seed: int,
    bots: list[str],
    seat_names: list[str],
    length_unit: str,
    elapsed_seconds: float,
    jobs: int,
    cooperative: bool = False,
) -> dict[str, Any]:
    """Summarise a playtest run for a game designer.

    Args:
        results: one dict per played game (shape in the module docstring); every ``bots``,
            ``returns`` and ``scores`` list has ``players`` entries and every winner is a seat
            in ``range(players)``. At least one game.
        game, variant, players, params, seed: what was played, copied into the summary.
        bots: the bot names as configured for the run (one per seat, or the mix), copied; the
            per-game ``bots`` lists (which may rotate seatings) are what the bot statistics use.
        seat_names: one display name per seat, e.g. ``["RED", "BLUE", "GREEN", "ORANGE"]``.
        length_unit: what ``length`` counts, e.g. ``"rounds"`` or ``"turns"``.
        elapsed_seconds: wall time of the whole run (``>= 0``); ``jobs``: worker processes.
        cooperative: the game's ``capabilities.cooperative``: add the team statistics (see
            the module docstring).
    Returns:
        A JSON-serialisable dict (plain ``int``/``float``/``str``/``bool``/``None``, lists and
        dicts; no NaN) with the keys ``game``, ``variant``, ``players``, ``params``, ``games``,
        ``seed``, ``bots``, ``seat_names``, ``jobs``, ``elapsed_seconds``, ``games_per_second``,
        ``seat_win_rate``, ``seat_balance``, ``bot_win_rate``, ``draw_rate``,
        ``truncated_rate``, ``length``, ``score``, ``game_seconds``, ``skill_vs_luck`` and
        ``diagnostics`` (:func:`meeple.lab.analysis.diagnostics.diagnose`: first-seat advantage,
        draw and truncation intervals, margins, lead changes, per-card and per-action win rates,
        eliminations).
        Rates are shares in ``[0, 1]``; ``None`` marks a statistic that the data cannot give
        (for example the mean winner score when no game had a sole winner). A cooperative
        game's summary also has ``team_win_rate``, ``loss_causes`` and ``survival``, and
        ``skill_vs_luck["team"]``. ``seat_balance`` and ``skill_vs_luck`` carry
        ``too_few_games`` (:func:`meeple.lab.analysis.precision.too_few`: the games a 95% interval
        of +/- 5 points needs) when they found nothing and the run is too short to conclude so.
    Raises:
        ValueError: if ``results`` is empty, ``players < 1``, ``seat_names`` does not have
            ``players`` entries, or a result is malformed.
    """
    if players < 1:
        raise ValueError(f"players = {players} must be at least 1")
    if len(seat_names) != players:
        raise ValueError(f"{len(seat_names)} seat names given for {players} players")
    if not results:
        raise ValueError("no games to summarise: the results list is empty")
    for pos, result in enumerate(results):
        _check_result(pos, result, players)
        if cooperative:
            _check_outcome(pos, result)

    n_games = len(results)
    sole = [r["winners"][0] if len(r["winners"]) == 1 else None for r in results]
    n_draws = sum(1 for w in sole if w is None)
    n_truncated = sum(1 for r in results if r["truncated"])
    draw_rate = n_draws / n_games

    seat_wins = [sum(1 for w in sole if w == s) for s in range(players)]
    seat_win_rate = []
    for s in range(players):
        entry = rate_entry(seat_wins[s], n_games)
        seat_win_rate.append({"seat": s, "name": str(seat_names[s]), "wins": seat_wins[s],
                              "games": n_games, "rate": entry["rate"],
                              "ci_low": entry["ci_low"], "ci_high": entry["ci_high"]})

    fair = (1.0 - draw_rate) / players
    bot_win_rate = _bot_win_rate(results, sole, players, bots, fair)

    elapsed = float(elapsed_seconds)
    summary: dict[str, Any] = {
        "game": game,
        "variant": variant,
        "players": int(players),
        "params": dict(params),
        "games": n_games,
        "seed": int(seed),
        "bots": list(bots),
        "seat_names": [str(name) for name in seat_names],
        "jobs": int(jobs),
        "elapsed_seconds": elapsed,
        "games_per_second": n_games / elapsed if elapsed > 0 else None,
        "seat_win_rate": seat_win_rate,
        "seat_balance": _seat_balance(seat_wins),
        "bot_win_rate": bot_win_rate,
        "draw_rate": draw_rate,
        "truncated_rate": n_truncated / n_games,
        "length": _length_stats(results, length_unit),
        "score": _score_stats(results, sole),
        "game_seconds": _describe([float(r["seconds"]) for r in results],
                                  ("mean", "median", "max", "total")),
        "fair_share": fair,
        "nominal_share": 1.0 / players,
        "skill_vs_luck": _skill_vs_luck(bot_win_rate, fair, draw_rate, n_games),
    }
    balance = summary["seat_balance"]
    balance["too_few_games"] = (None if balance["p_value"] is None or balance["significant"]
                                else too_few([(n_games, e["ci_low"], e["ci_high"])
                                              for e in seat_win_rate], n_games, fair, "seat"))
    if cooperative:
        add_team_stats(summary, results, seat_names, bots)
    summary["diagnostics"] = diagnose(results, players=players, seat_names=seat_names,
                                      cooperative=cooperative)
    return _clean(summary)


# ---------------------------------------------------------------------------------- checks
def _check_result(pos: int, result: Mapping[str, Any], players: int) -> None:
    """Raise ValueError naming the game if ``result`` does not have the documented shape."""
    where = f"result {pos} (index {result.get('index', '?')})"
    missing = [key for key in _REQUIRED_KEYS if key not in result]
    if missing:
        raise ValueError(f"{where} lacks {', '.join(missing)}")
    for key in ("bots", "returns", "scores"):
        if len(result[key]) != players:
            raise ValueError(f"{where}: {key} has {len(result[key])} entries, not {players}")
    winners = list(result["winners"])
    for w in winners:
        if isinstance(w, bool) or not isinstance(w, int | np.integer) or not 0 <= w < players:
            raise ValueError(f"{where}: winner {w!r} is not a seat in 0..{players - 1}")
    if len(set(winners)) != len(winners):
        raise ValueError(f"{where}: winners {winners} repeat a seat")
    values = [*result["returns"], *result["scores"], result["length"], result["seconds"]]
    if not all(math.isfinite(float(v)) for v in values):
        raise ValueError(f"{where}: returns, scores, length and seconds must be finite numbers")


def _check_outcome(pos: int, result: Mapping[str, Any]) -> None:
    """Raise ValueError naming the game if a cooperative result's ``outcome`` is malformed."""
    if "outcome" not in result:
        return
    where = f"result {pos} (index {result.get('index', '?')})"
    outcome = result["outcome"]
    if not isinstance(outcome, Mapping):
        raise ValueError(f"{where}: outcome {outcome!r} is not a mapping")
    if "team_win" in outcome and not isinstance(outcome["team_win"], bool | np.bool_):
        raise ValueError(f"{where}: outcome team_win {outcome['team_win']!r} is not a bool")
    if "cause" in outcome and not isinstance(outcome["cause"], str):
        raise ValueError(f"{where}: outcome cause {outcome['cause']!r} is not a string")


# ------------------------------------------------------------------------------ win rates
def _seat_balance(seat_wins: list[int]) -> dict[str, Any]:
    """Chi-square goodness of fit of sole wins per seat against equal seats."""
    test = "chi-square goodness of fit of sole wins against equal seats"
    total = sum(seat_wins)
    base: dict[str, Any] = {"chi2": None, "p_value": None, "test": test,
                            "sole_wins": total, "observed": list(seat_wins),
                            "expected": None, "significant": None}
    if len(seat_wins) < 2:
        return {**base, "note": "a single seat: there is no balance between seats to test"}
    if total == 0:
        return {**base, "note": "no game had a sole winner: seat balance cannot be tested"}
    res = sps.chisquare(seat_wins)
    return {**base, "chi2": float(res.statistic), "p_value": float(res.pvalue),
            "expected": [total / len(seat_wins)] * len(seat_wins), "significant":
            bool(res.pvalue < ALPHA)}


def _bot_win_rate(results: Sequence[Mapping[str, Any]], sole: list[int | None], players: int,
                  configured: list[str], fair: float) -> dict[str, dict[str, Any]]:
    """Per bot name: (game, seat) pairs played, sole wins, Wilson CI, edge over ``fair`` (the
    fair share, see the module docstring) and binomial test against it.

    Bots are listed in the order of ``configured`` first, then of first appearance; a
    configured bot that never played has ``pairs == 0`` and ``None`` statistics."""
    names = list(dict.fromkeys([*map(str, configured),
                                *(str(b) for r in results for b in r["bots"])]))
    pairs = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    returns: dict[str, list[float]] = {name: [] for name in names}
    for result, winner in zip(results, sole, strict=True):
        for seat, bot in enumerate(result["bots"]):
            bot = str(bot)
            pairs[bot] += 1
            wins[bot] += int(winner == seat)
            returns[bot].append(float(result["returns"][seat]))
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        entry = rate_entry(wins[name], pairs[name])
        rate = entry["rate"]
        p_value = None
        if pairs[name]:
            p_value = (float(sps.binomtest(wins[name], pairs[name], fair).pvalue) if fair > 0
                       else float(wins[name] == 0))  # every game drawn: no sole win expected
        out[name] = {
            "pairs": pairs[name],
            "wins": wins[name],
            "rate": rate,
            "ci_low": entry["ci_low"],
            "ci_high": entry["ci_high"],
            "fair_share": fair,
            "edge": None if rate is None else rate - fair,
            "p_value": p_value,
            "mean_return": float(np.mean(returns[name])) if returns[name] else None,
        }
    return out


# -------------------------------------------------------------------------- distributions
def _describe(values: Sequence[float], keys: Sequence[str]) -> dict[str, Any]:
    """Named numpy statistics of ``values`` (non-empty): mean, median, p10, p90, min, max,
    std (population, ddof=0), total."""
    a = np.asarray(values, dtype=float)
    stats = {
        "mean": lambda: float(np.mean(a)),
        "median": lambda: float(np.median(a)),
        "p10": lambda: float(np.percentile(a, 10)),
        "p90": lambda: float(np.percentile(a, 90)),
        "min": lambda: float(np.min(a)),
        "max": lambda: float(np.max(a)),
        "std": lambda: float(np.std(a)),
        "total": lambda: float(np.sum(a)),
    }
    return {key: stats[key]() for key in keys}


def _length_stats(results: Sequence[Mapping[str, Any]], unit: str) -> dict[str, Any]:
    """Game length: unit, mean, median, p90, min, max (ints), std."""
    lengths = [int(r["length"]) for r in results]
    out: dict[str, Any] = {"unit": unit,
                           **_describe(lengths, ("mean", "median", "p90", "min", "max", "std"))}
    out["min"], out["max"] = min(lengths), max(lengths)
    return out


def _score_stats(results: Sequence[Mapping[str, Any]], sole: list[int | None]
                 ) -> dict[str, Any]:
    """Scores over every (game, seat) pair, plus sole winners' mean score and winning margin.

    ``margin_mean`` is the mean, over sole-win games with at least two seats, of the winner's
    margin (:func:`winning_margin`)."""
    all_scores = [float(x) for r in results for x in r["scores"]]
    out = _describe(all_scores, ("mean", "std", "p10", "median", "p90"))
    winner_scores: list[float] = []
    margins: list[float] = []
    for result, winner in zip(results, sole, strict=True):
        if winner is None:
            continue
        winner_scores.append(float(result["scores"][winner]))
        if len(result["scores"]) > 1:
            margins.append(winning_margin(result, winner))
    out["winner_mean"] = float(np.mean(winner_scores)) if winner_scores else None
    out["margin_mean"] = float(np.mean(margins)) if margins else None
    return out


# ------------------------------------------------------------------------- skill vs luck
def _between_bots(played: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Chi-square test of homogeneity of sole-win rates across bots (bots x won/not won)."""
    test = "chi-square test of homogeneity of sole-win rates across bots"
    table = np.array([[e["wins"], e["pairs"] - e["wins"]] for e in played.values()])
    if len(played) < 2:
        return {"chi2": None, "p_value": None, "test": test, "note": "needs two or more bots"}
    if table[:, 0].sum() == 0 or table[:, 1].sum() == 0:
        return {"chi2": None, "p_value": None, "test": test,
                "note": "every pair had the same outcome: nothing to compare"}
    res = sps.chi2_contingency(table)
    return {"chi2": float(res.statistic), "p_value": float(res.pvalue), "test": test}


def _skill_vs_luck(bot_win_rate: Mapping[str, Mapping[str, Any]], fair: float,
                   draw_rate: float, n_games: int) -> dict[str, Any]:
    """Answer "is a plan better than random?" from the bots' sole-win rates.

    Skill matters when some bot wins significantly more than the fair share ``fair`` (two-sided
    binomial test at 5%), or when the bots' rates differ from one another (chi-square
    homogeneity test at 5%). With one bot name there is nothing to compare. When neither
    holds and some bot's 95% interval is wider than +/- 5 points
    (:func:`meeple.lab.analysis.precision.too_few`), the verdict is "too few games to tell" with the
    games needed (``too_few_games``), and ``skill_matters`` is ``None``."""
    played = {name: e for name, e in bot_win_rate.items() if e["pairs"] > 0}
    per_bot: dict[str, dict[str, Any]] = {}
    for name, e in played.items():
        significant = bool(e["p_value"] < ALPHA)
        direction = "none" if not significant else ("above" if e["edge"] > 0 else "below")
        per_bot[name] = {
            "pairs": e["pairs"], "rate": e["rate"], "edge": e["edge"],
            "edge_ci_low": e["ci_low"] - fair, "edge_ci_high": e["ci_high"] - fair,
            "p_value": e["p_value"], "significant": significant, "direction": direction,
        }
    between = _between_bots(played)
    out: dict[str, Any] = {"alpha": ALPHA, "confidence": CONFIDENCE, "fair_share": fair,
                           "comparable": len(played) >= 2, "bots": per_bot,
                           "between_bots": between, "too_few_games": None}
    if len(played) < 2:
        only = next(iter(played), "one bot")
        out["skill_matters"] = None
        out["verdict"] = (f"only {only} played every seat: telling skill from luck needs two or "
                          "more different bots in the mix")
        return out

    def clause(name: str, only: bool = False) -> str:
        b = bot_win_rate[name]
        return (f"{name} wins {'only ' if only else ''}{_num(b['rate'])}% of its seats against "
                f"a fair share of {_num(fair)}% (95% CI {_num(b['ci_low'])}-"
                f"{_num(b['ci_high'])}%)")

    above = sorted((n for n, b in per_bot.items() if b["direction"] == "above"),
                   key=lambda n: -per_bot[n]["edge"])
    below = sorted((n for n, b in per_bot.items() if b["direction"] == "below"),
                   key=lambda n: per_bot[n]["edge"])
    p_between = between["p_value"]
    between_sig = p_between is not None and p_between < ALPHA
    out["skill_matters"] = bool(above) or between_sig
    if above:
        verdict = "; ".join(clause(n) for n in above) + ": skill matters"
    elif between_sig and below:
        verdict = (f"{clause(below[0], only=True)} while the other bots do better "
                   f"(bots differ, chi-square p = {p_between:.2g}): skill matters")
    elif between_sig:
        verdict = ("no single bot differs from the fair share at the 5% level, but the bots "
                   f"differ from one another (chi-square p = {p_between:.2g}): skill matters")
    elif (short := too_few([(e["pairs"], e["ci_low"], e["ci_high"]) for e in played.values()],
                           n_games, fair, "bot")) is not None:
        out["too_few_games"] = short
        out["skill_matters"] = None
        verdict = (f"no bot differs from the fair share of {_num(fair)}% at the 5% level, but "
                   f"{short['text']}")
    elif below and draw_rate > 0:
        verdict = (f"no bot beats the fair share of {_num(fair)}% at the 5% level and the bots "
                   f"do not differ from one another ({_num(draw_rate)}% of games are draws, "
                   "which lowers every sole-win rate): these bots cannot show skill over luck")
    else:
        verdict = ("no bot differs from the fair share at the 5% level: these bots cannot show "
                   "skill over luck")
    out["verdict"] = verdict
    return out


# --------------------------------------------------------------------------------- output
def _clean(value: Any) -> Any:
    """``value`` with numpy scalars made plain Python numbers, tuples made lists and NaN or
    infinite floats made ``None``, recursively."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple | np.ndarray):
        return [_clean(v) for v in value]
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        f = float(value)
        return f if math.isfinite(f) else None
    return value


def seat_phrase(name: str) -> str:
    """``"seat RED"`` for a seat's name, or the name itself when it already says seat
    (``"Seat 0"``, a game's default name): no "seat Seat 0" in a label."""
    return name if name.lower().startswith("seat") else f"seat {name}"
