"""The designer's diagnostics of a playtest: first-seat advantage, draws and truncation, the
winning margin, lead changes, per-card and per-action win rates, eliminations.

Input: the runner's per-game result dicts (shape in :mod:`meeple.lab.analysis.stats`); the lead
changes, the per-card and per-action counts and the eliminations need the trace fields that
:class:`meeple.lab.analysis.trace.Trace` adds to each result (``lead_changes``,
``leader_before_final``, ``eliminations``, ``actions``, ``cards``). Results without them still get
every other statistic, and the trace-based ones are ``None`` with ``"traced": False``.

Statistics (95% level throughout, as in :mod:`meeple.lab.analysis.stats`):

* proportions: Wilson score intervals (:func:`meeple.lab.analysis.stats.wilson_interval`);
* first-seat advantage: seat 0's sole-win rate minus the fair share ``(1 - draw rate) /
  players``, with its Wilson interval shifted by the same amount and a two-sided exact binomial
  test against the fair share (``scipy.stats.binomtest``);
* per card or action *key*: the *units* are (game, seat) pairs in a competitive game (did this
  seat win alone?) and games in a cooperative one (did the team win?). A unit *played* the key
  when the seat (any seat, in a co-op) used it at least once. The win rate of the units that
  played it is compared with the units that did not. With one bot (one line-up in a co-op): the
  difference with Newcombe's hybrid score interval
  (:func:`meeple.lab.analysis.stats.difference_interval`) and Fisher's exact test
  (``scipy.stats.fisher_exact``, two-sided). With several, the comparison is made within each
  bot (stratum), so that a card a stronger bot favours does not look strong for that reason: the
  Mantel-Haenszel risk difference with the Sato interval and the Cochran-Mantel-Haenszel test
  (:func:`mantel_haenszel`). Only keys played by at least 5% and at most 95% of the units (and
  10 units on each side) are compared (:func:`comparable`; ``comparable`` on each row): the few
  units that never played a key almost everyone plays are another kind of game (a seat out at
  once, a very short game), not a test of the key. A key is *flagged* when its Holm-adjusted
  p-value (Holm 1979, over all keys of the table) is below 5%. In a game where playing any card
  scores, every card is associated with winning, so a key is also tested against the *typical*
  key (the median difference of the table, keys weighted by their units): an *outlier* is
  "stronger than most" or "weaker than most" when that Holm-adjusted z-test is below 5%; this
  answers "which card is too strong?". Both are associations, not effects: a seat that plays a
  card when it is already ahead looks strong;
* means and distributions: numpy (population standard deviation, linear percentiles).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.lab.analysis.coop_stats import team_result
from meeple.lab.analysis.rates import ALPHA, difference_interval, wilson_interval, winning_margin
from meeple.lab.analysis.trace import TRACE_FIELDS

__all__ = ["comparable", "diagnose", "holm", "is_traced", "mantel_haenszel", "margins", "rate"]


def is_traced(results: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every result carries the trace fields
    (:data:`meeple.lab.analysis.trace.TRACE_FIELDS`)."""
    return bool(results) and all(all(k in r for k in TRACE_FIELDS) for r in results)


