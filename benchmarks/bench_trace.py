#!/usr/bin/env python
"""Overhead of the lab's per-game trace (meeple.lab.analysis.trace.Trace) on whole bot games.

    python benchmarks/bench_trace.py [--games N] [--repeats R] [--game NAME] [--bots B]

Plays the same N games (seeds 0..N-1, random bots by default) through
``meeple.engine.episode.play_episode`` with and without ``on_step=trace.on_step`` (and
``trace.finish``), the two loops back to back ``R`` times (alternating which goes first). It
reports the best CPU time of each (``time.process_time``: steadier than wall time when other
processes share the cores), their ratio, and the median over the repeats of the ratio of the
two back-to-back runs (which cancels slow drifts of a shared machine). That is the trace's
overhead on the playtest runner's loop, which also asks every bot for an action from
``state.view(seat)``. The target is an overhead under 15% for Four Gods random play.
Prints one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.engine.registry import load_game
from meeple.lab.analysis.trace import Trace


def _run(game, bots: list[str], games: int, traced: bool) -> float:
    start = time.process_time()  # CPU time of this process: steadier on a shared machine
    for seed in range(games):
        agents = [make_bot(bots[s % len(bots)], game, s, seed) for s in range(game.players)]
        if traced:
            trace = Trace(game)
            state, _ = play_episode(game, seed, agents, on_step=trace.on_step)
            trace.finish(state)
        else:
            play_episode(game, seed, agents)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="battle-of-the-four-gods")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    game = load_game(args.game)
    bots = args.bots.split(",")
    plain, traced = [], []
    for i in range(args.repeats):  # alternate which loop goes first
        first, second = (False, True) if i % 2 == 0 else (True, False)
        times = {first: _run(game, bots, args.games, first)}
        times[second] = _run(game, bots, args.games, second)
        plain.append(times[False])
        traced.append(times[True])
    ratios = sorted(t / p for p, t in zip(plain, traced, strict=True))
    best_plain, best_traced = min(plain), min(traced)
    print(json.dumps({
        "game": args.game, "bots": bots, "games": args.games, "repeats": args.repeats,
        "plain_seconds": round(best_plain, 4), "traced_seconds": round(best_traced, 4),
        "plain_games_per_second": round(args.games / best_plain, 1),
        "overhead_best": round(best_traced / best_plain - 1.0, 4),
        "overhead_median_pair": round(statistics.median(ratios) - 1.0, 4),
    }))


if __name__ == "__main__":
    main()
