#!/usr/bin/env python
"""Two digests of a game's views, saved states and determinizations, to compare checkouts.

    PYTHONPATH=src python3 benchmarks/compare_views.py GAME [--seeds N] [--every K]

Run it from two checkouts (e.g. before and after a refactor of a design's components or
determinizer) and compare the two printed lines: identical digests mean the same views, the
same JSON data and the same determinized states, drawn from the same random streams.

For every variant of ``GAME`` (``Game.variants``) and every seat count from
``min_players`` to ``max_players``, it plays ``N`` (default 6) seeded random games
(``new_initial_state(seed)``, actions picked by ``random.Random(seed)`` among each acting
seat's legal actions). At every step it hashes, into the **views** digest, each seat's view,
the spectator's view and ``state.to_json()`` (JSON with sorted keys); every ``K`` (default 7)
steps, for the first acting seat, it draws a determinization from that seat's view with
``Game.determinize(view, random.Random(seed * 1000 + step))`` and hashes its ``to_json()``
and its legal actions (as text) for that seat into the **determinizations** digest.
A determinization that raises is hashed as its exception's type and message.

Output: ``GAME views=<20 hex> determinizations=<20 hex> steps=<n> draws=<n>``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from meeple.engine.registry import load_game


def _dump(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, default=repr).encode()


def digests(name: str, seeds: int = 6, every: int = 7, max_steps: int = 400
            ) -> tuple[str, str, int, int]:
    """``(views digest, determinizations digest, steps, draws)`` of ``name`` (see the module
    docstring); a game is cut after ``max_steps`` steps."""
    views, draws = hashlib.sha256(), hashlib.sha256()
    steps = drawn = 0
    probe = load_game(name)
    for variant in type(probe).variants:
        for players in range(probe.min_players, probe.max_players + 1):
            game = load_game(name, variant=variant.name, players=players)
            for seed in range(seeds):
                state = game.new_initial_state(seed)
                pick = random.Random(seed)
                for step in range(max_steps):
                    if state.is_terminal():
                        break
                    steps += 1
                    for seat in (*range(players), None):
                        views.update(_dump(state.view(seat)))
                    views.update(_dump(state.to_json()))
                    acting = state.current_players()
                    if step % every == 0 and game.determinizes:
                        seat = acting[0]
                        drawn += 1
                        try:
                            det = game.determinize(state.view(seat),
                                                   random.Random(seed * 1000 + step))
                            draws.update(_dump(det.to_json()))
                            draws.update(_dump([str(a) for a in det.legal_actions(seat)]))
                        except Exception as exc:  # noqa: BLE001 - hashed, compared
                            draws.update(f"{type(exc).__name__}: {exc}".encode())
                    state.apply_actions({s: pick.choice(state.legal_actions(s))
                                         for s in acting})
    return views.hexdigest()[:20], draws.hexdigest()[:20], steps, drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--every", type=int, default=7)
    args = parser.parse_args()
    v, d, steps, drawn = digests(args.game, args.seeds, args.every)
    print(f"{args.game} views={v} determinizations={d} steps={steps} draws={drawn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
