"""``help`` and refusals (issue 18, section 5): at any decision of every game, the help names
the decision's rule and rules page and lists the legal moves in the game's notation; a refused
move names the rule that refused it and the legal moves, and changes nothing."""

from __future__ import annotations

import importlib
import random
import re

import pytest

from meeple.engine.errors import IllegalActionError, MeepleError
from meeple.engine.explain import legal_summary, nearest, refusal, refuse_move
from meeple.engine.registry import load_game

GAMES = ["battle-of-the-four-gods", "damocles", "epoch-ellipse", "ozymandias-campaign",
         "ozymandias-market"]


def _decisions(game_name: str):
    return importlib.import_module(
        f"meeple.games.{game_name.replace('-', '_')}"
        ".decisions")


def _walk(game, seed: int, steps: int):
    """Yield (state, seat) at the first ``steps`` decisions of a random game."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = state.current_players()[0]
        yield state, seat
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)


def _rule_of(module, state) -> str:
    """The rule reference the game's table gives the decision open in ``state``."""
    key = module.decision_key(state) if hasattr(module, "decision_key") else (
        "plan" if len(module.DECISIONS) == 1 else state.step)
    return module.DECISIONS[key][0].split(";")[0]


@pytest.mark.parametrize("game_name", GAMES)
def test_help_names_the_rule_and_page_and_shows_legal_moves(game_name: str) -> None:
    game = load_game(game_name)
    module = _decisions(game_name)
    seen = set()
    for state, seat in _walk(game, 3, 60):
        about = game.decision_help(state, seat)
        rule = _rule_of(module, state)
        assert rule in about and game.rules_page in about, about
        seen.add(rule)
        legal = state.legal_actions(seat)
        lines = "\n".join(legal_summary(legal))
        assert str(legal[0]) in lines  # an example in the game's own notation
        if len(legal) > 12:  # grouped: one line per kind, every kind shown
            kinds = {str(a).split(" ")[0].split(":")[0] for a in legal}
            assert {line.split(":")[0].strip() for line in lines.splitlines()} == kinds
    assert len(seen) >= 1


@pytest.mark.parametrize("game_name", GAMES)
def test_a_refused_move_names_its_rule_and_the_legal_moves(game_name: str) -> None:
    # Four Gods at 2 energy, so that dearer selections are refused (B4G-5)
    game = load_game(game_name, **({"start_energy": 2} if "gods" in game_name else {}))
    module = _decisions(game_name)
    table = game.action_table()
    refused = 0
    for state, seat in _walk(game, 5, 40):
        legal = state.legal_actions(seat)
        texts = {str(a) for a in legal}
        rng = random.Random(refused)
        for text in rng.sample(table, min(120, len(table))):
            if text in texts:
                continue
            try:
                action = game.parse_action(text, seat)
            except MeepleError:
                continue
            digest = state.digest()
            with pytest.raises(IllegalActionError) as err:
                state.apply_action(action, seat)
            message = str(err.value)
            assert state.digest() == digest
            # the decision's rule, or the finer one the game names (Damocles: DAM-11 for a
            # swap that changes nothing, DAM-8 for a codex whose pattern is not in the circle)
            assert f"({_rule_of(module, state)}" in message or re.search(
                r"\((B4G-|DAM-|TURN |SETUP |section )", message), message
            assert "legal kinds now: " in message and "legal now: " in message, message
            assert any(t in message.split("legal now: ", 1)[1] for t in texts), message
            refused += 1
            break
    assert refused >= 4


def test_damocles_discard_refusal_counts_the_codices():
    game = load_game("damocles", players=4)
    state = game.new_initial_state(3)
    card = state.hands[0][0]
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(game.parse_action(f"discard {card}", 0), 0)
    message = str(err.value)
    assert "you must discard 2 codices, you chose 1" in message
    assert "(SETUP 1, DAM-25)" in message
    # the nearest legal moves come first: those discarding the codex that was named
    shown = message.split("legal now: ")[1].split(", ")[:3]
    assert all(card in s for s in shown), shown


def test_four_gods_refusal_for_energy_names_b4g5_and_cheaper_selections():
    game = load_game("battle-of-the-four-gods", start_energy=2)
    state = game.new_initial_state(0)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(game.parse_action("atk:BGO", 0), 0)
    message = str(err.value)
    assert "costs 3 energy but the seat has 2" in message and "(B4G-5)" in message
    assert "atk:BG" in message.split("legal now: ")[1]


def test_market_plan_of_a_card_not_in_hand_says_so():
    game = load_game("ozymandias-market")
    state = game.new_initial_state(1)
    hand = state.hands[0]
    rank = next(r for r in range(1, 41) if r not in hand)
    with pytest.raises(IllegalActionError, match=r"is not in your hand.*\(OZD-15\)"):
        state.apply_action(game.parse_action(f"plan {rank}", 0), 0)


def test_shared_helpers_list_nearest_first_and_count_the_rest():
    legal = [f"swap {a} {b}" for a in range(1, 8) for b in range(a + 1, 8)] + ["stop"]
    shown = nearest(legal, "swap 3 9", limit=3)
    assert shown.startswith("swap 1 3, swap 2 3, swap 3 4") or "swap 3" in shown.split(",")[0]
    assert f"({len(legal)} moves" in shown
    assert refusal("R-1", "why", ["a"]) == "why (R-1); legal now: a"
    assert "'jump' moves are not legal at the x step; legal kinds now: stop, swap" in \
        refuse_move("R", "the x step", legal, "jump 1")
    assert len(legal_summary(legal)) == 2  # grouped by kind: swap, stop
    assert legal_summary(legal[:3]) == ["  swap 1 2", "  swap 1 3", "  swap 1 4"]
