#!/usr/bin/env python
"""Random-playout speed of every registered meeple game, on one core.

    python benchmarks/bench_playouts.py [--seconds S] [--out PATH] [--games NAME ...]

For every game (default variant, default seat count) it plays whole games with uniformly random
legal actions through the public engine API and reports games/s, steps/s (``apply_actions``
calls) and the mean game length (``state.length()``).

For Battle of the Four Gods it also times a hand-inlined loop of the same rules (plain ints and
precomputed tables, no engine objects, the same uniform choice with the same ``random.Random``)
and reports engine/inline; the heuristic bot's decisions/s and ``state.clone()``/s are reported
as ratios against the engine's step rate from the same run. Machine speed cancels out of the
ratios, so compare those across machines, not the raw rates. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import meeple
from meeple.bots import make_bot
from meeple.engine.registry import game_names, load_game

FOUR_GODS = "battle-of-the-four-gods"
REPEATS = 3  # interleaved rounds of measurements; each number is the best of these
SEED = 20240601


# --------------------------------------------------------------------------- engine loop
def engine_playouts(game, seconds: float, seed: int = SEED, clock=time.perf_counter,
                    codes: bool = False) -> dict:
    """Whole random playouts through the public API until ``seconds`` of ``clock`` have
    passed (wall time by default; ``time.process_time`` for CPU time on a shared machine).
    With ``codes``, stepping with action codes (``state.legal_codes``, ``state.apply_codes``),
    the loop of a caller that keeps codes (a learner, an adapter)."""
    rng = random.Random(seed)
    choice = rng.choice
    games = steps = total_length = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = game.new_initial_state(games)
        if codes:
            legal_actions, apply_actions = state.legal_codes, state.apply_codes
        else:
            legal_actions, apply_actions = state.legal_actions, state.apply_actions
        current_players, is_terminal = state.current_players, state.is_terminal
        while not is_terminal():
            apply_actions({s: choice(legal_actions(s)) for s in current_players()})
            steps += 1
        games += 1
        total_length += state.length()
        now = clock()
        if now >= deadline:
            break
    return rates(games, steps, total_length, now - start)


#: Games per NumPy batch in :func:`batch_playouts`.
BATCH = 4096


def batch_playouts(game, seconds: float, seed: int = SEED, size: int = BATCH) -> dict:
    """Whole random playouts of Four Gods, ``size`` games at a time, stepped together with
    NumPy (``games/battle_of_the_four_gods/batch.py``; uniform legal codes, its own stream).
    Steps count each game's rounds, as in the other loops."""
    from meeple.games.battle_of_the_four_gods.batch import FourGodsBatch

    rng = np.random.default_rng(seed)
    games = total_length = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        batch = FourGodsBatch(game, size)
        batch.playout(rng)
        games += size
        total_length += int(batch.round.sum())
        now = time.perf_counter()
        if now >= deadline:
            break
    return rates(games, total_length, total_length, now - start)


def engine_rollouts(game, seconds: float, seed: int = SEED) -> dict:
    """Whole random playouts with the engine's rollout primitive, ``state.playout(rng)``
    (the same legal tables and transition as the public loop, without re-validating the
    actions it drew from the legal tables itself)."""
    rng = random.Random(seed)
    games = steps = total_length = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state(games)
        steps += state.playout(rng)
        games += 1
        total_length += state.length()
        now = time.perf_counter()
        if now >= deadline:
            break
    return rates(games, steps, total_length, now - start)


def rates(games: int, steps: int, total_length: int, elapsed: float) -> dict:
    return {
        "games": games,
        "seconds": round(elapsed, 4),
        "games_per_s": games / elapsed,
        "steps_per_s": steps / elapsed,
        "mean_length": total_length / games,
    }


