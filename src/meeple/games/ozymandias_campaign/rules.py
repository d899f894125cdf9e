"""Ozymandias, campaign edition: the game spec and state transitions.

Rules: seeds/ozymandias-campaign.md; decisions OZW-1..OZW-54 in
docs/rules/ozymandias-campaign.md. A turn: the active seat picks a mode (``mode`` step), then

* **Intake**: ``distribute`` its incoming cubes one by one (``pass`` sends the rest right),
  then automatically collapse and score every tapped card, ``recover_colony`` one colony
  worker per discarded card, tap the empty cards and draw up to the hand size;
* **Migration**: ``migrate`` every cube, card by card from the right-most, to a position to
  its right; unrest returns; then ``recover_standing`` workers, or ``done``;
* **Campaign**: any number of ``stand``/``colony``/``lay``/``harvest`` actions, then ``end``.
  A contested point opens a ``war`` (a simultaneous decision of the two warring seats); a
  colony is followed by ``play`` (a card to the tableau); a stand by a port opens ``explore``.
  A war lost at no cost (no card, the worker kept) is not fought again at that point in the
  same turn (OZW-54), so every turn ends whatever the seat chooses.

Steps with nothing to choose are taken automatically. Legal moves live in :mod:`.moves`, the
arithmetic of scoring and wars in :mod:`.scoring`, what the map actions and wars do (stand,
colony, explore, war) in :mod:`.territory`, the mode choice and the Intake and Migration steps
in :mod:`.modes` (a mixin of the state).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, Any

from pydantic import Field

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
from meeple.engine.validation import NonNegInt
from meeple.engine.winners import RecordedWinners
from meeple.games.ozymandias_campaign import invariants, scenario_words
from meeple.games.ozymandias_campaign.actions import Move, parse_move
from meeple.games.ozymandias_campaign.board import SectorMap, view_map
from meeple.games.ozymandias_campaign.content import load_cards, load_tiles
from meeple.games.ozymandias_campaign.invariants import Placed, Row, Step, Suits
from meeple.games.ozymandias_campaign.modes import SUIT_COUNT, ModeSteps
from meeple.games.ozymandias_campaign.moves import (
    HARVEST,
    LAID,
    cube_count,
    has_lay_or_harvest,
    legal_moves,
    new_row,
    spec_tables,
)
from meeple.games.ozymandias_campaign.territory import attach, colony, resolve_war, stand
from meeple.games.ozymandias_campaign.variants import PARAMETERS, VARIANTS
from meeple.games.ozymandias_campaign.view import (
    explore_view,
    per_seat,
    players_view,
    suit_list,
    suits,
    tableaus_from,
    war_view,
)

#: Events kept in the state for the views (at least this many, at most twice as many).
EVENTS_KEPT = 24


@register
class OzymandiasCampaign(Game):
    """Ozymandias, campaign edition, for 2-6 seats; see the module docstring."""

    name = "ozymandias-campaign"
    title = "Ozymandias (campaign edition)"
    summary = "2-6 players, workers, faction and unrest cubes, tableaus, wars"
    rules_page = "docs/rules/ozymandias-campaign.md"
    score_name = "VP"
    playtest_bots = ("heuristic",)  # random games never reach 21 VP (rules page, Lab)
    #: ISMCTS settings (docs/bots.md): other seats play the heuristic bot, three heuristic
    #: steps after each leaf, then the evaluator; 60 iterations fit a default decision in
    #: 50 ms (issue 22, about 35 ms mean at heuristic-game positions, bench_search.py; 150
    #: before).
    search = {"iterations": 60, "rollout": "heuristic", "rollout_depth": 3,
              "opponents": "policy", "exploration": 0.1}
    timeout_kinds = ("end", "done", "pass", "keep", "intake")
    # ``state_class`` (set below ``CampaignState``): copy, JSON data, validation, views,
    # determinization and scenarios derive from ``CampaignState.COMPONENTS``
    # (meeple.engine.components).
    parameters = PARAMETERS
    variants = VARIANTS
    min_players, max_players, default_players = 2, 6, 4
    __slots__ = ("tiles", "tile_index", "cards", "moves", "point_names", "makers",
                 "mode_moves", "mode_tables", "end_moves", "arg_moves", "card_moves",
                 "card_keys", "card_texts")

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        p = self.params
        tiles = load_tiles(p["tiles"] or None)
        cards = load_cards(p["cards"] or None)
        if p["start_workers"] > p["workers"]:
            raise ParameterError(f"start_workers = {p['start_workers']} exceeds workers = "
                                 f"{p['workers']} (Game Setup 3)")
        need = self.players * p["hand_size"]
        if len(cards) < need:
            raise ParameterError(f"the deck has {len(cards)} cards; {self.players} hands of "
                                 f"{p['hand_size']} need {need} (Game Setup 4)")
        if len(tiles) < self.setup_tile_count():
            raise ParameterError(f"the tile file has {len(tiles)} tiles; setup needs "
                                 f"{self.setup_tile_count()} (OZW-32)")
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "tile_index", {t.id: i for i, t in enumerate(tiles)})
        object.__setattr__(self, "cards", cards)
        for name, table in spec_tables(self.players, cards).items():  # moves.py
            object.__setattr__(self, name, table)
        object.__setattr__(self, "point_names", {  # typed point names, any case -> TILE:point
            f"{t.id}:{point}".upper(): f"{t.id}:{point}" for t in tiles for point, _ in t.points})

    def setup_tile_count(self) -> int:
        """Tiles on the table at setup: 1, or 2 with 4+ players under ``two_if_4plus``."""
        return 2 if self.params["setup_tiles"] == "two_if_4plus" and self.players >= 4 else 1

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=True,
                            hidden_information=True, chance=True, cooperative=False,
                            max_length=self.params["max_rounds"], length_unit="rounds")

    def new_initial_state(self, seed: int = 0) -> CampaignState:
        """Shuffle cards and tiles (seeded), lay the setup tiles, deal (Game Setup)."""
        return CampaignState(self, seed)

    def parse_action(self, text: str, seat: int) -> Move:
        """Read an action (notation in :mod:`.actions`); legality is checked on apply."""
        self.check_seat(seat)
        return parse_move(text, seat, self.point_names)

    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"Seat {i}" for i in range(self.players))


def _card_ids(game: OzymandiasCampaign) -> tuple[int, ...]:
    """Every card index, the copies of one name (``G5``) together, names in file order: a
    determinization gives a name the first copies not seen (``Pieces.names``)."""
    texts = game.card_texts
    order = {name: k for k, name in enumerate(dict.fromkeys(texts))}
    return tuple(sorted(range(len(texts)), key=lambda i: (order[texts[i]], i)))


def _map_tiles(game: OzymandiasCampaign, value: Any) -> list[Any]:
    """The tile indexes on a map (a :class:`SectorMap`, or the validated placements: an
    unknown tile id is left as it is, to be refused as unknown)."""
    if isinstance(value, SectorMap):
        return [game.tile_index[p.tile.id] for p in value.placements]
    return [game.tile_index.get(p.tile, p.tile) for p in value]


def copy_tableaus(tableaus: list[list[list[int]]]) -> list[list[list[int]]]:
    """The tableaus with every row copied (plain loops: a comprehension costs a frame in
    3.11)."""
    copies = []
    for rows in tableaus:
        copied = []
        for row in rows:
            copied.append(row.copy())
        copies.append(copied)
    return copies


def _restored_explore_at(view: Mapping[str, Any], state: Any) -> str | None:
    explore = view["explore"]
    return None if explore is None else explore["at"]


def _restored_drawn(view: Mapping[str, Any], state: Any) -> int | None:
    explore = view["explore"]
    return None if explore is None else state.game.tile_index[explore["tile"]]


def _restored_war(view: Mapping[str, Any], state: Any) -> list[Any] | None:
    war = view["war"]
    return None if war is None else [war["kind"], war["point"], war["attacker"],
                                     war["defender"]]


class CampaignState(ModeSteps, RecordedWinners, ComponentState):
    """One point of a playthrough (fields as in rules-questions 4.1).

    Per seat: ``hands`` (card indexes), ``tableaus`` (rows, see :mod:`.moves`), ``incoming``
    (cubes per suit on the seat's left), ``unrest``, ``vp``, ``bag`` and ``supply`` (worker
    counts). The map: ``map`` (a :class:`SectorMap`), ``standing`` (point -> seat),
    ``stacks`` (colony point -> seats bottom to top), ``tile_deck`` (tile indexes, top =
    last). Cards: ``deck`` (top = last) and ``discard``. Turn: ``active``, ``step``, ``turns``
    (completed), and the step data ``owed`` (colony recoveries), ``mig_pos``/``mig_out``
    (migration), ``war`` ([kind, point, attacker, defender]), ``explore_at``/``drawn_tile``,
    ``lost_wars`` (points where the active seat lost a war this turn at no cost, OZW-54).
    End: ``trigger`` (the seat that reached the target) and ``last_seat`` (whose turn ends
    the game). ``cubes_in``/``cubes_out``: cubes taken from and returned to the supply, per
    suit (the supply is unlimited, OZW-39; these make conservation checkable).

    Hidden (OZW-41): hands, the deck and tile deck order, war cards before the reveal.

    The rules never change a colony stack's list in place: a move that changes a stack gives
    the point a new list.
    """

    #: Cards by index (copies of one name interchangeable: views show ``G5``), tiles by
    #: index; a position edited by hand may leave some out of play.
    PIECES = {"card": Pieces(_card_ids, int, names=lambda game: game.card_texts, copies=True,
                             parse=scenario_words.parse_card, all_placed=False),
              "tile": Pieces(lambda game: tuple(range(len(game.tiles))), int,
                             all_placed=False)}
    #: What a state is made of (docs/rules/ozymandias-campaign.md, "Search"): the copy, JSON
    #: data, validation, views, determinization and scenarios derive from it
    #: (meeple.engine.components). A determinization names the tableau and discard cards
    #: first, then the seat's hand, and deals the unseen cards to the other hands, then the
    #: deck, then shuffles the tiles neither on the map nor drawn into the tile deck.
    COMPONENTS = (
        Shown("round", show=lambda st, seat: st.turns // st.game.players + 1),
        Shown("rounds_played", show=lambda st, seat: st.length()),
        Value("active", type=NonNegInt, seat=True),
        Shown("right_of", show=lambda st, seat: [(s - 1) % st.game.players
                                                 for s in range(st.game.players)]),
        Value("step", type=Step),
        Shown("acting", show=lambda st, seat: list(st._acting)),
        Value("map", type=Annotated[list[Placed], Field(min_length=1)], pieces="tile",
              holds=_map_tiles, shared=True, show=lambda st: st.map.to_json(),
              restore=lambda view, st: view_map(st.game, view["map"]),
              to_data=SectorMap.to_json),  # from its data in after_restore
        Shown("open_ports", show=lambda st, seat: [list(p) for p in st.map.open_ports]),
        Value("standing", type=dict[str, NonNegInt],
              show=lambda st: dict(sorted(st.standing.items()))),
        Value("stacks", type=dict[str, list[NonNegInt]],
              show=lambda st: {p: list(s) for p, s in sorted(st.stacks.items())},
              draw_copy=dict.copy),  # draws share the lists: the rules replace a stack
        Value("tableaus", type=list[Row], per_seat=True, pieces="card", view=None,
              holds=lambda game, v: [row[0] for t in v for row in t], takes="card",
              restore=tableaus_from, copy=copy_tableaus,  # rows: three levels
              describe=scenario_words.tableaus),
        Value("incoming", type=Suits, per_seat=True, view=None,
              restore=lambda view, st: [suit_list(p["incoming"]) for p in view["players"]]),
        Value("unrest", type=NonNegInt, per_seat=True, view=None, restore=per_seat("unrest")),
        Value("vp", type=NonNegInt, per_seat=True, view=None, restore=per_seat("vp")),
        Value("bag", type=NonNegInt, per_seat=True, view=None, restore=per_seat("bag")),
        Value("supply", type=NonNegInt, per_seat=True, view=None, restore=per_seat("supply")),
        Zone("hands", pieces="card", per_seat=True, visibility=OWNER, show_sorted="hand",
             sizes=lambda view: [p["hand_size"] for p in view["players"]]),
        Shown("players", show=players_view),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Zone("discard", pieces="card", show="discard"),
        Zone("tile_deck", pieces="tile", visibility=COUNT, count="tile_deck_size",
             draw_pile=True),
        Value("turns", type=NonNegInt),
        Value("cubes_in", type=Suits, show=lambda st: suits(st.cubes_in),
              restore=lambda view, st: suit_list(view["cubes_in"])),
        Value("cubes_out", type=Suits, show=lambda st: suits(st.cubes_out),
              restore=lambda view, st: suit_list(view["cubes_out"])),
        Value("owed", type=NonNegInt),
        Value("mig_pos", type=int, view="migrating",
              show=lambda st: st.mig_pos if st.step == "migrate" else None,
              restore=lambda view, st: -1 if view["migrating"] is None else view["migrating"]),
        Value("mig_out", type=Suits, view="migrated_out", show=lambda st: suits(st.mig_out),
              restore=lambda view, st: suit_list(view["migrated_out"])),
        Value("war", type=list[Any] | None, show=war_view, restore=_restored_war),
        Value("explore_at", type=str | None, view=None, restore=_restored_explore_at),
        Value("drawn_tile", type=NonNegInt | None, pieces="tile", view="explore",
              holds=lambda game, v: [] if v is None else [v], show=explore_view,
              restore=_restored_drawn),
        Value("trigger", type=NonNegInt | None),
        Value("last_seat", type=NonNegInt | None),
        event_log(),
        recorded_winners(),
        Value("truncated", type=bool),
        Value("lost_wars", type=list[str], default=list, sparse=True,  # OZW-54
              show=lambda st: sorted(st.lost_wars)),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: OzymandiasCampaign, seed: int) -> None:
        super().__init__(game, seed)
        p, n = game.params, game.players
        rng = self.rng
        tile_deck = list(range(len(game.tiles)))
        shuffle(rng, tile_deck)  # Game Setup 1
        opening = [tile_deck.pop() for _ in range(game.setup_tile_count())]
        self.map = SectorMap.opening(game.tiles[i] for i in opening)  # Game Setup 2
        self.tile_deck = tile_deck
        self.deck = list(range(len(game.cards)))
        shuffle(rng, self.deck)
        self.discard: list[int] = []
        self.hands = [[self.deck.pop() for _ in range(p["hand_size"])] for _ in range(n)]
        self.tableaus: list[list[list[int]]] = [[] for _ in range(n)]
        self.incoming = [[1] * SUIT_COUNT for _ in range(n)]  # Game Setup 4
        self.cubes_in = [n] * SUIT_COUNT
        self.cubes_out = [0] * SUIT_COUNT
        self.unrest = [0] * n
        self.vp = [0] * n
        self.bag = [p["workers"] - p["start_workers"]] * n  # Game Setup 3
        self.supply = [p["start_workers"]] * n
        self.standing: dict[str, int] = {}
        self.stacks: dict[str, list[int]] = {}
        self.active = rng.randrange(n)  # Game Setup 5
        self.step = "mode"
        self.turns = 0
        self.owed = 0
        self.mig_pos = -1
        self.mig_out = [0] * SUIT_COUNT
        self.war: list[Any] | None = None
        self.explore_at: str | None = None
        self.drawn_tile: int | None = None
        self.trigger: int | None = None
        self.last_seat: int | None = None
        self.events: list[tuple[int, int, str]] = []
        self.winners_: tuple[int, ...] | None = None
        self.truncated = False
        self.lost_wars: list[str] = []
        self._refresh_acting()

    # ----------------------------------------------------------------------- helpers
    def right_of(self, seat: int) -> int:
        """The right neighbour: the previous seat in turn order (OZW-2)."""
        return (seat - 1) % self.game.players

    def card_text(self, card: int) -> str:
        """The text of card index ``card`` (``G5``; the game's table of card texts)."""
        return self.game.card_texts[card]

    def _refresh_acting(self) -> None:
        if self.step == "over":
            self._acting = ()
        elif self.step == "war":
            self._acting = tuple(sorted(self.war[2:4]))
        else:
            self._acting = (self.active,)

    def _log(self, seat: int, text: str) -> None:
        """Note an event for the views; only the recent ones are kept (the record has all
        actions), so copies and digests stay cheap in long games."""
        self.events.append((self.turns // self.game.players + 1, seat, text))
        if len(self.events) > 2 * EVENTS_KEPT:
            del self.events[:-EVENTS_KEPT]

    def _take(self, seat: int, suit: int, rank: int) -> int:
        """Remove a card of ``suit`` and ``rank`` from ``seat``'s hand; its index."""
        keys = self.game.card_keys  # card index -> (suit, rank)
        key = (suit, rank)
        hand = self.hands[seat]
        for i, c in enumerate(hand):
            if keys[c] == key:
                return hand.pop(i)
        raise AssertionError("legal moves only name cards in hand")

    def _draw(self) -> int | None:
        """The deck's top card, reshuffling the discard pile when it is empty (OZW-36)."""
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            shuffle(self.rng, self.deck)
            if self.narrate:
                self._log(-1, "the discard pile is shuffled into a new deck")
        return self.deck.pop() if self.deck else None

    # --------------------------------------------------------------------------- hooks
    def _shuffle_unseen(self) -> None:
        """The card deck and the tile deck (their order is unseen future chance)."""
        shuffle(self.rng, self.deck)
        shuffle(self.rng, self.tile_deck)

    def _legal_actions(self, seat: int) -> Sequence[Move]:
        return legal_moves(self, seat)

    def _legal_tables(self) -> Mapping[int, tuple[Sequence[Move], Collection[Move]]]:
        """The engine's tables (``State._legal_tables``): at the ``mode`` step the seat's one
        shared table (its three modes are always legal, OZW-40), else from
        :func:`.moves.legal_moves`, the tuple of moves serving as the membership container
        too (one legality check per decision: cheaper than hashing every move into a set)."""
        if self.step == "mode":
            return self.game.mode_tables[self.active]
        tables = {}
        for seat in self._acting:
            actions = tuple(legal_moves(self, seat))
            tables[seat] = (actions, actions)
        return tables

    def _illegal_reason(self, seat: int, action: Any) -> str:
        from meeple.games.ozymandias_campaign.decisions import illegal_reason

        return illegal_reason(self, seat, action)

    def _apply(self, joint: Mapping[int, Move]) -> None:  # type: ignore[override]
        if self.step == "war":
            attacker, defender = self.war[2], self.war[3]
            resolve_war(self, joint[attacker].args, joint[defender].args)
        else:
            ((seat, move),) = joint.items()
            _TRANSITIONS[move.kind](self, seat, move.args)  # self._do_<kind>
        moves = self._settle()
        self._refresh_acting()
        if moves is not None:  # the decision's legal moves, already listed: the engine's table
            actions = tuple(moves)
            self._legal = {self.active: (actions, actions)}

    def _settle(self) -> list[Move] | None:
        """Take every step that leaves nothing to choose, until a real decision (or the
        end). Returns the legal moves of the decision reached when it had to list them to
        see that there is a choice (``distribute``, ``campaign``; not a campaign step with a
        lay or harvest, :func:`.moves.has_lay_or_harvest`), else None."""
        while True:
            step, seat = self.step, self.active
            if step == "distribute":
                if not any(self.incoming[seat]) or not self.tableaus[seat]:
                    self._do_pass(seat, ())
                    continue
                moves = legal_moves(self, seat)
                if len(moves) == 1:  # no cube fits: the list is its cube moves, then ``pass``
                    self._do_pass(seat, ())
                    continue
                return moves
            elif step == "recover_colony":
                if not self.owed or not any(seat in s for s in self.stacks.values()):
                    self._finish_intake(seat)
                    continue
            elif step == "migrate":
                tableau = self.tableaus[seat]
                while self.mig_pos >= 0 and not cube_count(tableau[self.mig_pos]):
                    self.mig_pos -= 1
                if self.mig_pos < 0:
                    self._finish_migration(seat)
                    continue
            elif step == "recover_standing":
                if seat not in self.standing.values() and not any(
                        row[HARVEST] for row in self.tableaus[seat]):
                    self._end_turn()
                    continue
            elif step == "campaign":
                if has_lay_or_harvest(self, seat):  # a choice: listed if asked (not at leaves)
                    return None
                moves = legal_moves(self, seat)
                if len(moves) == 1:  # only ``end``
                    self._end_turn()
                    continue
                return moves
            elif step == "play":
                if not self.hands[seat]:  # no card: the lay stands alone (OZW-28)
                    self.step = "campaign"
                    continue
            elif step == "war":
                attacker, defender = self.war[2], self.war[3]
                if not self.hands[attacker] or not self.hands[defender]:
                    # the one with cards wins without playing; neither: the active seat
                    resolve_war(self, None, None, bool(self.hands[attacker])
                                or not self.hands[defender])
                    continue
            return None

    # ----------------------------------------------------------------------- campaign
    def _do_stand(self, seat: int, args: tuple) -> None:
        stand(self, seat, *args)

    def _do_attach(self, seat: int, args: tuple) -> None:
        attach(self, seat, *args)

    def _do_colony(self, seat: int, args: tuple) -> None:
        colony(self, seat, *args)

    def _do_play(self, seat: int, args: tuple) -> None:
        card = self._take(seat, *args)
        row = new_row(card)
        if self.game.params["tableau_insert"] == "left":
            self.tableaus[seat].insert(0, row)
        else:
            self.tableaus[seat].append(row)
        suit = self.game.cards[card].suit
        self.incoming[seat][suit] += 1  # "add a cube of its suit to your left" (OZW-3)
        self.cubes_in[suit] += 1
        if self.narrate:
            self._log(seat, f"plays {self.card_text(card)} to the tableau")
        self.step = "campaign"

    def _do_lay(self, seat: int, args: tuple) -> None:
        (pos,) = args
        if self.game.params["laydown_source"] == "bag" and self.bag[seat]:
            self.bag[seat] -= 1  # a newly recruited worker (OZW-17)
        else:
            self.supply[seat] -= 1
        self.tableaus[seat][pos][LAID] = 1
        if self.narrate:
            self._log(seat, f"lays a worker down on card {pos + 1}")

    def _do_harvest(self, seat: int, args: tuple) -> None:
        (pos,) = args
        self.supply[seat] -= 1
        self.tableaus[seat][pos][HARVEST] = 1
        if self.narrate:
            self._log(seat, f"marks card {pos + 1} for harvest")

    def _do_end(self, seat: int, args: tuple) -> None:
        self._end_turn()

    # ------------------------------------------------------------------------ the end
    def _end_turn(self) -> None:
        """The next seat's turn, or the end (Victory; OZW-38; X-5 cap)."""
        n = self.game.players
        ended = self.active
        self.turns += 1
        self.lost_wars = []
        self.step = "mode"
        if self.trigger is not None and ended == self.last_seat:
            self._game_over(truncated=False)
            return
        if self.turns >= self.game.params["max_rounds"] * n:
            self._game_over(truncated=True)
            return
        self.active = (ended + 1) % n

    def _game_over(self, truncated: bool) -> None:
        self.step = "over"
        self.truncated = truncated
        best = max(self.vp)
        top = [s for s, v in enumerate(self.vp) if v == best]
        if len(top) > 1 and not truncated and self.game.params["tiebreak"] == "turn_order":
            n = self.game.players
            order = [(self.trigger + k) % n for k in range(1, n + 1)]
            top = [min(top, key=order.index)]
        self.winners_ = tuple(top)
        if self.narrate:
            self._log(-1, "the game ends" + (" (round cap)" if truncated else ""))

    # ------------------------------------------------------------------------ results
    def scores(self) -> tuple[float, ...]:
        """Victory points per seat."""
        return tuple(float(v) for v in self.vp)

    def is_truncated(self) -> bool:
        return self.truncated

    def length(self) -> int:
        """Rounds played (a round is one turn of each seat), the current one included."""
        return -(-self.turns // self.game.players)

    # ------------------------------------------------------------------ components' hooks
    def after_restore(self) -> None:
        """The map from its JSON data (placements), then whose turn it is."""
        if not isinstance(self.map, SectorMap):
            self.map = SectorMap.from_json(self.map, {t.id: t for t in self.game.tiles})
        self._refresh_acting()

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """Points, workers, seats, the end and a war in progress (:mod:`.invariants`)."""
        invariants.check(game, data, base)

    @classmethod
    def scenario_keys(cls) -> Mapping[str, str]:
        """The game's own scenario words (:mod:`.scenario_words`): tiles, points, colonies,
        incoming cubes, supplies, next tiles; the model reads the card words."""
        return scenario_words.WORDS

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """The described position at the start of ``active``'s turn
        (:func:`.scenario_words.setup`)."""
        scenario_words.setup(self, **extra, hands=described.get("hands"))


#: Move kind -> the transition ``CampaignState._do_<kind>`` (its own or :class:`.modes.ModeSteps`'s;
#: looked up once, not per move).
_TRANSITIONS = {name[4:]: getattr(CampaignState, name) for name in dir(CampaignState)
                if name.startswith("_do_")}


#: The state and its components (``Game.state_class``).
OzymandiasCampaign.state_class = CampaignState
