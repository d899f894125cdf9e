"""Damocles determinization and evaluator (search support; the generic checks live in
tests/test_determinization.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from meeple.engine.registry import load_game
from meeple.games.damocles.bot import HeuristicBot
from meeple.games.damocles.evaluate import evaluate
from meeple.games.damocles.moves import legal_moves

#: State fields every seat can see, which a determinization must copy exactly.
PUBLIC = ("circle", "bank", "tableaus", "points", "phase", "placer", "placed", "active",
          "turns_taken", "winners_", "step", "swaps_allowed", "swaps_done", "relax_tokens",
          "annex_played", "annex_available", "pair_played", "pairs_used", "consumed",
          "keep_count", "destroy_queue")


def _content(state) -> Counter:
    """Every codex of the state, wherever it is (hands, tableaus, piles, an Oracle pool)."""
    return Counter([*(c for h in state.hands for c in h), *(c for t in state.tableaus for c in t),
                    *state.deck, *state.discard, *state.removed, *state.consumed, *state.keep_pool])


def _walk(game, seed: int, stop) -> object:
    """Heuristic bots from ``seed`` until ``stop(state)`` holds (or the game ends)."""
    state = game.new_initial_state(seed)
    bots = [HeuristicBot(game, s, seed * 10 + s) for s in range(game.players)]
    while not state.is_terminal() and not stop(state):
        state.apply_actions({s: bots[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
    return state


def _check_sample(game, state, seat: int, rng: random.Random):
    sampled = game.determinize(state.view(seat), rng)
    assert sampled.view(seat) == state.view(seat)
    assert _content(sampled) == _content(state) == Counter(list(game.codex_by_id))
    for name in PUBLIC:
        assert getattr(sampled, name) == getattr(state, name), name
    assert sampled.hands[seat] == state.hands[seat]  # own hand, in its order
    assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
    assert len(sampled.deck) == len(state.deck)
    assert len(sampled.discard) == len(state.discard)
    assert len(sampled.keep_pool) == len(state.keep_pool)
    return sampled


@pytest.mark.parametrize("variant", ["seed", "future", "strict"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_samples_conserve_content_and_copy_public_parts(variant: str, players: int) -> None:
    game = load_game("damocles", variant, players)
    rng = random.Random(1)
    steps = 0
    state = game.new_initial_state(4)
    bots = [HeuristicBot(game, s, s) for s in range(players)]
    while not state.is_terminal():
        if steps % 3 == 0:
            for seat in range(players):
                _check_sample(game, state, seat, rng)
        state.apply_actions({s: bots[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
        steps += 1
    for seat in range(players):  # the final state too
        _check_sample(game, state, seat, rng)


def test_hidden_parts_differ_across_streams() -> None:
    game = load_game("damocles", players=4)
    state = _walk(game, 2, lambda s: s.phase == "turn" and s.turns_taken >= 6)
    view = state.view(1)
    samples = [game.determinize(view, random.Random(k)) for k in range(8)]
    for sampled in samples:
        assert sampled.hands[1] == state.hands[1]
    assert len({tuple(s.hands[0]) for s in samples}) > 1
    assert len({tuple(s.deck) for s in samples}) > 1
    assert len({tuple(sorted(s.discard)) for s in samples}) > 1
    # the sampled hidden parts come from what seat 1 cannot see: never its own hand
    for sampled in samples:
        others = {c for s in (0, 2, 3) for c in sampled.hands[s]} | set(sampled.deck)
        assert not others & set(state.hands[1])


def test_oracle_pool_is_exact_for_its_owner_and_drawn_for_others() -> None:
    game = load_game("damocles", players=4)
    for seed in range(40):
        state = _walk(game, seed, lambda s: s.phase == "turn" and s.step == "keep")
        if not state.is_terminal():
            break
    else:
        pytest.fail("no Oracle keep in 40 heuristic games")
    owner = state.active
    rng = random.Random(3)
    mine = _check_sample(game, state, owner, rng)
    assert sorted(mine.keep_pool) == sorted(state.keep_pool)
    assert mine.legal_actions(owner) == state.legal_actions(owner)
    other = (owner + 1) % 4
    pools = set()
    for k in range(10):
        sampled = _check_sample(game, state, other, random.Random(k))
        assert "keep_pool" not in state.view(other)
        pools.add(tuple(sorted(sampled.keep_pool)))
        assert not set(sampled.keep_pool) & set(state.hands[other])
        sampled.playout(random.Random(k))
        assert sampled.is_terminal()
    assert len(pools) > 1


def test_granted_codices_of_the_strict_variant() -> None:
    """With granted codices barred for the turn, others' samples bar as many codices."""
    game = load_game("damocles", "strict", 3)
    for seed in range(40):
        state = _walk(game, seed, lambda s: s.phase == "turn" and s.step == "play"
                      and len(s.granted) > 0)
        if not state.is_terminal():
            break
    else:
        pytest.fail("no draw in 40 heuristic games")
    owner = state.active
    own = game.determinize(state.view(owner), random.Random(0))
    assert sorted(own.granted) == sorted(state.granted)
    other = game.determinize(state.view((owner + 1) % 3), random.Random(0))
    assert len(other.granted) == len(state.granted)
    assert set(other.granted) <= set(other.hands[owner])