def rate(k: int, n: int) -> dict[str, Any]:
    """``{"k", "n", "rate", "ci_low", "ci_high"}``: ``k / n`` with its 95% Wilson interval
    (all ``None`` but ``k`` and ``n`` when ``n == 0``)."""
    if n == 0:
        return {"k": k, "n": n, "rate": None, "ci_low": None, "ci_high": None}
    low, high = wilson_interval(k, n)
    return {"k": int(k), "n": int(n), "rate": k / n, "ci_low": low, "ci_high": high}


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (Holm 1979), in the input order; ``None`` entries
    are skipped and stay ``None``. An adjusted p below ``alpha`` rejects at family-wise error
    rate ``alpha``."""
    indexed = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(indexed)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(indexed):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def _describe(values: Sequence[float]) -> dict[str, Any] | None:
    """n, mean, std (ddof=0), min, p10, median, p90, max of ``values``; ``None`` if empty."""
    if not len(values):
        return None
    a = np.asarray(values, dtype=float)
    return {"n": int(a.size), "mean": float(a.mean()), "std": float(a.std()),
            "min": float(a.min()), "p10": float(np.percentile(a, 10)),
            "median": float(np.median(a)), "p90": float(np.percentile(a, 90)),
            "max": float(a.max())}


def _sole(result: Mapping[str, Any]) -> int | None:
    winners = result["winners"]
    return winners[0] if len(winners) == 1 else None


def margins(results: Sequence[Mapping[str, Any]]) -> list[float]:
    """The winning margin (:func:`meeple.lab.analysis.stats.winning_margin`, never negative) of
    every sole-win game with two or more seats."""
    out = []
    for r in results:
        winner = _sole(r)
        if winner is not None and len(r["scores"]) > 1:
            out.append(winning_margin(r, winner))
    return out


# ------------------------------------------------------------------------------ seats
def _first_seat(results: Sequence[Mapping[str, Any]], players: int, seat_names: Sequence[str],
                fair: float) -> dict[str, Any]:
    wins = sum(1 for r in results if _sole(r) == 0)
    entry = rate(wins, len(results))
    p_value = (float(sps.binomtest(wins, len(results), fair).pvalue) if 0 < fair < 1
               else None)
    return {
        "seat": 0, "name": str(seat_names[0]), "wins": wins, "games": len(results),
        "rate": entry["rate"], "ci_low": entry["ci_low"], "ci_high": entry["ci_high"],
        "fair_share": fair, "advantage": entry["rate"] - fair,
        "advantage_ci": [entry["ci_low"] - fair, entry["ci_high"] - fair],
        "p_value": p_value, "significant": None if p_value is None else p_value < ALPHA,
        "test": "two-sided exact binomial test of seat 0's sole wins against the fair share",
    }


# ----------------------------------------------------------------------- cards, actions
def _units(results: Sequence[Mapping[str, Any]], field: str, cooperative: bool
           ) -> list[tuple[str, bool, Mapping[str, int]]]:
    """``(stratum, won, {key: times})`` per unit: a (game, seat) pair with its bot as stratum,
    or, in a co-op, a game with its line-up (sorted bot names) and every seat's keys added."""
    units: list[tuple[str, bool, Mapping[str, int]]] = []
    for r in results:
        if cooperative:
            merged: Counter[str] = Counter()
            for counts in r[field]:
                merged.update(counts)
            units.append((",".join(sorted(map(str, r["bots"]))), team_result(r)[0], merged))
            continue
        winner = _sole(r)
        for seat, counts in enumerate(r[field]):
            units.append((str(r["bots"][seat]), winner == seat, counts))
    return units


def mantel_haenszel(strata: Sequence[tuple[int, int, int, int]]) -> dict[str, Any]:
    """Stratified comparison of two proportions: per stratum ``(a, n1, b, n0)`` = successes
    and trials of the exposed and the unexposed units.

    Returns:
        ``{"difference", "ci", "p_value"}``: the Mantel-Haenszel risk difference with its 95%
        interval from the Sato (1989) variance (Greenland and Robins 1985), and the two-sided
        p-value of the Cochran-Mantel-Haenszel chi-square test (1 df, no continuity
        correction); ``None`` values when no stratum has both exposed and unexposed units or
        the test has no variance.
    """
    used = [(a, n1, b, n0) for a, n1, b, n0 in strata if n1 and n0]
    if not used:
        return {"difference": None, "ci": None, "p_value": None}
    weight = sum(n1 * n0 / (n1 + n0) for _, n1, _, n0 in used)
    diff = sum((a * n0 - b * n1) / (n1 + n0) for a, n1, b, n0 in used) / weight
    p_sum = sum((n1 * n1 * b - n0 * n0 * a + n1 * n0 * (n0 - n1) / 2) / (n1 + n0) ** 2
                for a, n1, b, n0 in used)
    q_sum = sum((a * (n0 - b) + b * (n1 - a)) / (2 * (n1 + n0)) for a, n1, b, n0 in used)
    variance = max(0.0, (diff * p_sum + q_sum) / weight ** 2)
    z = float(sps.norm.ppf(0.975))
    ci = [diff - z * variance ** 0.5, diff + z * variance ** 0.5]
    observed = expected = var = 0.0
    for a, n1, b, n0 in used:
        n, m1 = n1 + n0, a + b
        observed += a
        expected += n1 * m1 / n
        if n > 1:
            var += n1 * n0 * m1 * (n - m1) / (n * n * (n - 1))
    p_value = float(sps.chi2.sf((observed - expected) ** 2 / var, 1)) if var > 0 else None
    return {"difference": diff, "ci": ci, "p_value": p_value}


