"""The Damocles heuristic's fast pattern tests agree with the rules' matcher, its circle values
are those of the plain reading, and its move values rank the move it plays first."""

from __future__ import annotations

import random

import pytest

from meeple.engine.registry import load_game
from meeple.games.damocles.bot import NEAR_MISS, HeuristicBot, _near
from meeple.games.damocles.codex import CIRCLE, GODS
from meeple.games.damocles.matching import mask_on, match_mask, pip_table


def _slow_near(pattern, circle, rotational: bool) -> bool:
    """The definition: some clockwise placement misses at most one pip."""
    return any(sum(circle[(r + o) % CIRCLE] != g for o, g in pattern) <= 1
               for r in range(CIRCLE if rotational else 1))


@pytest.mark.parametrize("params", [{}, {"match": "absolute"}, {"mirror": True}])
def test_pip_table_tests_agree_with_the_rules_matcher(params: dict) -> None:
    """The bot's match (``mask_on`` over its codex table) and near-miss (``_near``) tests, read
    from the circle's pip table, agree with the rules' matcher and the definition."""
    game = load_game("damocles", players=3, **params)
    bot = HeuristicBot(game, 0, 0)
    codices = bot._codices()
    rotational = game.params["match"] == "rotational"
    turns = (1 << CIRCLE) - 1 if rotational else 1
    rng = random.Random(4)
    checked = matched = near = 0
    for _ in range(150):
        circle = [rng.randrange(len(GODS)) if rng.random() > 0.1 else None
                  for _ in range(CIRCLE)]
        table = pip_table(circle)
        for cid, codex in game.codex_by_id.items():
            if None not in circle:
                want = bool(match_mask(tuple(circle), codex.pattern, rotational, False,
                                       game.params["mirror"]))
                assert bool(mask_on(table, codices[cid][0], rotational)) == want, (cid, circle)
                matched += want
            want_near = _slow_near(codex.pattern, circle, rotational)
            assert (_near(table, codices[cid][1], turns) == NEAR_MISS) == want_near, (cid, circle)
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


def _plain_circle_value(bot, circle, hand, tableau) -> float:
    """The circle value as the bot's docstring reads, codex by codex with the rules' matcher
    and the near-miss definition (the code before the pip tables)."""
    game = bot.game
    deck = game.codex_by_id
    rotational = game.params["match"] == "rotational"
    if None in circle:
        return sum((NEAR_MISS if _slow_near(deck[c].pattern, circle, rotational) else 0.0)
                   * deck[c].pips for c in hand)
    matched = {c for c in hand + tableau
               if match_mask(tuple(circle), deck[c].pattern, rotational, False,
                             game.params["mirror"])}
    value = 0.0
    for cid in hand:
        codex = deck[cid]
        if cid in matched and codex.info.cls not in ("PRODUCTION", "NUMBER"):
            value += codex.pips
        elif cid not in matched:
            near = _slow_near(codex.pattern, circle, rotational)
            value += (NEAR_MISS if near else 0.0) * codex.pips
    productions = [c for c in matched if deck[c].info.cls == "PRODUCTION"]
    numbers = [c for c in matched if deck[c].info.cls == "NUMBER"]
    for pid in productions:
        for nid in numbers:
            value += sum(deck[c].pips for c in (pid, nid) if c in hand)
            grants = deck[nid].info.number + (deck[pid].type == "COMBUST")
            value += bot.DRAW_VALUE * grants
    return value


@pytest.mark.parametrize("params", [{}, {"match": "absolute"}, {"mirror": True},
                                    {"variant": "future"}])
def test_circle_values_are_the_plain_reading(params: dict) -> None:
    game = load_game("damocles", players=4, **params)
    bot = HeuristicBot(game, 0, 0)
    ids = list(game.codex_by_id)
    rng = random.Random(9)
    for _ in range(300):
        circle = [rng.randrange(len(GODS)) if rng.random() > 0.05 else None
                  for _ in range(CIRCLE)]
        cards = rng.sample(ids, 12)
        hand, tableau = cards[:rng.randrange(1, 10)], cards[10:]
        assert bot._circle_value(circle, hand, tableau) == _plain_circle_value(
            bot, circle, hand, tableau)
