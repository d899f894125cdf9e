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


# The bot's formulas as plainly written before its speed-up (commit bf75219): per selection,
# generator sums, habits re-read from the history. The fast bot must choose the same.
def reference_scores(bot, view, legal):
    from meeple.games.battle_of_the_four_gods import bot as module

    me, p = bot.seat, bot.game.params
    damage, refund = p["damage"], p["defend_refund"]
    ac, dc = p["attack_cost"], p["defend_cost"]
    energy, history = view["energy"], view["history"]
    alive = [s for s, a in enumerate(view["alive"]) if a and s != me]
    att = {o: module.PRIOR_ATTACK * module.PRIOR_WEIGHT for o in alive}
    dfn = {o: module.PRIOR_DEFEND * module.PRIOR_WEIGHT for o in alive}
    total = {o: module.PRIOR_WEIGHT for o in alive}
    weight = 1.0
    for _round, publics, _delta, _drain in reversed(history[-12:]):
        for o in alive:
            pub = publics[o]
            if pub is None or publics[me] is None:
                continue
            att[o] += weight * (me in pub[0])
            dfn[o] += weight * (me in pub[1])
            total[o] += weight
        weight *= module.DECAY
    attack_prob = {o: att[o] / total[o] for o in alive}
    defend_prob = {o: dfn[o] / total[o] for o in alive}
    last = history[-1][1] if history else None
    attacked_last = {o: bool(last and last[o] is not None and me in last[o][0]) for o in alive}
    defend_value = {o: attack_prob[o] * (damage + refund) - dc for o in alive}
    top = max((energy[s] for s in alive), default=None)
    leaders = [s for s in alive if energy[s] == top]
    leader = leaders[0] if len(leaders) == 1 else None
    attack_value = {}
    pressure = module.STALL_PRESSURE * min(view["stall"], 5)
    for t in alive:
        w = module.BASE_WEIGHT * 3 / len(alive) + pressure
        if attacked_last[t]:
            w += module.RETALIATION_WEIGHT
        if t == leader and energy[t] > energy[me]:
            w += module.LEADER_WEIGHT
        hit = 1.0 - defend_prob[t]
        value = hit * damage * w
        if energy[t] <= damage:
            value += hit * energy[t] * 2.0
        attack_value[t] = value - ac
    expected_incoming = sum(attack_prob[o] for o in alive) * damage
    scores = []
    for sel in legal:
        score = sum(attack_value[t] for t in sel.attacks)
        score += sum(defend_value[o] for o in sel.defends)
        undefended = sum(attack_prob[o] for o in alive if o not in sel.defends) * damage
        remaining = energy[me] - sel.cost(ac, dc) - undefended
        finishes_all = all(t in sel.attacks and energy[t] <= damage for t in alive)
        if remaining <= 0 < energy[me] - expected_incoming and not finishes_all:
            score -= 2.0 * damage
        scores.append(score)
    return scores


def reference_act(bot, view, legal):
    if len(legal) == 1:
        return legal[0]
    from meeple.games.battle_of_the_four_gods.bot import TOLERANCE

    scored = list(zip(reference_scores(bot, view, legal), legal, strict=True))
    top = max(score for score, _ in scored)
    best = [sel for score, sel in scored if score >= top - TOLERANCE]
    return best[0] if len(best) == 1 else best[int(bot.rng.random() * len(best))]


VARIANTS = [v.name for v in load_game(GAME).__class__.variants]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4])
def test_the_fast_bot_chooses_as_the_plain_formulas(variant, players):
    game = load_game(GAME, variant=variant, players=players)
    fast = {s: make_bot("heuristic", game, s, 9) for s in range(players)}
    plain = {s: make_bot("heuristic", game, s, 9) for s in range(players)}
    for g in range(4):  # heuristic games: the fast bots follow their own game
        state = game.new_initial_state(g)
        while not state.is_terminal():
            joint = {}
            for s in state.current_players():
                view, legal = state.view(s), state.legal_actions(s)
                expected = reference_act(plain[s], view, legal)
                joint[s] = fast[s].act(view, legal)
                assert joint[s] is expected
            state.apply_actions(joint)
