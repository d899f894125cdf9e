"""The Damocles heuristic bot: looks for matching pairs and swaps toward them (one ply).

From its view only (its hand, the public circle and tableaus, the public deck manifest):

* **swaps and placements**: tries every legal one and keeps the circle of highest value. A
  circle's value is what could be scored and drawn on it now (every matching codex in hand,
  every matching Production-Number pair of its own) plus a small credit for codices that miss
  by one token, so it also swaps *toward* pairs;
* **Haste** before swapping whenever it can (an extra swap and a point);
* **play window**: the play worth most now (points of codices first played plus codices drawn),
  until nothing is left, then ``end``;
* **setup discard / Oracle keep**: keeps the codices worth most; **destroy**: an opponent's most
  valuable codex, or its own least valuable one for a Sacrifice.

Ties between equally good moves are broken with the bot's own seeded stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.agent import Bot
from meeple.games.damocles.actions import Move
from meeple.games.damocles.codex import CIRCLE, GODS, NUMBER, PRODUCTION, Codex
from meeple.games.damocles.matching import pip_indices, pip_table, readings

#: Value of one codex drawn into the hand, in points.
DRAW_VALUE = 1.5
#: Credit per pip of a codex that matches all but one of its pips somewhere.
NEAR_MISS = 0.25
#: A Haste, when legal, outranks every swap (the bot always hastes before swapping).
HASTE_VALUE = 1000.0
_CODICES_KEY = "damocles-heuristic-codices"
#: Every rotation of the circle, as bits.
_ALL = (1 << CIRCLE) - 1


class HeuristicBot(Bot):
    """One-ply Damocles planner (module docstring)."""

    name = "heuristic"
    #: The weights a name may override (``heuristic@DRAW_VALUE=2@NEAR_MISS=0.1``), with the
    #: ranges the lab's search tries; the module constants are the defaults.
    tunable = {"DRAW_VALUE": (0.0, 4.0), "NEAR_MISS": (0.0, 1.0)}
    DRAW_VALUE = DRAW_VALUE
    NEAR_MISS = NEAR_MISS

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Move]) -> Move:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.choose_best(legal_actions, self.action_values(view, legal_actions))

    def action_values(self, view: Mapping[str, Any], legal_actions: Sequence[Move]) -> list[float]:
        """The heuristic's value of each of ``legal_actions`` (same order), in points: the
        move :meth:`act` plays is one of the highest (search uses them to order and prune
        its candidates). When a Haste is legal before swapping, the first one is valued
        ``HASTE_VALUE`` and every other move 0."""
        deck = self.game.codex_by_id
        hand = list(view.get("hand", ()))
        kinds = {m.kind for m in legal_actions}
        if "discard" in kinds:
            return [-sum(self._worth(deck[c]) for c in m.args) for m in legal_actions]
        if "keep" in kinds:
            return [sum(self._worth(deck[c]) for c in m.args) for m in legal_actions]
        if "destroy" in kinds:
            own = set(view["tableaus"][self.seat])
            return [(-1 if m.args[0] in own else 1) * self._worth(deck[m.args[0]])
                    for m in legal_actions]
        if "place" in kinds or "swap" in kinds or "trade" in kinds:
            circle = [None if g is None else GODS.index(g) for g in view["circle"]]
            tableau = list(view["tableaus"][self.seat])
            if "haste" in kinds:  # the first Haste, at once
                first = next(m for m in legal_actions if m.kind == "haste")
                return [HASTE_VALUE if m is first else 0.0 for m in legal_actions]
            return [self._circle_value(_after(circle, m), hand, tableau) for m in legal_actions]
        return [self._play_value(m, hand) for m in legal_actions]

    # ------------------------------------------------------------------ evaluations
    def _worth(self, codex: Codex) -> float:
        """Rough value of holding ``codex``: its points, more for pair codices that grant."""
        info = codex.info
        bonus = {PRODUCTION: 1.5, NUMBER: 1.0 + info.number * 0.5}.get(info.cls, 0.0)
        return codex.pips + bonus - 0.3 * (codex.pattern[-1][0] - len(codex.pattern))

    def _circle_value(self, circle: list[int | None], hand: list[str],
                      tableau: list[str]) -> float:
        """Points and draws available on ``circle`` now, plus near-miss credit. The circle is
        read once into its :func:`.matching.pip_table`; each codex is then a few look-ups
        (:meth:`_codices`)."""
        codices = self._codices()
        table = pip_table(circle)
        rotational = self.game._matching[0]
        turns = _ALL if rotational else 1
        credit = self.NEAR_MISS
        if None in circle:  # placement: only near-miss credit makes sense
            return sum(_near(table, codices[c][1], turns, credit) * codices[c][2] for c in hand)
        matched = set()  # mask_on(...) != 0 and _near, inlined: a frame less per codex
        for cid in hand + tableau:
            for indices, _ in codices[cid][0]:
                rotations = turns
                for index in indices:
                    rotations &= table[index]
                if rotations:
                    matched.add(cid)
                    break
        value = 0.0
        for cid in hand:
            _, near, pips, paired = codices[cid][:4]
            if cid in matched:
                if not paired:
                    value += pips
            else:
                once = twice = 0
                for index in near:
                    out = ~table[index]
                    twice |= once & out
                    once |= out
                if turns & ~twice:  # else _near's 0.0, which adds nothing
                    value += credit * pips
        productions = [c for c in matched if codices[c][3] == PRODUCTION]
        numbers = [c for c in matched if codices[c][3] == NUMBER]
        in_hand = set(hand)
        draw_value = self.DRAW_VALUE
        for pid in productions:
            _, _, p_pips, _, combust = codices[pid]
            for nid in numbers:
                n_pips, grants = codices[nid][2], codices[nid][4]
                value += ((p_pips if pid in in_hand else 0) + (n_pips if nid in in_hand else 0))
                value += draw_value * (grants + combust)  # _grants, read from the table
        return value

    def _codices(self) -> dict[str, tuple[Any, ...]]:
        """Per codex id: ``(readings, near, pips, class, draws)``: its
        :func:`.matching.readings` as printed (counter-clockwise too if ``mirror``: what
        matches), the :func:`.matching.pip_indices` of its clockwise pattern (what earns
        near-miss credit), its pips, its class if Production or Number (else None) and what
        it adds to a pair's draws (:func:`_grants`: N for a Number, 1 for a Combust, else 0).
        Built once per game."""
        codices = self.game._cache.get(_CODICES_KEY)
        if codices is None:
            mirror = self.game.params["mirror"]
            codices = {}
            for cid, codex in self.game.codex_by_id.items():
                info = codex.info
                cls = info.cls if info.cls in (PRODUCTION, NUMBER) else None
                draws = info.number if cls == NUMBER else int(codex.type == "COMBUST")
                codices[cid] = (readings(codex.pattern, False, mirror),
                                pip_indices(codex.pattern), codex.pips, cls, draws)
            self.game._cache[_CODICES_KEY] = codices
        return codices

    def _play_value(self, move: Move, hand: list[str]) -> float:
        deck = self.game.codex_by_id
        if move.kind in ("end", "stop"):
            return 0.0
        if move.kind == "play":
            codex = deck[move.args[0]]
            value = codex.pips + (0.5 if codex.type in ("REFLEX", "ANNEX") else 0.0)
            return value - (1.0 if move.args[1] else 0.0)  # spends a Reflex token
        if move.kind == "pair":
            pid, nid, relax_p, relax_n = move.args
            value = sum(deck[c].pips for c in (pid, nid) if c in hand)
            value += self.DRAW_VALUE * _grants(deck[pid], deck[nid])
            return value + 0.1 - (relax_p + relax_n) * 1.0
        return 0.0


def _grants(production: Codex, number: Codex) -> int:
    """Codices a pair brings into the hand (CODEX TYPES: N, N + 1, or keep N of N + 2)."""
    n = number.info.number
    return n + 1 if production.type == "COMBUST" else n


def _after(circle: list[int | None], move: Move) -> list[int | None]:
    """The circle after a place, swap or trade ``move`` (others leave it unchanged)."""
    out = list(circle)
    if move.kind == "place":
        god, slot = move.args
        out[slot] = god
    elif move.kind == "swap":
        a, b = move.args
        out[a], out[b] = out[b], out[a]
    elif move.kind == "trade":
        slot, god = move.args
        out[slot] = god
    return out


def _near(table: tuple[int, ...], indices: tuple[int, ...], turns: int,
          credit: float = NEAR_MISS) -> float:
    """``credit`` if at some rotation of ``turns`` (a bit set) at most one pip of ``indices``
    (:func:`.matching.pip_indices`) is out of place on the circle of ``table``
    (:func:`.matching.pip_table`), else 0: the rotations where a pip is out, counted once
    and twice."""
    once = twice = 0
    for index in indices:
        out = ~table[index]
        twice |= once & out
        once |= out
    return credit if turns & ~twice else 0.0
