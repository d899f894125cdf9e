"""Ozymandias (campaign edition): property tests over random legal play.

Every step of a playthrough (uniformly random seats, heuristic seats or a mix; 2-6 seats; every
named variant with an extra parameter switch) is checked against invariants restated from the
seed and rules-questions section 4: workers conserved at 12 per player (Components; OZW-17,
OZW-39), faction cubes conserved against the supply's in/out counters, unrest and VP never
negative, VP that only grow and only at the active seat's intake (Collapse), hands never above
the hand size and full after an intake while cards remain (OZW-37, OZW-36), a card tapped
before its owner's intake collapses at that intake and a tapped card never untaps (OZW-11),
every card in exactly one place, at most one standing worker per point and never on a colony
(OZW-22), non-empty colony stacks only on colonies, the end after exactly one more turn of every
other seat (OZW-38), hidden hands and war cards (OZW-41), and the saved form (``to_json`` /
``state_from_json``) being the whole state.
"""

from __future__ import annotations

import json
import random

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots import make_bot
from meeple.games.ozymandias_campaign.vocab import COLONY

GAME = "ozymandias-campaign"
VARIANTS = [v.name for v in load_game(GAME).variants]
CARD, TAPPED, LAID, HARVEST = 0, 4, 5, 6

#: Extra parameter switches, one per example, on top of the variant (variants.py).
EXTRA = [{}, {}, {"card_cap": "rank"}, {"unrest_return": "per_cube"},
         {"colony_recovery": "optional"}, {"colony_recovery": "bag"},
         {"collapse_cubes": "pass_right"}, {"threshold": "none"}, {"threshold": "matching"},
         {"tableau_insert": "left"}, {"colony_ref": "top"}, {"failed_colony": "return_worker"},
         {"lay_requires_card": True}, {"hazard_unrest": True}, {"bonus_from_zero": True},
         {"hand_size": 2}, {"target_vp": 6}, {"start_workers": 12}, {"workers": 5},
         {"setup_tiles": "two_if_4plus"}, {"migration": "free", "laydown_source": "supply"},
         {"explore": False}, {"tiebreak": "turn_order", "target_vp": 10}]

#: Whole playthroughs are long examples: report the first failure rather than shrinking it.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def check_invariants(state) -> None:
    """Everything that must hold at any point of a playthrough."""
    game = state.game
    n, p = game.players, game.params
    kinds = state.map.kinds
    standing = state.standing
    stacks = state.stacks

    # workers: bag + supply + standing + lying + laid + harvest = workers, per player
    on_points = list(standing.values())
    for seat in range(n):
        assert state.bag[seat] >= 0 and state.supply[seat] >= 0, (seat, state.bag, state.supply)
        on_cards = sum(r[LAID] + r[HARVEST] for r in state.tableaus[seat])
        total = (state.bag[seat] + state.supply[seat] + on_points.count(seat)
                 + sum(s.count(seat) for s in stacks.values()) + on_cards)
        assert total == p["workers"], (seat, total)

    # cubes: every incoming area and tableau card, per suit, is what left the supply
    for suit in range(3):
        held = sum(i[suit] for i in state.incoming)
        held += sum(r[1 + suit] for t in state.tableaus for r in t)
        assert held == state.cubes_in[suit] - state.cubes_out[suit], suit
        assert min(i[suit] for i in state.incoming) >= 0
    for t in state.tableaus:
        for r in t:
            assert min(r[1:4]) >= 0 and r[TAPPED] in (0, 1)
            assert r[LAID] in (0, 1) and r[HARVEST] in (0, 1)
            if p["card_cap"] == "rank":
                assert sum(r[1:4]) <= game.cards[r[CARD]].rank

    assert min(state.unrest) >= 0 and min(state.vp) >= 0

    # cards: every card in exactly one place
    cards = list(state.deck) + list(state.discard)
    for hand in state.hands:
        assert len(hand) <= p["hand_size"]
        cards += hand
    cards += [r[CARD] for t in state.tableaus for r in t]
    assert len(cards) == len(game.cards) == 54
    assert sorted(cards) == list(range(54))

    # the map: standing workers (one per point, never on a colony), stacks on colonies
    for point, seat in standing.items():
        assert point in kinds and kinds[point] != COLONY and 0 <= seat < n
    for point, stack in stacks.items():
        assert kinds[point] == COLONY and stack and all(0 <= s < n for s in stack)

    # who acts: the active seat, or the two warring seats; never an empty choice
    acting = state.current_players()
    if state.step == "over":
        assert acting == () and state.is_terminal() and state.winners()
        best = max(state.vp)
        assert all(state.vp[s] == best for s in state.winners())
    else:
        assert acting
        if state.step == "war":
            assert set(acting) <= {state.war[2], state.war[3]} and state.war[2] == state.active
        else:
            assert acting == (state.active,)
        for seat in acting:
            assert state.legal_actions(seat)
        for seat in set(range(n)) - set(acting):
            assert not state.legal_actions(seat)


def check_views(state) -> None:
    """OZW-41: a seat's view has its own hand only, a spectator's none, and a war card
    submitted by one seat is not in any other view before the reveal."""
    game = state.game
    name = {i: f"{'GRB'[c.suit]}{c.rank}" for i, c in enumerate(game.cards)}
    spectator = state.view(None)
    assert "hand" not in spectator and "my_submission" not in spectator
    assert [p["hand_size"] for p in spectator["players"]] == [len(h) for h in state.hands]
    for seat in range(game.players):
        view = state.view(seat)
        assert view["hand"] == sorted(name[c] for c in state.hands[seat])
        pending = state._pending
        if seat in pending:
            assert view["my_submission"] == str(pending[seat])
        else:
            assert "my_submission" not in view
        assert view["submitted"] == sorted(pending)


