"""Stepping with action codes (``State.legal_codes``, ``State.apply_codes``;
meeple.engine.codes), for every game with an encoding: along random games (hypothesis draws the
game, variant, seat count and seed), at every step each acting seat's legal codes are exactly
the ascending codes of its legal actions, stepping with the codes of a joint action leaves the
same state as stepping with the actions, and a wrong code is refused with the state untouched."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.errors import (
    ActionArgumentError,
    ActionParseError,
    ArgumentError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from meeple.engine.registry import game_class, game_names, load_game

ENCODED = [n for n in game_names() if game_class(n).encoding]


@st.composite
def games(draw):
    name = draw(st.sampled_from(ENCODED))
    cls = game_class(name)
    variant = draw(st.sampled_from([v.name for v in cls.variants]))
    players = draw(st.integers(cls.min_players, cls.max_players))
    return load_game(name, variant, players), draw(st.integers(0, 2**32))


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(games())
def test_codes_step_like_actions(drawn) -> None:
    game, seed = drawn
    by_actions = game.new_initial_state(seed)
    by_codes = game.new_initial_state(seed)
    rng = random.Random(seed)
    size = game.num_distinct_actions()
    for _ in range(150):
        if by_actions.is_terminal():
            break
        joint = {s: rng.choice(by_actions.legal_actions(s))
                 for s in by_actions.current_players()}
        for seat in joint:
            legal = by_codes.legal_codes(seat)
            assert legal == tuple(sorted(game.action_code(a)
                                         for a in by_codes.legal_actions(seat)))
        seat = next(iter(joint))
        illegal = next((c for c in range(size) if c not in by_codes.legal_codes(seat)), None)
        before = by_codes.digest()
        if illegal is not None:  # a code in the table but not legal for this seat now (or
            # naming no action of this seat at all, as another colour's own indicator)
            with pytest.raises((IllegalActionError, ActionParseError)):
                by_codes.apply_codes({**{s: game.action_code(a) for s, a in joint.items()},
                                      seat: illegal})
        with pytest.raises(ActionArgumentError):
            by_codes.apply_codes({s: size for s in joint})
        assert by_codes.digest() == before
        by_actions.apply_actions(joint)
        by_codes.apply_codes({s: game.action_code(a) for s, a in joint.items()})
        assert by_codes.digest() == by_actions.digest()
    assert by_codes.to_json() == by_actions.to_json()


def test_apply_codes_refuses_wrong_joints() -> None:
    game = load_game("battle-of-the-four-gods")
    state = game.new_initial_state(1)
    code = state.legal_codes(0)[0]
    before = state.digest()
    with pytest.raises(NotYourTurnError):  # seat 3 missing
        state.apply_codes({0: code, 1: state.legal_codes(1)[0], 2: state.legal_codes(2)[0]})
    with pytest.raises(ArgumentError):
        state.apply_codes([code])  # type: ignore[arg-type]
    with pytest.raises(ActionArgumentError):
        state.apply_codes({s: True for s in range(4)})  # a bool is not a code
    assert state.digest() == before
    state.apply_codes({s: state.legal_codes(s)[0] for s in range(4)})  # everyone passes
    assert state.length() == 1
    while not state.is_terminal():
        state.playout(random.Random(0))
    assert state.legal_codes(0) == ()
    with pytest.raises(GameOverError):
        state.apply_codes({})
