"""Machine instructions of search and random play, this checkout against another, under
Valgrind's callgrind: a count that a busy or throttled machine does not change, for "within 5%
of before" questions that wall-clock ratios on a shared 2-core machine cannot settle.

    python benchmarks/bench_instructions.py --before /path/to/other/checkout
    python benchmarks/bench_instructions.py --before ../wt-before --games damocles --work search

For each game (default variant and seats) and each workload, both checkouts run the same
workload in a fresh interpreter under ``valgrind --tool=callgrind --instr-atstart=no``;
instruction counting is switched on (``callgrind_control -i on``) only around the workload,
after the imports, the setup and a ``gc.freeze()`` of everything built so far (so a checkout
that imports more modules at start-up is not charged for the garbage collector walking them):

* ``search``: one default ``ismcts`` decision at each of 4 positions reached by seeded random
  play (seeds 0-3, 15 + 7 x seed steps);
* ``play``: 30 whole random games (seeds 0-29) through the public loop, ``legal_actions`` and
  ``apply_actions``.

``PYTHONHASHSEED=0`` in both. It prints, per game and workload, the two counts and the change
in percent. Needs ``valgrind`` (Debian's package) on the PATH; each run takes 10-60 s.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
GAMES = ("damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
         "epoch-ellipse")


def workload(game_name: str, work: str) -> None:
    """Run one workload in this interpreter, counting only around it (see the module doc)."""
    import gc
    import random

    from meeple import load_game
    from meeple.bots import make_bot

    game = load_game(game_name)
    positions, bots = [], []
    if work == "search":
        for seed in range(4):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(15 + 7 * seed):
                if state.is_terminal():
                    break
                seat = state.current_players()[0]
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            if not state.is_terminal():
                positions.append(state)
                bots.append(make_bot("ismcts", game, state.current_players()[0], 1))
    else:
        positions = [game.new_initial_state(seed) for seed in range(30)]
    game.bot_factories()
    game.text_renderer()
    game.state_evaluator()
    gc.collect()
    gc.freeze()
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], capture_output=True, check=False)
    if work == "search":
        for state, bot in zip(positions, bots, strict=True):
            seat = state.current_players()[0]
            bot.act(state.view(seat), state.legal_actions(seat))
    else:
        for i, state in enumerate(positions):
            rng = random.Random(i)
            while not state.is_terminal():
                state.apply_actions({s: rng.choice(state.legal_actions(s))
                                     for s in state.current_players()})
    subprocess.run(["callgrind_control", "-i", "off", pid], capture_output=True, check=False)


def count(checkout: Path, game: str, work: str) -> int:
    """Instructions of ``work`` on ``game`` in ``checkout`` (its ``src`` first on the path)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(checkout / "src")}
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={tmp}/out", sys.executable, __file__, "--workload", game,
             work], cwd=checkout, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from callgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--workload":
        workload(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--work", nargs="+", choices=("search", "play"),
                        default=["search", "play"])
    args = parser.parse_args()
    print("game | work | before | this checkout | change")
    for game in args.games:
        for work in args.work:
            before, after = count(args.before.resolve(), game, work), count(HERE, game, work)
            print(f"{game} | {work} | {before:,} | {after:,} | {100 * (after / before - 1):+.2f}%")


if __name__ == "__main__":
    main()
