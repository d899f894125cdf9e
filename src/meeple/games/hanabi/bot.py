"""The heuristic bot (docs/rules/hanabi.md, "Bot"), in the spirit of the published rule-based
players: play what is known playable, hint playable cards, protect the card a seat would
discard next when it is critical, discard what is known useless, else the oldest card no hint
touched. It reads only its seat's view, and remembers which of its cards hints touched since
its last turn (the convention below needs when a card was touched, which the view does not
keep).

The convention every heuristic seat follows: a hint may newly touch only cards that are
playable now or that the receiver can tell are not playable (from the hint, the fireworks and
the cards out of play); a newly touched card the receiver finds possibly playable is marked
to be played, any other to be kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine import Bot, KindAction
from meeple.games.hanabi.rules import knowledge_of


def touched(known: str) -> bool:
    """Whether a knowledge text (``"RYG12"``) names a single colour or a single rank."""
    return sum(c.isalpha() for c in known) == 1 or sum(c.isdigit() for c in known) == 1


class Table:
    """What a seat's view says about cards: fireworks' heights, the cards out of play, the
    cards the seat sees, and which cards are playable, useless or critical."""

    def __init__(self, game: Any, view: Mapping[str, Any], seat: int) -> None:
        self.game, self.total = game, Counter(game.card_names)
        self.height = dict.fromkeys(game.colours, 0)
        for name in view["fireworks"]:
            self.height[name[0]] = int(name[1:])
        self.gone = Counter(view["fireworks"]) + Counter(view["discard"])
        self.seen = self.gone + Counter(c for s, h in enumerate(view["hands"])
                                        if s != seat and h for c in h)
        self.discarded = Counter(view["discard"])

    def playable(self, name: str) -> bool:
        return self.height[name[0]] == int(name[1:]) - 1

    def useless(self, name: str) -> bool:
        """Already played, or some lower card of its colour is all discarded."""
        colour, rank = name[0], int(name[1:])
        return rank <= self.height[colour] or any(
            self.discarded[f"{colour}{r}"] == self.total[f"{colour}{r}"]
            for r in range(self.height[colour] + 1, rank))

    def critical(self, name: str) -> bool:
        return not self.useless(name) and self.total[name] - self.discarded[name] == 1

    def candidates(self, known: str, counted: Counter) -> list[str]:
        """The card names a knowledge text allows that ``counted`` does not account for."""
        return [f"{c}{r}" for c in known if c.isalpha() for r in known if r.isdigit()
                if counted[f"{c}{r}"] < self.total[f"{c}{r}"]]


class HeuristicBot(Bot):
    """Plays known or marked playable cards, gives the hint that marks the most playable
    cards (the next seats first), protects a critical card about to be discarded, discards
    known useless cards, else its oldest untouched card."""

    name = "heuristic"

    def __init__(self, game: Any, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        self.after: list[str] | None = None  # my knowledge just after my last move
        self.marks: list[str | None] = []
        self.turn = -1

    def _update_marks(self, mine: list[str], table: Table) -> None:
        """Mark the cards hints touched since my last turn: play if possibly playable."""
        if self.after is None or len(self.after) != len(mine):
            self.after, self.marks = [self.game.colours + self.game.ranks] * len(mine), \
                [None] * len(mine)
        chop = self._chop(self.after, self.marks)
        focus = None
        for i, (before, now) in enumerate(zip(self.after, mine, strict=True)):
            if touched(now) and not touched(before):
                options = table.candidates(now, table.seen)
                self.marks[i] = "keep"
                if any(map(table.playable, options)) and (
                        i != chop or all(map(table.playable, options))):
                    focus = i
        if focus is not None:
            self.marks[focus] = "play"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[KindAction]) -> KindAction:
        game, seat = self.game, self.seat
        if view["turns"] < self.turn:
            self.after = None
        self.turn = view["turns"]
        table = Table(game, view, seat)
        view = {**view, "knowledge": [[knowledge_of(n, game.colours, game.ranks) for n in ns]
                                      for ns in view["notes"]]}
        mine = view["knowledge"][seat]
        self._update_marks(mine, table)
        choice = self._choose(view, legal_actions, table, mine)
        self.after, self.marks = list(mine), list(self.marks)
        if choice.kind != "hint":
            del self.after[choice.args[0]], self.marks[choice.args[0]]
            if view["deck_size"]:
                self.after.append(game.colours + game.ranks)
                self.marks.append(None)
        return choice

    def _choose(self, view: Mapping[str, Any], legal: Sequence[KindAction], table: Table,
                mine: list[str]) -> KindAction:
        by_text = {str(m): m for m in legal}
        options = [table.candidates(k, table.seen) or table.candidates(k, table.gone)
                   for k in mine]
        # 1. a card known playable, or marked and possibly playable: the lowest rank first
        plays = [(min(int(n[1:]) for n in o), i) for i, o in enumerate(options)
                 if all(map(table.playable, o)) or
                 (self.marks[i] == "play" and  # at the last life, only if likely
                  sum(map(table.playable, o)) > len(o) / 2 * (view["lives"] == 1))]
        if plays:
            return by_text[f"play {min(plays)[1]}"]
        hints = [m for m in legal if m.kind == "hint"]
        can_discard = "discard 0" in by_text
        # 2. the hint marking the most playable cards
        values = [vm for vm in self._hint_values(view, hints, table) if vm[0] >= 0]
        best = max(values, key=lambda vm: vm[0]) if values else None
        if best is not None and best[0] > 0:
            return best[1]
        # 3. protect a critical card about to be discarded, the next seats first
        for k in range(1, self.game.players if hints else 1):
            nxt = (self.seat + k) % self.game.players
            chop = self._chop(view["knowledge"][nxt])
            if chop is not None and table.critical(view["hands"][nxt][chop]):
                card = view["hands"][nxt][chop]
                saves = [(v, m) for v, m in values if m.args[0] == nxt and (
                    card[0] == self.game.colour_of.get(m.args[1]) or card[1:] == m.args[1])]
                if saves:
                    return max(saves, key=lambda vm: vm[0])[1]
                break
        # in the final round, with a life to spare, the likeliest playable card
        if view["final_turns"] is not None and view["lives"] > 1:
            odds = [(sum(map(table.playable, o)) / max(len(o), 1), i)
                    for i, o in enumerate(options)]
            if max(odds)[0] > 0:
                return by_text[f"play {max(odds)[1]}"]
        # 4. discard a known useless card, else the oldest untouched one
        if can_discard:
            dead = [i for i, o in enumerate(options) if all(map(table.useless, o))]
            if dead:
                return by_text[f"discard {dead[0]}"]
            chop = self._chop(mine, self.marks)
            if chop is not None:
                return by_text[f"discard {chop}"]
        if best is not None:
            return best[1]
        if can_discard:  # every card touched: the one least likely to be critical
            risk = [(sum(map(table.critical, o)) / max(len(o), 1), i)
                    for i, o in enumerate(options)]
            return by_text[f"discard {min(risk)[1]}"]
        return by_text[f"play {len(mine) - 1}"]

    @staticmethod
    def _chop(known: list[str], marks: Sequence[str | None] = ()) -> int | None:
        """The oldest card no hint touched (the one its holder discards next)."""
        return next((i for i, k in enumerate(known) if not touched(k) and
                     (i >= len(marks) or marks[i] is None)), None)

    def _hint_values(self, view: Mapping[str, Any], hints: Sequence[KindAction],
                     table: Table) -> list[tuple[float, KindAction]]:
        """Each hint's value: -1 if it would mark a card that is not playable for play (the
        convention), else the playable cards it newly touches, the nearer seats and lower
        ranks first (0: a hint that marks nothing)."""
        n, out = self.game.players, []
        chops = {s: self._chop(view["knowledge"][s]) for s in range(n) if s != self.seat}
        marked = Counter(view["hands"][s][i] for s in range(n) if s != self.seat
                         for i, k in enumerate(view["knowledge"][s]) if touched(k))
        for hint in hints:
            other, word = hint.args
            letter = self.game.colour_of.get(word, word)
            hand, known = view["hands"][other], view["knowledge"][other]
            value, distance, focus = 0.0, (other - self.seat) % n, None
            for i, (name, k) in enumerate(zip(hand, known, strict=True)):
                hit = name[0] == letter or name[1:] == letter
                keep = self.game.colours if letter.isalpha() else self.game.ranks
                after = "".join(x for x in k if x not in keep or (x == letter) == hit)
                public = table.candidates(after, table.gone)
                if touched(k) and table.playable(name) and marked[name] <= 1 and all(
                        map(table.playable, public)) and not all(
                        map(table.playable, table.candidates(k, table.gone))):
                    value += 9 - int(name[1:]) - distance / n  # now known playable
                if touched(k) or not touched(after):
                    continue
                if i == chops[other] and not all(map(table.playable, public)):
                    continue  # a save: the receiver keeps its chop card
                if any(map(table.playable, public)):
                    focus = (name, i)  # the newest possibly playable card: to be played
            if focus is not None:
                name = focus[0]
                if table.playable(name) and marked[name] == 0:
                    value += 10 - int(name[1:]) - distance
                else:
                    value = -1.0
            out.append((value, hint))
        return out
