"""The component model (meeple.engine.components) on a small card game declared here: every
visibility (public, owner, everyone but the owner, count only) gives the views it says, a
determinization gives the seat its view back and deals only what the view hides, validation
refuses each broken invariant at its JSON path, scenarios place named pieces, and a copy shares
nothing."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import pytest

from meeple.engine.action import KindAction
from meeple.engine.components import (
    COUNT,
    ORDER_HIDDEN,
    OTHERS,
    OWNER,
    ComponentState,
    Mark,
    Pieces,
    Shown,
    Value,
    Zone,
)
from meeple.engine.errors import ParameterError, StateError
from meeple.engine.game import Capabilities, Game
from meeple.engine.rng import shuffle
from meeple.engine.validation import NonNegInt, check_that, json_path

CARDS = tuple(f"{colour}{rank}" for colour in "RGB" for rank in range(1, 6))


class Act(KindAction):
    """``draw``, ``discard CARD``, ``peek`` (look at the top card: kept in ``pool``)."""


class ToyState(ComponentState):
    """Hands seen by everyone but their owner (as Hanabi's), a deck seen as a count, a public
    discard pile, a pool only the seat to act sees, and the cards it was told of (a mark)."""

    PIECES = {"card": Pieces(lambda game: CARDS)}
    COMPONENTS = (
        Value("turn", type=NonNegInt),
        Value("active", type=NonNegInt, seat=True),
        Shown("seats", show=lambda st, seat: st.game.players),
        Zone("hands", pieces="card", per_seat=True, visibility=OTHERS, show="hands",
             count="hand_sizes"),
        Zone("pool", pieces="card", visibility=OWNER, owner=lambda st: st.active, show="pool",
             count="pool_size"),
        Zone("discard", pieces="card", show="discard"),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Mark("told", pieces="card", visibility=OWNER, owner=lambda st: st.active,
             show_sorted="told", count="told_count"),
        Value("phase", type=Literal["play", "over"], view="status.phase"),
        Value("score", type=NonNegInt, per_seat=True, view="status.score"),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: Toy, seed: int) -> None:
        super().__init__(game, seed)
        n = game.players
        self.deck = list(CARDS)
        shuffle(self.rng, self.deck)
        self.hands = [[self.deck.pop() for _ in range(3)] for _ in range(n)]
        self.pool, self.discard, self.told = [], [], []
        self.turn, self.active, self.phase, self.score = 0, 0, "play", [0] * n
        self._refresh_acting()

    def _refresh_acting(self) -> None:
        self._acting = () if self.phase == "over" else (self.active,)

    def rebuild_mark(self, mark: Mark, view: Mapping[str, Any]) -> list[Any]:
        return self.hands[self.active][:view["told_count"]]  # told of its first cards

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        check_that(len(data.pool) <= 1, json_path(base, "pool"), "expected at most one card")

    def _legal_actions(self, seat: int) -> Sequence[Act]:
        out = [Act(seat, "discard", (c,)) for c in self.hands[seat]]
        if self.deck:
            out += [Act(seat, "draw"), Act(seat, "peek")]
        return out or [Act(seat, "pass")]

    def _apply(self, joint: Mapping[int, Act]) -> None:
        (seat, action), = joint.items()
        if action.kind == "discard":
            self.hands[seat].remove(action.args[0])
            self.discard.append(action.args[0])
            self.score[seat] += 1
        elif action.kind == "draw":
            self.hands[seat].append(self.deck.pop())
            self.told = [self.hands[seat][0]]
        elif action.kind == "peek":
            self.discard.extend(self.pool)
            self.pool = [self.deck.pop()]
        self.turn += 1
        if self.turn >= 12:
            self.phase = "over"
        else:
            self.active = (seat + 1) % self.game.players
            self.told = self.told if action.kind == "draw" else []
        self._refresh_acting()

    def returns(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.score) if self.phase == "over" else \
            (0.0,) * self.game.players

    def length(self) -> int:
        return self.turn


class Toy(Game):
    name = "toy-components"
    title = "Toy"
    min_players, max_players, default_players = 2, 4, 3
    state_class = ToyState

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(2, 4, simultaneous=False, hidden_information=True, chance=True,
                            cooperative=False, max_length=12, length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> ToyState:
        return ToyState(self, seed)

    def parse_action(self, text: str, seat: int) -> Act:
        kind, *args = text.split()
        return Act(seat, kind, tuple(args))


def _states(seed: int) -> list[ToyState]:
    game = Toy(players=3)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        out.append(state.clone())
    return out


def test_each_visibility_shows_what_it_says() -> None:
    state = _states(1)[5]
    active = state.active
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        # everyone but the owner: a seat sees the other hands, not its own
        assert view["hands"] == [None if s == seat else state.hands[s] for s in range(3)]
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        assert view["deck_size"] == len(state.deck) and "deck" not in view  # count only
        assert view["discard"] == state.discard  # public
        # the pool and the told cards: the seat to act sees them, the others their number
        assert ("pool" in view) == (seat == active) == ("told" in view)
        assert view["pool_size"] == len(state.pool) and view["told_count"] == len(state.told)
        assert view["status"] == {"phase": state.phase, "score": state.score}  # dotted keys
        assert view["seats"] == 3


@pytest.mark.parametrize("seed", range(6))
def test_a_determinization_gives_the_view_back_and_deals_only_the_hidden(seed: int) -> None:
    for state in _states(seed)[:-1]:
        seat = state.current_players()[0]
        view = state.view(seat)
        game = state.game
        draws = [game.determinize(view, random.Random(k)) for k in range(8)]
        for drawn in draws:
            assert drawn.view(seat) == view
            assert [str(a) for a in drawn.legal_actions(seat)] == \
                [str(a) for a in state.legal_actions(seat)] or view["hands"][seat] is None
            # the seat's own hand (hidden from it) comes from what it cannot place
            seen = {c for h in view["hands"] if h for c in h} | set(view["discard"])
            seen |= set(view.get("pool", ()))
            assert not seen & set(drawn.hands[seat]) and not seen & set(drawn.deck)
            assert sorted(c for z in (*drawn.hands, drawn.pool, drawn.discard, drawn.deck)
                          for c in z) == sorted(CARDS)
        if len(state.deck) > 1:  # the hidden parts differ from one stream to another
            assert len({json.dumps(d.deck) for d in draws}) > 1


def test_a_hidden_mark_is_rebuilt_by_the_game_and_a_shown_one_copied() -> None:
    state = next(s for s in _states(2) if s.told)
    other = (state.active + 1) % 3
    drawn = state.game.determinize(state.view(other), random.Random(0))
    assert drawn.told == drawn.hands[state.active][:len(state.told)]
    mine = state.game.determinize(state.view(state.active), random.Random(0))
    assert mine.told == sorted(state.told)


def test_json_round_trip_and_copies_share_nothing() -> None:
    for state in _states(3):
        data = json.loads(json.dumps(state.to_json()))
        again = state.game.state_from_json(data)
        assert again.to_json() == data and again.digest() == state.digest()
        copy = state.clone()
        copy.hands[0].append("X")
        copy.score[0] += 5
        assert "X" not in state.hands[0] and copy.score[0] != state.score[0]


def _refused(data: dict, path: str, words: str) -> None:
    with pytest.raises(StateError) as info:
        Toy(players=3).state_from_json(data)
    assert info.value.path == path and words in str(info.value), str(info.value)


def test_validation_refuses_each_broken_invariant_at_its_path() -> None:
    data = json.loads(json.dumps(_states(4)[3].to_json()))
    d = data["data"]
    cases = [
        (lambda x: x["hands"][1].__setitem__(0, x["hands"][0][0]), "$.data.hands[1][0]",
         "already at $.data.hands[0][0]"),
        (lambda x: x["deck"].__setitem__(0, "Z9"), "$.data.deck[0]", "unknown card"),
        (lambda x: x["deck"].pop(), "$.data", "in none of"),
        (lambda x: x["score"].append(0), "$.data.score", "one per seat"),
        (lambda x: x.__setitem__("active", 3), "$.data.active", "a seat"),
        (lambda x: x.__setitem__("turn", "1"), "$.data.turn", "expected"),
        (lambda x: x.__setitem__("phase", "teatime"), "$.data.phase", "expected"),
        (lambda x: x.__setitem__("told", ["Z9"]), "$.data.told[0]", "unknown card"),
        (lambda x: x.__setitem__("bogus", 1), "$.data.bogus", "unknown key"),
        (lambda x: x["pool"].extend(x["deck"][:2]) or x["deck"].__delitem__(slice(0, 2)),
         "$.data.pool", "at most one card"),  # the game's own invariant
    ]
    for change, path, words in cases:
        broken = json.loads(json.dumps(data))
        change(broken["data"])
        _refused(broken, path, words)
    assert d  # the unbroken data loads
    Toy(players=3).state_from_json(data)


def test_a_scenario_places_named_pieces_and_fixes_the_next_draws() -> None:
    game = Toy(players=3)
    state = game.build_scenario(hands={1: ["R1", "G2"]}, discard=["B5"], score=[1, 2, 3],
                                active=1, next_draws=["R3", "G4"], seed=5)
    assert state.hands[1] == ["R1", "G2"] and state.discard == ["B5"]
    assert state.score == [1, 2, 3] and state.current_players() == (1,)
    assert state.deck[-1] == "R3" and state.deck[-2] == "G4"
    assert sorted(c for z in (*state.hands, state.pool, state.discard, state.deck)
                  for c in z) == sorted(CARDS)
    for words, message in (({"hands": {0: ["Z1"]}}, "unknown card"),
                           ({"hands": {0: ["R1"]}, "discard": ["R1"]}, "named twice"),
                           ({"discard": ["R1"], "next_draws": ["R1"]}, "not in the draw pile"),
                           ({"colour": "red"}, "unknown scenario word 'colour'")):
        with pytest.raises(ParameterError, match=message):
            game.build_scenario(**words)


def test_reseed_shuffles_the_draw_pile_only() -> None:
    state = _states(6)[2]
    again = state.clone()
    again.reseed(99)
    assert sorted(again.deck) == sorted(state.deck) and again.hands == state.hands
    assert again.deck != state.deck


def test_the_view_is_compiled_source_a_reader_can_see() -> None:
    view = ToyState.components().view  # made on first use
    _states(7)[0].view(0)
    source = ToyState.components().__dict__["_view"].source
    assert "def view(state, seat):" in source and "out['deck_size'] = len(p)" in source
    assert callable(view)


class HeldState(ComponentState):
    """Pieces kept in shapes no zone has: a dict of piles and a slot per seat (``holds``)."""

    PIECES = {"card": Pieces(lambda game: CARDS)}
    COMPONENTS = (
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size"),
        Value("piles", type=dict[Literal["left", "right"], list[str]], pieces="card",
              holds=True),
        Value("slot", type=str | None, per_seat=True, pieces="card", holds=True),
    )
    __slots__ = tuple(c.name for c in COMPONENTS)


def test_a_holding_value_counts_its_pieces_as_placed() -> None:
    game = Toy(players=2)
    check = HeldState.components().validate
    good = {"deck": list(CARDS[4:]), "piles": {"left": ["R1", "R2"], "right": ["R3"]},
            "slot": [None, "R4"]}
    check(game, good)  # every card in exactly one place, the empty slot left out
    twice = json.loads(json.dumps(good))
    twice["piles"]["right"].append("R1")
    with pytest.raises(StateError) as err:
        check(game, twice)
    assert err.value.path == "$.data.piles.right[1]"
    missing = json.loads(json.dumps(good))
    missing["slot"][1] = None
    with pytest.raises(StateError, match="R4"):
        check(game, missing)
    unknown = json.loads(json.dumps(good))
    unknown["slot"][0] = "Z9"
    with pytest.raises(StateError) as err:
        check(game, unknown)
    assert err.value.path == "$.data.slot[0]"


class LooseState(HeldState):
    """The same, but a card may be out of every place (``Pieces(all_placed=False)``)."""

    PIECES = {"card": Pieces(lambda game: CARDS, all_placed=False)}
    __slots__ = ()


def test_pieces_that_need_not_all_be_placed() -> None:
    game = Toy(players=2)
    data = {"deck": list(CARDS[5:]), "piles": {"left": ["R1", "R2"], "right": ["R3"]},
            "slot": [None, None]}  # R4 and R5 nowhere
    LooseState.components().validate(game, data)
    with pytest.raises(StateError, match="R4"):
        HeldState.components().validate(game, data)
    data["piles"]["left"].append("R1")
    with pytest.raises(StateError) as err:
        LooseState.components().validate(game, data)
    assert err.value.path == "$.data.piles.left[2]"


class KeyedState(ToyState):
    """The toy with a field saved under another key (``first_`` as ``"first"``) and a log of
    tuples copied by ``list.copy`` (``Value.key``, ``Value.copy``)."""

    COMPONENTS = (
        *ToyState.COMPONENTS,
        Value("first_", key="first", type=list[NonNegInt] | None,
              from_data=lambda v: None if v is None else tuple(v)),
        Value("log", type=list[list[NonNegInt]], copy=list.copy,
              restore=lambda view, st: [tuple(e) for e in view["log"]],
              from_data=lambda v: [tuple(e) for e in v]),
    )
    __slots__ = ("first_", "log")

    def __init__(self, game: Keyed, seed: int) -> None:
        self.first_, self.log = None, []
        super().__init__(game, seed)

    def _apply(self, joint: Mapping[int, Act]) -> None:
        (seat, _), = joint.items()
        super()._apply(joint)
        self.log.append((self.turn, seat))
        if self.first_ is None:
            self.first_ = (seat,)


class Keyed(Toy):
    name = "toy-components-keyed"
    state_class = KeyedState

    def new_initial_state(self, seed: int = 0) -> KeyedState:
        return KeyedState(self, seed)


def test_a_data_key_other_than_the_name_and_a_declared_copy() -> None:
    game = Keyed(players=3)
    state = game.new_initial_state(2)
    rng = random.Random(2)
    for _ in range(4):
        seat = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    data = json.loads(json.dumps(state.to_json()))
    assert data["data"]["first"] == [state.first_[0]] and "first_" not in data["data"]
    again = game.state_from_json(data)
    assert again.first_ == state.first_ and again.log == state.log
    assert type(again.log[0]) is tuple and again.to_json() == data
    copy = state.clone()
    assert copy.log == state.log and copy.log is not state.log
    assert all(a is b for a, b in zip(copy.log, state.log, strict=True))  # tuples shared
    broken = json.loads(json.dumps(data))
    broken["data"]["first"] = ["x"]
    with pytest.raises(StateError) as info:
        game.state_from_json(broken)
    assert info.value.path == "$.data.first[0]"
    seat = state.current_players()[0]
    view = state.view(seat)
    assert game.determinize(view, random.Random(0)).view(seat) == view


def test_the_compiled_view_and_copy_take_the_methods_place_per_class() -> None:
    toy, keyed = Toy(players=3).new_initial_state(1), Keyed(players=3).new_initial_state(1)
    for state in (toy, keyed, toy, keyed):  # the first call compiles, the next are direct
        cls = type(state)
        assert state.view(0) == state.view(0) and state.clone().to_json() == state.to_json()
        assert cls.__dict__["_view"] is cls.components().view_function()
        assert cls.__dict__["_copy"] is cls.components().copy_function()
    assert "log" in keyed.view(0) and "log" not in toy.view(0)  # each class its own


# --------------------------------------------------------------------------------------------
# Pieces shown by name, a per-seat slot, a count shown only with its pieces, a value whose
# parts the draws share: a second small game (int ids shown as "c<id>").

NAMED = tuple(range(10))


class SlotState(ComponentState):
    """Hands of int cards shown by name to their owner, a slot per seat (the card each seat
    revealed, or None), a pool whose size shows only while peeking, a board the rules replace
    entries of but never change in place, and the last card each seat revealed (or None)."""

    PIECES = {"card": Pieces(lambda game: NAMED, type=int,
                             names=lambda game: {c: f"c{c}" for c in NAMED},
                             parse=lambda game, word, what: int(str(word).lstrip("c")))}
    COMPONENTS = (
        Value("active", type=NonNegInt, seat=True),
        Value("peeking", type=bool),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Zone("pool", pieces="card", visibility=OWNER, owner=lambda st: st.active,
             when=lambda st: st.peeking, show="pool", count="pool_size", count_when=True),
        Zone("hands", pieces="card", per_seat=True, visibility=OWNER, show_sorted="hand",
             count="hand_sizes"),
        Zone("shown", pieces="card", per_seat=True, slot=True, show="shown"),
        Value("board", type=dict[str, list[int]], draw_copy=dict.copy),
        Value("last", type=int | None, per_seat=True, pieces="card"),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: SlotToy, seed: int) -> None:
        super().__init__(game, seed)
        n = game.players
        self.deck = list(NAMED)
        shuffle(self.rng, self.deck)
        self.hands = [[self.deck.pop() for _ in range(2)] for _ in range(n)]
        self.pool, self.shown, self.last = [], [None] * n, [None] * n
        self.active, self.peeking, self.board = 0, False, {"a": [], "b": []}
        self._refresh_acting()

    def _refresh_acting(self) -> None:
        self._acting = (self.active,)

    def _legal_actions(self, seat: int) -> Sequence[Act]:
        if self.peeking:
            return [Act(seat, "done")]
        out = [Act(seat, "show", (c,)) for c in self.hands[seat] if self.shown[seat] is None]
        return out + [Act(seat, "peek")] if self.deck else out or [Act(seat, "pass")]

    def _apply(self, joint: Mapping[int, Act]) -> None:
        (seat, action), = joint.items()
        if action.kind == "show":
            self.hands[seat].remove(action.args[0])
            self.shown[seat] = self.last[seat] = action.args[0]
            self.board["a"] = self.board["a"] + [action.args[0]]  # a new list, never in place
        elif action.kind == "peek":
            self.pool, self.peeking = [self.deck.pop()], True
            return
        elif action.kind == "done":
            self.deck.extend(self.pool)
            self.pool, self.peeking = [], False
        self.active = (seat + 1) % self.game.players
        self._refresh_acting()

    def returns(self) -> tuple[float, ...]:
        return (0.0,) * self.game.players

    def length(self) -> int:
        return 0


class SlotToy(Toy):
    name = "toy-components-slots"
    state_class = SlotState  # type: ignore[assignment]

    def new_initial_state(self, seed: int = 0) -> SlotState:  # type: ignore[override]
        return SlotState(self, seed)


def _slot_states(seed: int, steps: int = 14) -> list[SlotState]:
    state = SlotToy(players=3).new_initial_state(seed)
    rng = random.Random(seed)
    out = [state.clone()]
    for _ in range(steps):
        seat = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        out.append(state.clone())
    return out


def test_names_slots_and_counts_shown_only_with_their_pieces() -> None:
    for state in _slot_states(1):
        for seat in (None, 0, 1, 2):
            view = state.view(seat)
            assert view["shown"] == [None if c is None else f"c{c}" for c in state.shown]
            assert ("hand" in view) == (seat is not None)
            if seat is not None:  # sorted by id, then named (c10 would sort after c2)
                assert view["hand"] == [f"c{c}" for c in sorted(state.hands[seat])]
            assert ("pool_size" in view) == state.peeking
            assert ("pool" in view) == (state.peeking and seat == state.active)
            assert view["last"] == state.last


@pytest.mark.parametrize("seed", range(4))
def test_a_determinization_reads_names_and_slots_back(seed: int) -> None:
    for state in _slot_states(seed):
        seat = state.active
        view = state.view(seat)
        draw = state.game.determinizer(view)
        one, two = draw(random.Random(1)), draw(random.Random(2))
        assert one.view(seat) == view and two.view(seat) == view
        assert one.board is not two.board and one.board["a"] is two.board["a"]  # draw_copy
        copy = one.clone()
        assert copy.board["a"] is not one.board["a"]  # a copy still copies every list
        assert sorted([*one.deck, *one.pool, *(c for h in one.hands for c in h),
                       *(c for c in one.shown if c is not None)]) == list(NAMED)


def test_a_slot_is_a_place_and_none_is_no_piece() -> None:
    state = next(s for s in _slot_states(2) if any(c is not None for c in s.shown))
    data = json.loads(json.dumps(state.to_json()))
    assert SlotToy(players=3).state_from_json(data).to_json() == data  # None in last loads
    seat = next(s for s, c in enumerate(state.shown) if c is not None)
    twice = json.loads(json.dumps(data))
    twice["data"]["shown"][seat] = twice["data"]["deck"][0]
    with pytest.raises(StateError, match="already at"):
        SlotToy(players=3).state_from_json(twice)
    unknown = json.loads(json.dumps(data))
    unknown["data"]["last"][0] = 99
    with pytest.raises(StateError, match="unknown card 99") as info:
        SlotToy(players=3).state_from_json(unknown)
    assert info.value.path == "$.data.last[0]"


def test_a_scenario_reads_piece_names_and_fills_slots() -> None:
    game = SlotToy(players=3)
    state = game.build_scenario(hands={0: ["c1", "c2"]}, shown={1: "c3"}, next_draws=["c4"])
    assert state.hands[0] == [1, 2] and state.shown == [None, 3, None]
    assert state.deck[-1] == 4
    assert sorted([*state.deck, *(c for h in state.hands for c in h), 3]) == list(NAMED)
    with pytest.raises(ParameterError, match="named twice"):
        game.build_scenario(hands={0: ["c3"]}, shown={1: 3})


def test_a_view_that_does_not_account_for_the_pieces_is_refused() -> None:
    state = _states(3)[2]
    seat = state.current_players()[0]
    view = state.view(seat)
    with pytest.raises(ParameterError, match="does not account for the card pieces"):
        state.game.determinizer({**view, "deck_size": view["deck_size"] + 1})


# --------------------------------------------------------------------------------------------
# Interchangeable copies shown by name, pieces held by a value, counts read from a record,
# deep copies and sparse data (the features Ozymandias Campaign declares).

NAMES = ("A", "A", "B", "B", "C", "C", "D", "D", "E", "E")  # card id -> name: two copies each


class CopiesState(ComponentState):
    """Rows of cards with a counter on each (public, shown by name), hands (their owner sees
    the names sorted, the others a size inside ``seats``), a public discard pile, a deck."""

    PIECES = {"card": Pieces(lambda game: tuple(range(len(NAMES))), int,
                             names=lambda game: NAMES, copies=True, all_placed=False)}
    COMPONENTS = (
        Value("rows", type=list[list[NonNegInt]], per_seat=True, pieces="card", view=None,
              holds=lambda game, v: [r[0] for t in v for r in t], takes="card",
              restore=lambda view, st, take: [[[take(name), k] for name, k in t]
                                              for t in view["table"]],
              copy=lambda v: [[r.copy() for r in t] for t in v]),
        Shown("table", show=lambda st, seat: [[[NAMES[c], k] for c, k in t] for t in st.rows]),
        Zone("hands", pieces="card", per_seat=True, visibility=OWNER, show_sorted="hand",
             sizes=lambda view: [s["hand_size"] for s in view["seats"]]),
        Shown("seats", show=lambda st, seat: [{"hand_size": len(h)} for h in st.hands]),
        Zone("discard", pieces="card", show="discard"),
        Zone("deck", pieces="card", visibility=COUNT, count="deck_size", draw_pile=True),
        Value("notes", type=list[str], default=list, sparse=True),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: Copies, seed: int) -> None:
        super().__init__(game, seed)
        # seat 0 holds A (id 1) and D; a row of seat 1 holds the other A (id 0): the view
        # shows "A" in both, and a determinization names the public one first
        self.rows = [[], [[0, 2]]]
        self.hands = [[1, 6], [3, 9]]
        self.discard = [4]
        self.deck = [2, 5, 7, 8]
        self.notes = []
        self._refresh_acting()

    def _refresh_acting(self) -> None:
        self._acting = (0,)

    def _legal_actions(self, seat: int) -> Sequence[Act]:
        return [Act(seat, "pass")]

    def _apply(self, joint: Mapping[int, Act]) -> None:
        self.notes.append("passed")

    def returns(self) -> tuple[float, ...]:
        return (0.0, 0.0)

    def length(self) -> int:
        return len(self.notes)


class Copies(Game):
    name = "toy-copies"
    title = "Copies"
    min_players, max_players, default_players = 2, 2, 2
    state_class = CopiesState

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(2, 2, simultaneous=False, hidden_information=True, chance=True,
                            cooperative=False, max_length=12, length_unit="turns")

    def new_initial_state(self, seed: int = 0) -> CopiesState:
        return CopiesState(self, seed)

    def parse_action(self, text: str, seat: int) -> Act:
        return Act(seat, text)


def test_named_copies_show_by_name_and_deal_public_names_first() -> None:
    game = Copies()
    state = game.new_initial_state(0)
    view = state.view(0)
    assert view["hand"] == ["A", "D"] and view["discard"] == ["C"]
    assert "hand" not in state.view(None)
    assert view["table"] == [[], [["A", 2]]] and view["seats"] == [{"hand_size": 2}] * 2
    for seed in range(5):
        drawn = game.determinize(view, random.Random(seed))
        assert drawn.view(0) == view
        assert drawn.rows == [[], [[0, 2]]] and drawn.hands[0] == [1, 6]  # rows took A first
        assert drawn.discard == [4] and len(drawn.hands[1]) == 2 and len(drawn.deck) == 4
        assert sorted(drawn.hands[1] + drawn.deck) == [2, 3, 5, 7, 8, 9]  # the unseen, dealt


def test_held_pieces_deep_copies_and_sparse_data() -> None:
    game = Copies()
    state = game.new_initial_state(0)
    data = json.loads(json.dumps(state.to_json()))
    assert "notes" not in data["data"]  # sparse: absent while it is its default
    again = game.state_from_json(data)
    again.rows[1][0][1] += 1  # rows nest three levels: restored and copied all the way
    assert data["data"]["rows"][1][0][1] == 2 and state.rows[1][0][1] == 2
    copy = state.clone()
    copy.rows[1][0][1] += 1
    assert state.rows[1][0][1] == 2
    state.apply_action(Act(0, "pass"), 0)
    assert state.to_json()["data"]["notes"] == ["passed"]
    twice = json.loads(json.dumps(data))
    twice["data"]["deck"].append(0)  # card 0 is in a row: a value's pieces are placed
    with pytest.raises(StateError) as info:
        game.state_from_json(twice)
    assert info.value.path == "$.data.rows[0]", str(info.value)
    fewer = json.loads(json.dumps(data))
    fewer["data"]["deck"].pop()  # all_placed=False: a card may be in no place
    game.state_from_json(fewer)


# Scenario words for interchangeable copies: a name stands for any copy not named yet, and a
# value that holds pieces reads its own piece words (the campaign's tableau rows).


def _copies_of(game: Game, word: str, what: str) -> int | tuple[int, ...]:
    """A card id (``"#3"``) or a name (``"A"``): the ids of its copies, in id order."""
    if word.startswith("#"):
        return int(word[1:])
    found = tuple(i for i, name in enumerate(NAMES) if name == word)
    if not found:
        raise ParameterError(f"{what}: {word!r} is not a card")
    return found


def _described_rows(given: list, take: Any) -> list:
    return [[[take(name, f"rows[{s}][{i}]"), k] for i, (name, k) in enumerate(rows or ())]
            for s, rows in enumerate(given)]


class DescribedCopiesState(CopiesState):
    PIECES = {"card": Pieces(lambda game: tuple(range(len(NAMES))), int,
                             names=lambda game: NAMES, copies=True, all_placed=False,
                             parse=_copies_of)}
    COMPONENTS = tuple(replace(c, describe=_described_rows) if c.name == "rows" else c
                       for c in CopiesState.COMPONENTS)
    __slots__ = ()


class DescribedCopies(Copies):
    name = "toy-described-copies"
    state_class = DescribedCopiesState

    def new_initial_state(self, seed: int = 0) -> CopiesState:
        return DescribedCopiesState(self, seed)


def test_a_scenario_gives_each_name_a_copy_not_named_yet() -> None:
    game = DescribedCopies()
    # rows are declared first: the row's "A" is id 0, the hand's the other copy (id 1); the
    # deal's cards named here leave their places, a named hand's cards go under the deck
    state = game.build_scenario(hands={0: ["A", "E"]}, rows={1: [["A", 3]]},
                                discard=["B"], next_draws=["E", "C"])
    assert state.rows == [[], [[0, 3]]] and state.hands[0] == [1, 8]
    assert state.discard == [2] and state.deck[-2:] == [4, 9]  # E: the copy not named
    every = [c for pile in (*state.hands, state.discard, state.deck) for c in pile]
    every += [r[0] for t in state.rows for r in t]
    assert sorted(every) == list(range(len(NAMES)))  # each card in one place
    with pytest.raises(ParameterError, match=r"hands\[0\]: no card 'A' left"):
        game.build_scenario(rows={1: [["A", 0]]}, hands={0: ["A", "A"]})
    with pytest.raises(ParameterError, match="named twice"):
        game.build_scenario(rows={0: [["#5", 0]]}, discard=["#5"])
    with pytest.raises(ParameterError, match=r"rows\[0\]\[0\]: 'Z' is not a card"):
        game.build_scenario(rows={0: [["Z", 0]]})


# Public contents in a hidden order, and hidden places that hold only some classes of
# pieces (the features Epoch Ellipse declares): a pile per seat everyone knows the contents
# of, a face-down row of red cards, two bags of green and blue cards, a box of the rest.

CLASSED = tuple(f"{colour}{rank}" for colour in "RGB" for rank in range(1, 6))


def _bag_places(view: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return [(bag, (({"G", "B"}, size),)) for bag, size in view["bag_sizes"].items()]


class ClassState(ComponentState):
    PIECES = {"card": Pieces(lambda game: CLASSED, classes=lambda game: {c: c[0]
                                                                        for c in CLASSED})}
    COMPONENTS = (
        Zone("piles", pieces="card", per_seat=True, visibility=ORDER_HIDDEN,
             show_sorted="piles", count="pile_sizes"),
        Zone("table", pieces="card", show="table"),
        Zone("reds", pieces="card", visibility=COUNT, count="reds",
             quota=lambda view: (({"R"}, view["reds"]),)),
        Value("bags", type=dict[str, list[str]], pieces="card", holds=True, view="bag_sizes",
              show=lambda st: {k: len(v) for k, v in st.bags.items()},
              restore=lambda view, st: dict.fromkeys(view["bag_sizes"]), deal=_bag_places),
        Zone("box", pieces="card", visibility=COUNT,  # no count shown: what is left
             quota=lambda view: (({"R"}, None), ({"G", "B"}, None))),
        Value("turn", type=NonNegInt),
    )
    __slots__ = tuple(c.name for c in COMPONENTS if not isinstance(c, Shown))

    def __init__(self, game: Classed, seed: int) -> None:
        super().__init__(game, seed)
        self.piles = [["R1", "G2", "B5"], ["B3"]]
        self.table = ["G1"]
        self.reds = ["R2", "R3"]
        self.bags = {"x": ["G3", "B1"], "y": ["B2"]}
        self.box = ["R4", "R5", "G4", "G5", "B4"]
        self.turn = 0
        self._refresh_acting()

    def _refresh_acting(self) -> None:
        self._acting = (self.turn % 2,)

    def _legal_actions(self, seat: int) -> Sequence[Act]:
        return [Act(seat, "pass")]

    def _apply(self, joint: Mapping[int, Act]) -> None:
        self.turn += 1
        self._refresh_acting()

    def returns(self) -> tuple[float, ...]:
        return (0.0, 0.0)

    def length(self) -> int:
        return self.turn


class Classed(Copies):
    name = "toy-classed"
    state_class = ClassState

    def new_initial_state(self, seed: int = 0) -> ClassState:
        return ClassState(self, seed)


def test_an_order_hidden_zone_shows_its_pieces_sorted_and_draws_reshuffle_them() -> None:
    game = Classed()
    state = game.new_initial_state(0)
    view = state.view(1)
    assert view["piles"] == [["B5", "G2", "R1"], ["B3"]] and view["pile_sizes"] == [3, 1]
    for seat in (0, None):  # everyone sees the contents
        assert state.view(seat)["piles"] == view["piles"]
    orders = set()
    for seed in range(20):
        drawn = game.determinize(view, random.Random(seed))
        assert drawn.view(1) == view and drawn.piles[1] == ["B3"]
        assert sorted(drawn.piles[0]) == ["B5", "G2", "R1"]  # the same pieces, reshuffled
        orders.add(tuple(drawn.piles[0]))
    assert len(orders) > 1
    with pytest.raises(TypeError, match="sorted only"):
        type("Shown", (ClassState,), {"__slots__": (), "COMPONENTS": (
            Zone("piles", pieces="card", per_seat=True, visibility=ORDER_HIDDEN,
                 show="piles"),)}).components()


def test_hidden_places_hold_their_classes_and_the_rest_goes_where_it_may() -> None:
    game = Classed()
    view = game.new_initial_state(0).view(0)
    assert view["reds"] == 2 and view["bag_sizes"] == {"x": 2, "y": 1} and "box" not in view
    unseen_green_blue = {"G3", "G4", "G5", "B1", "B2", "B4"}
    in_bags: Counter = Counter()
    for seed in range(200):
        drawn = game.determinize(view, random.Random(seed))
        assert drawn.view(0) == view
        assert len(drawn.reds) == 2 and {c[0] for c in drawn.reds} == {"R"}
        assert [len(drawn.bags["x"]), len(drawn.bags["y"])] == [2, 1]
        bagged = drawn.bags["x"] + drawn.bags["y"]
        assert set(bagged) <= unseen_green_blue
        assert sorted(drawn.box) == sorted({"R2", "R3", "R4", "R5"} - set(drawn.reds)
                                           | (unseen_green_blue - set(bagged)))
        in_bags.update(bagged)
    assert set(in_bags) == unseen_green_blue  # each may be bagged: 100 times on average
    assert all(60 < k < 140 for k in in_bags.values()), in_bags
    wrong = json.loads(json.dumps(view))
    wrong["reds"] = 5  # five face-down reds, but four are unseen
    with pytest.raises(ParameterError, match="does not account"):
        game.determinize(wrong, random.Random(0))
    wrong = json.loads(json.dumps(view))
    wrong["bag_sizes"]["y"] = 9
    with pytest.raises(ParameterError, match="does not account"):
        game.determinize(wrong, random.Random(0))