def tapped_cards(state, seat: int) -> set[int]:
    return {r[CARD] for r in state.tableaus[seat] if r[TAPPED]}


def play(game, seed: int, heuristic, max_steps: int, roundtrip_every: int = 40):
    """Play from ``seed`` (heuristic seats where ``heuristic[seat]``, the others uniformly
    random), checking every invariant after every step and the step-wise ones between
    steps."""
    n, p = game.players, game.params
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    bots = {s: make_bot("heuristic", game, s, seed) for s in range(n) if heuristic[s]}
    check_invariants(state)
    intake: tuple[int, set[int], int] | None = None  # (seat, tapped cards, turns) at intake
    trigger_turn: int | None = None
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        vp, tapped = list(state.vp), [tapped_cards(state, s) for s in range(n)]
        active, turns, step = state.active, state.turns, state.step
        trigger = state.trigger
        joint = {}
        for seat in state.current_players():
            moves = state.legal_actions(seat)
            if seat in bots:
                joint[seat] = bots[seat].act(state.view(seat), moves)
                assert joint[seat] in moves  # the bot only plays legal actions
            else:
                joint[seat] = rng.choice(moves)
        if step == "mode" and joint[active].kind == "intake":
            intake = (active, tapped[active], turns)
        if len(joint) == 2 and steps % 2:  # a war: submit one by one, as a web client would
            first, second = sorted(joint, key=lambda s: rng.random())
            state.apply_action(joint[first], seat=first)
            assert state.current_players() == (second,)
            check_views(state)
            state.apply_action(joint[second], seat=second)
        else:
            state.apply_actions(joint)
        steps += 1
        check_invariants(state)

        # VP never decrease, and only the active seat gains, by collapsing at its intake
        for seat in range(n):
            assert state.vp[seat] >= vp[seat]
            if state.vp[seat] > vp[seat]:
                assert seat == active and intake is not None and intake[0] == seat
        # a tapped card stays tapped until it leaves the tableau (OZW-11)
        for seat in range(n):
            still = {r[CARD] for r in state.tableaus[seat]}
            assert tapped[seat] & still <= tapped_cards(state, seat)
        # the intake's turn is over: every card tapped before it has collapsed, and the hand
        # is full unless no card was left to draw (OZW-36, OZW-37)
        if intake is not None and state.turns > intake[2]:
            seat = intake[0]
            assert not intake[1] & {r[CARD] for r in state.tableaus[seat]}, intake
            assert len(state.hands[seat]) == p["hand_size"] or not (
                state.deck or state.discard)
            intake = None
        # the trigger (OZW-38) is set once, by the active seat at its intake, at >= target
        if trigger is None and state.trigger is not None:
            assert state.trigger == active and state.vp[active] >= p["target_vp"]
            trigger_turn = turns
        else:
            assert state.trigger == trigger
        if state.is_terminal() and not state.is_truncated():
            # the triggering turn, then exactly one more turn of every other seat
            assert trigger_turn is not None and state.turns == trigger_turn + n
        if steps % 10 == 0:
            check_views(state)
        if steps % roundtrip_every == 0 or state.is_terminal():
            again = game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert again.digest() == state.digest()
            assert [list(again.legal_actions(s)) for s in again.current_players()] == [
                list(state.legal_actions(s)) for s in state.current_players()]
    return state, steps


@settings(max_examples=150, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA),
       heuristic=st.lists(st.booleans(), min_size=6, max_size=6))
def test_invariants_after_every_step(seed, players, variant, extra, heuristic) -> None:
    game = load_game(GAME, variant=variant, players=players, **extra)
    state, steps = play(game, seed, heuristic, max_steps=500)
    assert steps == 500 or state.is_terminal()


@settings(max_examples=50, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA))
def test_heuristic_games_end_by_the_rules(seed, players, variant, extra) -> None:
    """Heuristic seats score, so these games reach the target and end by OZW-38 (the step
    checks above verify the one-more-turn rule at that end)."""
    game = load_game(GAME, variant=variant, players=players, **{"max_rounds": 60, **extra})
    state, _ = play(game, seed, [True] * 6, max_steps=10**6, roundtrip_every=100)
    assert state.is_terminal() and 1 <= state.length() <= 60
    if not state.is_truncated():
        assert max(state.vp) >= game.params["target_vp"]
        if game.params["tiebreak"] == "turn_order":
            assert len(state.winners()) == 1


@settings(max_examples=60, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA))
def test_random_playouts_and_clones(seed, players, variant, extra) -> None:
    """Uniform random playouts (state.playout) keep the invariants; a clone is independent,
    and the same actions from the saved form give the same states."""
    game = load_game(GAME, variant=variant, players=players, **{"max_rounds": 30, **extra})
    state = game.new_initial_state(seed)
    state.playout(random.Random(seed), max_steps=150)
    check_invariants(state)
    copy = state.clone()
    saved = game.state_from_json(json.loads(json.dumps(state.to_json())))
    digest = state.digest()
    copy.playout(random.Random(seed + 1))
    saved.playout(random.Random(seed + 1))
    assert state.digest() == digest
    check_invariants(copy)
    assert copy.is_terminal() and saved.digest() == copy.digest()
