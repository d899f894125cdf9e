"""Determinization conformance: for every registered game, a state sampled from one seat's
view gives that seat exactly the same view and legal actions, is a playable state, and
depends only on the view and the sampling stream (engine-patterns 6).

Only the game-agnostic API is used, so a new game is checked without an edit here.
"""

from __future__ import annotations

import random

import pytest

from meeple.engine.errors import ArgumentError, ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import game_names, load_game
from meeple.engine.state import State
from tests.configs import game_configs

try:  # the template games; importing them registers "pig" and "crazy-eights"
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401
except ImportError:  # pragma: no cover - only when run outside the checkout
    pass

#: Steps of each seeded random walk that are checked (all of them for shorter games).
STEPS = 120
#: Every this many steps, a determinized state is also played out to the end.
PLAYOUT_EVERY = 25


@pytest.fixture(params=game_configs())
def game(request) -> Game:
    name, variant, players = request.param
    return load_game(name, variant, players)


def _check(game: Game, state: State, seat: int, rng: random.Random, play: bool) -> None:
    view = state.view(seat)
    sampled = game.determinize(view, rng)
    assert sampled is not state
    assert sampled.view(seat) == view, f"seat {seat}'s view changed by determinization"
    assert list(sampled.current_players()) == list(state.current_players())
    assert list(sampled.legal_actions(seat)) == list(state.legal_actions(seat))
    assert sampled.is_terminal() == state.is_terminal()
    if play and not sampled.is_terminal():
        sampled.playout(rng, max_steps=20_000)
        assert sampled.is_terminal()
        assert len(sampled.returns()) == game.players


def test_sampled_state_gives_the_seat_the_same_view(game: Game) -> None:
    state = game.new_initial_state(11)
    walk = random.Random(5)
    rng = random.Random(7)
    step = 0
    while True:
        for seat in range(game.players):
            _check(game, state, seat, rng, play=step % PLAYOUT_EVERY == 0 and seat == 0)
        if state.is_terminal() or step >= STEPS:
            break
        acting = state.current_players()
        if len(acting) > 1 and step % 2:
            # a partial submission: the first acting seat's choice is hidden from the others
            first = acting[0]
            state.apply_action(walk.choice(state.legal_actions(first)), first)
            for seat in range(game.players):
                _check(game, state, seat, rng, play=False)
            acting = state.current_players()
        state.apply_actions({s: walk.choice(state.legal_actions(s)) for s in acting})
        step += 1


