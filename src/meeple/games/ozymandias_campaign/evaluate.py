"""Ozymandias (campaign edition) evaluator for search cut-offs: each seat's win share.

Random rollouts never reach the 21-VP end, so search scores cut-off rollouts here. Per seat an
*expected VP*: its VP plus a share of each tableau card's *potential* (the points of its level
if it gets rank - unrest matching cubes, at most 3, one level more with a laid-down worker),
the share growing along the scoring cycle of bot.py, so that every step of the cycle is worth
taking and realising points is worth more than holding them:

* untapped and empty 0.2 (it taps at the next intake); untapped with cubes 0.15 plus 0.1 per
  cube (it cannot tap until a migration moves them on);
* tapped without a harvest worker 0.4 while a worker in the supply is there for it, else 0.2
  (at the next intake it would collapse for nothing);
* tapped with a harvest worker: the points it would score with its cubes now, at least half
  its potential, plus half of what the incoming cubes would add (shared out among these cards,
  the best first). While the seat is distributing its cubes (mid-intake) the tapped cards are
  about to collapse: a harvested card counts what the cubes make of it, an unharvested one
  nothing, and the empty untapped cards count as tapped;
* 0.05 per incoming cube, 0.2 per card in hand, 0.3 per worker in the supply or the bag, and
  -1 per unrest.

The win shares are a softmax of the expected VP with a temperature of 3 VP plus 0.5 per VP
the leader still lacks of the target (scaled with ``target_vp``): early leads are uncertain,
late ones nearly decisive. The shares sum to 1 and rise with a seat's VP and progress. At a
terminal state: ``state.returns()``.

The shares were set by playing the search bot against the heuristic bot (a correlational fit
to heuristic games predicts winners a little better but rewards hoarding cubes, which search
exploits). Over heuristic games the temperature gives a Brier score of 0.564 for the predicted
winner (0.558 at the best-fitting temperature, 0.660 for equal shares); it is kept a little
sharper than the best fit so that search sees the differences between its moves.
"""

from __future__ import annotations

import math

from meeple.games.ozymandias_campaign.moves import CARD, CUBES, HARVEST, LAID, TAPPED
from meeple.games.ozymandias_campaign.scoring import LEVEL_POINTS, collapse_points

#: Share of a card's typical points (its potential) it is worth at each stage of the cycle:
#: untapped and empty (it taps at the next intake), untapped with cubes (it cannot tap until a
#: migration empties it), tapped without a harvest worker while a worker is available for it,
#: the same without one (it would collapse for nothing), and tapped with a harvest worker (a
#: floor: cubes may still come before the next intake).
UNTAPPED_SHARE = 0.2
BLOCKED_SHARE = 0.15
TAPPED_SHARE = 0.4
STARVED_SHARE = 0.2
HARVESTED_SHARE = 0.5
#: Weight of the points the incoming cubes would add to a harvested card at the next intake
#: (the incoming cubes are shared out among the harvested cards, the best cards first).
FEED_SHARE = 0.5
#: The level a card is expected to reach (cubes are scarce), before its cap.
TYPICAL_LEVEL = 3
#: Expected VP per incoming cube, per cube on an untapped card (a migration moves it on), per
#: card in hand, per worker in the supply or the bag, and per unrest.
INCOMING_CUBE = 0.05
BANK_CUBE = 0.1
HAND_CARD = 0.2
WORKER = 0.3
UNREST = -1.0
#: Temperature (VP, for a 21-VP target) of the softmax: BASE near the end, plus SLOPE per VP
#: the leader still lacks.
TEMP_BASE = 3.0
TEMP_SLOPE = 0.5


def expected_vp(state, seat: int) -> float:
    """The seat's VP plus the value of its cards, cubes and workers in progress, less its
    unrest (module docstring). Card suits and ranks come from the game's table
    (``card_keys``); the same arithmetic in the same order, so the same floats."""
    p = state.game.params
    return _expected_vps(state, (seat,), state.game.card_keys, p["threshold"],
                         p["bonus_from_zero"],
                         state.active if state.step == "distribute" else -1)[0]


