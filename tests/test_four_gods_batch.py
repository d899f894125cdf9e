"""The NumPy batch of Four Gods games (games/battle_of_the_four_gods/batch.py) plays the same
rules as the scalar state: in every variant and seat count, B games stepped with random legal
codes from the batch and B scalar states stepped with the same codes (``State.apply_codes``)
agree after every round on energy, eliminations, round, stall, the end, the winners and
truncation; the batch's legal mask is each scalar state's legal codes; an illegal code is
refused with nothing changed."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.engine.errors import ArgumentError, IllegalActionError
from meeple.engine.registry import game_class, load_game
from meeple.games.battle_of_the_four_gods.batch import FourGodsBatch

GAME = "battle-of-the-four-gods"
SPECS = [(v.name, n) for v in game_class(GAME).variants for n in (2, 3, 4)]


def _check_same(batch: FourGodsBatch, states: list) -> None:
    for g, state in enumerate(states):
        assert batch.energy[g].tolist() == list(state.energy)
        assert batch.eliminated_round[g].tolist() == list(state.eliminated_round)
        assert int(batch.round[g]) == state.round and int(batch.stall[g]) == state.stall
        assert bool(batch.done[g]) == state.is_terminal()
        assert bool(batch.truncated[g]) == state.is_truncated()
        assert batch.returns()[g].tolist() == list(state.returns())


@pytest.mark.parametrize(("variant", "players"), SPECS)
def test_batch_steps_like_the_scalar_rules(variant: str, players: int) -> None:
    # a short game (low energy, a low cap) so that eliminations, ties and the cap all happen
    game = load_game(GAME, variant, players, start_energy=6, max_rounds=12)
    size = 120
    batch = FourGodsBatch(game, size)
    states = [game.new_initial_state(g) for g in range(size)]
    rng = np.random.default_rng(len(variant) * 10 + players)
    while not batch.done.all():
        legal = batch.legal_mask()
        for g, state in enumerate(states):
            for s in range(players):
                assert np.flatnonzero(legal[g, s]).tolist() == list(state.legal_codes(s))
        codes = batch.random_codes(rng)
        batch.step(codes)
        for g, state in enumerate(states):
            if not state.is_terminal():
                state.apply_codes({s: int(codes[g, s]) for s in state.current_players()})
        _check_same(batch, states)
    ends = {(bool(t), int(w.sum())) for t, w in zip(batch.truncated, batch.winners, strict=True)}
    assert (False, 1) in ends  # sole winners; ties and the cap too in most specs
    assert len(ends) > 1 or players == 2


def test_batch_refuses_illegal_codes_and_bad_arrays() -> None:
    game = load_game(GAME)
    batch = FourGodsBatch(game, 3)
    codes = batch.random_codes(np.random.default_rng(0))
    before = batch.energy.copy()
    own = game.action_table().index("atk:R")  # RED attacking its own colour
    wrong = codes.copy()
    wrong[1, 0] = own
    with pytest.raises(IllegalActionError, match="game 1, seat 0"):
        batch.step(wrong)
    wrong[1, 0] = len(game.action_table())
    with pytest.raises(IllegalActionError):
        batch.step(wrong)
    with pytest.raises(ArgumentError):
        batch.step(codes[:2])
    with pytest.raises(ArgumentError):
        batch.step(codes.astype(float))
    with pytest.raises(ArgumentError):
        FourGodsBatch(game, 0)
    assert (batch.energy == before).all() and (batch.round == 0).all()
    batch.step(codes)
    assert (batch.round == 1).all()


def test_batch_playout_lengths_match_scalar_playouts() -> None:
    """Whole random playouts: the batch's mean length agrees with the engine's playouts (two
    independent samples of 400 games, within 4 standard errors)."""
    game = load_game(GAME)
    batch = FourGodsBatch(game, 400)
    batch.playout(np.random.default_rng(5))
    assert batch.done.all() and (batch.returns().sum(axis=1) == 1).all()
    import random

    rng = random.Random(5)
    lengths = []
    for g in range(400):
        state = game.new_initial_state(g)
        state.playout(rng)
        lengths.append(state.length())
    a, b = batch.round.astype(float), np.array(lengths, dtype=float)
    se = np.sqrt(a.var() / len(a) + b.var() / len(b))
    assert abs(a.mean() - b.mean()) < 4 * se