# ------------------------------------------------------------- Four Gods, hand-inlined
# The seed variant, hard-coded. ``four_gods_matches_inline`` checks the registered default.
INLINE_RULES = {
    "start_energy": 100, "attack_cost": 1, "defend_cost": 1, "damage": 3, "defend_refund": 0,
    "max_actions": 3, "limit_mode": "cost", "stall_rounds": 0, "max_rounds": 1000,
    "reveal_lock": False,
}
N = 4
START, DAMAGE = INLINE_RULES["start_energy"], INLINE_RULES["damage"]
MAX_ACTIONS, MAX_ROUNDS = INLINE_RULES["max_actions"], INLINE_RULES["max_rounds"]
DEFEND_SHIFT = 4  # a selection is a mask: bit t = attack seat t, bit 4+t = defend against t


def _selections(seat: int) -> list[int]:
    """Every indicator set of ``seat`` as a mask, ordered by size, then attacks before defends,
    then seat order (the rule book's enumeration; the engine happens to use the same order)."""
    opponents = [t for t in range(N) if t != seat]
    indicators = [(0, t) for t in opponents] + [(1, t) for t in opponents]
    chosen = []
    for bits in range(1 << len(indicators)):
        subset = [indicators[i] for i in range(len(indicators)) if bits >> i & 1]
        chosen.append((len(subset), subset))
    chosen.sort()
    return [sum(1 << (t + DEFEND_SHIFT * kind) for kind, t in subset) for _, subset in chosen]


def _legal_tables() -> list[list[list[tuple[int, ...]]]]:
    """LEGAL[seat][alive_mask][min(energy, 3)]: the legal selections, as a tuple of masks.
    Legal: only alive colours, at most 3 indicators, indicator count <= energy."""
    table = []
    for seat in range(N):
        every = _selections(seat)
        per_mask = []
        for alive in range(1 << N):
            allowed = alive | alive << DEFEND_SHIFT
            per_mask.append([
                tuple(m for m in every if not m & ~allowed and m.bit_count() <= cap)
                for cap in range(MAX_ACTIONS + 1)
            ])
        table.append(per_mask)
    return table


LEGAL = _legal_tables()
COST = [m.bit_count() for m in range(256)]  # every indicator costs 1
TARGETS = [tuple(t for t in range(N) if m >> t & 1) for m in range(256)]  # attacked seats


def inline_game(rng: random.Random) -> tuple[int, tuple[int, ...]]:
    """One random playout of the seed rules; returns (rounds, winners)."""
    choice = rng.choice
    energy = [START] * N
    alive = tuple(range(N))
    rows = [LEGAL[s][(1 << N) - 1] for s in range(N)]  # rows[s][min(energy, 3)]
    picks = [0] * N  # this round's selection per seat; 0 for eliminated seats
    rounds = 0
    while True:
        for s in alive:  # Planning: each alive seat picks uniformly, in seat order
            e = energy[s]
            picks[s] = choice(rows[s][e if e < 3 else 3])
        for s in alive:  # Results: costs, then simultaneous attacks
            m = picks[s]
            energy[s] -= COST[m]
            guard = 16 << s
            for t in TARGETS[m]:
                if not picks[t] & guard:
                    energy[t] -= DAMAGE
        rounds += 1
        for s in alive:
            if energy[s] <= 0:
                break
        else:  # nobody fell
            if rounds < MAX_ROUNDS:
                continue
        still = tuple(s for s in alive if energy[s] > 0)
        if len(still) == 1:
            return rounds, still
        if not still or rounds >= MAX_ROUNDS:  # all fell: best among them; cap: best alive
            pool = still or alive
            best = max(energy[s] for s in pool)
            return rounds, tuple(s for s in pool if energy[s] == best)
        for s in alive:
            if energy[s] <= 0:
                picks[s] = 0
        alive = still
        mask = sum(1 << s for s in still)
        rows = [LEGAL[s][mask] for s in range(N)]