def _key_table(results: Sequence[Mapping[str, Any]], field: str, cooperative: bool
               ) -> tuple[list[dict[str, Any]], int]:
    """Per key of ``field`` (``"actions"`` or ``"cards"``), most played first (rules in the
    module docstring), and the number of strata (bots, or co-op line-ups)."""
    units = _units(results, field, cooperative)
    times: Counter[str] = Counter()
    # per key and stratum: [units that played it, of which won]
    played: dict[str, dict[str, list[int]]] = {}
    strata: dict[str, list[int]] = {}  # per stratum: [units, wins]
    for stratum, won, counts in units:
        total = strata.setdefault(stratum, [0, 0])
        total[0] += 1
        total[1] += won
        times.update(counts)
        for key, v in counts.items():
            if v:
                cell = played.setdefault(key, {}).setdefault(stratum, [0, 0])
                cell[0] += 1
                cell[1] += won
    games_with: Counter[str] = Counter()
    for r in results:
        games_with.update({key for counts in r[field] for key, v in counts.items() if v})
    n_units = len(units)
    total_wins = sum(w for _, w in strata.values())
    rows = []
    for key, count in sorted(times.items(), key=lambda kv: (-kv[1], kv[0])):
        cells = played.get(key, {})
        n = sum(c[0] for c in cells.values())
        k = sum(c[1] for c in cells.values())
        k_rest, n_rest = total_wins - k, n_units - n
        mine, rest = rate(k, n), rate(k_rest, n_rest)
        row: dict[str, Any] = {
            "key": key, "times": int(count), "games": int(games_with[key]), "units": n,
            "play_rate": n / n_units if n_units else None,
            "wins": k, "win_rate": mine["rate"], "ci_low": mine["ci_low"],
            "ci_high": mine["ci_high"], "rest_units": n_rest, "rest_win_rate": rest["rate"],
            "difference": None, "difference_ci": None, "p_value": None,
        }
        row["comparable"] = comparable(n, n_rest)
        if not row["comparable"]:
            pass  # nearly every unit (or nearly none) played it: the groups differ in kind
        elif len(strata) > 1:
            per = [(cells.get(s, [0, 0])[1], cells.get(s, [0, 0])[0],
                    tot[1] - cells.get(s, [0, 0])[1], tot[0] - cells.get(s, [0, 0])[0])
                   for s, tot in strata.items()]
            mh = mantel_haenszel(per)
            row.update(difference=mh["difference"], difference_ci=mh["ci"],
                       p_value=mh["p_value"])
        else:
            low, high = difference_interval(k, n, k_rest, n_rest)
            row["difference"] = mine["rate"] - rest["rate"]
            row["difference_ci"] = [low, high]
            row["p_value"] = float(sps.fisher_exact([[k, n - k], [k_rest, n_rest - k_rest]]
                                                    ).pvalue)
        rows.append(row)
    for row, adjusted in zip(rows, holm([row["p_value"] for row in rows]), strict=True):
        row["p_holm"] = adjusted
        row["flag"] = (None if adjusted is None or adjusted >= ALPHA or not row["difference"]
                       else ("wins more" if row["difference"] > 0 else "wins less"))
    _outliers(rows, results, field, cooperative)
    return rows, len(strata)


#: A key's units are compared with the rest only when each side holds at least this share of
#: all units and :data:`MIN_SIDE_UNITS` of them: the few units that never played a key almost
#: every unit plays (a seat knocked out at once, a game over in two rounds) are a different
#: kind of game, and their win rate says nothing about the key.
MIN_SIDE_SHARE = 0.05
MIN_SIDE_UNITS = 10


def comparable(n: int, n_rest: int) -> bool:
    """Whether ``n`` units that played a key and ``n_rest`` that did not are both large enough
    to compare (:data:`MIN_SIDE_SHARE`, :data:`MIN_SIDE_UNITS`)."""
    side = max(MIN_SIDE_UNITS, MIN_SIDE_SHARE * (n + n_rest))
    return n >= side and n_rest >= side


