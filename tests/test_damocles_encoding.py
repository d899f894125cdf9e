"""Damocles encoding (src/meeple/games/damocles/encoding.py): the action table's blocks and size
formula, its cap, the Oracle keep block in play, and the observation's layout. The generic
round-trip checks live in tests/test_encoding.py."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

import numpy as np
import pytest

from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.games.damocles.bot import HeuristicBot
from meeple.games.damocles.codex import NUMBER, PRODUCTION
from meeple.games.damocles.encoding import table_size
from meeple.games.damocles.matching import relaxed_variants


def _relaxable(codex) -> bool:
    return len(relaxed_variants(codex.pattern)) > 1


@pytest.mark.parametrize("variant", ["seed", "future"])
def test_table_blocks_follow_the_documented_formula(variant: str) -> None:
    game = load_game("damocles", variant)
    deck, d = game.deck, len(game.deck)
    kinds = Counter(text.split()[0] for text in game.action_table())
    pairs = sum(1 + _relaxable(p) + _relaxable(n) + (_relaxable(p) and _relaxable(n))
                for p in deck if p.info.cls == PRODUCTION
                for n in deck if n.info.cls == NUMBER)
    assert kinds["keep"] == 1 + d + comb(d, 2) + comb(d, 3)  # Numbers go up to THREE
    assert kinds["discard"] == comb(d, 2)
    assert kinds["pair"] == pairs
    assert kinds["place"] == 35 and kinds["swap"] == 21 + 35
    assert kinds["haste"] == sum(c.type == "HASTE" for c in deck)
    assert ("destroy" in kinds) == (variant == "future")
    assert game.num_distinct_actions() == table_size(deck, 2)


def test_stars_only_for_codices_a_reflex_can_relax() -> None:
    game = load_game("damocles", "future")
    starred = {word.rstrip("*") for text in game.action_table() if "*" in text
               for word in text.split()[1:] if word.endswith("*")}
    assert starred
    assert all(_relaxable(game.codex_by_id[cid]) for cid in starred)


def test_table_is_the_same_for_every_seat_count() -> None:
    assert load_game("damocles", "seed", 2).action_table() == \
        load_game("damocles", "seed", 6).action_table()


def test_setup_discard_sizes_the_discard_block_and_the_cap_refuses_huge_tables() -> None:
    kinds = Counter(t.split()[0] for t in load_game("damocles", setup_discard=0).action_table())
    assert "discard" not in kinds
    with pytest.raises(ParameterError, match="capped"):
        load_game("damocles", setup_discard=4).action_table()


def test_every_oracle_keep_met_in_play_has_a_code() -> None:
    game = load_game("damocles", "seed", 2)
    table = set(game.action_table())
    met = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        bots = [HeuristicBot(game, s, seed) for s in range(2)]
        while not state.is_terminal() and met < 2:
            seat = state.current_players()[0]
            if state.step == "keep":
                keeps = state.legal_actions(seat)
                assert all(str(a) in table for a in keeps)
                met += 1
            state.apply_actions({s: bots[s].act(state.view(s), state.legal_actions(s))
                                 for s in state.current_players()})
        if met >= 2:
            break
    assert met >= 2, "the heuristic walks never reached an Oracle keep"


def test_observation_shows_the_viewer_hand_and_puts_the_viewer_first() -> None:
    game = load_game("damocles", "seed", 4)
    state = game.new_initial_state(5)
    walk = random.Random(5)
    for _ in range(30):
        state.apply_actions({s: walk.choice(state.legal_actions(s))
                             for s in state.current_players()})
    n, d = game.players, len(game.deck)
    ids = [c.id for c in game.deck]
    hand_at = 5 * n + 60  # after seat, phase, step, active, placer, progress, circle, bank,
    scores_at = 3 * n + 58  # scores, hand sizes, deck and discard sizes
    for seat in range(n):
        view = state.view(seat)
        tensor = game.observation_tensor(view)
        hand = {ids[i] for i in np.flatnonzero(tensor[hand_at:hand_at + d])}
        assert hand == set(view["hand"])
        rotated = [view["scores"][(seat + k) % n] / 100 for k in range(n)]
        assert tensor[scores_at:scores_at + n] == pytest.approx(rotated)
    assert len(set(state.view(0)["scores"])) > 1  # the rotation is visible in the scores
