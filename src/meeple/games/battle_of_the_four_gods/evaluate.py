"""Battle of the Four Gods evaluator for search cut-offs: each seat's estimated win share.

An eliminated seat can no longer win (B4G-13 only shares a win among seats falling in the
same round, which a cut-off state cannot foresee), so it gets 0. The alive seats share 1 in
proportion to the square of their energy: scale-free across variants (start energy 30..100),
near even for close energies (100 against 97: 0.515), and near 0 for a seat far behind
(10 against 100: 0.01). Monotone: more energy for a seat raises its share and lowers every
other seat's. At a terminal state it is ``state.returns()``.
"""

from __future__ import annotations

from meeple.games.battle_of_the_four_gods.rules import FourGodsState


def evaluate(state: FourGodsState) -> tuple[float, ...]:
    """Per seat, an estimate in 0..1 of its final return (module docstring)."""
    if state.winners_ is not None:
        return state.returns()
    alive = zip(state.energy, state.eliminated_round, strict=True)
    weights = [e * e if r == 0 and e > 0 else 0 for e, r in alive]
    total = sum(weights)
    if not total:  # cannot happen in play (alive seats have energy > 0); stay defined
        return (1.0 / len(weights),) * len(weights)
    return tuple(w / total for w in weights)
