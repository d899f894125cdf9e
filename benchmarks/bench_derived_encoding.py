#!/usr/bin/env python
"""Derived encodings (``meeple.engine.encoding``) against hand-written ones: size and speed.

    PYTHONPATH=src python benchmarks/bench_derived_encoding.py [--seeds N] [--repeat R]

For each registered game on the component model it collects every seat's view along ``N``
seeded random games (default variant and seats), then times, in the same run and interleaved
(best of ``R`` rounds of ``timeit`` over all the views), encoding them:

* the template Crazy Eights: its derived encoding (``examples/crazy_eights.py``'s
  ``ENCODING``) against the hand-written one it replaced (copied below as
  :func:`handwritten_crazy_eights`, as it was before issue 35);
* each design but Four Gods (one derived number): the encoding derived from its declaration
  and its action table against its published (hand-written) encoding.

It prints the sizes of both tensors, microseconds per view and the ratio derived / hand-written.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for ``examples``

import examples.crazy_eights as ce  # noqa: E402
import meeple.games  # noqa: E402, F401  (registers the designs)
from meeple.engine import TensorWriter  # noqa: E402
from meeple.engine.encoding import derived_encoding  # noqa: E402
from meeple.engine.registry import game_class, load_game  # noqa: E402


def handwritten_crazy_eights(game: Any, view: Mapping[str, Any]) -> Any:
    """The template's hand-written encoding before issue 35 (``3 x 52 + 7 + 2 P`` numbers)."""
    n, me = game.players, view.get("seat") or 0
    index = {c: i for i, c in enumerate(ce.DECK)}
    out = TensorWriter(3 * 52 + 7 + 2 * game.players)
    out.multi_hot(52, [index[c] for c in view.get("hand", ())])
    out.one_hot(52, index[view["top"]])
    out.multi_hot(52, [index[c] for c in view["discard"][:-1]])
    out.one_hot(4, None if view["suit"] is None else ce.SUITS.index(view["suit"]))
    out.value(view["step"] == "name")
    out.per_seat(view["hand_sizes"], me, n, 52)
    out.seat_hot(view["to_move"], me, n)
    out.value(view["stock_size"] / 52)
    out.value(view["turns"] / game.params["max_turns"])
    return out.done()


def views(game: Any, seeds: int, steps: int = 200) -> list[dict[str, Any]]:
    """Every seat's view at each of the first ``steps`` states of ``seeds`` random games."""
    out = []
    for seed in range(seeds):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        for _ in range(steps):
            out += [state.view(s) for s in range(game.players)]
            if state.is_terminal():
                break
            state.apply_actions({s: rng.choice(state.legal_actions(s))
                                 for s in state.current_players()})
    return out


def best(fn: Callable[[Any, Any], Any], game: Any, all_views: list, repeat: int) -> float:
    """Best time per view (seconds) of ``fn(game, view)`` over ``all_views``."""
    def run() -> None:
        for v in all_views:
            fn(game, v)
    return min(timeit.repeat(run, number=1, repeat=repeat)) / len(all_views)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows = []
    game = load_game("crazy-eights")
    pairs = [("crazy-eights", game, ce.ENCODING.observation_tensor, handwritten_crazy_eights,
              ce.ENCODING.observation_shape(game)[0], 3 * 52 + 7 + 2 * game.players)]
    for name in ("damocles", "epoch-ellipse", "ozymandias-campaign", "ozymandias-market"):
        enc = game_class(name).encoding
        g = load_game(name)
        d = derived_encoding(g.state_class, enc.action_texts)  # from its declaration
        pairs.append((name, g, d.observation_tensor, enc.observation_tensor,
                      d.observation_shape(g)[0], g.observation_shape()[0]))
    print(f"{'game':<22} {'derived':>8} {'by hand':>8} {'derived us':>11} {'by hand us':>11} "
          f"{'ratio':>6}")
    for name, g, derived, hand, n_derived, n_hand in pairs:
        all_views = views(g, args.seeds)
        t_derived = t_hand = float("inf")
        for _ in range(2):  # interleaved
            t_derived = min(t_derived, best(derived, g, all_views, args.repeat))
            t_hand = min(t_hand, best(hand, g, all_views, args.repeat))
        rows.append((name, n_derived, n_hand, t_derived, t_hand))
        print(f"{name:<22} {n_derived:>8} {n_hand:>8} {t_derived * 1e6:>11.2f} "
              f"{t_hand * 1e6:>11.2f} {t_derived / t_hand:>6.2f}")


if __name__ == "__main__":
    main()
