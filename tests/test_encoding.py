"""Encoding conformance: for every registered game that declares an ``encoding`` (the
fixed-size integer action space and observation tensor the adapters use), along seeded random
walks of every variant and the extreme seat counts:

* every legal action of every acting seat is in the action table, and its code reads back to an
  equal action of that seat;
* codes are unique among one seat's legal actions;
* the table does not depend on the state (it is built once per game instance) and never
  repeats a text;
* every seat's observation tensor (made from that seat's view alone) has the declared shape, is
  finite, and changes along the walk.

Only the game-agnostic API is used, so a new game is checked without an edit here.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple.engine.errors import ActionParseError
from meeple.engine.game import Game
from meeple.engine.registry import game_class, game_names, load_game
from tests.configs import game_configs

try:  # the template games; importing them registers "pig" and "crazy-eights"
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401
except ImportError:  # pragma: no cover - only when run outside the checkout
    pass

#: Steps of each seeded random walk that are checked (all of them for shorter games).
STEPS = 150


@pytest.fixture(params=game_configs(lambda cls: bool(cls.encoding)))
def game(request) -> Game:
    name, variant, players = request.param
    return load_game(name, variant, players)


def test_every_game_declares_an_encoding() -> None:
    missing = [n for n in game_names() if not game_class(n).encoding]
    assert not missing, f"games without an encoding: {missing}"


def test_legal_actions_round_trip_through_codes(game: Game) -> None:
    table = game.action_table()
    assert len(set(table)) == len(table) == game.num_distinct_actions() > 0
    for seed in (3, 4):
        state = game.new_initial_state(seed)
        walk = random.Random(seed)
        step = 0
        while not state.is_terminal() and step < STEPS:
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                codes = [game.action_code(a) for a in legal]
                assert len(set(codes)) == len(codes), "two legal actions share a code"
                for action, code in zip(legal, codes, strict=True):
                    assert 0 <= code < len(table)
                    assert game.action_from_code(code, seat) == action
            state.apply_actions({s: walk.choice(state.legal_actions(s))
                                 for s in state.current_players()})
            step += 1
    assert game.action_table() is table


def test_out_of_range_codes_are_refused(game: Game) -> None:
    with pytest.raises(ActionParseError):
        game.action_from_code(game.num_distinct_actions(), 0)
    with pytest.raises(ActionParseError):
        game.action_from_code(-1, 0)


def test_observation_tensor_has_the_shape_and_reads_only_the_view(game: Game) -> None:
    shape = game.observation_shape()
    assert shape and all(n > 0 for n in shape)
    state = game.new_initial_state(8)
    walk = random.Random(8)
    seen: set[bytes] = set()
    step = 0
    while True:
        for seat in range(game.players):
            view = state.view(seat)
            tensor = game.observation_tensor(view)
            assert tensor.shape == shape and tensor.dtype == np.float32
            assert np.isfinite(tensor).all()
            seen.add(tensor.tobytes())
        if state.is_terminal() or step >= STEPS:
            break
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
        step += 1
    assert len(seen) > 1, "the observation never changed along the walk"
