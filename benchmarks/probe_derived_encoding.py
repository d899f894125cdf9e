#!/usr/bin/env python
"""A linear probe: how much of the eventual winner a derived tensor holds, against the
hand-written one, from random-play positions (issue 35; needs scikit-learn, not a meeple
dependency: ``pip install 'meeple[bench]'``).

    PYTHONPATH=src python benchmarks/probe_derived_encoding.py [--game NAME] [--games N]

Plays ``N`` seeded random games of ``NAME`` (default variant and seats) to their end; every
``--every``-th position gives one example per seat: that seat's view encoded both ways, and
whether the seat is among the winners. A logistic regression (scikit-learn, standardised
features) is fitted on the positions of the first 70% of the games and scored on the rest
(split by game, so no position of a test game is seen in training): accuracy, ROC AUC and
log loss, beside the base rate (always predicting the more common label).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for ``examples``

from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import log_loss, roc_auc_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

import examples.crazy_eights  # noqa: E402, F401  (registers the template)
import meeple.games  # noqa: E402, F401  (registers the designs)
from meeple.engine.encoding import derived_encoding  # noqa: E402
from meeple.engine.registry import load_game  # noqa: E402


def encoders(name: str, game: Any) -> dict[str, Any]:
    """``{"derived": f, "by hand": f}``, each ``f(view) -> tensor``."""
    if name == "crazy-eights":
        import examples.crazy_eights as ce
        from benchmarks.bench_derived_encoding import handwritten_crazy_eights
        return {"derived": lambda v: ce.ENCODING.observation_tensor(game, v),
                "by hand": lambda v: handwritten_crazy_eights(game, v)}
    enc = game.encoding
    derived = derived_encoding(game.state_class, enc.action_texts)  # from its declaration
    return {"derived": lambda v: derived.observation_tensor(game, v),
            "by hand": lambda v: enc.observation_tensor(game, v)}


def positions(name: str, games: int, every: int, cap: int = 2000
              ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    game = load_game(name)
    encode = encoders(name, game)
    xs: dict[str, list[np.ndarray]] = {k: [] for k in encode}
    ys, group = [], []
    for seed in range(games):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        rows = []
        step = 0
        while not state.is_terminal() and step < cap:
            if step % every == 0:
                rows += [(s, state.view(s)) for s in range(game.players)]
            state.apply_actions({s: rng.choice(state.legal_actions(s))
                                 for s in state.current_players()})
            step += 1
        if not state.is_terminal():
            continue
        won = set(state.winners())
        if len(won) == game.players:  # a draw for all: no winner to predict
            continue
        for seat, view in rows:
            for k, f in encode.items():
                xs[k].append(f(view))
            ys.append(seat in won)
            group.append(seed)
    return {k: np.array(v) for k, v in xs.items()}, np.array(ys), np.array(group)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="damocles")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args()
    xs, y, group = positions(args.game, args.games, args.every)
    seeds = np.unique(group)
    train = np.isin(group, seeds[:int(len(seeds) * 0.7)])
    base = max(y[~train].mean(), 1 - y[~train].mean())
    print(f"{args.game}: {len(seeds)} decided games, {len(y)} positions "
          f"({train.sum()} train, {(~train).sum()} test); base rate {base:.3f}")
    for k, x in xs.items():
        model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000))
        model.fit(x[train], y[train])
        p = model.predict_proba(x[~train])[:, 1]
        acc = ((p > 0.5) == y[~train]).mean()
        print(f"  {k:<8} {x.shape[1]:>5} numbers: accuracy {acc:.3f}  AUC "
              f"{roc_auc_score(y[~train], p):.3f}  log loss {log_loss(y[~train], p):.3f}")


if __name__ == "__main__":
    main()
