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

#: Logistic weights of the model's inputs (:func:`team_chance`), in order: Recovered VP, work
#: left, survivors alive, piles in the pool, danger, survivors at 2+ danger, catastrophes in
#: the decks, food, medical (the last five summed over the alive survivors, per seat). Fitted
#: on 85,000 states of 2,400 games (every variant, 1-5 seats, heuristic teams choosing at
#: random 0-50% of the time; 72% won): held-out log loss 0.51 against 0.60 for the base rate.
WEIGHTS: tuple[float, ...] = (1.080, -1.007, 3.159, 1.832, -0.440, -0.443, -0.544, 1.285,
                              0.893)
BIAS = -0.724
#: A seat without a survivor: its share of the team's chance, with or without a pile
#: waiting for it in the pool (measured on the same games: 0.85 and 0.60).
REVIVED, UNREVIVED = 0.85, 0.6
#: Results of ``_work`` remembered per game spec (emptied when it holds more).
WORKS_MEMO = 8192


class _Tables:
    """Per-game constants (built once, cached on the game spec).

    The card counts are the game spec's (:class:`.cards.PackedCounts`), whose per-seat sums a
    search's state keeps current (``EpochState.packs``). ``deck_option[location]`` is the
    location's ``(tokens / VP, tokens, VP)`` choice of :func:`_work` while still in the
    Location deck (None for a location worth no VP). ``works``: the Recovered VP and
    :func:`_work`'s result remembered by the locations in play, their tokens and the Location
    deck's contents (all the two read; a search evaluates many states that share them), at
    most :data:`WORKS_MEMO`."""

    __slots__ = ("loc_vp", "loc_cats", "target", "bits", "mask", "shift", "deck_option",
                 "works")

    def __init__(self, game: Any) -> None:
        counts = game.packed_counts()
        self.bits, self.mask, self.shift = counts.bits, counts.mask, counts.shift
        self.loc_vp = tuple(loc.vp for loc in game.content.locations)
        self.loc_cats = tuple(loc.catastrophes for loc in game.content.locations)
        self.target = game.params["target_vp"]
        self.deck_option = tuple((c / v, c, v) if v else None
                                 for c, v in zip(self.loc_cats, self.loc_vp, strict=True))
        self.works: dict[tuple, tuple[int, int]] = {}


def _tables(game: Any) -> _Tables:
    tables = game._cache.get("evaluate")
    if tables is None:
        tables = game._cache["evaluate"] = _Tables(game)
    return tables


def _work(state: Any, tab: _Tables, gap: int) -> int:
    """The fewest catastrophe tokens to flip for ``gap`` more Recovered VP (greedy by tokens
    per VP over the unrecovered locations in play and the Location deck). Plain loops and
    ``map`` (a comprehension costs a frame in Python 3.11); ties sort as whole tuples, so the
    order the options are listed in does not matter."""
    if gap <= 0:
        return 0
    vp = tab.loc_vp
    options = []
    append = options.append
    for i, t in zip(state.locations, state.tokens, strict=True):
        if t:
            v = vp[i]
            if v:
                append((t / v, t, v))
    options.extend(filter(None, map(tab.deck_option.__getitem__, state.location_deck)))
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
    points and medical cards in the alive survivors' decks, hands and discard piles (read
    from the packed counts a search's state keeps per seat, ``EpochState.packs``: the hand
    and discard pile below ``shift``, the whole deck above; summed from the piles for a
    playthrough's state, which keeps none)."""
    tab = _tables(state.game)
    # The Location deck enters as a set: it holds each location at most once (content).
    key = (tuple(state.locations), tuple(state.tokens), frozenset(state.location_deck))
    works = tab.works
    found = works.get(key)
    if found is None:
        vp = state.recovered_vp()
        found = works[key] = (vp, _work(state, tab, tab.target - vp))
        if len(works) > WORKS_MEMO:
            works.clear()
            works[key] = found
    vp, work = found
    alive = critical = danger = 0
    total = 0  # packed: catastrophes, food, medical, cards
    explorer = state.explorer if state.phase == "explore" else -1
    mask, shift = tab.mask, tab.shift
    packs = state.packs
    if packs is None:  # a playthrough's state keeps no counts: summed here
        seat_counts = state.game.packed_counts().seat
        packs = list(map(seat_counts, state.hands, state.discards, state.draws))
    for seat, status in enumerate(state.status):
        if status != "alive":
            continue
        alive += 1
        pack = packs[seat]
        total += pack >> shift  # the whole deck
        near = pack & mask  # the catastrophes in the hand and discard pile
        if seat == explorer:
            near += len(state.expl_cats) + (state.current is not None)
        danger += near
        critical += near >= 2
    bits = tab.bits
    return (vp, work, alive, len(state.pool), danger, critical, total & mask,
            total >> 3 * bits, total >> bits & mask, total >> 2 * bits & mask)


def team_chance(state: Any) -> float:
    """The team's estimated chance to win from a non-terminal ``state``: the logistic of
    :data:`WEIGHTS` and :data:`BIAS` over the model's inputs (module docstring), each roughly
    in 0..1: Recovered VP / target and work left / 20 (capped at the target and 40), survivors
    alive / 5, piles in the pool / 3 (capped at 3), then per seat danger / 3, survivors at 2+,
    catastrophes / 10, food / 10 and medical cards / 5. Team totals are divided by the seat
    count, not by the survivors alive, so a death never looks like progress.

    The inputs are computed inline, in the weighted sum's order (no tuple of features, no
    call): the same float operations as one input at a time, added in the same order;
    conditional expressions stand for ``min``."""
    vp, work, alive, pool, danger, critical, cats, _, foods, medicals = _raw(state)
    game = state.game
    target = game.params["target_vp"]
    seats = game.players
    w0, w1, w2, w3, w4, w5, w6, w7, w8 = WEIGHTS
    z = BIAS + w0 * ((vp if vp < target else target) / target) \
        + w1 * ((work if work < 40 else 40) / 20.0) + w2 * (alive / 5.0) \
        + w3 * ((pool if pool < 3 else 3) / 3.0) + w4 * (danger / seats / 3.0) \
        + w5 * (critical / seats) + w6 * (cats / seats / 10.0) \
        + w7 * (foods / seats / 10.0) + w8 * (medicals / seats / 5.0)
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
