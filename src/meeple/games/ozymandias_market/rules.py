"""Ozymandias, market edition: the game spec and state transitions.

Rules: seeds/ozymandias-market.md; decisions OZD-1..OZD-31 in docs/rules/ozymandias-market.md.
A round: secret plans (one simultaneous decision), raise in ascending rank (expand or the
card's event; sub-steps for Surge and Augury), trades in descending rank (a mandatory hand
trade, then an optional played-card trade), then collapse, market refresh, hand recovery and
the end check, all automatic. Legal moves live in :mod:`.moves`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from meeple.engine.components import (
    COUNT,
    OWNER,
    ComponentState,
    Pieces,
    Shown,
    Value,
    Zone,
    event_log,
    recorded_winners,
)
from meeple.engine.errors import ParameterError
from meeple.engine.game import Capabilities, Game
from meeple.engine.registry import register
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values
from meeple.engine.state import State
from meeple.engine.validation import NonNegInt
from meeple.engine.winners import RecordedWinners
from meeple.games.ozymandias_market import invariants
from meeple.games.ozymandias_market.actions import Order, card_text, parse_order
from meeple.games.ozymandias_market.cards import COLOURS, EVENTS, parse_card, parse_colour
from meeple.games.ozymandias_market.content import load_cards
from meeple.games.ozymandias_market.hexes import OPENINGS, Hex, hex_text, parse_hex, parse_map
from meeple.games.ozymandias_market.moves import legal_orders, legal_tables
from meeple.games.ozymandias_market.variants import PARAMETERS, VARIANTS


@register
class OzymandiasMarket(Game):
    """Ozymandias, market edition, for 2-4 seats; see the module docstring."""

    name = "ozymandias-market"
    title = "Ozymandias (market edition)"
    summary = "2-4 players, secret plans, faction disks on hex sectors, a card market"
    rules_page = "docs/rules/ozymandias-market.md"
    score_name = "VP"
    timeout_kinds = ("done", "pass")
    #: ISMCTS settings (docs/bots.md): rollouts cut and scored by the evaluator; 180 iterations
    #: fit a default decision in 50 ms (issue 22, about 45 ms mean at heuristic-game positions,
    #: benchmarks/bench_search.py; 400 before).
    search = {"iterations": 180, "rollout_depth": 8, "exploration": 0.1}
    #: The state and its components: copy, JSON data, validation, views, determinization
    #: and scenarios derive from ``MarketState.COMPONENTS`` (meeple.engine.components);
    #: ``state_class = MarketState`` is set below the state class.
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


Colour = Annotated[int, Field(ge=0, le=3)]
Four = Annotated[list[NonNegInt], Field(min_length=4, max_length=4)]
#: The map's JSON data: ``[["q,r", stack], ...]`` (JSON has no tuples: pairs read as lists).
Stacks = Annotated[list[tuple[str, list[Colour]]], BeforeValidator(
    lambda v: [tuple(e) if isinstance(e, list) else e for e in v] if isinstance(v, list) else v)]
_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def _acting_seat(state: MarketState) -> int | None:
    """The one seat acting (raise and trade turns; an Augury's looker), else None."""
    acting = state._acting
    return acting[0] if len(acting) == 1 else None


def _restored_turn(view: Mapping[str, Any], state: MarketState) -> int:
    """``turn`` (not in the view) from the acting seat: 0 while the seats plan, past the
    end of the trade order once the game is over."""
    acting = view["acting"]
    if acting is not None:
        return state.turn_order.index(acting)
    return len(state.turn_order) if state.phase == "over" else 0


def _described_dead(given: Mapping[Any, int] | Sequence[int]) -> list[int]:
    """A scenario's ``dead``: ``{colour: count}`` (colours by name or initial) or 4 counts."""
    if not isinstance(given, Mapping):
        return [int(v) for v in given]
    dead = [0] * len(COLOURS)
    for colour, count in given.items():
        dead[parse_colour(colour, "dead")] = int(count)
    return dead


class MarketState(RecordedWinners, ComponentState):
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
    the dict, not every list: ``Value.draw_copy``), and no draw sees another's moves. Copies
    (``clone``) still copy every list, for callers that edit a state by hand.
    """

    PIECES = {"card": Pieces(lambda game: tuple(c.rank for c in game.cards), type=int,
                             names=lambda game: game.card_names,  # 17 -> "W17"
                             parse=lambda game, word, what: parse_card(game.suit_of, word, what))}
    #: What a Market state is made of (docs/rules/ozymandias-market.md, section 12): the
    #: copy, JSON data, validation, views, determinization and scenarios derive from it
    #: (meeple.engine.components). Hidden zones are dealt in this order by a determinization:
    #: the deck, another looker's Augury cards, the other hands.
    COMPONENTS = (
        Value("stacks", type=Stacks, view="map",
              show=lambda st: [[h[0], h[1], [COLOURS[c] for c in stack]]
                               for h, stack in sorted(st.stacks.items())],
              restore=lambda view, st: {(q, r): [_COLOUR_INDEX[c] for c in stack]
                                        for q, r, stack in view["map"]},
              to_data=lambda v: [[hex_text(h), stack] for h, stack in sorted(v.items())],
              from_data=lambda v: {parse_hex(h): list(stack) for h, stack in v},
              draw_copy=dict.copy),  # the stack lists shared: never changed in place
        Shown("values", show=lambda st, seat: dict(zip(COLOURS, st.faction_values(),
                                                       strict=True))),
        Value("supply", type=Four, show=lambda st: dict(zip(COLOURS, st.supply, strict=True)),
              restore=lambda view, st: [view["supply"][c] for c in COLOURS]),
        Value("dead", type=Four, show=lambda st: dict(zip(COLOURS, st.dead, strict=True)),
              restore=lambda view, st: [view["dead"][c] for c in COLOURS],
              describe=_described_dead),
        Value("sectors_left", type=NonNegInt),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Zone("discard", pieces="card", show="discard"),  # public (OZD-25)
        Zone("market", pieces="card", show="market"),  # a trade replaces a card in place
        Zone("augury_pool", pieces="card", visibility=OWNER, owner=_acting_seat,
             when=lambda st: st.step == "augury", show="augury", count="augury_size",
             count_when=True),  # the looker's, in the order it saw them
        Zone("hands", pieces="card", per_seat=True, visibility=OWNER, show_sorted="hand",
             count="hand_sizes"),
        Zone("played", pieces="card", per_seat=True, slot=True, show="played"),  # None: sold
        Value("vp", type=NonNegInt, per_seat=True),
        Value("round", type=Annotated[int, Field(ge=1)]),
        Value("phase", type=Literal["plan", "raise", "trade", "over"]),
        Shown("acting", show=lambda st, seat: _acting_seat(st)),
        Value("turn_order", type=list[NonNegInt]),
        Value("turn", type=NonNegInt, view=None, restore=_restored_turn),
        Value("step", type=Literal["main", "surge", "augury", "trade_hand", "trade_played"]),
        Value("surge_left", type=NonNegInt, view=None,
              restore=lambda view, st: view.get("surge_left", 0)),
        Shown("surge_left", show=lambda st, seat: st.surge_left,
              when=lambda st, seat: st.step == "surge"),  # public, only during a Surge
        Value("last_ranks", type=int | None, per_seat=True, pieces="card"),  # OZD-28
        event_log(),
        recorded_winners(),
        Value("truncated", type=bool),
    )
    #: Besides them, ``tables``: where the state remembers its legal tables. A
    #: determinization's states (and their copies) hold the game spec's memo
    #: (:func:`.moves.legal_tables`), since a search meets the same decisions again and again;
    #: a playthrough's hold None and generate every table, since its decisions rarely repeat
    #: and remembering them would cost random play about a third of its speed.
    __slots__ = (*(c.name for c in COMPONENTS if not isinstance(c, Shown)), "tables")

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

    # ------------------------------------------------------------------ components' hooks
    def after_restore(self) -> None:
        """A rebuilt state generates its legal tables (no memo) and sets who acts."""
        self.tables = None
        self._refresh_acting()

    def after_deal(self, view: Mapping[str, Any]) -> None:
        """A determinization's state remembers its legal tables in the spec's memo: a search
        meets the same decisions again and again."""
        self.tables = self.game.legal_memo

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """The map, the disks and the phase (:mod:`.invariants`)."""
        invariants.check(game, data, base)

    @classmethod
    def scenario_keys(cls) -> Mapping[str, str]:
        return {"map": "the sectors: {sector: stack}, sectors as 'q,r' or (q, r), stacks "
                       "bottom to top in colours by name or initial (default: the opening "
                       "sectors, empty)"}

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """A scenario is a position at the start of a round's secret plans (phase ``plan``)
        or, with ``played`` (every seat's revealed card), at the start of its raise phase
        (the lowest card acts first). The map (``map``; default: the opening sectors,
        empty) sets ``sectors_left`` and the supply (the disks neither on the map nor
        ``dead``); a hand not given holds ``hand_size`` cards (one fewer with ``played``) and
        the market ``market_size``, from the top of the deck."""
        game = self.game
        p, n = game.params, game.players
        if "map" in extra or "stacks" not in described:
            self.stacks = parse_map(extra.get("map"), p["opening"])
        if "sectors_left" not in described:
            self.sectors_left = p["sectors"] - len(self.stacks)
            if self.sectors_left < 0:
                raise ParameterError(f"map: {len(self.stacks)} sectors, but the game has "
                                     f"{p['sectors']} (parameter sectors)")
        if "supply" not in described:
            for c in range(len(COLOURS)):
                on_map = sum(stack.count(c) for stack in self.stacks.values())
                self.supply[c] = p["disks_per_colour"] - on_map - self.dead[c]
                if self.supply[c] < 0:
                    raise ParameterError(f"map: {on_map} {COLOURS[c]} disks on the map and "
                                         f"{self.dead[c]} dead, but there are "
                                         f"{p['disks_per_colour']}")
        if "round" in described and not (isinstance(self.round, int)
                                         and 1 <= self.round <= p["max_rounds"]):
            raise ParameterError(f"round: {self.round!r} must be in 1..{p['max_rounds']}")
        playing = "played" in described
        if playing and any(r is None for r in self.played):
            raise ParameterError(f"played: expected a card for every seat ({n})")
        size = p["hand_size"] - playing  # the played card is out of the hand
        given = described.get("hands")
        named = [None] * n if given is None else seat_values(given, n, None, "hands")
        deck = self.deck
        for seat, hand in enumerate(self.hands):
            if named[seat] is not None:
                continue
            while len(hand) > size:
                deck.insert(0, hand.pop())
            while len(hand) < size and deck:
                hand.append(deck.pop())
        if "market" not in described:
            while len(self.market) < p["market_size"] and deck:
                self.market.append(deck.pop())
        self.last_ranks = list(self.played)
        self.step, self.turn, self.events, self.surge_left = "main", 0, [], 0
        if playing:
            self.phase = "raise"
            self.turn_order = sorted(range(n), key=self.played.__getitem__)
        else:
            self.phase, self.turn_order = "plan", []


#: The transition of each order kind (``MarketState._do_<kind>``), looked up once here.
_TRANSITIONS = {name[4:]: method for name, method in vars(MarketState).items()
                if name.startswith("_do_")}


OzymandiasMarket.state_class = MarketState
