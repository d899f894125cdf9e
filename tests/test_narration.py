"""Narration (engine.state, "Narration"): a quiet state (``narrate`` false) writes no event log
and otherwise plays exactly as a narrating one; the search's own states are quiet."""

from __future__ import annotations

import random

import pytest

from meeple.bots.ismcts import ISMCTSBot
from meeple.engine.registry import game_names, load_game
from tests.configs import game_configs


def _without_events(state) -> dict:
    data = state.to_json()
    data["data"] = {k: v for k, v in data["data"].items() if k != "events"}
    return data


@pytest.mark.parametrize("config", game_configs())
def test_a_quiet_state_plays_as_a_narrating_one(config) -> None:
    """Two states of one seed, one quiet from the start, take the same uniform random steps
    for three playthroughs: after every step they have the same data but for the event log,
    the same legal actions and returns, and the quiet one's log never changes."""
    name, variant, players = config
    game = load_game(name, variant=variant, players=players)
    logged = 0
    for seed in range(3):
        loud = game.new_initial_state(seed=seed)
        quiet = game.new_initial_state(seed=seed)
        quiet.narrate = False
        events = quiet.to_json()["data"].get("events")
        walk = random.Random(seed)
        steps = 0
        while not loud.is_terminal() and steps < 400:
            acting = loud.current_players()
            assert quiet.current_players() == acting
            joint = {}
            for seat in acting:
                legal = loud.legal_actions(seat)
                assert list(quiet.legal_actions(seat)) == list(legal)
                joint[seat] = walk.choice(legal)
            loud.apply_actions(joint)
            quiet.apply_actions(joint)
            steps += 1
            assert _without_events(quiet) == _without_events(loud)
            assert quiet.to_json()["data"].get("events") == events
            assert quiet.returns() == loud.returns()
        if events is not None:
            logged += loud.to_json()["data"]["events"] != events
        assert quiet.is_terminal() == loud.is_terminal()
    if events is not None:  # a game with a log wrote to the narrating state's
        assert logged > 0


def test_quiet_is_kept_by_clone_and_not_saved() -> None:
    """A clone of a quiet state is quiet; the flag is not part of the saved state, so a state
    read back from JSON narrates, and quiet and narrating states have the same digest."""
    game = load_game("damocles")
    state = game.new_initial_state(seed=4)
    state.narrate = False
    assert state.clone().narrate is False
    assert game.new_initial_state(seed=4).clone().narrate is True
    assert game.state_from_json(state.to_json()).narrate is True
    assert state.digest() == game.new_initial_state(seed=4).digest()


@pytest.mark.parametrize("name", [n for n in game_names() if load_game(n).determinizes
                                  and load_game(n).evaluator])
def test_the_search_plays_through_quiet_states(name: str) -> None:
    """Every state ISMCTS evaluates in its search (a determinization played a few steps;
    every game with an evaluator) is quiet, and a determinization made outside a search
    narrates (``Game.determinize``)."""
    game = load_game(name)
    state = game.new_initial_state(seed=1)
    walk = random.Random(1)
    while len(state.legal_actions(state.current_players()[0])) < 2:
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
    seat = state.current_players()[0]
    bot = ISMCTSBot(game, seat, 3, iterations=30, rollout_depth=0)
    seen = []
    evaluate = bot.evaluate

    def recording(s):
        seen.append(s.narrate)
        return evaluate(s)

    bot.evaluate = recording
    bot.act(state.view(seat), state.legal_actions(seat))
    assert seen and not any(seen)
    assert game.determinize(state.view(seat), random.Random(0)).narrate is True
