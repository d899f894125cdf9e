"""Battle of the Four Gods determinization: a full state consistent with one seat's view.

Everything the rules read is public and in the view (energies, eliminations, the round, the
stall counter, the history of revealed rounds, the result), so the state is rebuilt from the
view field by field, with nothing drawn. The only hidden part is the other seats' pending
selections of the current round; the engine (``Game.determinize``) draws those uniformly from
each seat's legal actions after this hook. Under ``reveal_lock`` a pending selection may be
public, face up (``revealed``), and a face-down one is known not to be a ``reveal`` selection,
so for those seats this hook narrows the legal table the engine draws from to what the view
allows (``_low`` is set so the next resolution recomputes the tables).

Called by search once per iteration: no copies beyond the shallow lists, no parsing except of
``revealed`` texts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from meeple.games.battle_of_the_four_gods.actions import parse_selection
from meeple.games.battle_of_the_four_gods.rules import FourGods, FourGodsState

_new = object.__new__


def determinize(game: FourGods, view: Mapping[str, Any], rng: random.Random) -> FourGodsState:
    """A new state giving ``view["seat"]`` exactly ``view`` (module docstring).

    ``rng`` is unused: no part of the rules state is hidden; the engine draws the pending
    selections of the other submitted seats with it.
    """
    state = _new(FourGodsState)
    state.game = game
    # Placeholders only: the engine's ``Game.determinize`` sets the seed, stream and pending.
    state.seed = 0
    state._rng = None
    state._pending = {}
    state._legal = None
    state.energy = list(view["energy"])
    state.eliminated_round = list(view["eliminated_round"])
    winners = view["winners"]
    if winners is None:
        state.winners_ = None
        state.round = view["round"] - 1  # the view shows the round being planned
    else:
        state.winners_ = tuple(winners)
        state.round = view["round"]
    state.stall = view["stall"]
    history = view["history"]
    if history and type(history[0]) is not tuple:  # a view that went through JSON
        history = [_log_from_json(entry) for entry in history]
    state.history = list(history)  # entries are immutable tuples, shared safely
    state.truncated = view["truncated"]
    state._refresh_acting()
    if game.params["reveal_lock"] and view["submitted"]:
        _narrow_tables(game, state, view)
    return state


def determinizer(game: FourGods,
                 view: Mapping[str, Any]) -> Callable[[random.Random], FourGodsState]:
    """``draw(rng)``, the same as ``determinize(game, view, rng)``: the state is read from the
    view once, and each draw is a copy of it (``_copy``: nothing mutable shared)."""
    template = determinize(game, view, None)  # type: ignore[arg-type]  # rng is unused
    acting = template._acting

    def draw(rng: random.Random) -> FourGodsState:
        state = template._copy()
        state.game = game  # the engine sets the seed, stream, tables, pending and narrate
        state._acting = acting
        return state

    return draw


def _log_from_json(entry: Any) -> tuple[Any, ...]:
    """One round's log with its lists turned back into the state's tuples."""
    r, publics, deltas, drain = entry
    return (r, tuple(None if p is None else (tuple(p[0]), tuple(p[1])) for p in publics),
            tuple(deltas), drain)


def _narrow_tables(game: FourGods, state: FourGodsState, view: Mapping[str, Any]) -> None:
    """Under ``reveal_lock``: a submitted seat's pending selection is its revealed one if the
    view shows it, else one of its face-down (non-``reveal``) legal selections."""
    revealed = view["revealed"]
    me = view["seat"]
    tables = dict(state._tables)
    for seat in view["submitted"]:
        if seat == me:
            continue
        text = revealed.get(str(seat))
        if text is not None:
            sel = parse_selection(text, game.players, seat)
            tables[seat] = ((sel,), frozenset((sel,)))
        else:
            face_down = tuple(sel for sel in tables[seat][0] if not sel.reveal)
            tables[seat] = (face_down, frozenset(face_down))
    state._tables = tables
    state._low = True  # the narrowed tables must not outlive this round
