"""Battle of the Four Gods: property tests over random legal play.

Every round of a random playthrough is checked against an independent recomputation of the
Results Phase from the submitted selections and the parameters (rules-questions 3.2):
costs, simultaneous attacks with refunds (B4G-7, B4G-8), the stall counter and drain (B4G-14),
eliminations at <= 0 (B4G-10), and the end of the game (B4G-13, B4G-21, X-5).
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.games.battle_of_the_four_gods.actions import all_selections
from meeple.games.battle_of_the_four_gods.variants import VARIANTS

GAME = "battle-of-the-four-gods"
VARIANT_NAMES = [v.name for v in VARIANTS]


@st.composite
def games(draw):
    """A Four Gods spec: any variant and seat count, often with rule values changed, always
    capped at a modest number of rounds so a playthrough stays fast."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    players = draw(st.integers(2, 4))
    params = {"max_rounds": draw(st.integers(1, 150))}
    if draw(st.booleans()):
        params["start_energy"] = draw(st.integers(1, 40))
    if draw(st.booleans()):
        params["attack_cost"] = draw(st.integers(0, 3))
        params["defend_cost"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        params["damage"] = draw(st.integers(0, 7))
        params["defend_refund"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        params["max_actions"] = draw(st.integers(0, 6))
    if draw(st.booleans()):
        params["limit_mode"] = draw(st.sampled_from(["cost", "count"]))
    if draw(st.booleans()):
        params["stall_rounds"] = draw(st.integers(0, 4))
        params["stall_drain"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        params["reveal_lock"] = True
    return load_game(GAME, variant, players, **params)


def _fits(game, seat, sel, energy, alive) -> bool:
    """The budget rule, restated: B4G-3, B4G-5, B4G-11, max_actions, reveal_lock."""
    p = game.params
    targets = sel.attacks + sel.defends
    if seat in targets or any(not alive[t] for t in targets):
        return False
    if sel.size > p["max_actions"]:
        return False
    if sel.reveal and not p["reveal_lock"]:
        return False
    if p["limit_mode"] == "count":
        return sel.size <= energy
    return len(sel.attacks) * p["attack_cost"] + len(sel.defends) * p["defend_cost"] <= energy


def _expected_delta(game, joint) -> list[int]:
    p = game.params
    delta = [0] * game.players
    for seat, sel in joint.items():
        delta[seat] -= len(sel.attacks) * p["attack_cost"] + len(sel.defends) * p["defend_cost"]
    for seat, sel in joint.items():
        for target in sel.attacks:
            if seat in joint[target].defends:
                delta[target] += p["defend_refund"]
            else:
                delta[target] -= p["damage"]
    return delta


def _check_legal(game, state) -> None:
    alive = [r == 0 for r in state.eliminated_round]
    for seat in range(game.players):
        legal = list(state.legal_actions(seat))
        if seat not in state.current_players():
            assert legal == []
            continue
        assert alive[seat] and state.energy[seat] > 0
        energy = state.energy[seat]
        for sel in legal:
            assert sel.seat == seat and sel.players == game.players
            assert _fits(game, seat, sel, energy, alive), (seat, sel, energy)
        # ... and every selection that fits is offered
        pool = all_selections(game.players, seat)
        if game.params["reveal_lock"]:
            pool += all_selections(game.players, seat, True)
        assert set(legal) == {s for s in pool if _fits(game, seat, s, energy, alive)}
        assert legal[0].size == 0  # pass is always possible, and listed first


def _play_checked(game, seed: int, pass_bias: float) -> set[str]:
    """Play one checked random game; return tags of the rule branches it went through."""
    tags: set[str] = set()
    p = game.params
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        _check_legal(game, state)
        alive_before = [s for s in range(game.players) if state.eliminated_round[s] == 0]
        assert list(state.current_players()) == alive_before
        assert all(state.energy[s] > 0 for s in alive_before)
        old_energy = list(state.energy)
        old_eliminated = list(state.eliminated_round)
        old_stall, old_round, old_history = state.stall, state.round, list(state.history)
        joint = {}
        for seat in state.current_players():
            legal = list(state.legal_actions(seat))
            joint[seat] = legal[0] if rng.random() < pass_bias else rng.choice(legal)
        # submit one by one in a random order, as a web client would
        order = list(joint)
        rng.shuffle(order)
        for i, seat in enumerate(order[:-1]):
            state.apply_action(joint[seat], seat)
            done = order[: i + 1]
            shown = {str(s): str(joint[s]) for s in done if joint[s].reveal}
            for viewer in [None, *range(game.players)]:
                view = state.view(viewer)
                json.dumps(view)
                assert view["revealed"] == shown  # only face-up selections (B4G-16, B4G-19)
                assert view["submitted"] == sorted(done)
                if viewer in done:
                    assert view["my_submission"] == str(joint[viewer])
                else:
                    assert "my_submission" not in view
        state.apply_action(joint[order[-1]], order[-1])
        round_ = state.round
        assert round_ == old_round + 1 == state.length()
        assert state.history[:-1] == old_history

        delta = _expected_delta(game, joint)
        if any(delta):
            stall, drain = 0, 0
        else:
            stall = old_stall + 1
            drain = p["stall_drain"] if p["stall_rounds"] and stall > p["stall_rounds"] else 0
            if drain:
                tags.add("drain")
        publics = tuple(joint[s].public if s in joint else None for s in range(game.players))
        assert state.history[-1] == (round_, publics, tuple(delta), drain)
        if any(
            sel.attacks and any(a in joint[t].defends for t in sel.attacks)
            for a, sel in joint.items()
        ):
            tags.add("defended")
        if len(joint) < game.players:
            tags.add("after elimination")
        assert state.stall == stall
        for s in range(game.players):
            if s in joint:
                assert state.energy[s] == old_energy[s] + delta[s] - drain
                assert state.eliminated_round[s] == (round_ if state.energy[s] <= 0 else 0)
            else:  # eliminated earlier: untouched, never acts again
                assert state.energy[s] == old_energy[s]
                assert state.eliminated_round[s] == old_eliminated[s] > 0
                assert delta[s] == 0
                assert list(state.legal_actions(s)) == []
                assert s not in state.current_players()

        survivors = [s for s in joint if state.energy[s] > 0]
        if len(survivors) == 1:
            assert state.is_terminal() and not state.is_truncated()
            assert state.winners() == (survivors[0],)
            tags.add("sole survivor")
        elif not survivors:  # everyone left fell this round: best of them (B4G-13)
            best = max(state.energy[s] for s in joint)
            assert state.is_terminal() and not state.is_truncated()
            assert set(state.winners()) == {s for s in joint if state.energy[s] == best}
            tags.add("all fell")
        elif round_ >= p["max_rounds"]:
            best = max(state.energy[s] for s in survivors)
            assert state.is_terminal() and state.is_truncated()
            assert set(state.winners()) == {s for s in survivors if state.energy[s] == best}
            tags.add("truncated")
        else:
            assert not state.is_terminal()
            assert state.winners() == ()
            assert state.returns() == (0.0,) * game.players
            assert list(state.current_players()) == survivors
    k = len(state.winners())
    assert k >= 1
    assert state.returns() == tuple(
        1.0 / k if s in state.winners() else 0.0 for s in range(game.players)
    )
    assert state.length() <= game.capabilities.max_length
    assert state.current_players() == ()
    if len(state.winners()) > 1:
        tags.add("tie")
    return tags


def test_checked_play_reaches_every_rule_branch() -> None:
    # Guards the properties below against passing vacuously: fixed seeds that, together, go
    # through every end condition, the stall drain, defended attacks and eliminations.
    tags: set[str] = set()
    for seed in range(12):
        tags |= _play_checked(load_game(GAME, "gdd-2018-04a", 4, start_energy=12), seed, 0.8)
        tags |= _play_checked(load_game(GAME, "seed", 2, start_energy=3), seed, 0.0)
        tags |= _play_checked(load_game(GAME, "rulebook-2018-04", 3, max_rounds=4), seed, 0.3)
    assert tags >= {
        "drain",
        "sole survivor",
        "all fell",
        "truncated",
        "defended",
        "after elimination",
        "tie",
    }, tags


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(games(), st.integers(0, 2**32), st.sampled_from([0.0, 0.3, 0.8, 0.95]))
def test_round_invariants_under_random_play(game, seed: int, pass_bias: float) -> None:
    _play_checked(game, seed, pass_bias)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(VARIANT_NAMES), st.integers(2, 4), st.integers(0, 2**32))
def test_round_invariants_named_variants(variant: str, players: int, seed: int) -> None:
    _play_checked(load_game(GAME, variant, players, max_rounds=120), seed, 0.5)


class _Checked:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.calls = 0

    def act(self, view, legal):
        action = self.bot.act(view, legal)
        assert any(action is a for a in legal), f"{action!r} is not one of the legal actions"
        self.calls += 1
        return action


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(games(), st.integers(0, 2**32), st.lists(st.booleans(), min_size=4, max_size=4))
def test_heuristic_bot_returns_a_legal_action(game, seed: int, heuristic: list[bool]) -> None:
    agents = [
        _Checked(make_bot("heuristic" if heuristic[s] else "random", game, s, seed))
        for s in range(game.players)
    ]
    final, _ = play_episode(game, seed, agents)
    assert final.is_terminal()
    assert sum(a.calls for a in agents) >= game.players


@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(games(), st.integers(0, 2**32))
def test_heuristic_bot_is_deterministic_given_its_seed(game, seed: int) -> None:
    def run():
        bots = [make_bot("heuristic", game, s, seed) for s in range(game.players)]
        return play_episode(game, seed, bots)[1].to_json()

    assert run() == run()
