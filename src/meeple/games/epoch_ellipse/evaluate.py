"""The Epoch Ellipse evaluator for search cut-offs: the team's chance to win, from a state
(``Game.state_evaluator``; rules page section 11).

A logistic model of a few progress measures, fitted on states of heuristic teams (some
playing partly at random) against whether the team went on to win:

* **work**: the fewest catastrophe tokens still to flip to reach the target VP (the
  cheapest unrecovered locations in play or in the Location deck, by tokens per VP), and the
  Recovered VP already held;
* **survivors**: how many are alive, and the survivor piles waiting in the pool;
* **danger**: the catastrophes in the alive survivors' discard piles and hands (three in a
  discard pile kill) and in the exploration being resolved, how many survivors are at 2 or
  more, and the catastrophes in their whole decks (what they will draw);
* **supplies**: the food points and medical cards in the alive survivors' decks, hands and
  discard piles (weapons and the days left added nothing to the fit).

Team totals are divided by the seat count, not by the survivors alive: a death never looks
like progress.

Every alive seat gets the team's chance; a seat without a survivor gets it scaled by its
chance to be back in play (a pile waiting for it, or not). At a terminal state the value is
``returns()``.
"""

from __future__ import annotations

import math
from typing import Any

from meeple.games.epoch_ellipse.cards import CATASTROPHE

#: Logistic weights of the features of ``_features``, in order: Recovered VP, work left,
#: survivors alive, piles in the pool, danger, survivors at 2+ danger, catastrophes in the
#: decks, food, medical (the last five summed over the alive survivors, per seat). Fitted on
#: 85,000 states of 2,400 games (every variant, 1-5 seats, heuristic teams choosing at random
#: 0-50% of the time; 72% won): held-out log loss 0.51 against 0.60 for the base rate.
WEIGHTS: tuple[float, ...] = (1.080, -1.007, 3.159, 1.832, -0.440, -0.443, -0.544, 1.285,
                              0.893)
BIAS = -0.724
#: A seat without a survivor: its share of the team's chance, with or without a pile
#: waiting for it in the pool (measured on the same games: 0.85 and 0.60).
REVIVED, UNREVIVED = 0.85, 0.6


class _Tables:
    """Per-game card constants, by card instance (built once, cached on the game spec)."""

    __slots__ = ("cat", "food", "medical", "loc_vp", "loc_cats", "target")

    def __init__(self, game: Any) -> None:
        cards = game.content.cards

        def best(card, points: tuple[str, ...]) -> int:
            return max((card.points(m).get(p, 0) for m in card.modes() for p in points),
                       default=0)

        types = game.ctype
        self.cat = tuple(1 if cards[t].kind == CATASTROPHE else 0 for t in types)
        self.food = tuple(min(best(cards[t], ("food",)), 2) for t in types)
        self.medical = tuple(1 if best(cards[t], ("medical", "avoid_collapse",
                                                  "trash_catastrophe")) else 0 for t in types)
        self.loc_vp = tuple(loc.vp for loc in game.content.locations)
        self.loc_cats = tuple(loc.catastrophes for loc in game.content.locations)
        self.target = game.params["target_vp"]


def _tables(game: Any) -> _Tables:
    tables = game._cache.get("evaluate")
    if tables is None:
        tables = game._cache["evaluate"] = _Tables(game)
    return tables


def _work(state: Any, tab: _Tables, gap: int) -> int:
    """The fewest catastrophe tokens to flip for ``gap`` more Recovered VP (greedy by tokens
    per VP over the unrecovered locations in play and the Location deck)."""
    if gap <= 0:
        return 0
    vp, cats = tab.loc_vp, tab.loc_cats
    options = [(t / vp[i], t, vp[i]) for i, t in zip(state.locations, state.tokens,
                                                      strict=True) if t and vp[i]]
    options += [(cats[i] / vp[i], cats[i], vp[i]) for i in state.location_deck if vp[i]]
    options.sort()
    work = 0
    for _, tokens, value in options:
        work += tokens
        gap -= value
        if gap <= 0:
            return work
    return work + 10 * gap  # out of reach: as good as lost


def _raw(state: Any) -> tuple[int, ...]:
    """The counts behind the features: Recovered VP, work left, survivors alive, piles in the
    pool, danger (summed over the alive), survivors at 2+ danger, catastrophes, cards, food
    points and medical cards in the alive survivors' decks, hands and discard piles."""
    tab = _tables(state.game)
    cat, food, medical = tab.cat, tab.food, tab.medical
    vp = state.recovered_vp()
    work = _work(state, tab, tab.target - vp)
    alive = critical = danger = cats = size = foods = medicals = 0
    explorer = state.explorer if state.phase == "explore" else -1
    for seat, status in enumerate(state.status):
        if status != "alive":
            continue
        alive += 1
        hand, discard = state.hands[seat], state.discards[seat]
        near = sum(map(cat.__getitem__, discard)) + sum(map(cat.__getitem__, hand))
        if seat == explorer:
            near += len(state.expl_cats) + (state.current is not None)
        danger += near
        critical += near >= 2
        cards = state.draws[seat] + hand + discard
        size += len(cards)
        cats += sum(map(cat.__getitem__, cards))
        foods += sum(map(food.__getitem__, cards))
        medicals += sum(map(medical.__getitem__, cards))
    return vp, work, alive, len(state.pool), danger, critical, cats, size, foods, medicals


def _features(state: Any) -> tuple[float, ...]:
    """The model's inputs (module docstring), each roughly in 0..1. Team totals are divided
    by the seat count, not by the survivors alive, so a death never looks like progress."""
    vp, work, alive, pool, danger, critical, cats, _, foods, medicals = _raw(state)
    target = state.game.params["target_vp"]
    seats = state.game.players
    return (min(vp, target) / target, min(work, 40) / 20.0, alive / 5.0, min(pool, 3) / 3.0,
            danger / seats / 3.0, critical / seats, cats / seats / 10.0, foods / seats / 10.0,
            medicals / seats / 5.0)


def team_chance(state: Any) -> float:
    """The team's estimated chance to win from a non-terminal ``state``."""
    z = BIAS
    for w, x in zip(WEIGHTS, _features(state), strict=True):
        z += w * x
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def evaluate(state: Any) -> tuple[float, ...]:
    """One value per seat in 0..1: ``returns()`` at the end, else the team's chance to win
    for every alive seat, scaled down for a seat without a survivor (module docstring)."""
    if not state._acting:
        return state.returns()
    p = team_chance(state)
    status = state.status
    if "dead" not in status and "mournful" not in status:
        return (p,) * len(status)
    waiting = len(state.pool)
    out = []
    for seat, st in enumerate(status):
        if st == "alive":
            out.append(p)
        else:
            rank = state.queue.index(seat) if seat in state.queue else len(state.queue)
            out.append(p * (REVIVED if rank < waiting else UNREVIVED))
    return tuple(out)
