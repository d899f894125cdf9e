"""Battle of the Four Gods recounted from records (issue 18): energy, eliminations, the winner.

The recount reads only the record (its parameters and the selection texts) and the rule book
(seeds/battle-of-the-four-gods.md, restated in docs/rules/battle-of-the-four-gods.md):

- Results 1: each indicator costs energy (``attack_cost`` / ``defend_cost``, B4G-25);
- Results 2: an attack the target did not defend against costs it ``damage``; a defended one
  refunds ``defend_refund`` (B4G-8); all simultaneous, from the energies before the round
  (B4G-7), and a seat that falls this round still acts (B4G-12);
- the stall drain (B4G-14), before the elimination check;
- Results 3: energy <= 0 eliminates (B4G-10);
- Winning the Game: the last seat standing at the end of a round; if all fall in one round, the
  highest energy among them, ties shared (B4G-13); the ``max_rounds`` cap (X-5).

It never calls the game's resolution code: the replayed states are read only for their public
``energy`` and ``alive`` after each round, to be compared with the recount round by round.
"""

from __future__ import annotations

import pytest

from tests.recount import play_record, replay_steps, top_seats

INITIALS = "RBGO"  # seat colours by initial, clockwise from RED (B4G-2)


def parse(text: str) -> tuple[set[int], set[int]]:
    """A canonical selection text (``pass``, ``atk:BG def:R``, maybe `` reveal``) as
    (attacked seats, seats defended against)."""
    attacks: set[int] = set()
    defends: set[int] = set()
    for word in text.split():
        if word.startswith("atk:"):
            attacks = {INITIALS.index(c) for c in word[4:]}
        elif word.startswith("def:"):
            defends = {INITIALS.index(c) for c in word[4:]}
        else:
            assert word in ("pass", "reveal"), f"unexpected selection text {text!r}"
    return attacks, defends


def recount_four_gods(record, check_round=None) -> dict:
    """Recount a Four Gods record from the rule book. ``check_round(r, energy, alive, after)``
    is called after each resolved round with the recount and the replayed state. Returns
    ``{"energy", "alive", "winners", "truncated", "rounds"}``."""
    p = record.params
    n = record.players
    energy = [p["start_energy"]] * n
    alive = [True] * n
    stall = 0
    rounds = 0
    winners: tuple[int, ...] | None = None
    truncated = False
    chosen: dict[int, str] = {}
    for _, joint, after in replay_steps(record):
        assert winners is None, "a step after the game ended"
        for seat, text in joint.items():
            assert alive[seat], f"eliminated seat {seat} acted"
            chosen[seat] = text
        if set(chosen) != {s for s in range(n) if alive[s]}:
            continue  # the round resolves when every alive seat has submitted
        rounds += 1
        picks = {s: parse(t) for s, t in chosen.items()}
        chosen = {}
        delta = [0] * n
        for a, (attacks, defends) in picks.items():
            delta[a] -= p["attack_cost"] * len(attacks) + p["defend_cost"] * len(defends)
            assert all(alive[t] for t in attacks | defends), "an eliminated colour (B4G-11)"
        for a, (attacks, _) in picks.items():
            for t in attacks:
                delta[t] += p["defend_refund"] if a in picks[t][1] else -p["damage"]
        stall = stall + 1 if all(d == 0 for d in delta) else 0
        drain = p["stall_drain"] if p["stall_rounds"] > 0 and stall > p["stall_rounds"] else 0
        was_alive = [s for s in range(n) if alive[s]]
        for s in was_alive:
            energy[s] += delta[s] - drain
            if energy[s] <= 0:
                alive[s] = False
        standing = [s for s in range(n) if alive[s]]
        if len(standing) == 1:
            winners = tuple(standing)
        elif not standing:
            fallen = [energy[s] for s in was_alive]
            winners = tuple(was_alive[i] for i in top_seats(fallen))
        elif rounds == p["max_rounds"]:
            truncated = True
            winners = tuple(standing[i] for i in top_seats([energy[s] for s in standing]))
        if check_round is not None:
            check_round(rounds, energy, alive, after)
    return {"energy": energy, "alive": alive, "winners": winners, "truncated": truncated,
            "rounds": rounds}


def check_record(record) -> dict:
    """The replayed energies and eliminations equal the recount after every round, and the
    record's final scores (energies), winners and truncation equal the recounted ones."""
    def each_round(r, energy, alive, after):
        view = after.view(None)
        assert view["energy"] == energy, (
            f"seed {record.seed} round {r}: energy {view['energy']}, recount {energy}")
        assert view["alive"] == alive, f"seed {record.seed} round {r}: eliminations differ"

    out = recount_four_gods(record, each_round)
    label = f"seed {record.seed} {record.variant} {record.meta['bots']}"
    assert record.result["scores"] == [float(e) for e in out["energy"]], label
    assert out["winners"] is not None, f"{label}: the recount never ends the game"
    assert tuple(record.result["winners"]) == out["winners"], label
    assert record.result["truncated"] == out["truncated"], label
    assert record.result["length"] == out["rounds"], label
    return out


@pytest.mark.parametrize("variant,bots,seeds", [
    ("seed", ["heuristic", "random", "heuristic", "random"], range(0, 25)),
    ("seed", ["random"] * 4, range(25, 50)),
    ("rulebook-2018-04", ["heuristic"] * 4, range(50, 75)),
    ("server-2018-04", ["heuristic", "random", "random", "heuristic"], range(75, 100)),
    ("playtest-r2", ["heuristic"] * 3, range(100, 125)),
    ("playtest-r2", ["random"] * 2, range(125, 150)),
], ids=["seed-mixed", "seed-random", "rulebook-heuristic", "server-mixed", "r2-3heuristic",
        "r2-2random"])
def test_energy_eliminations_and_winner_recount(variant, bots, seeds):
    """Results 1-3 and Winning the Game, recounted round by round over seeded games."""
    for seed in seeds:
        check_record(play_record("battle-of-the-four-gods", bots, seed, variant=variant))


def test_everyone_falls_together_highest_energy_wins():
    """Results 3 / Winning the Game (B4G-13) and the stall drain (B4G-14): with no indicators
    allowed every round stalls, the drain fells every seat in the same round, and the recount's
    tie rule (highest energy among those who fell, shared) must match the record."""
    outcomes = set()
    for seed in range(6):
        record = play_record("battle-of-the-four-gods", ["random"] * 4, seed,
                             variant="gdd-2018-02", start_energy=4, max_actions=0,
                             stall_rounds=2, stall_drain=2)
        out = check_record(record)
        assert not any(out["alive"])
        outcomes.add(out["winners"])
    assert outcomes == {(0, 1, 2, 3)}  # equal energies throughout: a four-way shared win


def test_drain_and_attacks_with_unequal_energies():
    """The stall drain together with attacks (gdd-2018-02 with a short fuse): the recount of
    the drain's timing (after ``stall_rounds`` stalled rounds, reset by any change) and of the
    ensuing eliminations must match round by round."""
    for seed in range(10):
        check_record(play_record("battle-of-the-four-gods", ["heuristic", "random"], seed,
                                 variant="gdd-2018-02", start_energy=12, stall_rounds=1,
                                 stall_drain=3))


def test_round_cap_truncates_and_the_highest_alive_wins():
    """X-5: at ``max_rounds`` with two or more alive, the game is truncated and the highest
    energy among the alive wins (ties shared)."""
    truncated = 0
    for seed in range(10):
        record = play_record("battle-of-the-four-gods", ["heuristic"] * 4, seed, max_rounds=6)
        truncated += check_record(record)["truncated"]
    assert truncated == 10
