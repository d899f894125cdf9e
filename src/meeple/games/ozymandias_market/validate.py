"""Ozymandias Market: the invariants a saved state must satisfy (``_validate_data``).

Checked in order, the first problem raising :class:`~meeple.engine.errors.StateError` at its
JSON path: shape and types (:class:`MarketData`); one hand, played card, VP total and last
rank per seat; every card rank of this game in exactly one of ``deck``, ``discard``,
``market``, ``hands``, ``played`` and ``augury_pool``; sectors written ``q,r``, each once, and
``sectors_left`` plus the sectors on the map equal to ``sectors``; disks of colours 0..3, and
per colour the disks on the map, in the supply and dead (destroyed) adding up to
``disks_per_colour``; the phase fits whose turn it is (``plan``: every seat plans, no turn
order; ``raise``/``trade``: a turn order of every seat and a turn inside it) and the game is
over (with winners) exactly in phase ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from meeple.engine.errors import MeepleError
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
from meeple.games.ozymandias_market.hexes import parse_hex

if TYPE_CHECKING:
    from meeple.games.ozymandias_market.rules import OzymandiasMarket

Colour = Annotated[int, Field(ge=0, le=3)]
Four = Annotated[list[NonNegInt], Field(min_length=4, max_length=4)]


class MarketData(BaseModel):
    """The ``data`` object of an Ozymandias Market state."""

    model_config = STRICT

    stacks: list[tuple[str, list[Colour]]]
    supply: Four
    dead: Four
    sectors_left: NonNegInt
    deck: list[int]
    discard: list[int]
    market: list[int]
    hands: list[list[int]]
    played: list[int | None]
    vp: list[NonNegInt]
    round: Annotated[int, Field(ge=1)]
    phase: Literal["plan", "raise", "trade", "over"]
    turn_order: list[NonNegInt]
    turn: NonNegInt
    step: Literal["main", "surge", "augury", "trade_hand", "trade_played"]
    surge_left: NonNegInt
    augury_pool: list[int]
    last_ranks: list[int | None]
    events: list[list[Any]]
    winners_: list[NonNegInt] | None
    truncated: bool


def validate(game: OzymandiasMarket, data: Mapping[str, Any]) -> None:
    """Check an Ozymandias Market state's ``data`` (see the module docstring).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    base = "$.data"
    raw = dict(data)
    if isinstance(raw.get("stacks"), list):  # JSON has no tuples
        raw["stacks"] = [tuple(e) if isinstance(e, list) else e for e in raw["stacks"]]
    d: MarketData = check_model(MarketData, raw, base)  # type: ignore[assignment]
    n = game.players
    for key in ("hands", "played", "vp", "last_ranks"):
        check_len(getattr(d, key), n, json_path(base, key), "one per seat")
    places = [(json_path(base, k), getattr(d, k)) for k in ("deck", "discard", "market")]
    places += [(json_path(base, "hands", s), h) for s, h in enumerate(d.hands)]
    places.append((json_path(base, "played"), [r for r in d.played if r is not None]))
    places.append((json_path(base, "augury_pool"), d.augury_pool))
    check_pieces(places, game.card_by_rank, "card", where=base)
    for s, rank in enumerate(d.last_ranks):
        check_that(rank is None or rank in game.card_by_rank, json_path(base, "last_ranks", s),
                   f"unknown card {rank!r}")
    _check_map(game, d, base)
    _check_phase(game, d, base)


def _check_map(game: OzymandiasMarket, d: MarketData, base: str) -> None:
    p = game.params
    seen = set()
    on_map = [0] * 4
    for i, (text, stack) in enumerate(d.stacks):
        where = json_path(base, "stacks", i, 0)
        try:
            h = parse_hex(text)
        except MeepleError:
            check_that(False, where, f"expected a sector written q,r, got {text!r}")
        check_that(h not in seen, where, f"sector {text} appears twice")
        seen.add(h)
        for colour in stack:
            on_map[colour] += 1
    check_that(len(d.stacks) + d.sectors_left == p["sectors"], json_path(base, "sectors_left"),
               f"expected {p['sectors'] - len(d.stacks)} ({p['sectors']} sectors, "
               f"{len(d.stacks)} on the map), got {d.sectors_left}")
    for colour in range(4):
        total = on_map[colour] + d.supply[colour] + d.dead[colour]
        check_that(total == p["disks_per_colour"], json_path(base, "supply", colour),
                   f"expected {p['disks_per_colour']} disks of colour {colour} in all (map "
                   f"{on_map[colour]}, supply {d.supply[colour]}, dead {d.dead[colour]}), "
                   f"got {total}")


def _check_phase(game: OzymandiasMarket, d: MarketData, base: str) -> None:
    n, p = game.players, game.params
    check_count(d.round, 1, p["max_rounds"], json_path(base, "round"), "the round")
    where = json_path(base, "turn_order")
    if d.phase in ("raise", "trade"):
        check_that(sorted(d.turn_order) == list(range(n)), where,
                   f"expected every seat 0..{n - 1} once")
        check_count(d.turn, 0, n - 1, json_path(base, "turn"), "a place in the turn order")
        if d.phase == "trade" and d.step == "trade_played":  # may sell it now (OZD-18)
            seat = d.turn_order[d.turn]
            check_that(d.played[seat] is not None, json_path(base, "played", seat),
                       "expected the acting seat's played card while it may trade it")
        for s in range(n):
            check_that(d.played[s] is not None or d.phase == "trade",
                       json_path(base, "played", s), "expected the card planned this round")
    elif d.phase == "plan":
        check_that(d.step == "main" and not d.augury_pool and d.surge_left == 0,
                   json_path(base, "step"), "expected 'main' while the seats plan")
        check_that(all(r is None for r in d.played), json_path(base, "played"),
                   "expected no card played before the plans are revealed")
    over = d.phase == "over"
    check_that((d.winners_ is not None) == over, json_path(base, "winners_"),
               "expected winners exactly in phase 'over'")
    if d.winners_ is not None:
        check_that(bool(d.winners_) and all(w < n for w in d.winners_)
                   and sorted(set(d.winners_)) == d.winners_, json_path(base, "winners_"),
                   "expected distinct seats in order")
    check_that(not d.truncated or over, json_path(base, "truncated"),
               "expected true only once the game is over")
    check_that(d.step == "augury" or not d.augury_pool, json_path(base, "augury_pool"),
               "expected an Augury's cards only in step 'augury'")
    check_that(d.phase == "raise" or d.step not in ("surge", "augury"),
               json_path(base, "step"), f"step {d.step!r} happens only in phase 'raise'")
    check_that(d.phase == "trade" or not d.step.startswith("trade"),
               json_path(base, "step"), f"step {d.step!r} happens only in phase 'trade'")
