#!/usr/bin/env python
"""Strength of the default search bot: one ``ismcts`` seat among the game's heuristic seats.

    python benchmarks/bench_search_strength.py [--games N] [--jobs J] [--seed S]
        [--bot LABEL] [--team] [--only NAME ...] [--out PATH]

For every game (default variant and seat count) it plays ``N`` games through the lab
(``run_playtest``, so seats rotate: game ``i`` puts the search seat in seat ``i % players``)
with the line-up ``[bot] + ["heuristic"] * (players - 1)`` (``--team``: the bot in every seat,
a cooperative game's team of searchers) on the same seeds, and reports:

- competitive games: the search seat's win share (its return, ties shared) with a 95% Wilson
  interval, against the fair share ``1 / players``;
- cooperative games: the team's win rate with one search seat among heuristic teammates, with
  its 95% Wilson interval;
- the wall time of the run and a digest of every game's returns and length, so two runs with
  the same seeds can be checked to have played the same games.

This is the strength check behind a change of a game's default search budget (issue 22): the
new default's share must stay inside the interval measured before, on the same seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from meeple.engine.registry import game_names, load_game
from meeple.lab.analysis.stats import wilson
from meeple.lab.run.runner import run_playtest


def strength(name: str, games: int, seed: int, jobs: int, bot: str = "ismcts",
             team: bool = False) -> dict:
    """One search seat among heuristic seats (``team``: the bot in every seat) in ``games``
    games of ``name``: its share (or the team's win rate) with a 95% Wilson interval, the
    wall time and a digest of the games."""
    game = load_game(name)
    lineup = [bot] * game.players if team else [bot] + ["heuristic"] * (game.players - 1)
    start = time.perf_counter()
    results, _ = run_playtest(game, lineup, games, seed, jobs)
    seconds = time.perf_counter() - start
    results = sorted(results, key=lambda r: r["index"] if "index" in r else r.get("seed", 0))
    if game.capabilities.cooperative:
        wins = sum(1 for r in results if (r.get("outcome") or {}).get(
            "team_win", max(r["returns"]) > 0))
        measure = "team_win_rate"
    else:
        wins = sum(r["returns"][list(r["bots"]).index(bot)] for r in results)
        measure = "search_share"
    low, high = wilson(wins, games)
    digest = hashlib.sha256(json.dumps(
        [[list(r["returns"]), r["length"]] for r in results]).encode()).hexdigest()[:16]
    return {"game": name, "players": game.players, "bot": bot, "games": games, "seed": seed,
            "measure": measure, "value": round(wins / games, 4),
            "ci": [round(low, 4), round(high, 4)], "fair_share": round(1 / game.players, 4),
            "seconds": round(seconds, 1), "digest": digest}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--team", action="store_true", help="the bot in every seat")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for name in args.only or game_names():
        row = strength(name, args.games, args.seed, args.jobs, args.bot, args.team)
        rows.append(row)
        print(f"{row['game']} | {row['bot']} | {row['measure']} {row['value']:.3f} "
              f"[{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] | {row['games']} games | "
              f"{row['seconds']} s | {row['digest']}", flush=True)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
