"""The skill ladder: how much playing better pays in a design (issue 7).

A ladder is a list of bot tiers from weak to strong, by default ``random``, the game's
``heuristic`` and ISMCTS at doubling budgets up to the game's default (``default_budgets``:
an eighth of it up to it, e.g. ``ismcts-25`` ... ``ismcts-200`` for 200). Each tier plays the
tier below it on the same game seeds; by default as many games a step as fit the whole
ladder into about ``LADDER_SECONDS`` on the run's estimate (``default_games``), so that
``meeple ladder GAME`` answers in about two minutes (issue 22):

- competitive games: one seat of the upper tier against ``players - 1`` seats of the lower
  tier, the upper seat rotated over every seat (game ``i`` puts it in seat ``i % players``, the
  playtest runner's rotation). The upper tier's *win share* (its return, ties shared, X-6) is
  compared with the fair share ``1 / players``; the step *pays* when the lower bound of its 95%
  Wilson interval is above the fair share. One strong seat among weaker ones is the question a
  designer asks ("does a good player win here?"), and it keeps a clean baseline at every seat
  count.
- cooperative games: each tier plays as the whole team on the same seeds; a step pays when the
  95% interval of the difference of the two team win rates (Newcombe's hybrid score interval)
  lies above zero.

The skill-depth summary counts how many search doublings still pay, in the spirit of Ludii's
SkillTrace (a bot with twice the search against its weaker self): a design where every
doubling pays rewards thinking; one where none does is close to a game of luck.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.lab.analysis.precision import EDGE_THAT_MATTERS
from meeple.lab.analysis.stats import difference_interval, wilson
from meeple.lab.run.backends import resolve_jobs
from meeple.lab.run.estimate import RunEstimate, Stage, estimate_run
from meeple.lab.run.runner import run_playtest

#: The ladder's search budgets as multiples of the game's default ISMCTS iterations (up to
#: the default: a tier above it, where every seat searches, costs as much as all below it).
BUDGET_SCALES = (0.125, 0.25, 0.5, 1)
#: The play time a default ladder aims at (``default_games``); with the estimate's probes
#: the whole command takes about two minutes.
LADDER_SECONDS = 80.0
#: Most games per step a default ladder plays (when the steps are quick).
MAX_GAMES = 60
LADDER_FORMAT = "meeple-ladder/1"


def default_budgets(game: Game) -> list[int]:
    """Doubling ISMCTS budgets (iterations per decision) up to the game's default
    (``Game.search["iterations"]``, else the bot's): ``BUDGET_SCALES`` times it, at least 1,
    e.g. ``[25, 50, 100, 200]`` for a default of 200."""
    from meeple.bots.ismcts import DEFAULTS

    base = int(game.search.get("iterations", DEFAULTS["iterations"]))
    return sorted({max(1, round(base * k)) for k in BUDGET_SCALES})


def default_games(game: Game, per_game: Sequence[float], workers: int,
                  seconds: float = LADDER_SECONDS, most: int = MAX_GAMES) -> int:
    """Games per step that fit a ladder into ``seconds``.

    Args:
        game: the game spec (its seat count is the unit: seats rotate once per that many).
        per_game: the estimated seconds of one game of each stage (``ladder_stages`` order).
        workers: worker processes playing each stage (>= 1).
        seconds: the play time to fit; most: the cap.
    Returns:
        The most games ``n``, a multiple of the seat count between one rotation of the seats
        and ``most``, whose stages take ``sum(ceil(n / workers) * per_game) <= seconds``;
        one rotation when even that does not fit.
    """
    unit = game.players
    n = max(unit, most - most % unit)
    workers = max(1, workers)
    while n > unit and sum(math.ceil(n / workers) * s for s in per_game) > seconds:
        n -= unit
    return n


def planned_ladder(game: Game, tiers: Sequence[str], jobs: int = 0, seed: int = 0,
                   seconds: float = LADDER_SECONDS) -> tuple[int, RunEstimate]:
    """The default games per step of a ladder of ``tiers`` (:func:`default_games` on each
    stage's probe games, :func:`~meeple.lab.run.estimate.estimate_run`) and the run's
    estimate at that many games.

    Raises:
        ParameterError: a tier that cannot play the game, jobs < 0.
    """
    probe = estimate_run(ladder_stages(game, tiers, 1), jobs, seed)
    per_game = probe.stage_seconds  # one game a stage: its seconds are one game's
    workers = max(1, min(resolve_jobs(jobs), os.cpu_count() or 1))
    games = default_games(game, per_game, workers, seconds)
    used = min(workers, games)
    stage_seconds = [math.ceil(games / used) * s for s in per_game]
    return games, RunEstimate(seconds=sum(stage_seconds), stage_seconds=stage_seconds,
                              workers=used, game_seconds=probe.game_seconds,
                              probe_seconds=probe.probe_seconds, basis=probe.basis)


def default_tiers(game: Game, budgets: Sequence[int] | None = None,
                  rollout: str = "") -> list[str]:
    """``random``, the game's ``heuristic`` if it has one, then ``ismcts-<b>`` per budget
    (``default_budgets(game)`` when None; ``ismcts-<b>-<rollout>`` when a rollout bot is
    named, else the game's own search settings)."""
    if budgets is None:
        budgets = default_budgets(game)
    tiers = ["random"]
    if "heuristic" in game.bot_factories():
        tiers.append("heuristic")
    suffix = f"-{rollout}" if rollout else ""
    return tiers + [f"ismcts-{b}{suffix}" for b in budgets]


def ladder_stages(game: Game, tiers: Sequence[str], games: int,
                  resume: dict[str, Any] | None = None) -> list[Stage]:
    """The ladder's stages in play order, for estimates and progress bars: per step
    (competitive; label ``"UPPER vs LOWER"``, line-up one upper and ``players - 1`` lower) or
    per tier (cooperative; label the tier, every seat that tier), each ``games`` games;
    ``reused`` when ``resume`` (an earlier ladder of the same run) already holds it."""
    if game.capabilities.cooperative:
        done = set((resume or {}).get("team", {}))
        return [Stage(tier, game, [tier], games, tier in done) for tier in tiers]
    done_steps = {(s["upper"], s["lower"]) for s in (resume or {}).get("steps", [])}
    return [Stage(f"{upper} vs {lower}", game, [upper] + [lower] * (game.players - 1), games,
                  (upper, lower) in done_steps)
            for lower, upper in zip(tiers, tiers[1:], strict=False)]


def run_ladder(game: Game, tiers: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
               on_progress: Callable[[int], None] | None = None,
               on_step: Callable[[dict[str, Any]], None] | None = None,
               resume: dict[str, Any] | None = None,
               on_stage: Callable[[int, bool], None] | None = None) -> dict[str, Any]:
    """Play every step of the ladder and summarise it.

    Args:
        game: the game spec.
        tiers: bot names from weakest to strongest (at least two).
        games: games per step (competitive) or per tier (cooperative), >= 1.
        seed: the playtest seed; every step uses the same game seeds.
        jobs: worker processes (0: one per core).
        on_progress: called with the number of games just finished (a reused step's games
            count as finished when it is reused).
        on_step: called after every step (competitive) or tier (cooperative) with the ladder
            so far (``complete`` False until the last), so a caller can save it.
        resume: a ladder returned (or saved) earlier, complete or not; its steps (or team
            tiers) that this ladder also has are reused instead of replayed. It must be of the
            same game, variant, seat count, parameters, seed and games per step.
        on_stage: called before each step (competitive) or tier (cooperative) with its index
            in :func:`ladder_stages` and whether it is reused (not played), so a caller can
            show a progress bar per step.
    Returns:
        The ladder as JSON-compatible data: ``format``, ``game``, ``variant``, ``players``,
        ``params``, ``seed``, ``games``, ``cooperative``, ``tiers``, ``complete``, ``steps``
        (one per adjacent pair: ``upper``, ``lower``, the measure and its interval, ``pays``,
        ``seconds``), ``team`` (cooperative: each tier's team win rate) and ``depth`` (the
        skill-depth summary, see :func:`skill_depth`).
    Raises:
        ParameterError: for fewer than two tiers, a repeated tier, an unknown bot, games < 1,
            or a ``resume`` ladder of another run.
    """
    if len(tiers) < 2:
        raise ParameterError("a ladder needs at least two tiers")
    if len(set(tiers)) != len(tiers):
        raise ParameterError(f"ladder tiers repeat: {', '.join(tiers)}")
    players = game.players
    coop = game.capabilities.cooperative
    out: dict[str, Any] = {
        "format": LADDER_FORMAT, **game.spec(), "seed": seed, "games": games,
        "cooperative": coop, "tiers": list(tiers), "complete": False, "steps": [],
    }
    done = _reusable(out, resume)

    def checkpoint() -> None:
        out["depth"] = skill_depth(out["steps"])
        if on_step is not None:
            on_step(out)

    if coop:
        team: dict[str, dict[str, Any]] = {}
        out["team"] = team
        for index, tier in enumerate(tiers):
            if on_stage is not None:
                on_stage(index, tier in done.get("team", {}))
            if tier in done.get("team", {}):
                team[tier] = done["team"][tier]
                if on_progress is not None:
                    on_progress(games)
            else:
                results, elapsed = run_playtest(game, [tier], games, seed, jobs,
                                                on_progress=on_progress)
                team[tier] = team_entry(results, elapsed)
            if len(team) > 1:
                out["steps"].append(_team_step(team, *list(team)[-2:], games))
            checkpoint()
    else:
        for index, (lower, upper) in enumerate(zip(tiers, tiers[1:], strict=False)):
            step = done.get("steps", {}).get((upper, lower))
            if on_stage is not None:
                on_stage(index, step is not None)
            if step is not None and on_progress is not None:
                on_progress(games)
            if step is None:
                lineup = [upper] + [lower] * (players - 1)
                results, elapsed = run_playtest(game, lineup, games, seed, jobs,
                                                on_progress=on_progress)
                step = competitive_step(results, upper, lower, players, elapsed)
            out["steps"].append(step)
            checkpoint()
    out["complete"] = True
    out["depth"] = skill_depth(out["steps"])
    return out


def competitive_step(results: Sequence[dict[str, Any]], upper: str, lower: str,
                     players: int, elapsed: float = 0.0) -> dict[str, Any]:
    """A competitive ladder step from its games (one ``upper`` seat, the rest ``lower``).

    Args:
        results: the step's results (each with ``bots``, ``returns``, ``length``,
            ``truncated``); at least one.
        upper, lower: the two tiers; players: seats; elapsed: the step's wall time.
    Returns:
        ``{"upper", "lower", "games", "upper_share", "fair_share", "ci", "pays", "verdict",
        "truncated", "mean_length", "seconds"}``: the upper tier's win share (its return,
        ties shared) with a 95% Wilson interval against the fair share ``1 / players``;
        ``pays`` when the interval's lower bound is above it; ``verdict`` ``"yes"``,
        ``"no"`` or ``"too few games to tell"`` (:func:`_verdict`).
    """
    games = len(results)
    fair = 1.0 / players
    share = sum(r["returns"][list(r["bots"]).index(upper)] for r in results)
    low, high = wilson(share, games)
    return {"upper": upper, "lower": lower, "games": games, "upper_share": share / games,
            "fair_share": fair, "ci": [low, high], "pays": low > fair,
            "verdict": _verdict(low > fair, low, high),
            "truncated": sum(1 for r in results if r["truncated"]) / games,
            "mean_length": sum(r["length"] for r in results) / games, "seconds": elapsed}


def team_entry(results: Sequence[dict[str, Any]], elapsed: float = 0.0) -> dict[str, Any]:
    """A cooperative tier's team result from its games (at least one): ``{"wins", "games",
    "rate", "ci" (95% Wilson), "seconds", "mean_length"}``."""
    games = len(results)
    wins = sum(1 for r in results if _team_won(r))
    low, high = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games, "ci": [low, high],
            "seconds": elapsed, "mean_length": sum(r["length"] for r in results) / games}


def team_step(team: dict[str, dict[str, Any]], lower: str, upper: str) -> dict[str, Any]:
    """The cooperative step ``upper`` vs ``lower`` from the two tiers' :func:`team_entry`
    results: the difference of team win rates with Newcombe's 95% interval; ``pays`` when
    it lies above zero."""
    return _team_step(team, lower, upper, team[upper]["games"])


def _team_step(team: dict[str, dict[str, Any]], lower: str, upper: str,
               games: int) -> dict[str, Any]:
    """The cooperative step ``upper`` vs ``lower`` from the two tiers' team results."""
    lo, hi = difference_interval(team[upper]["wins"], team[upper]["games"],
                                 team[lower]["wins"], team[lower]["games"])
    return {"upper": upper, "lower": lower, "games": games,
            "upper_rate": team[upper]["rate"], "lower_rate": team[lower]["rate"],
            "difference": team[upper]["rate"] - team[lower]["rate"], "ci": [lo, hi],
            "pays": lo > 0, "verdict": _verdict(lo > 0, lo, hi),
            "seconds": team[upper]["seconds"]}


def _verdict(pays: bool, low: float, high: float) -> str:
    """``"yes"`` when the step pays; ``"no"`` when it does not and its 95% interval is narrow
    enough to rule out an edge that matters (half-width at most
    :data:`~meeple.lab.analysis.precision.EDGE_THAT_MATTERS`, as ``playtest`` and ``study``
    decide); else ``"too few games to tell"``."""
    if pays:
        return "yes"
    return "no" if (high - low) / 2 <= EDGE_THAT_MATTERS else "too few games to tell"


#: The fields a resumed ladder must share with the new one.
_RUN_KEYS = ("format", "game", "variant", "players", "params", "seed", "games", "cooperative")


def _reusable(out: dict[str, Any], resume: dict[str, Any] | None) -> dict[str, Any]:
    """What of the earlier ladder ``resume`` the new ladder ``out`` can reuse:
    ``{"steps": {(upper, lower): step}}`` or ``{"team": {tier: result}}``.

    Raises:
        ParameterError: when ``resume`` is of another run (see ``_RUN_KEYS``).
    """
    if resume is None:
        return {}
    differ = [k for k in _RUN_KEYS if resume.get(k) != out[k]]
    if differ:
        raise ParameterError(
            "cannot resume a ladder of another run; it differs in "
            + ", ".join(f"{k} ({resume.get(k)!r}, now {out[k]!r})" for k in differ))
    if out["cooperative"]:
        return {"team": dict(resume.get("team", {}))}
    return {"steps": {(s["upper"], s["lower"]): s for s in resume.get("steps", [])}}


def _team_won(result: dict[str, Any]) -> bool:
    outcome = result.get("outcome") or {}
    if "team_win" in outcome:
        return bool(outcome["team_win"])
    return max(result["returns"]) > 0


def skill_depth(steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The skill-depth summary of ladder ``steps``.

    Returns:
        ``{"reached": the strongest tier reached by an unbroken chain of paying steps from the
        bottom, "paying_steps": how many steps pay, "search_doublings": steps between two
        ``ismcts`` tiers, "paying_doublings": how many of those pay, "undecided_steps": steps
        whose verdict is "too few games to tell", "text": one sentence}``.
    """
    reached = steps[0]["lower"] if steps else None
    for step in steps:
        if not step["pays"]:
            break
        reached = step["upper"]
    doublings = [s for s in steps if s["lower"].startswith("ismcts") and
                 s["upper"].startswith("ismcts")]
    paying = [s for s in doublings if s["pays"]]
    first_search = next((s for s in steps if s["upper"].startswith("ismcts")
                         and not s["lower"].startswith("ismcts")), None)
    parts = []
    if first_search is not None:
        verb = "beats" if first_search["pays"] else "does not clearly beat"
        parts.append(f"{first_search['upper']} {verb} {first_search['lower']}")
    if doublings:
        parts.append(f"{len(paying)} of {len(doublings)} search-budget steps pay")
        last = next((s for s in reversed(doublings) if s["pays"]), None)
        parts.append(f"the last that pays is {last['lower']} -> {last['upper']}" if last
                     else "no budget step pays")
    parts.append(f"an unbroken chain of paying steps reaches {reached}")
    undecided = [s for s in steps if s.get("verdict") == "too few games to tell"]
    if undecided:
        parts.append(f"{len(undecided)} of {len(steps)} steps had too few games to tell "
                     f"(their 95% intervals are wider than +/- "
                     f"{100 * EDGE_THAT_MATTERS:.0f} points; give --games for more)")
    return {"reached": reached, "paying_steps": sum(1 for s in steps if s["pays"]),
            "search_doublings": len(doublings), "paying_doublings": len(paying),
            "undecided_steps": len(undecided), "text": "; ".join(parts) + "."}
