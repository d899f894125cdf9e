#!/usr/bin/env python
"""The playtest lab at scale: job scaling, Ray against the process pool, the cost of storing
records, a big stored run and its report (Battle of the Four Gods, random bots).

    python benchmarks/bench_lab.py                          # defaults below, about 5 minutes
    python benchmarks/bench_lab.py --games 4000 --big 20000 --repeats 1   # quick look
    python benchmarks/bench_lab.py --no-ray --out /tmp/lab.json

Measurements (every rate in games per second, best of ``--repeats`` interleaved runs):

1. scaling: ``run_playtest`` of ``--games`` games with 1 job (in this process) and with 2
   (a process pool), no store; ratio = 2-job rate / 1-job rate (target >= 1.8). Also from
   CPU time (this process and the pool workers): ``cpu_ratio = 2 x CPU of 1 job / CPU of
   2 jobs``, what 2 jobs reach on 2 idle cores; it does not depend on the machine's load.
2. Ray: the same games with 2 jobs on a local Ray cluster (started once before, its start-up
   time reported apart) against the process pool; ratio = Ray time / pool time (target <= 1.15).
3. storing: the same games with 2 jobs with and without a store (Parquet parts written as they
   finish, read back at the end); ratio = stored time / unstored time, and the same for CPU
   time (``cpu_ratio``).
4. big run: ``meeple playtest battle-of-the-four-gods --games BIG --jobs 0 --quiet`` as a real
   subprocess (stores every game, writes summary.json, results.jsonl and report.html), and
   ``meeple report DIR`` on its output, wall times including interpreter start.

The load average of the machine is recorded before each section (the scaling ratio means
little on a machine that other work keeps busy). Prints a table and writes JSON
(``benchmarks/results/lab.json`` by default).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_playouts import machine_info

from meeple.engine.registry import load_game
from meeple.lab.run.runner import run_playtest
from meeple.lab.run.store import RunStore, run_config

GAME = "battle-of-the-four-gods"
BOTS = ["random"]


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(game, games: int, jobs: int, backend: str = "process", store_dir: Path | None = None,
           seed: int = 0) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its reaped children: the pool workers,
    not Ray's) of one run."""
    store = None
    if store_dir is not None:
        store = RunStore.create(store_dir, run_config(game, BOTS, games, seed))
    cpu = time.process_time() + _children_cpu()
    start = time.perf_counter()
    run_playtest(game, BOTS, games, seed, jobs, backend=backend, store=store)
    return time.perf_counter() - start, time.process_time() + _children_cpu() - cpu


def _interleaved(runs: dict, repeats: int) -> tuple[dict[str, list[float]],
                                                    dict[str, list[float]]]:
    """Wall and CPU seconds of each run, ``repeats`` rounds of every run in turn."""
    wall: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            w, c = fn()
            wall[name].append(round(w, 3))
            cpu[name].append(round(c, 3))
    return wall, cpu


def _scaling(game, n: int, repeats: int) -> dict:
    entry: dict = {"load_before": _load()}
    times, cpu = _interleaved({"jobs1": lambda: _timed(game, n, 1),
                               "jobs2": lambda: _timed(game, n, 2)}, repeats)
    rate1, rate2 = n / min(times["jobs1"]), n / min(times["jobs2"])
    return entry | {
        "seconds": times, "cpu_seconds": cpu, "jobs1_per_s": rate1, "jobs2_per_s": rate2,
        "ratio": rate2 / rate1, "target": ">= 1.8",
        # what 2 jobs would reach on 2 idle cores: 2 x (CPU per game of 1 job / of 2 jobs)
        "cpu_ratio": 2 * min(cpu["jobs1"]) / min(cpu["jobs2"]), "load_after": _load()}


def _ray(game, n: int, repeats: int) -> dict:
    import ray

    entry: dict = {"load_before": _load()}
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    entry["init_seconds"] = time.perf_counter() - start
    _timed(game, 200, 2, "ray")  # warm the workers (imports) once
    times, _ = _interleaved({"process": lambda: _timed(game, n, 2),
                             "ray": lambda: _timed(game, n, 2, "ray")}, repeats)
    ray.shutdown()
    return entry | {"seconds": times, "ratio": min(times["ray"]) / min(times["process"]),
                    "target": "<= 1.15", "load_after": _load()}


