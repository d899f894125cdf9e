"""The ISMCTS bot on small games whose best play is known: legal, seeded, sound at
simultaneous decisions, backs up team results, and stronger than random."""

from __future__ import annotations

import random

import pytest

import examples.pig  # noqa: F401  (registers "pig")
from meeple.bots import bot_names, make_bot
from meeple.bots.ismcts import ISMCTSBot, ismcts_from_name
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.lab.run.runner import run_playtest
from tests.bots.duel_example import HighCard, Pick
from tests.coop_example import CoopExample


def test_labels_set_the_budget_rollout_and_depth() -> None:
    game = load_game("pig")
    bot = make_bot("ismcts-300", game, 1, 5)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.seconds, bot.rollout, bot.seat) == (300, None, "random", 1)
    assert bot.name == "ismcts-300"
    timed = ismcts_from_name("ismcts-0.25s", game, 0)
    assert timed.seconds == 0.25
    assert make_bot("ismcts", game, 0).iterations >= 1
    assert "ismcts" in bot_names(game)


@pytest.mark.parametrize("label", ["ismcts-0", "ismcts--4", "ismcts-4x", "ismcts-0s"])
def test_bad_labels_are_refused_with_the_syntax(label: str) -> None:
    with pytest.raises(ParameterError, match="ismcts"):
        make_bot(label, load_game("pig"), 0)


def test_unknown_rollout_bot_names_the_bots() -> None:
    with pytest.raises(ParameterError, match="no bot called 'nosuch'"):
        make_bot("ismcts-10-nosuch", load_game("pig"), 0)


def test_game_without_determinization_is_refused_up_front() -> None:
    class Opaque(HighCard):
        __slots__ = ()
        _determinize = Game._determinize  # the engine's default: none

    with pytest.raises(ParameterError, match="no determinization"):
        ISMCTSBot(Opaque(), 0)


