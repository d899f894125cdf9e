"""Ozymandias Market: what a saved state must satisfy beyond its components
(docs/rules/ozymandias-market.md).

The components (``MarketState.COMPONENTS``) already give the shape and types of every field,
one hand, played card, VP total and last rank per seat, and every card rank of this game in
exactly one of ``deck``, ``discard``, ``market``, ``augury_pool``, ``hands`` and ``played``
(and known ranks in ``last_ranks``). Here, on the validated data
(:meth:`~meeple.engine.components.ComponentState.check_invariants`), the first problem raising
:class:`~meeple.engine.errors.StateError` at its JSON path: sectors written ``q,r``, each once,
and ``sectors_left`` plus the sectors on the map equal to ``sectors``; per colour the disks on
the map, in the supply and dead (destroyed) adding up to ``disks_per_colour``; the phase fits
whose turn it is (``plan``: every seat plans, no turn order; ``raise``/``trade``: a turn order
of every seat and a turn inside it) and the game is over (with winners) exactly in phase
``over``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.engine.errors import MeepleError
from meeple.engine.validation import check_count, check_that, json_path
from meeple.games.ozymandias_market.hexes import parse_hex

if TYPE_CHECKING:
    from meeple.engine.game import Game


def check(game: Game, d: Any, base: str) -> None:
    """The invariants above on the validated data ``d`` (at JSON path ``base``).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    _check_map(game, d, base)
    _check_phase(game, d, base)


def _check_map(game: Game, d: Any, base: str) -> None:
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


def _check_phase(game: Game, d: Any, base: str) -> None:
    n, p = game.players, game.params
    check_count(d.round, 1, p["max_rounds"], json_path(base, "round"), "the round")
    where = json_path(base, "turn_order")
    if d.phase in ("raise", "trade"):
        check_that(sorted(d.turn_order) == list(range(n)), where,
                   f"expected every seat 0..{n - 1} once")
        check_count(d.turn, 0, n - 1, json_path(base, "turn"), "a place in the turn order")
        if d.phase == "trade":  # a seat sells its played card only in its own turn (OZD-18)
            for seat in d.turn_order[d.turn:]:
                check_that(d.played[seat] is not None, json_path(base, "played", seat),
                           "expected the played card of a seat that has not traded yet "
                           "(the acting seat and those after it in the turn order)")
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
