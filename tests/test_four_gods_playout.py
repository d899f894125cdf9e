"""Four Gods' own rollout loop (``FourGodsState._playout``) plays exactly the public loop's games.

For every variant and seat count, from the start and from the middle of a game, with and
without a step limit, a pending submission, and a ``random.Random`` subclass (which takes the
engine's general loop): the same stream gives the same final state (``digest``) and history.
"""

from __future__ import annotations

import random

import pytest

from meeple.engine.registry import game_class, load_game

CLASS = game_class("battle-of-the-four-gods")
CONFIGS = [(v.name, p) for v in CLASS.variants for p in (2, 3, 4)]


class Stream(random.Random):
    """A subclass: the engine uses its own ``choice`` (the general loop)."""


def public_loop(state, rng, limit=None):
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        state.apply_actions(
            {s: rng.choice(state.legal_actions(s)) for s in state.current_players()})
        steps += 1
    return steps


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_rollout_matches_the_public_loop(config):
    variant, players = config
    game = load_game("battle-of-the-four-gods", variant=variant, players=players)
    for seed in range(12):
        start = game.new_initial_state(seed)
        public_loop(start, random.Random(seed), limit=seed % 7)  # from the middle, too
        for limit in (None, 3):
            a, b = start.clone(), start.clone()
            steps = a.playout(random.Random(100 + seed), max_steps=limit)
            assert steps == public_loop(b, random.Random(100 + seed), limit)
            assert a.digest() == b.digest() and a.history == b.history
            assert a.current_players() == b.current_players()
            assert [a.legal_actions(s) for s in a.current_players()] == [
                b.legal_actions(s) for s in b.current_players()]


@pytest.mark.parametrize("stream", [random.Random, Stream])
def test_rollout_with_a_pending_submission(stream):
    game = load_game("battle-of-the-four-gods", variant="gdd-2018-02")
    for seed in range(10):
        a, b = game.new_initial_state(seed), game.new_initial_state(seed)
        for state in (a, b):
            state.apply_action(state.legal_actions(1)[seed % 5], 1)
        steps = a.playout(stream(seed))
        rng = stream(seed)
        b.apply_actions({s: rng.choice(b.legal_actions(s)) for s in b.current_players()})
        assert steps == 1 + public_loop(b, rng)
        assert a.digest() == b.digest()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rollout_matches_the_public_loop_through_stalls(players):
    """Stalled rounds (no energy changes) and the stall drain (B4G-14), which random play
    almost never reaches: every seat is given the legal selections of a seat with no energy
    to spend (only costless ones), so every round stalls, the drain starts after
    ``stall_rounds`` and runs until a seat's energy drops under the cap and its real
    selections come back; both loops must play the same game from there."""
    game = load_game("battle-of-the-four-gods", variant="gdd-2018-02", players=players,
                     start_energy=12)
    assert game.params["stall_rounds"] == 5
    for seed in range(6):
        start = game.new_initial_state(seed)
        mask = (1 << players) - 1
        start._tables = {s: game.legal_table(s, mask, 0) for s in range(players)}
        start._low, start._legal = False, None
        a, b = start.clone(), start.clone()
        steps = a.playout(random.Random(seed))
        assert steps == public_loop(b, random.Random(seed))
        assert a.digest() == b.digest() and a.history == b.history
        drained = [entry for entry in a.history if entry[3]]
        assert len(drained) >= 5 and all(not any(entry[2]) for entry in a.history[:10])
