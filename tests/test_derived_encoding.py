"""Encodings derived from a component declaration (meeple.engine.encoding), on the toy games of
tests/test_components.py and on every registered game whose state class declares components
(the template's own encoding, and each design's derived one beside its published layout):

* the shape is fixed across states and the layout's blocks tile it;
* every number lies within the bounds the encoding states, at every step of seeded random
  games, for every seat's view;
* the tensor depends on nothing the view hides: states drawn by the game's determinization
  from one seat's view (different hidden cards) give that seat the same tensor;
* the action mask is exactly the seat's legal actions, read back through the action table;
* the blocks say what they hold (hand and top card of the template, seat rotation).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import examples.crazy_eights as crazy_eights
from meeple.engine.components import ComponentState
from meeple.engine.encoding import DerivedEncoding, Feature, derived_encoding
from meeple.engine.game import Game
from meeple.engine.registry import game_class, game_names, load_game
from meeple.engine.tensor import TensorWriter
from tests.test_components import (
    CARDS,
    NAMED,
    Copies,
    CopiesState,
    SlotState,
    SlotToy,
    Toy,
    ToyState,
)

#: Steps of each seeded random game checked (all of them in shorter games), and seeds.
STEPS = 80
SEEDS = (1, 2)

#: Games whose derived tensor may not change along a random game, and why.
UNCHANGING = {
    "toy-copies": "its one move, pass, changes only a list of notes no block encodes",
    "battle-of-the-four-gods": "its declaration gives one number, the truncated flag (its "
                               "energies and rounds have no bounds, the rest are Shown keys)",
}


def _toy_texts(game: Any) -> list[str]:
    return [*(f"discard {c}" for c in CARDS), "draw", "peek", "pass"]


def _slot_texts(game: Any) -> list[str]:
    return [*(f"show {c}" for c in NAMED), "peek", "done", "pass"]


class ToyEncoded(Toy):
    encoding = derived_encoding(ToyState, _toy_texts)


class SlotEncoded(SlotToy):
    encoding = derived_encoding(SlotState, _slot_texts)


class CopiesEncoded(Copies):
    encoding = derived_encoding(CopiesState, lambda game: ["pass"])


def _derived(cls: type[Game]) -> DerivedEncoding:
    """The game's derived encoding: its own where the game declares it (the template), else
    one derived here from its declaration and its published action table (the designs)."""
    if isinstance(cls.encoding, DerivedEncoding):
        return cls.encoding
    return derived_encoding(cls.state_class, cls.encoding.action_texts)


def _component_games() -> list:
    out = [pytest.param(lambda: ToyEncoded(players=3), id="toy-3p"),
           pytest.param(lambda: ToyEncoded(players=2), id="toy-2p"),
           pytest.param(lambda: SlotEncoded(players=3), id="toy-slots"),
           pytest.param(lambda: CopiesEncoded(), id="toy-copies")]
    for name in game_names():
        cls = game_class(name)
        if cls.encoding and issubclass(getattr(cls, "state_class", object) or object,
                                       ComponentState):
            for players in sorted({cls.min_players, cls.max_players}):
                out.append(pytest.param(lambda name=name, players=players:
                                        load_game(name, players=players),
                                        id=f"{name}-{players}p"))
    return out


@pytest.fixture(params=_component_games())
def game(request) -> Game:
    return request.param()


def _walk(game: Game, seed: int) -> Iterator[Any]:
    """The states of a seeded random game, at most ``STEPS`` of them (one state object,
    played on after each is read)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        yield state
        if state.is_terminal():
            return
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})


def test_every_registered_component_game_has_a_derived_encoding() -> None:
    names = [n for n in game_names()
             if issubclass(getattr(game_class(n), "state_class", object) or object,
                           ComponentState)]
    assert "crazy-eights" in names and len(names) >= 6
    assert isinstance(game_class("crazy-eights").encoding, DerivedEncoding)
    for name in names:  # the designs' own action tables with their derived observations
        game = load_game(name)
        assert _derived(type(game)).observation_shape(game)[0] >= 1, name


def test_shape_is_fixed_and_numbers_stay_within_the_bounds(game: Game) -> None:
    enc = _derived(type(game))
    shape = enc.observation_shape(game)
    low, high = enc.observation_bounds(game)
    assert low.shape == high.shape == shape and np.all(low <= high)
    layout = enc.layout(game)
    assert layout.size == shape[0] == sum(b.size for b in layout.blocks) > 0
    assert [b.offset for b in layout.blocks] == \
        list(np.cumsum([0] + [b.size for b in layout.blocks[:-1]]))
    changed = False
    for seed in SEEDS:
        first = None
        for state in _walk(game, seed):
            for seat in range(game.players):
                tensor = enc.observation_tensor(game, state.view(seat))
                assert tensor.dtype == np.float32 and tensor.shape == shape
                assert np.all(tensor >= low) and np.all(tensor <= high), \
                    [b.name for b in layout.blocks
                     if np.any(tensor[b.offset:b.offset + b.size] > b.high)
                     or np.any(tensor[b.offset:b.offset + b.size] < b.low)]
                if seat == 0:
                    if first is None:
                        first = tensor
                    changed |= not np.array_equal(first, tensor)
    assert changed or game.name in UNCHANGING, "the tensor never changed in two games"


