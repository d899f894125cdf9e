"""Epoch Ellipse: exploring (3A-3G), paying with cards, and HUNGER, as steps of the state.

Rules: seeds/epoch-ellipse.txt 3. EXPLORE, COMBAT, 4. HUNGER; decisions EPE-12..EPE-31,
EPE-36, EPE-41..EPE-43, EPE-50 in docs/rules/epoch-ellipse.md. :class:`ExploreSteps` is a
mixin of :class:`~meeple.games.epoch_ellipse.rules.EpochState` (it adds behaviour, the state
holds the fields).

Steps: ``choose`` (new / explore / skip), ``flip`` (a 3B exploration is face up and the
explorer holds a redraw card: ``redraw`` or ``resolve``), ``combat`` and ``collapse`` (pay or
``suffer``), ``rescue`` (give salvage to a found survivor, ``done``), ``limit`` (return cards
over the hand limit), ``hunger`` (``eat`` or ``starve``). Catastrophes resolve in the order
they were flipped, then survivors, then salvage (3B; EPE-17 as built: flip order).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.rng import shuffle
from meeple.games.epoch_ellipse.cards import CATASTROPHE, COMBAT, CURSE, SALVAGE, SURVIVOR
from meeple.games.epoch_ellipse.effects import apply_effect


class ExploreSteps:
    """Exploration, payments and hunger (module docstring)."""

    __slots__ = ()

    # ---------------------------------------------------------------------- bookkeeping
    def _reset_exploration(self: Any) -> None:
        self.explorer, self.expl_pos, self.expl_k, self.expl_new = -1, -1, 0, False
        self.expl_cats: list[int] = []
        self.expl_survivors: list[int] = []
        self.expl_salvage: list[int] = []
        self.current: int | None = None
        self.paid = 0
        self.rescue: list[int] | None = None

    def next_explorer(self: Any) -> None:
        """The next alive player in turn explores; after the last, HUNGER."""
        self._reset_exploration()
        while self.explore_queue:
            seat = self.explore_queue.pop(0)
            if self.status[seat] == "alive":
                self.explorer = self.turn = seat
                self.step = "choose"
                return
        self.phase, self.step = "hunger", "hunger"
        self.hungry = self.alive_in_order()

    def explore_settle(self: Any) -> bool:
        """Automatic explore steps; True when a seat must decide now."""
        if self.step == "next":
            self.next_explorer()
            return False
        if self.step == "rescue" and not self.giftable(self.explorer):
            self._finish_rescue()
            self.resolve_next()
            return False
        if self.step == "limit" and len(self.hands[self.explorer]) <= self.hand_limit():
            self.step = "next"
            return False
        return True

    def hand_limit(self: Any) -> int:
        return self.game.params["hand_size"]

    def giftable(self: Any, seat: int) -> bool:
        if self.expl_salvage:
            return True
        kinds = self.game.kinds
        for c in self.hands[seat]:
            if kinds[c] == SALVAGE:
                return True
        return False

    # ---------------------------------------------------------------------- 3A and 3B
    def _do_new(self: Any, seat: int, args: tuple) -> None:
        """3A: a NEW LOCATION, then its top card is drawn and resolved (EPE-14)."""
        pos = self.build_location(self.location_deck.pop())
        if self.narrate:
            self.log(seat, f"explores a new location: {self.location_name(pos)} "
                           f"({self.tokens[pos]} catastrophe tokens)")
        self.expl_new = True
        self._flip(seat, pos, 1)
        if self.result is None:
            self.resolve_next()

    def _do_explore(self: Any, seat: int, args: tuple) -> None:
        """3B: shuffle the event deck and flip k cards (EPE-15, EPE-16)."""
        pos, k = args
        shuffle(self.rng, self.event_decks[pos])
        if k == 0:  # explore_count=d6
            k = self.rng.randint(1, 6)
        if self.narrate:
            self.log(seat, f"explores {self.location_name(pos)}, {k} card(s)")
        self._flip(seat, pos, k)
        if self.result is not None:
            return
        cards, ctype = self.game.content.cards, self.game.ctype
        for c in self.hands[seat]:  # a JUSTICE LIN in hand: redraw or resolve (EPE-43)
            if cards[ctype[c]].discard.get("redraw"):
                self.step = "flip"
                return
        self.resolve_next()

    def _flip(self: Any, seat: int, pos: int, k: int) -> None:
        deck = self.event_decks[pos]
        cut = len(deck) - min(k, len(deck))
        flipped = deck[cut:]  # the top k cards, in the order they are drawn (top first)
        flipped.reverse()
        del deck[cut:]
        self.explorer, self.expl_pos, self.expl_k = seat, pos, k
        cats, survivors, salvage = [], [], []
        kinds = self.game.kinds
        for c in flipped:  # a plain loop: comprehensions cost a frame each in 3.11
            kind = kinds[c]
            if kind == CATASTROPHE:
                cats.append(c)
            elif kind == SURVIVOR:
                survivors.append(c)
            elif kind == SALVAGE:
                salvage.append(c)
        self.tokens[pos] -= len(cats)  # 3C: tokens follow the cards
        self.expl_cats, self.expl_survivors, self.expl_salvage = cats, survivors, salvage
        if self.narrate:
            self.log(seat, "flips " + (", ".join(map(self.game.labels.__getitem__, flipped))
                                       or "nothing"))
        self.check_win()

    def _do_redraw(self: Any, seat: int, args: tuple) -> None:
        """JUSTICE LIN: put the exploration back, reshuffle, draw again (EPE-43)."""
        card = self.take_type(self.hands[seat], args[0])  # into its own discard pile
        pos, k = self.expl_pos, self.expl_k
        for c in self.expl_cats + self.expl_survivors + self.expl_salvage:
            self.add_to_location(pos, c)
        if self.narrate:
            self.log(seat, f"uses {self.name(card)}: the exploration is drawn again")
        self.to_discard(seat, card, "collapse", True)
        shuffle(self.rng, self.event_decks[pos])
        self._flip(seat, pos, k)
        if self.result is None:
            self.resolve_next()

    def _do_resolve(self: Any, seat: int, args: tuple) -> None:
        self.resolve_next()

    def _do_skip(self: Any, seat: int, args: tuple) -> None:
        if self.narrate:
            self.log(seat, "has nowhere to explore")
        self.step = "next"

    # ------------------------------------------------------------------ 3C, 3D and 3E
    def resolve_next(self: Any) -> None:
        """Resolve the exploration: catastrophes, then survivors, then salvage (3B)."""
        seat = self.explorer
        hand = self.hands[seat]
        while self.result is None:
            if self.status[seat] != "alive":
                self.step = "next"
                return
            if self.expl_cats:
                card = self.expl_cats.pop(0)
                info = self.card(card)
                if info.subtype == CURSE:  # a one-time effect, then the discard pile (EPE-20)
                    if self.narrate:
                        self.log(seat, f"is cursed: {info.name}")
                    apply_effect(self, info.effect, info.params, seat, "curse")
                    if self.status[seat] != "alive":
                        self.trash(card)
                        continue
                    if self.game.params["curse_after"] == "trash":
                        self.trash(card)
                    else:
                        self.to_discard(seat, card, "curse")
                    continue
                self.current, self.paid = card, 0
                self.step = "combat" if info.subtype == COMBAT else "collapse"
                return
            if self.expl_survivors:
                card = self.expl_survivors.pop(0)
                if self.expl_pos == 0:  # found in the Graveyard: dead (EPE-23)
                    if self.narrate:
                        self.log(seat, f"finds {self.name(card)} dead in the Graveyard")
                    if self.game.params["dead_survivor"] == "back":
                        self.add_to_location(0, card)
                    else:
                        self.removed.append(card)
                    trap = self.draw_shared(CATASTROPHE)
                    if trap is not None:
                        self.expl_cats.append(trap)
                    continue
                self.rescue = [card]
                if self.narrate:
                    self.log(seat, f"finds the survivor {self.name(card)}")
                self.step = "rescue"
                return
            if self.expl_salvage:  # 3E: the rest of the salvage to the hand
                hand.extend(self.expl_salvage)
                packs = self.packs
                if packs is not None:
                    held = self.game.counts.held
                    for card in self.expl_salvage:
                        packs[seat] += held[card]
                self.expl_salvage = []
            self.step = "limit" if len(hand) > self.hand_limit() else "next"
            return

    def abort_exploration(self: Any) -> None:
        """The explorer died: the rest of the exploration goes back (EPE-36, EPE-50)."""
        for c in self.expl_cats + self.expl_survivors + self.expl_salvage:
            self.add_to_location(self.expl_pos, c)
        if self.rescue:  # an unfinished gift pile: the survivor is still set aside
            self.pool.append(self.rescue)
        self.expl_cats, self.expl_survivors, self.expl_salvage = [], [], []
        self.current, self.rescue = None, None
        self.step = "next"

    def _do_suffer(self: Any, seat: int, args: tuple) -> None:
        card, self.current = self.current, None
        if self.narrate:
            self.log(seat, f"suffers {self.name(card)}")
        if not self.to_discard(seat, card, self.card(card).subtype.lower()):
            self.resolve_next()

    def pay(self: Any, seat: int, ref: tuple) -> None:
        """A card paid at a combat, a collapse or hunger (COMBAT, 3C, 4. HUNGER)."""
        step = self.step
        points = self.use_card(seat, ref, seat)
        if self.status[seat] != "alive":
            return
        if step == "hunger":
            self.hungry.pop(0)
            return
        if step == "combat":
            self.paid += points.get("weapon", 0)
            if self.paid < self.card(self.current).difficulty:
                return
            if self.narrate:
                self.log(seat, f"defeats {self.name(self.current)}")
        else:
            if self.narrate:
                self.log(seat, f"avoids {self.name(self.current)}")
        self.trash(self.current)  # won or avoided: trashed (EPE-10, EPE-19)
        self.current = None
        self.resolve_next()

    def _do_stabilize(self: Any, seat: int, args: tuple) -> None:
        """3G: each Medical point moves a catastrophe from the discard pile into the deck,
        shuffled (EPE-30)."""
        points = self.use_card(seat, args, seat)
        pile = self.discards[seat]
        moved = [c for c in pile if self.card(c).kind == CATASTROPHE][:points.get("medical", 0)]
        for card in moved:
            pile.remove(card)
            self.draws[seat].append(card)
        if moved and self.packs is not None:  # still the seat's: out of the near part
            self.packs[seat] -= sum(map(self.game.counts.packed.__getitem__, moved))
        shuffle(self.rng, self.draws[seat])
        if self.narrate:
            self.log(seat, f"stabilizes: {len(moved)} catastrophe(s) back into the deck")

    def _do_give(self: Any, seat: int, args: tuple) -> None:
        ctype, from_exploration = args
        if from_exploration:
            card = self.take_type(self.expl_salvage, ctype)
        else:
            card = self.take_from_hand(seat, ctype)
        self.rescue.append(card)

    def done_step(self: Any, seat: int) -> None:
        if self.step == "rescue":
            self._finish_rescue()
            self.resolve_next()

    def _finish_rescue(self: Any) -> None:
        pile, self.rescue = self.rescue, None
        self.pool.append(pile)
        if self.narrate:
            self.log(self.explorer, f"sets {self.name(pile[0])} aside with {len(pile) - 1} "
                                    "card(s)")

    def _do_return(self: Any, seat: int, args: tuple) -> None:
        card = self.take_from_hand(seat, args[0])
        self.add_to_location(self.expl_pos, card)  # over the limit: back, face down (EPE-24)
        if self.narrate:
            self.log(seat, f"returns {self.name(card)} to {self.location_name(self.expl_pos)}")

    def enforce_limit_outside(self: Any, seat: int) -> None:
        """Outside an exploration, cards over the hand limit are discarded (EPE-24)."""
        hand = self.hands[seat]
        while len(hand) > self.hand_limit() and self.status[seat] == "alive":
            card = hand.pop()
            self.to_discard(seat, card, "collapse", True)  # from its own hand

    # -------------------------------------------------------------------------- hunger
    def hunger_settle(self: Any) -> bool:
        """The next hungry player decides; after the last, REST. True when one must."""
        while self.hungry and self.status[self.hungry[0]] != "alive":
            self.hungry.pop(0)
        if self.hungry:
            self.turn = self.hungry[0]
            self.step = "hunger"
            return True
        self._rest()
        return False

    def _do_eat(self: Any, seat: int, args: tuple) -> None:
        self.pay(seat, args)

    def _do_starve(self: Any, seat: int, args: tuple) -> None:
        """No food: the top Catastrophe card goes into the discard pile (4. HUNGER)."""
        self.hungry.pop(0)
        card = self.draw_shared(CATASTROPHE)
        if self.narrate:
            self.log(seat, "goes hungry" + (f": {self.name(card)}" if card is not None else ""))
        if card is not None:
            self.to_discard(seat, card, "starvation")
