"""Tests of meeple.lab.analysis.diagnostics and the report's diagnostics section (report_extra)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from scipy import stats as sps

from meeple.lab.analysis.diagnostics import diagnose, holm, mantel_haenszel, margins
from meeple.lab.analysis.stats import difference_interval, summarize, wilson_interval
from meeple.lab.pages.report import write_report
from meeple.lab.pages.report_extra import DIAGNOSTIC_PLOTS

SEATS = ["RED", "BLUE"]


def result(i: int, winners: list[int], scores: list[float], *, bots=("a", "b"), length=10,
           truncated=False, lead_changes=0, before=None, eliminations=(), actions=None,
           cards=None) -> dict[str, Any]:
    return {"index": i, "seed": i, "bots": list(bots), "winners": winners,
            "returns": [1.0 if s in winners else 0.0 for s in range(2)], "scores": scores,
            "length": length, "truncated": truncated, "seconds": 0.01,
            "lead_changes": lead_changes, "leader_before_final": before,
            "eliminations": [list(e) for e in eliminations],
            "actions": actions or [{"move": 1}, {"move": 1}],
            "cards": cards or [{}, {}]}


def test_holm_adjusts_step_down_and_keeps_order_and_gaps():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, None, 0.001]) == [pytest.approx(0.5), None, pytest.approx(0.002)]
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # 2 x 0.8 capped at 1, then monotone
    assert holm([0.2, 0.01]) == pytest.approx([0.2, 0.02])


def test_mantel_haenszel_one_stratum_is_the_plain_difference():
    a, n1, b, n0 = 300, 1000, 250, 1000
    mh = mantel_haenszel([(a, n1, b, n0)])
    p1, p0 = a / n1, b / n0
    se = math.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
    assert mh["difference"] == pytest.approx(p1 - p0)
    assert mh["ci"] == pytest.approx([p1 - p0 - 1.959964 * se, p1 - p0 + 1.959964 * se],
                                     abs=1e-5)
    # one stratum: CMH = (N - 1) / N times Pearson's chi-square
    pearson = sps.chi2_contingency([[a, n1 - a], [b, n0 - b]], correction=False).statistic
    assert mh["p_value"] == pytest.approx(sps.chi2.sf(pearson * 1999 / 2000, 1))


def test_mantel_haenszel_removes_confounding_by_stratum():
    # a strong bot plays the card a lot and wins 80% either way; a weak one wins 10% either way
    mh = mantel_haenszel([(80, 100, 40, 50), (5, 50, 10, 100)])
    assert mh["difference"] == pytest.approx(0.0, abs=1e-12)
    assert mh["p_value"] == pytest.approx(1.0)
    # pooled, the card looks strong: 85/150 vs 50/150
    assert mantel_haenszel([(85, 150, 50, 150)])["difference"] > 0.2
    assert mantel_haenszel([(1, 1, 0, 0)]) == {"difference": None, "ci": None, "p_value": None}


def test_first_seat_draws_truncation_and_margins():
    results = ([result(i, [0], [10, 4]) for i in range(6)]
               + [result(6 + i, [1], [3, 5]) for i in range(3)]
               + [result(9, [0, 1], [5, 5], truncated=True)])
    d = diagnose(results, players=2, seat_names=SEATS)
    fair = (1 - 0.1) / 2
    fs = d["first_seat"]
    assert fs["wins"] == 6 and fs["fair_share"] == pytest.approx(fair)
    assert fs["advantage"] == pytest.approx(0.6 - fair)
    low, high = wilson_interval(6, 10)
    assert fs["advantage_ci"] == pytest.approx([low - fair, high - fair])
    assert fs["p_value"] == pytest.approx(sps.binomtest(6, 10, fair).pvalue)
    assert d["draws"]["k"] == 1 and d["truncation"]["k"] == 1
    assert d["truncation"]["ci_low"] == pytest.approx(wilson_interval(1, 10)[0])
    assert margins(results) == [6.0] * 6 + [2.0] * 3
    assert d["margin"]["mean"] == pytest.approx(42 / 9) and d["margin"]["n"] == 9


def test_lead_changes_distribution():
    results = [result(i, [0], [1, 0], lead_changes=c) for i, c in enumerate([0, 1, 1, 3])]
    lead = diagnose(results, players=2, seat_names=SEATS)["lead_changes"]
    assert lead["mean"] == pytest.approx(1.25)
    assert lead["distribution"] == {"0": 1, "1": 2, "3": 1}
    assert lead["share_with_change"]["k"] == 3


def test_a_card_that_wins_is_flagged_and_a_neutral_one_is_not():
    results = []
    for i in range(200):
        winner = i % 2
        cards = [{}, {}]
        cards[winner]["ACE"] = 1  # the winner always played ACE
        cards[0]["TWO"] = cards[1]["TWO"] = 1 if i % 4 < 2 else 0  # both or neither
        results.append(result(i, [winner], [1, 0] if winner == 0 else [0, 1], cards=cards))
    d = diagnose(results, players=2, seat_names=SEATS)
    rows = {r["key"]: r for r in d["cards"]["keys"]}
    ace, two = rows["ACE"], rows["TWO"]
    assert ace["times"] == 200 and ace["units"] == 200 and ace["games"] == 200
    assert ace["win_rate"] == 1.0 and ace["rest_win_rate"] == 0.0
    assert ace["flag"] == "wins more" and d["cards"]["flagged"] == ["ACE"]
    assert two["win_rate"] == pytest.approx(0.5) and two["flag"] is None
    # two bots ("a" in seat 0, "b" in seat 1): the comparison is stratified by bot
    assert "Mantel-Haenszel" in d["cards"]["method"]


def test_single_bot_uses_newcombe_and_fisher():
    results = []
    for i in range(40):
        winner = i % 2
        cards = [{"X": 1} if winner == 0 else {}, {}]
        results.append(result(i, [winner], [1, 0], bots=("r", "r"), cards=cards))
    d = diagnose(results, players=2, seat_names=SEATS)
    x = d["cards"]["keys"][0]
    assert "Fisher" in d["cards"]["method"]
    assert x["difference"] == pytest.approx(1.0 - 20 / 60)
    assert x["difference_ci"] == pytest.approx(list(difference_interval(20, 20, 20, 60)))


def test_eliminations_order_end_and_last_elimination_deciding():
    results = [
        # RED out at 3; BLUE survives and was leading going into the end: held on
        result(0, [1], [0, 5], eliminations=[(0, 3)], before=1, length=3),
        # BLUE out at 4; RED wins though BLUE led: the last elimination decided it
        result(1, [0], [2, 0], eliminations=[(1, 4)], before=1, length=4),
        # both fall together in round 5
        result(2, [0], [0, -1], eliminations=[(0, 5), (1, 5)], before=0, length=5),
        # truncated without elimination
        result(3, [0], [3, 1], truncated=True, length=9),
    ]
    elim = diagnose(results, players=2, seat_names=SEATS)["eliminations"]
    assert elim["games_with_elimination"]["k"] == 3
    # the two seats of game 2 fell in the same resolution: tied, both counted first
    assert elim["order"][0]["by_seat"] == {"RED": 2, "BLUE": 2}
    assert elim["order"][0]["tied"] == 1
    assert elim["order"][0]["length"]["mean"] == pytest.approx(4.0)
    assert len(elim["order"]) == 1
    assert elim["ended_by"] == {"last survivor": {"count": 2, "rate": 0.5},
                                "all remaining fell together": {"count": 1, "rate": 0.25},
                                "truncated": {"count": 1, "rate": 0.25}}
    decided = elim["last_elimination_decided"]
    assert (decided["k"], decided["n"]) == (1, 3)
    seats = {s["name"]: s for s in elim["seats"]}
    assert seats["RED"]["first_out"]["k"] == 2 and seats["BLUE"]["eliminated"]["k"] == 2
    assert seats["BLUE"]["first_out"]["k"] == 2
    assert seats["RED"]["first_out_tied"] == seats["BLUE"]["first_out_tied"] == 1


def test_simultaneous_eliminations_are_tied_not_lowest_seat_first():
    """Four players; in every game seats 0 and 2 fall in the same resolution (round 4), then
    seat 3 alone (round 6). The old code put seat 0 (lower number) first every time, making
    it look targeted; tied, seats 0 and 2 share the first place equally."""
    results = []
    for i in range(12):
        r = result(i, [1], [0, 9, 0, 2], eliminations=[(0, 4), (2, 4), (3, 6)], before=1,
                   length=6)
        r["bots"], r["returns"] = ["a", "b", "a", "b"], [0.0, 1.0, 0.0, 0.0]
        r["actions"], r["cards"] = [{"move": 1}] * 4, [{}] * 4
        results.append(r)
    elim = diagnose(results, players=4, seat_names=["RED", "BLUE", "GREEN", "GOLD"])[
        "eliminations"]
    first, second = elim["order"]
    assert first["games"] == 12 and first["tied"] == 12
    assert first["by_seat"] == {"RED": 12, "BLUE": 0, "GREEN": 12, "GOLD": 0}
    assert second["by_seat"] == {"RED": 0, "BLUE": 0, "GREEN": 0, "GOLD": 12}
    assert second["length"]["mean"] == pytest.approx(6.0)
    seats = {s["name"]: s for s in elim["seats"]}
    assert seats["RED"]["first_out"]["k"] == seats["GREEN"]["first_out"]["k"] == 12
    assert seats["GOLD"]["first_out"]["k"] == 0


def test_untraced_results_get_the_rest_and_cooperative_games_drop_competitive_parts():
    plain = [{k: v for k, v in result(i, [i % 2], [1, 0]).items()
              if k not in ("lead_changes", "leader_before_final", "eliminations", "actions",
                           "cards")} for i in range(4)]
    d = diagnose(plain, players=2, seat_names=SEATS)
    assert d["traced"] is False and d["first_seat"]["games"] == 4
    assert d["lead_changes"] is d["cards"] is d["actions"] is d["eliminations"] is None
    coop = [{**result(i, [0, 1], [4, 4], cards=[{"ham": 1}, {}]),
             "outcome": {"team_win": i % 2 == 0, "cause": "won" if i % 2 == 0 else "combat"}}
            for i in range(6)]
    d = diagnose(coop, players=2, seat_names=SEATS, cooperative=True)
    assert d["first_seat"] is None and d["draws"] is None and d["lead_changes"] is None
    assert d["cards"]["unit"] == "game" and d["cards"]["keys"][0]["win_rate"] == 0.5


def test_summary_and_report_carry_the_diagnostics(tmp_path: Path):
    results = [result(i, [i % 3 % 2], [3, 1] if i % 3 % 2 == 0 else [1, 3], lead_changes=i % 2,
                      before=0, eliminations=[(1 - i % 3 % 2, 7)], length=7,
                      cards=[{"ACE": 1}, {"TWO": 1}]) for i in range(30)]
    summary = summarize(results, game="g", variant="v", players=2, params={}, seed=0,
                        bots=["a", "b"], seat_names=SEATS, length_unit="rounds",
                        elapsed_seconds=1.0, jobs=1)
    assert summary["diagnostics"]["first_seat"]["games"] == 30
    page = write_report(summary, results, tmp_path).read_text()
    assert "Designer's diagnostics" in page and "Per card" in page and "Eliminations" in page
    assert page.index("Designer's diagnostics") < page.index("<h2>Plots</h2>")
    made = {p.name for p in tmp_path.iterdir()}
    assert {"margin.png", "lead_changes.png", "eliminations.png", "cards.png",
            "actions.png"} <= made <= made | set(DIAGNOSTIC_PLOTS)


def test_a_card_that_stands_out_from_the_typical_card_is_an_outlier():
    results = []
    for i in range(160):
        winner = i % 2
        cards = [{}, {}]
        for j in range(4):  # K0..K3: both seats or neither, so no link with winning
            if (i >> (j + 1)) & 1:
                cards[0][f"K{j}"] = cards[1][f"K{j}"] = 1
        cards[winner]["STRONG"] = 1
        results.append(result(i, [winner], [1, 0], bots=("r", "r"), cards=cards))
    section = diagnose(results, players=2, seat_names=SEATS)["cards"]
    rows = {r["key"]: r for r in section["keys"]}
    assert section["typical_difference"] == pytest.approx(0.0)
    assert section["outliers"] == ["STRONG"]
    assert rows["STRONG"]["outlier"] == "stronger than most"
    assert all(rows[f"K{j}"]["outlier"] is None and rows[f"K{j}"]["p_outlier_holm"] == 1.0
               for j in range(4))


def test_rarely_played_cards_do_not_set_the_typical_card():
    """Four common cards with no link to winning and five cards played once each, by the
    winner: the plain median of the nine differences is a rare card's (about +50 points), which
    made every common card 'weaker than most'. Weighted by units, the typical is the common
    cards' 0 and no common card stands out."""
    results = []
    for i in range(160):
        winner = i % 2
        cards = [{}, {}]
        for j in range(4):
            if (i >> (j + 1)) & 1:
                cards[0][f"K{j}"] = cards[1][f"K{j}"] = 1
        if i < 5:
            cards[winner][f"RARE{i}"] = 1
        results.append(result(i, [winner], [1, 0], bots=("r", "r"), cards=cards))
    section = diagnose(results, players=2, seat_names=SEATS)["cards"]
    assert abs(section["typical_difference"]) < 0.02
    assert not any(k.startswith("K") for k in section["outliers"])
