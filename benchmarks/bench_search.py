#!/usr/bin/env python
"""Search speed of the ISMCTS bot on every registered game, on one core.

    python benchmarks/bench_search.py [--positions N] [--out PATH] [--games NAME ...]
        [--bot LABEL]

For every game (default variant and seat count) it collects ``--positions`` decision points
(a seat with at least two legal actions) from seeded games of the game's heuristic bot in
every seat (the positions a playtest's search seat meets; random playouts where the game has
no heuristic bot) and, at each, times:

- ``determinize``: ``Game.determinize(view, rng)`` calls per second (one per iteration);
- ``ismcts``: the default bot (``ismcts``, the game's ``Game.search`` settings; another label
  with ``--bot``) deciding from the seat's view: iterations per second and seconds per
  default-budget decision (mean, 90th percentile and worst);
- the baselines from the same run: random steps per second (the public loop,
  ``apply_actions`` with ``rng.choice`` over each acting seat's legal actions, as in
  bench_playouts.py) and whole random playouts per second (``State.playout``).

The ratios do not depend on the machine: ``it/s ÷ steps/s`` (search iterations per random
step's time), ``decision ÷ step`` (a default decision in random steps) and ``it/s ÷
playouts/s`` (search iterations per random game's time). The default decision's mean is the
figure behind the 50 ms target (issue 22). Times are CPU times of this process (``clock``),
so other work on a shared machine does not count. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from meeple.bots import make_bot
from meeple.engine.registry import game_names, load_game

SEED = 20261121
#: Every time here is this process's CPU time: on a machine shared with other work the wall
#: clock would count the other work too (one core, so CPU time is the decision's time).
clock = time.process_time


def positions(game, count: int, seed: int = SEED) -> list[tuple]:
    """``count`` (state, seat) decision points from seeded random playouts, spread over the
    game: each playout stops at a random step and the first acting seat with a choice."""
    rng = random.Random(seed)
    found = []
    attempt = 0
    while len(found) < count and attempt < 50 * count:
        attempt += 1
        state = game.new_initial_state(attempt)
        probe = state.clone()
        length = probe.playout(random.Random(attempt))
        stop = rng.randrange(max(1, length))
        state.playout(random.Random(attempt), max_steps=stop)
        if state.is_terminal():
            continue
        for seat in state.current_players():
            if len(state.legal_actions(seat)) > 1:
                found.append((state, seat))
                break
    return found


def heuristic_positions(game, count: int, seed: int = SEED) -> list[tuple]:
    """``count`` (state, seat) decision points from seeded games of the heuristic bot in
    every seat, spread evenly over the decision points of as many games as needed (random
    playouts via :func:`positions` when the game has no heuristic bot)."""
    if "heuristic" not in game.bot_factories():
        return positions(game, count, seed)
    rng = random.Random(seed)
    found: list[tuple] = []
    index = 0
    while len(found) < count and index < 20 * count:
        state = game.new_initial_state(seed + index)
        bots = [make_bot("heuristic", game, s, seed + index) for s in range(game.players)]
        points = []
        while not state.is_terminal():
            acting = state.current_players()
            for seat in acting:
                if len(state.legal_actions(seat)) > 1:
                    points.append((state.clone(), seat))
                    break
            state.apply_actions({s: bots[s].act(state.view(s), state.legal_actions(s))
                                 for s in acting})
        index += 1
        take = min(len(points), max(1, count // 4), count - len(found))
        found.extend(rng.sample(points, take))
    return found


def step_rate(game, seconds: float) -> float:
    """Random steps per second through the public per-call loop (one ``apply_actions`` with
    a uniformly random legal action per acting seat), whole games from seeded states."""
    rng = random.Random(SEED)
    steps, games = 0, 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state(games)
        legal, apply, choice = state.legal_actions, state.apply_actions, rng.choice
        while not state.is_terminal():
            apply({s: choice(legal(s)) for s in state.current_players()})
            steps += 1
        games += 1
    return steps / (clock() - start)


def playout_rate(game, seconds: float) -> float:
    rng = random.Random(SEED)
    games = 0
    start = clock()
    while clock() - start < seconds:
        game.new_initial_state(games).playout(rng)
        games += 1
    return games / (clock() - start)


def bench_game(name: str, count: int, label: str = "ismcts") -> dict:
    """One game's row: determinize rate, the ``label`` bot's iterations/s and decision
    seconds at the positions of :func:`heuristic_positions`, and the random baselines."""
    game = load_game(name)
    points = heuristic_positions(game, count)
    rng = random.Random(SEED)
    views = [state.view(seat) for state, seat in points]
    calls = 0
    start = clock()
    while clock() - start < 1.0:
        for view in views:
            game.determinize(view, rng)
        calls += len(views)
    determinize_rate = calls / (clock() - start)
    move_seconds, iterations = [], 0
    for state, seat in points:
        bot = make_bot(label, game, seat, SEED)
        start = clock()
        bot.act(state.view(seat), state.legal_actions(seat))
        move_seconds.append(clock() - start)
        iterations += bot.last_iterations
    search_time = sum(move_seconds)
    steps = step_rate(game, 2.0)
    playouts = playout_rate(game, 2.0)
    ips = iterations / search_time
    mean = statistics.fmean(move_seconds)
    return {
        "game": name, "players": game.players, "positions": len(points), "bot": label,
        "search_settings": {"iterations": bot.iterations, "rollout": bot.rollout,
                            "rollout_depth": bot.rollout_depth},
        "determinize_per_s": round(determinize_rate),
        "iterations_per_s": round(ips),
        "move_seconds_mean": round(mean, 4),
        "move_seconds_p90": round(statistics.quantiles(move_seconds, n=10)[-1], 4)
        if len(move_seconds) > 1 else round(mean, 4),
        "move_seconds_max": round(max(move_seconds), 4),
        "random_steps_per_s": round(steps),
        "random_playouts_per_s": round(playouts, 1),
        "iterations_per_step_time": round(ips / steps, 4),
        "decision_in_steps": round(mean * steps),
        "iterations_per_playout_time": round(ips / playouts, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--bot", default="ismcts", help="search bot label (default: ismcts)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    header = ("game", "iterations", "determinize/s", "iterations/s", "decision ms (mean/p90/max)",
              "steps/s", "it/s ÷ steps/s", "decision ÷ step", "playouts/s", "it/s ÷ playouts/s")
    print(" | ".join(header), flush=True)
    rows = []
    for name in args.games or game_names():
        r = bench_game(name, args.positions, args.bot)
        rows.append(r)
        print(f"{r['game']} | {r['search_settings']['iterations']} | "
              f"{r['determinize_per_s']:,} | {r['iterations_per_s']:,} | "
              f"{1000 * r['move_seconds_mean']:.0f}/{1000 * r['move_seconds_p90']:.0f}/"
              f"{1000 * r['move_seconds_max']:.0f} | {r['random_steps_per_s']:,} | "
              f"{r['iterations_per_step_time']} | {r['decision_in_steps']:,} | "
              f"{r['random_playouts_per_s']:,} | {r['iterations_per_playout_time']}",
              flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"python": sys.version.split()[0],
                                        "machine": platform.machine(), "rows": rows},
                                       indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