def test_same_seed_same_decision_and_budget_is_spent() -> None:
    game = load_game("pig")
    state = game.new_initial_state(4)
    state.playout(random.Random(2), max_steps=5)
    seat = state.current_players()[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    a = make_bot("ismcts-120", game, seat, 9)
    b = make_bot("ismcts-120", game, seat, 9)
    assert a.act(view, legal) == b.act(view, legal)
    assert a.last_iterations == 120
    assert state.view(seat) == view, "searching must not touch the true state"


def test_seconds_budget_runs_at_least_one_iteration() -> None:
    game = load_game("pig")
    state = game.new_initial_state(0)
    bot = ismcts_from_name("ismcts-0.05s", game, 0, 1)
    assert bot.act(state.view(0), state.legal_actions(0)) in state.legal_actions(0)
    assert bot.last_iterations >= 1


@pytest.mark.parametrize("seat", [0, 1])
def test_simultaneous_dominant_choice_is_found(seat: int) -> None:
    game = HighCard()
    state = game.new_initial_state(0)
    bot = ISMCTSBot(game, seat, 3, iterations=400)
    assert bot.act(state.view(seat), state.legal_actions(seat)) == Pick(seat, HighCard.TOP)


def test_pending_choice_of_the_other_seat_is_sampled_not_read() -> None:
    game = HighCard()
    state = game.new_initial_state(0)
    state.apply_action(Pick(0, 0), 0)  # seat 0 submits a weak card; seat 1 cannot see it
    view = state.view(1)
    assert "my_submission" not in view and view["submitted"] == [0]
    bot = ISMCTSBot(game, 1, 3, iterations=300)
    root = bot.search(view)
    assert bot.act(view, state.legal_actions(1)) == Pick(1, HighCard.TOP)
    # seat 0's pick was redrawn per determinization: seat 1 met more than one pick of it
    assert 0 not in root.edges, "a submitted seat must not choose again"
    outcomes = {child for child in root.children}
    assert len(outcomes) == HighCard.TOP + 1


def test_cooperative_search_backs_up_the_team_result() -> None:
    game = CoopExample(players=2)
    state = game.new_initial_state(1)
    bot = ISMCTSBot(game, 0, 2, iterations=300)
    root = bot.search(state.view(0))
    edges = root.edges[0]
    work = next(a for a in edges if str(a) == "work")
    rest = next(a for a in edges if str(a) == "rest")
    assert edges[work][0] > edges[rest][0], "working is what clears the shared threat"
    assert bot.act(state.view(0), state.legal_actions(0)) == work


def test_ismcts_beats_random_at_pig() -> None:
    game = load_game("pig")
    results, _ = run_playtest(game, ["ismcts-150", "random"], 24, seed=1)
    share = sum(r["returns"][r["bots"].index("ismcts-150")] for r in results) / len(results)
    assert share >= 0.7, f"ismcts-150 won only {share:.0%} against random at pig"


def test_heuristic_rollout_policy_plays_every_seat() -> None:
    game = CoopExample(players=2)
    state = game.new_initial_state(0)
    bot = make_bot("ismcts-40-worker", game, 0, 0)
    assert bot.rollout == "worker" and len(bot._policy) == 2
    assert bot.act(state.view(0), state.legal_actions(0)) in state.legal_actions(0)


def test_policy_opponents_keep_only_own_decisions_in_the_tree() -> None:
    game = HighCard()
    state = game.new_initial_state(0)
    bot = make_bot("ismcts-200-policy", game, 1, 4)
    assert bot.opponents == "policy"
    root = bot.search(state.view(1))
    assert set(root.edges) == {1}, "the other seat moves by the policy, not by a bandit"
    assert set(root.children) == {Pick(1, n) for n in range(HighCard.TOP + 1)}
    assert bot.act(state.view(1), state.legal_actions(1)) == Pick(1, HighCard.TOP)
    with pytest.raises(ParameterError, match="opponents"):
        ISMCTSBot(game, 0, opponents="nobody")


def test_widening_starts_from_the_rankings_best_and_widens_with_visits() -> None:
    game = HighCard()
    view = game.new_initial_state(0).view(0)
    narrow = ISMCTSBot(game, 0, 1, iterations=3, rollout="low-first", widening=1)
    assert set(narrow.search(view).edges[0]) == {Pick(0, 0)}, \
        "three visits keep the candidates to the ranking's best move"
    root = ISMCTSBot(game, 0, 1, iterations=64, rollout="low-first", widening=1).search(view)
    visits = {a.args[0]: e[0] for a, e in root.edges[0].items()}  # type: ignore[attr-defined]
    # k = 1 + floor(sqrt(n) / 2) candidates after n visits: the 2nd at n = 4, the 3rd at 16,
    # the 4th (the ranking's last) at 36
    assert set(visits) == set(range(HighCard.TOP + 1)), "64 visits widen to every move"
    assert visits[0] > visits[HighCard.TOP], "the best ranked move had a head start"


def test_widening_label_and_damocles_ranking() -> None:
    game = load_game("damocles", players=3)
    bot = make_bot("ismcts-30-w2", game, 0, 3)
    assert (bot.widening, bot.iterations, bot.rollout) == (2, 30, "heuristic")
    state = game.new_initial_state(5)
    heuristic = [make_bot("heuristic", game, s, 1) for s in range(3)]
    while state.phase != "turn":  # the simultaneous setup discards
        state.apply_actions({s: heuristic[s].act(state.view(s), state.legal_actions(s))
                             for s in state.current_players()})
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    values = make_bot("heuristic", game, seat, 1).action_values(state.view(seat), legal)
    assert len(values) == len(legal) and len(set(values)) > 1, "swaps are told apart"
    assert make_bot("ismcts-30-w2", game, seat, 3).act(state.view(seat), legal) in legal


def test_widening_needs_a_ranking_rollout_bot() -> None:
    with pytest.raises(ParameterError, match="widening"):
        ISMCTSBot(HighCard(), 0, widening=2)  # random rollouts rank nothing
    with pytest.raises(ParameterError, match="widening"):
        ISMCTSBot(HighCard(), 0, rollout="low-first", widening=0)


def _search_game(name: str, seed: int) -> list:
    """The steps of one game of ``name``: seat 0 the default-settings search at 3 iterations,
    the other seats the game's heuristic (random where it has none)."""
    from meeple.engine.episode import play_episode

    game = load_game(name)
    other = "heuristic" if "heuristic" in game.bot_factories() else "random"
    agents = [make_bot("ismcts-3" if s == 0 else other, game, s, seed)
              for s in range(game.players)]
    _, record = play_episode(game, seed, agents)
    return [dict(step) for step in record.steps]


@pytest.mark.parametrize("name", ["battle-of-the-four-gods", "damocles", "epoch-ellipse",
                                  "ozymandias-campaign", "ozymandias-market", "pig"])
def test_same_seed_gives_the_same_record_with_a_search_seat(name: str) -> None:
    """ISMCTS play is a function of the seeds: the same game seed and bot seed give the same
    record, step by step (the search's speed-ups must never change play, issue 22)."""
    first = _search_game(name, 3)
    assert first, "the game has steps"
    assert _search_game(name, 3) == first
