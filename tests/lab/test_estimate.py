"""The run-time estimate (meeple.lab.run.estimate): a probe game timed per decision."""

from __future__ import annotations

import time

import pytest

import meeple.bots
from meeple.engine.agent import Bot
from meeple.engine.registry import load_game
from meeple.lab.run.estimate import Stage, estimate_run, format_duration, game_seconds
from meeple.lab.run.runner import run_playtest

GAME = "battle-of-the-four-gods"


class SleepyBot(Bot):
    """Plays a random legal move after sleeping a fixed 5 ms (a slow bot of known cost)."""

    name = "sleepy"

    def act(self, view, legal_actions):
        time.sleep(0.005)
        return self.rng.choice(list(legal_actions))


@pytest.fixture
def sleepy(monkeypatch):
    monkeypatch.setitem(meeple.bots.GENERIC_BOTS, "sleepy", SleepyBot)


def test_the_estimate_of_a_slow_bot_is_within_a_factor_of_two_of_the_measured_time(sleepy):
    game = load_game(GAME, players=2)
    estimate = estimate_run([Stage("s", game, ["sleepy", "random"], 4)], jobs=1)
    _, measured = run_playtest(game, ["sleepy", "random"], 4, seed=0, jobs=1)
    assert measured > 0.1  # the sleeps dominate
    assert measured / 2 <= estimate.seconds <= measured * 2, (estimate.seconds, measured)
    assert estimate.workers == 1 and "probe game" in estimate.line()


def test_a_probe_cut_short_is_extrapolated_by_the_game_length(sleepy):
    game = load_game(GAME, players=2)
    full, cut = game_seconds(game, ["sleepy", "random"], budget=60.0)
    part, extrapolated = game_seconds(game, ["sleepy", "random"], budget=0.05)
    assert not cut and extrapolated
    assert full / 3 <= part <= full * 3


def test_reused_stages_cost_nothing_and_workers_divide_the_games():
    game = load_game(GAME, players=2)
    one = estimate_run([Stage("a", game, ["random"], 40)], jobs=1)
    reused = estimate_run([Stage("a", game, ["random"], 40, reused=True),
                           Stage("b", game, ["random"], 40)], jobs=1)
    assert reused.stage_seconds[0] == 0.0 and reused.stage_seconds[1] > 0
    assert one.seconds == pytest.approx(40 * one.game_seconds["random,random"])


def test_format_duration():
    assert format_duration(0.42) == "0.4 s"
    assert format_duration(42) == "42 s"
    assert format_duration(185) == "3 min 05 s"
    assert format_duration(7800) == "2 h 10 min"
