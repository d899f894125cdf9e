"""Damocles' evaluator against the plain reading of its formula (evaluate.py's module
docstring), bit for bit: the fast version remembers the turns left per turn and skips work,
and must give exactly the same floats (a search's choices depend on them)."""

from __future__ import annotations

import math
import random

import pytest

from meeple.engine.registry import load_game
from meeple.games.damocles import evaluate as ev
from meeple.games.damocles.codex import NUMBER, PRODUCTION


def _plain(state) -> tuple[float, ...]:
    """The formula read plainly: per seat its turns left, projection, then the blend."""
    if state.phase == "over":
        return state.returns()
    game = state.game
    n, cycles = game.players, game.params["cycles"]
    codex = game.codex_by_id
    projected, turns = [], 0
    for s in range(n):
        if state.phase == "turn":
            left = cycles * n - state.turns_taken + n - 1
            r = max(0, (left - (s - state.active) % n) // n)
        else:
            r = cycles
        turns += r
        value = float(state.points[s])
        if r:
            per_turn = 0.0
            for cid in state.hands[s]:
                cls = codex[cid].info.cls
                per_turn += (ev.HAND_PRODUCTION if cls == PRODUCTION
                             else ev.HAND_NUMBER if cls == NUMBER else 0.0)
            hand_pips = sum(codex[cid].pips for cid in state.hands[s])
            tableau = state.tableaus[s]
            if tableau:
                made = sum(1 for c in tableau if codex[c].info.cls == PRODUCTION)
                held = sum(1 for c in tableau if codex[c].info.cls == NUMBER)
                value_n = sum(codex[c].info.number for c in tableau
                              if codex[c].info.cls == NUMBER)
                per_turn += (ev.TABLEAU_PRODUCTION * made + ev.TABLEAU_NUMBER_VALUE * value_n
                             + ev.TABLEAU_PAIR * min(made, held))
            value += ev.HAND_PIP * hand_pips + r * per_turn
        projected.append(value)
    temperature = ev.BASE_TEMPERATURE + ev.PER_ROOT_TURN * math.sqrt(turns / n)
    top = max(projected)
    weights = [math.exp((v - top) / temperature) for v in projected]
    total, points_total = sum(weights), sum(projected)
    keep = 1 - ev.SCORE_WEIGHT
    if points_total <= 0:
        return tuple(keep * w / total + ev.SCORE_WEIGHT / n for w in weights)
    return tuple(keep * w / total + ev.SCORE_WEIGHT * v / points_total
                 for w, v in zip(weights, projected, strict=True))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_evaluate_gives_the_plain_formulas_floats_exactly(players: int) -> None:
    game = load_game("damocles", players=players)
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        walk = random.Random(seed)
        while True:
            assert ev.evaluate(state) == _plain(state)  # twice: the second from the memo
            assert ev.evaluate(state) == _plain(state)
            checked += 1
            if state.is_terminal():
                break
            state.apply_actions({s: walk.choice(state.legal_actions(s))
                                 for s in state.current_players()})
    assert checked > 100
