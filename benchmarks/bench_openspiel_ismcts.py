#!/usr/bin/env python
"""OpenSpiel's own ``ISMCTSBot`` against meeple's ISMCTS on the same positions, on one core.

    python benchmarks/bench_openspiel_ismcts.py [--positions N] [--simulations S] [--games ...]
    python benchmarks/bench_openspiel_ismcts.py --profile [--positions N] [--simulations S]
    py-spy record -r 1000 --format raw -o spy.txt -- \
        python benchmarks/bench_openspiel_ismcts.py --loop 12 --games damocles
    python benchmarks/bench_openspiel_ismcts.py --shares spy.txt

Needs ``meeple[openspiel]``. For every game (default variant and seat count, turn-based through
the adapter, since OpenSpiel's ISMCTS searches sequential games only) it reaches ``--positions``
decision points by seeded random play through the adapter, then at each one times:

- ``openspiel``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with ``S`` simulations, the
  adapter's resampler (``Game.determinize``) and evaluator (the game's ``evaluate`` at the leaf);
- ``meeple``: ``ismcts-S-d0-random-tree`` on the meeple state inside the adapter state, from the
  same seat's view: the same algorithm family and leaf evaluation (no rollout, every seat in the
  tree), so the ratio is the cost of the two implementations, not of two algorithms.

Prints simulations per second for both and their ratio (meeple ÷ OpenSpiel) measured in the
same run (``--repeats R``: R measurements per game, the rates' ranges and the median ratio),
in this process's CPU time (so other work on a shared machine does not count), with garbage
collected before each timed part and the cyclic collector off during it, for both sides
(as ``timeit`` does; one full collection of the process's heap costs as much as several
milliseconds of search and would land on one side or the other by chance).
The game's default search settings are not used here (they add heuristic rollouts).

``--profile`` runs only meeple's side under cProfile (once warm, then profiled) and prints,
per game, the shares of the search's time: drawing the determinizations, the legal actions
the tree asks for, applying the tree's actions, the leaf evaluation, and the tree's own loop
(UCB1, node look-ups, availability counts, backing up: the rest of ``_iterate``).

``--loop SECONDS`` runs only meeple's side (``--positions``, ``--simulations``, one game) over
and over for that long, for a sampling profiler (py-spy, which does not charge a cost per
call as cProfile does); ``--shares FILE`` reads py-spy's raw output of such a run and prints
the same parts' shares of the samples in the search. The game's parts (determinization,
legal actions, apply, evaluator) run on OpenSpiel's side too, so ``ratio / their share`` is
the most any search implementation could reach with today's rules code: the ceiling a tree
that cost nothing would meet.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import pstats
import random
import re
import statistics
import sys
import time

import numpy as np
from open_spiel.python.algorithms import ismcts

from meeple.adapters import openspiel
from meeple.bots import make_bot
from meeple.engine.registry import game_class, game_names

SEED = 20261121


def _positions(game, count: int, rng: random.Random) -> list:
    found, attempt = [], 0
    while len(found) < count and attempt < 40 * count:
        attempt += 1
        state = game.new_initial_state()
        stop = rng.randrange(5, 60)
        for _ in range(stop):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        if len(state.legal_actions()) > 1:
            found.append(state)
    return found


@contextlib.contextmanager
def _no_gc():
    """Garbage collected before, the cyclic collector off during a timed part (as ``timeit``
    does): a full collection of the process's heap (OpenSpiel's objects included) costs as
    much as a few milliseconds of search, and lands on one side or the other by chance."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def bench_game(name: str, count: int, simulations: int) -> dict:
    game = openspiel.load(name, turn_based=True)
    points = _positions(game, count, random.Random(SEED))
    bot = ismcts.ISMCTSBot(game, openspiel.MeepleEvaluator(SEED), uct_c=0.7,
                           max_simulations=simulations,
                           random_state=np.random.RandomState(SEED))
    bot.set_resampler(openspiel.resampler(SEED))
    with _no_gc():
        start = time.process_time()
        for state in points:
            bot.step(state)
        spiel_seconds = time.process_time() - start
    meeple_seconds = 0.0
    for state in points:
        inner = openspiel.meeple_state(state)
        seat = state.current_player()
        mbot = make_bot(f"ismcts-{simulations}-d0-random-tree", inner.game, seat, SEED)
        with _no_gc():
            start = time.process_time()
            mbot.act(inner.view(seat), inner.legal_actions(seat))
            meeple_seconds += time.process_time() - start
    sims = simulations * len(points)
    return {"game": name, "positions": len(points),
            "openspiel_sims_per_s": sims / spiel_seconds,
            "meeple_sims_per_s": sims / meeple_seconds}


def profile_game(name: str, count: int, simulations: int) -> dict:
    """Shares of meeple's search time by part (see the module docstring), under cProfile."""
    game = openspiel.load(name, turn_based=True)
    jobs = [(openspiel.meeple_state(s), s.current_player())
            for s in _positions(game, count, random.Random(SEED))]

    def run() -> None:
        for inner, seat in jobs:
            bot = make_bot(f"ismcts-{simulations}-d0-random-tree", inner.game, seat, SEED)
            bot.act(inner.view(seat), inner.legal_actions(seat))

    run()  # warm: per-game tables and memos
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]

    def under(function: str, caller: str) -> float:  # cumulative time of calls from caller
        return sum(cv[3] for key, value in stats.items() if key[2] == function
                   for c, cv in value[4].items() if c[2] == caller)

    search = sum(v[3] for k, v in stats.items() if k[2] == "search")
    iterate = sum(v[3] for k, v in stats.items() if k[2] == "_iterate")
    parts = {"determinize": under("draw", "search") + under("determinize", "search"),
             "legal actions": under("legal_actions", "_iterate")
             + under("_legal_tables", "_iterate"),
             "apply": under("apply_action", "_iterate") + under("apply_actions", "_iterate")
             + under("apply_legal", "_iterate"),
             "evaluator": under("_rollout", "_iterate")}
    parts["tree loop"] = iterate - (parts["legal actions"] + parts["apply"] + parts["evaluator"])
    parts["other"] = search - iterate - parts["determinize"]
    return {"game": name, "seconds": search, **{k: v / search for k, v in parts.items()}}


