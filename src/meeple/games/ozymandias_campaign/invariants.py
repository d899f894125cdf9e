"""Ozymandias Campaign: the invariants of a saved state that its declared components
(``CampaignState.COMPONENTS``) cannot state, checked after them (shape and types, one entry
per seat, every card and tile known and in exactly one place, whose turn is a seat):
points on the map named by tiles on the map; each seat's workers in its bag, its supply,
standing on the map and in colony stacks adding up to at most ``workers``; ``trigger`` and
``last_seat`` seats; the game is over (with winners) exactly at step ``over``; a war in
progress names a defender holding its point, attacked by another seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from meeple.engine.validation import STRICT, NonNegInt, check_count, check_that, json_path
from meeple.games.ozymandias_campaign.vocab import SUITS

if TYPE_CHECKING:
    from meeple.engine.game import Game

Step = Literal["campaign", "cube", "distribute", "explore", "fight", "migrate", "migrating",
               "mode", "over", "play", "recover_colony", "recover_standing", "war"]
#: A count per suit (incoming cubes, a migration's or a war's cubes): exactly one per suit.
Suits = Annotated[list[NonNegInt], Field(min_length=len(SUITS), max_length=len(SUITS))]
#: A tableau row: ``[card, gold, red, blue, tapped, laid, harvest]`` (:mod:`.moves`).
Row = Annotated[list[NonNegInt], Field(min_length=1)]


class Placed(BaseModel):
    """One tile on the map and how it joins the map (None for the first)."""

    model_config = STRICT

    tile: str
    join: Annotated[list[Any], Field(min_length=3, max_length=3)] | None


def check(game: Game, d: Any, base: str) -> None:
    """The invariants above on the validated data ``d`` (at JSON path ``base``).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    n, p = game.players, game.params
    at = lambda *parts: json_path(base, *parts)  # noqa: E731
    tiles = {placed.tile for placed in d.map}
    for key in ("standing", "stacks"):
        for point in getattr(d, key):
            check_that(point.split(":")[0] in tiles, at(key, point),
                       "expected a point of a tile on the map")
    workers = [d.bag[s] + d.supply[s] for s in range(n)]
    for point, seat in d.standing.items():
        check_count(seat, 0, n - 1, at("standing", point), "a seat")
        workers[seat] += 1
    for point, stack in d.stacks.items():
        for j, seat in enumerate(stack):
            check_count(seat, 0, n - 1, at("stacks", point, j), "a seat")
            workers[seat] += 1
    for s in range(n):
        check_that(workers[s] <= p["workers"], at("bag", s),
                   f"seat {s} has {workers[s]} workers in bag, supply and on the map; "
                   f"expected at most {p['workers']}")
    for key in ("trigger", "last_seat"):
        value = getattr(d, key)
        check_that(value is None or value < n, at(key), "expected a seat or null")
    over = d.step == "over"
    check_that((d.winners_ is not None) == over, at("winners_"),
               "expected winners exactly at step 'over'")
    if d.winners_ is not None:
        check_that(bool(d.winners_) and all(w < n for w in d.winners_)
                   and sorted(set(d.winners_)) == d.winners_, at("winners_"),
                   "expected distinct seats in order")
    check_that(not d.truncated or over, at("truncated"), "expected true only once over")
    check_that(d.step not in ("war", "fight") or d.war is not None, at("war"),
               f"expected the war in progress at step {d.step!r}")
    if d.war is not None:  # [kind, point, attacker, defender] (OZW-30, OZW-31)
        check_that(len(d.war) == 4 and d.war[0] in ("stand", "colony"), at("war"),
                   "expected [kind ('stand' or 'colony'), point, attacker, defender]")
        kind, point, attacker, defender = d.war
        held = (d.standing.get(point) if kind == "stand"
                else (d.stacks.get(point) or [None])[-1])
        check_that(held == defender and attacker != defender, at("war"),
                   f"expected seat {defender} {'standing' if kind == 'stand' else 'on top'} "
                   f"at {point}, attacked by another seat")
