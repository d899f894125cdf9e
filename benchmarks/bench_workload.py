#!/usr/bin/env python
"""The real workload of a designer, per game, as ratios against the same game's random play.

    python benchmarks/bench_workload.py [--seconds S] [--quick] [--games NAME ...]
                                        [--commands ladder,study] [--out PATH]
    python benchmarks/bench_workload.py --profile [--games NAME ...] > profile.md

For every registered game (default variant and seat count), measured in the same run and
interleaved ``--repeats`` times (each number the best run):

- ``random steps/s``: the baseline, whole random games through the public API loop of
  ``bench_playouts.py`` (``apply_actions`` calls per second);
- ``lab H-v-H games/s``: heuristic-against-heuristic games through the lab
  (``meeple.lab.run.runner.run_playtest`` with ``jobs=1``: bots, record and trace included),
  and what one such game and one of its steps cost in random steps;
- ``decision cost``: one heuristic decision (``view`` + ``legal_actions`` + ``bot.act``, over
  every decision point of seeded random games, as ``bench_playouts.py`` measures Four Gods) in
  random steps, and the same for ``bot.act`` alone inside heuristic games (the bots see the
  game they play, so habit-tracking bots are measured as they run);
- with ``--commands``: the wall time of ``meeple ladder GAME`` and/or ``meeple study GAME``
  with their defaults (subprocesses of this interpreter running this checkout's code; a study
  takes about ten minutes a game).

Every measurement is timed in CPU time of this process (``time.process_time``, also around
each ``bot.act`` call inside games), so other jobs on the machine disturb it less. It prints a
table and writes ``benchmarks/results/workload.json``. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_playouts import engine_playouts, machine_info, sample_states  # noqa: E402

from meeple.bots import bot_names, make_bot  # noqa: E402
from meeple.engine.episode import play_episode  # noqa: E402
from meeple.engine.registry import game_names, load_game  # noqa: E402
from meeple.lab.run.runner import run_playtest  # noqa: E402

SEED = 20261125
BOT = "heuristic"
#: CPU time of this process: steadier than wall time on a machine shared with other jobs
#: (the time the process waits for a core is not counted). Every measurement uses it.
clock = time.process_time


# ------------------------------------------------------------------------ measurements
def random_steps(game, seconds: float, seed: int = SEED) -> dict:
    """Whole random games through the public API loop (``bench_playouts.engine_playouts``),
    for about ``seconds`` of CPU time: the baseline."""
    return engine_playouts(game, seconds, seed, clock=clock)


def lab_games(game, games: int, seed: int = SEED) -> dict:
    """``games`` heuristic-against-heuristic games through the lab runner, in this process."""
    start = clock()
    results, _ = run_playtest(game, [BOT], games, seed=seed, jobs=1)
    elapsed = clock() - start
    return {"games": games, "seconds": round(elapsed, 4), "games_per_s": games / elapsed,
            "mean_length": sum(r["length"] for r in results) / games}


class TimedBot:
    """Wraps a bot: forwards ``act`` and adds up its calls and their time."""

    def __init__(self, bot) -> None:
        self.bot, self.calls, self.seconds = bot, 0, 0.0

    def act(self, view, legal_actions):
        began = clock()
        action = self.bot.act(view, legal_actions)
        self.seconds += clock() - began
        self.calls += 1
        return action


def in_game_decisions(game, seconds: float, seed: int = SEED) -> dict:
    """``bot.act`` alone, timed inside heuristic-against-heuristic games, and the steps."""
    calls = steps = games = 0
    act_seconds = 0.0
    deadline = clock() + seconds
    while True:
        agents = [TimedBot(make_bot(BOT, game, s, seed + games)) for s in range(game.players)]
        state, record = play_episode(game, seed + games, agents)
        games += 1
        steps += len(record.steps)
        calls += sum(a.calls for a in agents)
        act_seconds += sum(a.seconds for a in agents)
        if clock() >= deadline:
            break
    return {"games": games, "steps": steps, "decisions": calls, "act_seconds": act_seconds,
            "act_per_s": calls / act_seconds, "decisions_per_step": calls / steps}


def sampled_decisions(game, samples: list, seconds: float) -> dict:
    """``view`` + ``legal_actions`` + ``act`` per second over ``samples`` (as bench_playouts)."""
    bots = {s: make_bot(BOT, game, s, SEED) for s in range(game.players)}
    done = 0
    start = clock()
    deadline = start + seconds
    while True:
        for state, seat in samples:
            bots[seat].act(state.view(seat), state.legal_actions(seat))
        done += len(samples)
        now = clock()
        if now >= deadline:
            break
    return {"decisions": done, "seconds": round(now - start, 4), "per_s": done / (now - start)}


def command_seconds(command: str, name: str) -> dict:
    """Wall seconds of ``meeple COMMAND NAME`` with its defaults, this checkout's code."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(HERE.parent / "src"), os.environ.get("PYTHONPATH", "")) if p)}
    with tempfile.TemporaryDirectory(prefix=f"bench-{command}-") as out:
        argv = [sys.executable, "-m", "meeple.cli", command, name, "--out", out, "--quiet"]
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
    result = {"argv": " ".join(argv[1:4] + [name]), "seconds": round(elapsed, 2),
              "returncode": done.returncode}
    if done.returncode:
        result["stderr"] = done.stderr[-2000:]
    return result


