"""The Four Gods heuristic bot: plays with a plan, from its view only.

Each round it estimates, from the public history with recent rounds weighted more, how likely
each alive opponent is to attack it and to defend against it. It then scores every legal
selection by expected energy:

* a DEFENSE against ``o`` is worth ``P(o attacks me) * (damage + refund)``;
* an ATTACK on ``t`` is worth ``P(t does not defend) * damage * weight(t)``, where the weight
  grows as opponents fall (a duel is zero-sum), when ``t`` attacked it recently (retaliation)
  or leads on energy, and with every round in which nobody's energy changed (it breaks
  stalemates); a target that can be finished off adds twice its remaining energy;
* the selection's cost is subtracted, and a selection that would leave it at or below the
  damage it expects to take anyway is penalised (it spends within its means), unless it
  attacks every remaining rival within reach of elimination (B4G-13 end game).

It plays one of the selections scoring within ``TOLERANCE`` of the best, drawn with its own
seeded stream, so games between heuristic bots are not all identical.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import add
from typing import Any

from meeple.engine.agent import Bot
from meeple.games.battle_of_the_four_gods.actions import Selection

#: How fast old rounds are forgotten when estimating habits (weight of a round k ago: DECAY**k).
DECAY = 0.6
#: Prior belief (in pseudo-rounds) before any history: P(attack me), P(defend against me).
PRIOR_WEIGHT = 1.0
PRIOR_ATTACK = 0.35
PRIOR_DEFEND = 0.35
#: Relative value of an opponent's lost energy against one's own, with three opponents alive;
#: it scales as 3/k with k opponents left (a rival's loss helps the other rivals too, less so
#: as they fall). Tuned by a sweep against three random bots (seed rules: 0.2-0.3 wins ~0.66
#: of games, 0.45 wins 0.38, 0.7 wins 0.10): in a last-standing game, defence pays best.
BASE_WEIGHT = 0.25
RETALIATION_WEIGHT = 0.1
LEADER_WEIGHT = 0.15
#: Added per consecutive round without any energy change (up to 5): cautious bots would
#: otherwise pass forever under the seed rules, which have no stall rule (B4G-14).
STALL_PRESSURE = 0.15
#: Selections scoring within this much energy of the best are equally good; the bot picks
#: among them with its own seeded stream, so games between heuristic bots differ.
TOLERANCE = 0.1


#: How many past rounds the habits look at (older ones weigh under DECAY**12 = 0.2%).
WINDOW = 12
_WINDOW_MASK = (1 << WINDOW) - 1


class HeuristicBot(Bot):
    """Expected-value planner for Battle of the Four Gods (module docstring).

    Speed (issue 22): the habits are kept as per-opponent bit windows of the last ``WINDOW``
    rounds, updated with the rounds added since the bot's previous decision in the same game
    (from scratch otherwise), and a selection's score is built from per-indicator-set sums
    computed once per decision; the numbers, and so the play, are those of the plain
    per-selection formulas in the module docstring, bit for bit.
    """

    name = "heuristic"
    #: The weights a name may override (``heuristic@BASE_WEIGHT=0.4@DECAY=0.5``), with the
    #: ranges the lab's search tries; the module constants are the defaults.
    tunable = {"DECAY": (0.0, 1.0), "PRIOR_ATTACK": (0.0, 1.0), "PRIOR_DEFEND": (0.0, 1.0),
               "BASE_WEIGHT": (0.0, 1.0), "RETALIATION_WEIGHT": (0.0, 0.6),
               "LEADER_WEIGHT": (0.0, 0.6), "STALL_PRESSURE": (0.0, 0.6)}
    DECAY = DECAY
    PRIOR_WEIGHT = PRIOR_WEIGHT
    PRIOR_ATTACK = PRIOR_ATTACK
    PRIOR_DEFEND = PRIOR_DEFEND
    BASE_WEIGHT = BASE_WEIGHT
    RETALIATION_WEIGHT = RETALIATION_WEIGHT
    LEADER_WEIGHT = LEADER_WEIGHT
    STALL_PRESSURE = STALL_PRESSURE
    TOLERANCE = TOLERANCE

    def __init__(self, game: Any, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        p = game.params
        self._costs = (p["attack_cost"], p["defend_cost"])
        self._first: Any = None  # the first and last history rounds the windows have seen
        self._last: Any = None
        self._seen = 0
        seats = game.players
        self._attacked = [0] * seats  # bit k: o attacked me k rounds before the newest
        self._defended = [0] * seats  # bit k: o defended against me then
        self._counted = [0] * seats  # bit k: that round counts (both selections public)

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Selection]) -> Selection:
        if len(legal_actions) == 1:
            return legal_actions[0]
        me = self.seat
        p = self.game.params
        damage, refund = p["damage"], p["defend_refund"]
        ac, dc = self._costs
        energy = view["energy"]
        alive = [s for s, a in enumerate(view["alive"]) if a and s != me]
        attack_prob, defend_prob, attacked_last = self._habits(view["history"], alive)

        defend_value = {o: attack_prob[o] * (damage + refund) - dc for o in alive}
        # The leader is an opponent strictly ahead of every other seat; on a tie there is
        # none (picking the lowest seat would make RED everybody's target, a seat bias).
        top = max((energy[s] for s in alive), default=None)
        leaders = [s for s in alive if energy[s] == top]
        leader = leaders[0] if len(leaders) == 1 else None
        attack_value = {}
        pressure = self.STALL_PRESSURE * min(view["stall"], 5)
        for t in alive:
            weight = self.BASE_WEIGHT * 3 / len(alive) + pressure
            if attacked_last[t]:
                weight += self.RETALIATION_WEIGHT
            if t == leader and energy[t] > energy[me]:
                weight += self.LEADER_WEIGHT
            hit = 1.0 - defend_prob[t]
            value = hit * damage * weight
            if energy[t] <= damage:  # a kill removes a rival for good
                value += hit * energy[t] * 2.0
            attack_value[t] = value - ac
        expected_incoming = sum(map(attack_prob.__getitem__, alive)) * damage

        # Per selection: score = its attacks' values + its defences' values, less 2 x damage
        # if it spends itself into elimination, where its remaining energy = energy - cost -
        # the attacks it leaves undefended. The sums depend only on the attack set or the
        # defence set, so each is added up once per set, in the same order as per selection.
        # (``sum`` over ``map``: the same additions as a generator, without its frames)
        sels, attack_keys, defend_keys, costs, attack_sets, defend_sets = _plan(
            legal_actions, ac, dc)
        value = attack_value.__getitem__
        attack_sum = {a: sum(map(value, a)) for a in attack_sets}
        value = defend_value.__getitem__
        defend_sum = {d: sum(map(value, d)) for d in defend_sets}
        value, others = attack_prob.__getitem__, _others(tuple(alive), defend_sets)
        undefended = {d: sum(map(value, others[d])) * damage for d in defend_sets}
        scores = list(map(add, map(attack_sum.__getitem__, attack_keys),
                          map(defend_sum.__getitem__, defend_keys)))
        mine = energy[me]
        # Remaining energy = energy - cost - undefended; none can reach 0 when the largest
        # cost and the largest undefended sum leave some (float subtraction is monotonic).
        if 0 < mine - expected_incoming and mine - max(costs) - max(undefended.values()) <= 0:
            penalty = 2.0 * damage
            for i, cost in enumerate(costs):
                attacks = attack_keys[i]
                if mine - cost - undefended[defend_keys[i]] <= 0 and not all(
                        t in attacks and energy[t] <= damage for t in alive):
                    scores[i] -= penalty  # do not spend yourself into elimination...
            # ...unless every rival may fall with you: the highest energy among those who
            # fall together wins (B4G-13), and a last attack leaves you at 0 or more.
        return self.choose_best(sels, scores, self.TOLERANCE)

    def _habits(
        self, history: Sequence[Any], alive: list[int]
    ) -> tuple[dict[int, float], dict[int, float], dict[int, bool]]:
        """Recency-weighted P(o attacks me), P(o defends against me), and who attacked me in
        the last round, for every alive opponent ``o``: over the last ``WINDOW`` rounds in
        which both selections were public, a round ``k`` rounds before the newest weighing
        ``DECAY**k``, on top of a prior of ``PRIOR_WEIGHT`` rounds."""
        self._remember(history)
        attacked, defended, counted = self._attacked, self._defended, self._counted
        decay, weight = self.DECAY, self.PRIOR_WEIGHT
        attack_prob = {o: _share(attacked[o], counted[o], self.PRIOR_ATTACK, decay, weight)
                       for o in alive}
        defend_prob = {o: _share(defended[o], counted[o], self.PRIOR_DEFEND, decay, weight)
                       for o in alive}
        me = self.seat
        last = history[-1][1] if history else None
        attacked_last = {
            o: bool(last and last[o] is not None and me in last[o][0]) for o in alive
        }
        return attack_prob, defend_prob, attacked_last

    def _remember(self, history: Sequence[Any]) -> None:
        """Shift the rounds of ``history`` the windows have not seen into them: only the new
        ones when ``history`` continues the one seen last (the same round objects), else the
        last ``WINDOW`` rounds from empty windows."""
        seen, count = self._seen, len(history)
        if not (seen and count >= seen and history[seen - 1] is self._last
                and history[0] is self._first):
            seen = max(0, count - WINDOW)
            for o in range(len(self._attacked)):
                self._attacked[o] = self._defended[o] = self._counted[o] = 0
        if seen == count:
            return
        me = self.seat
        attacked, defended, counted = self._attacked, self._defended, self._counted
        seats = range(len(attacked))
        for index in range(seen, count):
            publics = history[index][1]
            mine = publics[me] is not None
            for o in seats:
                pub = publics[o]
                if mine and pub is not None and o != me:
                    attacked[o] = (attacked[o] << 1 | (me in pub[0])) & _WINDOW_MASK
                    defended[o] = (defended[o] << 1 | (me in pub[1])) & _WINDOW_MASK
                    counted[o] = (counted[o] << 1 | 1) & _WINDOW_MASK
                else:
                    attacked[o] = attacked[o] << 1 & _WINDOW_MASK
                    defended[o] = defended[o] << 1 & _WINDOW_MASK
                    counted[o] = counted[o] << 1 & _WINDOW_MASK
        self._seen, self._first, self._last = count, history[0], history[-1]


_SHARES: dict[tuple[int, int, float, float, float], float] = {}


def _share(hits: int, counted: int, prior: float, decay: float = DECAY,
           prior_weight: float = PRIOR_WEIGHT) -> float:
    """``(prior x prior_weight + sum of decay**k over counted rounds k with a hit) /
    (prior_weight + sum of decay**k over counted rounds k)``, added newest first (bit 0),
    memoised by the two bit windows and the weights (the bot's ``DECAY`` and
    ``PRIOR_WEIGHT``, which a name may override)."""
    key = (hits, counted, prior, decay, prior_weight)
    share = _SHARES.get(key)
    if share is None:
        num, total, weight = prior * prior_weight, prior_weight, 1.0
        for k in range(WINDOW):
            if counted >> k & 1:
                num += weight * (hits >> k & 1)
                total += weight
            weight *= decay
        share = _SHARES[key] = num / total
        if len(_SHARES) > 200_000:  # a bound; real games reuse few windows
            _SHARES.clear()
            _SHARES[key] = share
    return share


_PLANS: dict[tuple[int, int, int], tuple[Any, ...]] = {}
_OTHERS: dict[tuple[tuple[int, ...], frozenset], dict[tuple[int, ...], tuple[int, ...]]] = {}


def _others(alive: tuple[int, ...], defend_sets: frozenset) -> dict[Any, tuple[int, ...]]:
    """For each defence set, the ``alive`` opponents it does not defend against, in order."""
    key = (alive, defend_sets)
    others = _OTHERS.get(key)
    if others is None:
        if len(_OTHERS) > 4096:
            _OTHERS.clear()
        others = _OTHERS[key] = {d: tuple(o for o in alive if o not in d) for d in defend_sets}
    return others


def _plan(legal: Sequence[Selection], attack_cost: int, defend_cost: int) -> tuple[Any, ...]:
    """``(selections, their attacks, their defends, their costs, the distinct attack sets, the
    distinct defence sets)`` of a legal list, the first four aligned. Cached
    per tuple object (the engine's legal tuples are shared tables), checked by identity."""
    if not isinstance(legal, tuple):  # a list could change under the same id
        return _make_plan(legal, attack_cost, defend_cost)
    key = (id(legal), attack_cost, defend_cost)
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is legal:
        return cached[1]
    plan = _make_plan(legal, attack_cost, defend_cost)
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[key] = (legal, plan)
    return plan


def _make_plan(legal: Sequence[Selection], attack_cost: int, defend_cost: int) -> tuple[Any, ...]:
    attack_keys = tuple(sel.attacks for sel in legal)
    defend_keys = tuple(sel.defends for sel in legal)
    return (tuple(legal), attack_keys, defend_keys,
            tuple(sel.cost(attack_cost, defend_cost) for sel in legal),
            frozenset(attack_keys), frozenset(defend_keys))
