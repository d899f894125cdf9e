"""Rule variants side by side: play each *arm* on the same seeds and test every difference.

An arm is a variant and/or parameter overrides of one game (``"variant=rulebook-2018"``,
``"start_energy=30,damage=5"``). Every arm plays the same number of games with the same
playtest seed, so game ``i`` of every arm has the same game seed and bots (the runner's
seeding); the arms still diverge as soon as their rules do, so they are compared as independent
samples. The first arm is the baseline; every other arm is compared with it.

Metrics (:func:`arm_metrics`) and their tests, all at 95% / 5%:

* shares (truncation, draws, each seat's sole-win rate, a co-op's team win rate and loss
  causes, the last elimination deciding the winner): the difference with Newcombe's hybrid
  score interval (:func:`meeple.lab.analysis.stats.difference_interval`), two-sided Fisher exact
  test;
* edges over a fair share (first-seat advantage; the skill edge: the skilled bot's sole-win
  rate per seat it played minus the fair share ``(1 - draw rate) / players``): the Newcombe
  interval of the rates shifted by the change in the fair share, Wald z-test of the difference
  of edges (the fair share taken as known);
* means (length, score, winning margin, lead changes, the first elimination): Welch's t-test and
  interval (``scipy.stats.ttest_ind(equal_var=False)``);
* the median length: percentile bootstrap interval of the difference of medians (1999
  resamples, seeded), Mood's median test (``scipy.stats.median_test``).

Multiple comparisons: a page tests dozens of differences, so a difference is *flagged* only when
its Holm-adjusted p-value (over every test on the page; Holm 1979, family-wise error 5%) is below
0.05. The intervals shown are the unadjusted 95% intervals.
"""

from __future__ import annotations

import inspect
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats as sps

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.lab.analysis.diagnostics import holm, margins
from meeple.lab.analysis.stats import (
    ALPHA,
    CONFIDENCE,
    _clean,
    difference_interval,
    seat_phrase,
    summarize,
    wilson_interval,
)
from meeple.lab.run.estimate import Stage
from meeple.lab.run.runner import run_playtest

__all__ = ["COMPARE_FORMAT", "Arm", "align_causes", "arm_metrics", "compare_arms",
           "compare_stages", "default_bots", "fairness_bots", "parse_arm", "play_arm",
           "run_compare", "skilled_bot"]

