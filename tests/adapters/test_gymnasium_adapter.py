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


@pytest.mark.parametrize("actions", ["full", "compact"])
@pytest.mark.parametrize("name", adapted_games())
def test_check_env_passes_without_warnings(name: str, actions: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # bounded Box spaces: the checker has nothing to note
        check_env(adapter.make(name, seat=0, actions=actions), skip_render_check=True)
        check_env(adapter.make(name, seat=1, actions=actions), skip_render_check=True)
    env = adapter.make(name, seat=1, render_mode="ansi", actions=actions)
    env.reset(seed=1)
    assert isinstance(env.render(), str) and env.render()


@pytest.mark.parametrize("name", adapted_games())
def test_registered_ids_pass_check_env_with_its_render_check(name: str) -> None:
    """``gymnasium.make("meeple/<game>-v0")`` (registered on import): the environment has a
    spec, so check_env also runs its render-mode check, and still warns of nothing."""
    import gymnasium

    env = gymnasium.make(f"meeple/{name}-v0", seat=0, opponents="random")
    assert env.unwrapped.spec.id == f"meeple/{name}-v0"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("actions", ["full", "compact"])
@pytest.mark.parametrize("name", adapted_games())
def test_an_episode_pays_the_learners_return(name: str, actions: str) -> None:
    env = adapter.make(name, seat=1, actions=actions)
    actions_taken, reward, terminated, truncated = _episode(env, 7)
    state = env.state
    assert state.is_terminal() and truncated == state.is_truncated() and terminated != truncated
    assert reward == state.returns()[1]
    tensor = env.game.observation_tensor(state.view(1))
    assert np.array_equal(env._observation()[:tensor.size], tensor)
    again = _episode(adapter.make(name, seat=1, actions=actions), 7)
    assert again == (actions_taken, reward, terminated, truncated)


def test_auto_picks_step_codes_for_large_tables_only() -> None:
    assert adapter.make("damocles").coder.kind == "compact"
    assert adapter.make("ozymandias-market").coder.kind == "compact"
    assert adapter.make("battle-of-the-four-gods").coder.kind == "full"
    assert adapter.make("damocles").action_space.n <= 400
    with pytest.raises(ParameterError, match="actions"):
        adapter.make("damocles", actions="tiny")


def test_compact_steps_compose_one_action_and_the_observation_shows_them() -> None:
    env = adapter.make("damocles", actions="compact")
    observation, info = env.reset(seed=3)
    steps = env.coder.steps
    size = env.game.observation_shape()[0]
    pending = observation[size:]
    assert pending[(steps.depth - 1) * steps.size] == 1.0  # nothing chosen yet
    length = env.state.length()
    rng = np.random.default_rng(0)
    for _ in range(200):
        before = env.state.clone()
        code = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(code)
        if env.coder.composing(env.seat):
            prefix = env.coder._choices[env.seat][1].prefix
            assert env.state.digest() == before.digest()  # nothing applied mid-action
            assert observation[size + (len(prefix) - 1) * steps.size + prefix[-1]] == 1.0
            assert observation[size + (steps.depth - 1) * steps.size + len(prefix)] == 1.0
        if terminated or truncated:
            break
    assert env.state.length() >= length


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
