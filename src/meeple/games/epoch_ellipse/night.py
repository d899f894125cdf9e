"""Epoch Ellipse: the turn from one day to the next (REST, then WAKE UP), as steps of the state.

One job: close a day and open the next. REST resolves the night card, discards the hands (a
third catastrophe kills), reshuffles, trashes Mournful cards and rotates the first player;
WAKE UP lets the dead take over survivor piles in death order (``pick``), makes Mournful
Sacrifices of the rest, checks the loss and draws the hands.

Rules: seeds/epoch-ellipse.txt 1. WAKE UP, 5. REST and DEATH (the takeover of a survivor
pile); decisions EPE-5, EPE-6, EPE-29, EPE-32, EPE-33, EPE-37, EPE-38, EPE-46 and EPE-59 in
docs/rules/epoch-ellipse.md. :class:`NightSteps` is a mixin of
:class:`~meeple.games.epoch_ellipse.rules.EpochState` (it adds behaviour, the state holds the
fields), like :class:`~meeple.games.epoch_ellipse.explore.ExploreSteps`.
"""

from __future__ import annotations

from typing import Any

from meeple.engine.rng import shuffle
from meeple.games.epoch_ellipse.cards import NIGHT, SALVAGE
from meeple.games.epoch_ellipse.effects import apply_effect


class NightSteps:
    """REST and WAKE UP, and the ``pick`` of a survivor pile (module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------------- wake up
    def _wake(self: Any) -> None:
        """WAKE UP: replacements in death order (EPE-38), the loss check (EPE-29), draws.

        Stops at the ``pick`` step while a dead seat may take a pile; otherwise ends the game
        as lost, or opens the PLAN phase. Changes the state, returns nothing."""
        if self.queue and self.pool:
            self.phase, self.step = "wake", "pick"
            return
        for seat in self.queue:  # no pile left: a Mournful Sacrifice today (EPE-6)
            self.status[seat] = "mournful"
            card = self.draw_shared(SALVAGE)
            self.ms_card[seat] = card
            if card is not None:
                if self.narrate:
                    self.log(seat, f"is a Mournful Sacrifice with {self.name(card)}")
        if "alive" not in self.status:
            self.result, self.cause = "lost", self._last_cause()
            self.phase = self.step = "over"
            if self.narrate:
                self.log(-1, "no survivor is left alive: the team loses")
            return
        size = self.game.params["hand_size"]
        packs = self.packs
        packed = None if packs is None else self.game.counts.packed
        for seat in self.seat_order():
            if self.status[seat] == "alive":
                deck = self.draws[seat]
                cut = len(deck) - min(size, len(deck))  # short draws (EPE-5)
                drawn = deck[cut:]
                drawn.reverse()  # the top card first
                del deck[cut:]
                self.hands[seat].extend(drawn)
                if packs is not None:  # into the near part
                    packs[seat] += sum(map(packed.__getitem__, drawn))
        self.phase, self.step = "plan", "plan"
        self.turn = self._next_alive(self.first, include=True)
        self.passes = 0
        self.traded = set()

    def _last_cause(self: Any) -> str:
        """The cause of the loss: that of the last death in the queue, else starvation."""
        deaths = [s for s in self.queue if self.death_cause[s]]
        return self.death_cause[deaths[-1]] if deaths else "starvation"

    def _do_pick(self: Any, seat: int, args: tuple) -> None:
        """``seat`` (first in the death queue) takes survivor pile ``args[0]`` of the pool:
        the pile and 2 salvage cards, shuffled, are its new deck (DEATH; EPE-38)."""
        pile = self.pool.pop(args[0])
        deck = list(pile)
        for _ in range(2):  # + 2 cards from the Salvage deck (DEATH; EPE-38)
            card = self.draw_shared(SALVAGE)
            if card is not None:
                deck.append(card)
        shuffle(self.rng, deck)
        self.draws[seat] = deck
        if self.packs is not None:
            self.packs[seat] = self.game.counts.seat(self.hands[seat], self.discards[seat], deck)
        self.status[seat] = "alive"
        self.death_cause[seat] = None
        self.queue.remove(seat)
        if self.narrate:
            self.log(seat, f"takes over {self.name(pile[0])}")

    # ----------------------------------------------------------------------------- rest
    def _rest(self: Any) -> None:
        """REST: the night card (EPE-32), hands discarded and deaths checked, reshuffles
        (EPE-33), Mournful cards trashed, the first player rotates; then the next day.

        Ends the game when the night card wins it or the day cap is reached (truncated);
        otherwise the next day's WAKE UP follows. Changes the state, returns nothing."""
        reader = self._next_alive(self.first, include=True)
        card = self.draw_shared(NIGHT)
        if card is not None and self.status[reader] == "alive":
            info = self.card(card)
            if self.narrate:
                self.log(reader, f"draws the night card {info.name}")
            apply_effect(self, info.effect, info.params, reader, "curse")
            self.night_discard.append(card)
        elif card is not None:
            self.night_discard.append(card)
        if self.result is not None:  # a night card won the game: it ends at once (EPE-27)
            return
        packs = self.packs
        for seat in self.seat_order():
            if self.status[seat] == "alive":
                hand = self.hands[seat]  # card by card: a death takes the rest (EPE-37)
                while hand:
                    c = hand.pop(0)  # into its own discard pile
                    if self.to_discard(seat, c, self.card(c).subtype.lower() or "collapse",
                                       True):
                        break
            if self.status[seat] == "alive":
                if packs is not None:  # the discard pile into the deck, the hand empty:
                    packs[seat] &= self.game.counts.deck_mask  # the near part is 0
                deck = self.draws[seat] + self.discards[seat]
                self.discards[seat] = []
                shuffle(self.rng, deck)
                self.draws[seat] = deck
            if self.ms_card[seat] is not None:
                self.trash(self.ms_card[seat])
                self.ms_card[seat] = None
            if self.status[seat] == "mournful":
                self.status[seat] = "dead"  # still waiting for a survivor (EPE-38)
        if self.result is not None:
            return
        self.first = (self.first + 1) % self.game.players
        if self.day >= self.game.params["max_days"]:
            self.result, self.cause = "truncated", "truncation"
            self.phase = self.step = "over"
            if self.narrate:
                self.log(-1, "the day cap is reached (truncated: a loss)")
            return
        self.day += 1
        self._wake()