COMPARE_FORMAT = "meeple-compare/1"
_Z = float(sps.norm.ppf(0.5 + CONFIDENCE / 2))


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: ``variant`` (``None``: the game's default), ``players``
    (``None``: the default) and parameter overrides (text values, parsed by the game)."""

    label: str
    variant: str | None = None
    players: int | None = None
    params: dict[str, str] = field(default_factory=dict)

    def load(self, game_name: str) -> Game:
        """The arm's game spec. Raises: MeepleError for an unknown game, variant or
        parameter value."""
        return load_game(game_name, variant=self.variant, players=self.players, **self.params)


def parse_arm(text: str, *, variant: str | None = None, players: int | None = None) -> Arm:
    """An arm from ``"NAME=VALUE,NAME=VALUE"``; the names ``variant`` and ``players`` set those,
    every other name is a parameter. ``variant`` and ``players`` are the defaults.

    Raises:
        ParameterError: for an item without ``=``, an empty name or a non-integer players.
    """
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ParameterError(f"parameter set {text!r}: {item!r} must look like NAME=VALUE")
        if key == "variant":
            variant = value.strip()
        elif key == "players":
            try:
                players = int(value)
            except ValueError:
                raise ParameterError(f"parameter set {text!r}: players must be an integer"
                                     ) from None
        else:
            params[key] = value.strip()
    return Arm(label=text.strip() or (variant or "default"), variant=variant, players=players,
               params=params)


def default_bots(game: Game) -> list[str]:
    """The line-up that measures skill: the game's ``heuristic`` against ``random`` in a
    competitive game that has one; else the game's playtest line-up."""
    if not game.capabilities.cooperative and "heuristic" in game.bot_factories():
        return ["heuristic", "random"]
    return list(game.playtest_bots)


def check_arms(games: Sequence[tuple[str, Game]], bots: Sequence[str]) -> None:
    """Check, before any game is played, that every bot of ``bots`` can play every arm's game
    (``[(label, game), ...]``).

    Raises:
        ParameterError: naming the arm and the bot (and the bots that game has).
    """
    from meeple.bots import make_bot
    from meeple.engine.errors import MeepleError

    for label, game in games:
        for name in dict.fromkeys(bots):
            try:
                make_bot(name, game, 0, 0)
            except MeepleError as exc:
                raise ParameterError(f"arm {label!r}: {exc}") from None


def skilled_bot(bots: Sequence[str]) -> str | None:
    """The bot whose edge is the skill measure: the first name in ``bots`` other than
    ``random`` when the line-up mixes two or more names, else ``None``."""
    if len(set(bots)) < 2:
        return None
    return next((b for b in bots if b != "random"), None)


def play_arm(game: Game, bots: Sequence[str], games: int, seed: int, jobs: int,
             on_progress: Callable[[int], None] | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play one arm and summarise it: ``(summary with diagnostics, results)``."""
    results, elapsed = run_playtest(game, list(bots), games, seed, jobs,
                                    on_progress=on_progress)
    summary = summarize(
        results, game=game.name, variant=game.variant, players=game.players,
        params=dict(game.params), seed=seed, bots=list(bots),
        seat_names=list(game.seat_names()), length_unit=game.capabilities.length_unit,
        elapsed_seconds=elapsed, jobs=jobs, cooperative=game.capabilities.cooperative)
    summary["score"]["name"] = type(game).score_name
    return summary, results


# ---------------------------------------------------------------------------- metrics
def _share(label: str, k: int, n: int, group: str, **extra: Any) -> dict[str, Any]:
    return {"label": label, "kind": "share", "group": group, "k": int(k), "n": int(n),
            "value": k / n if n else None, **extra}


def _mean(label: str, values: Sequence[float], group: str, unit: str = "") -> dict[str, Any]:
    a = np.asarray(values, dtype=float)
    return {"label": label, "kind": "mean", "group": group, "unit": unit, "n": int(a.size),
            "value": float(a.mean()) if a.size else None, "values": a}


def arm_metrics(summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
                ) -> dict[str, dict[str, Any]]:
    """Every comparable metric of one arm, by name (``length``, ``length_median``,
    ``truncated``, ``draws``, ``seat:NAME``, ``first_seat``, ``skill_edge``, ``score``,
    ``margin``, ``lead_changes``, ``team_win``, ``loss:CAUSE``, ``first_elimination``,
    ``last_elimination_decided``, as the game has them).

    Each is a dict with ``label``, ``group`` (headline, seats, skill, outcomes, length, scores,
    team, eliminations), ``kind`` (``share``: ``k``, ``n``; ``edge``: ``k``, ``n``, ``fair``;
    ``mean``/``median``: ``values``, a numpy array, not JSON) and ``value`` (the point estimate;
    an edge's is ``k / n - fair``)."""
    n = len(results)
    unit = summary["length"]["unit"]
    d = summary.get("diagnostics") or {}
    coop = "team_win_rate" in summary
    lengths = [float(r["length"]) for r in results]
    out: dict[str, dict[str, Any]] = {
        "length": _mean(f"mean length ({unit})", lengths, "length", unit),
        "length_median": {**_mean(f"median length ({unit})", lengths, "length", unit),
                          "kind": "median", "value": float(np.median(lengths))},
        "truncated": _share("truncated (hit the length cap)",
                            sum(1 for r in results if r["truncated"]), n, "outcomes"),
    }
    fair = summary["fair_share"]
    if not coop:
        sole = [r["winners"][0] if len(r["winners"]) == 1 else None for r in results]
        out["draws"] = _share("draws (no sole winner)", sum(1 for w in sole if w is None), n,
                              "outcomes")
        if summary["players"] > 1:
            wins0 = sum(1 for w in sole if w == 0)
            out["first_seat"] = {**_share(f"first-seat advantage ({summary['seat_names'][0]})",
                                          wins0, n, "seats"), "kind": "edge", "fair": fair,
                                 "value": wins0 / n - fair}
        for e in summary["seat_win_rate"]:
            out[f"seat:{e['name']}"] = _share(f"{seat_phrase(e['name'])} win rate", e["wins"],
                                              e["games"], "seats")
        bot = skilled_bot(summary["bots"])
        entry = summary["bot_win_rate"].get(bot) if bot else None
        if entry and entry["pairs"]:
            out["skill_edge"] = {**_share(f"skill edge ({bot} over the fair share)",
                                          entry["wins"], entry["pairs"], "skill"),
                                 "kind": "edge", "fair": fair, "bot": bot,
                                 "value": entry["wins"] / entry["pairs"] - fair}
        out["margin"] = _mean(f"winning margin ({summary['score'].get('name', 'score')})",
                              margins(results), "scores")
        if d.get("lead_changes"):
            out["lead_changes"] = _mean("lead changes per game",
                                        [float(r["lead_changes"]) for r in results], "scores")
    else:
        team = summary["team_win_rate"]
        out["team_win"] = _share("team win rate", team["wins"], team["games"], "team")
        for cause, e in summary["loss_causes"].items():
            out[f"loss:{cause}"] = _share(f"lost to {cause}", e["count"], n, "team")
    out["score"] = _mean(f"mean {summary['score'].get('name', 'score')} per seat",
                         [float(x) for r in results for x in r["scores"]], "scores")
    elim = d.get("eliminations")
    if elim and not coop:
        firsts = [float(r["eliminations"][0][1]) for r in results if r["eliminations"]]
        out["first_elimination"] = _mean(f"first elimination ({unit})", firsts,
                                         "eliminations", unit)
        dec = elim["last_elimination_decided"]
        if dec["n"]:
            out["last_elimination_decided"] = _share(
                "last elimination decided the winner", dec["k"], dec["n"], "eliminations")
    return out


# -------------------------------------------------------------------------------- tests
def _bootstrap_median(a: np.ndarray, b: np.ndarray, seed: int) -> list[float] | None:
    """Percentile bootstrap 95% interval of ``median(b) - median(a)``."""
    if a.size < 2 or b.size < 2:
        return None

    def stat(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
        return np.median(x, axis=axis) - np.median(y, axis=axis)

    key = "rng" if "rng" in inspect.signature(sps.bootstrap).parameters else "random_state"
    res = sps.bootstrap((b, a), stat, n_resamples=1999, batch=50, method="percentile",
                        confidence_level=CONFIDENCE, vectorized=True,
                        **{key: np.random.default_rng(seed)})
    return [float(res.confidence_interval.low), float(res.confidence_interval.high)]


def _test(base: Mapping[str, Any], other: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """``{"difference", "ci", "p_value", "test"}`` of ``other - base`` (module docstring)."""
    kind = base["kind"]
    none = {"difference": None, "ci": None, "p_value": None}
    if base["value"] is None or other["value"] is None:
        return {**none, "test": "no data"}
    diff = other["value"] - base["value"]
    p: float | None
    if kind in ("share", "edge"):
        k1, n1, k2, n2 = other["k"], other["n"], base["k"], base["n"]
        low, high = difference_interval(k1, n1, k2, n2)
        shift = (other.get("fair", 0.0) - base.get("fair", 0.0)) if kind == "edge" else 0.0
        if kind == "share":
            p = float(sps.fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue)
            test = "Newcombe interval, Fisher exact test"
        else:
            p1, p2 = k1 / n1, k2 / n2
            se = float(np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2))
            p = float(2 * sps.norm.sf(abs(diff) / se)) if se > 0 else None
            test = "Newcombe interval shifted by the fair shares, Wald z-test"
        return {"difference": diff, "ci": [low - shift, high - shift], "p_value": p,
                "test": test}
    a, b = base["values"], other["values"]
    if kind == "median":
        ci = _bootstrap_median(a, b, seed)
        try:
            p = float(sps.median_test(b, a).pvalue)
        except ValueError:  # every value on the grand median
            p = None
        return {"difference": diff, "ci": ci, "p_value": p,
                "test": "bootstrap interval, Mood's median test"}
    if a.size < 2 or b.size < 2 or (a.std() == 0 and b.std() == 0):
        return {**none, "difference": diff, "test": "Welch t (too little variation)"}
    with warnings.catch_warnings():  # nearly constant samples: scipy warns, the test stands
        warnings.simplefilter("ignore", RuntimeWarning)
        res = sps.ttest_ind(b, a, equal_var=False)
        ci = res.confidence_interval(CONFIDENCE)
    return {"difference": diff, "ci": [float(ci.low), float(ci.high)],
            "p_value": float(res.pvalue), "test": "Welch t-test and interval"}


def compare_arms(arm_sets: Sequence[Mapping[str, Mapping[str, Any]]], seed: int = 0
                 ) -> list[dict[str, Any]]:
    """One row per metric of the baseline (``arm_sets[0]``), in its order: the JSON-ready
    ``values`` per arm (``None`` where an arm lacks the metric) and, per other arm, its
    ``comparisons`` entry (``difference``, ``ci``, ``p_value``, ``p_holm``, ``flag``, ``test``).
    Holm's adjustment runs over every test of the table."""
    rows: list[dict[str, Any]] = []
    for name, base in arm_sets[0].items():
        values = []
        for arm in arm_sets:
            m = arm.get(name)
            entry = None
            if m is not None:
                entry = {"value": m["value"], "n": m["n"]}
                if m["kind"] in ("share", "edge"):
                    e = wilson_interval(m["k"], m["n"]) if m["n"] else None
                    shift = m.get("fair", 0.0) if m["kind"] == "edge" else 0.0
                    entry.update(k=m["k"], ci=None if e is None else [e[0] - shift,
                                                                        e[1] - shift])
                    if m["kind"] == "edge":
                        entry["fair"] = m["fair"]
            values.append(entry)
        comparisons = []
        for arm in arm_sets[1:]:
            other = arm.get(name)
            comparisons.append(_test(base, other, seed) if other is not None and
                               other["kind"] == base["kind"] else
                               {"difference": None, "ci": None, "p_value": None,
                                "test": "not in this arm"})
        rows.append({"metric": name, "label": base["label"], "group": base["group"],
                     "kind": base["kind"], "unit": base.get("unit", ""), "values": values,
                     "comparisons": comparisons})
    flat = [c for row in rows for c in row["comparisons"]]
    for c, adjusted in zip(flat, holm([c["p_value"] for c in flat]), strict=True):
        c["p_holm"] = adjusted
        c["flag"] = adjusted is not None and adjusted < ALPHA
    return rows


def align_causes(metric_sets: Sequence[dict[str, dict[str, Any]]]) -> None:
    """Give every arm every loss cause seen in any arm (0 games where it never happened), so
    a cause that only one arm shows is still compared."""
    causes: dict[str, dict[str, Any]] = {}
    for metrics in metric_sets:
        for name, m in metrics.items():
            if name.startswith("loss:"):
                causes.setdefault(name, m)
    for metrics in metric_sets:
        n = metrics["truncated"]["n"]
        for name, m in causes.items():
            if name not in metrics:
                metrics[name] = _share(m["label"], 0, n, m["group"])


def _load_arms(game_name: str, arms: Sequence[Arm], bots: Sequence[str] | None, games: int
               ) -> tuple[list[Game], list[str]]:
    """Every arm's game, loaded and checked, and the line-up (errors as :func:`run_compare`'s)."""
    if len(arms) < 2:
        raise ParameterError("a comparison needs two or more arms (--variant or --param-set)")
    labels = [a.label for a in arms]
    if len(set(labels)) != len(labels):
        raise ParameterError(f"arms repeat: {', '.join(labels)}")
    if games < 1:
        raise ParameterError(f"games = {games} must be at least 1")
    loaded = [arm.load(game_name) for arm in arms]
    lineup = list(bots) if bots else default_bots(loaded[0])
    check_arms([(arm.label, game) for arm, game in zip(arms, loaded, strict=True)], lineup)
    return loaded, lineup


def compare_stages(game_name: str, arms: Sequence[Arm], *, bots: Sequence[str] | None = None,
                   games: int = 1000) -> list[Stage]:
    """The arms of :func:`run_compare` (same arguments) as stages in play order, for
    estimates and progress bars (label: the arm's label). Raises as :func:`run_compare`."""
    loaded, lineup = _load_arms(game_name, arms, bots, games)
    return [Stage(arm.label, game, lineup, games) for arm, game in zip(arms, loaded, strict=True)]


def run_compare(game_name: str, arms: Sequence[Arm], *, bots: Sequence[str] | None = None,
                games: int = 1000, seed: int = 0, jobs: int = 1,
                on_arm: Callable[[Arm, Game], Callable[[int], None] | None] | None = None
                ) -> dict[str, Any]:
    """Play every arm and compare each with the first.

    Args:
        game_name: a registered game.
        arms: two or more arms (labels unique).
        bots: the line-up for every arm (``None``: :func:`default_bots` of the first arm).
        games: games per arm (>= 1); seed: the playtest seed of every arm; jobs: workers.
        on_arm: called before each arm is played with the arm and its game; may return an
            ``on_progress`` callback for the runner.
    Returns:
        JSON-ready: ``format``, ``game``, ``bots``, ``games``, ``seed``, ``skilled_bot``,
        ``alpha``, ``confidence``, ``multiple_comparisons``, ``arms`` (per arm: ``label``,
        ``variant``, ``players``, ``params``, ``overrides``, ``length_counts`` {length: games}
        and ``summary``) and ``rows``
        (:func:`compare_arms`).
    Raises:
        ParameterError: fewer than two arms, repeated labels, games < 1, a bot that cannot
            play some arm (:func:`check_arms`).
        MeepleError: an arm's game cannot be loaded.
        Every arm is loaded and checked before the first game is played.
    """
    loaded, lineup = _load_arms(game_name, arms, bots, games)
    arms_out, metric_sets = [], []
    for arm, game in zip(arms, loaded, strict=True):
        progress = on_arm(arm, game) if on_arm else None
        summary, results = play_arm(game, lineup, games, seed, jobs, progress)
        metric_sets.append(arm_metrics(summary, results))
        lengths = Counter(int(r["length"]) for r in results)
        arms_out.append({"label": arm.label, "variant": game.variant, "players": game.players,
                         "params": dict(game.params), "overrides": dict(arm.params),
                         "length_counts": {str(k): lengths[k] for k in sorted(lengths)},
                         "summary": summary})
    align_causes(metric_sets)
    return _clean({
        "format": COMPARE_FORMAT, "game": loaded[0].name, "bots": lineup, "games": games,
        "seed": seed, "skilled_bot": skilled_bot(lineup), "alpha": ALPHA,
        "confidence": CONFIDENCE,
        "multiple_comparisons": "Holm (1979) step-down over every test in the table; a "
                                "difference is flagged when its adjusted p < 0.05",
        "arms": arms_out, "rows": compare_arms(metric_sets, seed),
        "team": any("team_win_rate" in a["summary"] for a in arms_out),
    })


def fairness_bots(game: Game) -> list[str]:
    """The bot in every seat of the fairness runs: ``heuristic`` when the game has one (equal
    players who play sensibly), else the game's playtest line-up."""
    return ["heuristic"] if "heuristic" in game.bot_factories() else list(game.playtest_bots)
