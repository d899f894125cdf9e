"""The Ozymandias (market edition) heuristic bot: values trades by faction values and expands
toward its hand's colours. From its view only (its hand, the public map, market, VP).

Trading scores ``value(given) - value(taken)``, so the bot wants strong colours in its hand
and weak colours in the market at trade time:

* **plan**: plays the card whose colour it holds most of (raising that colour helps the rest
  of the hand), preferring a high rank when the market holds a cheap card to grab first;
* **raise**: tries every legal action on a copy of the public map and keeps the one that
  leaves the best *position*: the VP it would score now (Tribute) plus the best trade its hand
  could then make, plus a little for the total value of its hand's colours;
* **trade**: the trade worth most: VP scored now plus the same small hand-value term; the
  optional played-card trade whenever that value is positive (it nearly always is), else
  ``done``;
* **Augury**: keeps the deck order; ties are broken with its own seeded stream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.agent import Bot
from meeple.games.ozymandias_market.actions import Order
from meeple.games.ozymandias_market.cards import COLOURS

#: Weight of the total faction value of the hand's colours, against VP scored now.
HAND_WEIGHT = 0.3


class HeuristicBot(Bot):
    """Faction-value trader (module docstring)."""

    name = "heuristic"
    #: The weight a name may override (``heuristic@HAND_WEIGHT=0.5``), with its search range.
    tunable = {"HAND_WEIGHT": (0.0, 1.0)}
    HAND_WEIGHT = HAND_WEIGHT

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Order]) -> Order:
        if len(legal_actions) == 1:
            return legal_actions[0]
        suit = self.game.suit_of
        hand = [_rank(c) for c in view.get("hand", ())]
        market = [_rank(c) for c in view["market"]]
        colour = _COLOUR_INDEX
        stacks = {(q, r): [colour[c] for c in stack] for q, r, stack in view["map"]}
        kinds = {o.kind for o in legal_actions}
        if "plan" in kinds:
            counts = Counter(suit[r] for r in hand)
            values = _values(stacks)
            cheap = min((values[suit[m]] for m in market), default=0)
            return self._best(legal_actions, lambda o: counts[suit[o.args[0]]]
                              + 0.01 * o.args[0] * (cheap == 0))
        if "trade" in kinds:
            values = _values(stacks)
            held = sum([values[suit[r]] for r in hand])
            return self._best(legal_actions,
                              lambda o: self._trade_value(o, values, hand, held))
        if "order" in kinds:
            return legal_actions[0]
        played = _rank(view["played"][self.seat])
        mine = hand + [played]
        return self._best(legal_actions,
                          lambda o: self._position(_after(stacks, o, suit[played]), o,
                                                   mine, market, played))

    def _best(self, orders: Sequence[Order], value) -> Order:
        return self.choose_best(orders, [value(o) for o in orders])

    def _trade_value(self, order: Order, values: list[int], hand: list[int],
                     held: int) -> float:
        """VP the trade scores plus half the hand weight times the change in the hand's
        total faction value (``held``: the total now; ranks are unique, so giving a hand
        card takes its value out once)."""
        if order.kind == "done":
            return 0.0
        suit = self.game.suit_of
        given, taken = order.args
        if taken == "deck":
            return -0.5
        gain = max(0, values[suit[given]] - values[suit[taken]])
        after = held + values[suit[taken]] - (values[suit[given]] if given in hand else 0)
        return gain + self.HAND_WEIGHT * 0.5 * after - self.HAND_WEIGHT * 0.5 * held

    def _position(self, stacks: dict, order: Order, mine: list[int], market: list[int],
                  played: int) -> float:
        suit = self.game.suit_of
        values = _values(stacks)
        score = 0.0
        if order.kind == "tribute":
            card = self.game.card_by_rank[played]
            score += max(0, values[card.suit] - card.param("minus"))
        if order.kind == "embargo":
            market = [m for m in market if m != order.args[0]]
        if order.kind == "bazaar":
            given, taken = order.args
            mine = [r for r in mine if r != given] + [taken]
            market = [m if m != taken else given for m in market]
        # the best pair's gain: the strongest colour held less the weakest in the market
        best_trade = (max([values[suit[g]] for g in mine]) - min([values[suit[m]] for m in market])
                      if mine and market else 0)
        return score + max(0, best_trade) + self.HAND_WEIGHT * sum([values[suit[r]] for r in mine])


_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def _rank(card: str) -> int:
    return int(card[1:])


def _values(stacks: Mapping[tuple[int, int], list[int]]) -> list[int]:
    values = [0] * len(COLOURS)
    for stack in stacks.values():
        if stack:
            values[stack[-1]] += 1
    return values


def _after(stacks: Mapping[tuple[int, int], list[int]], order: Order, colour: int
           ) -> dict[tuple[int, int], list[int]]:
    """The public map after ``order`` (the bot's own model of the rules' map effects): a new
    dict whose changed stacks are copies (the others are ``stacks``' own lists: read only)."""
    out = dict(stacks)
    kind, args = order.kind, order.args

    def stack(h: tuple[int, int]) -> list[int]:  # a copy of h's stack, put in ``out``
        copy = out[h] = list(out.get(h, ()))
        return copy

    if kind in ("expand", "explore", "surge", "diaspora"):
        h = args[0]
        stack(h).append(colour)
        if kind == "expand" and args[1] is not None:
            stack(args[1]).pop()
    elif kind == "raze":
        stack(args[0]).pop()
    elif kind == "march":
        source = stack(args[0])
        stack(args[1]).append(source.pop())
    elif kind == "coup":
        top = stack(args[0])
        top[-1], top[-2] = top[-2], top[-1]
    return out
