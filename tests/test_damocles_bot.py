"""The Damocles heuristic's fast pattern tests agree with the rules' matcher, and its move
values rank the move it plays first."""

from __future__ import annotations

import random

import pytest

from meeple.engine.registry import load_game
from meeple.games.damocles.bot import NEAR_MISS, HeuristicBot, _fits, _near
from meeple.games.damocles.codex import CIRCLE, GODS
from meeple.games.damocles.matching import match_mask


def _slow_near(pattern, circle, rotational: bool) -> bool:
    """The definition: some clockwise placement misses at most one pip."""
    return any(sum(circle[(r + o) % CIRCLE] != g for o, g in pattern) <= 1
               for r in range(CIRCLE if rotational else 1))


@pytest.mark.parametrize("params", [{}, {"match": "absolute"}, {"mirror": True}])
def test_bitmask_fits_agree_with_the_rules_matcher(params: dict) -> None:
    game = load_game("damocles", players=3, **params)
    bot = HeuristicBot(game, 0, 0)
    masks = bot._masks()
    rotational = game.params["match"] == "rotational"
    rng = random.Random(4)
    full = (1 << (len(GODS) * CIRCLE)) - 1
    checked = matched = near = 0
    for _ in range(150):
        circle = [rng.randrange(len(GODS)) if rng.random() > 0.1 else None
                  for _ in range(CIRCLE)]
        free = full
        for slot, god in enumerate(circle):
            if god is not None:
                free &= ~(1 << (god * CIRCLE + slot))
        for cid, codex in game.codex_by_id.items():
            if None not in circle:
                want = bool(match_mask(tuple(circle), codex.pattern, rotational, False,
                                       game.params["mirror"]))
                assert _fits(masks[cid][0], free) == want, (cid, circle)
                matched += want
            want_near = _slow_near(codex.pattern, circle, rotational)
            assert (_near(masks[cid][1], free) == NEAR_MISS) == want_near, (cid, circle)
            near += want_near
            checked += 1
    assert checked > 10_000 and matched > 0 and near > matched, "both outcomes were exercised"


def test_action_values_rank_the_played_move_first() -> None:
    game = load_game("damocles")
    state = game.new_initial_state(2)
    bots = [HeuristicBot(game, s, 1) for s in range(game.players)]
    ranked = 0
    while not state.is_terminal() and state.length() < 60:
        joint = {}
        for seat in state.current_players():
            view, legal = state.view(seat), state.legal_actions(seat)
            values = bots[seat].action_values(view, legal)
            move = bots[seat].act(view, legal)
            if len(legal) > 1:
                assert values[legal.index(move)] == max(values), (str(move), seat)
                ranked += 1
            joint[seat] = move
        state.apply_actions(joint)
    assert ranked > 20
