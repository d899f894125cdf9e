"""How long a lab run will take, measured before it starts (issue 18; sharper in issue 22).

A run is a list of :class:`Stage` s (a ladder step, a compare arm, a sweep point): a game, a
bot line-up and a number of games. :func:`estimate_run` plays *probe games* of each distinct
game and line-up in this process (:func:`probe_lineup`), timing every decision:

* an ISMCTS bot with more than ``PROBE_ITERATIONS`` iterations a move searches that many, and
  its time is scaled by :func:`search_scale`: that bot at its full budget and cut to the
  probe's, timed on the same few decisions of the first probe game (a search's cost per
  iteration grows with its tree in some games and its fixed cost per decision dominates in
  others, so ``iterations / PROBE_ITERATIONS`` was off by up to 1.5 times either way);
  a time-limited one (``ismcts-0.5s``) counts its limit wherever it has a choice;
* line-ups that probe as the same bots share one probe (``ismcts-45`` and ``ismcts-90``
  against the heuristic both probe as ``ismcts-10`` against it: :func:`probe_label`);
* probe games, the run's own first games, are started while ``budget`` seconds last (3 by
  default), at most ``PROBE_GAMES``, play to their end and are averaged: one game's length
  varies with its deal. Only a first game still playing at the budget stops; its rest is
  extrapolated by the length of a quick game played with ISMCTS cut to
  ``LENGTH_ITERATIONS`` iterations.

A stage then takes ``ceil(games / workers)`` mean games on ``workers = min(jobs, cores,
games)`` workers. It is an estimate: games vary in length, weak search at probe budgets may
play other games than the full budget, and a machine shared with other work runs slower; the
CLI prints the actual time after the run, and its progress bars' time left comes from the rate
of the games completed.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.bots import make_bot
from meeple.bots.ismcts import is_budget_part
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed
from meeple.engine.state import State
from meeple.lab.run.backends import resolve_jobs
from meeple.lab.run.runner import game_seed, seat_bots

__all__ = ["LENGTH_ITERATIONS", "PROBE_GAMES", "PROBE_ITERATIONS", "SCALE_PASSES",
           "SCALE_SAMPLES", "SCALE_SECONDS", "Probe", "RunEstimate", "Stage", "estimate_run",
           "format_duration", "game_seconds", "probe_label", "probe_lineup", "search_scale"]

#: ISMCTS bots with more iterations than this are timed at this many and scaled up.
PROBE_ITERATIONS = 10
#: Iterations a move of the ISMCTS bots in the probe games that measure a game's length.
LENGTH_ITERATIONS = 2
#: Most probe games per line-up (they are played while the probe's budget lasts).
PROBE_GAMES = 6
#: Decisions of the first probe game where a search is timed at its full budget against its
#: probe budget (:func:`search_scale`).
SCALE_SAMPLES = 8
#: Passes over those decisions at most, until the cut searches took this many seconds.
SCALE_PASSES, SCALE_SECONDS = 5, 0.1


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


@dataclass(frozen=True)
class Probe:
    """What the probe games of one line-up measured, per game on average.

    Attributes:
        seconds: per seat, the seconds its bot spent deciding, searching at the probe's cut
            budget (not yet scaled).
        choices: per seat, its decisions with more than one legal action.
        games: the probe games counted (>= 1).
        extrapolated: the first game was cut at the budget and extrapolated by length.
        samples: up to ``SCALE_SAMPLES`` decisions with a choice, ``(state, seat)``, drawn
            uniformly from the first game (a reservoir sample, so that only that many states
            are kept): where :func:`search_scale` times full searches.
    """

    seconds: tuple[float, ...]
    choices: tuple[float, ...]
    games: int
    extrapolated: bool
    samples: tuple[tuple[State, int], ...] = ()

    def game_seconds(self, scale: Sequence[float], limit: Sequence[float | None]) -> float:
        """One game's seconds with each seat's search time times ``scale[seat]``, or, for a
        time-limited seat (``limit[seat]`` seconds a move), that limit per choice."""
        return sum(lim * c if lim else s * k
                   for s, c, k, lim in zip(self.seconds, self.choices, scale, limit, strict=True))


@dataclass(frozen=True)
class _Seat:
    """How a seat's bot is probed: its time ``limit`` a move (a time-limited search) or None,
    whether its search time needs ``scaling`` (more than ``PROBE_ITERATIONS`` iterations),
    and the ``label`` of the bot the probe plays in its place (:func:`probe_label`)."""

    limit: float | None
    scaling: bool
    label: str


def _seats(game: Game, names: Sequence[str], seed: int) -> list[_Seat]:
    seats = []
    for name in names:
        full = make_bot(name, game, 0, seed)
        its, secs = getattr(full, "iterations", None), getattr(full, "seconds", None)
        searches = isinstance(its, int)
        limit = secs if searches and secs else None
        seats.append(_Seat(limit, searches and not limit and its > PROBE_ITERATIONS,
                           probe_label(name, min(its, PROBE_ITERATIONS) if searches else None)))
    return seats


def search_scale(game: Game, name: str, samples: Sequence[tuple[State, int]], seed: int = 0,
                 clock: Callable[[], float] = time.perf_counter) -> float:
    """How many times longer the search ``name`` takes a decision at its full budget than cut
    to ``PROBE_ITERATIONS`` iterations, timed on the same ``samples`` (``(state, seat)``
    decisions, e.g. :attr:`Probe.samples`), at least 1.

    A search's cost is not linear in its iterations: a deeper tree costs more per iteration
    (the campaign's 60 iterations take 9 times its 10, Damocles' 20 2.2 times), a fixed cost
    per decision less (the market's 180 take 13 times its 10). The decisions are timed in
    passes, up to ``SCALE_PASSES``, until the cut searches took ``SCALE_SECONDS``. Without
    samples: ``iterations / PROBE_ITERATIONS``.
    """
    linear = max(1.0, make_bot(name, game, 0, seed).iterations / PROBE_ITERATIONS)
    if not samples:
        return linear
    decisions = [(seat, state.view(seat), state.legal_actions(seat)) for state, seat in samples]
    seat, view, legal = decisions[0]
    make_bot(name, game, seat, seed).act(view, legal)  # warm up what a first search builds
    cut_time = full_time = 0.0
    for _ in range(SCALE_PASSES):
        for seat, view, legal in decisions:
            cut, full = make_bot(name, game, seat, seed), make_bot(name, game, seat, seed)
            cut.iterations = min(cut.iterations, PROBE_ITERATIONS)
            t = clock()
            cut.act(view, legal)
            t2 = clock()
            full.act(view, legal)
            cut_time += t2 - t
            full_time += clock() - t2
        if cut_time >= SCALE_SECONDS:
            break
    return max(1.0, full_time / cut_time) if cut_time > 0 else linear


def probe_label(name: str, iterations: int | None) -> str:
    """The bot a probe plays for ``name``: ``name`` itself, or for a search cut to
    ``iterations`` a move, its label with the budget parts (``-400``, ``-0.5s``) dropped, the
    other parts sorted and ``-<iterations>`` added (``ismcts-45`` and ``ismcts-90`` are both
    probed as ``ismcts-10``)."""
    if iterations is None:
        return name
    family, *parts = name.split("-")
    kept = sorted(p for p in parts if not is_budget_part(p))
    return "-".join([family, *kept, str(iterations)])


def probe_lineup(game: Game, names: Sequence[str], seed: int = 0, budget: float = 3.0,
                 clock: Callable[[], float] = time.perf_counter,
                 games: int = PROBE_GAMES) -> Probe:
    """Play probe games of ``game`` with one bot per seat (``names``, searches cut to
    ``PROBE_ITERATIONS`` a move, no time limit) and time every decision.

    Probe game ``k`` is the run's own game ``k`` (seeded ``game_seed(seed, k)``, as the
    runner seeds it), so an estimate times some of the very deals its run will play. Games
    are started while ``budget`` seconds last, at most ``games`` of them, and averaged: one
    game's length varies with its deal (an Epoch Ellipse team at 10 iterations lasts 4 to
    26 days, 0.3 to 1.9 s). A game started within the budget plays to its end (up to twice
    the budget; one still playing then is left out), because leaving out or extrapolating
    the games cut short favoured short games. Only the first game stops at the budget (once
    its ``State.length`` is at least 1); its rest is extrapolated by the length of a quick
    game on its seed with ISMCTS at ``LENGTH_ITERATIONS`` iterations.

    Returns:
        A :class:`Probe`, per-game means, with samples from the first game.
    """
    n = len(names)
    seconds, choices = [0.0] * n, [0.0] * n
    counted, extrapolated = 0, False
    samples: tuple[tuple[State, int], ...] = ()
    start = clock()
    for k in range(max(1, games)):
        if k and clock() - start >= budget:
            break
        gseed = game_seed(seed, k)
        agents = _probe_bots(game, names, gseed, PROBE_ITERATIONS)
        took, chose = [0.0] * n, [0] * n
        points: list[tuple[State, int]] = []  # a reservoir sample of the first game's
        seen, picker = 0, random.Random(seed)   # decisions, cloned only when kept
        state = game.new_initial_state(gseed)
        stop = budget if not k else 2 * budget
        while not state.is_terminal():
            if clock() - start >= stop and (k or state.length() >= 1):
                break
            joint, choosing = {}, []
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                t = clock()
                joint[seat] = agents[seat].act(state.view(seat), legal)
                took[seat] += clock() - t
                if len(legal) > 1:
                    chose[seat] += 1
                    choosing.append(seat)
            if not k:
                for seat in choosing:
                    seen += 1
                    if seen <= SCALE_SAMPLES:
                        points.append((state.clone(), seat))
                    elif (slot := picker.randrange(seen)) < SCALE_SAMPLES:
                        points[slot] = (state.clone(), seat)
            state.apply_actions(joint)
        if not k:
            samples = tuple(points)
        factor = 1.0
        if not state.is_terminal():
            if k:  # rare: a later game still playing at twice the budget is left out
                break
            factor = max(1.0, _quick_length(game, names, gseed) / state.length())
            extrapolated = True
        counted += 1
        for seat in range(n):
            seconds[seat] += took[seat] * factor
            choices[seat] += chose[seat] * factor
    return Probe(seconds=tuple(s / counted for s in seconds),
                 choices=tuple(c / counted for c in choices), games=counted,
                 extrapolated=extrapolated, samples=samples)


def _quick_length(game: Game, names: Sequence[str], seed: int) -> int:
    """The ``State.length`` of a quick game on ``seed`` with ISMCTS at ``LENGTH_ITERATIONS``
    iterations a move."""
    quick = _probe_bots(game, names, seed, LENGTH_ITERATIONS)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state.apply_actions({s: quick[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
    return state.length()


def game_seconds(game: Game, bots: Sequence[str], seed: int = 0, budget: float = 3.0,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[float, bool]:
    """Estimate the seconds one game of ``game`` takes with the line-up ``bots`` (cycled over
    the seats), by probe games (:func:`probe_lineup`).

    An ISMCTS bot above ``PROBE_ITERATIONS`` iterations searches that many in the probes and
    its time is scaled by :func:`search_scale`; a time-limited one (``ismcts-0.5s``) counts
    its limit wherever it has a choice.

    Returns:
        ``(seconds, extrapolated)``: the mean over the probe games, and whether the first was
        cut at ``budget`` and extrapolated by length.
    """
    return _Estimator(seed, budget, clock).game_seconds(game, bots)


class _Estimator:
    """Probes and scales shared by the stages of one estimate: a line-up is probed once per
    game and probe labels (``ismcts-45`` and ``ismcts-90`` against the same bots share one),
    a search's scale is measured once per game and bot name."""

    def __init__(self, seed: int, budget: float, clock: Callable[[], float]) -> None:
        self.seed, self.budget, self.clock = seed, budget, clock
        self.probes: dict[tuple[str, tuple[str, ...]], Probe] = {}
        self.scales: dict[tuple[str, str], float] = {}

    def game_seconds(self, game: Game, bots: Sequence[str]) -> tuple[float, bool]:
        names = seat_bots(bots, game.players, 0)
        seats = _seats(game, names, derive_seed(self.seed, "estimate", 0))
        gkey = _game_key(game)
        key = (gkey, tuple(s.label for s in seats))
        if key not in self.probes:
            self.probes[key] = probe_lineup(game, names, self.seed, self.budget, self.clock)
        probe = self.probes[key]
        scale = []
        for name, seat in zip(names, seats, strict=True):
            if seat.scaling and (gkey, name) not in self.scales:
                self.scales[gkey, name] = search_scale(
                    game, name, probe.samples, derive_seed(self.seed, "estimate", "scale"),
                    self.clock)
            scale.append(self.scales[gkey, name] if seat.scaling else 1.0)
        return probe.game_seconds(scale, [s.limit for s in seats]), probe.extrapolated