def weighted_median(values: Sequence[float], weights: Sequence[float]) -> float:
    """The weighted median of ``values`` (non-empty) with positive ``weights``: the smallest
    value at which the cumulative weight reaches half the total."""
    order = np.argsort(values, kind="stable")
    v, w = np.asarray(values, dtype=float)[order], np.asarray(weights, dtype=float)[order]
    return float(v[np.searchsorted(np.cumsum(w), w.sum() / 2)])


#: Cluster-bootstrap replicates of the outlier test (games resampled with replacement).
BOOTSTRAP = 400


def _game_counts(results: Sequence[Mapping[str, Any]], field: str, cooperative: bool,
                 keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game: units that played each key and how many of them won (G x K), units and wins
    (G), for the cluster bootstrap of :func:`_outliers`."""
    index = {k: j for j, k in enumerate(keys)}
    played = np.zeros((len(results), len(keys)))
    won = np.zeros((len(results), len(keys)))
    units = np.zeros(len(results))
    wins = np.zeros(len(results))
    for g, r in enumerate(results):
        if cooperative:
            seats = [{k for c in r[field] for k, v in c.items() if v}]
            outcome = [team_result(r)[0]]
        else:
            winner = _sole(r)
            seats = [{k for k, v in c.items() if v} for c in r[field]]
            outcome = [winner == s for s in range(len(seats))]
        for keyset, w in zip(seats, outcome, strict=True):
            units[g] += 1
            wins[g] += w
            for k in keyset:
                j = index.get(k)
                if j is not None:
                    played[g, j] += 1
                    won[g, j] += w
    return played, won, units, wins


def _outliers(rows: list[dict[str, Any]], results: Sequence[Mapping[str, Any]], field: str,
              cooperative: bool, seed: int = 0) -> float | None:
    """Mark the keys whose difference stands out from the typical key's: a two-sided z-test of
    ``difference - typical``, Holm-adjusted over the table. The typical difference is the
    median over the keys that have one (three or more needed), each weighted by the units that
    played it, so that the many keys played once or twice (differences of +/- 80 points) do
    not set it. The standard error of ``difference - typical`` comes from a cluster bootstrap
    over games (:data:`BOOTSTRAP` replicates, games drawn with replacement, the typical
    recomputed in each): the seats of one game are not independent (in a zero-sum game one
    seat's win is the others' loss), and the typical is itself estimated, so a per-key
    interval alone would call noise an outlier (one null table in ten at 2 seats). With
    several bots the observed difference is the stratified one and its standard error the
    bootstrap's of the pooled difference. Sets ``p_outlier_holm`` and ``outlier``
    (``"stronger than most"``, ``"weaker than most"`` or ``None``) on every row; returns the
    typical difference."""
    have = [r for r in rows if r["difference"] is not None and r["difference_ci"]]
    typical = (weighted_median([r["difference"] for r in have], [r["units"] for r in have])
               if len(have) >= 3 else None)
    p_values: list[float | None] = [None] * len(rows)
    if typical is not None:
        keys = [r["key"] for r in have]
        played, won, units, wins = _game_counts(results, field, cooperative, keys)
        rng = np.random.default_rng(seed)
        g = len(results)
        chunks = []
        for start in range(0, BOOTSTRAP, 50):  # 50 replicates at a time: memory 50 x games
            w = rng.multinomial(g, np.full(g, 1 / g), size=min(50, BOOTSTRAP - start))
            w = w.astype(float)
            n, k = w @ played, w @ won
            n_rest, k_rest = (w @ units)[:, None] - n, (w @ wins)[:, None] - k
            with np.errstate(divide="ignore", invalid="ignore"):
                chunks.append((k / n - k_rest / n_rest, n))
        diff = np.vstack([c[0] for c in chunks])
        n = np.vstack([c[1] for c in chunks])
        deltas = np.full_like(diff, np.nan)
        for b in range(BOOTSTRAP):
            ok = np.isfinite(diff[b]) & (n[b] > 0)
            if ok.sum() >= 3:
                deltas[b, ok] = diff[b, ok] - weighted_median(diff[b, ok], n[b, ok])
        with np.errstate(invalid="ignore"):
            se = np.nanstd(deltas, axis=0)
        position = {id(r): j for j, r in enumerate(have)}
        for i, r in enumerate(rows):
            j = position.get(id(r))
            if j is None or not np.isfinite(se[j]):
                continue
            gap = abs(r["difference"] - typical)
            if se[j] > 0:
                p_values[i] = float(2 * sps.norm.sf(gap / se[j]))
            else:  # the same in every replicate: no doubt either way
                p_values[i] = 1.0 if gap < 1e-12 else 0.0
    for r, adjusted in zip(rows, holm(p_values), strict=True):
        r["typical_difference"] = typical
        r["p_outlier_holm"] = adjusted
        r["outlier"] = (None if adjusted is None or adjusted >= ALPHA else
                        "stronger than most" if r["difference"] > typical else
                        "weaker than most")
    return typical


def _keys_section(results: Sequence[Mapping[str, Any]], field: str, cooperative: bool,
                  base: float | None) -> dict[str, Any]:
    rows, strata = _key_table(results, field, cooperative)
    stratified = strata > 1
    return {
        "unit": "game" if cooperative else "(game, seat)",
        "base_win_rate": base,
        "keys": rows,
        "typical_difference": rows[0]["typical_difference"] if rows else None,
        "flagged": [row["key"] for row in rows if row["flag"]],
        "outliers": [row["key"] for row in rows if row["outlier"]],
        "method": ("win rate of the units that played the key vs those that did not, "
                   + ("within each " + ("line-up" if cooperative else "bot") + ": "
                      "Mantel-Haenszel difference (Sato interval), Cochran-Mantel-Haenszel "
                      "test" if stratified else "Newcombe interval, Fisher exact test")
                   + "; Holm-adjusted over the table at 5%. Outliers: the keys whose "
                   "difference differs from the median key's (z-test with a cluster-bootstrap "
                   "standard error over games, Holm-adjusted)"),
    }


# ----------------------------------------------------------------------- eliminations
def elimination_groups(eliminations: Sequence[Sequence[int]]) -> list[list[tuple[int, int]]]:
    """A game's eliminations (``[[seat, length], ...]`` in order) as groups of seats knocked
    out together: consecutive entries with the same length fell in the same resolution (the
    same round or turn) and are tied; the groups in order, each ``[(seat, length), ...]``."""
    groups: list[list[tuple[int, int]]] = []
    for seat, length in eliminations:
        if groups and groups[-1][0][1] == length:
            groups[-1].append((int(seat), int(length)))
        else:
            groups.append([(int(seat), int(length))])
    return groups


def _eliminations(results: Sequence[Mapping[str, Any]], players: int,
                  seat_names: Sequence[str]) -> dict[str, Any] | None:
    """Elimination order and timing, how games ended, and whether the last elimination
    decided the winner (competitive games with eliminations). Seats knocked out by the same
    resolution are tied: they share their place in the order (each counted there)."""
    with_elim = [r for r in results if r["eliminations"]]
    if not with_elim:
        return None
    n = len(results)
    grouped = [elimination_groups(r["eliminations"]) for r in with_elim]
    order: list[dict[str, Any]] = []
    for position in range(players):
        at = [g[position] for g in grouped if len(g) > position]
        if not at:
            break
        by_seat = Counter(seat for group in at for seat, _ in group)
        order.append({"position": position + 1, "games": len(at),
                      "tied": sum(1 for group in at if len(group) > 1),
                      "length": _describe([float(group[0][1]) for group in at]),
                      "by_seat": {str(seat_names[s]): by_seat.get(s, 0) for s in range(players)}})
    seats = []
    for s in range(players):
        rounds = [float(length) for r in results for seat, length in r["eliminations"]
                  if seat == s]
        firsts = [g[0] for g in grouped if any(seat == s for seat, _ in g[0])]
        seats.append({"seat": s, "name": str(seat_names[s]),
                      "eliminated": rate(len(rounds), n), "first_out": rate(len(firsts), n),
                      "first_out_tied": sum(1 for group in firsts if len(group) > 1),
                      "mean_length": float(np.mean(rounds)) if rounds else None})
    ended: Counter[str] = Counter()
    decided = eligible = 0
    for r in results:
        out = len(r["eliminations"])
        if r["truncated"]:
            ended["truncated"] += 1
        elif out == players - 1:
            ended["last survivor"] += 1
        elif out == players:
            ended["all remaining fell together"] += 1
        else:
            ended["other"] += 1
        winner, before = _sole(r), r.get("leader_before_final")
        if not r["truncated"] and out and winner is not None and before is not None:
            eligible += 1
            decided += winner != before
    return {
        "games_with_elimination": rate(len(with_elim), n),
        "ties": "seats knocked out in the same round or turn are tied: each counts in that "
                "place of the order (first out: alone or tied)",
        "order": order,
        "seats": seats,
        "ended_by": {how: {"count": k, "rate": k / n} for how, k in ended.most_common()},
        "last_elimination_decided": {
            **rate(decided, eligible),
            "meaning": "share of games (not truncated, a sole winner, a sole score leader "
                       "going into the final round) won by a seat that was not leading going "
                       "into the final round: the last elimination decided the winner",
        },
    }


# ------------------------------------------------------------------------------- main
def diagnose(results: Sequence[Mapping[str, Any]], *, players: int,
             seat_names: Sequence[str], cooperative: bool = False) -> dict[str, Any]:
    """The diagnostics of a playtest run (the summary's ``"diagnostics"`` key).

    Args:
        results: the per-game result dicts (at least one), with the trace fields when
            available.
        players: seats per game (>= 1); ``seat_names``: one name per seat.
        cooperative: the game is won or lost as a team (per-key units are games, and the
            competitive-only parts are ``None``).
    Returns:
        A JSON-ready dict: ``traced`` (bool), ``draws`` and ``truncation`` (``rate`` dicts:
        ``k``, ``n``, ``rate``, ``ci_low``, ``ci_high``; ``draws`` is ``None`` in a co-op),
        ``first_seat`` (seat 0's sole-win rate, ``advantage`` over the fair share with
        ``advantage_ci``, ``p_value``; ``None`` in a co-op or with one seat), ``margin``
        (winning margins, see :func:`margins`: n, mean, std, min, p10, median, p90, max;
        ``None`` without sole wins),
        ``lead_changes`` (``mean``, ``share_with_change``, ``distribution`` {changes: games},
        the quantiles; ``None`` untraced or co-op), ``actions`` and ``cards`` (per-key tables,
        see the module docstring; ``None`` untraced or when nothing was keyed) and
        ``eliminations`` (order, per-seat rates, ``ended_by``, ``last_elimination_decided``;
        ``None`` untraced, co-op or without eliminations).
    Raises:
        ValueError: if ``results`` is empty or ``seat_names`` does not have ``players``
            entries.
    """
    if not results:
        raise ValueError("no games to diagnose: the results list is empty")
    if len(seat_names) != players:
        raise ValueError(f"{len(seat_names)} seat names given for {players} players")
    n = len(results)
    traced = is_traced(results)
    draws = sum(1 for r in results if _sole(r) is None)
    fair = (1.0 - draws / n) / players
    competitive = not cooperative and players > 1
    out: dict[str, Any] = {
        "traced": traced,
        "draws": None if cooperative else rate(draws, n),
        "truncation": rate(sum(1 for r in results if r["truncated"]), n),
        "first_seat": _first_seat(results, players, seat_names, fair) if competitive else None,
        "margin": _describe(margins(results)) if competitive else None,
        "lead_changes": None, "actions": None, "cards": None, "eliminations": None,
    }
    if not traced:
        return out
    if competitive:
        changes = [int(r["lead_changes"]) for r in results]
        dist = Counter(changes)
        out["lead_changes"] = {
            **(_describe(changes) or {}),
            "share_with_change": rate(sum(1 for c in changes if c), n),
            "distribution": {str(k): dist[k] for k in sorted(dist)},
        }
        out["eliminations"] = _eliminations(results, players, seat_names)
    base = (sum(1 for r in results if team_result(r)[0]) / n if cooperative else fair)
    if any(counts for r in results for counts in r["actions"]):
        out["actions"] = _keys_section(results, "actions", cooperative, base)
    if any(counts for r in results for counts in r["cards"]):
        out["cards"] = _keys_section(results, "cards", cooperative, base)
    return out
