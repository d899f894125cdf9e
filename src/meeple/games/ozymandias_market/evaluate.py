"""The search evaluator of Ozymandias (market edition): each seat's win share estimated from
its VP and what its cards can still score (rules page section 12).

A seat's **progress** is its VP plus its best trade now: the highest faction value among its
hand and played card, minus the lowest value in the market (a trade scores that difference,
OZD-16). The shares are a softmax of progress, whose temperature shrinks as the
leader nears the end: under ``end=vp`` the VP still missing to ``target_vp``, otherwise the
rounds left before ``max_rounds`` at about :data:`VP_PER_ROUND` each. Monotone: more VP, or
a stronger colour in hand, never lowers a seat's share.
"""

from __future__ import annotations

from math import exp
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meeple.games.ozymandias_market.rules import MarketState

#: Weight of the best trade a seat's cards could make now. The weights were fitted on 2,000
#: states of heuristic-bot games (2-4 seats, seed rules): Brier score 0.514 against 0.626 for
#: equal shares.
TRADE_WEIGHT = 1.0
#: Rough VP a seat gains per round (for end modes that are not a VP target).
VP_PER_ROUND = 2.0
#: Softmax temperature: BASE + SCALE x (VP still to be played for).
BASE, SCALE = 2.0, 0.15


def evaluate(state: MarketState) -> tuple[float, ...]:
    """One estimate in [0, 1] per seat of its final win share; ``returns()`` at the end.

    Written for speed, the search calls it at every leaf: plain loops over local names and no
    builtin call but ``exp`` and ``sum`` (a comprehension, ``map`` or ``min`` costs more in
    Python 3.11), each rank's colour from the game spec's list ``colour_of`` and
    ``max_rounds``/``target_vp`` from its ``evaluate_params`` (made at load), the leader's
    progress kept while the seats are scored. The same floats as the formula of the module
    docstring, operation for operation."""
    if not state._acting:
        return state.returns()
    game = state.game
    colour = game.colour_of
    values = [0, 0, 0, 0]  # each colour's faction value: the top disks it holds
    for stack in state.stacks.values():
        if stack:
            values[stack[-1]] += 1
    low = 99  # the weakest market card's value (no market: no trade gains)
    for r in state.market:
        v = values[colour[r]]
        if v < low:
            low = v
    progress = []
    top = None
    vp, played = state.vp, state.played
    s = 0
    for hand in state.hands:
        best = 0
        for r in hand:
            v = values[colour[r]]
            if v > best:
                best = v
        r = played[s]
        if r is not None:
            v = values[colour[r]]
            if v > best:
                best = v
        gain = best - low
        x = vp[s] + (TRADE_WEIGHT * gain if gain > 0 else 0.0)
        progress.append(x)
        if top is None or x > top:
            top = x
        s += 1
    max_rounds, target = game.evaluate_params
    remaining = VP_PER_ROUND * (max_rounds - state.round + 1)
    if target is not None:  # end=vp: no more than the VP the leader still misses
        left = target - top
        if not left > 0.0:
            left = 0.0
        if left < remaining:  # min(remaining, left), the first on a tie
            remaining = left
    temperature = BASE + SCALE * remaining
    weights = []
    for x in progress:
        weights.append(exp((x - top) / temperature))
    total = sum(weights)
    shares = []
    for w in weights:
        shares.append(w / total)
    return tuple(shares)
