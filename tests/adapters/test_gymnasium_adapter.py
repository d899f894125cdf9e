"""The Gymnasium adapter against Gymnasium's own ``check_env``, for every game with an
encoding and a learner in two different seats; then whole episodes (the reward is the
learner's return, observations are its view's encoding, bots play the rest), determinism by
seed, and the argument checks. A game without an encoding is skipped with its reason.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from meeple.adapters import gymnasium as adapter  # noqa: E402
from meeple.engine.errors import IllegalActionError, ParameterError  # noqa: E402
from meeple.engine.registry import load_game  # noqa: E402
from tests.configs import adapted_games  # noqa: E402


def _episode(env, seed: int) -> tuple[list[int], float, bool, bool]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    actions = []
    while True:
        assert env.observation_space.contains(observation)
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        if terminated or truncated:
            return actions, reward, terminated, truncated
        assert reward == 0.0


@pytest.mark.parametrize("name", adapted_games())
def test_check_env_passes(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box notes; the checks are asserts
        check_env(adapter.make(name, seat=0), skip_render_check=True)
        check_env(adapter.make(name, seat=1, render_mode="ansi"))


@pytest.mark.parametrize("name", adapted_games())
def test_an_episode_pays_the_learners_return(name: str) -> None:
    env = adapter.make(name, seat=1)
    actions, reward, terminated, truncated = _episode(env, 7)
    state = env.state
    assert state.is_terminal() and truncated == state.is_truncated() and terminated != truncated
    assert reward == state.returns()[1]
    assert np.array_equal(env._observation(), env.game.observation_tensor(state.view(1)))
    again = _episode(adapter.make(name, seat=1), 7)
    assert again == (actions, reward, terminated, truncated)


def test_opponents_and_seat_are_checked() -> None:
    name = "battle-of-the-four-gods"
    env = adapter.make(name, seat=2, opponents=["random", "heuristic", "random"])
    assert env.opponents == {0: "random", 1: "heuristic", 3: "random"}
    with pytest.raises(ParameterError, match="opponents"):
        adapter.make(name, opponents=["random"])
    with pytest.raises(ParameterError, match="no bot called"):
        adapter.make(name, opponents="no-such-bot")
    with pytest.raises(ParameterError, match="seat"):
        adapter.make(name, seat=4)


def test_illegal_codes_are_replaced_or_refused() -> None:
    game = load_game("battle-of-the-four-gods", players=2, start_energy=1)
    costly = game.action_code(game.parse_action("atk:B def:B", 0))
    env = adapter.make(game)
    env.reset(seed=0)
    _, _, _, _, info = env.step(costly)
    assert info["illegal_action"] is True
    strict = adapter.make(game, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(costly)