def inline_playouts(seconds: float, seed: int = SEED + 1) -> dict:
    """Like :func:`engine_playouts`, with :func:`inline_game`. Its own seed, so the mean-length
    check compares two independent samples (``replay_check`` covers identical streams)."""
    rng = random.Random(seed)
    games = total_length = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        rounds, _winners = inline_game(rng)
        games += 1
        total_length += rounds
        now = time.perf_counter()
        if now >= deadline:
            break
    return rates(games, total_length, total_length, now - start)


def four_gods_matches_inline(game) -> bool:
    return game.players == N and all(game.params[k] == v for k, v in INLINE_RULES.items())


def replay_check(game, games: int = 300, seed: int = SEED) -> dict:
    """Same seed, same stream: the engine and the inline loop should play identical games
    (this holds while both list legal selections in the same order; the distribution check
    on mean lengths does not depend on that)."""
    rng_e, rng_i = random.Random(seed), random.Random(seed)
    same = 0
    for g in range(games):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            state.apply_actions(
                {s: rng_e.choice(state.legal_actions(s)) for s in state.current_players()})
        if (state.length(), tuple(state.winners())) == inline_game(rng_i):
            same += 1
    return {"games": games, "identical": same}


# ------------------------------------------------------------------- bot and clone speed
def sample_states(game, games: int = 40, seed: int = SEED) -> list:
    """Every decision point of some random playouts, as (state, seat) pairs."""
    rng = random.Random(seed + 1)
    out = []
    for g in range(games):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            snapshot = state.clone()
            out.extend((snapshot, s) for s in state.current_players())
            state.apply_actions(
                {s: rng.choice(state.legal_actions(s)) for s in state.current_players()})
    return out


def bot_decisions(game, samples: list, seconds: float) -> dict:
    bots = {s: make_bot("heuristic", game, s, SEED) for s in range(game.players)}
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state, seat in samples:
            bots[seat].act(state.view(seat), state.legal_actions(seat))
        done += len(samples)
        now = time.perf_counter()
        if now >= deadline:
            break
    return {"decisions": done, "seconds": round(now - start, 4), "per_s": done / (now - start)}


def clones(samples: list, seconds: float) -> dict:
    states = [state for state, seat in samples if seat == state.current_players()[0]]
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state in states:
            state.clone()
        done += len(states)
        now = time.perf_counter()
        if now >= deadline:
            break
    return {"clones": done, "seconds": round(now - start, 4), "per_s": done / (now - start)}


# ---------------------------------------------------------------------------- driver
def machine_info() -> dict:
    package = Path(meeple.__file__).parent
    try:
        def git(*args: str) -> str:
            return subprocess.run(["git", *args], capture_output=True, text=True, cwd=package,
                                  check=True).stdout.strip()

        commit = git("rev-parse", "--short", "HEAD")
        if git("status", "--porcelain", "--", "."):
            commit += "+uncommitted"  # the measured meeple/ differs from that commit
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "meeple_path": str(package),
        "meeple_commit": commit,
    }


def best(runs: list[dict], key: str) -> float:
    return max(r[key] for r in runs)


def summarise(runs: list[dict]) -> dict:
    return {
        "games_per_s": best(runs, "games_per_s"),
        "steps_per_s": best(runs, "steps_per_s"),
        "games_per_s_median": statistics.median(r["games_per_s"] for r in runs),
        "mean_length": sum(r["mean_length"] * r["games"] for r in runs)
        / sum(r["games"] for r in runs),
        "runs": runs,
    }


def bench_game(name: str, seconds: float) -> dict:
    """Engine playouts of ``name`` (default variant and seats), best of REPEATS runs."""
    game = load_game(name)
    runs, rollout_runs = [], []
    for _ in range(REPEATS):
        runs.append(engine_playouts(game, seconds))
        rollout_runs.append(engine_rollouts(game, seconds))
    return {"variant": game.variant, "players": game.players,
            "length_unit": game.capabilities.length_unit, **summarise(runs),
            "playout": summarise(rollout_runs)}


