"""Walking a playthrough state by state, for tests that check every state on the way."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from meeple.engine.game import Game
from meeple.engine.state import State


def playthrough(game: Game, seed: int, walk: random.Random,
                bots: Sequence[Any] | None = None) -> Iterator[State]:
    """Each state of one playthrough of ``seed`` before its step, then the step: uniform
    choices from ``walk``, or the ``bots`` (one per seat) when given."""
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        yield state
        acting = state.current_players()
        if bots is None:
            joint = {s: walk.choice(state.legal_actions(s)) for s in acting}
        else:
            joint = {s: bots[s].act(state.view(s), state.legal_actions(s)) for s in acting}
        state.apply_actions(joint)
