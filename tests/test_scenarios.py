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
    assert state.is_terminal()
    assert state.winners() or state.game.capabilities.cooperative  # a team may lose together


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
        scenario = None
        state_class = None  # no components either: no derived builder

    assert issubclass(Bare, Game)
    with pytest.raises(ParameterError, match="no scenario builder"):
        Bare().build_scenario()


def test_ozymandias_market_trade_example_builds_draws_and_scores() -> None:
    game = load_game("ozymandias-market", players=2)
    state = game.build_scenario(
        map={"0,0": "R", "1,0": "B R", "0,1": "R", "1,-1": "B", "2,-1": "", "-1,1": []},
        hands={0: ["R8", "W2"], 1: ["K4", "W12"]}, market=["B3", "W5", "K7", "B9", "R11"],
        vp=[5, 3], round=4, next_draws=["R1", "B6", "K10"])
    assert state.stacks[(1, 0)] == [2, 0] and state.value(0) == 3 and state.value(2) == 1
    assert state.supply == [3, 6, 4, 6] and state.sectors_left == 12 - 6
    assert state.vp == [5, 3] and state.round == 4 and state.current_players() == (0, 1)
    assert state.deck[-3:] == [10, 6, 1]  # R1 on top
    _plays_to_end(state.clone())
    step = lambda seat, text: state.apply_action(game.parse_action(text, seat), seat)  # noqa
    state.apply_actions({0: game.parse_action("plan W2", 0), 1: game.parse_action("plan K4", 1)})
    step(0, "expand 2,-1")
    step(1, "expand -1,1")
    step(1, "trade W12 deck")  # the deck's top card: R1, no score
    assert 1 in state.hands[1] and state.vp[1] == 3
    step(1, "done")
    step(0, "trade R8 B3")  # red 3, blue 1: +2 VP (the rule document's example)
    assert state.vp[0] == 7
    other = game.build_scenario(next_draws=["R1", "B6"], seed=99)
    assert other.deck[-2:] == [6, 1]  # whatever the seed


def test_ozymandias_market_raise_phase_and_refusals() -> None:
    game = load_game("ozymandias-market", players=3)
    state = game.build_scenario(played=["R8", "W2", "R40"], vp={2: 9})
    assert state.phase == "raise" and state.turn_order == [1, 0, 2]
    assert state.current_players() == (1,) and all(len(h) == 2 for h in state.hands)
    _plays_to_end(state)
    with pytest.raises(ParameterError, match=r"hands\[0\].*not a card"):
        game.build_scenario(hands={0: ["Z99"]})
    with pytest.raises(ParameterError, match="market: card 3 is B3, not R3"):
        game.build_scenario(market=["R3"])
    with pytest.raises(ParameterError, match="named twice"):
        game.build_scenario(hands={0: ["B3"]}, market=["B3"])
    with pytest.raises(ParameterError, match=r"map\[0,0\].*not a colour"):
        game.build_scenario(map={"0,0": "PINK"})
    with pytest.raises(ParameterError, match="map: 7 RED disks"):
        game.build_scenario(map={f"{q},0": "R" for q in range(7)})
    with pytest.raises(ParameterError, match="not in the draw pile"):
        game.build_scenario(hands={0: ["B3"]}, next_draws=["B3"])
    with pytest.raises(ParameterError, match="round"):
        game.build_scenario(round=0)


CAMPAIGN_COLLAPSE = dict(
    tiles=["GOLD-1", "RED-1"], standing={"GOLD-1:i1": 0, "RED-1:i2": 1},
    colonies={"GOLD-1:c1": [1, 0]},
    tableaus={0: [{"card": "G4", "cubes": "GGGR", "tapped": True, "harvest": True,
                   "laid": True}, "B3"]},
    hands={0: ["R5", "B2"]}, incoming={0: [0, 0, 0]}, vp=[6, 9, 4], unrest={1: 2},
    active=0, turns=12, next_draws=["G7", "R6", "B7"], next_tiles=["BLUE-1"])


