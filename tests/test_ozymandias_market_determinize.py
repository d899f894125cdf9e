"""Ozymandias (market edition): determinization and the search evaluator (rules page
section 12). The game-agnostic checks live in tests/test_determinization.py."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.games.ozymandias_market.evaluate import evaluate

PUBLIC = ("stacks", "supply", "dead", "sectors_left", "market", "discard", "played", "vp",
          "round", "phase", "step", "turn_order", "turn", "surge_left", "last_ranks",
          "winners_", "truncated")


def walk(game, seed: int, steps: int):
    """The state after ``steps`` uniform random joint actions (or the end)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_actions({s: rng.choice(state.legal_actions(s))
                             for s in state.current_players()})
    return state


def find(game, predicate, seeds=range(40)):
    """The first state of seeded random games where ``predicate(state)`` holds."""
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if predicate(state):
                return state
            state.apply_actions({s: rng.choice(state.legal_actions(s))
                                 for s in state.current_players()})
    raise AssertionError("no such state in the seeded games")


def all_cards(state) -> Counter:
    """Every card of the state, wherever it is."""
    cards = Counter(state.deck) + Counter(state.market) + Counter(state.discard)
    cards += Counter(state.augury_pool)
    cards += Counter(r for r in state.played if r is not None)
    for hand in state.hands:
        cards += Counter(hand)
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_conserves_the_cards_and_copies_the_public_parts(players):
    game = load_game("ozymandias-market", players=players)
    deck = Counter(list(game.card_by_rank))
    for steps in (0, 3, 11, 30, 57):
        state = walk(game, players * 7 + steps, steps)
        assert all_cards(state) == deck
        for seat in range(players):
            sampled = game.determinize(state.view(seat), random.Random(steps))
            assert all_cards(sampled) == deck  # every card exactly once
            for name in PUBLIC:
                assert getattr(sampled, name) == getattr(state, name), name
            assert len(sampled.deck) == len(state.deck)
            assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
            assert sorted(sampled.hands[seat]) == sorted(state.hands[seat])  # own hand exact
            assert sampled._acting == state._acting


def test_hidden_cards_are_resampled_and_own_hand_is_kept():
    game = load_game("ozymandias-market", players=3)
    state = walk(game, 5, 20)
    view = state.view(1)
    others, decks = set(), set()
    for k in range(8):
        sampled = game.determinize(view, random.Random(k))
        assert sorted(sampled.hands[1]) == sorted(state.hands[1])
        others.add((tuple(sorted(sampled.hands[0])), tuple(sorted(sampled.hands[2]))))
        decks.add(tuple(sampled.deck))
        # what the seat cannot see comes from the cards it has not seen
        unseen = Counter(state.deck) + Counter(state.hands[0]) + Counter(state.hands[2])
        assert Counter(sampled.deck) + Counter(sampled.hands[0]) + Counter(
            sampled.hands[2]) == unseen
    assert len(others) > 1 and len(decks) > 1
    assert state.view(1) == view  # the true state is untouched


def test_same_stream_same_sample():
    game = load_game("ozymandias-market", players=4)
    view = walk(game, 2, 9).view(3)
    a = game.determinize(view, random.Random(99))
    b = game.determinize(view, random.Random(99))
    assert a.digest() == b.digest()
    assert a.hands == b.hands and a.deck == b.deck


def test_augury_cards_known_to_the_looker_only():
    game = load_game("ozymandias-market", players=3)
    state = find(game, lambda s: s.step == "augury")
    looker = state.turn_order[state.turn]
    size = len(state.augury_pool)
    assert size >= 2
    for seat in range(3):
        view = state.view(seat)
        assert view["augury_size"] == size  # public: how many, not which
        pools = set()
        for k in range(10):
            sampled = game.determinize(view, random.Random(k))
            assert len(sampled.augury_pool) == size
            assert sampled.view(seat) == view
            pools.add(tuple(sampled.augury_pool))
            if seat == looker:  # the looker's cards, in their drawn order
                assert sampled.augury_pool == state.augury_pool
                assert sampled.legal_actions(seat) == state.legal_actions(seat)
        if seat == looker:
            assert pools == {tuple(state.augury_pool)}
        else:
            assert len(pools) > 1


