"""Toward a target (issue 21, section 8, ``meeple study --target``): search the game's
parameters for settings whose bot games meet a designer's target, then confirm the best.

A target is comma-separated clauses (:func:`parse_target`)::

    mean_rounds=20..30, seat_spread<0.05, draw_rate<=5%

each ``METRIC=LO..HI``, ``METRIC<X``, ``METRIC<=X``, ``METRIC>X``, ``METRIC>=X`` or
``METRIC=X``; ``METRIC=X`` means within a tolerance of X: +/- :data:`SHARE_TOLERANCE` (two
points) for a share, +/- :data:`COUNT_TOLERANCE` (5%) of X, at least 0.5, for a count. Shares
may be written as fractions (``0.05``) or percentages (``5%``). The metrics
(:data:`METRICS`; computed by :mod:`meeple.lab.analysis.target_metrics` from the runner's
results, with the same definitions as :func:`meeple.lab.analysis.stats.summarize`):

* ``mean_rounds`` (alias ``mean_length``): mean game length in the game's
  ``capabilities.length_unit`` (rounds, turns...); ``p90_rounds`` (alias ``p90_length``): its
  90th percentile (numpy, linear);
* ``mean_decisions``: mean decisions per game, every seat's actions (from the runner's trace);
* ``seat_spread``: the most-winning seat's sole-win share minus the least-winning seat's
  (a share; competitive games only);
* ``first_seat_edge``: seat 1's sole-win share minus the fair share ``(1 - draw_rate) /
  players`` (a share, may be negative; competitive games only);
* ``draw_rate``: share of games without a sole winner; ``truncated_rate``: share of games
  that hit the length cap; ``team_win_rate``: share of team wins (co-operative games only).

:func:`search_target` runs an optuna search (seeded multivariate ``TPESampler``) over the
game's declared parameters: each trial plays a small batch of games on the same seeds with the
study's fairness bots and scores its distance to the target (:meth:`Target.distance`: 0 when
every clause is met; a trial's ``seat_spread`` is scored net of the spread equal seats show in
as many games, :func:`~meeple.lab.analysis.target_metrics.equal_seats_spread`, else noise would
send the search to settings where every game is a draw). The first trial is the default
settings. Unless the target names ``truncated_rate`` itself, a guard clause
``truncated_rate<=0.05`` is added (a length target met by cutting games at a low ``max_rounds``
is not met), and a target on ``seat_spread`` or ``first_seat_edge`` that does not name
``draw_rate`` gets ``draw_rate<=0.5`` (seats are equal in games nobody wins: a search found
settings where every game is a draw and the spread is 0); a guard counts as met unless its
interval lies wholly outside it, so it never leaves a setting undecided. The best distinct
settings are then confirmed on fresh seeds with more games, each a stored run, and every clause
gets a verdict from its 95% interval (:mod:`meeple.lab.analysis.target_metrics`): *met* when
the interval lies inside the clause's range, *not met* when it lies outside, else *too few
games to tell*.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import optuna

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.engine.rng import derive_seed
from meeple.lab.analysis.target_metrics import (
    METRICS,
    UNAVAILABLE,
    equal_seats_spread,
    metric_intervals,
    target_metrics,
)
from meeple.lab.analysis.target_spec import (
    ALIASES,
    COUNT_TOLERANCE,
    GUARDS,
    SHARE_TOLERANCE,
    Clause,
    Target,
    parse_target,
)
from meeple.lab.analysis.verdicts import target_answer
from meeple.lab.experiments.compare import check_arms, fairness_bots
from meeple.lab.experiments.stored_run import play_stored
from meeple.lab.experiments.sweep import parse_param
from meeple.lab.run.backends import resolve_jobs
from meeple.lab.run.estimate import game_seconds
from meeple.lab.run.runner import play_one

__all__ = ["ALIASES", "COUNT_TOLERANCE", "GUARDS", "METRICS", "SHARE_TOLERANCE",
           "TARGET_FORMAT", "Clause", "Dimension", "Target", "parse_target", "search_space",
           "search_target"]

TARGET_FORMAT = "meeple-target/1"
#: Share of the budget the search gets; the rest confirms its best settings.
SEARCH_SHARE = 0.6
#: Trials the batch size is chosen for (more are played while the search share lasts).
TRIALS_WANTED = 30
#: Games per trial at most; confirmed settings at most.
TRIAL_GAMES_MAX, CONFIRM_GAMES_MAX = 200, 5000
#: Settings confirmed at most.
CONFIRM = 3
#: A stored, summarised game costs this many times a trial game, plus this per stored run.
STORE_OVERHEAD, RUN_OVERHEAD = 1.5, 0.5
#: Random trials before TPE models the results (optuna's default is 10: too many for a
#: search of 20-30 trials).
STARTUP_TRIALS = 5
#: Consecutive repeated settings after which the (small) space counts as exhausted.
REPEATS = 40

# ------------------------------------------------------------------------------ space
@dataclass(frozen=True)
class Dimension:
    """One searched parameter: ``kind`` ``int`` (``low..high`` inclusive), ``bool`` or
    ``choice`` (``choices``), and its ``default``."""

    name: str
    kind: str
    default: int | bool | str
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()


def search_space(game: Game, params: Sequence[str] | None = None) -> list[Dimension]:
    """The parameters searched for ``game``.

    Args:
        params: entries ``NAME`` (its default range), ``NAME=LO..HI`` (an int range) or
            ``NAME=V1,V2,...`` (those values, a choice); None: every int, bool and
            choice-of-text parameter the game declares.
    Returns:
        One :class:`Dimension` per parameter, its ``default`` the loaded game's value (the
        variant's). An int's default range is that value +/- ``max(3, 2 * |value|)``, within
        its declared bounds (``start_energy`` 100 in 1..100000 searches 1..300); a bool
        searches both values, a text parameter its choices.
    Raises:
        ParameterError: an unknown name (listing the known ones), a free-text parameter
            without values, a range outside the declared bounds, or nothing to search.
    """
    declared = {p.name: p for p in type(game).parameters}
    entries = list(params) if params is not None else [
        p.name for p in declared.values() if p.kind in (int, bool) or p.choices]
    out: list[Dimension] = []
    for entry in entries:
        name, _, given = entry.partition("=")
        name = name.strip()
        p = declared.get(name)
        if p is None:
            raise ParameterError(f"{game.name} has no parameter {name!r}; parameters: "
                                 f"{', '.join(declared) or 'none'}")
        now = game.params[name]
        if given and p.kind is int and ".." in given:
            lo_text, _, hi_text = given.partition("..")
            low, high = (int(p.validate(t)) for t in (lo_text, hi_text))
            if low > high:
                raise ParameterError(f"parameter range {entry!r}: {low} is above {high}")
            out.append(Dimension(name, "int", now, low, high))
        elif given:
            values = tuple(dict.fromkeys(p.validate(v) for v in parse_param(entry)[1]))
            out.append(Dimension(name, "choice", now, choices=values))
        elif p.kind is bool:
            out.append(Dimension(name, "bool", now))
        elif p.kind is int:
            span = max(3, 2 * abs(int(now)))
            low = int(now) - span if p.minimum is None else max(p.minimum, int(now) - span)
            high = int(now) + span if p.maximum is None else min(p.maximum, int(now) + span)
            out.append(Dimension(name, "int", now, low, high))
        elif p.choices:
            out.append(Dimension(name, "choice", now, choices=tuple(p.choices)))
        else:
            raise ParameterError(f"parameter {name!r} is free text: give its values as "
                                 f"{name}=V1,V2")
    if not out:
        raise ParameterError(f"{game.name} has no parameter to search")
    return out


def _suggest(trial: optuna.Trial, dims: Sequence[Dimension]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for d in dims:
        if d.kind == "int":
            settings[d.name] = trial.suggest_int(d.name, d.low, d.high)
        elif d.kind == "bool":
            settings[d.name] = trial.suggest_categorical(d.name, [False, True])
        else:
            settings[d.name] = trial.suggest_categorical(d.name, list(d.choices))
    return settings


def label(settings: Mapping[str, Any]) -> str:
    """``"damage=4, attack_cost=2"`` (bools as true/false); ``"default rules"`` when empty."""
    if not settings:
        return "default rules"
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in settings.items())


# ----------------------------------------------------------------------------- search
Trial = dict[str, Any]


def _check_metrics(goal: Target, game: Game) -> None:
    coop = game.capabilities.cooperative
    for name in goal.metrics():
        needs = METRICS[name]["games"]
        if (needs == "competitive" and (coop or game.players < 2)) or (
                needs == "cooperative" and not coop):
            raise ParameterError(f"target metric {name} is {UNAVAILABLE[needs]}; "
                                 f"{game.name} with {game.players} players is "
                                 f"{'co-operative' if coop else 'competitive'}")


def _noise_notes(goal: Target, games: int, players: int) -> list[str]:
    """A note per share clause narrower than a trial can measure: two standard errors of a
    share at ``games`` games (of a seat's share, ``1 / players``, for the seat metrics; of a
    half share for the others, the widest) against the clause's :meth:`Clause.scale`."""
    notes = []
    for c in goal.clauses:
        if c.guard or not METRICS[c.metric]["share"]:
            continue
        p = 1 / players if c.metric in ("seat_spread", "first_seat_edge") else 0.5
        noise = 2 * math.sqrt(p * (1 - p) / games)
        if noise > c.scale():
            notes.append(f"{c.text}: a trial of {games} games measures {c.metric} within about "
                         f"+/-{noise:.2f}, more than the clause's scale ({c.scale():g}); the "
                         "search cannot tell settings this close apart, the confirmations "
                         "(more games) decide")
    return notes


