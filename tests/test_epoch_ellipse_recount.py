"""Epoch Ellipse recounted from records (issue 18): the win and loss conditions.

The recount reads the replayed states' public views (every location's tokens, every seat's
status and discard pile, as card names) and the public card file, never the game's result code.
From the rule document (seeds/epoch-ellipse.txt, restated in docs/rules/epoch-ellipse.md):

- WIN/LOSE and 3F (EPE-27, EPE-52): a location with no catastrophe tokens is Recovered and worth
  its VP (the Graveyard 0); when the Recovered VP reach ``target_vp`` the team wins at once;
- EPE-28: at a team win each seat whose survivor is alive wins, the others lose;
- DEATH (EPE-34): an alive player's discard pile never holds 3 catastrophes;
- WIN/LOSE, "All players lose if no Survivors remain alive" (EPE-29): a day never starts with no
  alive seat, and a lost game ends with none alive;
- the day cap (EPE-46, X-5): reached, the game ends truncated, a loss for every seat.
"""

from __future__ import annotations

import pytest

from meeple.engine.registry import load_game
from tests.recount import play_record, replay_steps


def recovered_vp(view, location_vp: dict[str, int]) -> int:
    """3F: the VP of every location in play with no catastrophe token (the Graveyard 0)."""
    return sum(0 if loc["name"] == "GRAVEYARD" else location_vp[loc["name"]]
               for loc in view["locations"] if loc["tokens"] == 0)


def recount_epoch(record) -> dict:
    """Recount an Epoch Ellipse record step by step: the win the moment the Recovered VP reach
    the target, the death trigger, the loss and the cap. Returns ``{"result", "vp",
    "winners", "days"}`` (result ``won``, ``lost`` or ``truncated``)."""
    game = load_game(record.game, record.variant, record.players, **record.params)
    p = game.params
    content = game.content
    location_vp = {loc.name: loc.vp for loc in content.locations}
    catastrophe = {c.name for c in content.cards if c.kind == "CATASTROPHE"}
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    result = None
    winners: tuple[int, ...] = ()
    vp = 0
    view = None
    for _, joint, after in replay_steps(record):
        assert result is None, f"{label}: a step after the end"
        view = after.view(None)
        vp = recovered_vp(view, location_vp)
        alive = [s for s, pl in enumerate(view["players"]) if pl["status"] == "alive"]
        for s in alive:
            dangers = sum(name in catastrophe for name in view["players"][s]["discard"])
            assert dangers < 3, f"{label} day {view['day']}: seat {s} alive with {dangers}"
        if vp >= p["target_vp"]:
            result, winners = "won", tuple(alive)
        elif view["phase"] == "over":
            if view["day"] >= p["max_days"] and alive:
                result = "truncated"
            else:
                assert not alive, f"{label}: the game ended with seats {alive} alive"
                result = "lost"
        elif view["phase"] == "plan":
            assert alive, f"{label} day {view['day']}: a day began with nobody alive"
        assert (view["phase"] == "over") == (result is not None), (
            f"{label} after {joint}: phase {view['phase']}, recount {result} ({vp} VP)")
    assert view is not None
    assert view["day"] <= p["max_days"], f"{label}: played past the day cap"
    return {"result": result, "vp": vp, "winners": winners, "days": view["day"]}


def check_record(record) -> dict:
    """The record's result (winners, returns, truncation, scores = Recovered VP per seat)
    equals the recount."""
    out = recount_epoch(record)
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    assert out["result"] is not None, f"{label}: the recount never ends the game"
    res = record.result
    assert tuple(res["winners"]) == out["winners"], label
    assert res["returns"] == [1.0 if s in out["winners"] else 0.0
                              for s in range(record.players)], label
    assert res["truncated"] == (out["result"] == "truncated"), label
    assert res["scores"] == [float(out["vp"])] * record.players, label
    return out


@pytest.mark.parametrize("variant,bots,seeds", [
    ("seed", ["heuristic"] * 3, range(0, 20)),
    ("seed", ["heuristic"], range(20, 40)),
    ("seed", ["heuristic", "heuristic", "random"], range(40, 55)),
    ("seed", ["random"] * 3, range(55, 75)),
    ("hard", ["heuristic"] * 3, range(75, 90)),
    ("d6", ["heuristic"] * 2, range(90, 100)),
    ("forgiving", ["heuristic"] * 4, range(100, 108)),
], ids=["seed-3heuristic", "seed-1heuristic", "seed-mixed", "seed-3random", "hard", "d6",
        "forgiving"])
def test_win_and_loss_recount(variant, bots, seeds):
    """WIN/LOSE, 3F, DEATH: the result of every seeded game equals the recount."""
    results = {check_record(play_record("epoch-ellipse", bots, seed, variant=variant))["result"]
               for seed in seeds}
    assert results <= {"won", "lost"}


def test_both_outcomes_occur():
    """The recount is exercised on wins (with a dead seat among the winners' team) and on
    losses: a one-seat heuristic team wins about 37% of games."""
    outs = [check_record(play_record("epoch-ellipse", ["heuristic"], seed))
            for seed in range(200, 230)]
    assert {o["result"] for o in outs} == {"won", "lost"}


def test_day_cap_truncates_as_a_loss():
    """EPE-46 / X-5: a team still short of the target after ``max_days`` loses, truncated."""
    outs = [check_record(play_record("epoch-ellipse", ["heuristic"] * 3, seed, max_days=2))
            for seed in range(10)]
    assert any(o["result"] == "truncated" for o in outs)