def loop_game(name: str, count: int, simulations: int, seconds: float) -> int:
    """meeple's searches at the positions, repeated for ``seconds`` (a profiler's target);
    returns the number of searches."""
    game = openspiel.load(name, turn_based=True)
    jobs = [(openspiel.meeple_state(s), s.current_player())
            for s in _positions(game, count, random.Random(SEED))]
    done, deadline = 0, time.perf_counter() + seconds
    with _no_gc():
        while time.perf_counter() < deadline:
            for inner, seat in jobs:
                bot = make_bot(f"ismcts-{simulations}-d0-random-tree", inner.game, seat, SEED)
                bot.act(inner.view(seat), inner.legal_actions(seat))
                done += 1
    return done


#: py-spy frame patterns of the search's parts, outermost match first (see ``--shares``).
#: The search reads a decision's legal tables from the state (a game's ``_legal_tables``).
PARTS = (("determinize", re.compile(
            r"determinizer\.<locals>\.draw \(meeple/engine/determinization\.py")),
         ("legal actions", re.compile(r"(State\.legal_actions|\w+\._legal_tables) ")),
         ("apply", re.compile(r"State\.apply_(actions?|legal) ")),
         ("evaluator", re.compile(r"ISMCTSBot\._rollout ")))


def spy_shares(path: str) -> dict[str, float]:
    """Shares of the samples inside ``ISMCTSBot.search`` in a py-spy ``--format raw`` file:
    each sample goes to the outermost part (``PARTS``) on its stack, else to ``tree loop``
    (inside ``_iterate``) or ``other`` (the search's own loop)."""
    counts = dict.fromkeys([p for p, _ in PARTS] + ["tree loop", "other"], 0)  # first wins
    with open(path) as lines:
        for line in lines:
            stack, _, n = line.rstrip().rpartition(" ")
            frames = stack.split(";")
            if not any(f.startswith("ISMCTSBot.search ") for f in frames):
                continue
            part = next((p for f in frames for p, pattern in PARTS if pattern.match(f)), None)
            if part is None:
                part = ("tree loop" if any(f.startswith("ISMCTSBot._iterate") for f in frames)
                        else "other")
            counts[part] += int(n)
    total = sum(counts.values()) or 1
    return {k: v / total for k, v in counts.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--repeats", type=int, default=1,
                        help="measure each game this many times; print the median ratio and "
                             "the range (the timed parts are short, so single runs are noisy)")
    parser.add_argument("--profile", action="store_true", help="shares of meeple's time")
    parser.add_argument("--loop", type=float, default=0.0, metavar="SECONDS",
                        help="only meeple's searches, repeated (for py-spy)")
    parser.add_argument("--shares", metavar="FILE", help="read a py-spy raw file")
    args = parser.parse_args()
    if args.shares:
        shares = spy_shares(args.shares)
        print(" | ".join(f"{k} {v:.1%}" for k, v in shares.items()))
        game_share = sum(shares[p] for p in dict(PARTS))
        print(f"game's own code {game_share:.1%}: ceiling = ratio / {game_share:.3f}")
        return 0
    names = args.games or [n for n in game_names() if game_class(n).encoding]
    if args.loop:
        for name in names:
            done = loop_game(name, args.positions, args.simulations, args.loop)
            print(f"{name}: {done} searches in {args.loop:g} s", flush=True)
        return 0
    if args.profile:
        print("game | profiled s | determinize | legal actions | apply | evaluator | tree loop "
              "| other")
        for name in names:
            r = profile_game(name, args.positions, args.simulations)
            print(f"{name} | {r['seconds']:.3f} | " + " | ".join(
                f"{r[k]:.0%}" for k in ("determinize", "legal actions", "apply", "evaluator",
                                        "tree loop", "other")), flush=True)
        return 0
    print("game | OpenSpiel ISMCTSBot sims/s | meeple ISMCTS sims/s | meeple ÷ OpenSpiel"
          + (f" (median of {args.repeats}; range)" if args.repeats > 1 else ""))
    for name in names:
        runs = [bench_game(name, args.positions, args.simulations)
                for _ in range(args.repeats)]
        spiel = [r["openspiel_sims_per_s"] for r in runs]
        ours = [r["meeple_sims_per_s"] for r in runs]
        ratios = sorted(m / o for m, o in zip(ours, spiel, strict=True))
        if len(runs) == 1:
            print(f"{name} | {spiel[0]:,.0f} | {ours[0]:,.0f} | {ratios[0]:.1f}", flush=True)
        else:
            print(f"{name} | {min(spiel):,.0f}-{max(spiel):,.0f} | {min(ours):,.0f}-"
                  f"{max(ours):,.0f} | {statistics.median(ratios):.1f} ({ratios[0]:.1f}-"
                  f"{ratios[-1]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
