"""Battle of the Four Gods: what a saved state must satisfy beyond its components
(docs/rules/battle-of-the-four-gods.md).

The components (``FourGodsState.COMPONENTS``) already give the shape and types of every field
and one ``energy`` and ``eliminated_round`` per seat. Here, on the validated data
(:meth:`~meeple.engine.components.ComponentState.check_invariants`), the first problem raising
:class:`~meeple.engine.errors.StateError` at its JSON path: ``round`` is at most the round cap;
a seat is eliminated (in a round 1..``round``) exactly when its energy is 0 or below
(Results 3); the history holds the last rounds in order, ending with ``round`` (a position set
up by a scenario may start with a short history), each with one selection per seat (a legal
text, or null for a seat already out) and one energy change per seat; when a non-empty history
is complete, each energy is the start energy plus that seat's changes less the stall drains it
suffered (the counts add up); the game is over (``winners`` set) exactly when at most one seat
stands or the round cap is reached (B4G-13, B4G-14, B4G-21), and ``truncated`` only at the
cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.engine.errors import MeepleError, StateError
from meeple.engine.validation import check_count, check_len, check_that, json_path
from meeple.games.battle_of_the_four_gods.actions import parse_selection

if TYPE_CHECKING:
    from meeple.engine.game import Game


def check(game: Game, d: Any, base: str) -> None:
    """The invariants above on the validated data ``d`` (at JSON path ``base``).

    Raises:
        StateError: at the JSON path of the first problem.
    """
    n, p = game.players, game.params
    check_count(d.round, 0, p["max_rounds"], json_path(base, "round"), "rounds played")
    for s in range(n):
        out = d.eliminated_round[s]
        check_count(out, 0, d.round, json_path(base, "eliminated_round", s), "0 or a round played")
        check_that((out > 0) == (d.energy[s] <= 0), json_path(base, "energy", s),
                   f"expected {'0 or below (eliminated)' if out else 'above 0 (alive)'}, "
                   f"got {d.energy[s]}")
    _check_history(game, d, base)
    alive = [s for s in range(n) if d.eliminated_round[s] == 0]
    over = len(alive) <= 1 or d.round >= p["max_rounds"]
    where = json_path(base, "winners")
    check_that((d.winners is not None) == over, where,
               "expected winners exactly when at most one seat stands or the round cap is reached")
    if d.winners is not None:
        check_that(bool(d.winners) and sorted(set(d.winners)) == d.winners
                   and all(w < n for w in d.winners), where, "expected distinct seats in order")
    check_that(not d.truncated or (over and len(alive) > 1), json_path(base, "truncated"),
               "expected true only when the round cap ended the game")


def _check_history(game: Game, d: Any, base: str) -> None:
    n = game.players
    first = d.round - len(d.history) + 1
    check_that(first >= 1, json_path(base, "history"),
               f"expected at most {d.round} rounds (the rounds played)")
    drained = [0] * n
    changes = [0] * n
    for i, (number, sels, deltas, drain) in enumerate(d.history):
        here = json_path(base, "history", i)
        check_that(number == first + i, here + "[0]", f"expected round {first + i}")
        check_len(sels, n, here + "[1]", "one selection per seat")
        check_len(deltas, n, here + "[2]", "one energy change per seat")
        for s, text in enumerate(sels):
            out = d.eliminated_round[s]
            playing = out == 0 or out >= number
            check_that((text is not None) == playing, f"{here}[1][{s}]",
                       "expected a selection from a seat in play, null from one already out")
            if text is not None:
                try:
                    parse_selection(text, n, s)
                except MeepleError as exc:
                    raise StateError(f"{here}[1][{s}]", f"expected a selection: {exc}") from None
                drained[s] += drain
            changes[s] += deltas[s]
    if d.history and len(d.history) == d.round:
        start = game.params["start_energy"]
        for s in range(n):
            expected = start + changes[s] - drained[s]
            check_that(d.energy[s] == expected, json_path(base, "energy", s),
                       f"expected {expected} (start energy plus the history's changes), "
                       f"got {d.energy[s]}")
