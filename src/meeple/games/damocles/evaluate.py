"""Damocles state evaluator for search cut-offs: each seat's win share, estimated.

A seat's projection is its points plus what its codices may still bring: Production and Number
codices (in hand, or re-usable in its tableau) earn draws, hence points, on every turn it has
left, and the pips in its hand a little while it still has a turn. The shares are a softmax of
the projections whose temperature grows with the turns left (the game is open early, settled
late), blended with the seat's share of all projected points (``SCORE_WEIGHT``). Weights
fitted to heuristic-bot games (2-6 seats, mixed with random seats) by cross entropy and
rounded; docs/rules/damocles.md, "Search: determinization and evaluation".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from meeple.games.damocles.codex import NUMBER, PRODUCTION

if TYPE_CHECKING:
    from meeple.games.damocles.rules import DamoclesState

#: Points per remaining turn of each Production / Number codex in hand.
HAND_PRODUCTION, HAND_NUMBER = 0.35, 0.3
#: Points per remaining turn of each tableau Production, tableau Number value (N), and each
#: complete tableau pair (min of Productions and Numbers).
TABLEAU_PRODUCTION, TABLEAU_NUMBER_VALUE, TABLEAU_PAIR = 0.3, 0.15, 0.2
#: Points per hand pip while the seat still has a turn.
HAND_PIP = 0.1
#: Softmax temperature: BASE + PER_ROOT_TURN x sqrt(mean turns left per seat).
BASE_TEMPERATURE, PER_ROOT_TURN = 0.5, 2.0
#: Weight of the seat's share of all projected points beside the softmax win share: a seat far
#: ahead (or behind) still prefers the move that gains points, where the win share alone is
#: flat and the search would choose among equals by noise.
SCORE_WEIGHT = 0.2

_KEY = "damocles-evaluate"


def _tables(state: DamoclesState) -> tuple[dict[str, int], dict[str, float], frozenset[str],
                                           dict[str, int], dict[int, tuple]]:
    """Per game spec: pips by codex, each codex's points per remaining turn in hand
    (``HAND_PRODUCTION``, ``HAND_NUMBER`` or 0.0: adding 0.0 leaves a sum unchanged, so the
    hand loop needs no branch), the Production ids, the Number values by id, and the memo of
    :func:`_turns_left` under ``turns taken x 8 + active seat`` (at most ``cycles x players +
    1`` turns x ``players`` seats), the setup's under -1."""
    game = state.game
    tables = game._cache.get(_KEY)
    if tables is None:
        deck = game.codex_by_id.values()
        tables = game._cache[_KEY] = (
            {c.id: c.pips for c in deck},
            {c.id: HAND_PRODUCTION if c.info.cls == PRODUCTION
             else HAND_NUMBER if c.info.cls == NUMBER else 0.0 for c in deck},
            frozenset(c.id for c in deck if c.info.cls == PRODUCTION),
            {c.id: c.info.number for c in deck if c.info.cls == NUMBER},
            {},
        )
    return tables


def _turns_left(state: DamoclesState) -> tuple[tuple[int, ...], float]:
    """``(turns, temperature)``: per seat, the turns it has left (every turn while in setup),
    and the softmax temperature ``BASE_TEMPERATURE + PER_ROOT_TURN x sqrt(mean turns left)``.
    A pure function of the phase, the turns taken and the active seat (and the spec), which
    :func:`evaluate` remembers."""
    game = state.game
    n = game.players
    cycles = game.params["cycles"]
    rs = []
    if state.phase == "turn":
        left = cycles * n - state.turns_taken + n - 1
        active = state.active
        for s in range(n):
            r = (left - (s - active) % n) // n
            rs.append(r if r > 0 else 0)
    else:  # setup: every turn is still to come
        rs = [cycles] * n
    turns = 0
    for r in rs:
        turns += r
    return tuple(rs), BASE_TEMPERATURE + PER_ROOT_TURN * math.sqrt(turns / n)


def evaluate(state: DamoclesState) -> tuple[float, ...]:
    """Per seat, an estimate in 0..1 of its win share (``returns()`` once the game is over).

    Written with plain loops and local names (a comprehension costs a frame in Python 3.11;
    searches call this at every leaf), the turns left and the temperature remembered per turn
    (:func:`_turns_left`); every float is computed by the same operations in the same order
    as the formula in the module docstring reads (an empty tableau's term, exactly 0.0, is
    skipped), so the values are the same bit for bit."""
    if state.phase == "over":
        return state.returns()
    pips, hand_rate, productions, numbers, memo = _tables(state)
    key = state.turns_taken << 3 | state.active if state.phase == "turn" else -1  # 6 seats at most
    found = memo.get(key)
    if found is None:
        found = memo[key] = _turns_left(state)
    rs, temperature = found
    n = len(rs)
    tableau_production, tableau_number, tableau_pair = (
        TABLEAU_PRODUCTION, TABLEAU_NUMBER_VALUE, TABLEAU_PAIR)
    hand_pip = HAND_PIP
    projected = []
    for r, score, hand, tableau in zip(rs, state.points, state.hands, state.tableaus):  # noqa: B905
        value = score + 0.0  # float(score), one operation cheaper
        if r:
            per_turn = 0.0
            hand_pips = 0
            for cid in hand:
                hand_pips += pips[cid]
                per_turn += hand_rate[cid]
            if tableau:
                made = number_value = held = 0
                for cid in tableau:
                    if cid in productions:
                        made += 1
                    elif cid in numbers:
                        number_value += numbers[cid]
                        held += 1
                per_turn += (tableau_production * made + tableau_number * number_value
                             + tableau_pair * (made if made < held else held))
            value += hand_pip * hand_pips + r * per_turn
        projected.append(value)
    top = max(projected)
    exp = math.exp
    weights = []
    for v in projected:
        weights.append(exp((v - top) / temperature))
    total = sum(weights)
    points_total = sum(projected)
    share, keep = SCORE_WEIGHT, 1 - SCORE_WEIGHT
    out = []
    if points_total <= 0:
        even = share / n
        for w in weights:
            out.append(keep * w / total + even)
    else:
        for w, v in zip(weights, projected):  # noqa: B905
            out.append(keep * w / total + share * v / points_total)
    return tuple(out)
