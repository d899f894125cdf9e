"""Damocles refusals name the real reason for each move kind, in the rules page's words
(docs/rules/damocles.md section 2: "the setup discard", "before your swap", "the play
window"), with the rule it comes from; never the old catch-all ("its codex must be yours and
match the circle, or the swap must change it") or a step's internal name ("pre decision")."""

from __future__ import annotations

import random
import re

import pytest

from meeple.engine.errors import IllegalActionError, MeepleError
from meeple.engine.registry import load_game

GAME = load_game("damocles", players=3)
HAND = ["HAS-01", "REF-01", "GEN-01", "ONE-01", "ORA-01", "TWO-01", "HAS-03"]
JARGON = ("codex must be yours", "pre decision", "swap2", "the play decision",
          "the discard decision", "the pre ", "decision (")


def refused(state, text: str, seat: int = 1, game=GAME) -> str:
    """The refusal of ``text`` by ``seat`` (the state is left unchanged)."""
    digest = state.digest()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(game.parse_action(text, seat), seat)
    assert state.digest() == digest
    message = str(err.value)
    assert not any(j in message for j in JARGON), message
    return message


@pytest.fixture
def before_swap():
    """Seat 1's turn, before its swap: HADES on slots 1 and 2, a Demeter Reflex that does
    not match, a Hades Generate, a Demeter One, Seat 0 holding GEN-05 in its tableau."""
    return GAME.build_scenario(circle="H H A D P N N", hands={1: HAND}, active=1,
                               tableaus={0: ["GEN-05"]})


def test_swaps_that_change_nothing_say_so(before_swap) -> None:
    message = refused(before_swap, "swap 1 2")
    assert message.startswith("seat 1 cannot play swap 1 2: slots 1 and 2 both hold HADES: "
                              "swapping two equal gods changes nothing; "), message
    assert "(DAM-11)" in message and "legal now: swap 1 3" in message
    message = refused(before_swap, "swap 2 hades")
    assert "slot 2 already holds HADES: a trade needs a different god from the bank" in message


def test_a_trade_needs_the_god_in_stock() -> None:
    game = load_game("damocles", variant="strict", players=3)  # 20 shared tokens
    state = game.build_scenario(circle="H H H H A D P", active=0)
    assert state.bank[0] == 0
    message = refused(state, "swap 5 HADES", seat=0, game=game)
    assert "the bank has no HADES left to trade for;" in message and "(DAM-9, DAM-11)" in message


def test_moves_of_the_wrong_step_name_the_step_in_players_words(before_swap) -> None:
    now = "now play a Haste, or make your swap ('swap 2 5', 'swap 3 NYX')"
    assert f"the play window opens after your swap; {now}" in refused(before_swap, "end")
    assert "the first swap of the turn is not optional; " in refused(before_swap, "stop")
    assert "there is no Oracle draw to keep" in refused(before_swap, "keep ONE-01")
    message = refused(before_swap, "haste ONE-01")
    assert "ONE-01 is a One, not a Haste;" in message and "(DAM-13)" in message
    before_swap.apply_action(GAME.parse_action("swap 1 3", 1), 1)  # now the play window
    assert "your swap is done this turn; now play codices" in refused(before_swap, "swap 1 2")
    assert "in the play window it is 'play HAS-01'" in refused(before_swap, "haste HAS-01")


def test_codices_in_the_play_window_name_what_is_wrong(before_swap) -> None:
    before_swap.apply_action(GAME.parse_action("swap 1 3", 1), 1)  # A H H D P N N
    assert ("GEN-01 is a Generate: Production and Number codices are played only in a pair"
            in refused(before_swap, "play GEN-01")) and "(DAM-16)" in refused(
                before_swap, "play ONE-01")
    message = refused(before_swap, "play REF-01")
    assert "REF-01's pattern, Demeter (1,2), is not in the circle now;" in message
    assert "(DAM-8)" in message
    assert "'*' spends a Reflex token and you hold 0 this turn" in refused(
        before_swap, "play REF-01*")
    assert "GEN-07 is not in your hand" in refused(before_swap, "play GEN-07")
    assert ("a pair is a Production codex then a Number codex: ONE-01 is a One" in
            refused(before_swap, "pair ONE-01 GEN-01"))
    assert ("GEN-05 is in Seat 0's tableau: borrowing it needs an Annex played this turn" in
            refused(before_swap, "pair GEN-05 ONE-01"))
    message = refused(before_swap, "pair ORA-01 TWO-01")
    assert "ORA-01's pattern, Nyx (1,2,3), is not in the circle now;" in message
    assert "(DAM-14)" in message


def test_setup_refusals() -> None:
    state = GAME.new_initial_state(3)
    card = state.hands[0][0]
    assert "you must discard 2 codices, you chose 1" in refused(state, f"discard {card}", 0)
    assert "X-01 is not in your hand" in refused(state, f"discard {card} X-01", 0)
    assert "the placement comes after the setup discard" in refused(state, "place H 1", 0)
    for seat in range(3):
        state.apply_action(state.legal_actions(seat)[0], seat)
    placer = state.active
    message = refused(state, "place NYX 4", placer)
    assert ("the first god goes to slot 1: under rotational matching its slot does not "
            "matter;") in message and "(DAM-10)" in message
    state.apply_action(GAME.parse_action("place NYX 1", placer), placer)
    nxt = state.active
    assert "slot 1 already holds NYX: choose an empty slot" in refused(state, "place H 1", nxt)
    assert "the turns start when all seven slots are filled" in refused(state, "swap 1 2", nxt)


@pytest.mark.parametrize("variant", ["seed", "future", "absolute", "strict"])
def test_every_refusal_names_a_rule_and_no_jargon(variant: str) -> None:
    """Random games: at every 3rd decision, up to 40 moves of the whole action table that are
    not legal are refused with a reason naming a rule, in players' words."""
    game = load_game("damocles", variant=variant, players=3)
    table = game.action_table()
    rng = random.Random(variant)
    state, shown = game.new_initial_state(11), 0
    for step in range(400):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if step % 3 == 0:
            texts = {str(a) for a in legal}
            for text in rng.sample(table, 40):
                if text in texts:
                    continue
                try:
                    game.parse_action(text, seat)
                except MeepleError:
                    continue
                message = refused(state, text, seat, game)
                assert re.search(r"\((DAM-|TURN |SETUP |section )", message), message
                shown += 1
        state.apply_action(rng.choice(legal), seat)
    assert shown > 300
