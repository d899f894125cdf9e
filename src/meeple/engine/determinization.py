"""The engine's side of determinization (engine-patterns 6): many draws from one view.

:func:`determinizer` wraps a game's ``_determinizer`` hook (what the hidden parts may be)
with what every game shares: the view checked and read once, the acting seats checked, a
fresh chance seed per draw, other seats' pending simultaneous choices drawn, the seat's own
kept. ``Game.determinize`` and ``Game.determinizer`` are its public faces.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from meeple.engine import checks

if TYPE_CHECKING:
    from meeple.engine.game import Game
    from meeple.engine.state import State


def determinizer(game: Game, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
    """``draw(rng)``: a full state consistent with ``view`` (see ``Game.determinizer``).

    Raises:
        ViewError: ``view`` is not a seat's view of ``game``, or one it cannot read.
        NotImplementedError: the game has no determinization.
        RuntimeError: (from ``draw``) the game's draw acts other seats than the view says.
    """
    seat = game.check_view(view)
    sample = checks.reading_view(game, game._determinizer, view)
    submitted = tuple(view.get("submitted", ()))
    acting = tuple(sorted({*view.get("to_act", ()), *submitted}))
    mine = game.parse_action(view["my_submission"], seat) if seat in submitted else None
    # When the seat alone acts, its legal actions are the same in every draw (they are
    # what it knows it may do: the conformance suite checks that a determinization keeps
    # them), so from the second draw on one table serves every draw.
    alone = acting == (seat,) and not submitted
    tables: Any = None
    draws = 0

    def draw(rng: random.Random) -> State:
        nonlocal tables, draws
        if type(rng) is not random.Random:
            checks.rng(rng)
        state = checks.reading_view(game, sample, rng)
        if state._acting != acting:
            raise RuntimeError(f"{game.name} determinization acts seats "
                               f"{list(state._acting)}, the view says {list(acting)}")
        state.seed = rng.getrandbits(62)
        state._rng = None
        state._legal = None
        if alone:
            if tables is None and draws:
                tables = state._legal_tables()
            state._legal = tables
            draws += 1
        pending = {}
        for other in submitted:
            if other == seat:
                pending[other] = mine
            else:
                pending[other] = rng.choice(state.legal_actions(other))
        state._pending = pending
        return state

    return draw
