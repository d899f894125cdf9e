#!/usr/bin/env python
"""Random-play speed through each ecosystem adapter beside the native engine, on one core.

    python benchmarks/bench_adapters.py [--seconds S] [--out PATH] [--games NAME ...]

For every game with an encoding (default variant and seats) it plays whole games with uniformly
random legal actions, for about S seconds per measurement, through:

* ``native``: the public engine API (``apply_actions`` with ``rng.choice`` of each acting
  seat's legal actions), the baseline;
* ``native+obs``: the same plus, at every step, each acting seat's view encoded as the
  observation tensor and its legal codes (what any learning adapter must compute);
* ``openspiel``: a pyspiel state of ``meeple.adapters.openspiel`` (default dynamics; chance
  outcomes, simultaneous joint actions and single moves drawn from ``legal_actions``);
* ``openspiel-turns``: the same with ``turn_based=true``;
* ``aec``: the PettingZoo AEC environment (``agent_iter``, ``last()`` with observation and
  mask, a masked random action);
* ``parallel``: the PettingZoo Parallel environment (games with simultaneous decisions);
* ``gym``: the Gymnasium environment of seat 0 (masked random) against ``random`` bots, with
  the table's codes (``actions="full"``);
* ``gym-compact``: the same with step-wise codes (``actions="compact"``, one env step per
  sub-decision; ``steps_per_s`` counts env steps, so compare games/s too);
* ``aec-compact``: the AEC environment with step-wise codes.

It prints games/s and each one's ratio to ``native`` games/s measured in the same run (the
measurements of a game are interleaved and repeated 3 times; each number is the best run), and
writes a JSON report (default ``benchmarks/results/adapters.json``). Compare the ratios across
machines, not the raw rates. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from bench_playouts import machine_info

from meeple.adapters._common import encoded_game_names
from meeple.engine.registry import load_game

REPEATS = 3
SEED = 20240601


def timed(play_one: Callable[[int], int], seconds: float) -> dict:
    """Call ``play_one(game_index)`` (returns its step count) until ``seconds`` pass."""
    games = steps = 0
    start = time.perf_counter()
    while True:
        steps += play_one(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"games": games, "steps": steps, "seconds": elapsed,
                    "games_per_s": games / elapsed, "steps_per_s": steps / elapsed}


def native(game, encode: bool) -> Callable[[int], int]:
    rng = random.Random(SEED)
    choice = rng.choice
    observe, code = game.observation_tensor, game.action_code

    def play(i: int) -> int:
        state = game.new_initial_state(i)
        steps = 0
        while not state.is_terminal():
            acting = state.current_players()
            if encode:
                for s in acting:
                    observe(state.view(s))
                    [code(a) for a in state.legal_actions(s)]
            state.apply_actions({s: choice(state.legal_actions(s)) for s in acting})
            steps += 1
        return steps

    return play


def openspiel(name: str, turn_based: bool) -> Callable[[int], int]:
    from meeple.adapters import openspiel as adapter

    game = adapter.load(name, turn_based=turn_based)
    rng = random.Random(SEED)
    choice = rng.choice
    players = range(game.num_players())

    def play(i: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
                continue
            if state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def aec(name: str, actions: str = "full") -> Callable[[int], int]:
    from meeple.adapters import pettingzoo as adapter

    env = adapter.env(name, actions=actions)
    rng = np.random.default_rng(SEED)

    def play(i: int) -> int:
        env.reset(seed=i)
        steps = 0
        for _ in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        return steps

    return play


def parallel(name: str) -> Callable[[int], int]:
    from meeple.adapters import pettingzoo as adapter

    env = adapter.parallel_env(name)
    rng = np.random.default_rng(SEED)

    def play(i: int) -> int:
        _, infos = env.reset(seed=i)
        steps = 0
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"])))
                       for a in env.agents}
            *_, infos = env.step(actions)
            steps += 1
        return steps

    return play


def gym(name: str, actions: str = "full") -> Callable[[int], int]:
    from meeple.adapters import gymnasium as adapter

    env = adapter.make(name, seat=0, opponents="random", actions=actions)
    rng = np.random.default_rng(SEED)

    def play(i: int) -> int:
        _, info = env.reset(seed=i)
        steps = 0
        while True:
            _, _, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
            if terminated or truncated:
                return steps

    return play


def bench_game(name: str, seconds: float) -> dict:
    game = load_game(name)
    kinds: dict[str, Callable[[], Callable[[int], int]]] = {
        "native": lambda: native(game, encode=False),
        "native+obs": lambda: native(game, encode=True),
        "openspiel": lambda: openspiel(name, turn_based=False),
        "aec": lambda: aec(name),
        "gym": lambda: gym(name),
        "gym-compact": lambda: gym(name, "compact"),
        "aec-compact": lambda: aec(name, "compact"),
    }
    if game.capabilities.simultaneous:
        kinds["openspiel-turns"] = lambda: openspiel(name, turn_based=True)
        kinds["parallel"] = lambda: parallel(name)
    runs: dict[str, list[dict]] = {k: [] for k in kinds}
    for _ in range(REPEATS):  # interleaved, so machine noise hits every kind alike
        for kind, make in kinds.items():
            runs[kind].append(timed(make(), seconds))
    best = {k: max(r["games_per_s"] for r in v) for k, v in runs.items()}
    steps = {k: max(r["steps_per_s"] for r in v) for k, v in runs.items()}
    return {
        "games_per_s": best,
        "steps_per_s": steps,
        "ratio_to_native": {k: v / best["native"] for k, v in best.items()},
        "compact_to_full": {"gym_games": best["gym-compact"] / best["gym"],
                            "gym_steps": steps["gym-compact"] / steps["gym"],
                            "aec_games": best["aec-compact"] / best["aec"],
                            "aec_steps": steps["aec-compact"] / steps["aec"]},
        "steps_per_game": {k: v[0]["steps"] / v[0]["games"] for k, v in runs.items()},
        "runs": runs,
    }


def print_table(report: dict) -> None:
    kinds = ["native", "native+obs", "openspiel", "openspiel-turns", "aec", "parallel", "gym",
             "gym-compact", "aec-compact"]
    print(f"{'game':26}" + "".join(f"{k:>16}" for k in kinds))
    for name, result in report["games"].items():
        cells = []
        for k in kinds:
            rate = result["games_per_s"].get(k)
            cells.append("-" if rate is None else
                         f"{rate:7.1f} ({result['ratio_to_native'][k]:.2f})")
        print(f"{name:26}" + "".join(f"{c:>16}" for c in cells))
    print("\ngames/s (ratio to native games/s in the same run)")
    print(f"\n{'game':26}{'gym steps/s full':>18}{'compact':>10}{'ratio':>7}"
          f"{'aec steps/s full':>18}{'compact':>10}{'ratio':>7}")
    for name, result in report["games"].items():
        st, ratio = result["steps_per_s"], result["compact_to_full"]
        print(f"{name:26}{st['gym']:18.0f}{st['gym-compact']:10.0f}{ratio['gym_steps']:7.2f}"
              f"{st['aec']:18.0f}{st['aec-compact']:10.0f}{ratio['aec_steps']:7.2f}")
    print("steps/s of the table's codes and of step-wise codes (compact/full in the same run)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="length of each measurement (default 2)")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "results" / "adapters.json",
                        help="JSON report path (default benchmarks/results/adapters.json)")
    parser.add_argument("--games", nargs="+", metavar="NAME",
                        help="only these games (default: every game with an encoding)")
    args = parser.parse_args(argv)
    names = encoded_game_names()
    if args.games:
        unknown = sorted(set(args.games) - set(names))
        if unknown:
            parser.error(f"no encoded games {unknown}; encoded: {', '.join(names)}")
        names = [n for n in names if n in args.games]
    report = {"machine": machine_info(), "seconds_per_measurement": args.seconds,
              "repeats": REPEATS, "statistic": "best of the interleaved repeats", "games": {}}
    for name in names:
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        report["games"][name] = bench_game(name, args.seconds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print_table(report)
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
