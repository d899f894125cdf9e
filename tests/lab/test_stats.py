"""Tests of meeple.lab.analysis.stats.summarize on synthetic results whose answers are known."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

from meeple.lab.analysis.stats import summarize, wilson_interval

SEATS = ["RED", "BLUE", "GREEN", "ORANGE"]


def game(index: int, winners: list[int], *, players: int = 4, bots: list[str] | None = None,
         scores: list[float] | None = None, length: int = 10, truncated: bool = False,
         seconds: float = 0.01) -> dict[str, Any]:
    """One result dict in the runner's shape; returns are win shares."""
    share = 1.0 / len(winners) if winners else 0.0
    return {
        "index": index,
        "seed": 1000 + index,
        "bots": bots or ["random"] * players,
        "winners": winners,
        "returns": [share if s in winners else 0.0 for s in range(players)],
        "scores": scores if scores is not None else [float(s) for s in range(players)],
        "length": length,
        "truncated": truncated,
        "seconds": seconds,
    }


def run(results: list[dict[str, Any]], *, players: int = 4, bots: list[str] | None = None,
        elapsed: float = 2.0) -> dict[str, Any]:
    return summarize(
        results, game="battle-of-the-four-gods", variant="standard", players=players,
        params={"start_energy": 7}, seed=42, bots=bots or ["random"],
        seat_names=SEATS[:players], length_unit="rounds", elapsed_seconds=elapsed, jobs=3,
    )


def rotated(i: int, mix: list[str]) -> list[str]:
    """``mix`` rotated left by ``i`` seats (the runner's way of rotating seatings)."""
    k = i % len(mix)
    return mix[k:] + mix[:k]


