"""The PettingZoo adapter against PettingZoo's own checks, for every game with an encoding:
``api_test`` and ``seed_test`` on the AEC environment, ``parallel_api_test`` and
``parallel_seed_test`` on the Parallel environment of games with simultaneous decisions. Then
what those checks cannot see: observations are the encoding of the seat's own view, a pending
submission is hidden from the next agent, final rewards are the game's returns, and illegal
codes are replaced (flagged) or refused. A game without an encoding is skipped with its reason.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from meeple.adapters import pettingzoo as adapter  # noqa: E402
from meeple.engine.errors import IllegalActionError  # noqa: E402
from meeple.engine.registry import game_class, game_names, load_game  # noqa: E402

#: PettingZoo's checks cover this many agent cycles per game (enough to reach the end of the
#: shorter games and to cross several simultaneous decisions of the longer ones).
CYCLES = 60


def _names(simultaneous_only: bool = False) -> list:
    out = []
    for name in game_names():
        cls = game_class(name)
        reason = None
        if not cls.encoding:
            reason = f"{name} declares no encoding (Game.encoding): nothing to adapt"
        elif simultaneous_only and not load_game(name).capabilities.simultaneous:
            reason = f"{name} has no simultaneous decisions: no Parallel environment"
        marks = () if reason is None else pytest.mark.skip(reason=reason)
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.mark.parametrize("actions", ["full", "compact"])
@pytest.mark.parametrize("name", _names())
def test_aec_api_and_seed_tests_pass_without_warnings(name: str, actions: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Box observations bounded by the game's limits
        api_test(adapter.env(name, actions=actions), num_cycles=CYCLES)
        seed_test(lambda: adapter.env(name, actions=actions), num_cycles=CYCLES)


@pytest.mark.parametrize("actions", ["full", "compact"])
@pytest.mark.parametrize("name", _names(simultaneous_only=True))
def test_parallel_api_and_seed_tests_pass_without_warnings(name: str, actions: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(adapter.parallel_env(name, actions=actions), num_cycles=CYCLES)
        parallel_seed_test(lambda: adapter.parallel_env(name, actions=actions),
                           num_cycles=CYCLES)


def test_parallel_env_needs_simultaneous_decisions() -> None:
    sequential = [n for n in game_names() if game_class(n).encoding
                  and not load_game(n).capabilities.simultaneous]
    if not sequential:
        pytest.skip("every encoded game has simultaneous decisions")
    with pytest.raises(ValueError, match="no simultaneous decisions"):
        adapter.parallel_env(sequential[0])


@pytest.mark.parametrize("actions", ["full", "compact"])
@pytest.mark.parametrize("name", _names())
def test_a_masked_random_game_ends_with_the_game_returns(name: str, actions: str) -> None:
    env = adapter.env(name, actions=actions)
    env.reset(seed=11)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = raw.seat_of[agent]
        view = raw.state.view(seat)
        tensor = raw.game.observation_tensor(view)
        assert np.array_equal(observation[:tensor.size], tensor)
        assert raw.observation_space(agent).contains(observation)
        legal = np.flatnonzero(info["action_mask"])
        if actions == "full":
            assert sorted(raw.game.action_code(a) for a in raw.state.legal_actions(seat)) \
                == list(legal)
        else:
            assert len(legal) and legal.max() < raw.coder.steps.size
        env.step(int(rng.choice(legal)))
        assert not env.infos.get(agent, {}).get("illegal_action")
    assert raw.state.is_terminal() and not env.agents
    assert [totals[a] for a in env.possible_agents] == list(raw.state.returns())


def test_a_pending_submission_is_hidden_from_the_next_agent() -> None:
    env = adapter.env("battle-of-the-four-gods", masks="observation")
    env.reset(seed=3)
    before = env.observe("player_1")["observation"].copy()
    assert env.agent_selection == "player_0"
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[-1]))
    assert env.agent_selection == "player_1"
    after = env.observe("player_1")["observation"]
    changed = np.flatnonzero(before != after)
    # Only the "to act" / "submitted" flags move: nothing of what player_0 chose.
    game = env.unwrapped.game
    p = game.players
    assert set(changed) <= set(range(3 * p, 5 * p))


def test_illegal_codes_are_replaced_or_refused() -> None:
    game = load_game("battle-of-the-four-gods", players=2, start_energy=1)
    costly = game.action_code(game.parse_action("atk:B def:B", 0))
    env = adapter.env(game)
    env.reset(seed=1)
    env.step(costly)
    assert env.infos["player_0"]["illegal_action"] is True
    strict = adapter.env(game, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="cannot play code"):
        strict.step(costly)
    parallel = adapter.parallel_env(game, illegal="raise")
    parallel.reset(seed=1)
    with pytest.raises(IllegalActionError):
        parallel.step({"player_0": costly, "player_1": 0})


def test_reset_with_a_seed_plays_that_meeple_seed() -> None:
    env = adapter.parallel_env("battle-of-the-four-gods")
    env.reset(seed=5)
    assert env.state.digest() == load_game("battle-of-the-four-gods").new_initial_state(5) \
        .digest()
    rng = random.Random(0)
    while env.agents:
        env.step({a: int(rng.choice(np.flatnonzero(env._mask(env.seat_of[a]))))
                  for a in env.agents})
    assert env.state.is_terminal()
