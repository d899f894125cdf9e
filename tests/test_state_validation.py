"""``state_from_json`` refuses impossible states with a JSON path (issue 18, sections 2-3).

Targeted impossible states per game, each refused at the expected path; truncated JSON and
wrong types refused with :class:`StateError`; and a property test: a random one-leaf mutation
of a state reached by random play is either refused or loads and plays on to the end without
any exception (tests/state_mutation.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.engine.errors import ParameterError, StateError
from tests.state_mutation import mutate, outcome

GAMES = ("damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
         "epoch-ellipse")


def _state_json(name: str, seed: int = 3, steps: int = 25) -> dict:
    game = load_game(name)
    state = game.new_initial_state(seed)
    state.playout(random.Random(seed), max_steps=steps)
    return json.loads(json.dumps(state.to_json()))


def _refused_at(name: str, data: dict, path: str) -> StateError:
    with pytest.raises(StateError) as info:
        load_game(name).state_from_json(data)
    assert info.value.path == path, str(info.value)
    assert str(info.value).startswith(path)
    return info.value


@pytest.mark.parametrize("name", GAMES)
def test_valid_states_load_and_round_trip(name: str) -> None:
    data = _state_json(name)
    state = load_game(name).state_from_json(json.dumps(data))
    assert state.to_json() == data


@pytest.mark.parametrize("name", GAMES)
def test_truncated_text_and_wrong_documents_are_state_errors(name: str) -> None:
    text = json.dumps(_state_json(name))
    game = load_game(name)
    with pytest.raises(StateError, match="not JSON") as info:
        game.state_from_json(text[: len(text) // 2])
    assert info.value.path == "$"
    for bad in ("[]", "3", '{"format": "meeple-state/1"}'):
        with pytest.raises(StateError):
            game.state_from_json(bad)
    assert issubclass(StateError, ParameterError)  # what state_from_json raised before


@pytest.mark.parametrize("name", GAMES)
def test_wrong_types_are_refused_with_their_path(name: str) -> None:
    data = _state_json(name)
    key = next(k for k, v in data["data"].items() if isinstance(v, list) and v
               and isinstance(v[0], int) and not isinstance(v[0], bool))
    data["data"][key][0] = str(data["data"][key][0])
    error = _refused_at(name, data, f"$.data.{key}[0]")
    assert "expected" in str(error)
    del data["data"][key]
    _refused_at(name, data, f"$.data.{key}")


def test_damocles_codex_twice_unknown_and_missing() -> None:
    data = _state_json("damocles")
    d = data["data"]
    twice = json.loads(json.dumps(data))
    twice["data"]["hands"][1][0] = d["hands"][0][0]
    error = _refused_at("damocles", twice, "$.data.hands[1][0]")
    assert "already at $.data.hands[0][0]" in str(error)
    unknown = json.loads(json.dumps(data))
    unknown["data"]["deck"][0] = "ZZZ-99"
    _refused_at("damocles", unknown, "$.data.deck[0]")
    missing = json.loads(json.dumps(data))
    missing["data"]["deck"].pop()
    assert "in none of" in str(_refused_at("damocles", missing, "$.data"))


def test_damocles_removed_is_a_place_of_its_own() -> None:
    """``removed`` (DAM-38, DAM-39) holds codices out of the game: one there and in the deck is
    refused at its second place; moving it from the deck to ``removed`` loads; a state without
    the field (saved before it existed) loads with it empty."""
    data = _state_json("damocles")
    both = json.loads(json.dumps(data))
    both["data"]["removed"].append(both["data"]["deck"][0])
    error = _refused_at("damocles", both, f"$.data.removed[{len(data['data']['removed'])}]")
    assert "already at $.data.deck[0]" in str(error)
    moved = json.loads(json.dumps(data))
    moved["data"]["removed"].append(moved["data"]["deck"].pop(0))
    assert load_game("damocles").state_from_json(moved).removed == moved["data"]["removed"]
    old = json.loads(json.dumps(data))
    old["data"]["discard"] += old["data"].pop("removed")  # where they went before DAM-38
    assert load_game("damocles").state_from_json(old).removed == []


def test_damocles_tokens_seats_and_phase() -> None:
    data = _state_json("damocles")
    bank = json.loads(json.dumps(data))
    bank["data"]["bank"][0] += 1  # separate bank: 21 tokens (of 20)
    _refused_at("damocles", bank, "$.data.bank")
    seats = json.loads(json.dumps(data))
    seats["data"]["points"].append(0)
    _refused_at("damocles", seats, "$.data.points")
    phase = json.loads(json.dumps(data))
    phase["data"]["phase"] = "over"
    _refused_at("damocles", phase, "$.data.phase")
    active = json.loads(json.dumps(data))
    active["data"]["active"] = 4
    _refused_at("damocles", active, "$.data.active")


def test_four_gods_energy_history_and_end() -> None:
    data = _state_json("battle-of-the-four-gods")
    energy = json.loads(json.dumps(data))
    energy["data"]["energy"][2] -= 1  # no longer the start plus the history's changes
    _refused_at("battle-of-the-four-gods", energy, "$.data.energy[2]")
    sel = json.loads(json.dumps(data))
    sel["data"]["history"][0][1][0] = "atk:R"  # RED attacks itself
    _refused_at("battle-of-the-four-gods", sel, "$.data.history[0][1][0]")
    end = json.loads(json.dumps(data))
    end["data"]["winners"] = [0]
    _refused_at("battle-of-the-four-gods", end, "$.data.winners")


def test_market_cards_disks_and_phase() -> None:
    data = _state_json("ozymandias-market")
    twice = json.loads(json.dumps(data))
    twice["data"]["market"][0] = twice["data"]["deck"][0]
    _refused_at("ozymandias-market", twice, "$.data.market[0]")
    disks = json.loads(json.dumps(data))
    disks["data"]["supply"][1] += 1
    _refused_at("ozymandias-market", disks, "$.data.supply[1]")
    sectors = json.loads(json.dumps(data))
    sectors["data"]["sectors_left"] += 1
    _refused_at("ozymandias-market", sectors, "$.data.sectors_left")


def test_campaign_cards_tiles_and_step() -> None:
    data = _state_json("ozymandias-campaign")
    twice = json.loads(json.dumps(data))
    twice["data"]["discard"].append(twice["data"]["deck"][0])
    _refused_at("ozymandias-campaign", twice, f"$.data.discard[{len(data['data']['discard'])}]")
    tile = json.loads(json.dumps(data))
    tile["data"]["tile_deck"][0] = tile["data"]["tile_deck"][1]
    _refused_at("ozymandias-campaign", tile, "$.data.tile_deck[1]")
    step = json.loads(json.dumps(data))
    step["data"]["step"] = "nap"
    _refused_at("ozymandias-campaign", step, "$.data.step")


def test_epoch_cards_tokens_and_types() -> None:
    data = _state_json("epoch-ellipse")
    twice = json.loads(json.dumps(data))
    twice["data"]["decks"]["SALVAGE"][0] = twice["data"]["decks"]["SALVAGE"][1]
    _refused_at("epoch-ellipse", twice, "$.data.decks.SALVAGE[1]")
    tokens = json.loads(json.dumps(data))
    tokens["data"]["tokens"][-1] += 1
    _refused_at("epoch-ellipse", tokens, f"$.data.tokens[{len(data['data']['tokens']) - 1}]")
    floats = json.loads(json.dumps(data))
    floats["data"]["decks"]["CATASTROPHE"][0] = 2.5  # used to load, then fail in a playout
    _refused_at("epoch-ellipse", floats, "$.data.decks.CATASTROPHE[0]")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80))
@example(seed=36760, steps=57)  # Epoch Ellipse: mid-combat with no flipped card crashed in play
@example(seed=358004, steps=16)  # campaign: a fourth incoming cube count loaded, crashed in play
@example(seed=12756, steps=21)  # Epoch Ellipse: an empty survivor pile loaded, crashed at a pick
def test_mutated_states_are_refused_or_play_on(name: str, seed: int, steps: int) -> None:
    game = load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    state.playout(rng, max_steps=steps)
    data, note = mutate(json.loads(json.dumps(state.to_json())), rng)
    result = outcome(game, data, rng, max_steps=2000)
    assert result in ("refused", "plays"), f"{note}: {result}"


def _first_state(name: str, found: Any, seeds: int = 300) -> Any:
    """The first state of random play (seeds 0, 1, ...) where ``found(state)`` holds."""
    game = load_game(name)
    for seed in range(seeds):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not found(state):
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        if found(state):
            return state
    pytest.fail(f"no such state in {seeds} random {name} games")


def test_campaign_war_needs_its_defender_at_the_point() -> None:
    # A mutation that emptied the point of a war in progress loaded, then crashed when the war
    # was resolved (KeyError in resolve_war); found by a 26,000-case mutation search.
    state = _first_state("ozymandias-campaign", lambda s: s.war is not None, seeds=200)
    data = json.loads(json.dumps(state.to_json()))
    kind, point = data["data"]["war"][:2]
    load_game("ozymandias-campaign").state_from_json(data)  # the real position loads
    del data["data"]["standing" if kind == "stand" else "stacks"][point]
    _refused_at("ozymandias-campaign", data, "$.data.war")


def test_epoch_ellipse_hunger_needs_the_acting_seat_among_the_hungry() -> None:
    # A mutation that emptied the hungry list mid-HUNGER loaded, then crashed (pop from an
    # empty list) when the seat ate; found by a 21,000-case mutation search.
    state = _first_state("epoch-ellipse", lambda s: s.step == "hunger", seeds=200)
    data = json.loads(json.dumps(state.to_json()))
    load_game("epoch-ellipse").state_from_json(data)  # the real position loads
    data["data"]["hungry"] = []
    _refused_at("epoch-ellipse", data, "$.data.hungry")


def test_epoch_ellipse_rescue_needs_the_found_survivor() -> None:
    # A mutation that emptied the found survivor's pile mid-rescue loaded, then crashed
    # (IndexError) when salvage was given; found by a 15,000-case mutation search.
    state = _first_state("epoch-ellipse", lambda s: s.step == "rescue")
    data = json.loads(json.dumps(state.to_json()))
    load_game("epoch-ellipse").state_from_json(data)  # the real position loads
    data["data"]["rescue"] = []
    _refused_at("epoch-ellipse", data, "$.data.rescue")


def test_epoch_ellipse_offer_names_cards_the_two_seats_hold() -> None:
    # A pending offer asking for a card type the partner does not hold loaded, then crashed
    # (StopIteration) on accept; found by a 26,000-case mutation search.
    state = _first_state("epoch-ellipse", lambda s: s.offer is not None)
    data = json.loads(json.dumps(state.to_json()))
    load_game("epoch-ellipse").state_from_json(data)
    held = {state.ctype[c] for c in state.hands[state.offer[1]]}
    data["data"]["offer"][3] = next(t for t in range(len(state.game.content.cards))
                                    if t not in held)
    _refused_at("epoch-ellipse", data, "$.data.offer[3]")


def test_market_trade_played_needs_the_acting_seats_played_card() -> None:
    # Moving the turn to a seat that had sold its played card loaded, then crashed (KeyError:
    # None) when it traded; found by a 26,000-case mutation search.
    state = _first_state("ozymandias-market", lambda s: s.step == "trade_played")
    data = json.loads(json.dumps(state.to_json()))
    load_game("ozymandias-market").state_from_json(data)
    seat = state.turn_order[state.turn]
    data["data"]["discard"].append(data["data"]["played"][seat])  # every card still placed
    data["data"]["played"][seat] = None
    _refused_at("ozymandias-market", data, f"$.data.played[{seat}]")