# ----------------------------------------------------------------------------- profiles
#: Games per profile: about 5-15 s of profiled play each on the development machine.
PROFILE_GAMES = {"heuristic": {"battle-of-the-four-gods": 60, "damocles": 40, "epoch-ellipse": 120,
                               "ozymandias-campaign": 40, "ozymandias-market": 120},
                 "random": {"battle-of-the-four-gods": 400, "damocles": 80, "epoch-ellipse": 80,
                            "ozymandias-campaign": 10, "ozymandias-market": 40}}


def random_games(game, games: int, seed: int = SEED) -> None:
    """``games`` random games through the public API loop (the baseline's loop)."""
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            state.apply_actions(
                {s: rng.choice(state.legal_actions(s)) for s in state.current_players()})


def profile_game(name: str, top: int = 15) -> str:
    """Markdown: cProfile of ``name``'s heuristic lab play and random play, ``top`` rows each
    by cumulative and by own time."""
    game = load_game(name)
    out = []
    for kind in ("heuristic", "random"):
        games = PROFILE_GAMES[kind].get(name, 20)
        profiler = cProfile.Profile()
        if kind == "heuristic":
            if BOT not in bot_names(game):
                continue
            profiler.runcall(run_playtest, game, [BOT], games, 0, 1)
            what = f"heuristic play (lab run_playtest, jobs=1, {games} games)"
        else:
            profiler.runcall(random_games, game, games)
            what = f"random play (public API loop, {games} games)"
        for key in ("cumulative", "tottime"):
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).strip_dirs().sort_stats(key).print_stats(top)
            lines = text.getvalue().splitlines()
            head = next((line.strip() for line in lines if "function calls" in line), "")
            table = "\n".join(lines[next(i for i, line in enumerate(lines)
                                         if line.lstrip().startswith("ncalls")):]).rstrip()
            out.append(f"### {name}: {what}, top {top} by {key}\n\n```\n{head}\n{table}\n```\n")
    return "\n".join(out)


# ------------------------------------------------------------------------------ driver
def bench_game(name: str, seconds: float, repeats: int, sample_games: int) -> dict:
    game = load_game(name)
    if BOT not in bot_names(game):
        return {"skipped": f"{name} has no {BOT} bot"}
    samples = sample_states(game, sample_games)
    # size the lab run to about ``seconds`` from a short first run
    probe = lab_games(game, max(2, game.players))
    lab_count = max(game.players, round(seconds * probe["games_per_s"]))
    random_runs, lab_runs, sampled_runs, in_game_runs = [], [], [], []
    for _ in range(repeats):  # interleaved, so machine noise hits every number alike
        random_runs.append(random_steps(game, seconds))
        lab_runs.append(lab_games(game, lab_count))
        sampled_runs.append(sampled_decisions(game, samples, seconds))
        in_game_runs.append(in_game_decisions(game, seconds))
    step_rate = max(r["steps_per_s"] for r in random_runs)
    lab = max(lab_runs, key=lambda r: r["games_per_s"])
    sampled = max(r["per_s"] for r in sampled_runs)
    in_game = max(in_game_runs, key=lambda r: r["act_per_s"])
    game_cost = step_rate / lab["games_per_s"]  # random steps per lab game
    lab_steps = in_game["steps"] / in_game["games"]  # steps per heuristic game
    return {
        "variant": game.variant, "players": game.players,
        "random_steps_per_s": step_rate,
        "random_games_per_s": max(r["games_per_s"] for r in random_runs),
        "lab_games_per_s": lab["games_per_s"],
        "lab_games_over_random_steps": lab["games_per_s"] / step_rate,
        "lab_game_in_random_steps": game_cost,
        "lab_steps_per_game": lab_steps,
        "lab_step_in_random_steps": game_cost / lab_steps,
        "decisions_per_s": sampled,
        "decision_in_random_steps": step_rate / sampled,
        "act_per_s_in_game": in_game["act_per_s"],
        "act_in_random_steps_in_game": step_rate / in_game["act_per_s"],
        "sample_decisions": len(samples),
        "runs": {"random": random_runs, "lab": lab_runs, "sampled": sampled_runs,
                 "in_game": in_game_runs},
    }