def test_partial_setup_discard_keeps_own_submission_only() -> None:
    game = load_game("damocles", players=3)
    state = game.new_initial_state(5)
    choice = state.legal_actions(1)[4]
    state.apply_action(choice, 1)
    mine = state.view(1)
    assert mine["my_submission"] == str(choice)
    theirs = state.view(0)
    assert theirs["submitted"] == [1] and "my_submission" not in theirs
    for k in range(5):
        sampled = game.determinize(mine, random.Random(k))
        assert sampled._pending[1] == choice
        assert sampled.view(1) == mine
        other = game.determinize(theirs, random.Random(k))
        assert set(other._pending) == {1}
        assert other._pending[1] in legal_moves(other, 1)
        assert other.view(0) == theirs and "my_submission" not in other.view(0)
        # seat 1's drawn discard comes from its sampled hand, never seat 0's own codices
        assert not set(other._pending[1].args) & set(state.hands[0])
        assert set(other._pending[1].args) <= set(other.hands[1])


def test_views_hide_hand_order_and_show_public_turn_facts() -> None:
    game = load_game("damocles", players=4)
    state = _walk(game, 1, lambda s: s.phase == "turn" and s.turns_taken >= 3)
    spectator = state.view(None)
    assert "hand_order" not in spectator and "hand" not in spectator
    assert state.view(2)["hand_order"] == state.hands[2]
    assert spectator["tableau_order"] == state.tableaus
    assert spectator["placer"] == state.placer
    turn = spectator["turn"]
    assert turn["consumed"] == state.consumed and turn["keep_size"] == len(state.keep_pool)
    assert turn["granted_count"] == len(state.granted)


# ------------------------------------------------------------------------------ evaluator
def test_evaluator_values_are_shares_and_terminal_gives_returns() -> None:
    game = load_game("damocles", players=4)
    assert game.state_evaluator() is evaluate
    state = game.new_initial_state(8)
    walk = random.Random(8)
    while not state.is_terminal():
        values = evaluate(state)
        assert len(values) == 4 and all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
    assert evaluate(state) == state.returns()


def test_evaluator_prefers_the_seat_ahead() -> None:
    game = load_game("damocles", players=3)
    state = _walk(game, 4, lambda s: s.phase == "turn" and s.turns_taken >= 9)
    base = evaluate(state)
    ahead = state.clone()
    ahead.points[0] = max(state.points) + 40  # beyond what the others' codices promise
    behind = state.clone()
    behind.points[0] = 0
    assert evaluate(ahead)[0] > base[0] >= evaluate(behind)[0]
    assert evaluate(ahead)[0] > max(evaluate(ahead)[1:])
    # codices that can still earn count: a Production and a Number added to seat 0's tableau
    production = next(c.id for c in game.deck if c.type == "GENERATE"
                      and all(c.id not in t for t in state.tableaus))
    number = next(c.id for c in game.deck if c.type == "THREE"
                  and all(c.id not in t for t in state.tableaus))
    richer = behind.clone()
    for cid in (production, number):
        for pile in (*richer.hands, richer.deck, richer.discard):
            if cid in pile:
                pile.remove(cid)
        richer.tableaus[0].append(cid)
    assert evaluate(richer)[0] > evaluate(behind)[0]


def test_evaluator_settles_as_the_game_nears_its_end() -> None:
    """The same lead is worth more late (fewer turns to catch up) than early."""
    game = load_game("damocles", players=2)
    early = _walk(game, 6, lambda s: s.phase == "turn" and s.turns_taken >= 2)
    late = _walk(game, 6, lambda s: s.phase == "turn" and s.turns_taken >= 18)
    for state in (early, late):
        state.points[:] = [0, 5]
        for seat in range(2):
            for cid in state.tableaus[seat]:
                state.discard.append(cid)
            state.tableaus[seat].clear()
            state.deck.extend(state.hands[seat])
            state.hands[seat].clear()
    assert evaluate(late)[1] > evaluate(early)[1] > 0.5
