"""The run-time estimate (meeple.lab.run.estimate): probe games timed per decision, searches
scaled by their measured cost."""

from __future__ import annotations

import time

import pytest

import meeple.bots
from meeple.engine.agent import Bot
from meeple.engine.registry import load_game
from meeple.lab.run import estimate
from meeple.lab.run.estimate import (
    PROBE_GAMES,
    PROBE_ITERATIONS,
    Stage,
    estimate_run,
    format_duration,
    game_seconds,
    probe_label,
    probe_lineup,
    search_scale,
)
from meeple.lab.run.runner import run_playtest

GAME = "battle-of-the-four-gods"


class SleepyBot(Bot):
    """Plays a random legal move after sleeping a fixed 5 ms (a slow bot of known cost)."""

    name = "sleepy"

    def act(self, view, legal_actions):
        time.sleep(0.005)
        return self.rng.choice(list(legal_actions))


class SquareSearch(Bot):
    """A stand-in search whose decision costs ``COST * iterations ** 2`` seconds, slept (or
    added to ``clock`` when one is set): deeper trees cost more per iteration, as Damocles'
    and the campaign's searches do."""

    name = "square"
    COST = 3e-6
    clock = None

    def __init__(self, game, seat, seed=0):
        super().__init__(game, seat, seed)
        self.iterations, self.seconds = 40, None

    def act(self, view, legal_actions):
        cost = self.COST * self.iterations ** 2
        if self.clock is None:
            time.sleep(cost)
        else:
            self.clock.now += cost
        return self.rng.choice(list(legal_actions))


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def sleepy(monkeypatch):
    monkeypatch.setitem(meeple.bots.GENERIC_BOTS, "sleepy", SleepyBot)
    monkeypatch.setitem(meeple.bots.GENERIC_BOTS, "square", SquareSearch)


# sleepy costs the same at every decision; square is a search whose cost grows with the
# square of its iterations: scaled by its iterations alone, its estimate would be about a
# quarter of the measured time
@pytest.mark.parametrize(("bot", "within"), [("sleepy", 2.0), ("square", 1.6)])
def test_the_estimate_is_close_to_the_measured_time(sleepy, bot, within):
    game = load_game(GAME, players=2)
    est = estimate_run([Stage("s", game, [bot, "random"], 4)], jobs=1)
    _, measured = run_playtest(game, [bot, "random"], 4, seed=0, jobs=1)
    assert measured > 0.1  # the sleeps dominate
    assert measured / within <= est.seconds <= measured * within, (est.seconds, measured)
    assert est.workers == 1 and "probe game" in est.line()


def test_a_probe_cut_short_is_extrapolated_by_the_game_length(sleepy):
    game = load_game(GAME, players=2)
    full, cut = game_seconds(game, ["sleepy", "random"], budget=60.0)
    part, extrapolated = game_seconds(game, ["sleepy", "random"], budget=0.05)
    assert not cut and extrapolated
    assert full / 3 <= part <= full * 3


def test_a_search_is_scaled_by_its_measured_cost_not_by_its_iterations(sleepy, monkeypatch):
    game = load_game(GAME, players=2)
    clock = FakeClock()
    monkeypatch.setattr(SquareSearch, "clock", clock)
    probe = probe_lineup(game, ["square", "random"], budget=60.0, clock=clock)
    assert 0 < len(probe.samples) <= estimate.SCALE_SAMPLES
    # 40 iterations cost (40 / 10) ** 2 = 16 times the probe's 10, not the linear 4
    assert search_scale(game, "square", probe.samples, clock=clock) == pytest.approx(16)
    assert search_scale(game, "square", (), clock=clock) == 40 / PROBE_ITERATIONS
    seconds, _ = game_seconds(game, ["square", "random"], budget=60.0, clock=clock)
    assert seconds == pytest.approx(16 * probe.seconds[0])


def test_probes_play_several_games_within_their_budget(sleepy):
    game = load_game(GAME, players=2)
    quick = probe_lineup(game, ["random", "random"], budget=60.0)
    assert quick.games == PROBE_GAMES and not quick.extrapolated
    cut = probe_lineup(game, ["sleepy", "random"], budget=0.05)
    assert cut.games == 1 and cut.extrapolated


def test_a_game_started_within_the_budget_plays_to_its_end(sleepy, monkeypatch):
    # leaving out (or extrapolating) the games cut short favoured short games
    game = load_game(GAME, players=2)
    clock = FakeClock()
    monkeypatch.setattr(SquareSearch, "clock", clock)
    first = probe_lineup(game, ["square", "random"], budget=1e9, clock=clock, games=1)
    clock.now = 0.0
    budget = 1.2 * sum(first.seconds)
    probe = probe_lineup(game, ["square", "random"], budget=budget, clock=clock)
    assert probe.games == 2 and not probe.extrapolated
    assert clock.now > budget  # the second game went past the budget, to its end


def test_line_ups_that_probe_as_the_same_bots_share_one_probe(sleepy, monkeypatch):
    game = load_game(GAME, players=2)
    probed = []
    real = estimate.probe_lineup

    def counting(game, names, *args, **kwargs):
        probed.append(tuple(names))
        return real(game, names, *args, **kwargs)

    monkeypatch.setattr(estimate, "probe_lineup", counting)
    est = estimate_run([Stage("a", game, ["ismcts-20", "random"], 2),
                        Stage("b", game, ["ismcts-80", "random"], 2),
                        Stage("c", game, ["ismcts-5", "random"], 2)], jobs=1)
    assert probed == [("ismcts-20", "random"), ("ismcts-5", "random")]
    per_game = est.game_seconds
    assert per_game["ismcts-80,random"] > per_game["ismcts-20,random"]


def test_probe_labels_drop_the_budget():
    assert probe_label("ismcts-45", 10) == probe_label("ismcts-90", 10) == "ismcts-10"
    assert probe_label("ismcts-0.5s-heuristic", 10) == "ismcts-heuristic-10"
    assert probe_label("ismcts-heuristic-200", 10) == "ismcts-heuristic-10"
    assert probe_label("ismcts-400-c0.3", 10) != probe_label("ismcts-400", 10)
    assert probe_label("heuristic", None) == "heuristic"


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
