"""How long a lab run will take, measured before it starts (issue 18).

A run is a list of :class:`Stage` s (a ladder step, a compare arm, a sweep point): a game, a
bot line-up and a number of games. :func:`estimate_run` measures, in this process and in a
second or two:

1. **the game's length in decisions**: a few games of the game with ``random`` in every seat
   (cheap), counting the decisions (one per acting seat per step);
2. **each bot's time per decision**: the bot is asked to move at positions spread evenly over
   those games (its mean time there); an ISMCTS bot with a large iteration budget is timed at
   ``PROBE_ITERATIONS`` iterations and scaled up linearly (its cost is nearly linear in
   iterations), a time-limited one (``ismcts-0.5s``) costs its seconds at every position with
   more than one legal action.

A game then costs ``decisions / players`` times the sum of its seats' bots' times per decision
(seats rotate, so every bot meets every seat), and a stage ``ceil(games / workers)`` games on
``workers = min(jobs, cores, games)`` workers. It is an estimate: strong bots play games of
another length than random ones, and a machine shared with other work runs slower.
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
from meeple.engine.state import State
from meeple.lab.backends import resolve_jobs

__all__ = ["PROBE_ITERATIONS", "RunEstimate", "Stage", "estimate_run", "format_duration",
           "sample_positions", "seconds_per_decision"]

#: ISMCTS bots with more iterations than this are timed at this many and scaled up.
PROBE_ITERATIONS = 25


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
    reused one), ``workers`` used per stage, ``bot_seconds`` (per bot name: seconds per
    decision, averaged over the games probed), ``decisions`` (per game key: decisions per
    game), ``probe_seconds`` (how long measuring took) and ``basis`` (one phrase saying
    what it rests on)."""

    seconds: float
    stage_seconds: list[float]
    workers: int
    bot_seconds: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, float] = field(default_factory=dict)
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


def sample_positions(game: Game, seed: int = 0, games: int = 2, samples: int = 8
                     ) -> tuple[float, list[tuple[int, State]]]:
    """Play ``games`` random-bot games of ``game`` (seeds derived from ``seed``) and return
    ``(mean decisions per game, positions)``: ``samples`` ``(seat, state)`` decision points
    spread evenly over all the decisions of those games (states are clones)."""
    counts = []
    for g in range(games):
        counts.append(sum(len(s.current_players()) for s in _walk(game, seed, g)))
    total = sum(counts)
    wanted = {min(total - 1, int((k + 0.5) * total / samples)) for k in range(samples)}
    positions: list[tuple[int, State]] = []
    n = 0
    for g in range(games):
        for state in _walk(game, seed, g):
            for seat in state.current_players():
                if n in wanted:
                    positions.append((seat, state.clone()))
                n += 1
    return total / games, positions


def _walk(game: Game, seed: int, g: int):
    """Yield every non-terminal state of random-bot game ``g`` (the same one each time)."""
    gseed = derive_seed(seed, "estimate", g)
    bots = [make_bot("random", game, s, gseed) for s in range(game.players)]
    state = game.new_initial_state(gseed)
    while not state.is_terminal():
        yield state
        state.apply_actions({s: bots[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})


def seconds_per_decision(game: Game, name: str, positions: Sequence[tuple[int, State]],
                         seed: int = 0, clock: Callable[[], float] = time.perf_counter
                         ) -> tuple[float, str]:
    """Bot ``name``'s mean seconds per decision at ``positions`` and how it was found
    (``"timed"``, ``"scaled from N iterations"``, ``"its time limit"``)."""
    bots: dict[int, Any] = {}

    def bot(seat: int) -> Any:
        if seat not in bots:
            bots[seat] = make_bot(name, game, seat, seed)
        return bots[seat]

    probe = bot(positions[0][0]) if positions else None
    limit = getattr(probe, "seconds", None)
    if isinstance(limit, (int, float)) and limit > 0 and hasattr(probe, "iterations"):
        busy = sum(1 for seat, st in positions if len(st.legal_actions(seat)) > 1)
        return limit * busy / max(1, len(positions)), "its time limit"
    scale, how = 1.0, "timed"
    iterations = getattr(probe, "iterations", None)
    if isinstance(iterations, int) and iterations > PROBE_ITERATIONS:
        scale, how = iterations / PROBE_ITERATIONS, f"scaled from {PROBE_ITERATIONS} iterations"
    spent = 0.0
    for seat, state in positions:
        b = bot(seat)
        if scale != 1.0:
            b.iterations = PROBE_ITERATIONS
        start = clock()
        b.act(state.view(seat), state.legal_actions(seat))
        spent += clock() - start
    return scale * spent / max(1, len(positions)), how


def estimate_run(stages: Sequence[Stage], jobs: int = 1, seed: int = 0, *, probe_games: int = 2,
                 samples: int = 8) -> RunEstimate:
    """Estimate the wall time of playing ``stages`` with ``jobs`` workers (0: every core).

    Args:
        stages: the run's stages, in order.
        jobs: workers per stage, as given to the runner.
        seed: seeds the probe games.
        probe_games, samples: random-bot games played per distinct game, and positions at
            which each bot is timed.
    Returns:
        A :class:`RunEstimate` (see the module docstring for the method).
    Raises:
        ParameterError: a bot name that cannot play its stage's game.
    """
    start = time.perf_counter()
    cores = os.cpu_count() or 1
    probed: dict[str, tuple[float, list[tuple[int, State]]]] = {}
    per_bot: dict[tuple[str, str], float] = {}
    hows: set[str] = set()
    stage_seconds = []
    workers_used = 1
    for stage in stages:
        if stage.reused:
            stage_seconds.append(0.0)
            continue
        game = stage.game
        key = _game_key(game)
        if key not in probed:
            probed[key] = sample_positions(game, seed, probe_games, samples)
        decisions, positions = probed[key]
        seats = [stage.bots[i % len(stage.bots)] for i in range(game.players)]
        per_game = 0.0
        for name in seats:
            if (key, name) not in per_bot:
                per_bot[key, name], how = seconds_per_decision(game, name, positions, seed)
                hows.add(how)
            per_game += per_bot[key, name] * decisions / game.players
        workers = max(1, min(resolve_jobs(jobs), cores, stage.games))
        workers_used = max(workers_used, workers)
        stage_seconds.append(math.ceil(stage.games / workers) * per_game)
    n_games = len(probed)
    basis = (f"timing each bot at {samples} positions of {probe_games} random-play games"
             f"{'' if n_games == 1 else f' of each of {n_games} set-ups'}"
             + ("; ISMCTS budgets " + next(h for h in hows if h.startswith("scaled"))
                if any(h.startswith("scaled") for h in hows) else "")
             + "; strong bots may play longer or shorter games")
    bot_seconds: dict[str, float] = {}
    for (_, name), value in per_bot.items():
        bot_seconds[name] = max(bot_seconds.get(name, 0.0), value)
    return RunEstimate(seconds=sum(stage_seconds), stage_seconds=stage_seconds,
                       workers=workers_used, bot_seconds=bot_seconds,
                       decisions={k: v[0] for k, v in probed.items()},
                       probe_seconds=time.perf_counter() - start, basis=basis)


def _game_key(game: Game) -> str:
    spec = game.spec()
    return f"{spec['game']}/{spec['variant']}/{spec['players']}/{sorted(spec['params'].items())}"