def _expected_vps(state, seats, keys, threshold: str, from_zero: bool,
                  distributing: int) -> list[float]:
    """:func:`expected_vp` of each of ``seats``, in order, with what every seat shares looked
    up once: the game's ``card_keys``, its ``threshold`` and ``bonus_from_zero``, the seat in
    the middle of an intake (-1: none), the state's per-seat lists and the weights (local
    names: the evaluator calls this at every search leaf, one call for every seat)."""
    unrests, incomings, supplies, vps = state.unrest, state.incoming, state.supply, state.vp
    hands, bags, tableaus = state.hands, state.bag, state.tableaus
    incoming_cube, unrest_weight, hand_card, worker = INCOMING_CUBE, UNREST, HAND_CARD, WORKER
    out = []
    for seat in seats:
        unrest = unrests[seat]
        inc = incomings[seat]
        supply = supplies[seat]
        total = (vps[seat] + incoming_cube * (inc[0] + inc[1] + inc[2])
                 + unrest_weight * unrest + hand_card * len(hands[seat])
                 + worker * (supply + bags[seat]))
        tableau = tableaus[seat]
        if tableau:  # (an empty tableau adds nothing)
            # Mid-intake (the seat is distributing its cubes): the tapped cards collapse at the
            # end of it, so a harvested card is worth what the cubes make of it and an
            # unharvested one nothing, and the empty untapped cards are about to tap (the seat is
            # assumed to finish its intake well).
            intake = distributing == seat
            harvested = []
            waiting = []
            for row in tableau:
                rank = keys[row[CARD]][1]
                level = rank - unrest  # min(max(0, rank - unrest), TYPICAL_LEVEL)
                if level < 0:
                    level = 0
                elif level > TYPICAL_LEVEL:
                    level = TYPICAL_LEVEL
                potential = LEVEL_POINTS[level + 1 if level and row[LAID] else level]
                if row[TAPPED]:
                    if row[HARVEST]:
                        harvested.append((potential, row))
                    elif not intake:
                        waiting.append(potential)
                else:
                    cubes = row[CUBES] + row[CUBES + 1] + row[CUBES + 2]
                    if cubes:
                        total += BLOCKED_SHARE * potential + BANK_CUBE * cubes
                    else:
                        total += (TAPPED_SHARE if intake else UNTAPPED_SHARE) * potential
            if waiting:  # the best waiting cards get the available workers
                waiting.sort(reverse=True)
                for k, potential in enumerate(waiting):
                    total += (TAPPED_SHARE if k < supply else STARVED_SHARE) * potential
            if harvested:
                total = _harvested_value(total, harvested, list(inc), keys, unrest, intake,
                                         threshold, from_zero)
        out.append(total)
    return out


def _harvested_value(total: float, harvested: list, pool: list[int], keys, unrest: int,
                     intake: bool, threshold: str, from_zero: bool) -> float:
    """``total`` (a seat's expected VP so far) plus what its tapped cards with a harvest
    worker are worth, added one card at a time, the best first (the float sums in that
    order): ``harvested`` holds ``(potential, row)`` of each, ``pool`` the seat's incoming
    cubes, shared out among them (changed here; module docstring)."""
    harvested.sort(key=_potential_first)
    for potential, row in harvested:
        suit, rank = keys[row[CARD]]
        laid = bool(row[LAID])
        cubes = [row[CUBES], row[CUBES + 1], row[CUBES + 2]]
        now = collapse_points(suit, rank, cubes, unrest, True, laid, threshold, from_zero)
        # feed it from the pool: matching cubes up to its level, then any to the threshold
        cap = max(0, rank - unrest)
        taken = [0, 0, 0]
        want = cap if threshold == "matching" else min(cap, 5)
        taken[suit] = min(pool[suit], max(0, want - cubes[suit]))
        short = cap - sum(cubes) - taken[suit]
        for s in (0, 1, 2):
            if short > 0 and s != suit:
                taken[s] = min(pool[s], short)
                short -= taken[s]
        fed = collapse_points(suit, rank, (cubes[0] + taken[0], cubes[1] + taken[1],
                                           cubes[2] + taken[2]),
                              unrest, True, laid, threshold, from_zero)
        if fed > now:
            for s in (0, 1, 2):
                pool[s] -= taken[s]
        if intake:
            total += max(now, fed)
        else:
            base = max(now, HARVESTED_SHARE * potential)
            total += base + FEED_SHARE * max(0, fed - base)
    return total


def _potential_first(harvested: tuple) -> int:
    """Sort key of a harvested card: the highest potential first (a stable sort)."""
    return -harvested[0]


def evaluate(state) -> tuple[float, ...]:
    """Per seat, an estimate in [0, 1] of its win share (softmax of expected VP); the
    returns at a terminal state."""
    if not state._acting:
        return state.returns()
    game = state.game
    p = game.params
    keys, threshold, from_zero = game.card_keys, p["threshold"], p["bonus_from_zero"]
    distributing = state.active if state.step == "distribute" else -1
    est = _expected_vps(state, range(game.players), keys, threshold, from_zero, distributing)
    target = p["target_vp"]
    scale = target / 21.0
    lead = est[0]  # max(est): the first largest (plain loops, no builtin call)
    for e in est:
        if e > lead:
            lead = e
    vps = state.vp
    behind = target - vps[0]  # max(0, target - max(vp)), whole numbers
    for v in vps:
        if target - v < behind:
            behind = target - v
    if behind < 0:
        behind = 0
    temp = TEMP_BASE * scale + TEMP_SLOPE * behind
    exp = math.exp
    weights = []
    for e in est:
        weights.append(exp((e - lead) / temp))
    norm = sum(weights)
    out = []
    for w in weights:
        out.append(w / norm)
    return tuple(out)
