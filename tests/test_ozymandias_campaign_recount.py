"""Ozymandias, campaign edition, recounted from records (issue 18): Collapse scoring and Victory.

The recount reads the record's action texts and, before each step, the replayed state's public
view (each tableau card's suit, rank, cubes, tapped flag and workers, and the seat's unrest):
never the game's scoring code. From the rule document (seeds/ozymandias-campaign.md, restated in
docs/rules/ozymandias-campaign.md):

- Collapse (OZW-8..10): tapped cards collapse at intake; a card with a (harvest) worker and at
  least rank - unrest cubes scores 1/3/6/10/15 for 1/2/3/4/5+ matching cubes, capped at rank
  less unrest, one level higher with a laid-down worker; VP change nowhere else;
- Victory (OZW-38): the first seat to reach ``target_vp`` at an intake triggers the end; every
  other seat takes one more turn; the most VP wins (shared, or the first tied seat in turn order
  after the trigger under ``turn_order``);
- the safety cap (X-5, OZW-51): after ``max_rounds`` x players turns, truncated, ties shared.
"""

from __future__ import annotations

import pytest

from meeple.engine.registry import load_game
from tests.recount import play_record, replay_steps, top_seats

LEVEL_VP = (0, 1, 3, 6, 10, 15, 21)  # Collapse: 1/3/6/10/15 VP, and the next level up
SUITS = {"G": "GOLD", "R": "RED", "B": "BLUE"}  # the notation's suit initials


def collapse_vp(card: dict, unrest: int, params: dict) -> int:
    """VP of one collapsing tableau card (a view entry: ``suit``, ``rank``, ``cubes``,
    ``laid``, ``harvest``) for a seat with ``unrest``, from the Collapse section."""
    if not card["harvest"]:
        return 0
    cap = max(0, card["rank"] - unrest)
    matching = card["cubes"].get(card["suit"], 0)
    total = sum(card["cubes"].values())
    if params["threshold"] == "total" and total < cap:
        return 0
    if params["threshold"] == "matching" and matching < cap:
        return 0
    level = min(matching, cap, 5)
    if card["laid"] and (level >= 1 or params["bonus_from_zero"]):
        level += 1
    return LEVEL_VP[level]


def recount_campaign(record) -> dict:
    """Recount a campaign record: VP per seat after every step (checked against the replayed
    view), the trigger, the last turn and the winners. Returns ``{"vp", "turns", "winners",
    "truncated", "scored"}`` (``scored``: collapses that gained VP)."""
    game = load_game(record.game, record.variant, record.players, **record.params)
    p = game.params
    n = record.players
    vp = [0] * n
    turns = 0
    order: list[int] = []  # the seat of each completed turn
    trigger = trigger_turn = None
    winners = None
    truncated = False
    scored = 0
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    for before, joint, after in replay_steps(record):
        assert winners is None, f"{label}: a step after the end"
        view, now = before.view(None), after.view(None)
        seat = view["active"]
        text = joint.get(seat, "")
        if view["step"] in ("mode", "distribute") and text.split()[0] in ("intake", "cube",
                                                                          "pass"):
            tableau = [dict(c, cubes=dict(c["cubes"])) for c in view["players"][seat]["tableau"]]
            if text.startswith("cube "):  # the last cube placed, then the collapse
                _, initial, pos = text.split()
                suit = SUITS[initial]
                cubes = tableau[int(pos) - 1]["cubes"]
                cubes[suit] = cubes.get(suit, 0) + 1
            if now["step"] != "distribute" or now["turns"] != view["turns"]:
                unrest = view["players"][seat]["unrest"]
                for card in tableau:
                    if card["tapped"]:
                        gain = collapse_vp(card, unrest, p)
                        vp[seat] += gain
                        scored += gain > 0
                if trigger is None and vp[seat] >= p["target_vp"]:
                    trigger, trigger_turn = seat, turns
        assert [s["vp"] for s in now["players"]] == vp, (
            f"{label} after {joint}: vp {[s['vp'] for s in now['players']]}, recount {vp}")
        if now["turns"] == view["turns"]:
            assert now["winners"] is None, f"{label}: the game ended inside a turn"
            continue
        turns += 1
        order.append(seat)
        if trigger is not None and turns == trigger_turn + n:  # every other seat: one more
            after_trigger = order[trigger_turn + 1:] + [trigger]
            winners = top_seats(vp)
            if len(winners) > 1 and p["tiebreak"] == "turn_order":
                winners = (next(s for s in after_trigger if s in winners),)
        if turns >= p["max_rounds"] * n and winners is None:
            winners, truncated = top_seats(vp), True
        assert (now["winners"] is not None) == (winners is not None), (
            f"{label} turn {turns}: the end (trigger {trigger} at turn {trigger_turn})")
    return {"vp": vp, "turns": turns, "winners": winners, "truncated": truncated,
            "scored": scored}


def check_record(record) -> dict:
    """The record's final VP, winners and truncation equal the recount."""
    out = recount_campaign(record)
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    assert out["winners"] is not None, f"{label}: the recount never ends the game"
    assert record.result["scores"] == [float(v) for v in out["vp"]], label
    assert tuple(record.result["winners"]) == out["winners"], label
    assert record.result["truncated"] == out["truncated"], label
    return out


@pytest.mark.parametrize("variant,bots,seeds,params", [
    ("seed", ["heuristic"] * 3, range(0, 20), {}),
    ("seed", ["heuristic"] * 2, range(40, 50), {}),
    ("seed", ["heuristic", "random", "heuristic", "random"], range(50, 56), {}),
    ("seed", ["random"] * 3, range(20, 24), {"max_rounds": 12}),
    ("cfa0da0", ["heuristic"] * 4, range(60, 68), {}),
    ("e935810", ["heuristic"] * 3, range(70, 76), {}),
    ("literal", ["heuristic"] * 3, range(80, 86), {}),
], ids=["seed-3heuristic", "seed-2heuristic", "seed-4mixed", "seed-random-capped", "cfa0da0",
        "e935810", "literal"])
def test_collapse_vp_and_victory_recount(variant, bots, seeds, params):
    """Collapse scoring at every intake, the trigger and the one more turn each, the winner."""
    scored = 0
    for seed in seeds:
        scored += check_record(play_record("ozymandias-campaign", bots, seed, variant=variant,
                                           **params))["scored"]
    if "heuristic" in bots:
        assert scored > 0  # the scoring rule was exercised


@pytest.mark.parametrize("params", [
    {"threshold": "matching", "bonus_from_zero": True},
    {"threshold": "none", "target_vp": 12},
], ids=["matching-bonus0", "no-threshold"])
def test_scoring_switches_recount(params):
    """The threshold and bonus switches (OZW-8, OZW-9) and a lower target (OZW-38)."""
    for seed in range(6):
        check_record(play_record("ozymandias-campaign", ["heuristic"] * 3, seed, **params))


def test_round_cap_truncates_with_shared_ties():
    """X-5 / OZW-51: a game stopped by ``max_rounds`` is truncated and ties are shared, even
    under ``tiebreak=turn_order``."""
    truncated = 0
    for seed in range(6):
        truncated += check_record(play_record("ozymandias-campaign", ["heuristic"] * 3, seed,
                                              variant="cfa0da0", max_rounds=4))["truncated"]
    assert truncated == 6
