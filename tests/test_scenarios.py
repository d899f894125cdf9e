"""The scenario API (issue 18, section 2): described positions build, validate, draw the fixed
cards in order and play to the end."""

from __future__ import annotations

import json
import random

import pytest

from meeple import load_game
from meeple.engine.errors import ParameterError
from meeple.engine.scenario import stack_on_top


def _plays_to_end(state) -> None:
    again = state.game.state_from_json(json.dumps(state.to_json()))  # it validates
    assert again.digest() == state.digest()
    state.playout(random.Random(7))
    assert state.is_terminal() and state.winners()


def test_stack_on_top_draws_in_the_order_given() -> None:
    pile = ["a", "b", "c", "d"]
    stack_on_top(pile, ["b", "d"])
    assert pile.pop() == "b" and pile.pop() == "d" and sorted(pile) == ["a", "c"]
    with pytest.raises(ParameterError, match="not in the draw pile"):
        stack_on_top(pile, ["z"])
    with pytest.raises(ParameterError, match="twice"):
        stack_on_top(pile, ["a", "a"])


def test_damocles_described_position_builds_and_draws_the_fixed_cards() -> None:
    game = load_game("damocles", players=3)
    state = game.build_scenario(circle="H N A D P H N", hands={1: ["ONE-03", "ORA-01"]},
                                points=[4, 7, 2], active=1, turns_taken=7,
                                tableaus={0: ["GEN-01"]}, next_draws=["HAS-02", "TWO-05"])
    assert state.hands[1] == ["ONE-03", "ORA-01"] and state.points == [4, 7, 2]
    assert state.tableaus[0] == ["GEN-01"] and state.current_players() == (1,)
    assert state.circle == [0, 4, 2, 3, 1, 0, 4]
    assert all(len(state.hands[s]) == 6 for s in (0, 2))  # deal 8 less the setup discard 2
    assert state.clone()._draw(3)[:2] == ["HAS-02", "TWO-05"]
    other = game.build_scenario(active=1, turns_taken=7, next_draws=["HAS-02", "TWO-05"],
                                seed=99)
    assert other.clone()._draw(2) == ["HAS-02", "TWO-05"]  # whatever the seed
    _plays_to_end(state)


def test_damocles_descriptions_that_cannot_be_are_refused() -> None:
    game = load_game("damocles", players=3)
    with pytest.raises(ParameterError, match="unknown codex"):
        game.build_scenario(hands={0: ["XXX-01"]})
    with pytest.raises(ParameterError, match="named twice"):
        game.build_scenario(hands={0: ["ONE-01"], 1: ["ONE-01"]})
    with pytest.raises(ParameterError, match="not in the draw pile"):
        game.build_scenario(hands={0: ["ONE-01"]}, next_draws=["ONE-01"])
    with pytest.raises(ParameterError, match="not a god"):
        game.build_scenario(circle="H N A D P H ZEUS")
    with pytest.raises(ParameterError, match="turns"):
        game.build_scenario(turns_taken=31)  # 10 cycles x 3 seats: the game would be over


def test_four_gods_described_position_builds_and_plays() -> None:
    game = load_game("battle-of-the-four-gods")
    state = game.build_scenario(energy=[5, 2, 8, 0], round=5, stall=1)
    assert state.energy == [5, 2, 8, 0] and state.round == 5 and state.stall == 1
    assert state.current_players() == (0, 1, 2) and state.eliminated_round[3] == 5
    _plays_to_end(state)
    with pytest.raises(ParameterError, match="two seats"):
        game.build_scenario(energy=[5, 0, 0, 0], round=3)
    with pytest.raises(ParameterError, match="round"):
        game.build_scenario(energy={3: -1})  # out, but no round was played yet


def test_a_game_without_a_builder_says_so() -> None:
    from meeple.engine.game import Game

    class Bare(load_game("battle-of-the-four-gods").__class__):
        scenario = ""

    assert issubclass(Bare, Game)
    with pytest.raises(ParameterError, match="no scenario builder"):
        Bare().build_scenario()
