"""``State.playout``: the engine's random rollout primitive, over every registered game."""

from __future__ import annotations

import random

import pytest

import examples.pig  # noqa: F401  (registers the sequential, chance-driven template game)
from meeple.engine.registry import game_names, load_game


@pytest.mark.parametrize("name", game_names())
def test_playout_ends_terminal_within_the_cap_and_is_reproducible(name):
    game = load_game(name)
    for seed in range(5):
        a, b = game.new_initial_state(seed), game.new_initial_state(seed)
        steps = a.playout(random.Random(seed))
        assert a.is_terminal() and a.length() <= game.capabilities.max_length
        assert steps >= 1
        assert b.playout(random.Random(seed)) == steps
        assert a.digest() == b.digest()


@pytest.mark.parametrize("name", game_names())
def test_playout_matches_the_public_loop_drawing_from_the_same_stream(name):
    """Same rng, same draws in seat order: the rollout and the public API reach one state."""
    game = load_game(name)
    for seed in range(3):
        rollout = game.new_initial_state(seed)
        rollout.playout(random.Random(seed))
        public = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not public.is_terminal():
            public.apply_actions(
                {s: rng.choice(public.legal_actions(s)) for s in public.current_players()})
        assert rollout.digest() == public.digest()


@pytest.mark.parametrize("name", game_names())
def test_playout_respects_max_steps_and_leaves_clones_alone(name):
    game = load_game(name)
    state = game.new_initial_state(1)
    before = state.digest()
    copy = state.clone()
    assert copy.playout(random.Random(0), max_steps=2) == 2
    assert state.digest() == before
    assert not copy.is_terminal() or copy.length() <= 2


def test_playout_keeps_a_pending_submission():
    game = load_game("battle-of-the-four-gods")
    state = game.new_initial_state(0)
    mine = game.parse_action("def:BGO", 0)
    state.apply_action(mine, 0)
    state.playout(random.Random(3), max_steps=1)
    assert state.view(0)["history"][0][1][0] == mine.public
    assert state.length() == 1
