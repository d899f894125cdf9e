"""Ozymandias, market edition: the game spec and state transitions.

Rules: seeds/ozymandias-market.md; decisions OZD-1..OZD-31 in docs/rules/ozymandias-market.md.
A round: secret plans (one simultaneous decision), raise in ascending rank (expand or the
card's event; sub-steps for Surge and Augury), trades in descending rank (a mandatory hand
trade, then an optional played-card trade), then collapse, market refresh, hand recovery and
the end check, all automatic. Legal moves live in :mod:`.moves`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.engine.game import Capabilities, Game
from meeple.engine.registry import register
from meeple.engine.rng import shuffle
from meeple.engine.state import State
from meeple.engine.winners import RecordedWinners
from meeple.games.ozymandias_market.actions import Order, card_text, parse_order
from meeple.games.ozymandias_market.cards import COLOURS, EVENTS
from meeple.games.ozymandias_market.content import load_cards
from meeple.games.ozymandias_market.hexes import OPENINGS, Hex, hex_text, parse_hex
from meeple.games.ozymandias_market.moves import legal_orders, legal_tables
from meeple.games.ozymandias_market.variants import PARAMETERS, VARIANTS


@register
class OzymandiasMarket(Game):
    """Ozymandias, market edition, for 2-4 seats; see the module docstring."""

    name = "ozymandias-market"
    title = "Ozymandias (market edition)"
    summary = "2-4 players, secret plans, faction disks on hex sectors, a card market"
    rules_page = "docs/rules/ozymandias-market.md"
    decisions = "meeple.games.ozymandias_market.decisions:decision_help"
    scenario = "meeple.games.ozymandias_market.scenario:build"
    score_name = "VP"
    bots = {"heuristic": "meeple.games.ozymandias_market.bot:HeuristicBot"}
    renderer = "meeple.games.ozymandias_market.render:render_view"
    board = "meeple.games.ozymandias_market.board:content"
    timeout_kinds = ("done", "pass")
    evaluator = "meeple.games.ozymandias_market.evaluate:evaluate"
    encoding = "meeple.games.ozymandias_market.encoding"
    #: ISMCTS settings (docs/bots.md): rollouts cut and scored by the evaluator; 180 iterations
    #: fit a default decision in 50 ms (issue 22, about 45 ms mean at heuristic-game positions,
    #: benchmarks/bench_search.py; 400 before).
    search = {"iterations": 180, "rollout_depth": 8, "exploration": 0.1}
    parameters = PARAMETERS
    variants = VARIANTS
    min_players, max_players, default_players = 2, 4, 3
    __slots__ = ("cards", "card_by_rank", "suit_of", "orders", "legal_memo", "card_names",
                 "card_params", "seats", "colour_of", "evaluate_params", "plans", "trades",
                 "plan_texts")

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        cards = load_cards(self.params["cards"] or None)
        p = self.params
        if p["end"] == "colour_dead" and p["destroyed_to"] != "dead":
            raise ParameterError("end=colour_dead needs destroyed_to=dead: with destroyed disks "
                                 "back in the supply no colour ever dies (OZD-23, OZD-27)")
        need = self.players * p["hand_size"] + p["market_size"]
        if len(cards) < need:
            raise ParameterError(f"the deck has {len(cards)} cards; {self.players} hands of "
                                 f"{p['hand_size']} and a market of {p['market_size']} need "
                                 f"{need}")
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "card_by_rank", {c.rank: c for c in cards})
        object.__setattr__(self, "suit_of", {c.rank: c.suit for c in cards})
        # Tables the transitions read at every step, made once (the rules log card names and
        # read event parameters; ``Card.param`` builds a dict per call).
        object.__setattr__(self, "card_names", {c.rank: card_text(c.rank, c.suit)
                                                for c in cards})
        object.__setattr__(self, "plan_texts", tuple(
            {rank: f"seat {s} {name}" for rank, name in self.card_names.items()}
            for s in range(self.players)))  # the plans' reveal in the event log
        names = {name for e in EVENTS.values() for name in e.params}
        object.__setattr__(self, "card_params", {c.rank: {n: c.param(n) for n in names}
                                                 for c in cards})
        object.__setattr__(self, "seats", tuple(range(self.players)))
        # The evaluator's tables: each rank's colour by list index (ranks absent from the deck
        # hold None), and (max_rounds, target_vp under end=vp, else None).
        colour_of: list[int | None] = [None] * (max(c.rank for c in cards) + 1)
        for c in cards:
            colour_of[c.rank] = c.suit
        object.__setattr__(self, "colour_of", colour_of)
        object.__setattr__(self, "evaluate_params", (
            p["max_rounds"], p["target_vp"] if p["end"] == "vp" else None))
        object.__setattr__(self, "orders", {})  # interned orders of the legal-move generator
        # The same interned orders by seat, then rank (plans) or given and taken card (trades),
        # filled as the generator meets them: its longest lists read them without a key tuple.
        object.__setattr__(self, "plans", tuple({} for _ in self.seats))
        object.__setattr__(self, "trades", tuple({} for _ in self.seats))
        object.__setattr__(self, "legal_memo", {})  # remembered legal tables (moves)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=True,
                            hidden_information=True, chance=True, cooperative=False,
                            max_length=self.params["max_rounds"], length_unit="rounds")

    def new_initial_state(self, seed: int = 0) -> MarketState:
        """Shuffle (seeded), lay the opening sectors, deal the hands and the market."""
        return MarketState(self, seed)

    def parse_action(self, text: str, seat: int) -> Order:
        """Read an action (notation in :mod:`.actions`); legality is checked on apply."""
        self.check_seat(seat)
        return parse_order(text, seat, self.suit_of)

    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"Seat {i}" for i in range(self.players))

    def _determinizer(self, view: Mapping[str, Any]) -> Callable[[random.Random], MarketState]:
        """The view read once, then ``draw(rng)``: a state consistent with it, its hidden parts
        drawn from ``rng`` (:mod:`.determinize`)."""
        from meeple.games.ozymandias_market.determinize import determinizer

        return determinizer(self, view)

    def _validate_data(self, data: Mapping[str, Any]) -> None:
        """Cards in one place, disks add up, phase fits the turn (see :mod:`.validate`)."""
        from meeple.games.ozymandias_market.validate import validate

        validate(self, data)

    def _state_from_data(self, data: Mapping[str, Any]) -> MarketState:
        state = MarketState.__new__(MarketState)
        State.__init__(state, self, 0)
        state._restore_fields(data, MarketState.FIELDS, {
            "stacks": lambda v: {parse_hex(h): list(stack) for h, stack in v},
            "winners_": lambda v: None if v is None else tuple(v),
        })
        state.tables = None
        state._refresh_acting()
        return state


class MarketState(RecordedWinners, State):
    """One point of a playthrough (fields as in rules-questions 2.1).

    Attributes: ``stacks`` (sector -> colours bottom to top), ``supply``/``dead`` per colour,
    ``sectors_left``, ``deck`` (ranks, top = last), ``discard``, ``market``, ``hands``,
    ``played`` (the rank each seat played this round, None once traded away), ``vp``,
    ``round`` (1-based), ``phase`` (plan, raise, trade, over), ``turn_order`` and ``turn``
    (who acts in the raise or trade phase), ``step`` (main, surge, augury, trade_hand,
    trade_played) with ``surge_left`` and ``augury_pool``.

    Hidden: hands, the deck order, cards gained from the deck top, an Augury's cards (their
    looker sees them) and pending plans (OZD-31).

    The rules never change a stack list in place: a move that changes a sector's stack gives
    it a new list. So the draws of a determinization share the view's stack lists (each copies
    the dict, not every list: :mod:`.determinize`), and no draw sees another's moves. Copies
    (``clone``) still copy every list, for callers that edit a state by hand.
    """

    #: The rules' fields: what a copy copies, what the data holds and a restore reads.
    FIELDS = ("stacks", "supply", "dead", "sectors_left", "deck", "discard", "market",
              "hands", "played", "vp", "round", "phase", "turn_order", "turn", "step",
              "surge_left", "augury_pool", "last_ranks", "events", "winners_", "truncated")
    #: Besides them, ``tables``: where the state remembers its legal tables. A
    #: determinization's states (and their copies) hold the game spec's memo
    #: (:func:`.moves.legal_tables`), since a search meets the same decisions again and again;
    #: a playthrough's hold None and generate every table, since its decisions rarely repeat
    #: and remembering them would cost random play about a third of its speed.
    __slots__ = (*FIELDS, "tables")

    def __init__(self, game: OzymandiasMarket, seed: int) -> None:
        super().__init__(game, seed)
        p, n = game.params, game.players
        self.stacks: dict[Hex, list[int]] = {h: [] for h in OPENINGS[p["opening"]]}
        self.sectors_left = p["sectors"] - 3
        self.supply = [p["disks_per_colour"]] * len(COLOURS)
        self.dead = [0] * len(COLOURS)
        self.deck = [c.rank for c in game.cards]
        shuffle(self.rng, self.deck)  # Game Setup 1
        self.discard: list[int] = []
        self.hands = [[self.deck.pop() for _ in range(p["hand_size"])] for _ in range(n)]
        self.market = [self.deck.pop() for _ in range(p["market_size"])]
        self.played: list[int | None] = [None] * n
        self.vp = [0] * n
        self.round = 1
        self.phase = "plan"
        self.turn_order: list[int] = []
        self.turn = 0
        self.step = "main"
        self.surge_left = 0
        self.augury_pool: list[int] = []
        self.last_ranks: list[int | None] = [None] * n
        self.events: list[list[Any]] = []
        self.winners_: tuple[int, ...] | None = None
        self.truncated = False
        self.tables: dict[tuple, Any] | None = None
        self._refresh_acting()

    # ----------------------------------------------------------------------- helpers
    def value(self, colour: int) -> int:
        """Faction value: sectors whose top disk is ``colour`` (OZD-5)."""
        return self.faction_values()[colour]

    def faction_values(self) -> list[int]:
        """Every colour's faction value (OZD-5), by colour index: one pass over the top disks,
        a plain loop (no comprehension's frame: trades read it at every step)."""
        counts = [0] * len(COLOURS)
        for stack in self.stacks.values():
            if stack:
                counts[stack[-1]] += 1
        return counts

    def tops(self) -> list[int]:
        """The top disk's colour of every sector that has one (faction values count them)."""
        return [stack[-1] for stack in self.stacks.values() if stack]

    def _refresh_acting(self) -> None:
        phase = self.phase
        if phase == "plan":
            self._acting = self.game.seats
        elif phase == "over":
            self._acting = ()
        else:
            self._acting = (self.turn_order[self.turn],)

    def _log(self, seat: int, text: str) -> None:
        self.events.append([self.round, seat, text])

    def _card(self, rank: int) -> str:
        """``W17``: the card's name (from the game's table)."""
        return self.game.card_names[rank]

    def _draw(self) -> int | None:
        """The deck's top card, reshuffling the discard pile when it is empty (OZD-25)."""
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            shuffle(self.rng, self.deck)
            if self.narrate:
                self._log(-1, "the discard pile is shuffled into a new deck")
        return self.deck.pop() if self.deck else None

    def _destroy(self, colour: int) -> None:
        """A destroyed disk goes back to the supply, or to the dead pile (OZD-23)."""
        if self.game.params["destroyed_to"] == "dead":
            self.dead[colour] += 1
        else:
            self.supply[colour] += 1

    def _place(self, h: Hex, colour: int, source: Hex | None = None) -> None:
        """A disk of ``colour`` onto sector ``h`` (a new sector if ``h`` is not on the map), from
        the supply or, with ``source``, from that sector's top. Every changed stack is a new
        list (see the class docstring)."""
        stacks = self.stacks
        stack = stacks.get(h)
        if stack is None:  # a new sector (Explore, OZD-10)
            stack = stacks[h] = []
            self.sectors_left -= 1
        if source is None:
            self.supply[colour] -= 1
        else:
            stacks[source] = stacks[source][:-1]  # taken from the map (OZD-3, 2015)
        stacks[h] = stack + [colour]

    # --------------------------------------------------------------------------- hooks
    def _shuffle_unseen(self) -> None:
        """The draw deck (its order is unseen future chance)."""
        shuffle(self.rng, self.deck)

    def _legal_actions(self, seat: int) -> Sequence[Order]:
        return legal_orders(self, seat)

    def _legal_tables(self) -> Mapping[int, Any]:
        """Every acting seat's legal orders; remembered on the game spec when ``tables`` is
        set (:func:`.moves.legal_tables`), generated afresh otherwise."""
        if self.tables is None:
            return State._legal_tables(self)
        return legal_tables(self)

    def _illegal_reason(self, seat: int, action: Any) -> str:
        from meeple.games.ozymandias_market.decisions import illegal_reason

        return illegal_reason(self, seat, action)

    def _apply(self, joint: Mapping[int, Order]) -> None:  # type: ignore[override]
        if self.phase == "plan":  # reveal all plans at once (OZD-15)
            hands, played, texts = self.hands, self.played, self.game.plan_texts
            shown = []  # "seat 0 K4" per seat (a plain loop: no comprehension's frame)
            for seat in sorted(joint):
                rank = joint[seat].args[0]
                hands[seat].remove(rank)
                played[seat] = rank
                shown.append(texts[seat][rank])
            self.last_ranks = list(played)  # as revealed, even if later traded (OZD-28)
            if self.narrate:
                self._log(-1, "plans revealed: " + ", ".join(shown))
            self.phase, self.step, self.turn = "raise", "main", 0
            self.turn_order = sorted(joint, key=played.__getitem__)  # ascending rank
            self._refresh_acting()
            return
        ((seat, order),) = joint.items()
        _TRANSITIONS[order.kind](self, seat, order)
        self._refresh_acting()

    # ------------------------------------------------------------------------ raise
    def _next(self) -> None:
        """The current seat's turn in this phase is over: the next seat, or the next phase."""
        self.step = "main"
        self.turn += 1
        if self.turn < len(self.turn_order):
            if self.phase == "trade":
                self.step = "trade_hand"
            return
        if self.phase == "raise":  # trades go from highest card to lowest
            self.phase, self.turn, self.step = "trade", 0, "trade_hand"
            # highest rank first: reverse=True keeps ties in order, as a key of -rank did
            self.turn_order = sorted(self.turn_order, key=self.played.__getitem__,
                                     reverse=True)
            return
        self._end_of_round()

    def _colour(self, seat: int) -> int:
        return self.game.suit_of[self.played[seat]]

    def _do_expand(self, seat: int, order: Order) -> None:
        h, source = order.args
        colour = self._colour(seat)
        self._place(h, colour, source)
        if self.narrate:
            self._log(seat, f"expands {COLOURS[colour]} to {hex_text(h)}")
        self._next()

    def _do_pass(self, seat: int, order: Order) -> None:
        if self.narrate:
            self._log(seat, "passes (nothing legal)")
        self._next()

    def _do_explore(self, seat: int, order: Order) -> None:
        (h,) = order.args
        self._place(h, self._colour(seat))
        if self.narrate:
            self._log(seat, f"explores a new sector at {hex_text(h)}")
        self._next()

    def _do_raze(self, seat: int, order: Order) -> None:
        (h,) = order.args
        stack = self.stacks[h]
        colour = stack[-1]
        self.stacks[h] = stack[:-1]  # a new list (see the class docstring)
        self._destroy(colour)
        if self.narrate:
            self._log(seat, f"razes the {COLOURS[colour]} disk on {hex_text(h)}")
        self._next()

    def _do_march(self, seat: int, order: Order) -> None:
        src, dst = order.args
        stacks = self.stacks  # new lists (see the class docstring)
        source = stacks[src]
        stacks[dst] = stacks[dst] + source[-1:]
        stacks[src] = source[:-1]
        if self.narrate:
            self._log(seat, f"marches from {hex_text(src)} to {hex_text(dst)}")
        self._next()

    def _do_coup(self, seat: int, order: Order) -> None:
        (h,) = order.args
        stack = self.stacks[h]
        self.stacks[h] = stack[:-2] + [stack[-1], stack[-2]]  # a new list (class docstring)
        if self.narrate:
            self._log(seat, f"stages a coup on {hex_text(h)}")
        self._next()

    def _do_surge(self, seat: int, order: Order) -> None:
        (h,) = order.args
        colour = self._colour(seat)
        self._place(h, colour)
        if self.step != "surge":
            self.surge_left = self.game.card_params[self.played[seat]]["times"]
        self.surge_left -= 1
        if self.narrate:
            self._log(seat, f"surges {COLOURS[colour]} to {hex_text(h)}")
        if self.surge_left > 0 and self.supply[colour]:
            self.step = "surge"
        else:
            self.surge_left = 0
            self._next()

    def _do_diaspora(self, seat: int, order: Order) -> None:
        (h,) = order.args
        colour = self._colour(seat)
        self._place(h, colour)
        if self.narrate:
            self._log(seat, f"settles {COLOURS[colour]} at {hex_text(h)}")
        self._next()

    def _do_tribute(self, seat: int, order: Order) -> None:
        card = self.game.card_by_rank[self.played[seat]]
        gain = self.value(card.suit) - self.game.card_params[card.rank]["minus"]
        self.vp[seat] += gain
        if self.narrate:
            self._log(seat, f"takes tribute: +{gain} VP")
        self._next()

    def _do_bazaar(self, seat: int, order: Order) -> None:
        given, taken = order.args
        self.hands[seat].remove(given)
        self.market[self.market.index(taken)] = given
        self.hands[seat].append(taken)
        if self.narrate:
            self._log(seat, f"bazaar: {self._card(given)} for {self._card(taken)}")
        self._next()

    def _do_augury(self, seat: int, order: Order) -> None:
        depth = self.game.card_params[self.played[seat]]["depth"]
        self.augury_pool = [self.deck.pop() for _ in range(min(depth, len(self.deck)))]
        self.step = "augury"
        if self.narrate:
            self._log(seat, f"looks at the top {len(self.augury_pool)} cards of the deck")

    def _do_order(self, seat: int, order: Order) -> None:
        self.deck.extend(reversed(order.args))  # the first named ends on top
        self.augury_pool = []
        if self.narrate:
            self._log(seat, "puts them back in a chosen order")
        self._next()

    def _do_embargo(self, seat: int, order: Order) -> None:
        (rank,) = order.args
        self.market.remove(rank)
        self.discard.append(rank)
        if self.narrate:
            self._log(seat, f"embargoes {self._card(rank)}")
        self._next()

    # ------------------------------------------------------------------------ trade
    def _do_trade(self, seat: int, order: Order) -> None:
        given, taken = order.args
        game = self.game
        if self.step == "trade_hand":
            self.hands[seat].remove(given)
        else:
            self.played[seat] = None  # sold: it is not recovered (OZD-26)
        if taken == "deck":  # no score, the given card to the discard pile (OZD-19)
            gained = self._draw()
            self.discard.append(given)
            self.hands[seat].append(gained)
            if self.narrate:
                self._log(seat, f"trades {game.card_names[given]} for the deck's top card")
        else:
            values, suits = self.faction_values(), game.suit_of
            score = max(0, values[suits[given]] - values[suits[taken]])  # OZD-16, 17
            self.market[self.market.index(taken)] = given
            self.hands[seat].append(taken)
            self.vp[seat] += score
            if self.narrate:
                names = game.card_names
                self._log(seat, f"trades {names[given]} for {names[taken]}: +{score} VP")
        if self.step == "trade_hand":
            self.step = "trade_played"
        else:
            self._next()

    def _do_done(self, seat: int, order: Order) -> None:
        if self.step == "surge":
            self.surge_left = 0
        self._next()

    # ------------------------------------------------------------------ round's end
    def _end_of_round(self) -> None:
        """Collapse (OZD-22..24), refresh the market (OZD-25), recover played cards (OZD-26),
        then the end check (OZD-27)."""
        suits = self.game.suit_of
        colours = [suits[r] for r in self.market]
        if colours:
            counts = [colours.count(c) for c in range(len(COLOURS))]
            top = max(counts)  # at least 1: a colour with no market card never leads
            leaders = [c for c, k in enumerate(counts) if k == top]
            if len(leaders) == 1:  # a strict, unique maximum collapses (OZD-22)
                colour = leaders[0]
                hit = [h for h, s in self.stacks.items() if s and s[-1] == colour]
                stacks = self.stacks
                for h in hit:  # one simultaneous pass over the top disks (OZD-24)
                    stacks[h] = stacks[h][:-1]  # a new list (see the class docstring)
                    self._destroy(colour)
                if self.narrate:
                    self._log(-1, f"{COLOURS[colour]} collapses: {len(hit)} top disks destroyed")
        self.discard.extend(self.market)
        size = self.game.params["market_size"]
        deck_out = len(self.deck) <= size  # the last card is drawn this refresh (OZD-27 c)
        self.market = []
        for _ in range(size):
            rank = self._draw()
            if rank is None:
                break
            self.market.append(rank)
        for seat, rank in enumerate(self.played):
            if rank is not None:
                self.hands[seat].append(rank)
        self.played = [None] * self.game.players
        self._check_end(deck_out)
        if self.phase != "over":
            self.round += 1
            self.phase, self.step, self.turn, self.turn_order = "plan", "main", 0, []

    def _check_end(self, deck_out: bool) -> None:
        p = self.game.params
        end = p["end"]
        over = (
            (end == "vp" and max(self.vp) >= p["target_vp"])
            or (end == "rounds" and self.round >= p["max_rounds"])
            or (end == "deck_out" and deck_out)
            or (end == "colour_dead" and max(self.dead) >= p["disks_per_colour"])
        )
        if not over and self.round >= p["max_rounds"]:  # the safety cap
            over, self.truncated = True, True
        if not over:
            return
        self.phase = "over"
        best = max(self.vp)
        top = [s for s, v in enumerate(self.vp) if v == best]
        if len(top) > 1 and p["tiebreak"] == "lowest_rank":  # OZD-28
            played = [(self.last_ranks[s] or 10**9, s) for s in top]
            top = [min(played)[1]]
        self.winners_ = tuple(top)
        if self.narrate:
            self._log(-1, "the game ends")

    # ------------------------------------------------------------------------ results
    def scores(self) -> tuple[float, ...]:
        """Victory points per seat."""
        return tuple(float(v) for v in self.vp)

    def is_truncated(self) -> bool:
        return self.truncated

    def length(self) -> int:
        """Rounds completed."""
        return self.round if self.phase == "over" else self.round - 1

    # -------------------------------------------------------------------------- views
    def _view(self, seat: int | None) -> dict[str, Any]:
        card = self.game.card_names.__getitem__
        out: dict[str, Any] = {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "acting": self._acting[0] if len(self._acting) == 1 else None,
            "turn_order": list(self.turn_order),
            "map": [[h[0], h[1], [COLOURS[c] for c in stack]]
                    for h, stack in sorted(self.stacks.items())],
            "values": dict(zip(COLOURS, self.faction_values(), strict=True)),
            "supply": dict(zip(COLOURS, self.supply, strict=True)),
            "dead": dict(zip(COLOURS, self.dead, strict=True)),
            "sectors_left": self.sectors_left,
            "market": list(map(card, self.market)),
            "discard": list(map(card, self.discard)),
            "deck_size": len(self.deck),
            "vp": list(self.vp),
            "played": [None if r is None else card(r) for r in self.played],
            "hand_sizes": [len(h) for h in self.hands],
            "events": list(map(list, self.events[-12:])),
            "winners": None if self.winners_ is None else list(self.winners_),
            "truncated": self.truncated,
            "last_ranks": list(self.last_ranks),  # revealed ranks, for the OZD-28 tiebreak
        }
        if self.step == "surge":  # expansions left in this Surge (public)
            out["surge_left"] = self.surge_left
        elif self.step == "augury":  # how many cards the looker took (public; not which)
            out["augury_size"] = len(self.augury_pool)
        if seat is not None:
            out["hand"] = list(map(card, sorted(self.hands[seat])))
            if self.step == "augury" and self._acting == (seat,):
                out["augury"] = [card(r) for r in self.augury_pool]
        return out

    def _copy(self) -> MarketState:
        new: MarketState = self._copy_fields(MarketState.FIELDS)  # type: ignore[assignment]
        new.tables = self.tables  # the memo itself, shared (it belongs to the game spec)
        return new

    def _data(self) -> dict[str, Any]:
        return self._fields_data(MarketState.FIELDS, {  # a snapshot, never the state's own lists
            "stacks": lambda v: [[hex_text(h), stack] for h, stack in sorted(v.items())]})


#: The transition of each order kind (``MarketState._do_<kind>``), looked up once here.
_TRANSITIONS = {name[4:]: method for name, method in vars(MarketState).items()
                if name.startswith("_do_")}
