"""Damocles: the rule document's scenarios (T-DAM-1..11) and the decisions DAM-n, one test each.

Scenario ids T-DAM-n and decision ids DAM-n refer to /work/shared/notes/rules-questions.md
section 1 (and docs/rules/damocles.md). Scenarios are built by editing ``state.to_json()`` of a
fresh game (codices are moved between zones, never invented) and reading it back with
``game.state_from_json``; moves are typed in the canonical notation and applied through the
public API, so legality is always the engine's own.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from meeple import load_game
from meeple.bots import make_bot
from meeple.engine.errors import ActionParseError, IllegalActionError, NotYourTurnError
from meeple.games.damocles.codex import CIRCLE, TYPES
from meeple.games.damocles.content import DEFAULT_DECK_PATH, DeckError
from meeple.games.damocles.matching import match_mask, relaxed_variants

GAME = "damocles"
H, P, A, D, N = range(5)  # HADES, POSEIDON, ARTEMIS, DEMETER, NYX

#: The seed's SCORING paragraph, written out independently of the implementation (T-DAM-2).
VALUE = {"GENERATE": 3, "COMBUST": 3, "ORACLE": 3, "ONE": 2, "TWO": 3, "THREE": 4, "HASTE": 1,
         "REFLEX": 2, "ANNEX": 2, "LYSE": 3, "SACRIFICE": 4, "EVISCERATE": 5}


# ------------------------------------------------------------------------------ helpers
def make(players: int = 2, variant: str | None = None, **params: Any):
    return load_game(GAME, variant=variant, players=players, **params)


def scenario(game, circle, hands, tableaus=None, *, active=0, step="play", points=None,
             deck_top=(), discard=(), turns_taken=0, seed=0, **turn: Any):
    """A mid-turn state of ``game``: ``circle`` (god indices), ``hands`` / ``tableaus`` as
    {seat: [ids]}, ``deck_top`` drawn first-to-last, every other codex in the deck (so the
    game's codices are conserved). ``step`` "play" means the one swap is done; ``turn``
    overrides turn-context fields (relax_tokens, consumed, ...)."""
    state = game.new_initial_state(seed)
    d = json.loads(json.dumps(state.to_json()))
    data = d["data"]
    n = game.players
    hand_lists = [list(hands.get(s, ())) for s in range(n)]
    tableau_lists = [list((tableaus or {}).get(s, ())) for s in range(n)]
    placed = ([c for zone in hand_lists + tableau_lists for c in zone] + list(deck_top)
              + list(discard) + list(turn.get("consumed", ())) + list(turn.get("keep_pool", ())))
    assert len(placed) == len(set(placed)), "a codex placed twice"
    assert set(placed) <= set(game.codex_by_id), "a codex not in the game's deck"
    rest = [c.id for c in game.deck if c.id not in set(placed)]
    bank = game.params["bank"]
    data.update(
        circle=list(circle), deck=rest + list(reversed(deck_top)), discard=list(discard),
        hands=hand_lists, tableaus=tableau_lists, points=list(points or [0] * n),
        phase="turn", placer=0, placed=CIRCLE, active=active, turns_taken=turns_taken,
        events=[], winners_=None, step=step, swaps_allowed=1,
        swaps_done=0 if step == "pre" else 1, relax_tokens=0, annex_played=False,
        annex_available=False, pair_played=False, pairs_used=[], consumed=[], granted=[],
        keep_pool=[], keep_count=0, destroy_queue=[],
        bank=None if bank == "infinite" else
        [4] * 5 if bank == "separate4" else [4 - list(circle).count(g) for g in range(5)],
    )
    data.update(turn)
    out = game.state_from_json(d)
    assert_conserved(out)
    return out


def zones(state) -> Counter:
    """Every codex id in every zone (deck, discard, out of the game, hands, tableaus, consumed,
    keep pool)."""
    d = state.to_json()["data"]
    ids = d["deck"] + d["discard"] + d["removed"] + d["consumed"] + d["keep_pool"]
    for zone in d["hands"] + d["tableaus"]:
        ids += zone
    return Counter(ids)


def assert_conserved(state) -> None:
    assert zones(state) == Counter(c.id for c in state.game.deck)


def act(state, text: str, seat: int | None = None) -> None:
    """Parse ``text`` for ``seat`` (default: the only acting seat) and apply it."""
    if seat is None:
        (seat,) = state.current_players()
    state.apply_action(state.game.parse_action(text, seat), seat)
    assert_conserved(state)


def legal(state, seat: int | None = None) -> set[str]:
    if seat is None:
        (seat,) = state.current_players()
    return {str(m) for m in state.legal_actions(seat)}


def data(state) -> dict[str, Any]:
    return state.to_json()["data"]


def matches(game, circle, cid, relaxed=False) -> bool:
    p = game.params
    return bool(match_mask(tuple(circle), game.codex_by_id[cid].pattern,
                           p["match"] == "rotational", relaxed, p["mirror"]))


def fit(game, ids, fill=A, base=None) -> list[int]:
    """A circle on which every codex in ``ids`` matches as printed (some rotation each), the
    remaining slots filled with ``fill``."""
    patterns = [game.codex_by_id[c].pattern for c in ids]

    def rec(i, circle):
        if i == len(patterns):
            return circle
        for r in range(CIRCLE):
            c = list(circle)
            ok = True
            for offset, god in patterns[i]:
                s = (r + offset) % CIRCLE
                if c[s] is None:
                    c[s] = god
                elif c[s] != god:
                    ok = False
                    break
            if ok and (found := rec(i + 1, c)) is not None:
                return found
        return None

    found = rec(0, list(base) if base else [None] * CIRCLE)
    assert found is not None, f"no circle fits {ids}"
    circle = [fill if g is None else g for g in found]
    assert all(matches(game, circle, c) for c in ids)
    return circle


def keeping_swap(state, ids) -> str:
    """A legal swap after which every codex in ``ids`` still matches (no relaxation)."""
    for move in state.legal_actions(state.current_players()[0]):
        if move.kind not in ("swap", "trade"):
            continue
        trial = state.clone()
        trial.apply_action(move, move.seat)
        if all(matches(state.game, data(trial)["circle"], c) for c in ids):
            return str(move)
    raise AssertionError("no swap keeps the patterns")


def hand(state, seat: int) -> list[str]:
    return list(data(state)["hands"][seat])


def tableau(state, seat: int) -> list[str]:
    return list(data(state)["tableaus"][seat])


def points(state) -> list[int]:
    return list(data(state)["points"])


@pytest.fixture(scope="module")
def extra_deck(tmp_path_factory) -> Path:
    """The packaged deck plus GEN-11 Poseidon (1), Hades (2), Nyx (3): a Generate that fits
    the T-DAM-3 circles (the packaged deck has none), and every module."""
    raw = json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))
    raw["codices"].append({"id": "GEN-11", "type": "GENERATE",
                           "pattern": [[1, "POSEIDON"], [2, "HADES"], [3, "NYX"]]})
    path = tmp_path_factory.mktemp("deck") / "extra.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ T-DAM-1
def test_t_dam_1_score_by_pips_then_replay_scores_nothing() -> None:
    g = make(2)
    circle = [N, P, N, H, H, H, A]  # Nyx . Nyx: a gap of 1
    assert g.codex_by_id["ONE-03"].pattern == ((0, N), (2, N))  # the seed's "Nyx (1,3)"
    assert matches(g, circle, "ONE-03") and matches(g, circle, "GEN-01")
    s = scenario(g, circle, {0: ["ONE-03", "GEN-01", "TWO-08"], 1: ["THR-01"]},
                 deck_top=["HAS-03", "HAS-04"])
    assert "pair GEN-01 ONE-03" in legal(s)
    act(s, "pair GEN-01 ONE-03")
    assert points(s) == [2 + 3, 0]
    assert sorted(hand(s, 0)) == ["HAS-03", "TWO-08"]  # two played, one drawn from the top
    assert sorted(tableau(s, 0)) == ["GEN-01", "ONE-03"]  # permanents go to the tableau
    assert "pair GEN-01 ONE-03" not in legal(s)  # each pair once per turn (DAM-15)
    act(s, "end")
    act(s, keeping_swap(s, ["GEN-01", "ONE-03"]))  # seat 1 swaps without breaking it
    act(s, "end")
    assert s.current_players() == (0,)
    act(s, keeping_swap(s, ["GEN-01", "ONE-03"]))
    before = len(hand(s, 0))
    act(s, "pair GEN-01 ONE-03")  # the same pair next turn: re-activated from the tableau
    assert points(s) == [5, 0]  # +0 (DAM-18)
    assert len(hand(s, 0)) == before + 1 and "HAS-04" in hand(s, 0)  # +1 codex


# ------------------------------------------------------------------------------ T-DAM-2
@pytest.mark.parametrize("type_name", sorted(VALUE))
def test_t_dam_2_value_table(type_name: str) -> None:
    g = make(2, "future")
    assert TYPES[type_name].pips == VALUE[type_name]
    of_type = [c for c in g.deck if c.type == type_name]
    assert of_type and all(c.pips == len(c.pattern) == VALUE[type_name] for c in of_type)
    # ... and playing one scores exactly its value
    codex = of_type[0]
    cls = codex.info.cls
    tableaus = {}
    if cls in ("PRODUCTION", "NUMBER"):
        wanted = "NUMBER" if cls == "PRODUCTION" else "PRODUCTION"
        partner = next(c.id for c in g.deck if c.info.cls == wanted and c.type != "COMBUST"
                       and _fits(g, [codex.id, c.id]))
        ids = [codex.id, partner]
        move = (f"pair {codex.id} {partner}" if cls == "PRODUCTION"
                else f"pair {partner} {codex.id}")
    else:
        ids, move = [codex.id], f"play {codex.id}"
        if type_name == "SACRIFICE":
            tableaus = {0: ["GEN-01"]}
    s = scenario(g, fit(g, ids), {0: ids}, tableaus)
    act(s, move)
    while data(s)["step"] == "destroy":
        act(s, str(s.legal_actions(0)[0]))
    assert points(s)[0] == sum(VALUE[g.codex_by_id[c].type] for c in ids)


def _fits(game, ids) -> bool:
    try:
        fit(game, ids)
    except AssertionError:
        return False
    return True


# ------------------------------------------------------------------------------ T-DAM-3
@pytest.mark.parametrize("circle, reflex", [
    ([D, D, A, P, H, N, A], "REF-01"),  # Demeter (1,2): the gap fully shrunk
    ([D, A, D, P, H, N, A], "REF-08"),  # Demeter (1,3): the gap partly shrunk
])
def test_t_dam_3_reflex_example(extra_deck: Path, circle, reflex: str) -> None:
    g = load_game(GAME, players=2, deck=str(extra_deck))
    assert g.codex_by_id["ONE-01"].pattern == ((0, D), (3, D))  # the seed's Demeter (1,4)
    assert not matches(g, circle, "ONE-01") and matches(g, circle, "ONE-01", relaxed=True)
    assert matches(g, circle, "GEN-11") and matches(g, circle, reflex)
    s = scenario(g, circle, {0: ["ONE-01", "GEN-11", reflex]})
    assert not [m for m in legal(s) if m.startswith("pair")]  # without Reflex: illegal
    with pytest.raises(IllegalActionError):
        act(s, "pair GEN-11 ONE-01")
    act(s, f"play {reflex}")
    assert points(s)[0] == 2 and data(s)["relax_tokens"] == 1
    pairs = [m for m in legal(s) if m.startswith("pair")]
    assert pairs == ["pair GEN-11 ONE-01*"]  # with Reflex: legal, the One is relaxed
    with pytest.raises(IllegalActionError):
        act(s, "pair GEN-11* ONE-01")  # relaxing the Generate does not help
    act(s, "pair GEN-11 ONE-01*")
    assert points(s)[0] == 2 + 3 + 2
    assert data(s)["relax_tokens"] == 0
    assert len(hand(s, 0)) == 1  # one codex granted


def test_t_dam_3_gap_of_three_is_illegal_even_with_reflex() -> None:
    """Demeter (1,5) against the One Demeter (1,4): the gap would have to grow.

    Under rotational matching (DAM-1 b) two Demeters at (1,5) are also at (5,8) = (1,4) read
    from slot 5, so the literal T-DAM-3 case matches without a Reflex on a circle of seven;
    the "gap of 3" can only be tested where the start is fixed (``match=absolute``), and a
    growing gap is tested under rotation with a 3-pip pattern below."""
    rot = make(2)
    assert matches(rot, [D, N, A, P, D, H, A], "ONE-01")  # the wrap-around reading
    g = make(2, "absolute")
    gap3 = [D, N, A, P, D, H, A]  # Demeter at positions 1 and 5
    assert matches(g, gap3, "GEN-10")  # Demeter (1), Nyx (2), Artemis (3)
    assert not matches(g, gap3, "ONE-01", relaxed=True)
    s = scenario(g, gap3, {0: ["ONE-01", "GEN-10"]}, relax_tokens=1, consumed=["REF-01"])
    assert not [m for m in legal(s) if m.startswith("pair")]
    # control: the printed gap matches as printed at rotation 0
    s = scenario(g, [D, N, A, D, H, P, A], {0: ["ONE-01", "GEN-10"]}, relax_tokens=1,
                 consumed=["REF-01"])
    assert "pair GEN-10 ONE-01" in legal(s)


def test_reflex_relaxes_interior_gaps_only() -> None:
    g = make(2)
    # relaxed variants: every interior gap shrinks to 0..printed, the start stays, the
    # wrap-around gap only ever grows (the span never does)
    assert set(relaxed_variants(((0, D), (3, D)))) == {((0, D), (1, D)), ((0, D), (2, D)),
                                                        ((0, D), (3, D))}
    two_03 = g.codex_by_id["TWO-03"].pattern
    assert two_03 == ((0, P), (3, P), (4, P))
    assert set(relaxed_variants(two_03)) == {((0, P), (1, P), (2, P)), ((0, P), (2, P), (3, P)),
                                             ((0, P), (3, P), (4, P))}
    # Poseidon at slots 1, 5, 6: the gaps read (3, 0, 1), (0, 1, 3) or (1, 3, 0) around the
    # circle; the pattern's interior gaps (2, 0) could only fit by shrinking the wrap-around
    # gap (growing an interior one), which a Reflex never does
    circle = [P, D, N, A, P, P, H]
    assert not matches(g, circle, "TWO-03", relaxed=True)
    assert matches(g, circle, "GEN-10")
    s = scenario(g, circle, {0: ["TWO-03", "GEN-10"]}, relax_tokens=2,
                 consumed=["REF-01", "REF-02"])
    assert not [m for m in legal(s) if m.startswith("pair")]


# ------------------------------------------------------------------------------ T-DAM-4
def test_t_dam_4_annex_example() -> None:
    g = make(2, "annex")
    circle = [H, A, N, H, P, N, A]
    assert g.codex_by_id["COM-01"].pattern == ((0, H), (2, N), (5, N))  # Hades (1), Nyx (3,6)
    assert g.codex_by_id["ONE-02"].pattern == ((0, H), (3, H))  # One Hades (1,4)
    for cid in ("COM-01", "ONE-02", "ANX-01"):
        assert matches(g, circle, cid)
    s = scenario(g, circle, {0: ["COM-01", "ANX-01", "TWO-08"], 1: ["THR-01", "GEN-02"]},
                 {1: ["ONE-02"]}, points=[0, 2], deck_top=["HAS-01", "HAS-02", "HAS-03"])
    opponent = (hand(s, 1), tableau(s, 1))
    assert "pair COM-01 ONE-02" not in legal(s)  # not without the Annex
    act(s, "play ANX-01")
    assert "play ANX-02" not in legal(s)
    assert "pair COM-01 ONE-02" in legal(s)
    assert "pair COM-01 ONE-02*" not in legal(s)
    act(s, "pair COM-01 ONE-02")
    assert points(s) == [3 + 2, 2]  # Combust + Annex; the opponent's score unchanged
    assert sorted(hand(s, 0)) == ["HAS-01", "HAS-02", "TWO-08"]  # drew 1 + 1 = 2
    assert (hand(s, 1), tableau(s, 1)) == opponent  # the One stays where it was
    assert tableau(s, 0) == []
    act(s, "end")
    assert data(s)["removed"][-2:] == ["ANX-01", "COM-01"]  # both consumed: out (DAM-38)
    assert tableau(s, 1) == ["ONE-02"] and points(s)[1] == 2


def test_annex_one_borrowed_codex_per_turn() -> None:
    g = make(3, "annex")
    circle = [H, A, N, H, P, N, A]
    assert matches(g, circle, "ONE-02") and matches(g, circle, "ONE-13")
    s = scenario(g, circle, {0: ["ANX-01", "ANX-06", "COM-01"]},
                 {1: ["ONE-02"], 2: ["ONE-13"]})
    act(s, "play ANX-01")
    assert not [m for m in legal(s) if m.startswith("play ANX")]  # Annexes do not stack
    borrowed = {m for m in legal(s) if m.startswith("pair")}
    assert borrowed == {"pair COM-01 ONE-02", "pair COM-01 ONE-13"}  # either opponent
    act(s, "pair COM-01 ONE-13")
    assert not [m for m in legal(s) if m.startswith("pair")]  # the Annex is spent
    assert not data(s)["annex_available"]
    assert tableau(s, 2) == ["ONE-13"]


def test_annex_borrowed_codex_is_never_relaxed() -> None:
    g = make(2, "annex")
    circle = [H, A, N, H, P, N, A]
    assert not matches(g, circle, "ONE-11") and matches(g, circle, "ONE-11", relaxed=True)
    s = scenario(g, circle, {0: ["ANX-01", "COM-01", "REF-09"]}, {1: ["ONE-11"]})
    act(s, "play REF-09")
    act(s, "play ANX-01")
    assert data(s)["relax_tokens"] == 1 and data(s)["annex_available"]
    assert not [m for m in legal(s) if m.startswith("pair")]


def test_annex_borrows_a_production_too() -> None:
    g = make(2, "annex")
    circle = fit(g, ["GEN-01", "ONE-04", "ANX-01"], fill=P)
    s = scenario(g, circle, {0: ["ANX-01", "ONE-04"]}, {1: ["GEN-01"]}, points=[0, 3])
    assert not [m for m in legal(s) if m.startswith("pair")]
    act(s, "play ANX-01")
    act(s, "pair GEN-01 ONE-04")
    assert points(s) == [2 + 2, 3] and len(hand(s, 0)) == 1
    assert tableau(s, 0) == ["ONE-04"] and tableau(s, 1) == ["GEN-01"]


def test_annex_not_available_without_module() -> None:
    g = make(2)
    assert not any(c.type == "ANNEX" for c in g.deck)
    s = scenario(g, [H, A, N, H, P, N, A], {0: ["COM-01"]}, {1: ["ONE-02"]})
    assert not [m for m in legal(s) if m.startswith("pair")]


# ------------------------------------------------------------------------------ T-DAM-5
def test_t_dam_5_generate_with_two_numbers() -> None:
    g = make(2)
    circle = fit(g, ["GEN-07", "ONE-12", "TWO-07"])
    s = scenario(g, circle, {0: ["GEN-07", "ONE-12", "TWO-07"]})
    assert {"pair GEN-07 ONE-12", "pair GEN-07 TWO-07"} <= legal(s)
    act(s, "pair GEN-07 ONE-12")
    act(s, "pair GEN-07 TWO-07")
    assert points(s)[0] == 3 + 2 + 3  # the Generate scores 3 once
    assert len(hand(s, 0)) == 1 + 2
    assert sorted(tableau(s, 0)) == ["GEN-07", "ONE-12", "TWO-07"]
    assert not [m for m in legal(s) if m.startswith("pair")]


# ------------------------------------------------------------------------------ T-DAM-6
def test_t_dam_6_combust_pairs_once() -> None:
    g = make(2)
    circle = fit(g, ["COM-03", "ONE-01", "TWO-01"])
    s = scenario(g, circle, {0: ["COM-03", "ONE-01", "TWO-01"]})
    assert {"pair COM-03 ONE-01", "pair COM-03 TWO-01"} <= legal(s)
    act(s, "pair COM-03 TWO-01")
    assert len(hand(s, 0)) == 1 + (2 + 1)  # the One left, N + 1 = 3 drawn
    assert "pair COM-03 ONE-01" not in legal(s)  # consumed: at most one pair
    assert points(s)[0] == 3 + 3
    assert data(s)["consumed"] == ["COM-03"] and tableau(s, 0) == ["TWO-01"]
    act(s, "end")
    assert data(s)["removed"][-1] == "COM-03"  # out of the game (DAM-38)


# ------------------------------------------------------------------------------ T-DAM-7
def test_t_dam_7_oracle_with_two_keeps_two_of_four() -> None:
    g = make(2)
    circle = fit(g, ["ORA-02", "TWO-03"])
    top = ["HAS-01", "HAS-06", "REF-05", "ONE-07"]
    s = scenario(g, circle, {0: ["ORA-02", "TWO-03"]}, deck_top=top)
    discard_before = len(data(s)["discard"])
    act(s, "pair ORA-02 TWO-03")
    assert data(s)["step"] == "keep" and sorted(data(s)["keep_pool"]) == sorted(top)
    keeps = s.legal_actions(0)
    assert len(keeps) == 6 and all(m.kind == "keep" and len(m.args) == 2 for m in keeps)
    assert s.view(0)["keep_pool"] == sorted(top) and s.view(0)["keep_count"] == 2
    with pytest.raises(IllegalActionError):
        act(s, "keep HAS-01")
    with pytest.raises(IllegalActionError):
        act(s, "keep HAS-01 HAS-06 REF-05")
    act(s, "keep HAS-06 ONE-07")
    assert sorted(hand(s, 0)) == ["HAS-06", "ONE-07"]
    assert len(data(s)["discard"]) == discard_before + 2
    assert sorted(data(s)["discard"][-2:]) == ["HAS-01", "REF-05"]
    assert points(s)[0] == 6 and data(s)["step"] == "play"


def test_oracle_shortfall_keeps_what_there_is() -> None:
    """DAM-21: draw min(N + 2, available), keep min(N, drawn)."""
    g = make(2, reshuffle=False)
    circle = fit(g, ["ORA-02", "THR-06"])
    s = scenario(g, circle, {0: ["ORA-02", "THR-06"]}, deck_top=["HAS-01", "HAS-02"])
    d = s.to_json()
    d["data"]["discard"] = d["data"]["deck"][:-2]
    d["data"]["deck"] = d["data"]["deck"][-2:]
    s = g.state_from_json(d)
    act(s, "pair ORA-02 THR-06")
    assert sorted(data(s)["keep_pool"]) == ["HAS-01", "HAS-02"]
    assert legal(s) == {"keep HAS-01 HAS-02"}  # keep min(3, 2) = 2


# ------------------------------------------------------------------------------ T-DAM-8
def _pre_turn(g, hands, circle=(H, P, A, D, N, H, P)):
    return scenario(g, list(circle), hands, step="pre")


def test_t_dam_8_haste_gives_two_swaps() -> None:
    g = make(2)
    s = _pre_turn(g, {0: ["HAS-01"]})
    assert "haste HAS-01" in legal(s)
    assert "stop" not in legal(s) and "end" not in legal(s)  # the swap is mandatory
    act(s, "haste HAS-01")
    assert points(s)[0] == 1 and data(s)["swaps_allowed"] == 2
    act(s, "swap 1 2")
    assert data(s)["step"] == "swap2" and "stop" in legal(s)  # the second swap is optional
    act(s, "swap 3 4")
    assert data(s)["step"] == "play" and data(s)["swaps_done"] == 2
    act(s, "end")
    assert data(s)["removed"][-1] == "HAS-01"  # out of the game (DAM-38)


def test_t_dam_8_second_swap_may_be_skipped() -> None:
    s = _pre_turn(make(2), {0: ["HAS-01"]})
    act(s, "haste HAS-01")
    act(s, "swap 1 NYX")
    act(s, "stop")
    assert data(s)["step"] == "play" and data(s)["swaps_done"] == 1
    assert "end" in legal(s)


def test_t_dam_8_two_hastes_do_not_stack() -> None:
    s = _pre_turn(make(2), {0: ["HAS-01", "HAS-03"]})
    act(s, "haste HAS-01")
    assert "haste HAS-03" in legal(s)
    act(s, "haste HAS-03")
    assert points(s)[0] == 2 and data(s)["swaps_allowed"] == 2
    act(s, "swap 1 2")
    act(s, "swap 1 3")
    assert data(s)["step"] == "play" and not [m for m in legal(s) if m.startswith("swap")]


def test_t_dam_8_haste_after_swapping_scores_only() -> None:
    s = _pre_turn(make(2), {0: ["HAS-01"]})
    act(s, "swap 2 3")  # Poseidon <-> Artemis; Hades still on the circle
    assert data(s)["step"] == "play"
    assert "play HAS-01" in legal(s)
    act(s, "play HAS-01")
    assert points(s)[0] == 1 and data(s)["swaps_allowed"] == 1
    assert not [m for m in legal(s) if m.startswith("swap") or m == "stop"]


def test_haste_must_match_the_circle() -> None:
    s = _pre_turn(make(2), {0: ["HAS-01", "HAS-03"]}, circle=(P, P, A, D, N, A, P))
    assert "haste HAS-01" not in legal(s)  # no Hades on the circle
    assert "haste HAS-03" in legal(s)


# ------------------------------------------------------------------------------ T-DAM-9
def test_t_dam_9_reactivation_scores_nothing_and_may_be_relaxed() -> None:
    g = make(2)
    circle = fit(g, ["GEN-02", "TWO-06"])
    s = scenario(g, circle, {0: []}, {0: ["GEN-02", "TWO-06"]}, points=[6, 0], turns_taken=2)
    act(s, "pair GEN-02 TWO-06")
    assert points(s) == [6, 0] and len(hand(s, 0)) == 2
    # relaxed re-activation (DAM-18): One Demeter (1,4) with Demeters one apart
    circle = [D, D, P, P, P, A, H]
    assert not matches(g, circle, "ONE-01") and matches(g, circle, "REF-01")
    s = scenario(g, circle, {0: ["REF-01"]}, {0: ["GEN-02", "ONE-01"]}, points=[5, 0])
    assert not [m for m in legal(s) if m.startswith("pair")]
    act(s, "play REF-01")
    act(s, "pair GEN-02 ONE-01*")
    assert points(s) == [5 + 2, 0] and len(hand(s, 0)) == 1


# ----------------------------------------------------------------------------- T-DAM-10
def _setup(state, pick=lambda moves: moves[0]) -> list[int]:
    """Play the setup discard and the seven placements; return the placing seats."""
    state.apply_actions({s: pick(state.legal_actions(s)) for s in state.current_players()})
    placers = []
    while data(state)["phase"] == "place":
        (seat,) = state.current_players()
        placers.append(seat)
        state.apply_action(pick(state.legal_actions(seat)), seat)
    return placers


def _quick_turn_policy(moves):
    for m in moves:
        if m.kind == "end":
            return m
    for m in moves:
        if m.kind in ("swap", "trade"):
            return m
    return moves[0]


@pytest.mark.parametrize("players, order, first", [
    (2, [0, 1, 0, 1, 0, 1, 0], 1),
    (3, [0, 1, 2, 0, 1, 2, 0], 1),
    (4, [0, 1, 2, 3, 0, 1, 2], 3),
    (5, [0, 1, 2, 3, 4, 0, 1], 2),
    (6, [0, 1, 2, 3, 4, 5, 0], 1),
])
def test_t_dam_10_setup_and_length(players: int, order: list[int], first: int) -> None:
    g = make(players, first_placer="seat0")
    s = g.new_initial_state(3)
    assert all(len(h) == 8 for h in data(s)["hands"])
    s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})
    assert all(len(h) == 6 for h in data(s)["hands"])  # 8 dealt, 2 discarded
    assert len(data(s)["discard"]) == 2 * players
    placers = []
    while data(s)["phase"] == "place":
        (seat,) = s.current_players()
        placers.append(seat)
        s.apply_action(s.legal_actions(seat)[0], seat)
    assert placers == order
    assert s.current_players() == (first,) and None not in data(s)["circle"]
    turns: list[int] = []
    while not s.is_terminal():
        (seat,) = s.current_players()
        move = _quick_turn_policy(s.legal_actions(seat))
        if move.kind == "end":
            turns.append(seat)
        s.apply_action(move, seat)
    assert len(turns) == 10 * players == s.length()
    assert turns[:players] == [(first + k) % players for k in range(players)]
    assert Counter(turns) == {seat: 10 for seat in range(players)}
    assert turns[-1] == order[-1]  # the 7th placer is last in every cycle (DAM-28)


def test_game_length_follows_cycles() -> None:
    g = make(3, cycles=2)
    s = g.new_initial_state(1)
    _setup(s)
    ends = 0
    while not s.is_terminal():
        move = _quick_turn_policy(s.legal_actions(s.current_players()[0]))
        ends += move.kind == "end"
        s.apply_action(move, move.seat)
    assert ends == 6 == s.length() and data(s)["phase"] == "over"
    assert g.capabilities.max_length == 6


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_first_placer_random_and_first_turn_after_seventh_placer(players: int) -> None:
    g = make(players)
    placers = set()
    for seed in range(40):
        s = g.new_initial_state(seed)
        s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})
        (placer,) = s.current_players()
        assert s.view(None)["active"] == placer
        placers.add(placer)
        order = _setup_placements(s)
        assert order == [(placer + k) % players for k in range(7)]  # clockwise
        assert s.current_players() == ((placer + 7) % players,)
    assert placers == set(range(players))  # random, not always the same seat
    g0 = make(players, first_placer="seat0")
    for seed in range(5):
        s = g0.new_initial_state(seed)
        s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})
        assert s.current_players() == (0,)


def _setup_placements(s) -> list[int]:
    order = []
    while data(s)["phase"] == "place":
        (seat,) = s.current_players()
        order.append(seat)
        s.apply_action(s.legal_actions(seat)[-1], seat)
    return order


def test_first_token_goes_to_slot_1_under_rotation() -> None:
    s = make(2, first_placer="seat0").new_initial_state(0)
    s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})
    first = legal(s)
    assert first == {f"place {god} 1" for god in ("HADES", "POSEIDON", "ARTEMIS", "DEMETER",
                                                  "NYX")}
    act(s, "place NYX 1")
    assert data(s)["circle"][0] == N
    assert len(legal(s)) == 5 * 6 and all(not m.endswith(" 1") for m in legal(s))
    with pytest.raises(IllegalActionError):
        act(s, "place HADES 1")  # occupied
    # absolute matching: the first slot matters, so every slot is offered
    a = make(2, "absolute", first_placer="seat0").new_initial_state(0)
    a.apply_actions({seat: a.legal_actions(seat)[0] for seat in a.current_players()})
    assert len(legal(a)) == 5 * 7


def test_shared20_setup_caps_a_god_at_four() -> None:
    s = make(2, "strict", first_placer="seat0").new_initial_state(0)
    s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})
    for slot in (1, 2, 3, 4):
        act(s, f"place HADES {slot}")
    assert data(s)["bank"][H] == 0
    assert not [m for m in legal(s) if "HADES" in m]
    act(s, "place NYX 5")
    assert sum(data(s)["bank"]) == 20 - 5


# ----------------------------------------------------------------------------- T-DAM-11
def test_t_dam_11_no_lone_production_or_number() -> None:
    g = make(2)
    circle = fit(g, ["GEN-01", "ONE-04"])
    numbers = ["ONE-01", "TWO-02", "THR-02"]
    assert matches(g, circle, "GEN-01") and not any(matches(g, circle, c) for c in numbers)
    s = scenario(g, circle, {0: ["GEN-01", *numbers]})
    assert not [m for m in legal(s) if m.startswith("pair")]  # no valid Number
    s = scenario(g, circle, {0: ["ONE-04", "ORA-01"]})  # a matching One, no Production
    assert matches(g, circle, "ONE-04") and not matches(g, circle, "ORA-01")
    assert legal(s) == {"end"}  # the One alone is never enumerated
    for text in ("play ONE-04", "play GEN-01"):
        with pytest.raises(IllegalActionError):
            act(s, text)


# ------------------------------------------------------------ matching (DAM-1, 2, 14)
def _ref06_circle(r: int, mirrored: bool = False) -> list[int]:
    """Hades at slot r and Poseidon two slots clockwise (or, mirrored, counter-clockwise)."""
    circle = [A] * CIRCLE
    circle[r] = H
    circle[(r - 2 if mirrored else r + 2) % CIRCLE] = P
    return circle


@pytest.mark.parametrize("r", range(CIRCLE))
def test_matching_at_every_rotation_clockwise_only(r: int) -> None:
    assert make(2).codex_by_id["REF-06"].pattern == ((0, H), (2, P))
    rot, mirror, absolute = make(2), make(2, mirror=True), make(2, "absolute")
    clockwise, counter = _ref06_circle(r), _ref06_circle(r, mirrored=True)
    assert "play REF-06" in legal(scenario(rot, clockwise, {0: ["REF-06"]}))
    assert "play REF-06" not in legal(scenario(rot, counter, {0: ["REF-06"]}))
    assert "play REF-06" in legal(scenario(mirror, counter, {0: ["REF-06"]}))
    assert "play REF-06" in legal(scenario(mirror, clockwise, {0: ["REF-06"]}))
    assert ("play REF-06" in legal(scenario(absolute, clockwise, {0: ["REF-06"]}))) == (r == 0)
    assert match_mask(tuple(clockwise), ((0, H), (2, P)), True, False) == 1 << r


def test_absolute_matching_only_as_printed_for_pairs() -> None:
    rot, absolute = make(2), make(2, "absolute")
    circle = fit(rot, ["GEN-01", "ONE-02"])
    ids = ["GEN-01", "ONE-02"]
    outcomes = set()
    for shift in range(CIRCLE):
        c = circle[shift:] + circle[:shift]
        at_0 = all(match_mask(tuple(c), rot.codex_by_id[x].pattern, False, False) for x in ids)
        assert "pair GEN-01 ONE-02" in legal(scenario(rot, c, {0: ids}))  # any rotation
        assert ("pair GEN-01 ONE-02" in legal(scenario(absolute, c, {0: ids}))) == at_0
        outcomes.add(at_0)
    assert outcomes == {True, False}


def test_joint_anchor_needs_one_shared_rotation() -> None:
    ind, joint = make(2), make(2, pair_anchor="joint")
    # same anchor: Hades (1), Demeter (3,5) and Hades (1), Demeter (3) both start at slot 1
    shared = [H, A, D, A, D, P, P]
    assert joint.codex_by_id["ONE-12"].pattern == ((0, H), (2, D))
    for g in (ind, joint):
        assert "pair GEN-07 ONE-12" in legal(scenario(g, shared, {0: ["GEN-07", "ONE-12"]}))
    # different anchors: three Hades at slots 1-3, Demeter (1,3) at slots 5 and 7
    apart = [H, H, H, A, D, A, D]
    assert match_mask(tuple(apart), ind.codex_by_id["GEN-01"].pattern, True, False) == 1
    assert match_mask(tuple(apart), ind.codex_by_id["ONE-05"].pattern, True, False) == 1 << 4
    assert "pair GEN-01 ONE-05" in legal(scenario(ind, apart, {0: ["GEN-01", "ONE-05"]}))
    assert "pair GEN-01 ONE-05" not in legal(scenario(joint, apart, {0: ["GEN-01", "ONE-05"]}))


# ------------------------------------------------------------------- Reflex (DAM-5..7)
def test_one_reflex_token_per_relaxed_codex() -> None:
    g = make(2)
    circle = [P, N, H, A, H, D, D]
    for cid in ("GEN-07", "ONE-01"):  # Hades (1), Demeter (3,5) and Demeter (1,4)
        assert not matches(g, circle, cid) and matches(g, circle, cid, relaxed=True)
    assert matches(g, circle, "REF-01") and matches(g, circle, "REF-03")
    s = scenario(g, circle, {0: ["REF-01", "REF-03", "GEN-07", "ONE-01"]})
    act(s, "play REF-01")
    assert not [m for m in legal(s) if m.startswith("pair")]  # one token, two codices
    act(s, "play REF-03")
    assert data(s)["relax_tokens"] == 2
    assert [m for m in legal(s) if m.startswith("pair")] == ["pair GEN-07* ONE-01*"]
    for text in ("pair GEN-07 ONE-01*", "pair GEN-07* ONE-01", "pair GEN-07 ONE-01"):
        with pytest.raises(IllegalActionError):
            act(s, text)
    act(s, "pair GEN-07* ONE-01*")
    assert data(s)["relax_tokens"] == 0 and points(s)[0] == 2 + 2 + 3 + 2


def test_reflex_may_relax_another_reflex() -> None:
    g = make(2)
    circle = [D, D, H, A, P, A, N]  # Artemis at slots 4 and 6: Artemis (1,4) shrunk
    assert matches(g, circle, "REF-01")
    assert not matches(g, circle, "REF-04") and matches(g, circle, "REF-04", relaxed=True)
    s = scenario(g, circle, {0: ["REF-01", "REF-04"]})
    assert "play REF-04" not in legal(s) and "play REF-04*" not in legal(s)
    act(s, "play REF-01")
    assert "play REF-04*" in legal(s) and "play REF-04" not in legal(s)
    act(s, "play REF-04*")
    assert data(s)["relax_tokens"] == 1  # one spent, one gained
    assert points(s)[0] == 4


def test_reflex_alone_and_tokens_expire_at_end_of_turn() -> None:
    g = make(2)
    circle = [D, D, P, P, H, A, N]
    s = scenario(g, circle, {0: ["REF-01"], 1: []})
    act(s, "play REF-01")  # no target: still 2 points (DAM-7)
    assert points(s)[0] == 2 and data(s)["relax_tokens"] == 1
    assert s.view(1)["turn"]["relax_tokens"] == 1
    act(s, "end")
    assert data(s)["relax_tokens"] == 0 and s.current_players() == (1,)
    assert data(s)["removed"][-1] == "REF-01"  # out of the game (DAM-38)


# -------------------------------------------------------------------- swaps (DAM-9, 11, 12)
def test_noop_swaps_are_never_enumerated() -> None:
    g = make(2)
    circle = [H, H, P, P, P, A, N]
    s = scenario(g, circle, {0: []}, step="pre")
    moves = s.legal_actions(0)
    swaps = [m for m in moves if m.kind == "swap"]
    trades = [m for m in moves if m.kind == "trade"]
    assert all(circle[a] != circle[b] for a, b in (m.args for m in swaps))
    assert all(circle[slot] != god for slot, god in (m.args for m in trades))
    same = sum(1 for a in range(7) for b in range(a + 1, 7) if circle[a] == circle[b])
    assert len(swaps) == 21 - same and len(trades) == 7 * 4
    for text in ("swap 1 2", "swap 3 5", "swap 1 HADES", "swap 6 ARTEMIS"):
        with pytest.raises(IllegalActionError):
            act(s, text)


def test_external_swap_returns_the_token_and_needs_stock() -> None:
    g = make(2)
    s = scenario(g, [H, H, P, P, P, A, N], {0: []}, step="pre")
    act(s, "swap 1 NYX")
    assert data(s)["circle"][0] == N
    assert data(s)["bank"] == [5, 4, 4, 4, 3]  # the Hades went back to the bank
    assert sum(data(s)["bank"]) == 20
    s = scenario(g, [H, H, P, P, P, A, N], {0: []}, step="pre", bank=[4, 4, 4, 4, 0])
    assert not [m for m in legal(s) if m.endswith("NYX")]
    assert "swap 1 DEMETER" in legal(s)
    inf = make(2, bank="infinite")
    s = scenario(inf, [H, H, P, P, P, A, N], {0: []}, step="pre")
    act(s, "swap 1 NYX")
    assert data(s)["bank"] is None and data(s)["circle"][0] == N


def test_swap_is_mandatory_unless_optional() -> None:
    circle = [H, P, A, D, N, H, P]
    s = scenario(make(2), circle, {0: ["HAS-01"]}, step="pre")
    kinds = {m.kind for m in s.legal_actions(0)}
    assert kinds == {"haste", "swap", "trade"}
    with pytest.raises(IllegalActionError):
        act(s, "stop")
    with pytest.raises(IllegalActionError):
        act(s, "end")
    s = scenario(make(2, swap_optional=True), circle, {0: ["HAS-01"]}, step="pre")
    assert "stop" in legal(s)
    act(s, "stop")
    assert data(s)["step"] == "play" and data(s)["circle"] == circle


def test_haste_only_before_swapping_in_swap2_step() -> None:
    s = scenario(make(2), [H, P, A, D, N, H, P], {0: ["HAS-01", "HAS-02"]}, step="pre")
    act(s, "haste HAS-01")
    act(s, "swap 1 2")
    assert not [m for m in legal(s) if m.startswith("haste")]  # no Haste between swaps
    assert "stop" in legal(s)


# ---------------------------------------------------------------- strict (DAM-20, DAM-22)
def _strict_pair_scenario(g, deck_top=()):
    circle = fit(g, ["GEN-07", "ONE-12", "REF-05"], fill=P)
    return scenario(g, circle, {0: ["GEN-07", "ONE-12", "REF-05"]}, deck_top=deck_top)


def test_strict_no_manipulation_after_a_pair() -> None:
    s = _strict_pair_scenario(make(2, "strict"))
    assert "play REF-05" in legal(s)
    act(s, "pair GEN-07 ONE-12")
    assert "play REF-05" not in legal(s)
    assert legal(s) == {"end"}
    s = _strict_pair_scenario(make(2))  # the merged window of the seed variant
    act(s, "pair GEN-07 ONE-12")
    assert "play REF-05" in legal(s)


def test_strict_granted_codices_wait_a_turn() -> None:
    g = make(2, "strict")
    seed_game = make(2)
    # the codex granted by the pair is a Two that would pair with the Generate
    assert g.codex_by_id["TWO-07"].pattern == ((0, H), (1, H), (4, D))
    circle = fit(g, ["GEN-07", "ONE-12", "TWO-07"], fill=P)
    assert max(circle.count(god) for god in range(5)) <= 4  # shared20 supply
    for game, playable in ((seed_game, True), (g, False)):
        s = scenario(game, circle, {0: ["GEN-07", "ONE-12"]}, deck_top=["TWO-07"])
        act(s, "pair GEN-07 ONE-12")
        assert "TWO-07" in hand(s, 0)
        assert ("pair GEN-07 TWO-07" in legal(s)) == playable
    # the next turn it is playable
    act(s, "end")
    act(s, keeping_swap(s, ["GEN-07", "TWO-07"]))
    act(s, "end")
    act(s, keeping_swap(s, ["GEN-07", "TWO-07"]))
    assert "pair GEN-07 TWO-07" in legal(s)


def test_granted_reflex_not_playable_same_turn_when_barred() -> None:
    circle = fit(make(2), ["GEN-07", "ONE-12", "REF-05"], fill=P)
    for params, playable in (({}, True), ({"grants_playable_same_turn": False}, False)):
        g = make(2, **params)
        s = scenario(g, circle, {0: ["GEN-07", "ONE-12"]}, deck_top=["REF-05"])
        act(s, "pair GEN-07 ONE-12")
        assert ("play REF-05" in legal(s)) == playable


def test_strict_steps_only_a_pair_closes_manipulation() -> None:
    """strict_steps is documented as "Manipulation codices only before the first pair": a
    Destruction play (TURN MECHANICS 4, "other codices") does not close step 3. Pinned as
    documented; the seed is ambiguous here (Lyse is "played after swapping", like Reflex)."""
    g = make(3, "destruction", strict_steps=True)
    circle = fit(g, ["LYS-01", "REF-03"], fill=P)
    s = scenario(g, circle, {0: ["LYS-01", "REF-03"]})
    act(s, "play LYS-01")
    assert data(s)["step"] == "play"  # no opponent has a tableau: nothing to destroy
    assert "play REF-03" in legal(s)


# ------------------------------------------------------------------ DAM-19 reshuffling
def _deck_of(s, deck: list[str], discard: list[str]):
    d = s.to_json()
    d["data"]["deck"], d["data"]["discard"] = deck, discard
    return s.game.state_from_json(d)


@pytest.mark.parametrize("reshuffle", [True, False])
def test_dam_19_empty_deck_reshuffles_the_discard(reshuffle: bool) -> None:
    g = make(2, reshuffle=reshuffle)
    circle = fit(g, ["GEN-02", "TWO-06"])
    s = scenario(g, circle, {0: ["GEN-02", "TWO-06"]}, deck_top=["HAS-05"])
    rest = data(s)["deck"][:-1]
    s = _deck_of(s, ["HAS-05"], rest)  # one codex left in the deck, the rest discarded
    act(s, "pair GEN-02 TWO-06")
    drawn = hand(s, 0)
    assert drawn[0] == "HAS-05"
    if reshuffle:
        assert len(drawn) == 2 and drawn[1] in rest
        assert len(data(s)["deck"]) == len(rest) - 1 and data(s)["discard"] == []
    else:
        assert drawn == ["HAS-05"]  # grants fewer
        assert data(s)["deck"] == [] and data(s)["discard"] == rest
    assert points(s)[0] == 6


def test_dam_19_nothing_left_grants_nothing() -> None:
    g = make(2)
    circle = fit(g, ["GEN-02", "TWO-06"])
    s = scenario(g, circle, {0: ["GEN-02", "TWO-06"]})
    rest = data(s)["deck"]
    d = s.to_json()
    d["data"]["deck"], d["data"]["discard"] = [], []
    d["data"]["hands"][1] = rest
    s = g.state_from_json(d)
    act(s, "pair GEN-02 TWO-06")
    assert hand(s, 0) == [] and points(s)[0] == 6


# ---------------------------------------------------------------- Destruction (DAM-32)
def test_lyse_destroys_one_of_each_opponent_with_a_tableau() -> None:
    g = make(4, "destruction")
    circle = fit(g, ["LYS-01"], fill=P)
    s = scenario(g, circle, {0: ["LYS-01"], 1: ["THR-01"]},
                 {1: ["GEN-01", "ONE-02"], 2: ["TWO-01"], 3: []}, points=[0, 5, 3, 0])
    act(s, "play LYS-01")
    assert data(s)["step"] == "destroy" and s.current_players() == (0,)
    assert legal(s) == {"destroy GEN-01", "destroy ONE-02"}  # seat 1's tableau; not its hand
    with pytest.raises(NotYourTurnError):
        act(s, "destroy GEN-01", seat=1)
    act(s, "destroy ONE-02")
    assert legal(s) == {"destroy TWO-01"}
    act(s, "destroy TWO-01")
    assert data(s)["step"] == "play"
    assert data(s)["tableaus"] == [[], ["GEN-01"], [], []]
    assert points(s) == [3, 5, 3, 0]  # destroyed points stay scored
    assert data(s)["removed"] == ["ONE-02", "TWO-01"]  # out of the game (DAM-39)
    assert hand(s, 1) == ["THR-01"]


def test_lyse_without_targets_is_still_played() -> None:
    g = make(2, "destruction")
    s = scenario(g, fit(g, ["LYS-01"], fill=P), {0: ["LYS-01"]})
    act(s, "play LYS-01")
    assert data(s)["step"] == "play" and points(s)[0] == 3


def test_sacrifice_needs_and_discards_an_own_codex_first() -> None:
    g = make(3, "destruction")
    circle = fit(g, ["SAC-01"], fill=P)
    opponents = {1: ["GEN-01", "ONE-02", "TWO-01"], 2: ["THR-01"]}
    s = scenario(g, circle, {0: ["SAC-01"]}, opponents)
    assert "play SAC-01" not in legal(s)  # nothing of its own to discard
    s = scenario(g, circle, {0: ["SAC-01"]}, {0: ["GEN-02", "ONE-06"], **opponents},
                 points=[9, 9, 9])
    act(s, "play SAC-01")
    assert legal(s) == {"destroy GEN-02", "destroy ONE-06"}  # own first
    act(s, "destroy ONE-06")
    assert legal(s) == {"destroy GEN-01", "destroy ONE-02", "destroy TWO-01"}
    act(s, "destroy GEN-01")
    assert legal(s) == {"destroy ONE-02", "destroy TWO-01"}
    act(s, "destroy TWO-01")
    assert legal(s) == {"destroy THR-01"}  # fewer than two: all it has
    act(s, "destroy THR-01")
    assert data(s)["tableaus"] == [["GEN-02"], ["ONE-02"], []]
    assert points(s) == [9 + 4, 9, 9]
    assert data(s)["step"] == "play"


def test_eviscerate_destroys_two_of_each() -> None:
    g = make(2, "destruction")
    circle = fit(g, ["EVI-01"], fill=A)
    s = scenario(g, circle, {0: ["EVI-01"]}, {1: ["GEN-01", "ONE-02", "TWO-01"]})
    act(s, "play EVI-01")
    act(s, "destroy GEN-01")
    act(s, "destroy TWO-01")
    assert data(s)["step"] == "play" and tableau(s, 1) == ["ONE-02"]
    assert points(s)[0] == 5


def test_destruction_codices_not_in_the_seed_deck() -> None:
    assert not any(c.info.cls == "DESTRUCTION" for c in make(2).deck)
    assert {c.type for c in make(2, "destruction").deck} >= {"LYSE", "SACRIFICE", "EVISCERATE"}


# ------------------------------------------------------------------------ game end
def test_consumed_codices_are_discarded_once_at_game_end() -> None:
    """TURN MECHANICS 5 at the last turn: the played Reflex leaves the game (DAM-38) and
    the turn's consumed list. Currently fails: rules.py ``_do_end`` returns at game over
    without resetting the turn context, so the terminal state holds REF-01 both in
    ``discard`` and in ``consumed`` (the codex is counted twice)."""
    g = make(2)
    s = scenario(g, [D, D, P, P, H, A, N], {1: ["REF-01"]}, active=1, turns_taken=19)
    act(s, "play REF-01")
    s.apply_action(g.parse_action("end", 1), 1)
    assert s.is_terminal() and data(s)["removed"].count("REF-01") == 1
    assert data(s)["consumed"] == []
    assert zones(s) == Counter(c.id for c in g.deck)


# ------------------------------------------------------------------- tiebreak (DAM-29)
@pytest.mark.parametrize("tiebreak, tableaus, winners", [
    ("shared", {0: ["GEN-01"], 1: ["GEN-02", "ONE-01"]}, (0, 1)),
    ("most_tableau", {0: ["GEN-01"], 1: ["GEN-02", "ONE-01"]}, (1,)),
    ("most_tableau", {0: ["GEN-01"], 1: ["GEN-02"]}, (0, 1)),
])
def test_tiebreak(tiebreak: str, tableaus, winners) -> None:
    g = make(2, tiebreak=tiebreak)
    s = scenario(g, [H, P, A, D, N, H, P], {}, tableaus, points=[7, 7], active=1,
                 turns_taken=19)
    assert not s.is_terminal()
    act(s, "end")
    assert s.is_terminal() and s.winners() == winners
    assert s.returns() == tuple(1 / len(winners) if k in winners else 0.0 for k in range(2))
    assert s.scores() == (7.0, 7.0)


def test_highest_score_wins_outright() -> None:
    s = scenario(make(3), [H, P, A, D, N, H, P], {}, points=[4, 9, 2], active=2,
                 turns_taken=29)
    act(s, "end")
    assert s.winners() == (1,) and s.returns() == (0.0, 1.0, 0.0)


# ------------------------------------------------------------------------ views (DAM-30)
def _views(state) -> list[dict]:
    return [state.view(seat) for seat in (None, *range(state.game.players))]


def _edited(state, edit):
    d = json.loads(json.dumps(state.to_json()))
    edit(d["data"])
    return state.game.state_from_json(d)


def test_views_hide_other_hands_and_the_deck_order() -> None:
    g = make(3)
    s = g.new_initial_state(5)
    s.apply_actions({seat: s.legal_actions(seat)[0] for seat in s.current_players()})

    def swap_hand_card(d):  # seat 1 holds another codex (from the deck)
        d["hands"][1][0], d["deck"][0] = d["deck"][0], d["hands"][1][0]

    other = _edited(s, swap_hand_card)
    assert zones(other) == zones(s)
    before, after = _views(s), _views(other)
    assert before[0] == after[0] and before[1] == after[1] and before[3] == after[3]
    assert before[2] != after[2]  # seat 1 sees its own hand
    reordered = _edited(s, lambda d: d["deck"].reverse())
    assert _views(reordered) == _views(s)
    assert reordered.to_json() != s.to_json()

    def swap_discard(d):  # the discard pile is face down too (DAM-21, DAM-25)
        d["discard"][0], d["deck"][0] = d["deck"][0], d["discard"][0]

    assert _views(_edited(s, swap_discard)) == _views(s)
    assert "deck" not in s.view(None) and "hand" not in s.view(None)


def test_views_hide_the_oracle_keep_pool() -> None:
    g = make(3)
    circle = fit(g, ["ORA-02", "TWO-03"])
    s = scenario(g, circle, {0: ["ORA-02", "TWO-03"]}, deck_top=["HAS-01", "HAS-06", "REF-05",
                                                                 "ONE-07"])
    act(s, "pair ORA-02 TWO-03")

    def other_pool(d):
        i = d["keep_pool"].index("HAS-01")
        d["keep_pool"][i], d["deck"][0] = d["deck"][0], d["keep_pool"][i]

    t = _edited(s, other_pool)
    assert zones(t) == zones(s)
    a, b = _views(s), _views(t)
    assert a[0] == b[0] and a[2] == b[2] and a[3] == b[3]  # spectator, seats 1 and 2
    assert a[1] != b[1] and "HAS-01" in a[1]["keep_pool"] and "HAS-01" not in b[1]["keep_pool"]
    assert "keep_pool" not in a[2]


def test_views_hide_pending_setup_discards() -> None:
    g = make(2)
    s = g.new_initial_state(0)
    first, last = s.legal_actions(0)[0], s.legal_actions(0)[-1]
    a, b = s.clone(), s.clone()
    a.apply_action(first, 0)
    b.apply_action(last, 0)
    assert a.view(1) == b.view(1) and a.view(None) == b.view(None)
    assert a.view(0) != b.view(0)


def test_views_show_public_information() -> None:
    g = make(2)
    s = scenario(g, [H, P, A, D, N, H, P], {0: ["GEN-01", "ONE-02"], 1: ["TWO-01"]},
                 {1: ["ONE-03"]}, points=[3, 4])
    v = s.view(1)
    assert v["hand"] == ["TWO-01"] and v["hand_sizes"] == [2, 1]
    assert v["scores"] == [3, 4] and v["tableaus"] == [[], ["ONE-03"]]
    assert v["circle"] == ["HADES", "POSEIDON", "ARTEMIS", "DEMETER", "NYX", "HADES",
                           "POSEIDON"]
    assert v["bank"] == {"HADES": 4, "POSEIDON": 4, "ARTEMIS": 4, "DEMETER": 4, "NYX": 4}


# ------------------------------------------------------------------------ notation
@pytest.mark.parametrize("text", [
    "", "   ", "fly", "swap", "swap 1", "swap 0 2", "swap 8 2", "swap 1 ZEUS", "swap 1 X",
    "swap 1 2 3", "place ZEUS 1", "place HADES 9", "place HADES", "place 1 HADES",
    "pair GEN-01", "pair GEN-01 ONE-01 TWO-01", "play", "play REF-01 REF-02", "haste",
    "destroy", "end now", "stop 1", "discard",
])
def test_parse_errors(text: str) -> None:
    g = make(2)
    with pytest.raises(ActionParseError):
        g.parse_action(text, 0)


def test_setup_discard_of_the_wrong_size_is_refused() -> None:
    g = make(2)
    s = g.new_initial_state(0)
    held = data(s)["hands"][0]
    for text in (f"discard {held[0]}", f"discard {held[0]} {held[1]} {held[2]}"):
        with pytest.raises((ActionParseError, IllegalActionError)):
            s.apply_action(g.parse_action(text, 0), 0)
    s.apply_action(g.parse_action(f"discard {held[1]} {held[0]}", 0), 0)
    assert s.current_players() == (1,)


def test_parse_bad_seat() -> None:
    g = make(2)
    for seat in (-1, 2, "0"):
        with pytest.raises(ActionParseError):
            g.parse_action("end", seat)


def test_parse_is_case_insensitive_and_reads_initials() -> None:
    g = make(2)
    assert str(g.parse_action("SWAP 3 n", 0)) == "swap 3 NYX"
    assert str(g.parse_action("swap 5 2", 0)) == "swap 2 5"
    assert str(g.parse_action("pair gen-02 one-05*", 0)) == "pair GEN-02 ONE-05*"
    assert str(g.parse_action("place d 4", 1)) == "place DEMETER 4"
    assert str(g.parse_action("keep TWO-03, GEN-07", 0)) == "keep GEN-07 TWO-03"
    assert str(g.parse_action("discard ONE-03 GEN-01", 0)) == "discard GEN-01 ONE-03"


def test_canonical_text_round_trip_over_play() -> None:
    """Every legal move's text reads back to the same move, over heuristic-bot games (which
    reach pairs, Oracle keeps and destruction) of several variants."""
    seen = set()
    for variant, players in (("seed", 2), ("future", 3), ("absolute", 4), ("strict", 5),
                             ("future", 6)):
        g = make(players, variant)
        s = g.new_initial_state(players)
        bots = [make_bot("heuristic", g, seat, 7) for seat in range(players)]
        while not s.is_terminal():
            joint = {}
            for seat in s.current_players():
                moves = s.legal_actions(seat)
                for m in moves:
                    assert g.parse_action(str(m), seat) == m
                    seen.add(m.kind)
                joint[seat] = bots[seat].act(s.view(seat), moves)
            s.apply_actions(joint)
    assert seen == {"discard", "place", "haste", "swap", "trade", "stop", "play", "pair", "keep",
                    "destroy", "end"}


def test_round_trip_with_a_different_setup_discard() -> None:
    """Currently fails: actions.parse_move reads 'discard' only with exactly two ids, so with
    setup_discard = 3 the canonical text of every legal discard cannot be read back (and a
    state with a pending discard cannot be restored from its JSON)."""
    g = make(2, setup_discard=3)
    s = g.new_initial_state(0)
    move = s.legal_actions(0)[0]
    assert len(move.args) == 3
    assert g.parse_action(str(move), 0) == move


def test_restore_with_a_pending_discard_of_three() -> None:
    """Currently fails for the same reason: restore_state re-parses pending actions from
    their text, so saving mid-setup with setup_discard = 3 cannot be loaded back."""
    g = make(2, setup_discard=3)
    s = g.new_initial_state(0)
    s.apply_action(s.legal_actions(0)[0], 0)
    again = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.digest() == s.digest()


def test_every_codex_id_can_be_named(tmp_path: Path) -> None:
    """The notation reads ids in upper case, so a deck whose ids could not be typed back
    (lower case) is refused on load, naming the codex."""
    raw = json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))
    raw["codices"][0]["id"] = raw["codices"][0]["id"].lower()
    path = tmp_path / "lower.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_game(GAME, players=2, deck=str(path))
    assert raw["codices"][0]["id"] in str(info.value)
    for codex in make(2, "future").deck:
        text = f"play {codex.id}"
        assert make(2).parse_action(text, 0).args[0] == codex.id


def test_illegal_moves_leave_the_state_unchanged() -> None:
    g = make(2)
    s = scenario(g, [H, P, A, D, N, H, P], {0: ["GEN-01", "ONE-02"]}, step="pre")
    digest = s.digest()
    for text in ("end", "pair GEN-01 ONE-02", "play GEN-01", "keep", "destroy GEN-01",
                 "haste GEN-01", "place HADES 1", "swap 1 6"):
        with pytest.raises(IllegalActionError):
            act(s, text)
    with pytest.raises(NotYourTurnError):
        act(s, "swap 1 2", seat=1)
    assert s.digest() == digest


def test_json_round_trip_and_clone_independence() -> None:
    g = make(3, "future")
    s = g.new_initial_state(2)
    s.playout(random.Random(0), max_steps=60)
    t = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert t.digest() == s.digest()
    assert [list(map(str, t.legal_actions(k))) for k in range(3)] == \
        [list(map(str, s.legal_actions(k))) for k in range(3)]
    c = s.clone()
    c.playout(random.Random(1))
    assert c.is_terminal() and s.digest() == t.digest()


# ------------------------------------------------------------------------ the deck file
def test_broken_deck_file_names_the_codex(tmp_path: Path) -> None:
    raw = json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))
    raw["codices"].append({"id": "BAD-07", "type": "ONE",
                           "pattern": [[1, "HADES"], [2, "HADES"], [3, "HADES"]]})
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_game(GAME, players=2, deck=str(path))
    assert "BAD-07" in str(info.value) and "DAM-3" in str(info.value)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(DeckError, match="broken.json"):
        load_game(GAME, players=2, deck=str(path))
    with pytest.raises(DeckError, match="not found"):
        load_game(GAME, players=2, deck=str(tmp_path / "missing.json"))


def test_custom_deck_is_dealt(extra_deck: Path) -> None:
    g = load_game(GAME, players=2, deck=str(extra_deck))
    assert "GEN-11" in g.codex_by_id and len(g.deck) == 81  # base deck + GEN-11
    s = g.new_initial_state(0)
    assert_conserved(s)
