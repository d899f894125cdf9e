"""The OpenSpiel adapter against OpenSpiel's own checks, for every game with an encoding.

* ``pyspiel.random_sim_test(..., serialize=True)``: clone, serialization, legal-action order
  and masks, history, utility bounds, ``max_game_length``, observation and information-state
  strings and tensors at every step (OpenSpiel's conformance check);
* OpenSpiel's ``ISMCTSBot`` (with the adapter's resampler and evaluator) plays one seat of a
  whole game, the others play uniformly at random;
* the declared types match the game's capabilities, information states hide other seats'
  pending submissions, a resampled state keeps the resampling seat's information state, and a
  deserialized state continues exactly like the original.

A game without an encoding is skipped (its reason says so). Ozymandias Campaign runs with a
20-round cap (its random games otherwise take about 1,100 steps) to keep CI time small.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")

from meeple.adapters import openspiel as adapter  # noqa: E402
from meeple.engine.registry import load_game  # noqa: E402
from tests.configs import adapted_games  # noqa: E402

#: Rule parameters that keep long random games short in these tests.
SHORT = {"ozymandias-campaign": {"max_rounds": 20}}


def _load(name: str, **kwargs):
    return adapter.load(name, **SHORT.get(name, {}), **kwargs)


def _random_play(state, rng: random.Random, bot=None, bot_player: int = 0) -> int:
    """Play to the end (chance and other seats at random); the number of bot moves."""
    bot_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(state.num_players())])
        elif bot is not None and state.current_player() == bot_player:
            state.apply_action(bot.step(state))
            bot_moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return bot_moves


@pytest.mark.parametrize("name", adapted_games())
def test_types_follow_the_capabilities(name: str) -> None:
    short = adapter.register([name])[0]
    assert short == "meeple_" + name.replace("-", "_") and short in pyspiel.registered_names()
    game = pyspiel.load_game(short)
    spec = load_game(name)
    caps = spec.capabilities
    kind = game.get_type()
    assert game.num_players() == spec.players
    assert kind.dynamics == (pyspiel.GameType.Dynamics.SIMULTANEOUS if caps.simultaneous
                             else pyspiel.GameType.Dynamics.SEQUENTIAL)
    assert kind.chance_mode == (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if caps.chance
                                else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    hidden = caps.hidden_information or caps.simultaneous or caps.chance  # the unseen seed
    assert kind.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                                else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert kind.utility == (pyspiel.GameType.Utility.GENERAL_SUM if caps.cooperative
                            else pyspiel.GameType.Utility.CONSTANT_SUM)
    wait = 1 if caps.simultaneous else 0
    assert game.num_distinct_actions() == spec.num_distinct_actions() + wait
    state = game.new_initial_state()
    assert state.is_chance_node() == caps.chance
    if caps.chance:
        assert len(state.chance_outcomes()) == game.max_chance_outcomes() == adapter.DEFAULT_SEEDS
    turns = pyspiel.load_game(short, {"turn_based": True})
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert turns.num_distinct_actions() == spec.num_distinct_actions()


@pytest.mark.parametrize("name", adapted_games())
def test_random_sim_test_passes(name: str) -> None:
    pyspiel.random_sim_test(_load(name), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["battle-of-the-four-gods", "damocles"])
def test_random_sim_test_passes_turn_based(name: str) -> None:
    pyspiel.random_sim_test(_load(name, turn_based=True), num_sims=1, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("name", adapted_games())
def test_ismcts_bot_plays_a_whole_game(name: str) -> None:
    game = _load(name, turn_based=True)
    bot = ismcts.ISMCTSBot(game=game, evaluator=adapter.MeepleEvaluator(1), uct_c=2.0,
                           max_simulations=3, random_state=np.random.RandomState(1))
    bot.set_resampler(adapter.resampler(1))
    state = game.new_initial_state()
    assert _random_play(state, random.Random(2), bot=bot, bot_player=0) > 0
    returns = state.returns()
    assert state.is_terminal() and len(returns) == game.num_players()
    assert all(0.0 <= r <= 1.0 for r in returns)
    if game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        assert sum(returns) == pytest.approx(1.0)


def test_information_state_hides_a_pending_submission() -> None:
    game = adapter.load("battle-of-the-four-gods", turn_based=True)
    first = game.new_initial_state()
    second = game.new_initial_state()
    legal = first.legal_actions(0)
    first.apply_action(legal[0])
    second.apply_action(legal[-1])
    assert first.current_player() == second.current_player() == 1
    for player in (1, 2, 3):
        assert first.information_state_string(player) == second.information_state_string(player)
        assert first.observation_string(player) == second.observation_string(player)
    assert first.information_state_string(0) != second.information_state_string(0)
    # After the round resolves, everyone sees what seat 0 chose.
    for state in (first, second):
        for _ in range(3):
            state.apply_action(state.legal_actions()[0])
    assert first.information_state_string(1) != second.information_state_string(1)


def test_information_state_is_the_view_and_a_digest_of_the_past() -> None:
    game = adapter.load("battle-of-the-four-gods", players=2)
    state = game.new_initial_state()
    before = [state.information_state_string(p) for p in range(2)]
    state.apply_actions([state.legal_actions(0)[1], state.legal_actions(1)[2]])
    for p in range(2):
        text = state.information_state_string(p)
        view, _, recall = text.partition("\nrecall:")
        assert view == state.observation_string(p) and len(recall) == 64
        assert recall != before[p].partition("\nrecall:")[2]
    assert state.information_state_string(0) != state.information_state_string(1)


@pytest.mark.parametrize("name", adapted_games())
def test_resampled_state_keeps_the_information_state(name: str) -> None:
    game = _load(name, turn_based=True)
    rng = random.Random(5)
    state = game.new_initial_state()
    resample = adapter.resampler(3)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        sample = resample(state, player)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert not sample.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", adapted_games())
def test_deserialized_state_continues_like_the_original(name: str) -> None:
    game = _load(name)
    state = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(25):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, copy = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(copy) == str(state)
    for p in range(game.num_players()):
        assert copy.information_state_string(p) == state.information_state_string(p)
    # The chance stream travels too: the same moves give the same playthrough.
    _random_play(state, random.Random(4))
    _random_play(copy, random.Random(4))
    assert copy.returns() == state.returns() and str(copy) == str(state)


def test_parameters_reach_the_meeple_game() -> None:
    game = pyspiel.load_game(
        "meeple_battle_of_the_four_gods(players=3,variant=gdd-2018-02,"
        "params=start_energy:30;damage:5)")
    spec = game.meeple
    assert spec == load_game("battle-of-the-four-gods", "gdd-2018-02", 3, start_energy=30,
                             damage=5)
    assert adapter.load(spec).meeple == spec
    with pytest.raises(Exception, match="no_such"):
        pyspiel.load_game("meeple_battle_of_the_four_gods(params=no_such:1)")


def test_observation_tensor_is_the_encoding_of_the_view() -> None:
    game = adapter.load("damocles")
    state = game.new_initial_state()
    state.apply_action(7)  # the deal
    inner = adapter.meeple_state(state)
    for p in range(game.num_players()):
        expected = game.meeple.observation_tensor(inner.view(p)).reshape(-1)
        assert list(state.observation_tensor(p)) == pytest.approx(list(expected))


def test_illegal_codes_are_refused() -> None:
    game = adapter.load("battle-of-the-four-gods", players=2, start_energy=1)
    spec = game.meeple
    wait = game.num_distinct_actions() - 1
    state = game.new_initial_state()
    with pytest.raises(Exception, match="not an action"):
        state.apply_actions([wait, wait])  # both seats act: "wait" is not theirs
    costly = spec.action_code(spec.parse_action("atk:B def:B", 0))  # costs 2 of 1 energy
    with pytest.raises(Exception, match="cannot play"):
        state.apply_actions([costly, spec.action_code(spec.parse_action("pass", 1))])
    assert costly not in state.legal_actions(0)