def test_ozymandias_campaign_collapse_example_scores_and_draws_in_order() -> None:
    game = load_game("ozymandias-campaign", players=3)
    state = game.build_scenario(**CAMPAIGN_COLLAPSE)
    ids = lambda cards: [game.cards[c].id for c in cards]  # noqa: E731
    assert [pl.tile.id for pl in state.map.placements] == ["GOLD-1", "RED-1"]
    assert state.standing == {"GOLD-1:i1": 0, "RED-1:i2": 1}
    assert state.stacks == {"GOLD-1:c1": [1, 0]} and state.unrest == [0, 2, 0]
    assert state.tableaus[0][0] == [game.cards.index(next(c for c in game.cards
                                                          if c.id == "GOLD-4-a")),
                                    3, 1, 0, 1, 1, 1]
    assert state.bag == [12 - 3 - 1 - 1 - 2, 12 - 3 - 2, 12 - 3] and state.supply == [3, 3, 3]
    assert game.tiles[state.tile_deck[-1]].id == "BLUE-1"
    assert state.current_players() == (0,) and state.turns == 12
    _plays_to_end(state.clone())
    state.apply_action(game.parse_action("intake", 0), 0)
    assert state.vp[0] == 6 + 10  # 3 gold cubes: level 3, +1 for the laid worker: 10 VP
    state.apply_action(game.parse_action("recover GOLD-1:c1", 0), 0)
    assert ids(state.hands[0]) == ["RED-5-a", "BLUE-2-a", "GOLD-7-a", "RED-6-a", "BLUE-7-a"]
    other = game.build_scenario(next_draws=["G7", "R6"], next_tiles=["RED-3"], seed=99)
    assert ids(other.deck[-2:]) == ["RED-6-a", "GOLD-7-a"]  # whatever the seed
    assert game.tiles[other.tile_deck[-1]].id == "RED-3"


def test_ozymandias_campaign_defaults_and_refusals() -> None:
    game = load_game("ozymandias-campaign", players=4)
    state = game.build_scenario(active=2, vp={1: 20})
    assert state.current_players() == (2,) and state.vp == [0, 20, 0, 0]
    assert all(len(h) == 5 for h in state.hands) and state.incoming == [[1, 1, 1]] * 4
    pieces = len(state.deck) + sum(map(len, state.hands))
    assert pieces == len(game.cards)  # every card in one place
    _plays_to_end(state)
    with pytest.raises(ParameterError, match=r"hands\[1\].*not a card"):
        game.build_scenario(hands={1: ["X9"]})
    with pytest.raises(ParameterError, match="no card G9 left"):
        game.build_scenario(hands={1: ["G9"]})
    with pytest.raises(ParameterError, match="named twice"):
        game.build_scenario(hands={1: ["GOLD-2-a"]}, discard=["GOLD-2-a"])
    with pytest.raises(ParameterError, match="tiles: unknown tile"):
        game.build_scenario(tiles=["PURPLE-1"])
    with pytest.raises(ParameterError, match="standing: .* not a point"):
        game.build_scenario(tiles=["GOLD-1"], standing={"RED-1:i1": 0})
    with pytest.raises(ParameterError, match="colonies: GOLD-1:i1 is not a colony"):
        game.build_scenario(tiles=["GOLD-1"], colonies={"GOLD-1:i1": [0]})
    with pytest.raises(ParameterError, match="seat 0 uses 13 workers"):
        game.build_scenario(tiles=["GOLD-1"], supply={0: 12}, standing={"GOLD-1:i1": 0})
    with pytest.raises(ParameterError, match=r"incoming\[0\]"):
        game.build_scenario(incoming={0: "GXR"})
    with pytest.raises(ParameterError, match="active"):
        game.build_scenario(active=4)


EPOCH_EXAMPLE = dict(
    hands=[["BULLET", "BULLET", "BASEBALL BAT", "ADAM NATHAN", "CRACKED RIB"],
           ["TINNED HAM", "TINNED HAM", "TINNED HAM", "BULLET", "FIRST AID"]],
    locations={"WAREHOUSE": ["WILD DOGS", "SHOULDER INJURY", "JUSTICE LIN", "TINNED HAM",
                             "BULLET", "TINNED HAM"],
               "GRAVEYARD": ["MUSTARD GAS ANGELS", "BROKEN FOOT", "RAIDERS", "PIPE BOMB"]},
    next_draws={"NIGHT": ["AND THEY TOOK MY STUFF, TOO"],
                "CATASTROPHE": ["PANIC", "BAD WATER"]},
    next_locations=["MALL"], day=3)