def test_surge_keeps_the_expansions_left():
    game = load_game("ozymandias-market", players=3)
    state = find(game, lambda s: s.step == "surge")
    assert state.surge_left > 0
    for seat in range(3):
        view = state.view(seat)
        assert view["surge_left"] == state.surge_left
        sampled = game.determinize(view, random.Random(seat))
        assert sampled.surge_left == state.surge_left and sampled.step == "surge"
    assert "surge_left" not in walk(game, 1, 0).view(0)


def test_last_ranks_are_public_for_the_tiebreak():
    game = load_game("ozymandias-market", "2017tie", players=2)
    state = walk(game, 4, 25)
    assert state.view(None)["last_ranks"] == state.last_ranks
    assert any(r is not None for r in state.last_ranks)
    assert game.determinize(state.view(0), random.Random(0)).last_ranks == state.last_ranks


def test_partial_plan_submission_is_kept_for_its_seat_and_drawn_for_others():
    game = load_game("ozymandias-market", players=3)
    state = walk(game, 8, 12)
    while state.phase != "plan":
        assert not state.is_terminal()
        state.apply_actions({s: state.legal_actions(s)[0] for s in state.current_players()})
    mine = state.legal_actions(0)[-1]
    state.apply_action(mine, 0)
    view0, view1 = state.view(0), state.view(1)
    assert view0["my_submission"] == str(mine)
    assert view1["submitted"] == [0] and "my_submission" not in view1
    assert str(mine) not in str(view1)
    own = game.determinize(view0, random.Random(1))
    assert own._pending == {0: mine}
    assert own.view(0) == view0
    drawn = set()
    for k in range(12):
        other = game.determinize(view1, random.Random(k))
        assert other.view(1) == view1
        assert set(other._pending) == {0}
        assert other._pending[0].args[0] in other.hands[0]  # a card of its sampled hand
        drawn.add(str(other._pending[0]))
    assert len(drawn) > 1


def test_inconsistent_view_is_refused():
    game = load_game("ozymandias-market", players=3)
    view = walk(game, 3, 5).view(0)
    with pytest.raises(ParameterError, match="does not account"):
        game.determinize({**view, "deck_size": view["deck_size"] + 1}, random.Random(0))


def test_evaluator_is_declared_and_in_range():
    for players in (2, 3, 4):
        game = load_game("ozymandias-market", players=players)
        assert game.state_evaluator() is evaluate
        for steps in (0, 10, 40, 90):
            state = walk(game, steps, steps)
            values = evaluate(state)
            assert len(values) == players
            assert all(0.0 <= v <= 1.0 for v in values)
            if not state.is_terminal():
                assert sum(values) == pytest.approx(1.0)


def test_evaluator_at_the_end_is_the_returns():
    game = load_game("ozymandias-market", players=3)
    state = game.new_initial_state(6)
    state.playout(random.Random(6))
    assert state.is_terminal()
    assert evaluate(state) == state.returns()
    assert max(evaluate(state)) > 0


def test_evaluator_favours_the_seat_ahead():
    game = load_game("ozymandias-market", players=3)
    state = walk(game, 12, 16)
    assert not state.is_terminal()
    ahead, behind = state.clone(), state.clone()
    ahead.vp = [15, 2, 2]
    behind.vp = [2, 15, 2]
    assert evaluate(ahead)[0] > evaluate(behind)[0]
    assert evaluate(ahead)[0] > 0.5 and evaluate(behind)[0] < 1 / 3
    even = state.clone()
    even.vp = [5, 5, 5]
    more = state.clone()
    more.vp = [6, 5, 5]
    assert evaluate(more)[0] > evaluate(even)[0]  # monotone in VP
    # nearer the 21 VP target, the same lead counts for more
    near, far = state.clone(), state.clone()
    near.vp, far.vp = [19, 15, 15], [6, 2, 2]
    assert evaluate(near)[0] > evaluate(far)[0]
