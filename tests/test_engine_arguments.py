"""Argument checks at the public entry points (issue 18, section 3): each shape the issue's fuzz
found raising a raw Python exception now raises a documented meeple error that says what was
expected, and leaves the state as it was."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple import load_game
from meeple.engine import (
    ActionArgumentError,
    ActionParseError,
    ArgumentError,
    IllegalActionError,
    MeepleError,
    NotAnActionError,
    NotYourTurnError,
    ParameterError,
    SeatError,
    ViewError,
)

GAMES = ["battle-of-the-four-gods", "damocles", "epoch-ellipse", "ozymandias-campaign",
         "ozymandias-market"]


def started(name: str):
    state = load_game(name).new_initial_state(3)
    state.playout(random.Random(3), max_steps=3)
    return state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [None, 1, "pass", 1.5, [], True])
def test_apply_action_refuses_a_non_action(name: str, bad: object) -> None:
    state = started(name)
    before = state.digest()
    with pytest.raises(NotAnActionError, match="action must be an Action") as info:
        state.apply_action(bad)
    assert type(bad).__name__ in str(info.value)
    assert isinstance(info.value, (IllegalActionError, TypeError))
    assert state.digest() == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [None, [], "x", 3])
def test_apply_actions_refuses_a_non_mapping(name: str, bad: object) -> None:
    state = started(name)
    before = state.digest()
    with pytest.raises(ArgumentError, match="mapping"):
        state.apply_actions(bad)
    assert state.digest() == before


@pytest.mark.parametrize("name", GAMES)
def test_apply_actions_names_bad_keys_and_values(name: str) -> None:
    state = started(name)
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)[0]
    before = state.digest()
    for joint in ({True: legal}, {"0": legal}, {None: legal}, {1.0: legal}):
        with pytest.raises(SeatError, match="a key of joint"):
            state.apply_actions(joint)
    # A whole number that is no seat here is a seat that does not act (the conformance
    # contract), named in the message.
    with pytest.raises(NotYourTurnError, match=r"got seats \[99\]"):
        state.apply_actions({99: legal})
    with pytest.raises(NotAnActionError, match="every value"):
        state.apply_actions({seat: str(legal)})
    assert state.digest() == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [None, 1, 1.5, [], {}])
def test_parse_action_refuses_non_text(name: str, bad: object) -> None:
    with pytest.raises(ActionArgumentError, match="non-empty str") as info:
        load_game(name).parse_action(bad, 0)
    assert isinstance(info.value, ActionParseError)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("text", ["", "  "])
def test_parse_action_refuses_blank_text(name: str, text: str) -> None:
    with pytest.raises(ActionArgumentError):
        load_game(name).parse_action(text, 0)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [None, True, -1, 4 ** 20, 1.0, "0"])
def test_seat_arguments(name: str, seat: object) -> None:
    game = load_game(name)
    state = started(name)
    before = state.digest()
    text = str(state.legal_actions(state.current_players()[0])[0])
    calls = [lambda: state.is_eliminated(seat), lambda: game.parse_action(text, seat),
             lambda: game.action_from_code(0, seat)]
    if seat is not None:  # None: a spectator's view, the only acting seat's actions
        calls += [lambda: state.view(seat), lambda: state.legal_actions(seat),
                  lambda: state.apply_action(state.legal_actions(state.current_players()[0])[0],
                                             seat)]
    for call in calls:
        with pytest.raises(SeatError, match=r"must be a seat, an int in 0\.\.") as info:
            call()
        assert isinstance(info.value, ParameterError) and isinstance(info.value, ActionParseError)
    assert state.digest() == before


@pytest.mark.parametrize("name", GAMES)
def test_action_codes(name: str) -> None:
    game = load_game(name)
    for bad in (True, False, 1.0, "1", None, -1, game.num_distinct_actions(), np.bool_(True)):
        with pytest.raises(ActionArgumentError, match="action code must be an int"):
            game.action_from_code(bad, 0)
    assert game.action_from_code(np.int64(0), 0) == game.action_from_code(0, 0)
    for bad in (None, "pass", 3):
        with pytest.raises(NotAnActionError):
            game.action_code(bad)
    with pytest.raises(ValueError):  # still a ValueError for generic callers
        game.action_code(None)


@pytest.mark.parametrize("name", GAMES)
def test_views_and_rngs(name: str) -> None:
    game = load_game(name)
    state = started(name)
    seat = state.current_players()[0]
    view = state.view(seat)
    for bad in (None, [], {"game": name, "seat": True}, {"game": "pig", "seat": 0}):
        with pytest.raises(ViewError):
            game.observation_tensor(bad)
        with pytest.raises(ViewError):
            game.determinize(bad, random.Random(0))
    with pytest.raises(ViewError, match="cannot read this view"):
        game.observation_tensor({"game": name, "seat": seat})
    with pytest.raises(ArgumentError, match="random.Random"):
        game.determinize(view, 7)
    before = state.digest()
    with pytest.raises(ArgumentError, match="random.Random"):
        state.playout(None)
    with pytest.raises(ArgumentError, match="max_steps"):
        state.playout(random.Random(0), -1)
    with pytest.raises(ArgumentError, match="non-empty sequence"):
        game.timeout_action(seat, [])
    assert state.digest() == before


def test_load_game_name_must_be_text() -> None:
    for bad in ([], None, 3):
        with pytest.raises(ArgumentError, match="a game name must be a str"):
            load_game(bad)


def test_every_argument_error_is_a_meeple_type_and_value_error() -> None:
    for cls in (ArgumentError, SeatError, NotAnActionError, ActionArgumentError, ViewError):
        assert issubclass(cls, MeepleError)
        assert issubclass(cls, TypeError) and issubclass(cls, ValueError)