def test_same_view_same_stream_same_sample(game: Game) -> None:
    state = game.new_initial_state(3)
    state.playout(random.Random(1), max_steps=7)
    view = state.view(0)
    a = game.determinize(view, random.Random(42))
    b = game.determinize(view, random.Random(42))
    assert a.digest() == b.digest()
    assert state.view(0) == view, "determinization must not change the true state"


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in game_names()])
def test_hidden_parts_are_resampled(name: str) -> None:
    """A game with hidden information draws different hidden parts from different streams
    somewhere along a playthrough (a determinization that copied one fixed guess would not)."""
    game = load_game(name)
    if not game.capabilities.hidden_information:
        pytest.skip("no hidden information")
    state = game.new_initial_state(9)
    walk = random.Random(2)
    for _ in range(60):
        if state.is_terminal():
            break
        acting = state.current_players()
        others = [s for s in acting if s != 0]
        if len(acting) > 1 and others:  # another seat's hidden submission is part of it
            state.apply_action(walk.choice(state.legal_actions(others[0])), others[0])
        view = state.view(0)
        samples = set()
        for k in range(4):
            data = game.determinize(view, random.Random(k)).to_json()
            samples.add(repr((data["pending"], data["data"])))
        if len(samples) > 1:
            return
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
    pytest.fail("every determinization drew the same hidden state for 60 steps")


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in game_names()])
def test_determinize_refuses_other_views(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state(0)
    with pytest.raises(ParameterError, match="not a seat's view"):
        game.determinize(state.view(None), random.Random(0))
    with pytest.raises(ParameterError, match="not a seat's view"):
        game.determinize({**state.view(0), "game": "chess"}, random.Random(0))


def test_determinizer_draws_as_determinize_and_shares_nothing(game: Game) -> None:
    """``Game.determinizer(view)`` (the view read once, for search) draws exactly what
    ``determinize`` draws, leaves the stream where it leaves it, and gives states that share no
    mutable part with each other or with what it prepared: playing one out changes no other."""
    state = game.new_initial_state(4)
    walk = random.Random(6)
    for step in range(40):
        if state.is_terminal():
            break
        if step % 4 == 0:
            for seat in range(game.players):
                view = state.view(seat)
                draw = game.determinizer(view)
                for k in (step, step + 100):
                    ours, public = random.Random(k), random.Random(k)
                    first, second = draw(ours), draw(ours)
                    expected = game.determinize(view, public)
                    assert first.digest() == expected.digest()
                    assert second.digest() == game.determinize(view, public).digest()
                    assert ours.getstate() == public.getstate()
                    first.playout(random.Random(k), max_steps=200)
                    third = draw(random.Random(k))
                    assert third.digest() == expected.digest()
                    assert second.view(seat) == view
                    for sampled in (second, third):  # the seat's tables, shared after a draw
                        assert list(sampled.legal_actions(seat)) == \
                            list(state.legal_actions(seat))
                        assert sampled.current_players() == state.current_players()
                assert state.view(seat) == view, "determinization must not change the state"
        acting = state.current_players()
        if len(acting) > 1 and step % 3 == 1:  # a hidden partial submission
            state.apply_action(walk.choice(state.legal_actions(acting[0])), acting[0])
            acting = state.current_players()
        state.apply_actions({s: walk.choice(state.legal_actions(s)) for s in acting})


def test_determinizer_refuses_other_views() -> None:
    game = load_game("damocles")
    state = game.new_initial_state(0)
    with pytest.raises(ParameterError, match="not a seat's view"):
        game.determinizer(state.view(None))
    draw = game.determinizer(state.view(0))
    with pytest.raises(ArgumentError):
        draw("not a stream")


def test_remember_legal_keeps_entries_within_the_bound_and_checked_applies_still_refuse() -> None:
    """``remember_legal``: the same entry back under a key, the memo emptied when full, and a
    state holding such an entry (no membership set) still accepts its legal actions and
    refuses anything else in a checked apply (the engine builds the set on demand)."""
    from meeple.engine.determinization import remember_legal
    from meeple.engine.errors import IllegalActionError
    from meeple.engine.registry import load_game

    memo: dict = {}
    first = remember_legal(memo, "a", iter([1, 2, 3]), bound=2)
    assert first == ((1, 2, 3), None) and memo["a"] is first
    remember_legal(memo, "b", [4], bound=2)
    assert len(memo) == 2
    remember_legal(memo, "c", [5], bound=2)  # full: emptied first
    assert list(memo) == ["c"]

    game = load_game("damocles")
    state = game.new_initial_state(seed=3)
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    state._legal = {seat: remember_legal({}, "k", legal)}
    assert game.parse_action("end", seat) not in legal
    before = state.digest()
    with pytest.raises(IllegalActionError):
        state.apply_action(game.parse_action("end", seat), seat)
    assert state.digest() == before
    state.apply_action(legal[0], seat)
    assert state.digest() != before


@pytest.mark.parametrize("name", ["damocles", "epoch-ellipse", "ozymandias-market"])
def test_only_a_determinizations_states_remember_their_legal_tables(name: str) -> None:
    """Games whose determinized states remember their legal tables (``remember_legal``): a
    new game's states and their copies generate every list (``tables`` None); a
    determinization's states and their copies hold the game spec's ``legal_memo`` and list
    the viewing seat's legal actions as the real state does; the memo is no rules field (not
    in the data, the digest or a restored state)."""
    from meeple.engine.registry import load_game

    game = load_game(name)
    state = game.new_initial_state(seed=3)
    assert state.tables is None and state.clone().tables is None
    seat = state.current_players()[0]
    drawn = game.determinizer(state.view(seat))(random.Random(1))
    assert drawn.tables is game.legal_memo and drawn.clone().tables is game.legal_memo
    assert list(drawn.legal_actions(seat)) == list(state.legal_actions(seat))
    assert "tables" not in drawn.to_json()["data"]
    restored = game.state_from_json(drawn.to_json())
    assert restored.tables is None and restored.digest() == drawn.digest()
