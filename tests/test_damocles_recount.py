"""Damocles recounted from records (issue 18, section 1): SCORING and the end rule.

The recount reads only the record's action texts and the rule document (seeds/damocles.txt):
"Each codex is worth the number of pips on the codex ... Codices are scored upon their initial
play; they cannot be scored twice", and "a consumed codex is immediately discarded, not to be
used again" (DAM-38, DAM-39 in docs/rules/damocles.md).
"""

from __future__ import annotations

import json

import pytest

from meeple.engine.errors import StateError
from meeple.engine.registry import load_game
from tests.recount import final_state, play_record, replay_steps, top_seats

#: SCORING, as printed: the worth of each codex type.
WORTH = {"GENERATE": 3, "COMBUST": 3, "ORACLE": 3, "ONE": 2, "TWO": 3, "THREE": 4, "HASTE": 1,
         "REFLEX": 2, "ANNEX": 2, "LYSE": 3, "SACRIFICE": 4, "EVISCERATE": 5}
PLAYS = ("haste", "play", "pair")


def recount_damocles(record) -> tuple[list[int], set[str]]:
    """Recount a Damocles record from SCORING: the seat that first plays a codex (``haste``,
    ``play`` or either codex of a ``pair``) gains its type's worth; any later play of the same
    codex (a tableau re-activation, an Annex borrow, or the bug: a consumed codex back from a
    reshuffle) gains nothing. Returns (points per seat, the ids first played)."""
    game = load_game(record.game, record.variant, record.players, **record.params)
    points = [0] * record.players
    played: set[str] = set()
    for step in record.steps:
        for seat, text in step.items():
            kind, *ids = text.split()
            if kind not in PLAYS:
                continue
            for cid in (i.rstrip("*") for i in ids):
                if cid not in played:
                    played.add(cid)
                    points[int(seat)] += WORTH[game.codex_by_id[cid].type]
    return points, played


def check_record(record) -> None:
    """The record's final scores equal the recount, the winners are the top recounted seats
    (DAM-29, shared), and no codex that has been played is ever in a hand, the deck or the
    discard pile again (consumed: out of the game; permanents: in a tableau or out)."""
    points, _ = recount_damocles(record)
    assert record.result["scores"] == [float(p) for p in points], (
        f"seed {record.seed}, {record.players} seats, {record.meta['bots']}: scores "
        f"{record.result['scores']} but the recount (first plays only) gives {points}")
    assert tuple(record.result["winners"]) == top_seats(points)
    played: set[str] = set()
    for _, joint, after in replay_steps(record):
        for text in joint.values():
            kind, *ids = text.split()
            if kind in PLAYS:
                played.update(i.rstrip("*") for i in ids)
        d = after.to_json()["data"]
        back = played & set(d["deck"] + d["discard"] + sum(d["hands"], []))
        assert not back, f"seed {record.seed}: played codices {sorted(back)} came back"


@pytest.mark.parametrize("bots,seeds", [
    (["heuristic"] * 4, range(0, 30)),
    (["random"] * 4, range(0, 40)),
    (["heuristic", "random", "heuristic", "random"], range(40, 60)),
    (["heuristic"] * 2, range(60, 80)),
    (["heuristic"] * 6, range(80, 95)),
], ids=["4heuristic", "4random", "4mixed", "2heuristic", "6heuristic"])
def test_scores_equal_first_play_recount(bots, seeds):
    """SCORING: over seeded default games, final scores = the pips of each codex's first play."""
    for seed in seeds:
        check_record(play_record("damocles", bots, seed))


@pytest.mark.parametrize("variant", ["future", "strict"])
def test_recount_holds_in_variants(variant):
    """The same recount under the modules (Destruction, DAM-39; Annex borrows score nothing,
    DAM-31) and the strict variant."""
    for seed in range(12):
        check_record(play_record("damocles", ["heuristic"] * 4, seed, variant=variant))


def test_small_deck_forces_reshuffles():
    """Six seats dealing 8 of 80 and drawing often: the deck runs out and the discard pile is
    reshuffled, yet no played codex returns and nothing scores twice (DAM-19, DAM-38)."""
    for seed in range(10):
        record = play_record("damocles", ["heuristic"] * 6, seed, cycles=20)
        check_record(record)


def test_removed_round_trips_and_old_states_load():
    """``removed`` (DAM-38, DAM-39) is part of the state's JSON: a state with codices out of the
    game reads back to an equal digest, and a state saved before the field existed loads with
    nothing out of the game."""
    record = play_record("damocles", ["heuristic"] * 4, 3, variant="future")
    state = final_state(record)
    data = json.loads(json.dumps(state.to_json()))
    assert data["data"]["removed"], "a default heuristic game consumes codices"
    game = state.game
    again = game.state_from_json(data)
    assert again.digest() == state.digest() and again.removed == state.removed
    removed = data["data"].pop("removed")
    with pytest.raises(StateError, match="in none of"):  # every codex must be somewhere
        game.state_from_json(data)
    data["data"]["discard"] += removed  # before DAM-38/39 they went to the discard pile
    old = game.state_from_json(data)
    assert old.removed == [] and old.scores() == state.scores()