def test_the_tensor_depends_on_nothing_the_view_hides(game: Game) -> None:
    enc = _derived(type(game))
    if not game.determinizes:
        pytest.skip(f"{game.name} has no determinization")
    checked = 0
    for step, state in enumerate(_walk(game, 7)):
        if step % 7 or state.is_terminal():
            continue
        for seat in range(game.players):
            view = state.view(seat)
            expected = enc.observation_tensor(game, view)
            for k in range(2):
                drawn = game.determinize(view, random.Random(k))
                again = enc.observation_tensor(game, drawn.view(seat))
                assert np.array_equal(again, expected), (game.name, seat)
            checked += 1
    assert checked


def test_the_mask_is_exactly_the_legal_actions(game: Game) -> None:
    enc = _derived(type(game))
    table = enc.action_texts(game)
    if game.encoding is not enc:  # a design's derived encoding beside its published one
        assert table == game.action_table()
    seen = 0
    for seed in SEEDS:
        for state in _walk(game, seed):
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                mask = enc.action_mask(game, legal)
                assert mask.dtype == np.int8 and mask.shape == (len(table),)
                assert {table[i] for i in np.flatnonzero(mask)} == {str(a) for a in legal}
                assert int(mask.sum()) == len(legal)
                seen += 1
    assert seen


def test_the_template_blocks_hold_what_the_layout_says() -> None:
    game = load_game("crazy-eights", players=3)
    enc = game.encoding
    blocks = {b.name: b for b in enc.layout(game).blocks}
    assert game.observation_shape() == (165 + 2 * 3,)
    state = game.new_initial_state(5)
    view = state.view(1)
    tensor = game.observation_tensor(view)

    def part(name: str) -> np.ndarray:
        b = blocks[name]
        return tensor[b.offset:b.offset + b.size]

    deck = list(crazy_eights.DECK)
    assert {deck[i] for i in np.flatnonzero(part("hands"))} == set(state.hands[1])
    assert deck[int(np.flatnonzero(part("discard.top"))[0])] == state.discard[-1]
    # seats relative to the viewer: seat 0 is to move, two seats after seat 1
    assert part("to_move").tolist() == [0, 0, 1]
    assert part("hands.count").tolist() == pytest.approx(
        [len(state.hands[s]) / 52 for s in (1, 2, 0)])
    assert part("stock.count")[0] == pytest.approx(len(state.stock) / 52)
    assert part("step").tolist() == [1, 0, 0] and not part("suit").any()
    assert enc.max_steps(game) == 2 * game.params["max_turns"]


def test_hidden_pieces_leave_only_their_counts() -> None:
    game = ToyEncoded(players=3)
    enc = game.encoding
    blocks = {b.name: b for b in enc.layout(game).blocks}
    state = game.new_initial_state(1)
    for seat in range(3):
        tensor = enc.observation_tensor(game, state.view(seat))
        rows = tensor[blocks["hands"].offset:][:blocks["hands"].size].reshape(3, len(CARDS))
        assert not rows[0].any()  # OTHERS: the viewer's own hand (row 0) stays 0
        for r in (1, 2):
            held = {CARDS[i] for i in np.flatnonzero(rows[r])}
            assert held == set(state.hands[(seat + r) % 3])
        deck = blocks["deck.count"]
        assert tensor[deck.offset] == pytest.approx(len(state.deck) / len(CARDS))
    left = dict(enc.layout(game).left_out)
    assert "Value.bounds" in left["turn"] and "Value.bounds" in left["score"]
    assert "Shown" in left["seats"]
    text = enc.describe(game)
    assert "hands.count" in text and "left out" in text


def test_copies_count_each_name_over_its_copies() -> None:
    game = CopiesEncoded()
    enc = game.encoding
    blocks = {b.name: b for b in enc.layout(game).blocks}
    tensor = enc.observation_tensor(game, game.new_initial_state(0).view(0))
    hand = tensor[blocks["hands"].offset:][:blocks["hands"].size]
    assert blocks["hands"].size == 5  # five names, two copies each
    assert hand.tolist() == [0.5, 0, 0, 0.5, 0]  # "A" and "D", one copy of each


def test_a_feature_block_is_appended_with_its_bounds_and_checked() -> None:
    def turns_left(game: Any, view: Any, out: TensorWriter) -> None:
        out.value(12 - view["turn"], low=0.0, high=12.0)

    enc = derived_encoding(ToyState, _toy_texts, features=[Feature("turns_left", 1, turns_left,
                                                                   "turns to play")])
    game = ToyEncoded(players=2)
    plain = ToyEncoded.encoding.observation_shape(game)[0]
    assert enc.observation_shape(game) == (plain + 1,)
    low, high = enc.observation_bounds(game)
    assert (low[-1], high[-1]) == (0.0, 12.0)
    assert enc.layout(game).blocks[-1].name == "turns_left"
    assert enc.observation_tensor(game, game.new_initial_state(0).view(0))[-1] == 12.0

    wrong = derived_encoding(ToyState, _toy_texts,
                             features=[Feature("two", 2, turns_left)])
    with pytest.raises(RuntimeError, match="wrote 1 numbers, declared 2"):
        wrong.observation_tensor(game, game.new_initial_state(0).view(0))


def test_the_declaration_is_checked() -> None:
    with pytest.raises(TypeError, match="not a ComponentState"):
        derived_encoding(object, _toy_texts)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no component named nothing"):
        derived_encoding(ToyState, _toy_texts, leave_out=["nothing"])
    enc = derived_encoding(ToyState, _toy_texts, leave_out=["discard"])
    game = ToyEncoded(players=2)
    assert "discard" not in {b.name for b in enc.layout(game).blocks}
    assert ("discard", "left out by the game (leave_out)") in enc.layout(game).left_out
    assert not hasattr(enc, "max_steps")  # the adapters then fall back to their own bound
