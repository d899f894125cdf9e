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


class HeuristicBot(Bot):
    """Expected-value planner for Battle of the Four Gods (module docstring)."""

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

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Selection]) -> Selection:
        if len(legal_actions) == 1:
            return legal_actions[0]
        me = self.seat
        p = self.game.params
        damage, refund = p["damage"], p["defend_refund"]
        ac, dc = p["attack_cost"], p["defend_cost"]
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
        expected_incoming = sum(attack_prob[o] for o in alive) * damage

        scored: list[tuple[float, Selection]] = []
        for sel in legal_actions:
            score = sum(attack_value[t] for t in sel.attacks)
            score += sum(defend_value[o] for o in sel.defends)
            undefended = sum(attack_prob[o] for o in alive if o not in sel.defends) * damage
            remaining = energy[me] - sel.cost(ac, dc) - undefended
            finishes_all = all(t in sel.attacks and energy[t] <= damage for t in alive)
            if remaining <= 0 < energy[me] - expected_incoming and not finishes_all:
                score -= 2.0 * damage  # do not spend yourself into elimination...
            # ...unless every rival may fall with you: the highest energy among those who
            # fall together wins (B4G-13), and a last attack leaves you at 0 or more.
            scored.append((score, sel))
        top = max(score for score, _ in scored)
        best = [sel for score, sel in scored if score >= top - self.TOLERANCE]
        return best[0] if len(best) == 1 else best[int(self.rng.random() * len(best))]

    def _habits(
        self, history: Sequence[Any], alive: list[int]
    ) -> tuple[dict[int, float], dict[int, float], dict[int, bool]]:
        """Recency-weighted P(o attacks me), P(o defends against me), and who attacked me in
        the last round, for every alive opponent ``o``."""
        me = self.seat
        att = {o: self.PRIOR_ATTACK * self.PRIOR_WEIGHT for o in alive}
        dfn = {o: self.PRIOR_DEFEND * self.PRIOR_WEIGHT for o in alive}
        total = {o: self.PRIOR_WEIGHT for o in alive}
        weight = 1.0
        for _round, publics, _delta, _drain in reversed(history[-12:]):
            for o in alive:
                pub = publics[o]
                if pub is None or publics[me] is None:
                    continue
                attacks, defends = pub
                att[o] += weight * (me in attacks)
                dfn[o] += weight * (me in defends)
                total[o] += weight
            weight *= self.DECAY
        last = history[-1][1] if history else None
        attacked_last = {
            o: bool(last and last[o] is not None and me in last[o][0]) for o in alive
        }
        return ({o: att[o] / total[o] for o in alive}, {o: dfn[o] / total[o] for o in alive},
                attacked_last)