def estimate_run(stages: Sequence[Stage], jobs: int = 1, seed: int = 0, *,
                 budget: float = 3.0) -> RunEstimate:
    """Estimate the wall time of playing ``stages`` with ``jobs`` workers (0: every core).

    Args:
        stages: the run's stages, in order.
        jobs: workers per stage, as given to the runner.
        seed: seeds the probe games.
        budget: seconds of play per probed line-up (:func:`probe_lineup`); line-ups that
            probe as the same bots share one.
    Returns:
        A :class:`RunEstimate` (see the module docstring for the method).
    Raises:
        ParameterError: a bot name that cannot play its stage's game.
    """
    start = time.perf_counter()
    cores = os.cpu_count() or 1
    estimator = _Estimator(seed, budget, time.perf_counter)
    per_lineup: dict[str, float] = {}
    stage_seconds = []
    workers_used = 1
    for stage in stages:
        if stage.reused:
            stage_seconds.append(0.0)
            continue
        per_game, _ = estimator.game_seconds(stage.game, stage.bots)
        per_lineup[",".join(seat_bots(stage.bots, stage.game.players, 0))] = per_game
        workers = max(1, min(resolve_jobs(jobs), cores, stage.games))
        workers_used = max(workers_used, workers)
        stage_seconds.append(math.ceil(stage.games / workers) * per_game)
    probes = estimator.probes.values()
    played = sum(p.games for p in probes)
    basis = (f"{played} probe game{'s' if played != 1 else ''} of {len(probes)} line-up"
             f"{'s' if len(probes) != 1 else ''}, ISMCTS timed at up to {PROBE_ITERATIONS} "
             "iterations a move and scaled by full searches on a few of their decisions"
             + (f", games cut after {budget:g} s and extrapolated by length"
                if any(p.extrapolated for p in probes) else ""))
    return RunEstimate(seconds=sum(stage_seconds), stage_seconds=stage_seconds,
                       workers=workers_used, game_seconds=per_lineup,
                       probe_seconds=time.perf_counter() - start, basis=basis)


def _game_key(game: Game) -> str:
    spec = game.spec()
    return f"{spec['game']}/{spec['variant']}/{spec['players']}/{sorted(spec['params'].items())}"