def _storing(game, n: int, repeats: int, tmp: Path) -> dict:
    entry: dict = {"load_before": _load()}
    times, cpu = _interleaved({"unstored": lambda: _timed(game, n, 2),
                               "stored": lambda: _timed(game, n, 2, store_dir=tmp / "s")},
                              repeats)
    return entry | {"seconds": times, "cpu_seconds": cpu,
                    "ratio": min(times["stored"]) / min(times["unstored"]),
                    "cpu_ratio": min(cpu["stored"]) / min(cpu["unstored"]),
                    "load_after": _load(),
                    "bytes_per_game": sum(p.stat().st_size for p in
                                          (tmp / "s" / "records").iterdir()) / n}


def _big(games: int, tmp: Path) -> dict:
    """The big stored run and its report, as a user runs them (wall times of the commands)."""
    entry: dict = {"games": games, "load_before": _load()}
    out = tmp / "big"
    cli = [sys.executable, "-m", "meeple.cli"]
    start = time.perf_counter()
    subprocess.run([*cli, "playtest", GAME, "--games", str(games), "--out", str(out),
                    "--quiet"], check=True, capture_output=True)
    entry["playtest_seconds"] = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([*cli, "report", str(out)], check=True, capture_output=True)
    entry["report_seconds"] = time.perf_counter() - start
    run = json.loads((out / "run.json").read_text())
    entry["play_seconds"] = run["sessions"][0]["elapsed_seconds"]
    entry["stored_mb"] = sum(p.stat().st_size for p in (out / "records").iterdir()) / 1e6
    entry["parts"] = len(list((out / "records").iterdir()))
    entry["results_jsonl_mb"] = (out / "results.jsonl").stat().st_size / 1e6
    entry["load_after"] = _load()
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per measurement")
    parser.add_argument("--big", type=int, default=100000, help="games of the big stored run")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray comparison")
    parser.add_argument("--sections", default="scaling,ray,storing,big",
                        help="which measurements, comma-separated (default: all four)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "lab.json")
    args = parser.parse_args()
    sections = set(args.sections.split(",")) - ({"ray"} if args.no_ray else set())
    game = load_game(GAME)
    n = args.games
    report: dict = {"machine": machine_info(), "game": GAME, "bots": BOTS, "games": n,
                    "repeats": args.repeats}
    tmp = Path(tempfile.mkdtemp(prefix="bench-lab-"))
    try:
        if "scaling" in sections:
            report["scaling"] = _scaling(game, n, args.repeats)
        if "ray" in sections:
            report["ray"] = _ray(game, n, args.repeats)
        if "storing" in sections:
            report["storing"] = _storing(game, n, args.repeats, tmp)
        if "big" in sections:
            report["big"] = _big(args.big, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{GAME}, random bots, {n} games per measurement, best of {args.repeats}; "
          f"{report['machine']['cpu_count']} CPUs, commit {report['machine']['meeple_commit']}")
    if "scaling" in report:
        s = report["scaling"]
        print(f"scaling   1 job {s['jobs1_per_s']:6.0f} games/s, 2 jobs {s['jobs2_per_s']:6.0f} "
              f"games/s: ratio {s['ratio']:.2f} (target >= 1.8); from CPU time "
              f"{s['cpu_ratio']:.2f}   load {s['load_before']} -> {s['load_after']}")
    if "ray" in report:
        r = report["ray"]
        print(f"ray       pool {min(r['seconds']['process']):.2f} s, ray "
              f"{min(r['seconds']['ray']):.2f} s: ratio {r['ratio']:.3f} (target <= 1.15); "
              f"ray.init {r['init_seconds']:.1f} s   load {r['load_before']} -> "
              f"{r['load_after']}")
    if "storing" in report:
        st = report["storing"]
        print(f"storing   unstored {min(st['seconds']['unstored']):.2f} s, stored "
              f"{min(st['seconds']['stored']):.2f} s: ratio {st['ratio']:.3f}, CPU time "
              f"{st['cpu_ratio']:.3f}; {st['bytes_per_game']:.0f} bytes/game   load "
              f"{st['load_before']} -> {st['load_after']}")
    if "big" in report:
        b = report["big"]
        print(f"big run   {b['games']} games: meeple playtest {b['playtest_seconds']:.1f} s "
              f"(play+store {b['play_seconds']:.1f} s), meeple report {b['report_seconds']:.1f} "
              f"s, {b['stored_mb']:.1f} MB in {b['parts']} parts   load {b['load_before']} -> "
              f"{b['load_after']}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
