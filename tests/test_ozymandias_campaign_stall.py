"""Ozymandias (campaign edition): every turn ends, whatever the seats choose (OZW-54).

The stall found by the lab's degenerate-strategy search (docs/lab.md, section 6): a seat with
an empty hand stands, again and again, on a point where an enemy holding cards stands. Each
war is lost without a card (War 4), the worker never leaves the supply (OZW-31), only unrest
changes, and ``stand`` stays legal, so a policy that prefers ``stand`` to ``end`` never ends its
turn. OZW-54: a war lost at no cost is not fought again at that point in the same turn. The
tests below pin the rule, replay the scripted line-up that stalled, and check with hypothesis
that adversarial policies finish every turn within a bound counted from the state.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots.scripted import ScriptedBot, script_from_name
from meeple.games.ozymandias_campaign.moves import cube_count
from tests.test_ozymandias_campaign_rules import (
    P,
    act,
    assert_conserved,
    fight,
    legal,
    make,
    scenario,
    standing_war,
)
from tests.test_termination import LeastRecent

GAME = "ozymandias-campaign"

#: The line-up (seats 0-3, bot seeds 160-163, game seed 16, 4 seats) that a random search over
#: scripted policies found stuck in one turn before OZW-54: seat 2 prefers ``stand`` (-1) to
#: ``end`` (-2) and, its hand empty, lost the same war at RED-3:i1 without end.
STALLED = ("script-attach=-1-campaign=2-cube=2-done=-1-end=2-lay=2-pass=2-play=2-recover=-1"
           "-stand=-1",
           "script-attach=-2-campaign=1-colony=1-cube=-1-fight=1-harvest=2-intake=1-lay=2"
           "-migrate=1-move=-2-play=1-stand=1",
           "script-attach=-1-campaign=2-colony=1-done=2-end=-2-fight=2-intake=2-lay=1"
           "-migrate=2-move=-2-play=-1-recover=-2-stand=-1",
           "script-attach=-2-campaign=-1-cube=-2-done=-2-end=2-fight=-2-harvest=1-lay=1"
           "-move=-2-play=-2-recover=-1-stand=1")


def play(state, agents, limit: int) -> int:
    """Play ``state`` on with ``agents`` for at most ``limit`` decisions; the count made."""
    steps = 0
    while not state.is_terminal() and steps < limit:
        state.apply_actions({s: agents[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
        steps += 1
    return steps


# ------------------------------------------------------------------------- the rule
def test_a_war_lost_without_a_card_is_not_fought_again_at_that_point_this_turn() -> None:
    game = make(2)
    state = standing_war(game, [], ["R2"])  # seat 0 has no card: it loses at once
    assert state.step == "campaign" and state.standing[P + "i1"] == 1
    assert state.lost_wars == [P + "i1"] and state.view(None)["lost_wars"] == [P + "i1"]
    assert f"stand {P}i1" not in legal(state)
    assert "lay 1" in legal(state) and "end" in legal(state)  # the rest of the turn goes on
    assert state.unrest == [1, 1]  # the one war fought still gave its unrest (War 1)
    act(state, "end")
    assert state.lost_wars == []  # a new turn: the record is cleared
    assert_conserved(state)


def test_a_war_lost_with_a_card_may_be_fought_again() -> None:
    """A card spent is progress: the hand is finite, so retrying cannot go on forever."""
    game = make(2)
    state = standing_war(game, ["R2", "B3"], ["G7", "G6"])
    fight(state, "R2", "G7")
    assert state.standing[P + "i1"] == 1 and state.lost_wars == []
    assert f"stand {P}i1" in legal(state)


def test_a_colony_war_lost_at_no_cost_under_return_worker() -> None:
    """Under ``failed_colony=return_worker`` a lost colony war costs nothing either."""
    game = make(3, failed_colony="return_worker")
    state = scenario(game, step="campaign", stacks={"c1": [2, 1]}, standing={"i1": 0},
                     hands={0: [], 1: ["G7"]}, tableaus={0: [("G3", "")]})
    act(state, f"colony {P}c1")
    assert state.stacks[P + "c1"] == [2, 1] and state.lost_wars == [P + "c1"]
    assert f"colony {P}c1" not in legal(state)


def test_a_colony_war_lost_beneath_is_not_recorded() -> None:
    """Under the default (OZW-27) the loser's worker goes beneath: a cost, so no record."""
    game = make(3)
    state = scenario(game, step="campaign", stacks={"c1": [2, 1]}, standing={"i1": 0},
                     hands={0: [], 1: ["G7"]}, tableaus={0: [("G3", "")]})
    act(state, f"colony {P}c1")
    assert state.stacks[P + "c1"] == [2, 0, 1] and state.lost_wars == []