def bench_four_gods(seconds: float) -> tuple[dict, dict]:
    """Engine playouts, the inline baseline, bot decisions and clones, interleaved."""
    game = load_game(FOUR_GODS)
    inline_ok = four_gods_matches_inline(game)
    samples = sample_states(game)
    engine_runs, rollout_runs, inline_runs, bot_runs, clone_runs = [], [], [], [], []
    code_runs, batch_runs = [], []
    for _ in range(REPEATS):  # interleaved, so machine noise hits every number alike
        engine_runs.append(engine_playouts(game, seconds))
        rollout_runs.append(engine_rollouts(game, seconds))
        code_runs.append(engine_playouts(game, seconds, codes=True))
        batch_runs.append(batch_playouts(game, seconds))
        if inline_ok:
            inline_runs.append(inline_playouts(seconds))
        bot_runs.append(bot_decisions(game, samples, seconds))
        clone_runs.append(clones(samples, seconds))
    engine = {"variant": game.variant, "players": game.players,
              "length_unit": game.capabilities.length_unit, **summarise(engine_runs),
              "playout": summarise(rollout_runs), "codes": summarise(code_runs),
              "batch": {**summarise(batch_runs), "size": BATCH}}
    step_rate = engine["steps_per_s"]
    bot_rate, clone_rate = best(bot_runs, "per_s"), best(clone_runs, "per_s")
    extra = {
        "bot": {"name": "heuristic", "decisions_per_s": bot_rate,
                "ratio_to_engine_steps": bot_rate / step_rate, "sample_decisions": len(samples),
                "runs": bot_runs},
        "clone": {"clones_per_s": clone_rate, "ratio_to_engine_steps": clone_rate / step_rate,
                  "runs": clone_runs},
    }
    if not inline_ok:
        extra["inline"] = {"skipped": "the default variant is not the seed rules the inline "
                                      "loop implements"}
        return engine, extra
    inline = summarise(inline_runs)
    gap = abs(engine["mean_length"] - inline["mean_length"]) / inline["mean_length"]
    extra["inline"] = {
        **inline,
        "engine_over_inline": engine["games_per_s"] / inline["games_per_s"],
        "engine_over_inline_median": engine["games_per_s_median"] / inline["games_per_s_median"],
        "playout_over_inline": engine["playout"]["games_per_s"] / inline["games_per_s"],
        "playout_over_inline_median": (engine["playout"]["games_per_s_median"]
                                       / inline["games_per_s_median"]),
        "codes_over_inline": engine["codes"]["games_per_s"] / inline["games_per_s"],
        "batch_over_inline": engine["batch"]["games_per_s"] / inline["games_per_s"],
        "mean_length_gap": gap,
        "lengths_agree": gap < 0.03,
        "replay_check": replay_check(game),
    }
    return engine, extra


