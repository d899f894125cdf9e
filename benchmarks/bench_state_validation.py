"""Count what ``state_from_json`` makes of randomly mutated states, per game.

Each case: a seeded game played randomly for 0..80 steps, one random mutation of its JSON
(tests/state_mutation.py), then load and random play to the end. Prints, per game, how many
were refused, loaded and played on, or crashed/hung (a case over 10 s counts as a hang).

    PYTHONPATH=src:. python benchmarks/bench_state_validation.py [cases per game]
"""

from __future__ import annotations

import json
import random
import signal
import sys
from collections import Counter

from meeple import load_game
from tests.state_mutation import mutate, outcome

GAMES = ("damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
         "epoch-ellipse")


class Hang(Exception):
    pass


def _alarm(signum, frame):  # noqa: ANN001, ARG001
    raise Hang


def main(cases: int) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    for name in GAMES:
        game = load_game(name)
        counts: Counter[str] = Counter()
        examples: dict[str, str] = {}
        for case in range(cases):
            rng = random.Random(case)
            state = game.new_initial_state(case)
            state.playout(rng, max_steps=rng.randrange(0, 80))
            data, note = mutate(json.loads(json.dumps(state.to_json())), rng)
            signal.alarm(10)
            try:
                result = outcome(game, data, rng)
            except Hang:
                result = "hang"
            finally:
                signal.alarm(0)
            key = result.split(":")[0]
            counts[key] += 1
            examples.setdefault(key, f"{note} => {result[:160]}")
        print(name, dict(counts))
        for key, text in examples.items():
            if key != "refused":
                print("   ", key, "e.g.", text)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
