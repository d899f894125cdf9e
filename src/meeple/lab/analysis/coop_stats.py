"""The cooperative part of a playtest summary (split from :mod:`meeple.lab.analysis.stats`).

A co-op game is won or lost by the whole table: :func:`team_result` reads one result's team
outcome (``outcome["team_win"]``, else any positive return; a loss's cause is
``outcome["cause"]``, ``truncation`` when the game hit its cap, else ``unknown``), and
:func:`add_team_stats` adds the team win rate, the loss causes, survival per seat and bot, and
the team verdict (team win rates per line-up) to a summary made by
:func:`meeple.lab.analysis.stats.summarize`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.lab.analysis.precision import too_few
from meeple.lab.analysis.rates import ALPHA, _num, rate_entry

__all__ = ["add_team_stats", "team_result"]


def team_result(result: Mapping[str, Any]) -> tuple[bool, str | None]:
    """``(team won, loss cause or None)`` of one cooperative result (rules in the module
    docstring)."""
    outcome = result.get("outcome") or {}
    won = outcome.get("team_win")
    if won is None:
        won = any(float(x) > 0 for x in result["returns"])
    if won:
        return True, None
    if result["truncated"]:
        return False, "truncation"
    return False, str(outcome.get("cause") or "unknown")


def _ordered_names(configured: Sequence[str], results: Sequence[Mapping[str, Any]]) -> list[str]:
    """Bot names: ``configured`` first, then the others by first appearance."""
    return list(dict.fromkeys([*map(str, configured),
                               *(str(b) for r in results for b in r["bots"])]))


def _lineup_label(bots: Sequence[str], order: Sequence[str]) -> str:
    """A table's bots as one label: ``"heuristic"`` when every seat plays it, else counts in
    ``order``, e.g. ``"2 heuristic + 1 random"``."""
    counts = {name: 0 for name in order}
    for bot in bots:
        counts[str(bot)] += 1
    present = [(name, k) for name, k in counts.items() if k]
    if len(present) == 1:
        return present[0][0]
    return " + ".join(f"{k} {name}" for name, k in present)


def _homogeneity(rows: Sequence[tuple[int, int]], what: str, groups: str) -> dict[str, Any]:
    """Chi-square test of homogeneity of ``(successes, trials)`` rows (groups x {yes, no})."""
    test = f"chi-square test of homogeneity of {what} across {groups}"
    if len(rows) < 2:
        return {"chi2": None, "p_value": None, "test": test, "significant": None,
                "note": f"needs two or more {groups}"}
    table = np.array([[k, n - k] for k, n in rows])
    if table[:, 0].sum() == 0 or table[:, 1].sum() == 0:
        return {"chi2": None, "p_value": None, "test": test, "significant": None,
                "note": f"every one had the same outcome: no {groups} to compare"}
    res = sps.chi2_contingency(table)
    return {"chi2": float(res.statistic), "p_value": float(res.pvalue), "test": test,
            "significant": bool(res.pvalue < ALPHA)}


def add_team_stats(summary: dict[str, Any], results: Sequence[Mapping[str, Any]],
                    seat_names: Sequence[str], configured: Sequence[str]) -> None:
    """Add ``team_win_rate``, ``loss_causes``, ``survival`` and the team verdict."""
    n_games = len(results)
    outcomes = [team_result(r) for r in results]
    wins = sum(1 for won, _ in outcomes if won)
    entry = rate_entry(wins, n_games)
    summary["team_win_rate"] = {"wins": wins, "games": n_games, "rate": entry["rate"],
                                "ci_low": entry["ci_low"], "ci_high": entry["ci_high"]}

    counts: dict[str, int] = {"truncation": 0}
    for _, cause in outcomes:
        if cause is not None:
            counts[cause] = counts.get(cause, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    summary["loss_causes"] = {cause: {"count": k, "rate": k / n_games} for cause, k in ranked}

    players = len(seat_names)
    names = _ordered_names(configured, results)
    seat_alive = [0] * players
    bot_alive = dict.fromkeys(names, 0)
    bot_pairs = dict.fromkeys(names, 0)
    for r in results:
        for seat, (bot, ret) in enumerate(zip(r["bots"], r["returns"], strict=True)):
            alive = float(ret) > 0
            seat_alive[seat] += alive
            bot_alive[str(bot)] += alive
            bot_pairs[str(bot)] += 1
    seats = []
    for seat in range(players):
        e = rate_entry(seat_alive[seat], n_games)
        seats.append({"seat": seat, "name": str(seat_names[seat]), "survived": seat_alive[seat],
                      "games": n_games, "rate": e["rate"], "ci_low": e["ci_low"],
                      "ci_high": e["ci_high"]})
    bots = {}
    for name in names:
        e = rate_entry(bot_alive[name], bot_pairs[name])
        bots[name] = {"pairs": bot_pairs[name], "survived": bot_alive[name], "rate": e["rate"],
                      "ci_low": e["ci_low"], "ci_high": e["ci_high"]}
    played = [(e["survived"], e["pairs"]) for e in bots.values() if e["pairs"]]
    summary["survival"] = {
        "seats": seats,
        "bots": bots,
        "seat_balance": _homogeneity([(k, n_games) for k in seat_alive], "survival", "seats"),
        "between_bots": _homogeneity(played, "survival", "bots"),
    }
    summary["skill_vs_luck"] = _team_verdict(summary["skill_vs_luck"], results, outcomes,
                                             names, summary["loss_causes"])


def _team_verdict(svl: dict[str, Any], results: Sequence[Mapping[str, Any]],
                  outcomes: Sequence[tuple[bool, str | None]], names: Sequence[str],
                  loss_causes: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``svl`` with ``team`` (team win rate per line-up) and a verdict about the team: in a
    co-op the meaningful comparison is the team win rate of different line-ups."""
    tally: dict[str, list[int]] = {}
    for r, (won, _) in zip(results, outcomes, strict=True):
        games_wins = tally.setdefault(_lineup_label(r["bots"], names), [0, 0])
        games_wins[0] += 1
        games_wins[1] += int(won)
    lineups = {}
    for label, (games, wins) in tally.items():
        e = rate_entry(wins, games)
        lineups[label] = {"games": games, "wins": wins, "rate": e["rate"],
                          "ci_low": e["ci_low"], "ci_high": e["ci_high"]}
    between = _homogeneity([(e["wins"], e["games"]) for e in lineups.values()],
                           "team win rates", "line-ups")

    def clause(label: str) -> str:
        e = lineups[label]
        return (f"team of {label}: wins {_num(e['rate'])}% (95% CI {_num(e['ci_low'])}-"
                f"{_num(e['ci_high'])}%)")

    if len(lineups) < 2:
        verdict = clause(next(iter(lineups)))
        lost = [(cause, e) for cause, e in loss_causes.items() if e["count"]]
        if lost:
            cause, e = lost[0]  # ranked by count
            verdict += f"; commonest loss: {cause} ({_num(e['rate'])}% of games)"
        skill = None
    else:
        verdict = "; ".join(clause(label) for label in lineups)
        if between["p_value"] is None:
            verdict += f": {between['note']}"
            skill = None
        elif between["significant"]:
            verdict += (f" (line-ups differ, chi-square p = {between['p_value']:.2g}): the "
                        "team's play matters")
            skill = True
        else:
            verdict += (f" (line-ups do not differ at the 5% level, chi-square p = "
                        f"{between['p_value']:.2g})")
            skill = False
            pooled = sum(e["wins"] for e in lineups.values()) / len(results)
            short = too_few([(e["games"], e["ci_low"], e["ci_high"]) for e in lineups.values()],
                            len(results), pooled, "line-up")
            if short is not None:
                verdict += f": {short['text']}"
                skill = None
            svl = {**svl, "too_few_games": short}
    return {**svl, "team": {"lineups": lineups, "between_lineups": between},
            "skill_matters": skill, "verdict": verdict}
