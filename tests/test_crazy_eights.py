"""The Crazy Eights template (examples/crazy_eights.py): its rules on positions built with the
component model's scenario builder, and properties of random legal play (every card in exactly
one place; a view never shows another seat's hand)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from examples.crazy_eights import DECK, HeuristicBot
from meeple import load_game
from meeple.engine.errors import ActionParseError, IllegalActionError, ParameterError
from tests.state_mutation import mutate, outcome


def _texts(state: Any, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def _play(state: Any, text: str) -> None:
    seat = state.current_players()[0]
    state.apply_action(state.game.parse_action(text, seat), seat)


def _everything_but(*named: str) -> list[str]:
    return [c for c in DECK if c not in named]


def test_an_eight_lets_the_next_seat_follow_only_the_named_suit() -> None:
    game = load_game("crazy-eights", players=2)
    state = game.build_scenario(hands={0: ["8H", "2C"], 1: ["9S", "3C", "4H", "8S", "KD"]},
                                discard=["9D"], to_move=0)
    assert _texts(state, 0) == ["play 8H"]  # 2C follows neither diamonds nor 9
    _play(state, "play 8H")
    assert state.current_players() == (0,)  # naming the suit is the same seat's sub-decision
    assert _texts(state, 0) == ["name clubs", "name diamonds", "name hearts", "name spades"]
    _play(state, "name c")
    assert state.view(1)["suit"] == "C" and state.turns == 1
    assert _texts(state, 1) == ["play 3C", "play 8S"]  # not 4H: the 8's own suit is not named
    with pytest.raises(IllegalActionError, match="follows neither clubs"):
        _play(state, "play 4H")


def test_drawing_from_an_empty_stock_reshuffles_the_discards_but_keeps_the_top() -> None:
    game = load_game("crazy-eights", players=2)
    pile = [*_everything_but("2D", "3C", "5H"), "5H"]
    state = game.build_scenario(hands=[["2D"], ["3C"]], discard=pile, to_move=0, seed=4)
    assert state.stock == [] and _texts(state, 0) == ["draw"]
    _play(state, "draw")
    assert state.discard == ["5H"] and len(state.stock) == 48 and len(state.hands[0]) == 2
    assert sorted([*state.stock, state.hands[0][1]]) == sorted(pile[:-1])
    again = game.build_scenario(hands=[["2D"], ["3C"]], discard=pile, to_move=0, seed=4)
    _play(again, "draw")
    assert again.stock == state.stock  # the shuffle comes from the state's seeded stream


def test_with_nothing_to_draw_a_seat_passes() -> None:
    game = load_game("crazy-eights", players=2)
    state = game.build_scenario(hands=[["2D"], _everything_but("2D", "5H")], discard=["5H"])
    assert _texts(state, 0) == ["pass"]
    _play(state, "pass")
    assert state.current_players() == (1,) and state.view(0)["hand_sizes"] == [1, 50]


def test_a_seat_that_empties_its_hand_wins() -> None:
    game = load_game("crazy-eights", players=3)
    state = game.build_scenario(hands={1: ["8S"]}, discard=["7C"], to_move=1)
    _play(state, "play 8S")  # the last card: no suit to name, the game is over
    assert state.is_terminal() and not state.is_truncated()
    assert state.winners() == (1,) and state.returns() == (0.0, 1.0, 0.0)


def test_the_cap_ends_the_game_as_a_draw() -> None:
    game = load_game("crazy-eights", players=2, max_turns=3)
    state = game.build_scenario(hands=[["2D", "3D"], ["4C"]], discard=["5H"], turns=2)
    _play(state, "draw")
    assert state.is_terminal() and state.is_truncated() and state.returns() == (0.5, 0.5)


def test_an_illegal_card_is_refused_clearly_and_the_state_is_untouched() -> None:
    game = load_game("crazy-eights", players=2)
    state = game.build_scenario(hands={0: ["4S", "9D"]}, discard=["9C"], to_move=0)
    before = state.digest()
    for text, words in (("play 4S", "4S follows neither clubs nor the rank of 9C"),
                        ("play KH", "KH is not in your hand"),
                        ("name hearts", "name a suit only after playing an 8"),
                        ("draw", "you can play a card")):
        with pytest.raises(IllegalActionError, match=words):
            _play(state, text)
        assert state.digest() == before
    with pytest.raises(ActionParseError, match="cannot read"):
        game.parse_action("play 11H", 0)


def test_scenarios_are_checked_and_an_eight_on_top_gets_its_suit() -> None:
    game = load_game("crazy-eights", players=2)
    assert game.build_scenario(discard=["8D"]).suit == "D"  # scenario_setup's default
    assert game.build_scenario(discard=["8D"], suit="S").suit == "S"
    with pytest.raises(ParameterError, match="no named suit without an 8"):
        game.build_scenario(discard=["9D"], suit="S")
    with pytest.raises(ParameterError, match="unknown card"):
        game.build_scenario(hands={0: ["1H"]})


def test_the_heuristic_bot_plays_a_matching_card_before_an_eight() -> None:
    game = load_game("crazy-eights", players=2)
    state = game.build_scenario(hands={0: ["8S", "5H", "9H", "KH"]}, discard=["5C"])
    bot = HeuristicBot(game, 0, seed=1)
    assert str(bot.act(state.view(0), state.legal_actions(0))) == "play 5H"
    _play(state, "play 8S")
    assert str(bot.act(state.view(0), state.legal_actions(0))) == "name hearts"


def _cards_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set().union(*map(_cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_cards_in, value)) if value else set()
    return {value} if value in DECK else set()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5),
       variant=st.sampled_from(["standard", "loose", "quick"]))
def test_random_play_keeps_every_card_in_one_place_and_hands_hidden(seed: int, players: int,
                                                                    variant: str) -> None:
    game = load_game("crazy-eights", variant, players)
    state, rng = game.new_initial_state(seed), random.Random(seed)
    for step in range(150):
        assert sorted([*state.stock, *state.discard, *(c for h in state.hands for c in h)]) \
            == sorted(DECK)
        for seat in (*range(players), None):
            mine = set(state.hands[seat]) if seat is not None else set()
            assert _cards_in(state.view(seat)) <= mine | set(state.discard)
        if step % 10 == 0:  # the state's JSON loads back (the derived validation accepts it)
            data = json.loads(json.dumps(state.to_json()))
            assert game.state_from_json(data).digest() == state.digest()
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_mutated_states_are_refused_or_play_on(seed: int, steps: int) -> None:
    # as tests/test_state_validation.py does for the five designs: the derived validation and
    # check_invariants refuse what random play could not survive
    game, rng = load_game("crazy-eights"), random.Random(seed)
    state = game.new_initial_state(seed)
    state.playout(rng, max_steps=steps)
    data, note = mutate(json.loads(json.dumps(state.to_json())), rng)
    assert outcome(game, data, rng, max_steps=2000) in ("refused", "plays"), note
