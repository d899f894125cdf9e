"""Ozymandias, campaign edition: the mode choice and the two modes that move cubes, Intake and
Migration, as steps of the state.

One job: a turn from its ``mode`` step until the Campaign mode or the turn's end. Intake
``distribute``s the incoming cubes (``pass`` sends the rest right), collapses and scores the
tapped cards, ``recover``s colony workers and draws up to the hand size; Migration ``move``s
(or ``keep``s) cubes card by card from the right-most, returns unrest, then ``recover``s
standing and harvest workers or is ``done``.

Rules: seeds/ozymandias-campaign.md, Game Sequence; decisions OZW-7..OZW-19 and OZW-40 in
docs/rules/ozymandias-campaign.md. :class:`ModeSteps` is a mixin of
:class:`~meeple.games.ozymandias_campaign.rules.CampaignState` (it adds behaviour, the state
holds the fields), like Epoch Ellipse's ``NightSteps``: the state's ``_do_<kind>`` table
(``rules._TRANSITIONS``) finds these transitions through the class.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from meeple.games.ozymandias_campaign.moves import CARD, CUBES, HARVEST, LAID, TAPPED, cube_count
from meeple.games.ozymandias_campaign.scoring import collapse_points
from meeple.games.ozymandias_campaign.vocab import SUITS

SUIT_COUNT = len(SUITS)


class ModeSteps:
    """The ``mode`` choice, then the Intake and Migration steps (module docstring). Each
    ``_do_<kind>(seat, args)`` applies one legal move of that kind; each ``_finish_`` step
    closes its mode. They change the state and return nothing."""

    __slots__ = ()

    # -------------------------------------------------------------------------- modes
    def _do_intake(self: Any, seat: int, args: tuple) -> None:
        if self.narrate:
            self._log(seat, "takes the intake mode")
        self.step = "distribute"

    def _do_migrate(self: Any, seat: int, args: tuple) -> None:
        if self.narrate:
            self._log(seat, "takes the migration mode")
        self.step = "migrate"
        self.mig_pos = len(self.tableaus[seat]) - 1
        self.mig_out = [0] * SUIT_COUNT

    def _do_campaign(self: Any, seat: int, args: tuple) -> None:
        if self.narrate:
            self._log(seat, "takes the campaign mode")
        self.step = "campaign"

    # ------------------------------------------------------------------------- intake
    def _do_cube(self: Any, seat: int, args: tuple) -> None:
        suit, pos = args
        self.incoming[seat][suit] -= 1
        self.tableaus[seat][pos][CUBES + suit] += 1

    def _do_pass(self: Any, seat: int, args: tuple) -> None:
        """Intake (a): undistributed cubes continue to the right neighbour, then (b)."""
        right, incoming = self.right_of(seat), self.incoming[seat]
        if any(incoming):
            if self.narrate:
                self._log(seat, "passes " + _cubes_text(tuple(incoming)) + f" to Seat {right}")
        for s in range(SUIT_COUNT):
            self.incoming[right][s] += incoming[s]
            incoming[s] = 0
        self._collapse(seat)

    def _collapse(self: Any, seat: int) -> None:
        """Intake (b): every tapped card collapses and may score (Collapse; OZW-7..10,
        OZW-19); one colony worker is owed back per discarded card (OZW-18)."""
        p = self.game.params
        cards = self.game.cards
        kept, discarded = [], 0
        for row in self.tableaus[seat]:
            if not row[TAPPED]:
                kept.append(row)
                continue
            card = cards[row[CARD]]
            cubes = row[CUBES:CUBES + SUIT_COUNT]
            gain = collapse_points(card.suit, card.rank, cubes, self.unrest[seat],
                                   bool(row[HARVEST]), bool(row[LAID]), p["threshold"],
                                   p["bonus_from_zero"])
            self.vp[seat] += gain
            self.supply[seat] += row[LAID] + row[HARVEST]
            for s in range(SUIT_COUNT):
                if p["collapse_cubes"] == "pass_right":
                    self.incoming[self.right_of(seat)][s] += cubes[s]
                else:
                    self.cubes_out[s] += cubes[s]
            self.discard.append(row[CARD])
            discarded += 1
            if self.narrate:
                self._log(seat, f"collapses {self.card_text(row[CARD])} "
                                f"({_cubes_text(tuple(cubes))}): +{gain} VP")
        self.tableaus[seat] = kept
        if self.trigger is None and self.vp[seat] >= p["target_vp"]:  # Victory (OZW-38)
            self.trigger, self.last_seat = seat, self.right_of(seat)
            if self.narrate:
                self._log(seat, f"reaches {self.vp[seat]} VP: every other seat takes one more "
                                "turn")
        if p["colony_recovery"] == "bag":
            moved = min(discarded, self.bag[seat])
            self.bag[seat] -= moved
            self.supply[seat] += moved
            self.owed = 0
        else:
            self.owed = discarded
        self.step = "recover_colony"

    def _do_recover(self: Any, seat: int, args: tuple) -> None:
        if self.step == "recover_colony":  # the lowest of your workers there (OZW-18)
            (point,) = args
            stack = self.stacks[point]
            at = stack.index(seat)  # the lowest: list.remove's, on a new list (CampaignState)
            if len(stack) == 1:
                del self.stacks[point]
            else:
                self.stacks[point] = stack[:at] + stack[at + 1:]
            self.supply[seat] += 1
            self.owed -= 1
            if self.narrate:
                self._log(seat, f"recovers a colony worker from {point}")
            return
        if args[0] == "card":  # migration: a harvest worker (OZW-16)
            self.tableaus[seat][args[1]][HARVEST] = 0
            if self.narrate:
                self._log(seat, f"recovers the harvest worker of card {args[1] + 1}")
        else:
            del self.standing[args[0]]
            if self.narrate:
                self._log(seat, f"recovers the worker standing on {args[0]}")
        self.supply[seat] += 1

    def _do_done(self: Any, seat: int, args: tuple) -> None:
        if self.step == "recover_colony":
            self._finish_intake(seat)
        else:
            self._end_turn()

    def _finish_intake(self: Any, seat: int) -> None:
        """Intake (c) tap every card without cubes, (d) draw up to the hand size."""
        self.owed = 0
        for row in self.tableaus[seat]:
            if not cube_count(row):
                row[TAPPED] = 1
        hand = self.hands[seat]
        while len(hand) < self.game.params["hand_size"]:
            card = self._draw()
            if card is None:
                break
            hand.append(card)
        self._end_turn()

    # ---------------------------------------------------------------------- migration
    def _do_move(self: Any, seat: int, args: tuple) -> None:
        suit, dest = args
        tableau = self.tableaus[seat]
        tableau[self.mig_pos][CUBES + suit] -= 1
        if dest == -1:
            self.incoming[self.right_of(seat)][suit] += 1
            self.mig_out[suit] += 1
        else:
            tableau[dest][CUBES + suit] += 1

    def _do_keep(self: Any, seat: int, args: tuple) -> None:
        self.mig_pos -= 1  # free migration: the rest stays (e935810)

    def _finish_migration(self: Any, seat: int) -> None:
        """Return unrest for what went right (OZW-13, OZW-15), then recover workers."""
        out = self.mig_out
        if any(out):
            per_cube = self.game.params["unrest_return"] == "per_cube"
            back = sum(out) if per_cube else sum(1 for k in out if k)
            if self.narrate:
                self._log(seat, f"gives {_cubes_text(tuple(out))} to Seat {self.right_of(seat)}; "
                                f"returns {min(back, self.unrest[seat])} unrest")
            self.unrest[seat] = max(0, self.unrest[seat] - back)
        self.mig_out = [0] * SUIT_COUNT
        self.mig_pos = -1
        self.step = "recover_standing"


@lru_cache(maxsize=4096)
def _cubes_text(cubes: tuple[int, ...]) -> str:
    """``2G 1B`` (``none`` when empty): the cube counts per suit as the event log writes them.
    Remembered (a pure function of a few small counts; an intake's ``pass`` writes one at
    every search step that ends a distribution)."""
    parts = [f"{k}{SUITS[s][0]}" for s, k in enumerate(cubes) if k]
    return " ".join(parts) or "none"