def test_epoch_ellipse_example_turn_builds_and_draws_in_order() -> None:
    from meeple.games.epoch_ellipse.scenario import card_names

    game = load_game("epoch-ellipse", players=2)
    state = game.build_scenario(**EPOCH_EXAMPLE)
    names = lambda cards: card_names(state, cards)  # noqa: E731
    assert names(state.hands[0]) == EPOCH_EXAMPLE["hands"][0]
    assert names(state.hands[1]) == EPOCH_EXAMPLE["hands"][1]
    assert [state.location_name(i) for i in range(3)] == ["GRAVEYARD", "APARTMENT BUILDING",
                                                          "WAREHOUSE"]
    assert sorted(names(state.event_decks[2])) == sorted(EPOCH_EXAMPLE["locations"]["WAREHOUSE"])
    assert state.tokens[0] == 3 and state.tokens[2] == 2 and state.tokens[1] >= 1
    assert "ADAM NATHAN" not in names(state.draws[0])  # a survivor in hand: no second one
    assert state.day == 3 and state.phase == "plan" and state.current_players() == (0,)
    assert all(not d for d in state.discards) and state.status == ["alive", "alive"]
    _plays_to_end(state.clone())
    again = state.clone()
    assert names([again.draw_shared("NIGHT")]) == ["AND THEY TOOK MY STUFF, TOO"]
    assert names([again.draw_shared("CATASTROPHE"), again.draw_shared("CATASTROPHE")]) == [
        "PANIC", "BAD WATER"]
    assert game.content.locations[again.location_deck[-1]].name == "MALL"
    every = [c for d in state.decks.values() for c in d]
    every += [c for piles in (state.hands, state.draws, state.discards, state.event_decks)
              for pile in piles for c in pile]
    assert sorted(every) == list(range(len(game.ctype)))  # every card in one place
    state.apply_action(game.parse_action("trade 1 bullet tinned-ham", 0), 0)  # the example
    assert state.step == "answer"


def test_epoch_ellipse_defaults_and_refusals() -> None:
    from meeple.games.epoch_ellipse.scenario import card_names

    game = load_game("epoch-ellipse", players=3)
    state = game.build_scenario(decks={1: ["PIPE BOMB", "FIRST AID"]}, hands={1: []},
                                discards={2: ["MILD INJURY", "RAIDERS"]},
                                locations={"MALL": 0, "HOSPITAL": 5}, first=2, seed=5)
    assert state.current_players() == (2,) and state.turn == 2
    assert card_names(state, state.draws[1][::-1]) == ["PIPE BOMB", "FIRST AID"]
    assert all(len(state.hands[s]) == 5 for s in (0, 2)) and state.tokens[2:] == [0, 5]
    assert len(state.event_decks[2]) == 4 + 1  # the Mall's salvage and survivor cards
    _plays_to_end(state)
    with pytest.raises(ParameterError, match=r"hands\[0\]: 'LASER' is not a card"):
        game.build_scenario(hands={0: ["LASER"]})
    with pytest.raises(ParameterError, match="no copy of 'PIPE BOMB' left"):
        game.build_scenario(hands={0: ["PIPE BOMB"] * 9})
    with pytest.raises(ParameterError, match="locations: 'ZOO' is not a location"):
        game.build_scenario(locations={"ZOO": 1})
    with pytest.raises(ParameterError, match=r"next_draws\[NIGHT\]: 'BULLET' is not a NIGHT"):
        game.build_scenario(next_draws={"NIGHT": ["BULLET"]})
    with pytest.raises(ParameterError, match="Recovered"):
        game.build_scenario(locations={"APARTMENT BUILDING": 0, "EMPTY SKYSCRAPER": 0,
                                       "MALL": 0, "HOSPITAL": 0, "POLICE STATION": 0,
                                       "SUPERMARKET": 0, "WATER WORKS": 0,
                                       "RADIO TOWER": 0, "SUBWAY TUNNELS": 0,
                                       "POWER PLANT": 0, "WAREHOUSE": 0})
    with pytest.raises(ParameterError, match="DEATH"):
        game.build_scenario(discards={0: ["MILD INJURY", "RAIDERS", "PANIC"]})
    with pytest.raises(ParameterError, match="first"):
        game.build_scenario(first=3)
