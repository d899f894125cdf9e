"""Ozymandias, market edition, recounted from records (issue 18): every scoring and end rule.

The recount reads the record's action texts and, before each step, the replayed state's public
view (the map, the market, the played cards): never the game's scoring code. From the rule
document (seeds/ozymandias-market.md, docs/rules/ozymandias-market.md):

- faction value (OZD-5): the number of sectors whose top disk is that colour;
- Trade cards, score points (OZD-16, OZD-17, OZD-19, OZD-21): a market trade scores
  max(0, value(given) - value(taken)), read at the trade; a deck-top trade scores 0;
- TRIBUTE (E7): value(colour) - ``minus``, read now;
- Collapse an empire (OZD-22..24): after the last trade, a colour with the strict most cards in
  the market loses every top disk; a tie destroys nothing;
- the end (OZD-27) at the end of a round only, and the winner (OZD-28): most VP, shared, or the
  lowest rank revealed in the last round under ``lowest_rank``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.engine.registry import load_game
from tests.recount import play_record, replay_steps, top_seats

COLOUR = {"R": "RED", "W": "WHITE", "B": "BLUE", "K": "BLACK"}


def values(view) -> Counter:
    """Faction values (OZD-5) from a view's map: sectors per top colour."""
    return Counter(stack[-1] for _, _, stack in view["map"] if stack)


def collapse(view_map, market: list[str]) -> list:
    """The map after Collapse: the strict majority colour of ``market`` loses its top disks."""
    counts = Counter(COLOUR[c[0]] for c in market)
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return [list(x) for x in view_map]
    loser = ranked[0][0]
    return [[q, r, stack[:-1] if stack and stack[-1] == loser else list(stack)]
            for q, r, stack in view_map]


def recount_market(record) -> dict:
    """Recount a market-edition record: VP per seat after every step (checked against the
    replayed view), the map after each collapse, the end round and the winners. Returns
    ``{"vp", "rounds", "winners", "truncated", "tributes", "collapses"}``."""
    game = load_game(record.game, record.variant, record.players, **record.params)
    p = game.params
    n = record.players
    vp = [0] * n
    rounds = 0
    trade_actions = 0
    ranks: dict[int, int] = {}
    winners = None
    truncated = False
    tributes = collapses = 0
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    for before, joint, after in replay_steps(record):
        assert winners is None, f"{label}: a step after the end"
        view = before.view(None)
        market = list(view["market"])
        for seat, text in joint.items():
            kind, *args = text.split()
            if kind == "plan":
                ranks[seat] = int(args[0][1:])
            elif kind == "tribute":
                card = view["played"][seat]
                colour = COLOUR[card[0]]
                minus = dict(game.card_by_rank[int(card[1:])].params)["minus"]
                vp[seat] += values(view)[colour] - minus
                tributes += 1
            elif kind == "trade":
                given, taken = args
                if taken != "deck":
                    v = values(view)
                    vp[seat] += max(0, v[COLOUR[given[0]]] - v[COLOUR[taken[0]]])
                    market[market.index(taken)] = given
                trade_actions += 1
            elif kind == "done" and trade_actions:
                trade_actions += 1
        end_view = after.view(None)
        assert end_view["vp"] == vp, f"{label} after {joint}: vp {end_view['vp']}, recount {vp}"
        if trade_actions < 2 * n:
            continue
        # the round's last trade: Collapse, refresh, end check (only here, OZD-27)
        trade_actions = 0
        rounds += 1
        expected = collapse(view["map"], market)
        collapses += expected != [list(x) for x in view["map"]]
        assert [list(x) for x in end_view["map"]] == expected, f"{label} round {rounds}: collapse"
        if p["end"] == "vp":
            ended = max(vp) >= p["target_vp"]
        elif p["end"] == "rounds":
            ended = rounds >= p["max_rounds"]
        elif p["end"] == "colour_dead":
            ended = any(d >= p["disks_per_colour"] for d in end_view["dead"].values())
        else:
            ended = end_view["phase"] == "over"  # deck_out: not recounted here
        if not ended and rounds >= p["max_rounds"]:
            ended = truncated = True
        assert (end_view["phase"] == "over") == ended, f"{label} round {rounds}: end check"
        if ended:
            winners = top_seats(vp)
            if len(winners) > 1 and p["tiebreak"] == "lowest_rank":
                winners = (min(winners, key=lambda s: ranks[s]),)
    return {"vp": vp, "rounds": rounds, "winners": winners, "truncated": truncated,
            "tributes": tributes, "collapses": collapses}


def check_record(record) -> dict:
    """The record's final VP, winners, length and truncation equal the recount."""
    out = recount_market(record)
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    assert out["winners"] is not None, f"{label}: the recount never ends the game"
    assert record.result["scores"] == [float(v) for v in out["vp"]], label
    assert tuple(record.result["winners"]) == out["winners"], label
    assert record.result["length"] == out["rounds"], label
    assert record.result["truncated"] == out["truncated"], label
    return out


@pytest.mark.parametrize("variant,bots,seeds", [
    ("seed", ["heuristic"] * 3, range(0, 20)),
    ("seed", ["random"] * 3, range(20, 35)),
    ("seed", ["heuristic", "random"], range(35, 50)),
    ("seed", ["heuristic", "random", "heuristic", "random"], range(50, 60)),
    ("v2015", ["heuristic"] * 3, range(60, 72)),
    ("explore", ["heuristic", "random", "heuristic"], range(72, 82)),
    ("2017tie", ["heuristic"] * 4, range(82, 94)),
], ids=["seed-3heuristic", "seed-3random", "seed-2mixed", "seed-4mixed", "v2015", "explore",
        "2017tie"])
def test_vp_collapse_end_and_winner_recount(variant, bots, seeds):
    """Trade scoring, Tribute, Collapse, the end check and the winner, over seeded games."""
    totals = Counter()
    for seed in seeds:
        out = check_record(play_record("ozymandias-market", bots, seed, variant=variant))
        totals.update(collapses=out["collapses"], tributes=out["tributes"])
    assert totals["collapses"] > 0  # the collapse rule was exercised


def test_round_limit_and_lowest_rank_ties():
    """``end=rounds`` (OZD-27) with a short game and the ``lowest_rank`` tiebreak (OZD-28),
    where short games tie often."""
    for seed in range(12):
        check_record(play_record("ozymandias-market", ["random"] * 4, seed, end="rounds",
                                 max_rounds=2, tiebreak="lowest_rank"))


def test_round_cap_truncates_and_most_vp_wins():
    """X-5 / OZD-27: under ``end=vp`` a game still short of ``target_vp`` after ``max_rounds``
    ends truncated, and the most VP wins (shared)."""
    truncated = 0
    for seed in range(10):
        truncated += check_record(play_record("ozymandias-market", ["heuristic"] * 3, seed,
                                              max_rounds=3))["truncated"]
    assert truncated == 10
