"""Hanabi (src/meeple/games/hanabi, docs/rules/hanabi.md): its rules on positions built with
the component model's scenario builder, the variants' endings, the refusals, and properties of
random legal play (every card in one place; a seat never sees its own hand; mutated states
are refused or play on). The HLE's rules themselves are checked against OpenSpiel in
tests/test_hanabi_openspiel.py."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.engine.errors import ActionParseError, IllegalActionError, StateError
from tests.state_mutation import mutate, outcome

HANDS = {0: ["R1", "R2", "Y5", "B1", "G3"], 1: ["R1", "W4", "W4", "B5", "G1"]}


def _play(state, text: str) -> None:
    seat = state.current_players()[0]
    state.apply_action(state.game.parse_action(text, seat), seat)


def _names(state, cards) -> list[str]:
    return [state.game.card_names[c] for c in cards]


def test_a_hint_touches_every_such_card_and_is_written_on_them() -> None:
    # HAN-3, HAN-9: every 4 in seat 1's hand is touched, the others learn they are no 4
    state = load_game("hanabi", players=2).build_scenario(hands=HANDS)
    _play(state, "hint 1 4")
    assert state.info == 7
    assert state.knowledge[1] == ["RYGWB1235", "RYGWB4", "RYGWB4", "RYGWB1235", "RYGWB1235"]
    assert state.view(0)["notes"][1] == ["not 4", "4", "4", "not 4", "not 4"]
    _play(state, "hint 0 red")
    assert state.view(1)["notes"][0] == ["R", "R", "not R", "not R", "not R"]
    _play(state, "hint 1 white")
    assert state.view(0)["notes"][1] == ["not W not 4", "W4", "W4", "not W not 4", "not W not 4"]


def test_plays_discards_and_the_fives_token() -> None:
    game = load_game("hanabi", players=2)
    state = game.build_scenario(hands={0: ["R1", "R2", "R3", "R4", "R5"],
                                       1: ["Y1", "Y2", "Y3", "Y4", "Y5"]}, info=6)
    for turn in range(5):
        _play(state, "play 0")   # seat 0: R1..R5 in order (HAN-4)
        if turn < 2:
            _play(state, "discard 4")   # a discard takes a token back: 7, then 8
        elif turn < 4:
            _play(state, next(str(m) for m in state.legal_actions() if m.kind == "hint"))
    assert _names(state, state.fireworks) == ["R1", "R2", "R3", "R4", "R5"]
    assert state.info == 6 + 2 - 2 + 1 and state.lives == 3 and state.score() == 5  # R5: +1
    state = game.build_scenario(hands=HANDS)
    _play(state, "play 2")   # Y5 on an empty yellow firework: a fuse burns, the card is gone
    assert state.lives == 2 and _names(state, state.discard) == ["Y5"]
    assert len(state.hands[0]) == 5 and state.knowledge[0][-1] == "RYGWB12345"


def test_refusals_say_why_and_leave_the_state() -> None:
    state = load_game("hanabi", players=2).build_scenario(hands=HANDS)
    before = state.to_json()
    for text, why in (("discard 0", "information token"), ("hint 1 yellow", "touch a card"),
                      ("hint 0 red", "another seat"), ("play 7", "positions 0 to 4")):
        with pytest.raises(IllegalActionError, match=why):
            _play(state, text)
        assert state.to_json() == before
    empty = load_game("hanabi", players=2).build_scenario(hands=HANDS, info=0)
    with pytest.raises(IllegalActionError, match="no information token"):
        _play(empty, "hint 1 red")
    for text in ("hint red", "play", "hint 9 red", "hint 1 purple", "shout"):
        with pytest.raises(ActionParseError, match="write 'play 2'"):
            state.game.parse_action(text, 0)
    assert str(state.game.parse_action("Hint 1 R", 0)) == "hint 1 red"


@pytest.mark.parametrize("variant, score", [("hle", 0), ("rule-book", 2)])
def test_the_last_fuse_scores_as_the_variant_says(variant: str, score: int) -> None:
    # HAN-7: the HLE scores 0 once every life is lost; the rule book keeps the fireworks
    game = load_game("hanabi", variant, players=2)
    state = game.build_scenario(hands={0: ["R1", "R2", "Y5", "Y4", "Y3"],
                                       1: ["G1", "W4", "W4", "B5", "G2"]}, lives=1)
    _play(state, "play 0")
    _play(state, "play 0")
    assert state.score() == 2
    _play(state, "play 1")   # Y5 (R2 moved to position 0): the last fuse
    assert state.is_terminal() and state.returns() == (score, score)
    assert state.outcome() == {"team_win": False, "cause": "fuses", "score": score}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_one_round_after_the_deck_runs_out(players: int) -> None:
    # HAN-6: the seat drawing the last card and every other seat play one more turn each
    game = load_game("hanabi", players=players)
    state = game.new_initial_state(players)
    state.info = 0
    while state.deck:
        _play(state, "discard 0")
        state.info = 0   # keep discarding: the token count is not under test here
    assert state.final_turns == players and not state.is_terminal()
    for k in range(players):
        assert not state.is_terminal()
        _play(state, "discard 0")
        assert state.final_turns == players - 1 - k
    assert state.is_terminal() and state.outcome()["cause"] == "deck"


def test_a_determinization_keeps_the_hints_and_deals_the_own_hand_from_the_unseen() -> None:
    game = load_game("hanabi", players=3)
    state = game.new_initial_state(5)
    _play(state, "hint 1 1" if "hint 1 1" in map(str, state.legal_actions(0))
          else str(state.legal_actions(0)[-1]))
    view = state.view(1)
    drawn = game.determinize(view, random.Random(1))
    assert drawn.view(1) == view and drawn.knowledge == state.knowledge
    assert _names(drawn, drawn.hands[0]) == _names(state, state.hands[0])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_random_play_keeps_every_card_in_one_place_and_own_hands_hidden(seed, players) -> None:
    game = load_game("hanabi", players=players)
    state, rng = game.new_initial_state(seed), random.Random(seed)
    while not state.is_terminal():
        cards = [*state.deck, *state.fireworks, *state.discard, *(c for h in state.hands
                                                                  for c in h)]
        assert sorted(cards) == list(range(len(game.card_names)))
        for seat in range(players):
            view = state.view(seat)
            assert view["hands"][seat] is None
            assert all(view["hands"][s] == _names(state, h)
                       for s, h in enumerate(state.hands) if s != seat)
        state.apply_action(rng.choice(state.legal_actions()))
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data).digest() == state.digest()


def test_the_validation_refuses_what_the_rules_cannot_reach() -> None:
    game = load_game("hanabi", players=2)
    data = json.loads(json.dumps(game.build_scenario(hands=HANDS).to_json()))
    data["data"]["knowledge"][0].pop()
    with pytest.raises(StateError, match="one knowledge text per card"):
        game.state_from_json(data)
    data = json.loads(json.dumps(game.build_scenario(hands=HANDS).to_json()))
    data["data"]["knowledge"][1][0] = "12345RYGWB"
    with pytest.raises(StateError, match="colours then ranks"):
        game.state_from_json(data)
    red2 = game.parse_card("R2", "test")[0]
    state = game.new_initial_state(0)
    data = json.loads(json.dumps(state.to_json()))
    where = next(k for k in ("deck", "discard") if red2 in data["data"][k])
    data["data"][where].remove(red2)
    data["data"]["fireworks"] = [red2]
    with pytest.raises(StateError, match="R2 only on R1"):
        game.state_from_json(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_mutated_states_are_refused_or_play_on(seed: int, steps: int) -> None:
    game, rng = load_game("hanabi", players=3), random.Random(seed)
    state = game.new_initial_state(seed)
    state.playout(rng, max_steps=steps)
    data, note = mutate(json.loads(json.dumps(state.to_json())), rng)
    assert outcome(game, data, rng, max_steps=400) in ("refused", "plays"), note
