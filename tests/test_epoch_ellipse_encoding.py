"""Epoch Ellipse encoding (src/meeple/games/epoch_ellipse/encoding.py): the table's documented
sizes, the rare branches random walks seldom reach (nowhere to explore, a full survivor pool,
Mournful cards), and the observation's layout. The generic round-trip checks live in
tests/test_encoding.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple import load_game
from meeple.games.epoch_ellipse.cards import CHARM, SALVAGE, SURVIVOR
from meeple.games.epoch_ellipse.encoding import COUNT_SCALE


def _walk(game, seed: int, until, limit: int = 400):
    """A random walk from ``seed`` until ``until(state)`` holds (None if it never does)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return None
        if until(state):
            return state
        (seat,) = state.current_players()
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return None


def _first(game, until):
    for seed in range(60):
        state = _walk(game, seed, until)
        if state is not None:
            return state
    raise AssertionError("no walk reached the wanted step")


def _in_table(game, state) -> list[str]:
    """The texts of the acting seat's legal actions, each checked to be in the table."""
    (seat,) = state.current_players()
    texts = [str(a) for a in state.legal_actions(seat)]
    table = set(game.action_table())
    assert texts and all(t in table for t in texts), sorted(set(texts) - table)
    return texts


@pytest.mark.parametrize(("variant", "delta"), [
    ("seed", 0), ("hard", 0), ("forgiving", 0), ("easy", -4), ("strict", -14), ("d6", -60)])
def test_table_sizes_are_the_documented_ones(variant: str, delta: int) -> None:
    for players in range(1, 6):
        size = load_game("epoch-ellipse", variant, players).num_distinct_actions()
        assert size == (254 if players == 1 else 254 + 311 * players) + delta


def test_trades_are_ordered_salvage_pairs_and_absent_solo() -> None:
    game = load_game("epoch-ellipse", "seed", 3)
    salvage = {c.name for c in game.content.cards if c.kind == SALVAGE}
    trades = [t.split() for t in game.action_table() if t.startswith("trade ")]
    assert len(trades) == 3 * len(salvage) * (len(salvage) - 1)
    assert ["trade", "2", "bullet", "tinned-ham"] in trades
    assert ["trade", "2", "tinned-ham", "bullet"] in trades
    solo = load_game("epoch-ellipse", "seed", 1).action_table()
    assert not any(t.startswith("trade") or " ms " in t for t in solo)


def test_nowhere_to_explore_offers_skip_from_the_table() -> None:
    game = load_game("epoch-ellipse", "seed", 2)
    state = _first(game, lambda s: s.step == "choose").clone()
    state.location_deck = []
    state.event_decks = [[] for _ in state.event_decks]
    state._legal = None
    assert "skip" in _in_table(game, state)


def test_a_full_pool_offers_the_last_pick() -> None:
    game = load_game("epoch-ellipse", "seed", 2)
    state = _first(game, lambda s: s.step == "plan").clone()
    survivors = sorted(set(game.shared[SURVIVOR]))
    state.pool = [[c] for c in survivors]
    state.queue = [state.turn]
    state.phase, state.step = "wake", "pick"
    state._refresh_acting()
    state._legal = None
    texts = _in_table(game, state)
    assert f"pick {len(survivors)}" in texts


def test_mournful_cards_are_offered_from_the_table() -> None:
    game = load_game("epoch-ellipse", "seed", 3)
    cards = game.content.cards
    charm = next(c for c in game.shared[SALVAGE] if cards[game.ctype[c]].subtype == CHARM)
    food = next(c for c in game.shared[SALVAGE]
                if any(cards[game.ctype[c]].points(m).get("food") for m in
                       cards[game.ctype[c]].modes()))
    state = _first(game, lambda s: s.step == "hunger").clone()
    (seat,) = state.current_players()
    others = [s for s in range(3) if s != seat]
    for other, card in zip(others, (charm, food), strict=True):
        state.status[other] = "mournful"
        state.ms_card[other] = card
    state._legal = None
    texts = _in_table(game, state)
    assert f"charm ms {others[0]}" in texts
    assert any(t.startswith(f"eat ms {others[1]} ") for t in texts)


def test_observation_puts_the_viewer_first_and_counts_its_hand() -> None:
    game = load_game("epoch-ellipse", "seed", 3)
    state = game.new_initial_state(5)
    content, t = game.content, len(game.content.cards)
    global_width = 32 + 2 * t + 3 * 3
    hand_at = global_width + 3 + 10  # after the status one-hot and the ten seat values
    for seat in range(3):
        x = game.observation_tensor(state.view(seat))
        hand = x[hand_at:hand_at + t] * COUNT_SCALE
        expected = np.zeros(t)
        for name in state.view(seat)["players"][seat]["hand"]:
            expected[content.by_name[name]] += 1
        assert np.allclose(hand, expected)
    assert not np.array_equal(game.observation_tensor(state.view(0)),
                              game.observation_tensor(state.view(1)))


def test_observation_values_stay_in_a_small_range() -> None:
    game = load_game("epoch-ellipse", "seed", 4)
    state = game.new_initial_state(2)
    rng = random.Random(2)
    while not state.is_terminal():
        x = game.observation_tensor(state.view(state.current_players()[0]))
        assert x.min() >= 0.0 and x.max() <= 3.0
        (seat,) = state.current_players()
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
