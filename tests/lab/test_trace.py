"""Tests of meeple.lab.analysis.trace: the per-game trace fields (lead changes, eliminations,
counts)."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

from meeple import load_game
from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.lab.analysis.trace import TRACE_FIELDS, Trace, action_key

FOUR_GODS = "battle-of-the-four-gods"


def _play(game, seed: int, bot: str = "random"):
    agents = [make_bot(bot, game, s, seed) for s in range(game.players)]
    trace = Trace(game)
    state, record = play_episode(game, seed, agents, on_step=trace.on_step)
    return state, record, trace.finish(state)


def test_four_gods_trace_matches_the_final_state_and_the_record():
    game = load_game(FOUR_GODS, start_energy=12)
    for seed in range(5):
        state, record, fields = _play(game, seed)
        assert set(fields) == set(TRACE_FIELDS)
        json.dumps(fields)  # JSON-ready
        # every eliminated seat once, at the round the rules recorded for it
        assert sorted(s for s, _ in fields["eliminations"]) == sorted(
            s for s in range(game.players) if state.is_eliminated(s))
        for seat, length in fields["eliminations"]:
            assert length == state.eliminated_round[seat]
        rounds = [length for _, length in fields["eliminations"]]
        assert rounds == sorted(rounds)
        # one count per action a seat took, keyed by the selection's shape
        taken = Counter(int(s) for step in record.steps for s in step)
        for seat in range(game.players):
            assert sum(fields["actions"][seat].values()) == taken[seat]
            assert all(k == "pass" or "atk" in k or "def" in k for k in fields["actions"][seat])
        assert fields["cards"] == [{}] * game.players
        assert fields["lead_changes"] >= 0


def test_damocles_counts_the_cards_of_its_card_plays():
    game = load_game("damocles")
    state, record, fields = _play(game, 3)
    expected = [Counter() for _ in range(game.players)]
    for step in record.steps:
        for seat, text in step.items():
            words = text.split()
            n = {"play": 1, "pair": 2, "haste": 1}.get(words[0], 0)
            for card in words[1:1 + n]:
                expected[int(seat)][card.rstrip("*")] += 1
    assert [dict(c) for c in expected] == fields["cards"]
    assert any(fields["cards"])
    assert fields["eliminations"] == []  # Damocles has no elimination


def test_action_key_rules():
    gods = load_game(FOUR_GODS)
    state = gods.new_initial_state(0)
    pass_move = gods.parse_action("pass", 0)
    assert action_key(FOUR_GODS, pass_move) == ("pass", ())
    move = gods.parse_action("atk:B atk:G def:O", 0)
    assert move in state.legal_actions(0)
    assert action_key(FOUR_GODS, move) == ("2 atk + 1 def", ())
    dam = load_game("damocles")
    play = dam.parse_action("play REF-01*", 0)
    assert action_key("damocles", play) == ("play", ("REF-01",))
    # a game without a table entry: the kind, and "play" plays one card
    assert action_key("some-other-game", play) == ("play", ("REF-01",))
    swap = dam.parse_action("swap 2 5", 0)
    assert action_key("damocles", swap) == ("swap", ())
    # an action without a kind and without a keyer counts under its text
    assert action_key("some-other-game", move) == (str(move), ())


class _Scripted:
    """A stand-in state: scores and eliminations by step, length = step number."""

    def __init__(self, scores, out=()):
        self.scores_seq, self.out, self.step = scores, out, 0
        self.game = SimpleNamespace(players=len(scores[0]))

    def length(self):
        return self.step

    def scores(self):
        return self.scores_seq[self.step - 1]

    def is_eliminated(self, seat):
        return any(seat == s and self.step >= t for s, t in self.out)


def _run(scores, out=()):
    state = _Scripted(scores, out)
    trace = Trace(SimpleNamespace(name="scripted", players=len(scores[0])))
    for step in range(1, len(scores) + 1):
        state.step = step
        trace.on_step(state, {0: "x", 1: "y"})
    return trace.finish(state)


def test_lead_changes_ignore_ties_and_count_changes_of_holder():
    # A, tie, B: one change; then B, A: two more
    assert _run([(2, 1), (2, 2), (1, 3), (1, 4), (5, 4)])["lead_changes"] == 2
    # A, tie, A: none
    fields = _run([(2, 1), (2, 2), (3, 2)])
    assert fields["lead_changes"] == 0
    assert fields["leader_before_final"] is None  # a tie going into the last step
    assert _run([(2, 1), (1, 3), (4, 3)])["leader_before_final"] == 1
    # every step counted under the action's text (no kind, no keyer)
    assert fields["actions"] == [{"x": 3}, {"y": 3}]


def test_eliminations_are_recorded_once_in_order():
    fields = _run([(1, 1, 1)] * 5, out=((2, 2), (0, 4), (1, 4)))
    assert fields["eliminations"] == [[2, 2], [0, 4], [1, 4]]
