"""Epoch Ellipse: the game spec and the day's phases.

Rules: seeds/epoch-ellipse.txt; decisions EPE-1..EPE-51 (and beyond) in
docs/rules/epoch-ellipse.md. A day: WAKE UP (replacements in death order: ``pick`` a survivor
pile; draws), PLAN (in turn from the first player: ``trade`` offers answered by ``accept`` /
``decline``, medical ``use`` then ``treat``, ``pass``), EXPLORE (each alive player in turn:
``new``, ``explore L K`` or ``skip``; the resolution steps are in :mod:`.explore`), HUNGER
(``eat`` or ``starve``) and REST (automatic: the night card, discards, deaths, shuffles; REST
and WAKE UP are in :mod:`.night`). Legal moves live in :mod:`.moves`; the PLAN phase's moves in
:mod:`.plan`; effects in :mod:`.effects`.

Physical cards are *instances* (ints); ``ctype[instance]`` is the card type (an index into
``game.content.cards``). Location positions: 0 is the Graveyard, then the others in the order
they came into play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from meeple.engine.components import (
    COUNT,
    ORDER_HIDDEN,
    ComponentState,
    Pieces,
    Shown,
    Value,
    Zone,
)
from meeple.engine.errors import ParameterError
from meeple.engine.game import Capabilities, Game
from meeple.engine.registry import register
from meeple.engine.rng import shuffle
from meeple.engine.state import State
from meeple.engine.validation import NonNegInt
from meeple.games.epoch_ellipse import invariants, views
from meeple.games.epoch_ellipse.actions import Move, parse_move, slug
from meeple.games.epoch_ellipse.cards import CATASTROPHE, NIGHT, SALVAGE, SURVIVOR, PackedCounts
from meeple.games.epoch_ellipse.content import load_content
from meeple.games.epoch_ellipse.explore import ExploreSteps
from meeple.games.epoch_ellipse.moves import legal_moves, legal_tables
from meeple.games.epoch_ellipse.night import NightSteps
from meeple.games.epoch_ellipse.plan import PlanSteps
from meeple.games.epoch_ellipse.variants import PARAMETERS, VARIANTS

#: Catastrophes in a discard pile that kill its survivor (DEATH; EPE-34).
DEADLY = 3
#: Events kept in the state for the views.
EVENTS_KEPT = 24
SHARED_DECKS = (SALVAGE, SURVIVOR, CATASTROPHE, NIGHT)
#: A card's class for the determinization (``Pieces.classes``): its kind, and whether it is
#: a starter copy (only an event deck may hold an unseen one: the shared decks hold the
#: shared supply's).
CATS = frozenset({(CATASTROPHE, False), (CATASTROPHE, True)})
OTHERS = frozenset({(SALVAGE, False), (SALVAGE, True), (SURVIVOR, False), (SURVIVOR, True)})


def _card_classes(game: EpochEllipse) -> tuple[tuple[str, bool], ...]:
    starters = {c for seat in game.starters for c in seat}
    return tuple((kind, i in starters) for i, kind in enumerate(game.kinds))


def _shared_piles(view: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The shared decks' hidden piles: each deck's size from the shared supply of its kind
    (the Night deck: every night card not in the night discard pile)."""
    return [(kind, (({(kind, False)}, view["decks"][kind]),)) for kind in SHARED_DECKS]


def _event_piles(view: Mapping[str, Any]) -> list[tuple[int, Any]]:
    """Each location's event deck: as many catastrophes as its tokens, its other cards
    salvage or survivors (shared or starter copies); the order is drawn at each flip (3B)."""
    return [(pos, ((CATS, loc["tokens"]), (OTHERS, loc["cards"] - loc["tokens"])))
            for pos, loc in enumerate(view["locations"])]