def print_table(report: dict) -> None:
    m = report["machine"]
    print(f"\nmeeple workload benchmark - Python {m['python']}, {m['cpu_count']} CPUs, commit "
          f"{m['meeple_commit']}; best of {report['repeats']} x {report['seconds']} s, one core")
    print(f"{'game':<26}{'seats':>5}{'random st/s':>12}{'lab H g/s':>10}{'game=rnd st':>12}"
          f"{'step=rnd st':>12}{'decision':>9}{'act in game':>12}")
    for name, r in report["games"].items():
        if "skipped" in r:
            print(f"{name:<26} skipped: {r['skipped']}")
            continue
        print(f"{name:<26}{r['players']:>5}{r['random_steps_per_s']:>12,.0f}"
              f"{r['lab_games_per_s']:>10,.1f}{r['lab_game_in_random_steps']:>12,.0f}"
              f"{r['lab_step_in_random_steps']:>12.1f}{r['decision_in_random_steps']:>9.1f}"
              f"{r['act_in_random_steps_in_game']:>12.1f}")
    print("  (game=rnd st: one lab heuristic game costs this many random steps; step=rnd st: one"
          " of its steps;\n   decision: view+legal+act on sampled states, in random steps,"
          " target <= 10; act in game: act alone)")
    for cmd in report.get("commands", []):
        print(f"  meeple {cmd['command']} {cmd['game']}: {cmd['seconds']:.1f} s"
              + ("" if cmd["returncode"] == 0 else f" (FAILED, exit {cmd['returncode']})"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="length of each measurement (default 3)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved repeats, best kept (default 3)")
    parser.add_argument("--quick", action="store_true",
                        help="1 s measurements, 2 repeats, fewer sampled states")
    parser.add_argument("--games", nargs="+", metavar="NAME",
                        help="only these games (default: every registered game)")
    parser.add_argument("--commands", default="",
                        help="also time these commands with their defaults, comma-separated: "
                             "ladder, study (default none; a study takes ~10 min a game)")
    parser.add_argument("--profile", action="store_true",
                        help="instead: print cProfile tables (markdown) of each game's "
                             "heuristic lab play and random play")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "workload.json",
                        help="JSON report path (default benchmarks/results/workload.json)")
    args = parser.parse_args(argv)
    seconds, repeats, sample_games = args.seconds, args.repeats, 20
    if args.quick:
        seconds, repeats, sample_games = 1.0, 2, 8
    commands = [c for c in args.commands.split(",") if c]
    if set(commands) - {"ladder", "study"}:
        parser.error(f"--commands takes ladder and/or study, not {args.commands!r}")
    names = game_names()
    if args.games:
        unknown = sorted(set(args.games) - set(names))
        if unknown:
            parser.error(f"unknown games {unknown}; registered: {', '.join(names)}")
        names = [n for n in names if n in args.games]
    if args.profile:
        for name in names:
            print(profile_game(name))
        return 0

    report = {"machine": machine_info(), "seconds": seconds, "repeats": repeats,
              "load_before": os.getloadavg(), "games": {}, "commands": []}
    for name in names:
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        report["games"][name] = bench_game(name, seconds, repeats, sample_games)
    for command in commands:
        for name in names:
            print(f"timing meeple {command} {name} ...", file=sys.stderr, flush=True)
            report["commands"].append({"command": command, "game": name,
                                       **command_seconds(command, name)})
    report["load_after"] = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print_table(report)
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
