"""The Four Gods heuristic bot's remembered habits and cached plans never change its choice.

The bot keeps bit windows of its opponents' habits between decisions and caches per legal
tuple; a bot that has decided in other games (or other positions of this one) must choose
exactly what a fresh bot with the same random stream chooses.
"""

from __future__ import annotations

import random

import pytest

from meeple.bots import make_bot
from meeple.engine.registry import load_game

GAME = "battle-of-the-four-gods"


def decision_points(game, games: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            out.extend((state.clone(), s) for s in state.current_players())
            state.apply_actions(
                {s: rng.choice(state.legal_actions(s)) for s in state.current_players()})
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_that_decided_elsewhere_chooses_as_a_fresh_bot(players):
    game = load_game(GAME, players=players)
    points = decision_points(game, 6, 11 * players)
    shuffled = random.Random(5).sample(points, len(points))  # jumps between games
    used = {s: make_bot("heuristic", game, s, 3) for s in range(players)}
    differ = 0
    for state, seat in points[:400] + shuffled[:400]:
        view, legal = state.view(seat), state.legal_actions(seat)
        fresh = make_bot("heuristic", game, seat, 3)
        fresh.rng.setstate(used[seat].rng.getstate())
        differ += fresh.act(view, list(legal)) is not used[seat].act(view, legal)
    assert differ == 0


def test_habits_follow_the_history_weights():
    game = load_game(GAME)
    state = game.new_initial_state(1)
    rng = random.Random(1)
    for _ in range(20):
        state.apply_actions(
            {s: rng.choice(state.legal_actions(s)) for s in state.current_players()})
    bot = make_bot("heuristic", game, 0, 0)
    history = state.view(0)["history"]
    attack, defend, _ = bot._habits(history, [1, 2, 3])
    for o in (1, 2, 3):  # the plain formula, newest round first
        num_a, num_d, total, weight = 0.35, 0.35, 1.0, 1.0
        for _round, publics, _delta, _drain in reversed(history[-12:]):
            if publics[o] is not None and publics[0] is not None:
                num_a += weight * (0 in publics[o][0])
                num_d += weight * (0 in publics[o][1])
                total += weight
            weight *= 0.6
        assert attack[o] == num_a / total and defend[o] == num_d / total
