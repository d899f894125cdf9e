"""Epoch Ellipse: every seat's packed card counts (``EpochState.packs``) stay current.

A determinization's state (and any state after ``recount_packs()``) keeps, per seat, the
packed counts (``cards.PackedCounts``) of its hand and discard pile and of its whole deck,
updated by every step that moves a card into or out of a hand, discard pile or draw pile; the
evaluator reads them instead of summing the piles. A playthrough's state keeps none (None:
the updates would cost every real game), and the evaluator sums its piles. These tests play
seeded games with the counts turned on (random and heuristic seats, every named variant, the
parameter switches that route cards differently, 1-5 seats) and, after every step, compare
the field with the counts recounted card by card from the piles. They also play on from
determinizations drawn from mid-game views, from states read back from JSON, and from clones,
check that playthroughs keep no counts and that the evaluator's values are the same either
way, and that the field stays outside the data and the digest.
"""

from __future__ import annotations

import random

import pytest

from meeple import load_game
from meeple.bots import make_bot
from meeple.games.epoch_ellipse.cards import PackedCounts
from tests.playthrough import step

GAME = "epoch-ellipse"
#: (variant, seats, parameters): every named variant, 1-5 seats, and the switches that send
#: cards elsewhere (curses trashed, survivors removed, a small hand limit, die-roll draws).
CONFIGS = [("seed", 1, {}), ("seed", 3, {}), ("easy", 2, {}), ("hard", 5, {}),
           ("d6", 4, {}), ("strict", 3, {}), ("forgiving", 2, {}),
           ("seed", 4, {"hand_size": 3, "explore_max": 2, "dead_survivor": "removed"}),
           ("hard", 3, {"curse_after": "trash", "stabilize_window": "anytime"})]


def _recounted(state) -> list[int]:
    """Each seat's packs recounted card by card from its piles: the hand and discard pile's
    packed counts below ``shift``, the whole deck's above (no ``PackedCounts.seat``)."""
    counts = state.game.counts
    out = []
    for hand, discard, draws in zip(state.hands, state.discards, state.draws, strict=True):
        near = 0
        for card in hand + discard:
            near += counts.packed[card]
        deck = near
        for card in draws:
            deck += counts.packed[card]
        out.append(near + (deck << counts.shift))
    return out


def _check(state) -> None:
    assert state.packs == _recounted(state), (state.day, state.phase, state.step)


def _play(state, walk: random.Random, steps: int, bots=None) -> int:
    """Up to ``steps`` steps (the bots' choices, else uniform ones), the packs checked after
    each; returns how many were played."""
    played = 0
    while played < steps and not state.is_terminal():
        step(state, walk, bots)
        played += 1
        _check(state)
    return played


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_packs_equal_the_recounted_piles_after_every_step(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    steps = drawn = loaded = 0
    for g in range(20):
        walk = random.Random(g)
        bots = ([make_bot("heuristic", game, s, g) for s in range(players)]
                if g % 3 == 0 else None)
        state = game.new_initial_state(seed=g)
        assert state.packs is None  # a playthrough keeps no counts ...
        state.recount_packs()  # ... until asked to
        _check(state)
        while not state.is_terminal():
            steps += _play(state, walk, 1, bots)
            if steps % 17 == 0 and not state.is_terminal():
                # A determinization from the acting seat's view, played on at random.
                draw = game.determinizer(state.view(state.current_players()[0]))
                other = draw(random.Random(steps))
                _check(other)
                drawn += _play(other, random.Random(steps), 40)
            if steps % 23 == 0:
                # Read back from JSON (the field recounted), and a clone, played on.
                back = game.state_from_json(state.to_json())
                assert back.packs is None
                back.recount_packs()
                _check(back)
                loaded += _play(back, random.Random(-steps), 25)
                copy = state.clone()
                assert copy.packs == state.packs and copy.packs is not state.packs
                _play(copy, random.Random(steps), 10)
                _check(state)  # the original untouched by the clone's steps
    assert steps > 200 and drawn > 100 and loaded > 50


def test_packs_survive_a_search():
    """Determinized states played by the engine's unchecked path (as a search does), and
    the evaluator's counts against the piles at every leaf-like state."""
    game = load_game(GAME, players=3)
    state = game.new_initial_state(seed=5)
    walk = random.Random(5)
    state.recount_packs()
    _play(state, walk, 30)
    draw = game.determinizer(state.view(state.current_players()[0]))
    for k in range(20):
        drawn = draw(random.Random(k))
        for _ in range(60):
            if drawn.is_terminal():
                break
            drawn.apply_legal({s: walk.choice(drawn.legal_actions(s))
                               for s in drawn.current_players()})
            _check(drawn)


def test_the_evaluator_reads_the_same_counts_with_or_without_packs():
    """A playthrough's state (no counts kept) and the same state with its counts turned on
    evaluate to the same floats, at every step of random and heuristic games."""
    for players in (1, 3, 5):
        game = load_game(GAME, players=players)
        evaluate = game.state_evaluator()
        for g in range(4):
            walk = random.Random(g)
            bots = [make_bot("heuristic", game, s, g) for s in range(players)] if g % 2 else None
            state = game.new_initial_state(seed=g)
            while not state.is_terminal():
                counted = state.clone()
                counted.recount_packs()
                assert state.packs is None
                assert evaluate(state) == evaluate(counted)
                step(state, walk, bots)


def test_packs_stay_outside_the_data_and_the_digest():
    game = load_game(GAME, players=2)
    state = game.new_initial_state(seed=1)
    state.recount_packs()
    _play(state, random.Random(1), 20)
    assert "packs" not in state.to_json()["data"]
    copy = state.clone()
    copy.packs[0] += 1  # derived data: not part of what makes two states equal
    assert copy.digest() == state.digest()


def test_a_seats_packs_are_its_piles_sums():
    """``PackedCounts.seat`` against the per-card fields, on a built position."""
    game = load_game(GAME, players=2)
    counts = game.packed_counts()
    assert isinstance(counts, PackedCounts)
    state = game.new_initial_state(seed=3)
    state.recount_packs()
    _play(state, random.Random(3), 12)
    for seat in range(2):
        hand, discard, draws = state.hands[seat], state.discards[seat], state.draws[seat]
        pack = counts.seat(hand, discard, draws)
        near, deck = pack & ((1 << counts.shift) - 1), pack >> counts.shift
        bits, mask = counts.bits, counts.mask
        for part, cards in ((near, hand + discard), (deck, hand + discard + draws)):
            assert part & mask == sum(counts.cat[c] for c in cards)
            assert part >> bits & mask == sum(counts.food[c] for c in cards)
            assert part >> 2 * bits & mask == sum(counts.medical[c] for c in cards)
            assert part >> 3 * bits == len(cards)
