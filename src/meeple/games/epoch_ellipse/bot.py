"""The Epoch Ellipse heuristic team bot: trades for food, fights what it can, avoids dying,
and pushes toward recoverable locations. From its seat's view (hands are public, EPE-4).

* **danger** is the catastrophes in its discard pile plus those in its hand (which reach the
  discard pile at REST); at 2 a third one kills (EPE-34), so it plays safe;
* **plan**: plays charms; trades a spare weapon for food when it has none and a teammate has
  two; treats catastrophes in hand with medical cards; accepts offers that do not take its
  only food;
* **explore**: scores a new location and every (location, count) by the expected progress
  toward Recovered VP (expected catastrophes flipped, weighted by VP per token left) against
  the risk of suffering more catastrophes than its weapon and medical cards cover; picks the
  best;
* **combat / collapse**: pays with the cheapest sufficient cards (discard mode first: the card
  stays in the deck), stabilizes before a deadly catastrophe, suffers what it cannot pay;
* **rescue**: gives the survivor the exploration's salvage its hand cannot keep;
* **hunger**: eats its cheapest food, else starves; **limit**: returns catastrophes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.agent import Bot
from meeple.games.epoch_ellipse.actions import Move
from meeple.games.epoch_ellipse.cards import CATASTROPHE, FOOD, WEAPON

#: Death comes at this many catastrophes in the discard pile (DEATH).
DEADLY = 3
#: Exploration weights: value of a salvage card flipped, cost of a suffered catastrophe (it
#: stays in the deck), cost per catastrophe beyond what it can survive today, value of a new
#: location (twice as much while the locations in play cannot reach the target).
LOOT, SUFFER, DEATH, NEW = 0.2, 1.5, 6.0, 0.5


class _Tables:
    """Per-game card facts the bot reads at every decision (built once per game spec, cached
    on it): by type, ``worth`` (every point of every printed mode, summed); by card name,
    ``catastrophe``, ``food`` (a FOOD card or one with a food ability) and ``able`` (1 when a
    mode gives weapon, medical or avoid-collapse points), each 0 or 1."""

    __slots__ = ("worth", "catastrophe", "food", "able")

    def __init__(self, game) -> None:
        cards = game.content.cards
        self.worth = tuple(sum(c.points(m).get(p, 0) for m in c.modes() for p in c.points(m))
                           for c in cards)
        self.catastrophe = {c.name: int(c.kind == CATASTROPHE) for c in cards}
        self.food = {c.name: int(c.subtype == FOOD
                                 or any(c.points(m).get("food") for m in c.modes()))
                     for c in cards}
        self.able = {c.name: int(any(
            c.points(m).get("weapon") or c.points(m).get("medical")
            or c.points(m).get("avoid_collapse") for m in c.modes())) for c in cards}


def _tables(game) -> _Tables:
    tables = game._cache.get("bot")
    if tables is None:
        tables = game._cache["bot"] = _Tables(game)
    return tables


class HeuristicBot(Bot):
    """Cautious team player (module docstring)."""

    name = "heuristic"

    def __init__(self, game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        self._view: Mapping[str, Any] = {}
        content = game.content
        self._cards = content.cards
        self._index = {c.name: i for i, c in enumerate(content.cards)}
        tables = _tables(game)
        self._worth = tables.worth
        self._is_catastrophe = tables.catastrophe.__getitem__
        self._is_food = tables.food.__getitem__
        self._is_able = tables.able.__getitem__

    # ----------------------------------------------------------------------- helpers
    def _card(self, name: str):
        return self._cards[self._index[name]]

    def _danger(self, me: Mapping[str, Any]) -> int:
        in_hand = sum(map(self._is_catastrophe, me["hand"]))
        return me["catastrophes_in_discard"] + in_hand

    def _points(self, move: Move, point: str) -> int:
        if move.args[0] == "ms":  # a Mournful card, named in its owner's view entry
            _, owner, mode = move.args
            name = self._view["players"][owner]["mournful_card"]
            return self._card(name).points(mode).get(point, 0) if name else 0
        ctype, mode = move.args
        return self._cards[ctype].points(mode).get(point, 0)

    def _cost(self, move: Move) -> float:
        """How much a payment costs the team: trashing loses the card for good."""
        if move.args[0] == "ms":
            return 0.1
        ctype, mode = move.args
        return self._worth[ctype] + (1.0 if mode == "trash" else 0.0)

    def _capacity(self, me: Mapping[str, Any]) -> float:
        """Catastrophes its hand can beat or avoid, roughly."""
        return float(sum(map(self._is_able, me["hand"])))  # 1.0 a card: the same float

    # --------------------------------------------------------------------------- act
    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Move]) -> Move:
        if len(legal_actions) == 1:
            return legal_actions[0]
        self._view = view
        me = view["players"][self.seat]
        by_kind: dict[str, list[Move]] = {}
        for m in legal_actions:
            by_kind.setdefault(m.kind, []).append(m)
        step = view["step"]
        if "charm" in by_kind and step in ("plan", "choose", "hunger"):
            return by_kind["charm"][0]
        if step == "pick":
            return max(legal_actions, key=lambda m: len(view["pool"][m.args[0]]))
        if step == "answer":
            return self._answer(view, by_kind)
        if step == "plan":
            return self._plan(view, me, by_kind)
        if step == "treat":
            return by_kind["treat"][0] if "treat" in by_kind else by_kind["done"][0]
        if step == "choose":
            return self._choose(view, me, by_kind)
        if step == "flip":
            ex = view["exploration"]
            cats = len(ex["catastrophes"])
            if "redraw" in by_kind and cats > self._capacity(me):
                return by_kind["redraw"][0]
            return by_kind["resolve"][0]
        if step in ("combat", "collapse"):
            return self._fight(view, me, by_kind, step)
        if step == "rescue":
            return self._rescue(view, me, by_kind)
        if step == "limit":
            return min(by_kind["return"], key=self._keep_value)
        if step == "hunger":
            if "eat" in by_kind:
                return min(by_kind["eat"], key=self._cost)
            return by_kind.get("starve", legal_actions)[0]
        return legal_actions[-1]

    def _keep_value(self, move: Move) -> float:
        ctype = move.args[0]
        if self._cards[ctype].kind == CATASTROPHE:
            return -10.0
        return self._worth[ctype]

    # -------------------------------------------------------------------------- plan
    def _food(self, hand: Sequence[str]) -> int:
        return sum(map(self._is_food, hand))

    def _plan(self, view, me, by_kind) -> Move:
        treat = [m for m in by_kind.get("use", ())
                 if self._points(m, "medical") or self._points(m, "trash_catastrophe")]
        if treat:  # medical against catastrophes in hand
            return min(treat, key=self._cost)
        if "trade" in by_kind and self._food(me["hand"]) == 0:
            players = view["players"]
            offers = []
            for m in by_kind["trade"]:
                partner, given, received = m.args
                got = self._cards[received]
                if got.subtype != FOOD:
                    continue
                if self._food(players[partner]["hand"]) < 2:
                    continue
                gave = self._cards[given]
                offers.append((gave.subtype == FOOD, self._keep_value_type(given), m))
            if offers:
                return min(offers, key=lambda o: (o[0], o[1]))[2]
        return by_kind["pass"][0]

    def _keep_value_type(self, ctype: int) -> float:
        return self._worth[ctype]

    def _answer(self, view, by_kind) -> Move:
        offer = view["offer"]
        me = view["players"][self.seat]
        wanted = self._card(offer["receive"])
        if wanted.subtype == FOOD and self._food(me["hand"]) <= 1:
            return by_kind["decline"][0]
        weapons = sum(1 for n in me["hand"] if self._card(n).subtype == WEAPON)
        offered = self._card(offer["give"])
        if wanted.subtype == WEAPON and weapons <= 1 and offered.subtype != WEAPON:
            return by_kind["decline"][0]
        return by_kind["accept"][0]

    # ----------------------------------------------------------------------- explore
    def _choose(self, view, me, by_kind) -> Move:
        danger = self._danger(me)
        margin = DEADLY - 1 - danger  # catastrophes it may still suffer and live
        capacity = self._capacity(me)
        locations = view["locations"]
        in_play_vp = sum(loc["vp"] for loc in locations)
        best, best_value = None, float("-inf")
        for m in by_kind.get("explore", ()):
            pos, k = m.args
            loc = locations[pos]
            cards = max(loc["cards"], 1)
            k_eff = 3.5 if k == 0 else min(k, cards)
            rate = loc["tokens"] / cards
            expected = k_eff * rate
            progress = expected * loc["vp"] / max(loc["tokens"], 1) if pos else 0.0
            loot = k_eff * (1 - rate) * LOOT
            suffered = max(0.0, expected - capacity)
            value = progress + loot - SUFFER * suffered
            if suffered > margin:
                value -= DEATH * (suffered - margin)
            if value > best_value:
                best, best_value = m, value
        if "new" in by_kind:
            value = NEW + (NEW if in_play_vp < view["target_vp"] + 4 else 0.0)
            if margin <= 0:
                value -= DEATH / 2
            if value > best_value:
                best, best_value = by_kind["new"][0], value
        if best is None:
            return (by_kind.get("skip") or by_kind.get("stabilize") or [None])[0] or \
                next(iter(by_kind.values()))[0]
        return best

    def _fight(self, view, me, by_kind, step) -> Move:
        ex = view["exploration"]
        danger = self._danger(me)
        if step == "combat":
            need = ex["difficulty"] - ex["paid"]
            pays = by_kind.get("use", [])
            total = sum(self._points(m, "weapon") for m in pays)
            if total >= need and pays:
                enough = [m for m in pays if self._points(m, "weapon") >= need]
                if enough:
                    return min(enough, key=self._cost)
                return max(pays, key=lambda m: self._points(m, "weapon"))
        elif "use" in by_kind:
            return min(by_kind["use"], key=self._cost)
        if danger >= DEADLY - 1 and "stabilize" in by_kind:
            return min(by_kind["stabilize"], key=self._cost)
        return by_kind["suffer"][0]

    def _rescue(self, view, me, by_kind) -> Move:
        ex = view["exploration"]
        room = self.game.params["hand_size"] - len(me["hand"])
        spare = len(ex["salvage"]) - max(room, 0)
        if spare > 0:
            gifts = [m for m in by_kind.get("give", ()) if m.args[1]]
            if gifts:
                return min(gifts, key=lambda m: self._keep_value_type(m.args[0]))
        return by_kind["done"][0]