def plain_types(value: Any) -> bool:
    """True when ``value`` is made only of JSON's plain Python types."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_types(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_types(v) for v in value)
    return value is None or type(value) in (bool, int, float, str)


# ------------------------------------------------------------------------------- shape
def test_summary_keys_and_run_fields() -> None:
    s = run([game(i, [i % 4]) for i in range(8)], bots=["random", "heuristic"], elapsed=4.0)
    for key in ("game", "variant", "players", "params", "games", "seed", "bots", "jobs",
                "elapsed_seconds", "games_per_second", "seat_win_rate", "seat_balance",
                "bot_win_rate", "draw_rate", "truncated_rate", "length", "score",
                "skill_vs_luck"):
        assert key in s, key
    assert (s["game"], s["variant"], s["players"], s["games"], s["seed"], s["jobs"]) == (
        "battle-of-the-four-gods", "standard", 4, 8, 42, 3)
    assert s["bots"] == ["random", "heuristic"]
    assert s["params"] == {"start_energy": 7}
    assert s["games_per_second"] == pytest.approx(2.0)
    assert [e["name"] for e in s["seat_win_rate"]] == SEATS
    assert [e["seat"] for e in s["seat_win_rate"]] == [0, 1, 2, 3]
    assert set(s["length"]) >= {"unit", "mean", "median", "p90", "min", "max", "std"}
    assert set(s["score"]) >= {"mean", "std", "p10", "median", "p90", "winner_mean",
                               "margin_mean"}
    assert set(s["bot_win_rate"]["random"]) >= {"pairs", "wins", "rate", "ci_low", "ci_high",
                                                "fair_share", "edge", "p_value", "mean_return"}
    assert isinstance(s["skill_vs_luck"]["verdict"], str)


def test_summary_is_plain_json_without_nan() -> None:
    results = [game(i, [] if i % 3 == 0 else [i % 4], bots=rotated(i, ["a", "b", "b", "b"]))
               for i in range(30)]
    s = run(results)
    assert plain_types(s)
    assert json.loads(json.dumps(s, allow_nan=False)) == s


def test_zero_elapsed_gives_no_speed() -> None:
    assert run([game(0, [0])], elapsed=0.0)["games_per_second"] is None


# -------------------------------------------------------------------------- seat balance
def test_seat_zero_always_wins() -> None:
    s = run([game(i, [0]) for i in range(100)])
    rates = [e["rate"] for e in s["seat_win_rate"]]
    assert rates == [1.0, 0.0, 0.0, 0.0]
    assert s["seat_win_rate"][0]["wins"] == 100 and s["seat_win_rate"][0]["games"] == 100
    assert s["seat_balance"]["p_value"] < 1e-30
    assert s["seat_balance"]["chi2"] == pytest.approx(300.0)  # (75² + 3·25²) / 25
    assert s["seat_balance"]["test"] == (
        "chi-square goodness of fit of sole wins against equal seats")


def test_equal_wins_are_balanced() -> None:
    s = run([game(i, [i % 4]) for i in range(200)])
    assert [e["rate"] for e in s["seat_win_rate"]] == [0.25] * 4
    assert s["seat_balance"]["chi2"] == pytest.approx(0.0)
    assert s["seat_balance"]["p_value"] > 0.99


def test_mildly_uneven_wins_match_scipy_chisquare() -> None:
    winners = [0] * 30 + [1] * 25 + [2] * 22 + [3] * 23
    s = run([game(i, [w]) for i, w in enumerate(winners)])
    expected = sps.chisquare([30, 25, 22, 23])
    assert s["seat_balance"]["chi2"] == pytest.approx(expected.statistic)
    assert s["seat_balance"]["p_value"] == pytest.approx(expected.pvalue)
    assert s["seat_balance"]["p_value"] > 0.05


def test_wilson_interval_contains_rate_and_matches_scipy() -> None:
    winners = [0] * 13 + [1] * 40 + [2] * 7 + [3] * 0
    s = run([game(i, [w]) for i, w in enumerate(winners)])
    for entry, k in zip(s["seat_win_rate"], [13, 40, 7, 0], strict=True):
        ci = sps.binomtest(k, 60).proportion_ci(confidence_level=0.95, method="wilson")
        assert entry["rate"] == pytest.approx(k / 60)
        assert entry["ci_low"] == pytest.approx(ci.low)
        assert entry["ci_high"] == pytest.approx(ci.high)
        assert entry["ci_low"] <= entry["rate"] <= entry["ci_high"]
        assert 0.0 <= entry["ci_low"] < entry["ci_high"] <= 1.0
    assert s["seat_win_rate"][3]["ci_low"] == pytest.approx(0.0, abs=1e-12)
    assert s["seat_win_rate"][3]["ci_high"] > 0.0  # Wilson never collapses at k = 0


def test_wilson_interval_helper_rejects_bad_counts() -> None:
    low, high = wilson_interval(5, 10)
    assert low < 0.5 < high
    with pytest.raises(ValueError):
        wilson_interval(1, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# ---------------------------------------------------------------------------------- bots
def test_bot_pairs_counted_with_rotated_seatings() -> None:
    mix = ["heuristic", "random", "random", "random"]
    results = []
    for i in range(40):
        bots = rotated(i, mix)
        h = bots.index("heuristic")
        # heuristic wins games 0..19, a random seat (the one after it) wins 20..29,
        # games 30..39 are draws between the heuristic and the next seat
        winners = [h] if i < 20 else [(h + 1) % 4] if i < 30 else [h, (h + 1) % 4]
        results.append(game(i, winners, bots=bots))
    s = run(results, bots=["heuristic", "random"])
    h, r = s["bot_win_rate"]["heuristic"], s["bot_win_rate"]["random"]
    assert list(s["bot_win_rate"]) == ["heuristic", "random"]
    assert (h["pairs"], h["wins"]) == (40, 20)
    assert (r["pairs"], r["wins"]) == (120, 10)
    assert h["rate"] == pytest.approx(0.5) and r["rate"] == pytest.approx(10 / 120)
    # 10 of 40 games are draws, so equal bots would each win (1 - 0.25) / 4 of their seats
    fair = (1 - 10 / 40) / 4
    assert h["fair_share"] == r["fair_share"] == pytest.approx(fair) == s["fair_share"]
    assert s["nominal_share"] == 0.25
    assert h["edge"] == pytest.approx(0.5 - fair)
    assert r["edge"] == pytest.approx(10 / 120 - fair)
    assert h["p_value"] == pytest.approx(sps.binomtest(20, 40, fair).pvalue)
    assert r["p_value"] == pytest.approx(sps.binomtest(10, 120, fair).pvalue)
    # mean return: heuristic gets 1 in 20 games and 0.5 in 10 draws over 40 games
    assert h["mean_return"] == pytest.approx((20 + 5) / 40)
    assert r["mean_return"] == pytest.approx((10 + 5) / 120)
    ci = sps.binomtest(20, 40).proportion_ci(confidence_level=0.95, method="wilson")
    assert (h["ci_low"], h["ci_high"]) == (pytest.approx(ci.low), pytest.approx(ci.high))
    # every seat played each bot equally often, so the seat table sees 20 + 10 spread evenly
    assert sum(e["wins"] for e in s["seat_win_rate"]) == 30


def test_configured_bot_that_never_played_has_no_rate() -> None:
    s = run([game(i, [0]) for i in range(4)], bots=["random", "mcts"])
    assert s["bot_win_rate"]["mcts"]["pairs"] == 0
    assert s["bot_win_rate"]["mcts"]["rate"] is None
    assert s["bot_win_rate"]["random"]["pairs"] == 16


# ------------------------------------------------------------------------ skill vs luck
def skilled_results(n: int, heuristic_wins_every: int) -> list[dict[str, Any]]:
    """Heuristic (rotating seat) wins one game in ``heuristic_wins_every``; otherwise the seat
    after it wins."""
    results = []
    for i in range(n):
        bots = rotated(i, ["heuristic", "random", "random", "random"])
        h = bots.index("heuristic")
        results.append(game(i, [h] if i % heuristic_wins_every == 0 else [(h + 1) % 4],
                            bots=bots))
    return results


def test_verdict_names_a_bot_with_a_significant_edge() -> None:
    s = run(skilled_results(400, 2), bots=["heuristic", "random"])  # heuristic wins 50%
    svl = s["skill_vs_luck"]
    assert svl["comparable"] is True
    assert svl["skill_matters"] is True
    assert svl["bots"]["heuristic"]["significant"] is True
    assert svl["bots"]["heuristic"]["direction"] == "above"
    assert svl["bots"]["heuristic"]["edge_ci_low"] > 0
    assert "heuristic" in svl["verdict"]
    assert "50%" in svl["verdict"] and "25%" in svl["verdict"]
    assert "skill matters" in svl["verdict"]
    assert "cannot show" not in svl["verdict"]


def test_verdict_cannot_show_skill_without_an_edge() -> None:
    # heuristic wins exactly its fair share: every 4th game
    s = run(skilled_results(400, 4), bots=["heuristic", "random"])
    svl = s["skill_vs_luck"]
    assert s["bot_win_rate"]["heuristic"]["rate"] == pytest.approx(0.25)
    assert s["bot_win_rate"]["heuristic"]["p_value"] > 0.5
    assert svl["skill_matters"] is False
    assert not any(b["significant"] for b in svl["bots"].values())
    assert "cannot show" in svl["verdict"]
    assert "skill matters" not in svl["verdict"]


def test_verdict_with_too_few_games_says_so_and_how_many_are_needed() -> None:
    """20 games, heuristic at its fair share: no bot differs, but heuristic's 95% interval
    over 20 pairs is about +/- 18 points, far wider than the 5-point edge that matters. The
    verdict must not conclude "cannot show skill" but say how many games would do: the fewest
    at which heuristic's Wilson half-width at the fair share (25%, one pair a game) is 5
    points, 1.96^2 * 0.25 * 0.75 / 0.05^2 ~ 288 by the normal approximation."""
    from meeple.lab.analysis.precision import games_needed, wilson_half_width

    s = run(skilled_results(20, 4), bots=["heuristic", "random"])
    svl = s["skill_vs_luck"]
    assert "cannot show" not in svl["verdict"]
    assert "too few games to tell" in svl["verdict"]
    assert svl["skill_matters"] is None
    short = svl["too_few_games"]
    needed = short["games_needed"]
    assert needed == games_needed(0.25, 1.0) and 270 <= needed <= 300
    assert f"{needed:,} games" in svl["verdict"]
    assert wilson_half_width(0.25, needed) <= 0.05 < wilson_half_width(0.25, needed - 1)
    assert short["half_width"] == pytest.approx(
        (s["bot_win_rate"]["heuristic"]["ci_high"] - s["bot_win_rate"]["heuristic"]["ci_low"])
        / 2)
    # enough games: the same pattern is a conclusion again
    assert run(skilled_results(400, 4), bots=["heuristic", "random"])["skill_vs_luck"][
        "too_few_games"] is None


def test_too_few_games_never_hides_a_significant_edge() -> None:
    s = run(skilled_results(40, 1), bots=["heuristic", "random"])  # heuristic always wins
    assert s["skill_vs_luck"]["skill_matters"] is True
    assert "too few" not in s["skill_vs_luck"]["verdict"]


def test_verdict_with_one_bot_asks_for_two() -> None:
    s = run([game(i, [0]) for i in range(50)], bots=["random"])
    svl = s["skill_vs_luck"]
    assert svl["comparable"] is False
    assert svl["skill_matters"] is None
    assert "two or more" in svl["verdict"]
    assert "random" in svl["verdict"]


def test_draws_alone_do_not_count_as_skill() -> None:
    # bots are interchangeable but 60% of games are draws, so both sit far below 1/4; the
    # fair share accounts for the draws, (1 - 0.6) / 4 = 10%, so neither differs from it
    results = []
    for i in range(400):
        bots = rotated(i, ["a", "b", "b", "b"])
        a = bots.index("a")
        sole = a if (i // 5) % 4 == 0 else (a + 1) % 4  # a wins a quarter of the sole wins
        results.append(game(i, [0, 1] if i % 5 < 3 else [sole], bots=bots))
    s = run(results, bots=["a", "b"])
    svl = s["skill_vs_luck"]
    assert s["bot_win_rate"]["a"]["rate"] == pytest.approx(0.1)
    assert s["bot_win_rate"]["b"]["rate"] == pytest.approx(0.1)
    assert s["fair_share"] == pytest.approx(0.1)
    assert s["bot_win_rate"]["b"]["p_value"] > 0.5  # exactly at the draw-aware fair share
    assert s["bot_win_rate"]["b"]["edge"] == pytest.approx(0.0)
    assert svl["skill_matters"] is False
    assert "cannot show" in svl["verdict"]


def test_identical_bots_are_not_significantly_below_themselves() -> None:
    """Regression: with draws and the nominal 1/players, random looked worse than random."""
    results = []
    for i in range(4000):
        bots = ["random"] * 4
        winners = [0, 1] if i % 25 == 0 else [i % 4]  # 4% draws, sole wins evenly spread
        results.append(game(i, winners, bots=bots))
    s = run(results, bots=["random"])
    assert s["bot_win_rate"]["random"]["p_value"] > 0.5


# ------------------------------------------------------------------ draws and truncation
def test_draws_and_truncation_counted() -> None:
    results = [
        game(0, [0]),
        game(1, [1, 2]),  # shared win: a draw
        game(2, []),  # nobody won: a draw
        game(3, [3], truncated=True),
        game(4, [0, 1, 2, 3], truncated=True),
    ]
    s = run(results)
    assert s["draw_rate"] == pytest.approx(3 / 5)  # games 1, 2 and 4
    assert s["truncated_rate"] == pytest.approx(2 / 5)
    assert [e["wins"] for e in s["seat_win_rate"]] == [1, 0, 0, 1]
    assert all(e["games"] == 5 for e in s["seat_win_rate"])
    assert s["seat_balance"]["observed"] == [1, 0, 0, 1]


def test_all_draws() -> None:
    s = run([game(i, [0, 1], bots=rotated(i, ["a", "b", "b", "b"])) for i in range(20)],
            bots=["a", "b"])
    assert s["draw_rate"] == 1.0
    assert all(e["rate"] == 0.0 for e in s["seat_win_rate"])
    assert s["seat_balance"]["chi2"] is None and s["seat_balance"]["p_value"] is None
    assert "no game had a sole winner" in s["seat_balance"]["note"]
    assert s["score"]["winner_mean"] is None and s["score"]["margin_mean"] is None
    assert s["bot_win_rate"]["a"]["wins"] == 0 and s["bot_win_rate"]["b"]["pairs"] == 60
    # 20 games leave a's interval (0 of 20) about +/- 8 points wide: too few to conclude
    assert s["skill_vs_luck"]["skill_matters"] is None
    assert "too few games to tell" in s["skill_vs_luck"]["verdict"]


def test_single_seat() -> None:
    results = [game(i, [0], players=1, scores=[float(i)], length=i + 1) for i in range(5)]
    s = run(results, players=1)
    assert s["seat_win_rate"][0]["rate"] == 1.0
    assert s["seat_balance"]["p_value"] is None
    assert "single seat" in s["seat_balance"]["note"]
    assert s["bot_win_rate"]["random"]["fair_share"] == 1.0
    assert s["bot_win_rate"]["random"]["edge"] == pytest.approx(0.0)
    assert s["score"]["winner_mean"] == pytest.approx(2.0)
    assert s["score"]["margin_mean"] is None  # no other seat to beat


# -------------------------------------------------------------------- length and scores
def test_length_statistics_of_a_known_list() -> None:
    lengths = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    s = run([game(i, [0], length=n) for i, n in enumerate(lengths)])
    length = s["length"]
    assert length["unit"] == "rounds"
    assert length["mean"] == pytest.approx(5.5)
    assert length["median"] == pytest.approx(5.5)
    assert length["p90"] == pytest.approx(9.1)  # linear interpolation: 9 + 0.1·(10 - 9)
    assert (length["min"], length["max"]) == (1, 10)
    assert isinstance(length["min"], int)
    assert length["std"] == pytest.approx(math.sqrt(8.25))  # population std of 1..10


def test_score_statistics() -> None:
    results = [
        game(0, [0], scores=[10.0, 4.0, 6.0, 0.0]),  # margin 10 - 6 = 4
        game(1, [2], scores=[1.0, 2.0, 5.0, 3.0]),  # margin 5 - 3 = 2
        game(2, [1, 3], scores=[0.0, 9.0, 1.0, 9.0]),  # draw: no winner score, no margin
    ]
    s = run(results)
    all_scores = np.array([10, 4, 6, 0, 1, 2, 5, 3, 0, 9, 1, 9], dtype=float)
    assert s["score"]["mean"] == pytest.approx(all_scores.mean())
    assert s["score"]["std"] == pytest.approx(all_scores.std())
    assert s["score"]["median"] == pytest.approx(np.median(all_scores))
    assert s["score"]["p10"] == pytest.approx(np.percentile(all_scores, 10))
    assert s["score"]["p90"] == pytest.approx(np.percentile(all_scores, 90))
    assert s["score"]["winner_mean"] == pytest.approx(7.5)
    assert s["score"]["margin_mean"] == pytest.approx(3.0)


# ---------------------------------------------------------------------------- bad input
def test_zero_games_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no games"):
        run([])


@pytest.mark.parametrize(
    "broken, message",
    [
        ({"winners": [4]}, "not a seat"),
        ({"winners": [1, 1]}, "repeat"),
        ({"scores": [1.0, 2.0]}, "scores has 2 entries"),
        ({"bots": ["a"] * 5}, "bots has 5 entries"),
    ],
)
def test_malformed_results_are_rejected(broken: dict[str, Any], message: str) -> None:
    bad = {**game(1, [0]), **broken}
    with pytest.raises(ValueError, match=message):
        run([game(0, [0]), bad])


def test_missing_key_and_seat_name_mismatch_are_rejected() -> None:
    incomplete = game(0, [0])
    del incomplete["truncated"]
    with pytest.raises(ValueError, match="truncated"):
        run([incomplete])
    with pytest.raises(ValueError, match="seat names"):
        summarize([game(0, [0])], game="g", variant="v", players=4, params={}, seed=0,
                  bots=["random"], seat_names=["A", "B"], length_unit="turns",
                  elapsed_seconds=1.0, jobs=1)
