"""How long a lab run will take, measured before it starts (issue 18).

A run is a list of :class:`Stage` s (a ladder step, a compare arm, a sweep point): a game, a
bot line-up and a number of games. :func:`estimate_run` plays one *probe game* per distinct
game and line-up in this process (:func:`game_seconds`), timing every decision:

* an ISMCTS bot with more than ``PROBE_ITERATIONS`` iterations a move searches that many and
  its time is scaled up linearly (its cost is nearly linear in iterations); a time-limited one
  (``ismcts-0.5s``) counts its limit wherever it has a choice;
* the probe stops after ``budget`` seconds (3 by default); the rest of the game is
  extrapolated by the game's length reached against the length of a quick game played with
  ISMCTS cut to ``LENGTH_ITERATIONS`` iterations.

A stage then takes ``ceil(games / workers)`` probe games on ``workers = min(jobs, cores,
games)`` workers. It is an estimate: games vary in length, weak search at probe budgets may
play other games than the full budget, and a machine shared with other work runs slower; the
CLI prints the actual time after the run, and its progress bars' time left comes from the rate
of the games completed.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.bots import make_bot
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed
from meeple.lab.run.backends import resolve_jobs

__all__ = ["LENGTH_ITERATIONS", "PROBE_ITERATIONS", "RunEstimate", "Stage", "estimate_run",
           "format_duration", "game_seconds"]

#: ISMCTS bots with more iterations than this are timed at this many and scaled up.
PROBE_ITERATIONS = 10
#: Iterations a move of the ISMCTS bots in the probe games that measure a game's length.
LENGTH_ITERATIONS = 2


@dataclass
class Stage:
    """One part of a run: ``games`` games of ``game`` with the line-up ``bots`` (cycled over
    the seats, rotated), shown as ``label``; ``reused`` stages (a resumed ladder's finished
    steps) are not played and cost nothing."""

    label: str
    game: Game
    bots: list[str]
    games: int
    reused: bool = False


@dataclass
class RunEstimate:
    """The estimate: ``seconds`` for the whole run, ``stage_seconds`` per stage (0 for a
    reused one), ``workers`` used per stage, ``game_seconds`` (per line-up, comma-joined:
    the estimated seconds of one game), ``probe_seconds`` (how long measuring took) and
    ``basis`` (one phrase saying what it rests on)."""

    seconds: float
    stage_seconds: list[float]
    workers: int
    game_seconds: dict[str, float] = field(default_factory=dict)
    probe_seconds: float = 0.0
    basis: str = ""

    def line(self) -> str:
        """The one line printed before a run: ``estimate: about ... (basis)``."""
        return (f"estimate: about {format_duration(self.seconds)} on {self.workers} "
                f"worker{'s' if self.workers != 1 else ''} (a rough guess from {self.basis}; "
                f"measuring took {format_duration(self.probe_seconds)})")


def format_duration(seconds: float) -> str:
    """``0.4 s``, ``12 s``, ``3 min 05 s``, ``2 h 10 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _probe_bots(game: Game, names: Sequence[str], seed: int, iterations: int) -> list[Any]:
    """The line-up's bots, ISMCTS ones cut to at most ``iterations`` a move, no time limit."""
    agents = [make_bot(name, game, s, seed) for s, name in enumerate(names)]
    for agent in agents:
        if isinstance(getattr(agent, "iterations", None), int):
            agent.iterations = min(agent.iterations, iterations)
            agent.seconds = None
    return agents