@register
class EpochEllipse(Game):
    """Epoch Ellipse, 1-5 seats (EPE-1); see the module docstring."""

    name = "epoch-ellipse"
    title = "Epoch Ellipse"
    summary = "cooperative deck-building survival in a ruined city, 1-5 players"
    rules_page = "docs/rules/epoch-ellipse.md"
    score_name = "recovered VP"
    playtest_bots = ("heuristic",)  # a random team wins 0.2% of games (rules page, Lab)
    #: ISMCTS settings (docs/bots.md): teammates play the heuristic bot, ten heuristic steps
    #: after each leaf, then the evaluator; 45 iterations fit a default decision in 50 ms
    #: (issue 22, about 40 ms mean at heuristic-game positions, bench_search.py; 200 before).
    search = {"iterations": 45, "rollout": "heuristic", "rollout_depth": 10,
              "opponents": "policy", "exploration": 0.1}
    timeout_kinds = ("pass", "decline", "done", "resolve", "suffer", "starve", "skip")
    parameters = PARAMETERS
    variants = VARIANTS
    min_players, max_players, default_players = 1, 5, 3
    __slots__ = ("content", "ctype", "starters", "shared", "names", "by_slug", "moves", "kinds",
                 "catastrophe", "labels", "legal_memo", "counts")

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        content = load_content(self.params["cards"] or None, self.params["difficulty"])
        ctype: list[int] = []
        starters = []
        for _ in range(self.players):  # each player's starter copies (EPE-2)
            starters.append(tuple(range(len(ctype), len(ctype) + len(content.starter))))
            ctype.extend(content.starter)
        shared = {}
        for kind in SHARED_DECKS:
            shared[kind] = tuple(range(len(ctype), len(ctype) + len(content.decks[kind])))
            ctype.extend(content.decks[kind])
        total_vp = sum(loc.vp for loc in content.locations)
        if total_vp < self.params["target_vp"]:
            raise ParameterError(f"target_vp = {self.params['target_vp']} cannot be reached: the "
                                 f"locations are worth {total_vp} VP in all (3F; EPE-27)")
        if len(shared[SURVIVOR]) < self.players:
            raise ParameterError(f"the survivor deck has {len(shared[SURVIVOR])} cards; "
                                 f"{self.players} players need one each (GAME START)")
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "ctype", tuple(ctype))
        object.__setattr__(self, "starters", tuple(starters))
        object.__setattr__(self, "shared", shared)
        object.__setattr__(self, "names", tuple(c.name for c in content.cards))
        object.__setattr__(self, "by_slug", {slug(c.name): i for i, c in
                                             enumerate(content.cards)})
        object.__setattr__(self, "moves", {})
        object.__setattr__(self, "legal_memo", {})  # remembered legal tables (moves)
        # By card instance, for the transitions' hot paths: kind, is a catastrophe, name.
        kinds = tuple(content.cards[t].kind for t in ctype)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "catastrophe", tuple(k == CATASTROPHE for k in kinds))
        object.__setattr__(self, "labels", tuple(content.cards[t].name for t in ctype))
        # The evaluator's counts by instance, packed: built by the first search
        # (packed_counts), since only a search's states keep each seat's sums.
        object.__setattr__(self, "counts", None)

    def packed_counts(self) -> PackedCounts:
        """The card counts by instance, packed (:class:`.cards.PackedCounts`), built at the
        first call (a search's first draw or evaluation; about 240 us) and kept in the spec's
        ``counts``, which the rules read while a state keeps its ``packs``."""
        counts = self.counts
        if counts is None:
            counts = PackedCounts(self.content.cards, self.ctype)
            object.__setattr__(self, "counts", counts)
        return counts

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=False,
                            hidden_information=True, chance=True, cooperative=True,
                            max_length=self.params["max_days"], length_unit="days")

    def new_initial_state(self, seed: int = 0) -> EpochState:
        """Shuffle every deck (seeded), deal starter decks and survivors, put the Graveyard
        and the Apartment Building into play (GAME START)."""
        return EpochState(self, seed)

    def parse_action(self, text: str, seat: int) -> Move:
        """Read an action (notation in :mod:`.actions`); legality is checked on apply."""
        self.check_seat(seat)
        return parse_move(text, seat, self.names, self.by_slug)

    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"Seat {i}" for i in range(self.players))



