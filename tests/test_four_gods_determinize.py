"""Battle of the Four Gods: determinization and the search evaluator.

The generic checks (view round trip, legal actions, playable samples) are in
tests/test_determinization.py; these check the game's own facts: every rules field is public
and rebuilt exactly, only the other seats' pending selections are drawn, face-up (reveal_lock)
selections are kept, and the evaluator is a monotone win-share estimate.
"""

from __future__ import annotations

import json
import random

import pytest

from meeple import load_game
from meeple.games.battle_of_the_four_gods.evaluate import evaluate

GAME = "battle-of-the-four-gods"


def _played(game, seed: int, rounds: int):
    state = game.new_initial_state(seed)
    state.playout(random.Random(seed), max_steps=rounds)
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize("variant,players", [("seed", 4), ("seed", 2), ("rulebook", 3),
                                             ("gdd-2018-02", 4)])
def test_every_rules_field_is_rebuilt_exactly(variant, players):
    game = load_game(GAME, variant, players)
    state = _played(game, 4, 6)
    for seat in range(players):
        sampled = game.determinize(state.view(seat), random.Random(seat))
        assert sampled.to_json()["data"] == state.to_json()["data"]
        assert sampled.energy == state.energy and sum(sampled.energy) == sum(state.energy)
        assert sampled.eliminated_round == state.eliminated_round
        assert (sampled.round, sampled.stall) == (state.round, state.stall)
        assert sampled.history == state.history
        assert sampled.current_players() == state.current_players()
        assert sampled.energy is not state.energy and sampled.history is not state.history


def test_sample_plays_on_exactly_like_the_true_state():
    """No chance and nothing hidden between rounds: the same actions give the same states."""
    game = load_game(GAME, "rulebook", 4)
    state = _played(game, 2, 3)
    sampled = game.determinize(state.view(1), random.Random(0))
    walk = random.Random(9)
    while not state.is_terminal():
        joint = {s: walk.choice(state.legal_actions(s)) for s in state.current_players()}
        state.apply_actions(joint)
        sampled.apply_actions(joint)
        assert sampled.to_json()["data"] == state.to_json()["data"]
    assert sampled.is_terminal() and sampled.returns() == state.returns()


def test_pending_selections_own_exact_others_drawn():
    game = load_game(GAME, "seed", 4)
    state = _played(game, 5, 4)
    mine = state.legal_actions(0)[-1]
    state.apply_action(mine, 0)
    green_legal = state.legal_actions(2)
    other = green_legal[7]
    state.apply_action(other, 2)
    # RED keeps its own submission and draws GREEN's among GREEN's legal selections.
    view = state.view(0)
    assert view["my_submission"] == str(mine) and view["submitted"] == [0, 2]
    drawn = set()
    for k in range(30):
        sampled = game.determinize(view, random.Random(k))
        assert sampled._pending[0] is mine
        assert set(sampled._pending) == {0, 2}
        assert sampled._pending[2] in green_legal
        assert sampled.current_players() == (1, 3)
        assert sampled.to_json()["data"] == state.to_json()["data"]
        drawn.add(sampled._pending[2])
    assert len(drawn) > 5, "GREEN's hidden selection must be sampled, not copied"
    # BLUE sees only that RED and GREEN submitted, never what: its view is RED's without
    # RED's own submission.
    blue = state.view(1)
    assert blue["submitted"] == [0, 2] and "my_submission" not in blue
    assert blue["revealed"] == {}
    assert {k: v for k, v in blue.items() if k != "seat"} == \
        {k: v for k, v in view.items() if k not in ("seat", "my_submission")}
    drawn_for_blue = {game.determinize(blue, random.Random(k))._pending[0] for k in range(30)}
    assert len(drawn_for_blue) > 5


