"""Four Gods' random rollout: the loop :meth:`State.playout` runs for this game.

The engine's rollout (:meth:`meeple.engine.state.State.playout`) draws each acting seat's
selection with ``rng.choice`` over its legal selections, in seat order, and applies the joint
action. This module plays exactly the same games from the same stream (the same
``getrandbits`` calls as ``random.Random.choice``, the same Results Phase as
``FourGodsState._apply``: costs, attacks from the pre-round energies summed (B4G-7), a defended
attack's refund (B4G-8), the stall drain (B4G-14), then eliminations and the end through
``FourGodsState._end_round``), written out with local variables, since a rollout is most of a
search's time and the issue-22 target is the hand-written loop of benchmarks/bench_playouts.py.

Two loops: :func:`_four_acting` for rounds in which all four seats of a four-seat game act
(most rounds of the default game; the draws are unrolled), :func:`_any_acting` for any acting
seats. ``tests/test_four_gods_playout.py`` checks both against the public loop for every
variant and seat count, from the start and mid-game, with and without a step limit.
"""

from __future__ import annotations

import random
from typing import Any

from meeple.engine.state import State

#: A step bound that no game reaches (keeps the loop's comparison int against int).
_FOREVER = 1 << 62


def playout(state: Any, rng: random.Random, limit: float) -> int:
    """Play ``state`` (a ``FourGodsState``) on with uniformly random selections until it ends
    or ``limit`` rounds (a positive int, or ``inf``) have been played; returns the rounds played.

    A pending submission, or an ``rng`` that is not exactly ``random.Random`` (a subclass may
    override ``choice``), takes the engine's general loop for the affected rounds."""
    steps = 0
    if state._pending or type(rng) is not random.Random:
        if not state._pending:
            return State._playout(state, rng, limit)
        steps = State._playout(state, rng, min(limit, 1))
    if steps < limit and len(state._acting) == 4:
        steps += _four_acting(state, rng.getrandbits, limit - steps)
    if steps < limit and state._acting:
        steps += _any_acting(state, rng.getrandbits, limit - steps)
    return steps


def _four_acting(state: Any, getrandbits: Any, limit: float) -> int:
    """Rounds with seats 0-3 all acting, until one falls, the game ends or ``limit`` rounds."""
    _, _, damage, refund, stall_limit, stall_drain, max_rounds, cap = state.game.constants
    energy, append = state.energy, state.history.append
    tables, low = state._tables, state._low
    rnd, stall = state.round, state.stall
    start = rnd
    stop = rnd + limit if limit < _FOREVER else _FOREVER
    l0, _, c0, b0, k0 = tables[0]
    l1, _, c1, b1, k1 = tables[1]
    l2, _, c2, b2, k2 = tables[2]
    l3, _, c3, b3, k3 = tables[3]
    while rnd < stop:
        # Planning: random.Random.choice per seat (_randbelow_with_getrandbits), in seat order.
        r = getrandbits(b0)
        while r >= c0:
            r = getrandbits(b0)
        s0 = l0[r]
        d0 = -k0[r]
        r = getrandbits(b1)
        while r >= c1:
            r = getrandbits(b1)
        s1 = l1[r]
        d1 = -k1[r]
        r = getrandbits(b2)
        while r >= c2:
            r = getrandbits(b2)
        s2 = l2[r]
        d2 = -k2[r]
        r = getrandbits(b3)
        while r >= c3:
            r = getrandbits(b3)
        s3 = l3[r]
        d3 = -k3[r]
        delta = [d0, d1, d2, d3]  # Results 1: costs
        picks = (s0, s1, s2, s3)
        # Results 2: attacks, all at once (B4G-7); a defended one refunds instead (B4G-8).
        for target in s0.attacks:
            if picks[target].mask & 16:
                delta[target] += refund
            else:
                delta[target] -= damage
        for target in s1.attacks:
            if picks[target].mask & 32:
                delta[target] += refund
            else:
                delta[target] -= damage
        for target in s2.attacks:
            if picks[target].mask & 64:
                delta[target] += refund
            else:
                delta[target] -= damage
        for target in s3.attacks:
            if picks[target].mask & 128:
                delta[target] += refund
            else:
                delta[target] -= damage
        rnd += 1
        drain = 0
        if any(delta):
            stall = 0
        else:
            stall += 1
            if stall_limit and stall > stall_limit:  # B4G-14 drain, before eliminations
                drain = stall_drain
                for seat in 0, 1, 2, 3:
                    energy[seat] -= drain
        append((rnd, (s0.public, s1.public, s2.public, s3.public), tuple(delta), drain))
        lowest = cap
        for seat in 0, 1, 2, 3:
            e = energy[seat] = energy[seat] + delta[seat]
            if e < lowest:
                lowest = e
        if lowest > 0 and rnd < max_rounds:  # the common case: the next round opens
            if lowest < cap or low:  # some seat's legal selections may change
                state._refresh_tables()
                tables, low = state._tables, state._low
                l0, _, c0, b0, k0 = tables[0]
                l1, _, c1, b1, k1 = tables[1]
                l2, _, c2, b2, k2 = tables[2]
                l3, _, c3, b3, k3 = tables[3]
            continue
        state.round, state.stall, state._legal = rnd, stall, None
        state._end_round((0, 1, 2, 3))  # Results 3 and the end check
        return rnd - start
    state.round, state.stall, state._legal = rnd, stall, None
    return rnd - start


def _any_acting(state: Any, getrandbits: Any, limit: float) -> int:
    """Rounds with any acting seats, until the game ends or ``limit`` rounds."""
    _, _, damage, refund, stall_limit, stall_drain, max_rounds, cap = state.game.constants
    energy, append = state.energy, state.history.append
    n = len(energy)
    picks: list[Any] = [None] * n  # this round's selections by seat
    acting, tables, low = state._acting, state._tables, state._low
    rnd, stall = state.round, state.stall
    start = rnd
    stop = rnd + limit if limit < _FOREVER else _FOREVER
    while acting and rnd < stop:
        delta = [0] * n
        publics: list[Any] = [None] * n
        for seat in acting:  # Planning: random.Random.choice per seat, in seat order
            legal, _, count, bits, costs = tables[seat]
            r = getrandbits(bits)
            while r >= count:
                r = getrandbits(bits)
            sel = picks[seat] = legal[r]
            delta[seat] = -costs[r]  # Results 1: costs
            publics[seat] = sel.public
        for seat in acting:  # Results 2: attacks, all at once (B4G-7)
            attacks = picks[seat].attacks
            if attacks:
                guard = 16 << seat
                for target in attacks:
                    if picks[target].mask & guard:
                        delta[target] += refund  # defended (B4G-8)
                    else:
                        delta[target] -= damage
        rnd += 1
        drain = 0
        if any(delta):
            stall = 0
        else:
            stall += 1
            if stall_limit and stall > stall_limit:  # B4G-14 drain, before eliminations
                drain = stall_drain
                for seat in acting:
                    energy[seat] -= drain
        append((rnd, tuple(publics), tuple(delta), drain))
        lowest = cap
        for seat in acting:
            e = energy[seat] = energy[seat] + delta[seat]
            if e < lowest:
                lowest = e
        if lowest > 0 and rnd < max_rounds:  # the common case: the next round opens
            if lowest < cap or low:  # some seat's legal selections may change
                state._refresh_tables()
                tables, low = state._tables, state._low
            continue
        state.round, state.stall, state._legal = rnd, stall, None
        state._end_round(acting)  # Results 3 and the end check
        acting, tables, low = state._acting, state._tables, state._low
    state.round, state.stall, state._legal = rnd, stall, None
    return rnd - start
