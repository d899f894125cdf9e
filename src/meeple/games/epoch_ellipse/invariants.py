"""Epoch Ellipse: what a saved state must satisfy beyond its components (rules page, 11).

The components (``EpochState.COMPONENTS``) already give the shape and types of every field,
one draw pile, hand, discard pile, status, Mournful Sacrifice card and death cause per seat,
the first player and whose turn as seats, and every card instance and every location in
exactly one place (shared decks, the night discard, event decks, survivor piles, each seat's
piles, set-aside cards, the exploration in progress; the location deck and play). Here, on the
validated data (:meth:`~meeple.engine.components.ComponentState.check_invariants`), the first
problem raising :class:`~meeple.engine.errors.StateError` at its JSON path: the four shared
decks; the Graveyard first in play; one event deck and one token count per location in play,
each token count equal to the catastrophes in its deck (EPE-3); every survivor pile (the
pool's, and the one being given in step ``rescue``) starts with its survivor card (EPE-22);
the explorer and the seat queues are seats; a pending offer names two different seats and a
card type each holds; the step fits the turn context; the game is over (``phase`` and ``step``
``over``) exactly when it has a result, and the seat to act is not dead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.engine.validation import check_count, check_len, check_that, json_path
from meeple.games.epoch_ellipse.cards import CATASTROPHE, NIGHT, SALVAGE, SURVIVOR

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochEllipse

#: The shared decks (``EpochState.decks``; ``rules.SHARED_DECKS``).
SHARED_KINDS = (SALVAGE, SURVIVOR, CATASTROPHE, NIGHT)


def check(game: EpochEllipse, d: Any, base: str) -> None:
    """The invariants above on the validated data ``d`` (at JSON path ``base``).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    at = lambda *parts: json_path(base, *parts)  # noqa: E731
    check_that(set(d.decks) == set(SHARED_KINDS), at("decks"),
               f"expected the decks {', '.join(SHARED_KINDS)}")
    fixed = list(game.content.fixed_locations)
    check_that(d.locations[:len(fixed)] == fixed, at("locations"),
               f"expected the fixed locations {fixed} first (EPE-3)")
    for key in ("event_decks", "tokens"):
        check_len(getattr(d, key), len(d.locations), at(key), "one per location in play")
    for i, deck in enumerate(d.event_decks):
        cats = sum(1 for c in deck if game.content.cards[game.ctype[c]].kind == CATASTROPHE)
        check_that(d.tokens[i] == cats, at("tokens", i),
                   f"expected {cats} (the catastrophes in that event deck), got {d.tokens[i]}")
    # A survivor pile (in the pool, or being given in step 'rescue') starts with its survivor.
    piles = [(at("pool", i), pile) for i, pile in enumerate(d.pool)]
    piles += [(at("rescue"), d.rescue)] if d.rescue else []
    for path, pile in piles:
        check_that(bool(pile) and game.content.cards[game.ctype[pile[0]]].kind == SURVIVOR,
                   path, "expected a survivor pile: its survivor card first (EPE-22)")
    _check_turn(game, d, at)


def _check_turn(game: EpochEllipse, d: Any, at: Any) -> None:
    n = game.players
    check_count(d.explorer, -1, n - 1, at("explorer"), "a seat, or -1 for none")
    for key in ("queue", "explore_queue", "hungry"):
        for i, seat in enumerate(getattr(d, key)):
            check_count(seat, 0, n - 1, at(key, i), "a seat")
    for i, pair in enumerate(d.traded):
        check_that(pair[0] < pair[1] < n, at("traded", i), "expected two seats, lower first")
    if d.offer is not None:
        check_that(d.offer[0] < n and d.offer[1] < n and d.offer[0] != d.offer[1], at("offer"),
                   "expected an offer between two different seats")
    if d.offer is not None:  # (proposer, partner, card type given, card type asked; EPE-7)
        for k, seat in ((2, d.offer[0]), (3, d.offer[1])):
            check_that(any(game.ctype[c] == d.offer[k] for c in d.hands[seat]), at("offer", k),
                       f"expected a card type in seat {seat}'s hand")
    check_that((d.step == "answer") == (d.offer is not None), at("offer"),
               "expected an offer exactly while its answer is awaited (step 'answer')")
    # A flipped catastrophe is held while it is resolved, and stays where the game ended
    # during its combat (a win or a loss there).
    fighting = d.step in ("combat", "collapse")
    check_that(d.step == "over" or fighting == (d.current is not None), at("current"),
               "expected the flipped catastrophe exactly in steps 'combat' and 'collapse' "
               "(EPE-10, EPE-19)")
    check_that(d.step == "over" or (d.step == "rescue") == bool(d.rescue), at("rescue"),
               "expected the found survivor's pile exactly in step 'rescue' (EPE-22)")
    check_that(d.step != "hunger" or (bool(d.hungry) and d.hungry[0] == d.turn), at("hungry"),
               "expected the seat to act first among the hungry in step 'hunger' (EPE-31)")
    check_that(d.step != "pick" or bool(d.queue), at("queue"),
               "expected a dead seat waiting to pick a survivor in step 'pick'")
    check_count(d.day, 1, game.params["max_days"], at("day"), "the day")
    over = d.phase == "over"
    check_that((d.step == "over") == over, at("step"), "expected 'over' exactly in phase 'over'")
    check_that((d.result is not None) == over, at("result"),
               "expected a result exactly when the game is over")
    if not over and d.step not in ("answer", "pick"):
        check_that(d.status[d.turn] != "dead", at("turn"), "expected a seat still in play")
