"""Epoch Ellipse: the PLAN phase (trades, medical treatment, card draw, charms, passes), as
steps of the state.

Rules: seeds/epoch-ellipse.txt 2. PLAN; decisions EPE-6, EPE-7, EPE-25 in
docs/rules/epoch-ellipse.md. :class:`PlanSteps` is a mixin of
:class:`~meeple.games.epoch_ellipse.rules.EpochState` (it adds behaviour, the state holds the
fields), like :class:`~meeple.games.epoch_ellipse.night.NightSteps`.
"""

from __future__ import annotations

from typing import Any

from meeple.games.epoch_ellipse.effects import apply_effect


class PlanSteps:
    """The PLAN phase's moves (module docstring)."""

    __slots__ = ()

    def _do_pass(self: Any, seat: int, args: tuple) -> None:
        self.passes += 1
        self.turn = self._next_alive(seat)

    def _do_trade(self: Any, seat: int, args: tuple) -> None:
        partner, given, received = args
        self.offer = (seat, partner, given, received)
        self.traded.add((min(seat, partner), max(seat, partner)))  # one offer a pair (EPE-7)
        self.step = "answer"

    def _do_accept(self: Any, seat: int, args: tuple) -> None:
        proposer, partner, given, received = self.offer
        a = self.take_from_hand(proposer, given)
        b = self.take_from_hand(partner, received)
        self.hands[proposer].append(b)
        self.hands[partner].append(a)
        packs = self.packs
        if packs is not None:
            held = self.game.counts.held
            packs[proposer] += held[b]
            packs[partner] += held[a]
        if self.narrate:
            self.log(proposer, f"trades {self.name(a)} to Seat {partner} for {self.name(b)}")
        self._close_offer()

    def _do_decline(self: Any, seat: int, args: tuple) -> None:
        proposer, partner, given, received = self.offer
        if self.narrate:
            self.log(partner, f"declines Seat {proposer}'s offer")
        self._close_offer()

    def _close_offer(self: Any) -> None:
        proposer = self.offer[0]
        self.offer = None
        self.step = "plan"
        self.passes = 0
        self.turn = self._next_alive(proposer)

    def _do_use(self: Any, seat: int, args: tuple) -> None:
        if self.step == "plan":  # medical to trash catastrophes from hand (2. PLAN), draws
            points = self.use_card(seat, args, seat)
            deck = self.draws[seat]
            packs = self.packs
            for _ in range(min(points.get("draw", 0), len(deck))):
                card = deck.pop()
                self.hands[seat].append(card)
                if packs is not None:  # still the seat's: into the near part
                    packs[seat] += self.game.counts.packed[card]
            self.enforce_limit_outside(seat)
            self.credits = points.get("medical", 0) + points.get("trash_catastrophe", 0)
            self.step = "treat"
            self.passes = 0
            return
        self.pay(seat, args)  # exploration and hunger payments (explore.py)

    def _do_treat(self: Any, seat: int, args: tuple) -> None:
        card = self.take_from_hand(seat, args[0])
        self.trash(card)
        if self.narrate:
            self.log(seat, f"treats and trashes {self.name(card)}")
        self.credits -= 1

    def _do_done(self: Any, seat: int, args: tuple) -> None:
        if self.step == "treat":
            self.credits = 0
            self.step = "plan"
        else:
            self.done_step(seat)

    def _do_charm(self: Any, seat: int, args: tuple) -> None:
        """A CHARM: its effect, then the discard pile (EPE-25); a Mournful Sacrifice's charm
        is played for the acting seat and then trashed (EPE-6)."""
        if args[0] == "ms":
            card, self.ms_card[args[1]] = self.ms_card[args[1]], None
        else:
            card = self.take_from_hand(seat, args[0])
        info = self.card(card)
        if self.narrate:
            self.log(seat, f"plays the charm {info.name}")
        apply_effect(self, info.effect, info.params, seat, "curse")
        if args[0] == "ms" or self.status[seat] != "alive":
            self.trash(card)
        else:
            self.to_discard(seat, card, "curse")

    def _plan_over(self: Any) -> bool:
        alive = self.status.count("alive")
        return self.step == "plan" and self.passes >= alive
