"""``State.apply_legal`` (a search's unchecked step) against ``apply_actions``: the same states,
with pending simultaneous submissions too; and the checked paths still refuse illegal actions
now that the default legal tables build their membership sets only when a check needs one."""

from __future__ import annotations

import random

import pytest

from meeple.engine.errors import IllegalActionError
from meeple.engine.registry import game_class, game_names, load_game

#: The five designs (a template game such as pig may have no action that is ever illegal).
DESIGNS = [n for n in game_names() if game_class(n).__module__.startswith("meeple.games.")]


@pytest.mark.parametrize("name", game_names())
def test_apply_legal_reaches_the_same_states_as_apply_actions(name: str) -> None:
    game = load_game(name)
    for seed in range(4):
        rng = random.Random(seed)
        checked, trusted = game.new_initial_state(seed), game.new_initial_state(seed)
        steps = 0
        while not checked.is_terminal() and steps < 300:
            acting = checked.current_players()
            joint = {s: rng.choice(checked.legal_actions(s)) for s in acting}
            if len(acting) > 1 and rng.random() < 0.5:  # one seat submits first: pending
                first = acting[0]
                checked.apply_action(joint[first], first)
                trusted.apply_action(joint[first], first)
                del joint[first]
            for s, action in joint.items():  # the trusted path's actions come from its lists
                assert action in trusted.legal_actions(s)
            checked.apply_actions(joint)
            trusted.apply_legal(joint)
            assert trusted.to_json() == checked.to_json()
            steps += 1


@pytest.mark.parametrize("name", DESIGNS)
def test_checks_refuse_actions_not_legal_now_and_leave_the_state(name: str) -> None:
    """Actions legal at other points of the game (seen along a random playthrough), offered
    where they are not legal, are refused by ``apply_action`` and ``apply_actions``."""
    game = load_game(name)
    seen, state, rng = [], game.new_initial_state(2), random.Random(2)
    while not state.is_terminal() and len(seen) < 400:
        for s in state.current_players():
            seen.extend(state.legal_actions(s)[:5])
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    state, refused = game.new_initial_state(2), 0
    rng = random.Random(2)
    for _ in range(60):
        if state.is_terminal():
            break
        acting = state.current_players()
        seat = acting[0]
        legal = set(state.legal_actions(seat))
        for action in [a for a in seen if a.seat in (None, seat) and a not in legal][:3]:
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply_action(action, seat)
            joint = {s: rng.choice(state.legal_actions(s)) for s in acting}
            joint[seat] = action
            with pytest.raises(IllegalActionError):
                state.apply_actions(joint)
            assert state.to_json() == before
            refused += 1
        state.apply_actions({s: rng.choice(state.legal_actions(s)) for s in acting})
    assert refused > 0
