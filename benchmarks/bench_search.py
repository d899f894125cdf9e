#!/usr/bin/env python
"""Search speed of the ISMCTS bot on every registered game, on one core.

    python benchmarks/bench_search.py [--positions N] [--out PATH] [--games NAME ...]

For every game (default variant and seat count) it collects ``--positions`` decision points
from seeded random playouts (a seat with at least two legal actions) and, at each, times:

- ``determinize``: ``Game.determinize(view, rng)`` calls per second (one per iteration);
- ``ismcts``: the default bot (``ismcts``, the game's ``Game.search`` settings) deciding from
  the seat's view: iterations per second and seconds per default-budget move (mean and worst);
- the baseline from the same run: whole random playouts per second (``State.playout``) from
  the game's initial state.

``iterations/s ÷ playouts/s`` is machine-independent: how many search iterations cost one
random game. The default-budget move time is the figure behind the under-a-second target for
terminal play. See benchmarks/README.md.
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


def playout_rate(game, seconds: float) -> float:
    rng = random.Random(SEED)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.new_initial_state(games).playout(rng)
        games += 1
    return games / (time.perf_counter() - start)


def bench_game(name: str, count: int) -> dict:
    game = load_game(name)
    points = positions(game, count)
    rng = random.Random(SEED)
    views = [state.view(seat) for state, seat in points]
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 1.0:
        for view in views:
            game.determinize(view, rng)
        calls += len(views)
    determinize_rate = calls / (time.perf_counter() - start)
    move_seconds, iterations = [], 0
    for state, seat in points:
        bot = make_bot("ismcts", game, seat, SEED)
        start = time.perf_counter()
        bot.act(state.view(seat), state.legal_actions(seat))
        move_seconds.append(time.perf_counter() - start)
        iterations += bot.last_iterations
    search_time = sum(move_seconds)
    playouts = playout_rate(game, 2.0)
    ips = iterations / search_time
    return {
        "game": name, "players": game.players, "positions": len(points),
        "search_settings": {"iterations": bot.iterations, "rollout": bot.rollout,
                            "rollout_depth": bot.rollout_depth},
        "determinize_per_s": round(determinize_rate),
        "iterations_per_s": round(ips),
        "move_seconds_mean": round(statistics.fmean(move_seconds), 3),
        "move_seconds_max": round(max(move_seconds), 3),
        "random_playouts_per_s": round(playouts, 1),
        "iterations_per_playout_time": round(ips / playouts, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = [bench_game(name, args.positions) for name in (args.games or game_names())]
    header = ("game", "determinize/s", "iterations/s", "move s (mean/max)", "playouts/s",
              "it/s ÷ playouts/s")
    print(" | ".join(header))
    for r in rows:
        print(f"{r['game']} | {r['determinize_per_s']:,} | {r['iterations_per_s']:,} | "
              f"{r['move_seconds_mean']}/{r['move_seconds_max']} | "
              f"{r['random_playouts_per_s']:,} | {r['iterations_per_playout_time']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"python": sys.version.split()[0],
                                        "machine": platform.machine(), "rows": rows},
                                       indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
