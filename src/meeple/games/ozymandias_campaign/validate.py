"""Ozymandias Campaign: the invariants a saved state must satisfy (``_validate_data``).

Checked in order, the first problem raising :class:`~meeple.engine.errors.StateError` at its
JSON path: shape and types (:class:`CampaignData`); one hand, tableau, incoming cubes,
unrest, VP, bag and supply per seat; every card known and in at most one of ``deck``,
``discard``, ``hands`` and the tableau rows (a row starts with its card); every tile of this
game known and in at most one of the map, the tile deck and ``drawn_tile``; points on the
map named by tiles on the map; each seat's workers in its bag, its supply, standing on the map
and in colony stacks adding up to ``workers``; cube counts never negative; whose turn is a seat, the
step is a known step, and the game is over (with winners) exactly at step ``over``.
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
from meeple.games.ozymandias_campaign.vocab import SUITS

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import OzymandiasCampaign

Step = Literal["campaign", "cube", "distribute", "explore", "fight", "migrate", "migrating",
               "mode", "over", "play", "recover_colony", "recover_standing", "war"]
#: A count per suit (incoming cubes, a migration's or a war's cubes): exactly one per suit.
Suits = Annotated[list[NonNegInt], Field(min_length=len(SUITS), max_length=len(SUITS))]


class Placed(BaseModel):
    """One tile on the map and how it joins the map (None for the first)."""

    model_config = STRICT

    tile: str
    join: Annotated[list[Any], Field(min_length=3, max_length=3)] | None


class CampaignData(BaseModel):
    """The ``data`` object of an Ozymandias Campaign state."""

    model_config = STRICT

    map: Annotated[list[Placed], Field(min_length=1)]
    tile_deck: list[NonNegInt]
    deck: list[NonNegInt]
    discard: list[NonNegInt]
    hands: list[list[NonNegInt]]
    tableaus: list[list[Annotated[list[NonNegInt], Field(min_length=1)]]]
    incoming: list[Suits]
    unrest: list[NonNegInt]
    vp: list[NonNegInt]
    bag: list[NonNegInt]
    supply: list[NonNegInt]
    standing: dict[str, NonNegInt]
    stacks: dict[str, list[NonNegInt]]
    active: NonNegInt
    step: Step
    turns: NonNegInt
    owed: NonNegInt
    mig_pos: int
    mig_out: Suits
    war: list[Any] | None
    explore_at: str | None
    drawn_tile: NonNegInt | None
    trigger: NonNegInt | None
    last_seat: NonNegInt | None
    cubes_in: Suits
    cubes_out: Suits
    events: list[list[Any]]
    winners_: list[NonNegInt] | None
    truncated: bool
    lost_wars: list[str] = []  # absent when empty (OZW-54)


def validate(game: OzymandiasCampaign, data: Mapping[str, Any]) -> None:
    """Check an Ozymandias Campaign state's ``data`` (see the module docstring).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    base = "$.data"
    d: CampaignData = check_model(CampaignData, dict(data), base)  # type: ignore[assignment]
    n, p = game.players, game.params
    at = lambda *parts: json_path(base, *parts)  # noqa: E731
    for key in ("hands", "tableaus", "incoming", "unrest", "vp", "bag", "supply"):
        check_len(getattr(d, key), n, at(key), "one per seat")
    places = [(at("deck"), d.deck), (at("discard"), d.discard)]
    places += [(at("hands", s), h) for s, h in enumerate(d.hands)]
    places += [(at("tableaus", s), [row[0] for row in t]) for s, t in enumerate(d.tableaus)]
    check_pieces(places, range(len(game.cards)), "card", all_placed=False)
    on_map = []
    for i, placed in enumerate(d.map):
        index = game.tile_index.get(placed.tile)
        check_that(index is not None, at("map", i, "tile"), f"unknown tile {placed.tile!r}")
        on_map.append(index)
    check_pieces([(at("map"), on_map), (at("tile_deck"), d.tile_deck),
                  (at("drawn_tile"), [] if d.drawn_tile is None else [d.drawn_tile])],
                 range(len(game.tiles)), "tile", all_placed=False)
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
    for key in ("active",):
        check_count(d.active, 0, n - 1, at(key), "a seat")
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