def test_reveal_lock_keeps_face_up_and_face_down_submissions():
    game = load_game(GAME, "seed", 4, reveal_lock=True)
    state = _played(game, 6, 3)
    face_up = next(a for a in state.legal_actions(1) if a.reveal and a.size == 2)
    face_down = next(a for a in state.legal_actions(2) if not a.reveal and a.size == 1)
    state.apply_action(face_up, 1)
    state.apply_action(face_down, 2)
    for seat in range(4):
        view = state.view(seat)
        assert view["revealed"] == {"1": str(face_up)}
        for k in range(20):
            sampled = game.determinize(view, random.Random(k))
            assert sampled.view(seat) == view
            assert sampled._pending[1] is face_up
            assert not sampled._pending[2].reveal
            if seat == 2:
                assert sampled._pending[2] is face_down
        sampled.playout(random.Random(seat))
        assert sampled.is_terminal()


def test_reveal_lock_tables_are_restored_after_the_round():
    """The narrowed tables of submitted seats hold only for the round being planned."""
    game = load_game(GAME, "seed", 3, reveal_lock=True)
    state = _played(game, 1, 2)
    state.apply_action(next(a for a in state.legal_actions(0) if a.reveal), 0)
    sampled = game.determinize(state.view(1), random.Random(3))
    joint = {s: state.legal_actions(s)[0] for s in state.current_players()}
    state.apply_actions(joint)
    sampled.apply_actions(joint)
    assert sampled.to_json()["data"] == state.to_json()["data"]
    for seat in state.current_players():
        assert sampled.legal_actions(seat) == state.legal_actions(seat)
        assert len(sampled.legal_actions(seat)) > 1


def test_json_round_tripped_view_rebuilds_the_same_state():
    game = load_game(GAME, "seed", 4)
    state = _played(game, 8, 5)
    view = json.loads(json.dumps(state.view(3)))
    sampled = game.determinize(view, random.Random(0))
    assert sampled.to_json()["data"] == state.to_json()["data"]
    assert sampled.history == state.history


def test_terminal_view_rebuilds_the_result():
    game = load_game(GAME, "playtest-r2", 2)
    state = game.new_initial_state(0)
    state.playout(random.Random(0))
    assert state.is_terminal()
    sampled = game.determinize(state.view(1), random.Random(0))
    assert sampled.is_terminal() and sampled.returns() == state.returns()
    assert sampled.round == state.round and sampled.winners() == state.winners()


# ------------------------------------------------------------------------------ evaluator
def test_evaluator_is_declared_and_a_win_share():
    game = load_game(GAME, "seed", 4)
    assert game.state_evaluator() is evaluate
    state = _played(game, 3, 10)
    values = evaluate(state)
    assert len(values) == 4
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(1.0)
    start = evaluate(game.new_initial_state(0))
    assert start == pytest.approx((0.25,) * 4)


def test_evaluator_at_terminal_is_returns():
    game = load_game(GAME, "rulebook", 3)
    state = game.new_initial_state(1)
    state.playout(random.Random(4))
    assert state.is_terminal()
    assert evaluate(state) == state.returns()


def test_evaluator_prefers_energy_and_zeroes_the_eliminated():
    game = load_game(GAME, "seed", 4)
    ahead = game.new_initial_state(0)
    ahead.energy = [100, 60, 60, 60]
    behind = game.new_initial_state(0)
    behind.energy = [40, 60, 60, 60]
    assert evaluate(ahead)[0] > 0.25 > evaluate(behind)[0]
    assert evaluate(ahead)[1] < evaluate(behind)[1]
    # one more energy point is worth more, never less
    nudged = ahead.clone()
    nudged.energy[0] += 1
    assert evaluate(nudged)[0] > evaluate(ahead)[0]
    # an eliminated seat can no longer win; the alive ones share everything
    state = game.new_initial_state(0)
    state.playout(random.Random(0), max_steps=1)
    state.energy = [-2, 50, 50, 50]
    state.eliminated_round = [1, 0, 0, 0]
    values = evaluate(state)
    assert values[0] == 0.0
    assert values[1:] == pytest.approx((1 / 3,) * 3)