class EpochState(PlanSteps, NightSteps, ExploreSteps, ComponentState):
    """One point of a playthrough (fields as in rules-questions 5.1).

    Shared: ``decks`` (kind -> instances, top = last), ``night_discard``, ``location_deck``
    (location indexes, top = last), ``locations`` (in play: location indexes, position 0 the
    Graveyard), ``event_decks`` and ``tokens`` per position (tokens == catastrophes in the
    deck, always), ``pool`` (survivor piles: the survivor first, then its gifts). Per seat:
    ``draws`` (own deck, top = last), ``hands``, ``discards``, ``status`` (alive, mournful or
    dead), ``ms_card`` (a Mournful Sacrifice's salvage card or None), ``death_cause``. Turn:
    ``day``, ``phase`` (wake, plan, explore, hunger, over), ``step``, ``first``, ``turn``
    (who acts in plan/explore/hunger), ``queue`` (dead seats awaiting a survivor, in death
    order), ``passes``, ``traded`` (pairs that traded today), ``offer``, ``credits``; the
    exploration in progress is in the fields of :class:`.explore.ExploreSteps`. End:
    ``result`` (None, "won", "lost", "truncated") and ``cause``.

    Hidden (EPE-4): the order of every deck and event deck. Hands, discard piles and survivor
    piles are public.

    Derived, not a rules field (not in the data or the digest; copied by ``clone``):
    ``packs``, per seat the packed counts (:class:`.cards.PackedCounts`) of its hand and
    discard pile and of its whole deck, kept current by every step that moves a card into or
    out of a hand, discard pile or draw pile, for the evaluator. Only a search's states keep
    them (the draw sets them, or :meth:`recount_packs`): a playthrough's state has None (the
    updates cost a random step ~5%), and the evaluator sums its piles.
    """

    #: Card instances and locations. A saved state need not place every one (as before the
    #: components; play always does: a trashed card goes to the Graveyard's event deck).
    #: Copies of a card type are interchangeable: a determinization gives a name the first
    #: instance not given yet, starter copies first (their ids come first).
    PIECES = {"card": Pieces(lambda game: range(len(game.ctype)), int,
                             names=lambda game: game.labels, copies=True,
                             classes=_card_classes, all_placed=False),
              "location": Pieces(lambda game: range(len(game.content.locations)), int,
                                 names=lambda game: dict(enumerate(
                                     loc.name for loc in game.content.locations)),
                                 all_placed=False)}
    #: What an Epoch Ellipse state is made of (docs/rules/epoch-ellipse.md, section 11): the
    #: copy, JSON data, validation and views derive from it (meeple.engine.components), in
    #: the view's key order. Cards are shown by name (:mod:`.views`); card instances kept in
    #: shapes no zone has (the four shared decks, an event deck per location, survivor piles,
    #: single cards) are values that ``hold`` them. A determinization reads the cards back
    #: from the view (``contents``, ``restore``), reshuffles each player's deck (its contents
    #: are public: ``ORDER_HIDDEN``) and deals the unseen cards by class: the shared decks
    #: from the shared supply, each event deck its tokens' catastrophes and other cards.
    COMPONENTS = (
        Value("day", type=Annotated[int, Field(ge=1)]),
        Value("phase", type=Literal["wake", "plan", "explore", "hunger", "over"]),
        Value("step", type=str),
        Value("first", type=NonNegInt, seat=True),
        Value("turn", type=NonNegInt, seat=True, view=None,  # who acts in plan/explore/hunger
              restore=views.turn),
        Shown("acting", show=views.acting),
        Zone("locations", pieces="location",  # in play, position 0 the Graveyard
             contents=lambda view: [loc["name"] for loc in view["locations"]]),
        Value("event_decks", type=list[list[NonNegInt]], pieces="card", holds=True, view=None,
              restore=lambda view, st: [None] * len(view["locations"]), draw_copy=list.copy,
              deal=_event_piles),
        Value("tokens", type=list[NonNegInt], view=None,  # catastrophes per event deck
              restore=lambda view, st: [loc["tokens"] for loc in view["locations"]]),
        Shown("locations", show=views.locations),
        Shown("recovered_vp", show=views.recovered_vp),
        Shown("target_vp", show=views.target_vp),
        Zone("location_deck", pieces="location", visibility=COUNT, count="location_deck"),
        Value("decks", type=dict[Literal[*SHARED_DECKS], list[NonNegInt]],  # type: ignore
              pieces="card", holds=True, show=views.deck_sizes, draw_copy=dict.copy,
              restore=lambda view, st: dict.fromkeys(SHARED_DECKS), deal=_shared_piles),
        Zone("draws", pieces="card", per_seat=True, visibility=ORDER_HIDDEN,
             contents=views.seat_key("deck_cards")),  # shown sorted in ``players``
        Zone("hands", pieces="card", per_seat=True, contents=views.seat_key("hand")),
        Zone("discards", pieces="card", per_seat=True, contents=views.seat_key("discard")),
        Value("status", type=Literal["alive", "mournful", "dead"], per_seat=True, view=None,
              restore=lambda view, st: views.seat_key("status")(view)),
        Value("ms_card", type=NonNegInt | None, per_seat=True, pieces="card", holds=True,
              view=None, takes="card",
              restore=lambda view, st, take: [None if p["mournful_card"] is None
                                              else take(p["mournful_card"])
                                              for p in view["players"]]),
        Value("death_cause", type=str | None, per_seat=True, view=None,
              restore=lambda view, st: views.seat_key("death_cause")(view)),
        Shown("players", show=views.players),
        Zone("night_discard", pieces="card", contents=lambda view: view["night_discard"]),
        Shown("night_discard", show=views.night_discard),
        Zone("removed", pieces="card",  # dead survivors out of the game
             contents=lambda view: view["removed"]),
        Shown("removed", show=views.removed),
        Value("passes", type=NonNegInt),
        Value("traded", type=list[Annotated[list[NonNegInt], Field(min_length=2, max_length=2)]],
              show=views.traded, from_data=lambda v: {tuple(p) for p in v},
              restore=lambda view, st: {(a, b) for a, b in view["traded"]}),
        Value("hungry", type=list[NonNegInt]),
        Value("pool", type=list[list[NonNegInt]], pieces="card", holds=True, show=views.pool,
              takes="card", restore=lambda view, st, take: [[take(c) for c in pile]
                                                            for pile in view["pool"]]),
        Value("queue", type=list[NonNegInt]),
        Value("offer", type=Annotated[list[NonNegInt], Field(min_length=4, max_length=4)] | None,
              show=views.offer, from_data=lambda v: None if v is None else tuple(v),
              restore=views.offer_back),
        Value("explorer", type=int, view=None,
              restore=views.exploration_value("explorer")),
        Value("expl_pos", type=int, view=None,
              restore=views.exploration_value("expl_pos")),
        Value("expl_k", type=NonNegInt, view=None,
              restore=views.exploration_value("expl_k")),
        Value("expl_new", type=bool, view=None,
              restore=views.exploration_value("expl_new")),
        Zone("expl_cats", pieces="card", contents=views.explored("catastrophes"),
             quota=lambda view: ((CATS, None),)),
        Zone("expl_survivors", pieces="card", contents=views.explored("survivors"),
             quota=lambda view: (({(SURVIVOR, False), (SURVIVOR, True)}, None),)),
        Zone("expl_salvage", pieces="card", contents=views.explored("salvage"),
             quota=lambda view: (({(SALVAGE, False), (SALVAGE, True)}, None),)),
        Value("current", type=NonNegInt | None, pieces="card", holds=True, view=None,
              takes="card", restore=views.exploration_value("current")),
        Value("paid", type=NonNegInt, view=None,
              restore=views.exploration_value("paid")),
        Value("rescue", type=list[NonNegInt] | None, pieces="card", holds=True, view=None,
              takes="card", restore=views.exploration_value("rescue")),
        Value("explore_queue", type=list[NonNegInt], view=None,
              restore=lambda view, st: [] if view["exploration"] is None
              else list(view["exploration"]["waiting"])),
        Shown("exploration", show=views.exploration),
        Value("credits", type=NonNegInt),
        Value("events", type=list[list[Any]], show=views.events,
              restore=lambda view, st: [tuple(e) for e in view["events"]]),
        Value("result", type=Literal["won", "lost", "truncated"] | None),
        Value("cause", type=str | None),
    )
    #: Besides them, ``tables``: where the state remembers its legal tables. A
    #: determinization's states remember them in the game spec's memo
    #: (:func:`.moves.legal_tables`), since a search meets the same decisions again and again;
    #: a playthrough's states (None) generate afresh. And ``packs`` (see above). Neither is
    #: a rules field: outside the data.
    __slots__ = (*(c.name for c in COMPONENTS if not isinstance(c, Shown)), "tables", "packs")

    def __init__(self, game: EpochEllipse, seed: int) -> None:
        super().__init__(game, seed)
        self.tables: dict[tuple, Any] | None = None
        n, rng, content = game.players, self.rng, game.content
        self.decks = {kind: list(game.shared[kind]) for kind in SHARED_DECKS}
        for kind in SHARED_DECKS:
            shuffle(rng, self.decks[kind])
        self.night_discard: list[int] = []
        self.location_deck = list(content.location_deck)
        shuffle(rng, self.location_deck)
        self.locations: list[int] = []
        self.event_decks: list[list[int]] = []
        self.tokens: list[int] = []
        self.pool: list[list[int]] = []
        self.draws = [list(game.starters[s]) + [self.decks[SURVIVOR].pop()] for s in range(n)]
        for deck in self.draws:
            shuffle(rng, deck)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.packs: list[int] | None = None  # not kept in a playthrough (recount_packs)
        self.status = ["alive"] * n
        self.ms_card: list[int | None] = [None] * n
        self.death_cause: list[str | None] = [None] * n
        self.day, self.first, self.turn = 1, 0, 0
        self.phase, self.step = "wake", "wake"
        self.queue: list[int] = []
        self.passes = 0
        self.traded: set[tuple[int, int]] = set()
        self.offer: tuple[int, int, int, int] | None = None
        self.credits = 0
        self.explore_queue: list[int] = []
        self.hungry: list[int] = []
        self.removed: list[int] = []  # dead survivors out of the game (dead_survivor=removed)
        self.events: list[tuple[int, int, str]] = []
        self.result: str | None = None
        self.cause: str | None = None
        self._reset_exploration()
        for index in content.fixed_locations:  # the Graveyard first (EPE-3)
            self.build_location(index)
        self._wake()
        self._refresh_acting()

    # ---------------------------------------------------------------------- card helpers
    def name(self, card: int) -> str:
        return self.game.labels[card]

    @property
    def ctype(self) -> tuple[int, ...]:
        return self.game.ctype

    def card(self, instance: int):
        return self.game.content.cards[self.ctype[instance]]

    def location_name(self, pos: int) -> str:
        return self.game.content.locations[self.locations[pos]].name

    def seat_order(self) -> list[int]:
        """Seats in turn order from today's first player (EPE-11)."""
        return [*range(self.first, self.game.players), *range(self.first)]

    def alive_in_order(self) -> list[int]:
        """The seats with a survivor, in turn order from today's first player."""
        status = self.status
        out = []
        for seat in self.seat_order():  # a plain loop: a comprehension costs a frame in 3.11
            if status[seat] == "alive":
                out.append(seat)
        return out

    def _next_alive(self, start: int, include: bool = False) -> int:
        n = self.game.players
        for k in range(0 if include else 1, n + 1):
            seat = (start + k) % n
            if self.status[seat] == "alive":
                return seat
        return start

    def log(self, seat: int, text: str) -> None:
        self.events.append((self.day, seat, text))
        if len(self.events) > 2 * EVENTS_KEPT:
            del self.events[:-EVENTS_KEPT]

    def draw_shared(self, kind: str) -> int | None:
        """The top card of a shared deck; the Night deck recycles (EPE-32, EPE-40)."""
        deck = self.decks[kind]
        if not deck and kind == NIGHT and self.night_discard:
            deck.extend(self.night_discard)
            self.night_discard.clear()
            shuffle(self.rng, deck)
        return deck.pop() if deck else None

    def take_type(self, pile: list[int], ctype: int) -> int:
        """Remove from ``pile`` and return its first card of type ``ctype`` (copies are
        interchangeable; the legal moves guarantee one is there).

        Raises:
            ValueError: if ``pile`` holds no card of that type.
        """
        types = self.game.ctype
        for i, card in enumerate(pile):
            if types[card] == ctype:
                del pile[i]
                return card
        raise ValueError(f"no card of type {ctype} in the pile")

    def take_from_hand(self, seat: int, ctype: int) -> int:
        """:meth:`take_type` from ``seat``'s hand, for a card leaving the seat (``packs`` kept
        current). Raises ValueError if the hand holds no card of type ``ctype``."""
        card = self.take_type(self.hands[seat], ctype)
        packs = self.packs
        if packs is not None:
            packs[seat] -= self.game.counts.held[card]
        return card

    def recount_packs(self) -> None:
        """Set ``packs`` from the piles; the steps keep it current from then on."""
        seat = self.game.packed_counts().seat
        self.packs = list(map(seat, self.hands, self.discards, self.draws))

    def catastrophes_in(self, cards: Sequence[int]) -> int:
        return sum(map(self.game.catastrophe.__getitem__, cards))

    # ----------------------------------------------------------------- locations (3A, 3F)
    def build_location(self, index: int) -> int:
        """Put location ``index`` into play with its event deck (3A; EPE-14); its position."""
        loc = self.game.content.locations[index]
        deck: list[int] = []
        for kind, count in ((CATASTROPHE, loc.catastrophes), (SALVAGE, loc.salvage),
                            (SURVIVOR, loc.survivors)):
            for _ in range(count):
                card = self.draw_shared(kind)
                if card is not None:
                    deck.append(card)
        shuffle(self.rng, deck)
        self.locations.append(index)
        self.event_decks.append(deck)
        self.tokens.append(self.catastrophes_in(deck))
        return len(self.locations) - 1

    def add_to_location(self, pos: int, card: int) -> None:
        """A card goes face down on top of an event deck; a catastrophe adds a token (3C)."""
        self.event_decks[pos].append(card)
        if self.game.catastrophe[card]:
            self.tokens[pos] += 1

    def trash(self, card: int) -> None:
        """Trashed cards go on top of the Graveyard's event deck (TRASH VS. DISCARD)."""
        self.add_to_location(0, card)

    def remove_catastrophes(self, pos: int, n: int) -> int:
        """Up to ``n`` catastrophes leave event deck ``pos`` for the Graveyard; how many."""
        deck = self.event_decks[pos]
        cat = self.game.catastrophe
        taken = [c for c in deck if cat[c]][:n]
        for card in taken:
            deck.remove(card)
            self.tokens[pos] -= 1
            self.trash(card)
        self.check_win()
        return len(taken)

    def recovered_vp(self) -> int:
        """VP of the locations in play cleared of catastrophe tokens (3F; EPE-27)."""
        locations, tokens = self.game.content.locations, self.tokens
        vp = 0
        for pos, i in enumerate(self.locations):  # a plain loop: evaluator and view use it
            if tokens[pos] == 0:
                vp += locations[i].vp
        return vp

    def check_win(self) -> bool:
        """End the game as won when the Recovered VP reach the target (3F; EPE-27)."""
        if self.result is None and self.recovered_vp() >= self.game.params["target_vp"]:
            self.result, self.cause = "won", "recovered"
            self.phase = self.step = "over"
            if self.narrate:
                self.log(-1, f"{self.recovered_vp()} VP of locations are Recovered: the team wins")
            return True
        return False

    # ------------------------------------------------------------------ discard and death
    def to_discard(self, seat: int, card: int, cause: str, own: bool = False) -> bool:
        """``card`` enters ``seat``'s discard pile; True if the survivor dies of it (DEATH;
        EPE-34: three catastrophes in the discard pile). ``own``: the card comes from the
        seat's own hand (already counted in its ``packs``), else from outside the seat."""
        self.discards[seat].append(card)
        if not own:
            packs = self.packs
            if packs is not None:
                packs[seat] += self.game.counts.held[card]
        if self.status[seat] == "alive" and self.catastrophes_in(self.discards[seat]) >= DEADLY:
            self.die(seat, cause)
            return True
        return False

    def die(self, seat: int, cause: str) -> None:
        """The survivor dies: hand, deck and discard pile go face down onto the Graveyard
        (EPE-37); the seat joins the queue for a survivor (EPE-38)."""
        if self.narrate:
            self.log(seat, f"dies ({cause})")
        cards = self.discards[seat] + self.hands[seat] + self.draws[seat]
        self.discards[seat], self.hands[seat], self.draws[seat] = [], [], []
        if self.packs is not None:
            self.packs[seat] = 0
        for card in cards:
            self.trash(card)
        self.status[seat] = "dead"
        self.death_cause[seat] = cause
        self.queue.append(seat)
        if self.explorer == seat and self.phase == "explore":
            self.abort_exploration()  # EPE-36

    def use_card(self, seat: int, card_ref: tuple, beneficiary: int) -> dict:
        """Play a card in one printed mode (EPE-9): from ``seat``'s hand, or ("ms", seat,
        mode) a Mournful card (EPE-6); its points, e.g. ``{"weapon": 1}``."""
        if card_ref[0] == "ms":
            _, owner, mode = card_ref
            card = self.ms_card[owner]
            self.ms_card[owner] = None
            own = False
        else:
            ctype, mode = card_ref
            card = self.take_type(self.hands[seat], ctype)
            own = mode != "trash" and beneficiary == seat  # into its own discard pile
            if not own and self.packs is not None:  # the card leaves the seat
                self.packs[seat] -= self.game.counts.held[card]
        points = self.card(card).points(mode)
        if self.narrate:
            self.log(beneficiary, f"uses {self.name(card)} ({mode})")
        if mode == "trash":
            self.trash(card)
        else:
            self.to_discard(beneficiary, card, "collapse", own)
        return dict(points)

    # ---------------------------------------------------------------------------- hooks
    def _shuffle_unseen(self) -> None:
        """The shared decks, the location deck, each seat's draw pile and each location's
        event deck (their order is unseen future chance)."""
        for kind in sorted(self.decks):
            shuffle(self.rng, self.decks[kind])
        shuffle(self.rng, self.location_deck)
        for pile in (*self.draws, *self.event_decks):
            shuffle(self.rng, pile)

    def _legal_actions(self, seat: int) -> Sequence[Move]:
        return legal_moves(self, seat)

    def _legal_tables(self) -> Mapping[int, Any]:
        """Every acting seat's legal moves; remembered on the game spec when ``tables`` is set
        (:func:`.moves.legal_tables`), generated afresh otherwise."""
        if self.tables is None:
            return State._legal_tables(self)
        return legal_tables(self)

    def _illegal_reason(self, seat: int, action: Any) -> str:
        from meeple.games.epoch_ellipse.decisions import illegal_reason

        return illegal_reason(self, seat, action)

    def _refresh_acting(self) -> None:
        if self.phase == "over":
            self._acting = ()
        elif self.step == "answer":
            self._acting = (self.offer[1],)
        elif self.step == "pick":
            self._acting = (self.queue[0],)
        else:
            self._acting = (self.turn,)

    def _apply(self, joint: Mapping[int, Move]) -> None:  # type: ignore[override]
        ((seat, move),) = joint.items()
        DO[move.kind](self, seat, move.args)  # the ``_do_<kind>`` method
        self._advance()
        self._refresh_acting()

    # ------------------------------------------------------------------------- advance
    def _advance(self) -> None:
        """Move through automatic steps and phase ends until a seat must decide."""
        while self.phase != "over":
            if self.step == "pick":
                if self.queue and self.pool:
                    return
                self._wake()
                continue
            if self.step == "treat":
                if self.credits > 0 and self.catastrophes_in(self.hands[self.turn]):
                    return
                self.credits, self.step = 0, "plan"
                continue
            if self.phase == "plan":
                if self.step == "answer" or not self._plan_over():
                    return
                self.phase, self.step = "explore", "choose"
                self.explore_queue = self.alive_in_order()
                self.next_explorer()
                continue
            if self.phase == "explore":
                if self.explore_settle():
                    return
                continue
            if self.phase == "hunger":
                if self.hunger_settle():
                    return
                continue
            return

    # ------------------------------------------------------------------------ results
    def returns(self) -> tuple[float, ...]:
        """1 to each seat whose survivor is alive when the team wins, else 0 (EPE-28);
        zeros on a loss, a truncation or mid-game."""
        return tuple(1.0 if self.result == "won" and st == "alive" else 0.0
                     for st in self.status)

    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.returns()) if r > 0)

    def scores(self) -> tuple[float, ...]:
        """The team's Recovered VP, the same for every seat."""
        return (float(self.recovered_vp()),) * self.game.players

    def outcome(self) -> dict[str, Any]:
        """``{"team_win": bool, "cause": "recovered" | "starvation" | "combat" | "collapse" |
        "curse" | "truncation", "recovered_vp": int, "survivors": int}`` at the end; ``{}``
        before."""
        if self.result is None:
            return {}
        return {"team_win": self.result == "won", "cause": self.cause,
                "recovered_vp": self.recovered_vp(),
                "survivors": sum(1 for st in self.status if st == "alive")}

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def is_eliminated(self, seat: int) -> bool:
        """Whether the seat has no survivor now (dead or a Mournful Sacrifice)."""
        return self.status[seat] != "alive"

    def length(self) -> int:
        """Days played, the current one included."""
        return self.day

    # ---------------------------------------------------------------------------- hooks
    def _copy(self) -> EpochState:
        """The derived copy, with ``packs`` copied (the steps change it in place) and the
        ``tables`` memo shared (it belongs to the game spec)."""
        new: EpochState = ComponentState._copy(self)  # type: ignore[assignment]
        if self.packs is not None:
            new.packs = self.packs.copy()
        return new

    def after_deal(self, view: Mapping[str, Any]) -> None:
        """A determinized state remembers its legal tables in the game spec's memo
        (:func:`.moves.legal_tables`) and keeps its packed counts (``packs``)."""
        self.tables = self.game.legal_memo
        self.recount_packs()

    @classmethod
    def check_invariants(cls, game: Any, data: Any, base: str) -> None:
        """Tokens, survivor piles, the turn context (:mod:`.invariants`)."""
        invariants.check(game, data, base)


EpochEllipse.state_class = EpochState


#: Transitions by move kind: ``EpochState._do_<kind>`` (``_apply`` dispatches through it).
DO: dict[str, Callable[..., None]] = {name[4:]: getattr(EpochState, name)
                                      for name in dir(EpochState) if name.startswith("_do_")}