def game_seconds(game: Game, bots: Sequence[str], seed: int = 0, budget: float = 3.0,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[float, bool]:
    """Estimate the seconds one game of ``game`` takes with the line-up ``bots`` (cycled over
    the seats), by playing a probe game.

    Every decision is timed; an ISMCTS bot above ``PROBE_ITERATIONS`` iterations searches
    that many and its time is scaled by ``iterations / PROBE_ITERATIONS``; a time-limited one
    (``ismcts-0.5s``) counts its limit wherever it has a choice. The probe stops after
    ``budget`` seconds (once the game's length is at least 1); the rest is extrapolated by
    the game's length (``State.length``) against a quick game with ISMCTS at
    ``LENGTH_ITERATIONS`` iterations.

    Returns:
        ``(seconds, extrapolated)``.
    """
    names = [bots[i % len(bots)] for i in range(game.players)]
    gseed = derive_seed(seed, "estimate", 0)
    agents = _probe_bots(game, names, gseed, PROBE_ITERATIONS)
    scale, limit = [], []
    for name in names:
        full = make_bot(name, game, 0, gseed)
        its, secs = getattr(full, "iterations", None), getattr(full, "seconds", None)
        limit.append(secs if isinstance(its, int) and secs else None)
        scale.append(its / PROBE_ITERATIONS if isinstance(its, int)
                     and its > PROBE_ITERATIONS else 1.0)
    state = game.new_initial_state(gseed)
    start, cost = clock(), 0.0
    while not state.is_terminal():
        if clock() - start >= budget and state.length() >= 1:
            break
        joint = {}
        for seat in state.current_players():
            legal = state.legal_actions(seat)
            t = clock()
            joint[seat] = agents[seat].act(state.view(seat), legal)
            took = clock() - t
            cost += limit[seat] if limit[seat] and len(legal) > 1 else took * scale[seat]
        state.apply_actions(joint)
    if state.is_terminal():
        return cost, False
    reached = state.length()
    quick = _probe_bots(game, names, gseed, LENGTH_ITERATIONS)
    state = game.new_initial_state(gseed)
    while not state.is_terminal():
        state.apply_actions({s: quick[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
    return cost * max(1.0, state.length() / reached), True


def estimate_run(stages: Sequence[Stage], jobs: int = 1, seed: int = 0, *,
                 budget: float = 3.0) -> RunEstimate:
    """Estimate the wall time of playing ``stages`` with ``jobs`` workers (0: every core).

    Args:
        stages: the run's stages, in order.
        jobs: workers per stage, as given to the runner.
        seed: seeds the probe games.
        budget: seconds of play per probe game (:func:`game_seconds`), one per distinct
            game and line-up.
    Returns:
        A :class:`RunEstimate` (see the module docstring for the method).
    Raises:
        ParameterError: a bot name that cannot play its stage's game.
    """
    start = time.perf_counter()
    cores = os.cpu_count() or 1
    probed: dict[tuple[str, tuple[str, ...]], float] = {}
    stage_seconds = []
    workers_used = 1
    extrapolated = False
    for stage in stages:
        if stage.reused:
            stage_seconds.append(0.0)
            continue
        game = stage.game
        seats = tuple(stage.bots[i % len(stage.bots)] for i in range(game.players))
        key = (_game_key(game), seats)
        if key not in probed:
            probed[key], cut = game_seconds(game, seats, seed, budget)
            extrapolated = extrapolated or cut
        per_game = probed[key]
        workers = max(1, min(resolve_jobs(jobs), cores, stage.games))
        workers_used = max(workers_used, workers)
        stage_seconds.append(math.ceil(stage.games / workers) * per_game)
    basis = (f"{len(probed)} probe game{'s' if len(probed) != 1 else ''} (one per line-up), "
             f"ISMCTS timed at up to {PROBE_ITERATIONS} iterations a move and scaled"
             + (f", games cut after {budget:g} s and extrapolated by length"
                if extrapolated else ""))
    return RunEstimate(seconds=sum(stage_seconds), stage_seconds=stage_seconds,
                       workers=workers_used,
                       game_seconds={",".join(k[1]): v for k, v in probed.items()},
                       probe_seconds=time.perf_counter() - start, basis=basis)


def _game_key(game: Game) -> str:
    spec = game.spec()
    return f"{spec['game']}/{spec['variant']}/{spec['players']}/{sorted(spec['params'].items())}"