def profile_four_gods(seconds: float, top: int = 20) -> None:
    game = load_game(FOUR_GODS)
    profiler = cProfile.Profile()
    profiler.runcall(engine_playouts, game, seconds)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def print_table(report: dict) -> None:
    m = report["machine"]
    print(f"\nmeeple playout benchmark - Python {m['python']}, {m['platform']}, "
          f"{m['cpu_count']} CPUs, commit {m['meeple_commit']}; best of {REPEATS} x "
          f"{report['seconds_per_measurement']} s, one core")
    print(f"{'game':<28}{'variant':<10}{'seats':>5}{'games/s':>11}{'steps/s':>12}"
          f"{'mean length':>13}{'playout() games/s':>19}")
    for name, r in report["games"].items():
        print(f"{name:<28}{r['variant']:<10}{r['players']:>5}{r['games_per_s']:>11,.0f}"
              f"{r['steps_per_s']:>12,.0f}{r['mean_length']:>13.2f}"
              f"{r['playout']['games_per_s']:>19,.0f}")
    fg = report.get("four_gods")
    if not fg:
        return
    engine = report["games"][FOUR_GODS]
    inline = fg["inline"]
    print(f"\n{FOUR_GODS}:")
    if "skipped" in inline:
        print(f"  inline baseline skipped: {inline['skipped']}")
    else:
        print(f"  engine loop   {engine['games_per_s']:>10,.0f} games/s "
              f"{engine['steps_per_s']:>11,.0f} steps/s   mean length {engine['mean_length']:.2f}")
        print(f"  inline loop   {inline['games_per_s']:>10,.0f} games/s "
              f"{inline['steps_per_s']:>11,.0f} steps/s   mean length {inline['mean_length']:.2f}")
        rollout = engine["playout"]
        print(f"  playout()     {rollout['games_per_s']:>10,.0f} games/s "
              f"{rollout['steps_per_s']:>11,.0f} steps/s   mean length "
              f"{rollout['mean_length']:.2f}")
        print(f"  engine/inline {inline['engine_over_inline']:>10.3f} "
              f"(median-based {inline['engine_over_inline_median']:.3f}; target >= 0.9) "
              "public per-call API loop")
        print(f"  playout/inline{inline['playout_over_inline']:>10.3f} "
              f"(median-based {inline['playout_over_inline_median']:.3f}; target >= 1.0) "
              "state.playout(rng)")
        codes, batch = engine["codes"], engine["batch"]
        print(f"  code loop     {codes['games_per_s']:>10,.0f} games/s "
              f"{codes['steps_per_s']:>11,.0f} steps/s   mean length {codes['mean_length']:.2f}")
        print(f"  NumPy batch   {batch['games_per_s']:>10,.0f} games/s "
              f"{batch['steps_per_s']:>11,.0f} steps/s   mean length {batch['mean_length']:.2f}"
              f" ({batch['size']} games a batch)")
        print(f"  codes/inline  {inline['codes_over_inline']:>10.3f} "
              "state.legal_codes / state.apply_codes loop")
        print(f"  batch/inline  {inline['batch_over_inline']:>10.3f} "
              "FourGodsBatch.playout (the fast path; target >= 0.9)")
        print(f"  mean lengths differ by {inline['mean_length_gap']:.2%} "
              f"({'agree' if inline['lengths_agree'] else 'DISAGREE'}, limit 3%); replay check: "
              f"{inline['replay_check']['identical']}/{inline['replay_check']['games']} "
              f"seeded games identical")
    bot, clone = fg["bot"], fg["clone"]
    print(f"  heuristic bot {bot['decisions_per_s']:>10,.0f} decisions/s = "
          f"{bot['ratio_to_engine_steps']:.3f} x engine steps/s")
    print(f"  state.clone() {clone['clones_per_s']:>10,.0f} clones/s    = "
          f"{clone['ratio_to_engine_steps']:.3f} x engine steps/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="length of each measurement (default 3)")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "results" / "playouts.json",
                        help="JSON report path (default benchmarks/results/playouts.json)")
    parser.add_argument("--games", nargs="+", metavar="NAME",
                        help="only these games (default: every registered game)")
    parser.add_argument("--profile", action="store_true",
                        help="instead: cProfile the Four Gods engine loop for --seconds")
    args = parser.parse_args(argv)

    if args.profile:
        profile_four_gods(args.seconds)
        return 0
    names = game_names()
    if args.games:
        unknown = sorted(set(args.games) - set(names))
        if unknown:
            parser.error(f"unknown games {unknown}; registered: {', '.join(names)}")
        names = [n for n in names if n in args.games]

    report = {"machine": machine_info(), "seconds_per_measurement": args.seconds,
              "repeats": REPEATS, "statistic": "best of the interleaved repeats",
              "games": {}}
    for name in names:
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        if name == FOUR_GODS:
            report["games"][name], report["four_gods"] = bench_four_gods(args.seconds)
        else:
            report["games"][name] = bench_game(name, args.seconds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print_table(report)
    print(f"\nwrote {args.out}")
    inline = report.get("four_gods", {}).get("inline", {})
    return 1 if inline.get("lengths_agree") is False else 0


if __name__ == "__main__":
    sys.exit(main())
