"""Damocles: what a saved state must satisfy beyond its components (docs/rules/damocles.md).

The components (``DamoclesState.COMPONENTS``) already give the shape and types of every field,
one entry per seat, seats in range and every codex in exactly one place. Here, on the validated
data (:meth:`~meeple.engine.components.ComponentState.check_invariants`), the first problem
raising :class:`~meeple.engine.errors.StateError` at its JSON path: the bank is absent exactly
when it is unlimited, and its tokens add up (DAM-9: with one shared supply of 4 x 5, bank +
circle = 4 of each god; with a separate bank, at most 20 in the bank); the phase fits the
circle (``place``: exactly ``placed`` tokens down; ``turn``/``over``: all seven), the turn
count (``over`` exactly after ``cycles`` x players turns, with winners) and the turn context
(outside a turn it is reset; ``keep`` has a pool, ``destroy`` a queue of tableaus).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.engine.validation import check_count, check_len, check_that, json_path

if TYPE_CHECKING:
    from meeple.engine.game import Game


def check(game: Game, d: Any, base: str) -> None:
    """The invariants above on the validated data ``d`` (at JSON path ``base``).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    _check_tokens(game, d, base)
    _check_phase(game, d, base)
    n, p = game.players, game.params
    check_count(d.turns_taken, 0, p["cycles"] * n, json_path(base, "turns_taken"),
                "turns in the game")


def _check_tokens(game: Game, d: Any, base: str) -> None:
    mode = game.params["bank"]
    if mode == "infinite":
        check_that(d.bank is None, json_path(base, "bank"), "expected null (an unlimited bank)")
        return
    check_that(d.bank is not None, json_path(base, "bank"), f"expected 5 counts (bank {mode})")
    if mode == "shared20":  # one supply of 4 of each god: bank + circle (DAM-9 b)
        for god, count in enumerate(d.bank):
            down = sum(1 for g in d.circle if g == god)
            check_that(count + down == 4, json_path(base, "bank", god),
                       f"expected {4 - down} (4 tokens of god {god}, {down} on the circle), "
                       f"got {count}")
    else:  # exchanges keep the bank's 20 tokens (DAM-11); hand-set positions may hold fewer
        check_that(sum(d.bank) <= 20, json_path(base, "bank"),
                   f"expected at most 20 tokens in the bank, got {sum(d.bank)}")


def _check_phase(game: Game, d: Any, base: str) -> None:
    n, p = game.players, game.params
    down = sum(1 for g in d.circle if g is not None)
    where = json_path(base, "phase")
    if d.phase in ("discard", "place"):
        check_that(down == d.placed, json_path(base, "placed"),
                   f"expected {down} (tokens on the circle), got {d.placed}")
        check_that(d.placed < 7, json_path(base, "placed"), "placement ends at 7 tokens")
        check_that(d.turns_taken == 0 and d.winners_ is None and not any(d.tableaus), where,
                   f"expected 'turn': turns were taken or codices played in phase {d.phase!r}")
        if d.phase == "discard":
            check_that(d.placed == 0, where, "expected 'place': tokens are down")
            for s, hand in enumerate(d.hands):
                check_len(hand, p["deal"], json_path(base, "hands", s), "the deal, before "
                          "the setup discard")
    else:
        check_that(down == 7 and d.placed == 7, json_path(base, "circle"),
                   "expected all seven slots filled once the turns have begun")
    over = d.turns_taken >= p["cycles"] * n
    check_that((d.phase == "over") == over, where,
               f"expected {'over' if over else 'turn'} after {d.turns_taken} of "
               f"{p['cycles'] * n} turns")
    check_that((d.winners_ is not None) == over, json_path(base, "winners_"),
               "expected winners exactly when the game is over")
    if d.winners_ is not None:
        check_that(bool(d.winners_) and all(w < n for w in d.winners_)
                   and sorted(set(d.winners_)) == d.winners_, json_path(base, "winners_"),
                   "expected distinct seats in order")
    fresh = (d.step == "pre" and d.swaps_done == 0 and d.swaps_allowed == 1 and not d.consumed
             and not d.keep_pool and not d.destroy_queue and not d.granted
             and d.relax_tokens == 0 and not d.pairs_used)
    if d.phase != "turn":
        check_that(fresh, json_path(base, "step"), "expected a reset turn context outside turns")
    check_that(d.swaps_done <= d.swaps_allowed, json_path(base, "swaps_done"),
               f"expected at most {d.swaps_allowed} swaps")
    check_that(d.step == "keep" or not d.keep_pool, json_path(base, "keep_pool"),
               "expected an Oracle's pool only in step 'keep'")
    check_count(d.keep_count, 0, len(d.keep_pool), json_path(base, "keep_count"),
                "codices kept from the pool")
    check_that((d.step == "destroy") == bool(d.destroy_queue), json_path(base, "destroy_queue"),
               "expected Destruction targets exactly in step 'destroy'")
    for i, (seat, count) in enumerate(d.destroy_queue):
        check_count(seat, 0, n - 1, json_path(base, "destroy_queue", i, 0), "a seat")
        check_count(count, 1, max(1, len(d.tableaus[seat])), json_path(base, "destroy_queue", i, 1),
                    "codices to destroy from that tableau")
