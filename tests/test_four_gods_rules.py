"""Battle of the Four Gods: the rule document's scenarios and decisions, one test each.

Scenario ids T-B4G-n and decision ids B4G-n refer to /work/shared/notes/rules-questions.md
section 3 (and docs/rules/battle-of-the-four-gods.md). Seat 0..3 are RED, BLUE, GREEN, ORANGE;
in the scenarios A, B, C are RED, BLUE, GREEN.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from meeple import load_game
from meeple.engine.errors import (
    ActionArgumentError,
    ActionParseError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnknownVariantError,
)
from meeple.games.battle_of_the_four_gods.actions import (
    COLOURS,
    Selection,
    all_selections,
    selection,
)
from meeple.games.battle_of_the_four_gods.rules import FourGodsState

GAME = "battle-of-the-four-gods"
RED, BLUE, GREEN, ORANGE = range(4)


def game(variant: str | None = None, players: int = 4, **params):
    return load_game(GAME, variant, players, **params)


def setup(g, energy, eliminated=None, round_=None, stall=None) -> FourGodsState:
    """A state of ``g`` with edited energies (and optionally eliminations, round, stall)."""
    data = g.new_initial_state(0).to_json()
    data["data"]["energy"] = list(energy)
    if eliminated is not None:
        data["data"]["eliminated_round"] = list(eliminated)
    if round_ is not None:
        data["data"]["round"] = round_
    if stall is not None:
        data["data"]["stall"] = stall
    return g.state_from_json(json.loads(json.dumps(data)))


def play(state: FourGodsState, *texts: str | None, **by_seat: str) -> None:
    """Apply one round: ``texts[seat]`` for every acting seat (missing or None = pass)."""
    g = state.game
    joint = {}
    for seat in state.current_players():
        text = by_seat.get(COLOURS[seat].lower())
        if text is None and seat < len(texts):
            text = texts[seat]
        joint[seat] = g.parse_action(text or "pass", seat)
    state.apply_actions(joint)


def texts(actions) -> set[str]:
    return {str(a) for a in actions}


# ------------------------------------------------------------------- T-B4G-1 .. T-B4G-8
def test_t_b4g_1_undefended_attack() -> None:
    s = game("seed").new_initial_state(0)
    play(s, red="atk:B")
    assert s.energy == [99, 97, 100, 100]
    assert s.history[-1][2] == (-1, -3, 0, 0)
    assert s.round == 1 and not s.is_terminal()


def test_t_b4g_2_defended_attack() -> None:
    s = game("seed").new_initial_state(0)
    play(s, red="atk:B", blue="def:R")
    assert s.energy[RED] == 99
    assert s.energy[BLUE] == 99
    assert s.energy[GREEN] == s.energy[ORANGE] == 100


def test_t_b4g_3_counts_at_low_energy() -> None:
    s = setup(game("seed"), [2, 100, 100, 100])
    legal = s.legal_actions(RED)
    assert len(legal) == 22 == 1 + 6 + 15
    assert max(a.size for a in legal) == 2
    # eliminated: no legal action at all
    s2 = setup(game("seed"), [-1, 100, 100, 100], eliminated=[1, 0, 0, 0], round_=1)
    assert list(s2.legal_actions(RED)) == []
    assert RED not in s2.current_players()
    # 1 EP under rulebook-2018-04: pass + the 3 defends (an attack costs 2)
    s3 = setup(game("rulebook-2018-04"), [1, 60, 60, 60])
    assert texts(s3.legal_actions(RED)) == {"pass", "def:B", "def:G", "def:O"}


def test_t_b4g_4_actions_of_the_eliminated_still_go_through() -> None:
    s = setup(game("seed"), [3, 100, 100, 100])
    play(s, red="atk:B", green="atk:R")
    assert s.energy[RED] == 3 - 1 - 3 == -1
    assert s.eliminated_round[RED] == 1
    assert s.energy[BLUE] == 97  # RED's attack still landed
    assert s.energy[GREEN] == 99
    assert not s.is_terminal()
    assert s.current_players() == (BLUE, GREEN, ORANGE)


@pytest.mark.parametrize("players", [2, 4])
def test_t_b4g_5_everyone_eliminated(players: int) -> None:
    g = game("seed", players)
    if players == 2:
        s = setup(g, [2, 4])
    else:
        s = setup(g, [2, 4, -5, -9], eliminated=[0, 0, 1, 2], round_=2)
    play(s, red="atk:B", blue="atk:R")
    assert s.energy[:2] == [-2, 0]
    assert s.is_terminal()
    assert s.winners() == (BLUE,)
    assert s.returns()[:2] == (0.0, 1.0)
    assert not s.is_truncated()
    # equal energies after resolution: a draw
    s = setup(
        g,
        [3, 3] if players == 2 else [3, 3, -5, -9],
        eliminated=None if players == 2 else [0, 0, 1, 2],
        round_=None if players == 2 else 2,
    )
    play(s, red="atk:B", blue="atk:R")
    assert s.energy[:2] == [-1, -1]
    assert s.winners() == (RED, BLUE)
    assert s.returns()[:2] == (0.5, 0.5)


def test_t_b4g_5_only_this_rounds_eliminations_are_compared() -> None:
    # GREEN fell earlier at 0 EP, more than the -2 both last players end on: it still loses.
    s = setup(game("seed"), [2, 2, 0, -7], eliminated=[0, 0, 1, 1], round_=1)
    play(s, red="atk:B", blue="atk:R")
    assert s.energy[:2] == [-2, -2]
    assert s.winners() == (RED, BLUE)
    assert s.returns() == (0.5, 0.5, 0.0, 0.0)


def _eliminate_green() -> FourGodsState:
    s = setup(game("seed"), [100, 100, 2, 100])
    play(s, red="atk:G", blue="atk:G")
    assert s.eliminated_round[GREEN] == 1
    return s


def test_t_b4g_6_eliminated_colour_not_enumerated() -> None:
    s = _eliminate_green()
    for seat in s.current_players():
        for a in s.legal_actions(seat):
            assert GREEN not in a.attacks and GREEN not in a.defends, a
    # with 2 alive opponents: 1 + 4 + 6 + 4 selections
    assert len(s.legal_actions(RED)) == 15
    assert s.current_players() == (RED, BLUE, ORANGE)
    assert list(s.legal_actions(GREEN)) == []


def test_t_b4g_6_submitted_eliminated_colour_costs_nothing() -> None:
    # The implementation refuses the selection (IllegalActionError naming B4G-11) rather than
    # voiding it during resolution; either way the seat pays nothing for it.
    s = _eliminate_green()
    before = s.digest()
    stale = s.game.parse_action("atk:G def:B", RED)  # still well-formed text
    with pytest.raises(IllegalActionError, match="B4G-11") as info:
        s.apply_action(stale, RED)
    assert "GREEN" in str(info.value)
    assert s.digest() == before
    assert s.energy[RED] == 99
    with pytest.raises(NotYourTurnError):  # the eliminated seat itself cannot act
        s.apply_action(s.game.parse_action("pass", GREEN), GREEN)
    play(s)
    assert s.energy[RED] == 99
    assert s.history[-1][1][GREEN] is None  # the eliminated seat took no part


def test_t_b4g_7_rulebook_costs() -> None:
    s = game("rulebook-2018-04").new_initial_state(0)
    play(s, red="atk:B")
    assert (s.energy[RED], s.energy[BLUE]) == (58, 55)
    s = game("rulebook-2018-04").new_initial_state(0)
    play(s, red="atk:B", blue="def:R")
    assert (s.energy[RED], s.energy[BLUE]) == (58, 60)


@pytest.mark.parametrize("variant", ["gdd-2018-02", "gdd-2018-04a", "rulebook-2018-04"])
def test_t_b4g_8_stall_drain(variant: str) -> None:
    g = game(variant)
    start = g.params["start_energy"]
    s = g.new_initial_state(0)
    for r in range(1, 6):  # 5 rounds with no actions: no drain yet
        play(s)
        assert s.energy == [start] * 4
        assert s.stall == r
        assert s.history[-1][3] == 0
    for k in range(1, 4):  # then -1 for every alive seat at each later round end
        play(s)
        assert s.energy == [start - k] * 4
        assert s.history[-1][3] == 1
        assert s.stall == 5 + k
    defend = "def:O" if g.params["defend_cost"] else None
    play(s, red=defend)  # someone acts: no drain, the count restarts
    cost = g.params["defend_cost"]
    assert s.energy == [start - 3 - cost, start - 3, start - 3, start - 3]
    assert s.stall == 0 and s.history[-1][3] == 0
    for _ in range(5):
        play(s)
    assert s.energy[BLUE] == start - 3
    play(s)
    assert s.energy[BLUE] == start - 4


def test_t_b4g_8_drain_only_hits_alive_seats_and_can_eliminate() -> None:
    g = game("gdd-2018-02")
    s = setup(g, [1, 2, -3, 50], eliminated=[0, 0, 1, 0], round_=1, stall=5)
    play(s)
    assert s.energy == [0, 1, -3, 49]
    assert s.eliminated_round == [2, 0, 1, 0]
    assert s.current_players() == (BLUE, ORANGE)


def test_seed_variant_has_no_stall_drain() -> None:
    s = game("seed").new_initial_state(0)
    for _ in range(20):
        play(s)
    assert s.energy == [100] * 4
    assert s.stall == 20
    assert all(entry[3] == 0 for entry in s.history)


# ----------------------------------------------------------------------- decisions
def test_b4g_3_each_indicator_at_most_once() -> None:
    s = game("seed").new_initial_state(0)
    legal = s.legal_actions(RED)
    assert len(legal) == 42
    sizes = [sum(1 for a in legal if a.size == k) for k in range(4)]
    assert sizes == [1, 6, 15, 20]
    assert len(texts(legal)) == 42
    for a in legal:
        assert len(set(a.attacks)) == len(a.attacks) and len(set(a.defends)) == len(a.defends)
        assert RED not in a.attacks + a.defends
    assert len(all_selections(4, RED)) == 64  # all 2**6 subsets exist, max_actions cuts them
    with pytest.raises(ActionParseError, match="once"):
        selection(4, RED, (1, 1), ())
    assert len(game("seed", max_actions=6).new_initial_state(0).legal_actions(RED)) == 64


def test_b4g_4_attack_and_defend_same_opponent() -> None:
    s = game("seed").new_initial_state(0)
    a = s.game.parse_action("atk:B def:B", RED)
    assert a in s.legal_actions(RED)
    play(s, red="atk:B def:B", blue="atk:R")
    assert s.energy[RED] == 98  # two indicators, BLUE's attack defended
    assert s.energy[BLUE] == 96  # its attack + RED's undefended attack


def test_b4g_9_defending_a_non_attacker_still_costs() -> None:
    s = game("seed").new_initial_state(0)
    play(s, red="def:BGO")
    assert s.energy[RED] == 97
    s = game("server-2018-04").new_initial_state(0)  # refund 1, but nobody attacked
    play(s, red="def:B")
    assert s.energy[RED] == 44


def test_b4g_8_refund_per_defended_attack() -> None:
    s = game("server-2018-04").new_initial_state(0)
    play(s, red="def:BG", blue="atk:R", green="atk:R")
    assert s.energy[RED] == 45 - 2 + 2
    assert s.energy[BLUE] == s.energy[GREEN] == 44


def test_b4g_6_self_elimination_by_spending_is_allowed() -> None:
    s = setup(game("seed"), [3, 100, 100, 100])
    spend_all = s.game.parse_action("atk:BGO", RED)
    assert spend_all in s.legal_actions(RED)
    play(s, red="atk:BGO")
    assert s.energy[RED] == 0
    assert s.eliminated_round[RED] == 1
    s = setup(game("rulebook-2018-04"), [3, 60, 60, 60])
    assert "atk:B def:G" in texts(s.legal_actions(RED))
    play(s, red="atk:B def:G")
    assert s.energy[RED] == 0 and s.eliminated_round[RED] == 1


def test_b4g_10_elimination_at_zero_or_below() -> None:
    s = setup(game("seed", 2), [4, 10])
    play(s, blue="atk:R")
    assert s.energy == [1, 9]
    assert s.eliminated_round == [0, 0] and not s.is_terminal()
    play(s, blue="atk:R")
    assert s.energy == [-2, 8]
    assert s.eliminated_round == [2, 0]
    assert s.is_terminal() and s.winners() == (BLUE,)
    s = setup(game("seed", 2), [3, 10])
    play(s, blue="atk:R")
    assert s.energy[RED] == 0 and s.eliminated_round[RED] == 1
    assert s.winners() == (BLUE,)


def test_b4g_20_no_energy_cap() -> None:
    s = game("seed", defend_refund=5).new_initial_state(0)
    play(s, red="def:B", blue="atk:R")
    assert s.energy[RED] == 104 > s.game.params["start_energy"]
    play(s, red="def:B", blue="atk:R")
    assert s.energy[RED] == 108


def _rotate(sel: Selection, k: int, n: int) -> Selection:
    def r(t: int) -> int:
        return (t + k) % n

    return selection(
        n, r(sel.seat), tuple(sorted(map(r, sel.attacks))), tuple(sorted(map(r, sel.defends)))
    )


@pytest.mark.parametrize("variant", ["seed", "rulebook-2018-04", "server-2018-04"])
def test_b4g_7_attacks_simultaneous_and_seat_order_independent(variant: str) -> None:
    rng = random.Random(7)
    for players in (2, 3, 4):
        g = game(variant, players)
        for _ in range(40):
            energy = [rng.randint(1, 8) for _ in range(players)]
            s = setup(g, energy)
            joint = {p: rng.choice(list(s.legal_actions(p))) for p in range(players)}
            for k in range(1, players):
                rotated = setup(g, [energy[(p - k) % players] for p in range(players)])
                rotated.apply_actions(
                    {(p + k) % players: _rotate(a, k, players) for p, a in joint.items()}
                )
                base = s.clone()
                base.apply_actions(joint)
                assert rotated.energy == [base.energy[(p - k) % players] for p in range(players)]
                assert sorted((w + k) % players for w in base.winners()) == sorted(
                    rotated.winners()
                )
            # submission order does not change the outcome either
            outcomes = set()
            for order in (list(range(players)), list(reversed(range(players)))):
                c = s.clone()
                for p in order:
                    c.apply_action(joint[p], p)
                outcomes.add(
                    (
                        tuple(c.energy),
                        tuple(c.eliminated_round),
                        tuple(c.history),
                        frozenset(c.winners()),
                        c.stall,
                    )
                )
            assert len(outcomes) == 1


def test_result_does_not_depend_on_submission_order() -> None:
    # Two seats fall together and tie (B4G-13): submitting BLUE before RED must give the same
    # state (digest, winners in seat order) as RED before BLUE, as replay and the web rely on.
    g = game("seed", 2)
    a, b = g.parse_action("atk:B", RED), g.parse_action("atk:R", BLUE)
    red_first, blue_first = setup(g, [3, 3]), setup(g, [3, 3])
    red_first.apply_action(a, RED)
    red_first.apply_action(b, BLUE)
    blue_first.apply_action(b, BLUE)
    blue_first.apply_action(a, RED)
    assert red_first.winners() == blue_first.winners() == (RED, BLUE)
    assert red_first.digest() == blue_first.digest()
    joint_reversed = setup(g, [3, 3])
    joint_reversed.apply_actions({BLUE: b, RED: a})
    assert joint_reversed.winners() == (RED, BLUE)


def test_b4g_7_mutual_kill_is_simultaneous() -> None:
    # Resolving RED's attack first would eliminate BLUE before it strikes back: it must not.
    s = setup(game("seed", 2), [4, 4])
    play(s, red="atk:B", blue="atk:R")
    assert s.energy == [0, 0]
    assert s.winners() == (RED, BLUE)


# ---------------------------------------------------------------- truncation, limits
def test_truncation_at_max_rounds() -> None:
    g = game("seed", max_rounds=3)
    assert g.capabilities.max_length == 3
    s = g.new_initial_state(0)
    play(s)
    play(s, red="def:B")  # RED now has 99, the others 100
    assert not s.is_terminal()
    play(s)
    assert s.is_terminal() and s.is_truncated()
    assert s.length() == 3
    assert s.winners() == (BLUE, GREEN, ORANGE)
    assert s.returns() == (0.0, 1 / 3, 1 / 3, 1 / 3)
    assert s.current_players() == ()


def test_truncation_all_pass_is_a_draw_of_everyone() -> None:
    s = game("seed", 4, max_rounds=5).new_initial_state(0)
    for _ in range(5):
        assert not s.is_terminal()
        play(s)
    assert s.is_terminal() and s.is_truncated() and s.length() == 5
    assert s.winners() == (RED, BLUE, GREEN, ORANGE)
    assert s.returns() == (0.25, 0.25, 0.25, 0.25)
    with pytest.raises(GameOverError):
        play(s)


def test_truncation_single_leader_and_sole_survivor_not_truncated() -> None:
    g = game("seed", 3, max_rounds=2)
    s = g.new_initial_state(0)
    play(s, red="atk:B")
    play(s)
    assert s.is_truncated() and s.winners() == (GREEN,)
    assert s.returns() == (0.0, 0.0, 1.0)
    # a game decided in its last allowed round is a normal win, not a truncation
    s = setup(game("seed", 2, max_rounds=1), [3, 10])
    play(s, blue="atk:R")
    assert s.is_terminal() and not s.is_truncated() and s.winners() == (BLUE,)


def test_count_limit_mode() -> None:
    cost = setup(game("rulebook-2018-04"), [1, 60, 60, 60])
    count = setup(game("rulebook-2018-04", limit_mode="count"), [1, 60, 60, 60])
    assert len(cost.legal_actions(RED)) == 4
    assert texts(count.legal_actions(RED)) == {
        "pass",
        "atk:B",
        "atk:G",
        "atk:O",
        "def:B",
        "def:G",
        "def:O",
    }
    two = setup(game("rulebook-2018-04", limit_mode="count"), [2, 60, 60, 60])
    assert len(two.legal_actions(RED)) == 22
    with pytest.raises(IllegalActionError, match="indicators exceed"):
        two.apply_action(two.game.parse_action("atk:BGO", RED), RED)
    play(two, red="atk:BG")  # costs 4 with only 2 EP: allowed by count, self-eliminating
    assert two.energy[RED] == -2 and two.eliminated_round[RED] == 1
    with pytest.raises(IllegalActionError, match="energy"):
        cost.apply_action(cost.game.parse_action("atk:B", RED), RED)


@pytest.mark.parametrize("players, full", [(2, 4), (3, 15), (4, 42)])
def test_player_counts(players: int, full: int) -> None:
    g = game("seed", players)
    assert g.seat_names() == COLOURS[:players]
    s = g.new_initial_state(0)
    assert s.current_players() == tuple(range(players))
    assert len(s.legal_actions(RED)) == full
    assert s.view(None)["colours"] == list(COLOURS[:players])
    with pytest.raises(ActionParseError):
        g.parse_action("atk:" + "RBGO"[players] if players < 4 else "atk:X", RED)


def test_two_player_game_to_the_end() -> None:
    s = setup(game("seed", 2), [7, 5])
    play(s, "atk:B", "def:R")
    assert s.energy == [6, 4]
    play(s, "atk:B", "atk:R")
    assert s.energy == [2, 0]
    assert s.is_terminal() and s.winners() == (RED,) and s.returns() == (1.0, 0.0)


def test_three_player_game() -> None:
    g = game("seed", 3)
    s = setup(g, [5, 5, 5])
    play(s, "atk:BG", "atk:G", "def:RB")
    assert s.energy == [5 - 2, 5 - 1 - 3, 5 - 2]
    assert s.history[-1][2] == (-2, -4, -2)
    play(s, "atk:B", None, "atk:B")
    assert s.energy == [2, -5, 2]
    assert s.current_players() == (RED, GREEN)
    assert "atk:B" not in texts(s.legal_actions(RED))


# --------------------------------------------------------------------- reveal_lock
def test_reveal_lock_shows_revealed_submission_only() -> None:
    g = game("seed", reveal_lock=True)
    s = g.new_initial_state(0)
    assert len(s.legal_actions(RED)) == 84
    shown = g.parse_action("atk:B reveal", RED)
    assert shown.reveal and str(shown) == "atk:B reveal"
    assert g.parse_action("atk:b!", RED) == shown
    s.apply_action(shown, RED)
    secret = g.parse_action("def:R", BLUE)
    s.apply_action(secret, BLUE)
    for seat in (None, BLUE, GREEN, ORANGE):
        assert s.view(seat)["revealed"] == {"0": "atk:B reveal"}
    assert s.view(RED)["revealed"] == {"0": "atk:B reveal"}
    for seat in (None, RED, GREEN, ORANGE):
        assert "def:R" not in json.dumps(s.view(seat))
    assert s.view(BLUE)["my_submission"] == "def:R"
    assert s.view(None)["submitted"] == [RED, BLUE]
    play(s)
    assert s.energy[:2] == [99, 99]  # a revealed selection resolves like any other
    assert s.view(GREEN)["revealed"] == {}
    # round trip keeps a revealed pending selection
    s2 = g.new_initial_state(0)
    s2.apply_action(shown, RED)
    back = g.state_from_json(json.dumps(s2.to_json()))
    assert back.digest() == s2.digest()
    assert back.view(BLUE)["revealed"] == {"0": "atk:B reveal"}


def test_reveal_refused_without_reveal_lock() -> None:
    g = game("seed")
    with pytest.raises(ActionParseError, match="reveal_lock"):
        g.parse_action("atk:B reveal", RED)
    with pytest.raises(ActionParseError, match="reveal_lock"):
        g.parse_action("pass!", RED)
    s = g.new_initial_state(0)
    revealed = selection(4, RED, (BLUE,), (), True)
    with pytest.raises(IllegalActionError):
        s.apply_action(revealed, RED)
    assert s.view(None)["submitted"] == []


# ------------------------------------------------------------------------- variants
PRESETS = {
    # preset: start, attack cost, defend cost, damage, refund, timer, stall rounds
    "seed": (100, 1, 1, 3, 0, 30, 0),
    "gdd-2018-02": (100, 1, 1, 3, 0, 30, 5),
    "playtest-r2": (30, 1, 1, 3, 0, 30, 0),
    "gdd-2018-04a": (40, 1, 1, 3, 0, 30, 5),
    "server-2018-04": (45, 1, 1, 3, 1, 25, 0),
    "rulebook-2018-04": (60, 2, 1, 5, 1, 40, 5),
}


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_named_variants_have_documented_values(variant: str) -> None:
    p = game(variant).params
    start, ac, dc, damage, refund, timer, stall = PRESETS[variant]
    assert (
        p["start_energy"],
        p["attack_cost"],
        p["defend_cost"],
        p["damage"],
        p["defend_refund"],
        p["timer_seconds"],
        p["stall_rounds"],
    ) == (start, ac, dc, damage, refund, timer, stall)
    if stall:
        assert p["stall_drain"] == 1
    assert p["max_actions"] == 3
    assert p["limit_mode"] == "cost"
    assert p["reveal_lock"] is False
    assert game(variant).new_initial_state(0).energy == [start] * 4


def test_variant_list_and_aliases() -> None:
    cls = type(game())
    assert {v.name for v in cls.variants} == set(PRESETS)
    assert cls.variants[0].name == "seed"
    assert game("rulebook-2018") == game("rulebook-2018-04")
    assert game("rulebook-2018").variant == "rulebook-2018-04"
    assert game("default").variant == "seed"
    assert game(None).variant == "seed" and game().players == 4
    with pytest.raises(UnknownVariantError, match="rulebook-1999"):
        game("rulebook-1999")
    assert game("seed", start_energy=7).new_initial_state(0).energy == [7] * 4


# ------------------------------------------------------------------------- notation
def test_canonical_texts() -> None:
    g = game()
    assert str(g.parse_action("pass", RED)) == "pass"
    a = g.parse_action("atk:BG def:R", ORANGE)
    assert str(a) == "atk:BG def:R"
    assert (a.attacks, a.defends) == ((BLUE, GREEN), (RED,))
    assert str(g.parse_action("def:O", RED)) == "def:O"
    assert str(g.parse_action("atk:GB", RED)) == "atk:BG"  # seat order


@pytest.mark.parametrize(
    "text",
    [
        "a:bg d:r",
        "ab ag dr",
        "attack blue green defend red",
        "ATK:bg DEF:r",
        "defend red attack green blue",
        "attack blue, green defend red",
    ],
)
def test_accepted_alternatives(text: str) -> None:
    assert str(game().parse_action(text, ORANGE)) == "atk:BG def:R"


@pytest.mark.parametrize("text", ["-", "pass", "PASS", " p "])
def test_pass_alternatives(text: str) -> None:
    a = game().parse_action(text, RED)
    assert str(a) == "pass" and a.size == 0


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_blank_text_is_not_a_pass(text: str) -> None:
    # issue 18: an empty line used to read as pass; it is refused, naming what was expected.
    with pytest.raises(ActionArgumentError, match="non-empty str"):
        game().parse_action(text, RED)


@pytest.mark.parametrize(
    "text, seat, fragment",
    [
        ("atk:R", RED, "own colour"),
        ("def:O", ORANGE, "own colour"),
        ("atk:X", RED, "cannot read 'x'"),
        ("attack purple", RED, "purple"),
        ("atk:BB", RED, "repeats an attack indicator"),
        ("def:G def:G", RED, "repeats"),
        ("hello", RED, "'hello'"),
    ],
)
def test_notation_errors(text: str, seat: int, fragment: str) -> None:
    with pytest.raises(ActionParseError) as info:
        game().parse_action(text, seat)
    assert fragment in str(info.value)


def test_unknown_colour_in_smaller_game_and_bad_seat() -> None:
    with pytest.raises(ActionParseError, match="cannot read 'o'"):
        game("seed", 3).parse_action("atk:O", RED)
    with pytest.raises(ActionParseError, match="seat"):
        game().parse_action("pass", 4)
    with pytest.raises(ActionParseError, match="seat"):
        game().parse_action("pass", -1)


def test_selections_of_other_seat_counts_are_not_equal() -> None:
    # Selection equality must compare by value: ORANGE is not RED.
    four = game("seed", 4).parse_action("atk:O", GREEN)
    three = game("seed", 3).parse_action("atk:R", GREEN)
    assert str(four) != str(three)
    assert four != three


def test_selection_of_another_game_is_refused_and_state_kept() -> None:
    g3, g4 = game("seed", 3), game("seed", 4)
    s = g3.new_initial_state(0)
    foreign = g4.parse_action("atk:O", GREEN)
    before = s.digest()
    with pytest.raises(IllegalActionError):
        s.apply_action(foreign, GREEN)
    assert s.digest() == before


# -------------------------------------------------------------------------- returns
def test_returns_mid_game_and_at_end() -> None:
    s = game("seed", 3).new_initial_state(0)
    assert s.returns() == (0.0, 0.0, 0.0)
    assert s.winners() == ()
    play(s, "atk:B")
    assert s.returns() == (0.0, 0.0, 0.0)
    s = setup(game("seed", 3), [3, 3, 3])
    play(s, "atk:B", "atk:G", "atk:R")  # everyone at -1: a three-way draw
    assert s.winners() == (0, 1, 2)
    assert s.returns() == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert sum(s.returns()) == pytest.approx(1.0)


def test_scores_are_energies() -> None:
    s = setup(game("seed", 2), [5, 3])
    play(s, "atk:B")
    assert s.scores() == (4, 0)
    assert s.winners() == (RED,)


# ------------------------------------------------------------------ illegal reasons
def test_illegal_action_messages_name_the_reason() -> None:
    s = _eliminate_green()
    with pytest.raises(IllegalActionError, match="B4G-11"):
        s.apply_action(s.game.parse_action("def:G", BLUE), BLUE)
    poor = setup(game("seed"), [2, 100, 100, 100])
    with pytest.raises(IllegalActionError, match="energy") as info:
        poor.apply_action(poor.game.parse_action("atk:BGO", RED), RED)
    assert "3" in str(info.value) and "2" in str(info.value)
    rich = game("seed").new_initial_state(0)
    with pytest.raises(IllegalActionError, match="at most 3"):
        rich.apply_action(rich.game.parse_action("atk:BGO def:B", RED), RED)
    with pytest.raises(IllegalActionError, match="belongs to seat 1"):
        rich.apply_action(rich.game.parse_action("pass", BLUE), RED)


def test_every_size_three_selection_is_legal_at_three_ep_only_when_affordable() -> None:
    s = setup(game("rulebook-2018-04"), [3, 60, 60, 60])
    legal = set(s.legal_actions(RED))
    for a in all_selections(4, RED):
        fits = a.size <= 3 and a.cost(2, 1) <= 3
        assert (a in legal) == fits, a
    for combo in combinations((BLUE, GREEN, ORANGE), 3):
        assert selection(4, RED, (), combo) in legal


def test_selections_are_interned_immutable_and_picklable() -> None:
    import pickle

    g = game()
    a = g.parse_action("atk:BG def:R", ORANGE)
    assert a is g.parse_action("a:gb d:r", ORANGE)  # interned
    assert pickle.loads(pickle.dumps(a)) is a
    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(AttributeError):
        a.attacks = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.seat
    assert a.public == ((BLUE, GREEN), (RED,))
    assert a.cost(2, 1) == 5 and a.size == 3
    assert a.defends_against(RED) and not a.defends_against(BLUE)
    assert repr(a) == "Selection(ORANGE: atk:BG def:R)"