def _play_trial(game: Game, bots: Sequence[str], games: int, seed: int, limit: float
                ) -> tuple[list[dict[str, Any]], bool]:
    """Up to ``games`` games in this process, game by game: ``(results, cut short)``. Cut
    short (after at least one game) once ``limit`` seconds have passed, or once two games
    and more than half of those played hit the length cap (a stalling setting: its games are
    the slowest, and the truncation guard rules it out anyway)."""
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    stalled = 0
    for index in range(games):
        if results and (time.perf_counter() - start > limit
                        or (stalled >= 2 and 2 * stalled > len(results))):
            return results, True
        results.append(play_one(game, bots, seed, index))
        stalled += bool(results[-1]["truncated"])
    return results, False


def _inside(d: Dimension, value: Any) -> bool:
    if d.kind == "int":
        return d.low <= value <= d.high
    return d.kind == "bool" or value in d.choices


def _clause_json(c: Clause) -> dict[str, Any]:
    return {"text": c.text, "metric": c.metric, "guard": c.guard,
            "low": c.low if math.isfinite(c.low) else None,
            "high": c.high if math.isfinite(c.high) else None,
            "strict_low": c.strict_low, "strict_high": c.strict_high}


def search_target(game_name: str, target: str | Target, variant: str | None = None,
                  players: int | None = None, bots: Sequence[str] | None = None,
                  budget_seconds: float = 60.0, jobs: int = 1, seed: int = 0,
                  params: Sequence[str] | None = None, *, out_dir: str | Path,
                  on_trial: Callable[[Trial], None] | None = None,
                  fixed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Search ``game_name``'s parameters for settings that meet ``target``, then confirm the
    best on fresh seeds (module docstring for the rules).

    The search gets :data:`SEARCH_SHARE` of the budget: trials of ``trial_games`` games each
    (sized so that about :data:`TRIALS_WANTED` trials fit, from a timed probe game; at least
    two rotations of the seats, at most :data:`TRIAL_GAMES_MAX`), played in this process on the
    same seeds (settings are compared on equal deals), the clock checked between trials; a
    trial running over twice the median trial's time, or whose games mostly hit the length cap,
    is cut short (``cut``, :func:`_play_trial`) and scored on the games it played. A setting
    already played is not played again. Then up to :data:`CONFIRM` distinct settings, those
    that met the target (else the closest), best first, are each played into
    ``out_dir/target-K`` (a stored run: ``meeple report DIR``, ``meeple replay DIR`` work) with
    as many games as the rest of the budget holds (at least as many as a trial, at most
    :data:`CONFIRM_GAMES_MAX`, on ``jobs`` workers); the best setting is confirmed even when
    that overruns the budget, the others only when they fit.

    Args:
        game_name, variant, players: the game as loaded (None: its defaults).
        target: text for :func:`parse_target`, or a :class:`Target`.
        bots: the line-up (None: :func:`~meeple.lab.experiments.compare.fairness_bots`).
        budget_seconds: the whole search's time (> 0); jobs: workers of the confirmations
            (0: every core); seed: the trials' seed (confirmations derive theirs from it).
        params: what varies (:func:`search_space`; None: every int, bool and choice
            parameter).
        out_dir: the folder of the confirmation runs (created).
        on_trial: called with each trial entry once it is scored.
        fixed: parameter overrides of the game every trial keeps (a custom deck...), under
            the varied ones.
    Returns:
        JSON-ready: ``format``, ``game``, ``variant``, ``players``, ``bots``, ``target``
        (text), ``clauses`` (with the guard), ``space``, ``seed``, ``budget``,
        ``elapsed_seconds``, ``search_seconds``, ``trial_games``, ``trials`` (every trial:
        ``number``, ``settings``, ``changes`` (the settings that differ from the loaded game),
        ``label``, ``metrics``, ``distance``, ``met``, ``games``, ``cut``, ``seconds``, or
        ``error``), ``confirmed`` (per setting: ``settings``, ``label``, ``dir``, ``games``,
        ``seed``, ``clauses`` (each with ``value``, ``interval``, ``method``, ``verdict``),
        ``met``), ``entries`` (one study entry per confirmed setting: ``question``,
        ``answer``, ``interval`` (of the first share clause, else None), ``interval_of``,
        ``verdict`` such as "start_energy=50 meets mean_rounds=20..30 (25.4, 24.9-25.9)",
        ``decided``, ``dirs``), ``best`` (the first confirmed setting that meets every clause,
        else the one meeting most, then closest; None when nothing was confirmed), ``met``
        (whether ``best`` meets every clause), ``default`` (the trial of the loaded game's own
        settings, trial 0) and ``notes``.
    Raises:
        ParameterError: a bad target or parameter list, a metric the game cannot give
            (``team_win_rate`` of a competitive game...), an unknown bot, budget <= 0.
        MeepleError: an unknown game or variant.
    """
    began = time.perf_counter()
    if budget_seconds <= 0:
        raise ParameterError(f"budget {budget_seconds} s must be more than zero")
    goal = (parse_target(target) if isinstance(target, str) else target).with_guard()
    base = load_game(game_name, variant=variant, players=players, **(fixed or {}))
    _check_metrics(goal, base)
    dims = search_space(base, params)
    lineup = list(bots) if bots else fairness_bots(base)
    check_arms([(base.variant, base)], lineup)
    coop = base.capabilities.cooperative
    per_seat = 1 if coop else base.players
    least = -(-max(8, 2 * per_seat) // per_seat) * per_seat
    per_game = max(1e-4, game_seconds(base, lineup, seed, 1.0)[0])
    search_end = began + budget_seconds * SEARCH_SHARE
    fits = (search_end - time.perf_counter()) / (per_game * TRIALS_WANTED)
    trial_games = max(least, min(TRIAL_GAMES_MAX, int(fits)) // per_seat * per_seat)
    notes = _noise_notes(goal, trial_games, base.players)

    with warnings.catch_warnings():  # multivariate TPE is marked experimental
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                             n_startup_trials=STARTUP_TRIALS)
    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.create_study(direction="minimize", sampler=sampler)
        study.enqueue_trial({d.name: d.default for d in dims if _inside(d, d.default)})
        trials = _search(study, dims, goal, game_name, base, lineup, trial_games, seed,
                         per_game, search_end, on_trial)
    finally:
        optuna.logging.set_verbosity(verbosity)
    search_seconds = time.perf_counter() - began

    scored = sorted((t for t in trials if "error" not in t),
                    key=lambda t: (t["distance"] is None, t["distance"] or 0.0, t["number"]))
    picks = ([t for t in scored if t["met"]] or scored)[:CONFIRM]
    if not any(t["met"] for t in scored):
        notes.append(f"no trial met the target in {len(trials)} trials; the closest settings "
                     "are confirmed")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    confirmed = []
    end = began + budget_seconds
    for k, trial in enumerate(picks):
        per = trial["seconds"] / max(1, trial["games"]) * STORE_OVERHEAD
        share = (end - time.perf_counter()) / (len(picks) - k) - RUN_OVERHEAD
        games = min(CONFIRM_GAMES_MAX, int(share * resolve_jobs(jobs) / per)) // per_seat \
            * per_seat
        if games < trial_games:
            if confirmed:
                notes.append(f"{len(picks) - k} more setting(s) left unconfirmed: the budget "
                             "is spent")
                break
            games = trial_games
            notes.append("the budget left too little to confirm the best setting with more "
                         "games than a trial: it was confirmed with a trial's games anyway")
        confirmed.append(_confirm(trial, goal, game_name, base, lineup, games,
                                  derive_seed(seed, "target-confirm", k) & 0x7FFFFFFF,
                                  out, f"target-{k + 1}", jobs))
    unit = base.capabilities.length_unit
    ranked = sorted(confirmed, key=lambda c: (not c["met"], -c["clauses_met"],
                                                 math.inf if c["distance"] is None
                                                 else c["distance"]))
    entries = [target_answer(c, goal.text, unit) for c in confirmed]
    best = ranked[0] if ranked else None
    return {
        "format": TARGET_FORMAT, "game": base.name, "variant": base.variant,
        "players": base.players, "bots": lineup, "target": goal.text,
        "clauses": [_clause_json(c) for c in goal.clauses],
        "space": [asdict(d) for d in dims], "seed": seed, "budget": float(budget_seconds),
        "elapsed_seconds": time.perf_counter() - began, "search_seconds": search_seconds,
        "trial_games": trial_games, "length_unit": unit, "trials": trials,
        "confirmed": confirmed, "entries": entries,
        "best": None if best is None else {**best, "verdict": target_answer(best, goal.text,
                                                                     unit)["verdict"]},
        "met": bool(best and best["met"]), "notes": notes,
        "default": next((t for t in trials if t["number"] == 0 and not t["changes"]
                         and "error" not in t), None),
    }


def _search(study: optuna.Study, dims: Sequence[Dimension], goal: Target, game_name: str,
            base: Game, lineup: Sequence[str], games: int, seed: int, per_game: float,
            deadline: float, on_trial: Callable[[Trial], None] | None) -> list[Trial]:
    """The trial loop of :func:`search_target`: every trial entry, in order."""
    trials: list[Trial] = []
    seen: dict[tuple, float] = {}
    repeats, took = 0, []
    while len(trials) < 10_000 and repeats < REPEATS:
        expected = sorted(took)[len(took) // 2] if took else games * per_game
        if trials and time.perf_counter() + expected > deadline:
            break
        trial = study.ask()
        settings = _suggest(trial, dims)
        key = tuple(sorted((k, repr(v)) for k, v in settings.items()))
        if key in seen:
            study.tell(trial, seen[key])
            repeats += 1
            continue
        repeats = 0
        changes = {k: v for k, v in settings.items() if base.params[k] != v}
        entry: Trial = {"number": len(trials), "settings": settings, "changes": changes,
                        "label": label(changes)}
        start = time.perf_counter()
        try:
            game = load_game(game_name, variant=base.variant, players=base.players,
                             **{**base.params, **settings})  # base's overrides kept
        except ParameterError as exc:  # a combination the game refuses
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            seen[key] = math.inf
            trials.append({**entry, "error": str(exc)})
            continue
        results, cut = _play_trial(game, lineup, games, seed, max(0.5, 2 * expected))
        values = target_metrics(results, game.players, game.capabilities.cooperative)
        scored = dict(values)
        if "seat_spread" in values:  # net of the spread equal seats show in this many games
            scored["seat_spread"] = max(0.0, values["seat_spread"] - equal_seats_spread(
                len(results), game.players, values["draw_rate"], seed))
            entry["seat_spread_excess"] = scored["seat_spread"]
        distance = goal.distance(scored)
        seen[key] = distance if math.isfinite(distance) else 1e9
        study.tell(trial, seen[key])
        took.append(time.perf_counter() - start)
        entry.update(metrics=values, distance=distance if math.isfinite(distance) else None,
                     met=distance == 0, games=len(results), cut=cut, seconds=took[-1])
        trials.append(entry)
        if on_trial is not None:
            on_trial(entry)
    return trials


def _confirm(trial: Trial, goal: Target, game_name: str, base: Game, lineup: Sequence[str],
             games: int, seed: int, out: Path, key: str, jobs: int) -> dict[str, Any]:
    """One setting played into ``out/key`` and every clause judged from its interval."""
    game = load_game(game_name, variant=base.variant, players=base.players,
                     **{**base.params, **trial["settings"]})
    results, _ = play_stored(game, lineup, games, seed, out / key, jobs)
    intervals = metric_intervals(results, game.players, goal.metrics(),
                                 game.capabilities.cooperative, seed)
    clauses = []
    for c in goal.clauses:
        m = intervals[c.metric]
        clauses.append({**_clause_json(c), "value": m["value"], "interval": m["interval"],
                        "method": m["method"], "games": m["games"],
                        "verdict": c.verdict(m["interval"]) if m["value"] is not None
                        else "not met", **({"why": m["why"]} if "why" in m else {})})
    values = {c.metric: intervals[c.metric]["value"] for c in goal.clauses}
    distance = goal.distance(values)
    return {"settings": trial["settings"], "changes": trial["changes"],
            "label": trial["label"], "trial": trial["number"], "dir": key, "games": games,
            "seed": seed, "clauses": clauses,
            "clauses_met": sum(1 for c in clauses if c["verdict"] == "met"),
            "met": all(c["verdict"] == "met" for c in clauses),
            "distance": distance if math.isfinite(distance) else None}
