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
    (Written as plain loops over local names, no comprehension, which costs a call in
    Python 3.11: the search calls it at every leaf.)"""
    if not state._acting:
        return state.returns()
    game = state.game
    suit = game.suit_of
    p = game.params
    values = [0, 0, 0, 0]
    for stack in state.stacks.values():
        if stack:
            values[stack[-1]] += 1
    market = state.market
    if market:
        low = values[suit[market[0]]]
        for r in market:
            v = values[suit[r]]
            if v < low:
                low = v
    else:
        low = 99
    progress = []
    vp, played = state.vp, state.played
    s = 0
    for hand in state.hands:
        best = 0
        for r in hand:
            v = values[suit[r]]
            if v > best:
                best = v
        r = played[s]
        if r is not None:
            v = values[suit[r]]
            if v > best:
                best = v
        gain = best - low
        progress.append(vp[s] + (TRADE_WEIGHT * gain if gain > 0 else 0.0))
        s += 1
    top = max(progress)
    rounds_left = p["max_rounds"] - state.round + 1
    remaining = VP_PER_ROUND * rounds_left
    if p["end"] == "vp":
        remaining = min(remaining, max(0.0, p["target_vp"] - top))
    temperature = BASE + SCALE * remaining
    weights = []
    for x in progress:
        weights.append(exp((x - top) / temperature))
    total = sum(weights)
    return tuple(map(total.__rtruediv__, weights))  # w / total for each weight w