def test_the_record_survives_the_saved_form_and_is_left_out_when_empty() -> None:
    game = make(2)
    state = standing_war(game, [], ["R2"])
    data = state.to_json()
    assert data["data"]["lost_wars"] == [P + "i1"]
    back = game.state_from_json(json.loads(json.dumps(data)))
    assert back.lost_wars == [P + "i1"] and f"stand {P}i1" not in legal(back)
    fresh = game.new_initial_state(1).to_json()
    assert "lost_wars" not in fresh["data"]  # states saved before OZW-54 still load
    assert game.state_from_json(fresh).lost_wars == []


def test_a_determinized_state_keeps_the_record() -> None:
    game = make(2)
    state = standing_war(game, [], ["R2"])
    guess = game.determinize(state.view(0), random.Random(3))
    assert guess.lost_wars == [P + "i1"]
    assert sorted(map(str, guess.legal_actions(0))) == sorted(legal(state))


# ------------------------------------------------------------------ the stalled game
def test_the_line_up_that_stalled_now_finishes() -> None:
    """Before OZW-54 this game made 20,000 decisions inside one turn (turn 9)."""
    game = load_game(GAME, players=4)
    agents = [script_from_name(name, game, seat, 160 + seat)
              for seat, name in enumerate(STALLED)]
    state = game.new_initial_state(16)
    steps = play(state, agents, 20_000)
    assert state.is_terminal(), (steps, state.turns, state.step, state.events[-3:])


# --------------------------------------------------------------- any policy: a bound
def turn_bound(state) -> int:
    """Most decisions the active seat's turn can take from ``state`` (at the turn's start),
    counted from the rules with OZW-54:

    * the mode: 1;
    * intake: one ``cube`` per incoming cube, ``pass``, one ``recover``/``done`` per worker;
    * migration: at most one ``move`` per cube on the tableau (a cube moved right is never
      moved again), one ``keep`` per card, one ``recover`` per worker, ``done``;
    * campaign: every action spends a worker (a stand, colony, lay or harvest, or a colony
      war lost beneath), or a hand card (a war lost with a card), or is a war lost at no cost,
      at most once per point of the map (OZW-54); each is followed by at most two more
      decisions (the war's cards; ``play`` or ``attach``); then ``end``.
    """
    game, seat = state.game, state.active
    workers = game.params["workers"]
    points = sum(len(t.points) for t in game.tiles)  # the map can grow to every tile
    cubes = sum(state.incoming[seat]) + sum(cube_count(r) for r in state.tableaus[seat])
    intake_or_migration = cubes + len(state.tableaus[seat]) + workers + 2
    campaign = 3 * (workers + len(state.hands[seat]) + points) + 1
    return 1 + max(intake_or_migration, campaign)


#: Never stop while anything else is legal: the policy that finds a no-progress loop.
STUBBORN = {"end": -1, "done": -1, "pass": -1, "keep": -1}
POLICY = st.one_of(
    st.just("least-recent"), st.just(STUBBORN), st.just({**STUBBORN, "stand": 1}),
    st.dictionaries(st.sampled_from(load_game(GAME).action_tag_names()),
                    st.sampled_from([-2, -1, 1, 2]), min_size=1, max_size=6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6),
       policies=st.lists(POLICY, min_size=5, max_size=5),
       params=st.sampled_from([{}, {"failed_colony": "return_worker"},
                               {"migration": "free"}, {"explore": False}]))
def test_any_policy_finishes_every_turn_within_the_bound(players, seed, policies,
                                                         params) -> None:
    """Scripted policies of random weights, stubborn ones and the least-recent policy: every
    turn takes at most :func:`turn_bound` decisions, so a game takes at most ``max_rounds``
    x players turns of bounded length (X-5, OZW-51, OZW-54)."""
    game = load_game(GAME, players=players, max_rounds=6, **params)
    agents = [LeastRecent() if p == "least-recent" else ScriptedBot(game, s, seed + s, p)
              for s, p in enumerate(policies[:players])]
    state = game.new_initial_state(seed)
    turns = 0
    while not state.is_terminal():
        bound, turn = turn_bound(state), state.turns
        taken = 0
        while state.turns == turn and not state.is_terminal():
            taken += play(state, agents, 1)
            assert taken <= bound, (turn, taken, bound, policies)
        turns += 1
    assert turns <= game.params["max_rounds"] * players
