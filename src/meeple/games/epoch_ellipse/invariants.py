"""Epoch Ellipse: the invariants a saved state must satisfy (``_validate_data``).

Checked in order, the first problem raising :class:`~meeple.engine.errors.StateError` at its
JSON path: shape and types (:class:`EpochData`: a wrong type used to load and then fail, or
loop, in a playout); one draw pile, hand, discard pile, status, Mournful Sacrifice card and
death cause per seat; every card instance known (``0..`` the instances of this game) and in
at most one place (shared decks, the night discard, event decks, survivor piles, each seat's
piles, set-aside cards, the exploration in progress; trashed cards leave the game, so not
every instance must appear); every location at most once over the location deck and play,
the Graveyard first in play; one event deck and one token count per location in play, each
token count equal to the catastrophes in its deck (EPE-3); every survivor pile (the pool's, and
the one being given in step ``rescue``) starts with its survivor card (EPE-22); whose turn and
the first player are
seats; a pending offer names two different seats; the game is over (``phase`` and ``step``
``over``) exactly when it has a result, and the seat to act is not dead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from meeple.engine.validation import (
    STRICT,
    NonNegInt,
    check_count,
    check_len,
    check_model,
    check_pieces,
    check_that,
    json_path,
)
from meeple.games.epoch_ellipse.cards import CATASTROPHE, SURVIVOR
from meeple.games.epoch_ellipse.rules import SHARED_DECKS

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochEllipse

Cards = list[NonNegInt]


class EpochData(BaseModel):
    """The ``data`` object of an Epoch Ellipse state."""

    model_config = STRICT

    decks: dict[Literal[*SHARED_DECKS], Cards]  # type: ignore[valid-type]
    night_discard: Cards
    location_deck: Cards
    locations: Cards
    event_decks: list[Cards]
    tokens: list[NonNegInt]
    pool: list[Cards]
    draws: list[Cards]
    hands: list[Cards]
    discards: list[Cards]
    status: list[Literal["alive", "mournful", "dead"]]
    ms_card: list[NonNegInt | None]
    death_cause: list[str | None]
    day: Annotated[int, Field(ge=1)]
    phase: Literal["wake", "plan", "explore", "hunger", "over"]
    step: str
    first: NonNegInt
    turn: NonNegInt
    queue: list[NonNegInt]
    passes: NonNegInt
    traded: list[Annotated[list[NonNegInt], Field(min_length=2, max_length=2)]]
    offer: Annotated[list[NonNegInt], Field(min_length=4, max_length=4)] | None
    credits: NonNegInt
    explorer: int
    expl_pos: int
    expl_k: NonNegInt
    expl_new: bool
    expl_cats: Cards
    expl_survivors: Cards
    expl_salvage: Cards
    current: NonNegInt | None
    paid: NonNegInt
    rescue: Cards | None
    explore_queue: list[NonNegInt]
    hungry: list[NonNegInt]
    removed: Cards
    events: list[list[Any]]
    result: Literal["won", "lost", "truncated"] | None
    cause: str | None


def validate(game: EpochEllipse, data: Mapping[str, Any]) -> None:
    """Check an Epoch Ellipse state's ``data`` (see the module docstring).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    base = "$.data"
    d: EpochData = check_model(EpochData, dict(data), base)  # type: ignore[assignment]
    n = game.players
    at = lambda *parts: json_path(base, *parts)  # noqa: E731
    for key in ("draws", "hands", "discards", "status", "ms_card", "death_cause"):
        check_len(getattr(d, key), n, at(key), "one per seat")
    check_that(set(d.decks) == set(SHARED_DECKS), at("decks"),
               f"expected the decks {', '.join(SHARED_DECKS)}")
    places = [(at("decks", k), v) for k, v in d.decks.items()]
    places.append((at("night_discard"), d.night_discard))
    places += [(at("event_decks", i), v) for i, v in enumerate(d.event_decks)]
    places += [(at("pool", i), v) for i, v in enumerate(d.pool)]
    for key in ("draws", "hands", "discards"):
        places += [(at(key, s), v) for s, v in enumerate(getattr(d, key))]
    places.append((at("ms_card"), [c for c in d.ms_card if c is not None]))
    for key in ("expl_cats", "expl_survivors", "expl_salvage", "removed"):
        places.append((at(key), getattr(d, key)))
    places.append((at("current"), [] if d.current is None else [d.current]))
    places.append((at("rescue"), d.rescue or []))
    check_pieces(places, range(len(game.ctype)), "card instance", all_placed=False)
    n_locations = len(game.content.locations)
    check_pieces([(at("location_deck"), d.location_deck), (at("locations"), d.locations)],
                 range(n_locations), "location", all_placed=False)
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


def _check_turn(game: EpochEllipse, d: EpochData, at: Any) -> None:
    n = game.players
    for key in ("first", "turn"):
        check_count(getattr(d, key), 0, n - 1, at(key), "a seat")
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
