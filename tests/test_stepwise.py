"""Step-wise action codes (meeple.engine.stepwise) are exact, for every game with an encoding:
at random states (hypothesis draws the game, variant, seat count, seed and walk length), for
every acting seat, walking every branch of the sub-decisions composes exactly the seat's legal
actions (each once), each legal action's own codes compose it, and every sub-decision offers at
most the vocabulary's codes. Observation bounds hold along the same walks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.errors import IllegalActionError
from meeple.engine.registry import game_class, game_names, load_game
from meeple.engine.stepwise import END, step_codes
from meeple.engine.tensor import observation_bounds

ENCODED = [n for n in game_names() if game_class(n).encoding]


def _composable(choice_factory, prefix=()) -> list:
    """Every action reachable from ``prefix`` by walking every legal code (depth first)."""
    out = []
    choice = choice_factory()
    for code in prefix:
        assert choice.choose(code) is None
    for code in choice.legal_codes():
        branch = choice_factory()
        for c in prefix:
            branch.choose(c)
        done = branch.choose(code)
        if done is not None:
            out.append(done)
        else:
            out.extend(_composable(choice_factory, (*prefix, code)))
    return out


@st.composite
def states(draw):
    name = draw(st.sampled_from(ENCODED))
    cls = game_class(name)
    variant = draw(st.sampled_from([v.name for v in cls.variants]))
    players = draw(st.integers(cls.min_players, cls.max_players))
    game = load_game(name, variant, players)
    seed = draw(st.integers(0, 2**32))
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 120))):
        if state.is_terminal():
            break
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    return game, state


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(states())
def test_step_codes_compose_exactly_the_legal_actions(drawn) -> None:
    game, state = drawn
    codec = step_codes(game)
    assert codec.size <= 400 and codec.words[codec.end] == END
    low, high = observation_bounds(game)
    for seat in range(game.players):
        tensor = game.observation_tensor(state.view(seat))
        assert np.all(low <= tensor) and np.all(tensor <= high)
    for seat in state.current_players():
        legal = list(state.legal_actions(seat))
        reachable = _composable(lambda legal=legal: codec.choice(legal))
        assert len(reachable) == len(set(reachable)) == len(legal)
        assert set(reachable) == set(legal)
        for action in legal:
            choice = codec.choice(legal)
            codes = codec.codes(action)
            assert len(codes) <= codec.depth
            for i, code in enumerate(codes):
                assert choice.mask()[code] == 1
                done = choice.choose(code)
                assert (done == action) if i == len(codes) - 1 else done is None


@pytest.mark.parametrize("name", ENCODED)
def test_vocabularies_stay_small_where_tables_are_huge(name: str) -> None:
    game = load_game(name)
    codec = step_codes(game)
    assert codec.size <= 400 and codec.depth <= 5
    assert len(codec.words) == len(set(codec.words))


def test_an_illegal_step_is_refused_and_nothing_changes() -> None:
    game = load_game("damocles")
    state = game.new_initial_state(1)
    seat = state.current_players()[0]
    choice = step_codes(game).choice(state.legal_actions(seat))
    illegal = next(c for c in range(step_codes(game).size) if c not in choice.legal_codes())
    with pytest.raises(IllegalActionError, match="not legal at sub-decision 1"):
        choice.choose(illegal)
    assert choice.prefix == []


def test_damocles_declares_its_reflex_mark_as_a_step() -> None:
    game = load_game("damocles")
    codec = step_codes(game)
    action = game.parse_action("pair GEN-02 ONE-05*", 0)
    assert codec.steps(action) == ("pair", "GEN-02", "ONE-05", "*")
    plain = codec.steps(game.parse_action("pair GEN-02 ONE-05", 0))
    assert plain[-1] == END  # it begins the starred pair, so it ends explicitly


def test_pending_block_names_the_chosen_steps() -> None:
    codec = step_codes(load_game("ozymandias-market"))
    block = codec.pending([3, 7])
    assert block.shape == (codec.pending_size,)
    assert block[3] == block[codec.size + 7] == block[(codec.depth - 1) * codec.size + 2] == 1
    assert block.sum() == 3
    with pytest.raises(ValueError):
        codec.pending([0] * codec.depth)
