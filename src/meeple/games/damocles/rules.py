"""Damocles: the game spec and state transitions.

Rules: seeds/damocles.txt; decisions DAM-1..DAM-39 in docs/rules/damocles.md. Phases: the
simultaneous setup discard (SETUP 1, DAM-25), the placement of seven tokens (SETUP 2,
DAM-10), then ``cycles`` x players turns (DAM-28). A turn is a chain of sub-decisions
(``step``): ``pre`` (Haste or the first swap), ``swap2`` (an optional second swap after a
Haste), ``play`` (the merged play window, DAM-22), ``keep`` (an Oracle's keep choice, DAM-21)
and ``destroy`` (Destruction targets, DAM-32). Legal moves live in :mod:`.moves`.

Where a played codex goes: a permanent to its owner's tableau (DAM-17); a consumed one to the
turn's ``consumed`` list, then out of the game at ``end`` (``removed``, DAM-23, DAM-38); a
destroyed one out of the game at once (DAM-39). Only never-played codices (setup discards,
Oracle rejects) reach the discard pile, so a reshuffle (DAM-19) never brings back a codex that
has scored ("they cannot be scored twice").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from meeple.engine.components import (
    COUNT,
    OWNER,
    ComponentState,
    Mark,
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
from meeple.games.damocles import invariants
from meeple.games.damocles.actions import Move, parse_move
from meeple.games.damocles.codex import CIRCLE, GOD_INITIALS, GODS, Codex
from meeple.games.damocles.content import load_deck
from meeple.games.damocles.matching import mask_on, pip_table, readings
from meeple.games.damocles.moves import legal_moves, remembered_moves
from meeple.games.damocles.variants import PARAMETERS, VARIANTS

#: Circles whose rotation masks a game spec remembers (``DamoclesState.circle_masks``).
CIRCLE_MEMO = 4096


God = Annotated[int, Field(ge=0, le=4)]
GOD_INDEX = {name: i for i, name in enumerate(GODS)}
DEFAULT_CIRCLE = "HADES POSEIDON ARTEMIS DEMETER NYX HADES POSEIDON"


def parse_circle(text: str | Sequence[str]) -> list[int]:
    """Seven gods, by name or initial (``"HADES NYX A D P H N"``), as god indices (a
    scenario's ``circle``).

    Raises:
        ParameterError: not seven words, or a word that is not a god.
    """
    words = text.split() if isinstance(text, str) else list(text)
    if len(words) != CIRCLE:
        raise ParameterError(f"circle: expected {CIRCLE} gods, got {len(words)}: {words}")
    out = []
    for word in words:
        w = str(word).upper()
        if w in GODS:
            out.append(GODS.index(w))
        elif w in GOD_INITIALS:
            out.append(GOD_INITIALS.index(w))
        else:
            raise ParameterError(f"circle: {word!r} is not a god ({', '.join(GODS)})")
    return out


def _shown_active(state: DamoclesState) -> int | None:
    """The seat placing or taking its turn; None in the setup discard and at the end."""
    return state.active if state.phase in ("place", "turn") else None


def _restored_active(view: Mapping[str, Any], state: DamoclesState) -> int:
    """``active`` from a view that shows None: the first placer in the setup discard, the
    seat that ended the last turn at the end (DAM-28)."""
    phase = view["phase"]
    if phase == "discard":
        return view["placer"]
    if phase == "over":
        return (view["placer"] + CIRCLE + view["turns_taken"] - 1) % view["players"]
    return view["active"]


class DamoclesState(RecordedWinners, ComponentState):
    """One point of a Damocles playthrough (fields as in rules-questions 1.1).

    Attributes: ``points`` per seat (the score), ``hands``, ``tableaus``, ``circle`` (god
    indices, None while empty), ``bank`` (per god, None if unlimited), ``deck`` (top = last),
    ``discard``, ``removed`` (out of the game: consumed and destroyed codices, DAM-38, DAM-39),
    ``phase`` (discard, place, turn, over) and the turn context (reset by ``_reset_turn``).

    Hidden: every hand (but its size), the deck order, the discard pile, an Oracle's drawn
    codices (their owner sees them) and pending setup discards. Public: the circle, the bank,
    tableaus, the codices out of the game, scores, the turn context and the event log.
    """

    PIECES = {"codex": Pieces(lambda game: tuple(c.id for c in game.deck))}
    #: What a Damocles state is made of (docs/rules/damocles.md, "State and views"): the
    #: copy, JSON data, validation, views, determinization and scenarios derive from it
    #: (meeple.engine.components). Hidden zones are dealt in this order by a determinization:
    #: the other hands, another seat's Oracle pool, the discard pile, the deck.
    COMPONENTS = (
        Value("phase", type=Literal["discard", "place", "turn", "over"]),
        Shown("players", show=lambda st, seat: st.game.players),
        Value("placer", type=NonNegInt, seat=True),  # the first placer (DAM-10)
        Value("turns_taken", type=NonNegInt),
        Value("active", type=NonNegInt, seat=True, show=_shown_active,
              restore=_restored_active),
        Shown("cycle", show=lambda st, seat: min(st.turns_taken // st.game.players + 1,
                                                 st.game.params["cycles"])),
        Shown("turns_total", show=lambda st, seat: st.game.params["cycles"] * st.game.players),
        Value("circle", type=Annotated[list[God | None], Field(min_length=7, max_length=7)],
              show=lambda st: [None if g is None else GODS[g] for g in st.circle],
              restore=lambda view, st: [None if g is None else GOD_INDEX[g]
                                        for g in view["circle"]],
              describe=parse_circle),
        Value("placed", type=Annotated[int, Field(ge=0, le=7)], view=None,
              restore=lambda view, st: CIRCLE - st.circle.count(None)),
        Value("bank", type=Annotated[list[NonNegInt], Field(min_length=5, max_length=5)] | None,
              show=lambda st: None if st.bank is None else dict(zip(GODS, st.bank, strict=True)),
              restore=lambda view, st: None if view["bank"] is None
              else [view["bank"][g] for g in GODS]),
        Value("points", type=NonNegInt, per_seat=True, view="scores"),
        Zone("hands", pieces="codex", per_seat=True, visibility=OWNER, show="hand_order",
             show_sorted="hand", count="hand_sizes"),  # as held: orders the legal moves
        Zone("tableaus", pieces="codex", per_seat=True, show="tableau_order",
             show_sorted="tableaus"),  # in play order (DAM-17)
        Zone("keep_pool", pieces="codex", visibility=OWNER, owner=lambda st: st.active,
             when=lambda st: st.step == "keep", show_sorted="keep_pool",
             count="turn.keep_size"),  # an Oracle's draw (DAM-21)
        Zone("discard", pieces="codex", visibility=COUNT, count="discard_size"),
        Zone("deck", pieces="codex", visibility=COUNT, count="deck_size", draw_pile=True),
        Zone("removed", pieces="codex", show_sorted="removed",  # played face up (DAM-38, 39)
             default=list),
        Value("step", type=Literal["pre", "swap2", "play", "keep", "destroy"],
              view="turn.step"),
        Value("swaps_allowed", type=Annotated[int, Field(ge=1, le=2)],
              view="turn.swaps_allowed"),
        Value("swaps_done", type=Annotated[int, Field(ge=0, le=2)], view="turn.swaps_done"),
        Value("relax_tokens", type=NonNegInt, view="turn.relax_tokens"),
        Value("annex_available", type=bool, view="turn.annex_available"),
        Value("pairs_used", type=list[Annotated[list[str], Field(min_length=2, max_length=2)]],
              pieces="codex", view="turn.pairs_used",
              show=lambda st: sorted([list(p) for p in st.pairs_used]),
              restore=lambda view, st: {(p, q) for p, q in view["turn"]["pairs_used"]},
              from_data=lambda v: {tuple(pair) for pair in v}),
        Value("pair_played", type=bool, view=None,  # set and reset with pairs_used
              restore=lambda view, st: bool(st.pairs_used)),
        Value("destroy_queue", view="turn.destroy_queue",
              type=list[Annotated[list[NonNegInt], Field(min_length=2, max_length=2)]]),
        Value("annex_played", type=bool, view="turn.annex_played"),
        Zone("consumed", pieces="codex", show="turn.consumed"),  # out at the turn's end
        Mark("granted", pieces="codex", visibility=OWNER, owner=lambda st: st.active,
             show_sorted="granted", count="turn.granted_count"),  # drawn this turn (DAM-20)
        Value("keep_count", type=NonNegInt, view="turn.keep_count"),
        Shown("keep_count", show=lambda st, seat: st.keep_count,
              when=lambda st, seat: seat == st.active and st.step == "keep"),
        event_log(),
        recorded_winners(),
    )
    #: Besides them, ``tables``: where the state remembers its legal lists at the swap steps
    #: and in the play window. A determinization's states (and their copies) hold the game
    #: spec's memo (:func:`.moves.remembered_moves`): a search lists the searching seat's own
    #: play windows, and the swaps on the same public circle, again and again. A
    #: playthrough's hold None and generate every list: its decisions rarely repeat.
    __slots__ = (*(c.name for c in COMPONENTS if not isinstance(c, Shown)), "tables")

    def __init__(self, game: Damocles, seed: int) -> None:
        super().__init__(game, seed)
        p, n = game.params, game.players
        self.circle: list[int | None] = [None] * CIRCLE
        self.bank = None if p["bank"] == "infinite" else [4] * 5  # DAM-9
        self.deck = [c.id for c in game.deck]
        shuffle(self.rng, self.deck)  # SETUP 1, seeded
        self.hands = [[self.deck.pop() for _ in range(p["deal"])] for _ in range(n)]
        self.discard: list[str] = []
        self.removed: list[str] = []  # out of the game for good (DAM-38, DAM-39)
        self.tableaus: list[list[str]] = [[] for _ in range(n)]
        self.points = [0] * n
        self.placer = self.rng.randrange(n) if p["first_placer"] == "random" else 0
        self.placed = 0
        self.active = self.placer
        self.turns_taken = 0
        self.events: list[list[Any]] = []  # a determinization's copied entries are tuples
        self.winners_: tuple[int, ...] | None = None
        self.tables: dict[tuple, Any] | None = None
        self._reset_turn()
        self.phase = "discard" if p["setup_discard"] else "place"
        self._refresh_acting()

    # ----------------------------------------------------------------------- helpers
    def mask(self, codex_id: str, relaxed: bool) -> int:
        """Rotations at which codex ``codex_id`` matches the circle now (0 = no match:
        :func:`.matching.match_mask`), also stored in :meth:`circle_masks`."""
        return self.masked(self.circle_masks(), codex_id, 1 if relaxed else 0)

    def masked(self, entry: tuple[dict[str, int], dict[str, int], tuple[int, ...]],
               codex_id: str, which: int) -> int:
        """:meth:`mask` from this circle's ``entry`` of :meth:`circle_masks` (``which``: 0
        printed, 1 relaxed), computed and stored there if absent."""
        masks = entry[which]
        found = masks.get(codex_id)
        if found is None:
            game = self.game
            found = masks[codex_id] = mask_on(entry[2], game._readings[codex_id][which],
                                              game._matching[0])
        return found

    def circle_masks(self) -> tuple[dict[str, int], dict[str, int], tuple[int, ...]]:
        """The rotation masks known for the circle now: ``(printed, relaxed, pips)``, dicts
        codex id -> :meth:`mask` (a codex absent until :meth:`mask` is asked) and the circle's
        :func:`.matching.pip_table`. A mask is a pure function of the circle and the spec's
        matching parameters, so every state with this circle shares the entry (on the game
        spec, ``CIRCLE_MEMO`` circles at most, then started again empty): a search lists the
        moves of the same public circle in every determinization. Callers only read the
        dicts; :meth:`masked` fills them."""
        memo = self.game._circle_masks
        key = tuple(self.circle)
        found = memo.get(key)
        if found is None:
            if len(memo) >= CIRCLE_MEMO:
                memo.clear()
            found = memo[key] = ({}, {}, pip_table(key))
        return found

    def _reset_turn(self) -> None:
        self.step = "pre"
        self.swaps_allowed, self.swaps_done, self.relax_tokens = 1, 0, 0
        self.annex_played = self.annex_available = self.pair_played = False
        self.pairs_used: set[tuple[str, str]] = set()
        self.consumed: list[str] = []
        self.granted: list[str] = []
        self.keep_pool: list[str] = []
        self.keep_count = 0
        self.destroy_queue: list[list[int]] = []

    def _refresh_acting(self) -> None:
        """``_acting`` from the phase and the active seat: called wherever either changes (the
        setup discard, a placement, the end of a turn, a new or restored state); the other
        transitions keep the acting seat."""
        phase = self.phase
        if phase == "turn" or phase == "place":
            self._acting = (self.active,)
        elif phase == "discard":
            self._acting = tuple(range(self.game.players))
        else:  # over
            self._acting = ()

    def _log(self, seat: int, text: str) -> None:
        self.events.append([self.turns_taken, seat, text])

    def _codex(self, cid: str) -> Codex:
        return self.game.codex_by_id[cid]

    def _draw(self, count: int) -> list[str]:
        """Take up to ``count`` codices from the top of the deck, reshuffling the discard pile
        into a new deck when it runs out (DAM-19). The pile holds only codices never played (setup
        discards, Oracle rejects): played ones are in a tableau or out of the game (DAM-38)."""
        drawn = []
        for _ in range(count):
            if not self.deck and self.discard and self.game.params["reshuffle"]:
                self.deck, self.discard = self.discard, []
                shuffle(self.rng, self.deck)
                if self.narrate:
                    self._log(self.active, "the discard pile is shuffled into a new deck")
            if not self.deck:
                break
            drawn.append(self.deck.pop())
        return drawn

    def _first_play(self, seat: int, cid: str) -> None:
        """A codex leaves the hand: it scores its pips once (SCORING), permanents go to the
        tableau (DAM-17), consumed ones are set aside for step 5 and then leave the game (DAM-23,
        DAM-38). Nothing played ever returns to a hand, so no codex scores twice."""
        self.hands[seat].remove(cid)
        pips, permanent = self.game._scoring[cid]
        self.points[seat] += pips
        if permanent:
            self.tableaus[seat].append(cid)
        else:
            self.consumed.append(cid)

    # --------------------------------------------------------------------------- hooks
    def _shuffle_unseen(self) -> None:
        """The deck (its order is unseen future chance; hands and the discard pile stay)."""
        shuffle(self.rng, self.deck)

    def _legal_actions(self, seat: int) -> Sequence[Move]:
        return legal_moves(self, seat)

    def _legal_tables(self) -> Mapping[int, Any]:
        """The engine's tables (``State._legal_tables``); at a swap step or in the play window
        a state holding ``tables`` remembers them there (:func:`.moves.remembered_moves`)."""
        if (self.tables is not None and self.phase == "turn"
                and self.step in ("play", "pre", "swap2")):
            seat = self.active
            return {seat: remembered_moves(self, seat)}
        return State._legal_tables(self)

    def _illegal_reason(self, seat: int, action: Any) -> str:
        from meeple.games.damocles.decisions import illegal_reason

        return illegal_reason(self, seat, action)

    def _apply(self, joint: Mapping[int, Move]) -> None:  # type: ignore[override]
        if self.phase == "discard":  # SETUP 1: all seats at once, face down (DAM-25)
            for seat in sorted(joint):  # seat order: the pile's order must not depend on
                for cid in joint[seat].args:  # who submitted first
                    self.hands[seat].remove(cid)
                    self.discard.append(cid)
            self.phase = "place"
            self.active = self.placer
            self._refresh_acting()
            return
        (seat,) = joint  # one seat acts (cheaper than unpacking ``joint.items()``)
        move = joint[seat]
        _TRANSITIONS[move.kind](self, seat, move.args)  # those that move the turn on refresh

    def _do_place(self, seat: int, args: tuple[int, int]) -> None:
        god, slot = args
        self.circle[slot] = god
        if self.game.params["bank"] == "shared20":
            self.bank[god] -= 1  # setup draws from the one supply (DAM-9 b)
        self.placed += 1
        if self.narrate:
            self._log(seat, f"places {GODS[god]} on slot {slot + 1}")
        n = self.game.players
        if self.placed < CIRCLE:
            self.active = (seat + 1) % n
            self._refresh_acting()
            return
        self.phase = "turn"  # SETUP 2: the seat after the last placer starts (DAM-28)
        self.active = (seat + 1) % n
        self._reset_turn()
        self._refresh_acting()

    def _do_haste(self, seat: int, args: tuple[str]) -> None:
        self._first_play(seat, args[0])
        self.swaps_allowed = 2  # Hastes do not stack (DAM-13)
        if self.narrate:
            self._log(seat, f"plays {args[0]} (Haste): two swaps")

    def _swapped(self) -> None:
        self.swaps_done += 1
        self.step = "play" if self.swaps_done >= self.swaps_allowed else "swap2"

    def _do_swap(self, seat: int, args: tuple[int, int]) -> None:
        a, b = args
        self.circle[a], self.circle[b] = self.circle[b], self.circle[a]
        self._swapped()
        if self.narrate:
            self._log(seat, f"swaps slots {a + 1} and {b + 1}")

    def _do_trade(self, seat: int, args: tuple[int, int]) -> None:
        slot, god = args
        old = self.circle[slot]
        if self.bank is not None:  # an exchange: the removed token returns (DAM-11)
            self.bank[god] -= 1
            self.bank[old] += 1
        self.circle[slot] = god
        self._swapped()
        if self.narrate:
            self._log(seat, f"swaps slot {slot + 1} ({GODS[old]}) for a bank {GODS[god]}")

    def _do_stop(self, seat: int, args: tuple[()]) -> None:
        self.step = "play"
        if self.narrate:
            self._log(seat, "stops swapping")

    def _do_play(self, seat: int, args: tuple[str, bool]) -> None:
        cid, relaxed = args
        if relaxed:
            self.relax_tokens -= 1
        self._first_play(seat, cid)
        kind = self._codex(cid).type
        note = " with a Reflex" if relaxed else ""
        if kind == "REFLEX":
            self.relax_tokens += 1
        elif kind == "ANNEX":
            self.annex_played = self.annex_available = True
        elif kind in ("LYSE", "SACRIFICE", "EVISCERATE"):
            n = self.game.players
            per = 1 if kind == "LYSE" else 2
            queue = [[seat, 1]] if kind == "SACRIFICE" else []
            for k in range(1, n):
                other = (seat + k) % n
                if self.tableaus[other]:
                    queue.append([other, min(per, len(self.tableaus[other]))])
            self.destroy_queue = queue
            if queue:
                self.step = "destroy"
        if self.narrate:
            self._log(seat, f"plays {cid} ({kind.title()}){note}")

    def _do_pair(self, seat: int, args: tuple[str, str, bool, bool]) -> None:
        pid, nid, relax_p, relax_n = args
        self.relax_tokens -= relax_p + relax_n
        self.pairs_used.add((pid, nid))
        self.pair_played = True
        for cid in (pid, nid):
            if cid in self.hands[seat]:
                self._first_play(seat, cid)
            elif cid not in self.tableaus[seat]:
                self.annex_available = False  # the one borrowed codex of the Annex (DAM-31)
        n = self._codex(nid).info.number
        production = self._codex(pid).type
        if self.narrate:
            self._log(seat, f"pairs {pid} ({production.title()}) with {nid}")
        if production == "ORACLE":  # N + 2, keep N (DAM-21)
            self.keep_pool = self._draw(n + 2)
            self.keep_count = min(n, len(self.keep_pool))
            self.step = "keep"
            return
        drawn = self._draw(n + (1 if production == "COMBUST" else 0))
        self.hands[seat].extend(drawn)
        self.granted.extend(drawn)
        if self.narrate:
            self._log(seat, f"draws {len(drawn)} {'codex' if len(drawn) == 1 else 'codices'}")

    def _do_keep(self, seat: int, args: tuple[str, ...]) -> None:
        kept = list(args)
        for cid in self.keep_pool:
            (self.hands[seat] if cid in kept else self.discard).append(cid)
        self.granted.extend(kept)
        if self.narrate:
            self._log(seat, f"keeps {len(kept)} of {len(self.keep_pool)} codices")
        self.keep_pool, self.keep_count, self.step = [], 0, "play"

    def _do_destroy(self, seat: int, args: tuple[str]) -> None:
        cid = args[0]
        entry = self.destroy_queue[0]
        self.tableaus[entry[0]].remove(cid)
        self.removed.append(cid)  # out of the game, its points stay scored (DAM-32, DAM-39)
        if self.narrate:
            self._log(seat, f"destroys {cid} of seat {entry[0]}")
        entry[1] -= 1
        if not entry[1]:
            self.destroy_queue.pop(0)
        if not self.destroy_queue:
            self.step = "play"

    def _do_end(self, seat: int, args: tuple[()]) -> None:
        self.removed.extend(self.consumed)  # TURN MECHANICS 5: out of the game (DAM-23, 38)
        if self.narrate:
            self._log(seat, "ends the turn")
        self.turns_taken += 1
        n = self.game.players
        if self.turns_taken >= self.game.params["cycles"] * n:
            self.phase = "over"
            self.winners_ = self._winners()
        else:
            self.active = (seat + 1) % n
        self._reset_turn()  # the turn's context never outlives it, the last turn's included
        self._refresh_acting()

    def _winners(self) -> tuple[int, ...]:
        """Highest score wins; ties share (DAM-29) or go to the larger tableau."""
        best = max(self.points)
        top = [s for s, v in enumerate(self.points) if v == best]
        if len(top) > 1 and self.game.params["tiebreak"] == "most_tableau":
            most = max(len(self.tableaus[s]) for s in top)
            top = [s for s in top if len(self.tableaus[s]) == most]
        return tuple(top)

    # ------------------------------------------------------------------------ results
    def scores(self) -> tuple[float, ...]:
        """Points per seat: the pips of every codex first played (SCORING)."""
        return tuple(float(s) for s in self.points)

    def length(self) -> int:
        return self.turns_taken

    # ------------------------------------------------------------------ components' hooks
    def after_restore(self) -> None:
        """A rebuilt state generates its legal lists (no memo) and sets whose turn it is."""
        self.tables = None
        self._refresh_acting()

    def after_deal(self, view: Mapping[str, Any]) -> None:
        """A determinization's state remembers its legal lists in the spec's memo."""
        self.tables = self.game.legal_memo

    def rebuild_mark(self, mark: Mark, view: Mapping[str, Any]) -> list[str]:
        """The active seat's codices drawn this turn, for another seat's determinization (only
        their number is public): drawn codices join the end of the hand, so the last ones of
        the dealt hand; those played already are among this turn's plays (consumed, then the
        tableau from its end)."""
        k = view["turn"]["granted_count"]
        if not k:
            return []
        held = self.hands[self.active]
        drawn = held[max(0, len(held) - k):]
        if len(drawn) < k:
            played = [c for c in (*self.consumed, *reversed(self.tableaus[self.active]))
                      if c not in drawn]
            drawn = played[:k - len(drawn)] + drawn
        return drawn

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """Tokens, phase, turn context and turn count (:mod:`.invariants`)."""
        invariants.check(game, data, base)

    @classmethod
    def scenario_keys(cls) -> Mapping[str, str]:
        return {}

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """A scenario is a position at the start of ``active``'s turn (phase ``turn``, step
        ``pre``; issue 18): the default circle unless one is given, the usual hand size
        (``deal`` minus ``setup_discard``) for a hand not given, from the top of the deck."""
        p = self.game.params
        if "circle" not in described:
            self.circle = parse_circle(DEFAULT_CIRCLE)
        if self.bank is not None and p["bank"] == "shared20":
            self.bank = [4 - self.circle.count(g) for g in range(len(GODS))]
        size = max(0, p["deal"] - p["setup_discard"])
        given = described.get("hands")
        named = [None] * self.game.players if given is None \
            else seat_values(given, self.game.players, None, "hands")
        for seat, hand in enumerate(self.hands):
            if named[seat] is not None:
                continue
            while len(hand) > size:
                self.deck.insert(0, hand.pop())
            while len(hand) < size and self.deck:
                hand.append(self.deck.pop())
        self.placed, self.phase, self.events, self.winners_ = CIRCLE, "turn", [], None
        self._reset_turn()


#: The transition of each move kind but the setup discard (``DamoclesState._do_<kind>``),
#: looked up once here rather than by name at every move.
_TRANSITIONS: dict[str, Callable[[DamoclesState, int, tuple[Any, ...]], None]] = {
    kind: getattr(DamoclesState, "_do_" + kind)
    for kind in ("place", "haste", "swap", "trade", "stop", "play", "pair", "keep", "destroy",
                 "end")}


@register
class Damocles(Game):
    """Damocles for 2-6 seats; see the module docstring."""

    name = "damocles"
    title = "Damocles"
    summary = "2-6 players swap tokens in a circle of seven and play pattern-matching codices"
    rules_page = "docs/rules/damocles.md"
    score_name = "points"
    #: ISMCTS settings (docs/bots.md): six heuristic-bot steps after each leaf (they finish
    #: the turn a random rollout would waste), then the evaluator; the other seats play the
    #: heuristic inside the search (``policy``: the tree holds only this seat's decisions),
    #: candidates widened from the heuristic's 3 best moves (21 swaps and 7 trades a turn
    #: against 20 iterations). 20 iterations fit a default decision in 50 ms (issue 22, about
    #: 40 ms mean at heuristic-game positions, benchmarks/bench_search.py; 80 before).
    search = {"iterations": 20, "rollout": "heuristic", "rollout_depth": 6,
              "opponents": "policy", "exploration": 0.1, "widening": 3}
    timeout_kinds = ("end", "stop")
    #: The state and its components: copy, JSON data, validation, views, determinization
    #: and scenarios derive from ``DamoclesState.COMPONENTS`` (meeple.engine.components).
    state_class = DamoclesState
    parameters = PARAMETERS
    variants = VARIANTS
    min_players, max_players, default_players = 2, 6, 4
    __slots__ = ("deck", "codex_by_id", "_scoring", "_matching", "_readings", "_circle_masks",
                 "legal_memo")

    def __init__(self, variant: str | None = None, players: int | None = None,
                 **params: Any) -> None:
        super().__init__(variant, players, **params)
        p = self.params
        if p["setup_discard"] >= p["deal"]:
            raise ParameterError(f"setup_discard = {p['setup_discard']} must be below deal = "
                                 f"{p['deal']}")
        modules = {m for m in ("annex", "destruction") if p[m]}
        deck = load_deck(p["deck"] or None, modules)
        if len(deck) < self.players * p["deal"]:
            raise ParameterError(f"the deck has {len(deck)} codices; {self.players} seats need "
                                 f"{self.players * p['deal']} to deal {p['deal']} each (DAM-35)")
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "codex_by_id", {c.id: c for c in deck})
        # per codex id: its pips and whether it is permanent (DamoclesState._first_play)
        object.__setattr__(self, "_scoring", {c.id: (c.pips, c.info.permanent) for c in deck})
        object.__setattr__(self, "_matching", (p["match"] == "rotational", p["mirror"]))
        # per codex id, its readings (matching.readings) as printed and relaxed
        object.__setattr__(self, "_readings", {
            c.id: (readings(c.pattern, False, p["mirror"]), readings(c.pattern, True, p["mirror"]))
            for c in deck})
        object.__setattr__(self, "_circle_masks", {})  # DamoclesState.circle_masks
        object.__setattr__(self, "legal_memo", {})  # moves.remembered_moves

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(self.min_players, self.max_players, simultaneous=True,
                            hidden_information=True, chance=True, cooperative=False,
                            max_length=self.params["cycles"] * self.players,
                            length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> DamoclesState:
        """Shuffle (seeded), deal ``deal`` codices to every seat, open the setup discard."""
        return DamoclesState(self, seed)

    def parse_action(self, text: str, seat: int) -> Move:
        """Read a move (notation in :mod:`.actions`); legality is checked on apply."""
        self.check_seat(seat)
        return parse_move(text, seat)

    #: Kinds whose arguments are codex ids: their tags add ``<kind>:<codex type>``.
    CODEX_KINDS = frozenset({"play", "pair", "haste"})

    def action_tags(self, action: Move) -> tuple[str, ...]:  # type: ignore[override]
        """The move's kind, and for a codex played (``play``, ``pair``, ``haste``) also
        ``<kind>:<type>`` per codex (``play:generate``), so a scripted policy can play one
        codex type first."""
        if action.kind not in self.CODEX_KINDS:
            return (action.kind,)
        deck = self.codex_by_id
        return (action.kind, *(f"{action.kind}:{deck[c].type.lower()}" for c in action.args
                               if c in deck))
