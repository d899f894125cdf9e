"""Damocles: the legal-move generator's fast paths give the plain reading's lists exactly.

``meeple.games.damocles.moves`` builds its lists from per-spec tables, a per-circle memo of
rotation masks (from a per-circle table of the pips in place, ``matching.pip_table``),
remembered placements and, without a Reflex token, pairs formed only from the codices that
match as printed. This file restates the generator as the plain reading of the rules (every codex's
class read from the deck, every mask computed by DAM-1's loops over rotations and pips, every
pair tried through ``_relaxation``) and checks that both give the same moves in the same
order, at every decision of random and heuristic games in every variant and in parameter sets
the variants do not name, with the turn context pushed into corners play rarely reaches
(Reflex tokens held, an Annex open, pairs already used).
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots import make_bot
from meeple.games.damocles.actions import Move, move
from meeple.games.damocles.codex import CIRCLE, DESTRUCTION, MANIPULATION, NUMBER, PRODUCTION
from meeple.games.damocles.matching import match_mask, mirrored, relaxed_variants, rotations
from meeple.games.damocles.moves import (
    _relaxation,
    legal_key,
    legal_moves,
    remembered_moves,
)

CONFIGS = [
    ("seed", 4, {}), ("annex", 3, {}), ("destruction", 5, {}), ("future", 2, {}),
    ("absolute", 3, {}), ("strict", 4, {}),
    ("future", 3, {"mirror": True, "pair_anchor": "joint"}),
    ("future", 4, {"bank": "infinite", "swap_optional": True}),
    ("annex", 6, {"match": "absolute", "mirror": True, "pair_anchor": "joint", "cycles": 3}),
]


# ------------------------------------------------------------- the plain reading
def plain_rotations(circle, pattern, rotational: bool) -> int:
    """DAM-1: bit r when ``circle[(r + offset) % 7] == god`` for every pip."""
    mask = 0
    for r in range(CIRCLE if rotational else 1):
        if all(circle[(r + offset) % CIRCLE] == god for offset, god in pattern):
            mask |= 1 << r
    return mask


def plain_match(circle, pattern, rotational: bool, relaxed: bool, mirror: bool) -> int:
    mask = 0
    for variant in relaxed_variants(pattern) if relaxed else (pattern,):
        mask |= plain_rotations(circle, variant, rotational)
        if mirror:
            mask |= plain_rotations(circle, mirrored(variant), rotational) << CIRCLE
    return mask


def plain_mask(state, cid: str, relaxed: bool) -> int:
    game = state.game
    return plain_match(tuple(state.circle), game.codex_by_id[cid].pattern,
                       game.params["match"] == "rotational", relaxed, game.params["mirror"])


def plain_moves(state, seat: int) -> list[Move]:
    """The legal moves as the rules read (the generator before its tables and memos)."""
    game, p = state.game, state.game.params
    deck = game.codex_by_id
    if state.phase == "discard":
        return sorted((Move(seat, "discard", tuple(sorted(c)))
                       for c in combinations(state.hands[seat], p["setup_discard"])), key=str)
    if state.phase == "place":
        empty = [s for s in range(CIRCLE) if state.circle[s] is None]
        if state.placed == 0 and p["match"] == "rotational":
            empty = [0]
        shared = p["bank"] == "shared20"
        return [move(seat, "place", (god, slot)) for god in range(5)
                if not shared or state.bank[god] > 0 for slot in empty]
    step = state.step
    if step == "keep":
        return sorted((Move(seat, "keep", tuple(sorted(c)))
                       for c in combinations(state.keep_pool, state.keep_count)), key=str)
    if step == "destroy":
        target = state.destroy_queue[0][0]
        return [move(seat, "destroy", (cid,)) for cid in sorted(state.tableaus[target])]
    barred = () if p["grants_playable_same_turn"] else state.granted
    hand = [cid for cid in state.hands[seat] if cid not in barred]
    circle, bank = state.circle, state.bank
    if step in ("pre", "swap2"):
        moves = []
        if step == "pre":
            moves += [move(seat, "haste", (cid,)) for cid in hand
                      if deck[cid].type == "HASTE" and plain_mask(state, cid, False)]
        moves += [move(seat, "swap", (a, b)) for a in range(CIRCLE)
                  for b in range(a + 1, CIRCLE) if circle[a] != circle[b]]
        moves += [move(seat, "trade", (slot, god)) for slot in range(CIRCLE) for god in range(5)
                  if god != circle[slot] and (bank is None or bank[god] > 0)]
        if step == "swap2" or p["swap_optional"]:
            moves.append(move(seat, "stop"))
        return moves
    moves = []
    for cid in hand:
        codex = deck[cid]
        cls = codex.info.cls
        if cls == MANIPULATION and p["strict_steps"] and state.pair_played:
            continue
        if cls not in (MANIPULATION, DESTRUCTION):
            continue
        if codex.type == "ANNEX" and state.annex_played:
            continue
        if codex.type == "SACRIFICE" and not state.tableaus[seat]:
            continue
        if plain_mask(state, cid, False):
            moves.append(move(seat, "play", (cid, False)))
        elif state.relax_tokens and plain_mask(state, cid, True):
            moves.append(move(seat, "play", (cid, True)))
    own = hand + state.tableaus[seat]
    productions = [c for c in own if deck[c].info.cls == PRODUCTION]
    numbers = [c for c in own if deck[c].info.cls == NUMBER]
    borrowed: set[str] = set()
    if state.annex_available:
        for other, tableau in enumerate(state.tableaus):
            if other != seat:
                borrowed.update(c for c in tableau if deck[c].info.cls in (PRODUCTION, NUMBER))
    joint = p["pair_anchor"] == "joint"
    for pid in productions + sorted(c for c in borrowed if deck[c].info.cls == PRODUCTION):
        for nid in numbers + sorted(c for c in borrowed if deck[c].info.cls == NUMBER):
            if (pid, nid) in state.pairs_used or (pid in borrowed and nid in borrowed):
                continue
            relax = _relaxation(lambda c, r: plain_mask(state, c, r), state.relax_tokens, pid,
                                nid, pid in borrowed, nid in borrowed, joint)
            if relax is not None:
                moves.append(move(seat, "pair", (pid, nid, *relax)))
    moves.append(move(seat, "end"))
    return moves


# ---------------------------------------------------------------------------- tests
def assert_same(state) -> int:
    """Both generators agree for every acting seat; returns how many moves were compared."""
    compared = 0
    for seat in state.current_players():
        fast = list(legal_moves(state, seat))
        plain = plain_moves(state, seat)
        assert [str(m) for m in fast] == [str(m) for m in plain], (
            f"phase {state.phase} step {state.step} seat {seat}")
        assert fast == plain
        compared += len(plain)
    return compared


def corner(state, rng: random.Random):
    """A copy of a play-window ``state`` with Reflex tokens, an open Annex or used pairs."""
    other = state.clone()
    other.relax_tokens = rng.choice((0, 1, 2))
    other.annex_available = rng.random() < 0.5
    legal = [m for m in legal_moves(state, state.active) if m.kind == "pair"]
    other.pairs_used = {m.args[:2] for m in legal if rng.random() < 0.5}
    other._legal = None
    return other


def play_through(game, seed: int, heuristic: bool) -> tuple[int, int]:
    """One game checked at every decision; returns (decisions, play windows in a corner)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", game, s, seed) for s in range(game.players)]
    decisions = corners = 0
    while not state.is_terminal():
        assert_same(state)
        decisions += 1
        if state.phase == "turn" and state.step == "play":
            assert_same(corner(state, rng))
            corners += 1
        joint = {}
        for seat in state.current_players():
            legal = state.legal_actions(seat)
            joint[seat] = (bots[seat].act(state.view(seat), legal) if heuristic
                           else legal[rng.randrange(len(legal))])
        state.apply_actions(joint)
    return decisions, corners


def test_every_decision_of_random_and_heuristic_games_in_every_configuration() -> None:
    total = 0
    for variant, players, params in CONFIGS:
        game = load_game("damocles", variant=variant, players=players, **params)
        for seed in range(2):
            decisions, corners = play_through(game, seed, heuristic=seed == 1)
            assert corners > 0
            total += decisions
    assert total > 1000


@settings(max_examples=40, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6))
def test_random_games_agree(config, seed) -> None:
    variant, players, params = config
    game = load_game("damocles", variant=variant, players=players, **params)
    decisions, _ = play_through(game, seed, heuristic=False)
    assert decisions > 0


@settings(max_examples=300, deadline=None)
@given(circle=st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=CIRCLE,
                       max_size=CIRCLE),
       pattern=st.lists(st.tuples(st.integers(0, CIRCLE - 1), st.integers(0, 4)), max_size=5,
                        unique_by=lambda pip: pip[0]).map(lambda p: tuple(sorted(p))),
       rotational=st.booleans(), relaxed=st.booleans(), mirror=st.booleans())
def test_bitwise_matching_is_the_plain_reading(circle, pattern, rotational, relaxed,
                                                mirror) -> None:
    """``matching`` reads the circle as per-god slot sets; the masks are DAM-1's loops'."""
    circle = tuple(circle)
    assert rotations(circle, pattern, rotational) == plain_rotations(circle, pattern, rotational)
    assert (match_mask(circle, pattern, rotational, relaxed, mirror)
            == plain_match(circle, pattern, rotational, relaxed, mirror))


def test_the_memoised_masks_are_the_plain_ones() -> None:
    """``DamoclesState.mask`` (through the per-circle memo) equals ``match_mask`` for every
    codex, printed and relaxed, on circles the memo saw before and new ones."""
    game = load_game("damocles", variant="future", players=3, mirror=True)
    state = game.new_initial_state(4)
    rng = random.Random(4)
    for _ in range(30):
        state.circle = [rng.randrange(5) for _ in range(CIRCLE)]
        for cid in game.codex_by_id:
            for relaxed in (False, True):
                assert state.mask(cid, relaxed) == plain_mask(state, cid, relaxed)
        printed, relaxed_masks, _ = state.circle_masks()
        assert set(printed) == set(relaxed_masks) == set(game.codex_by_id)


# ------------------------------------------------------------ remembered lists
REMEMBERED = ("pre", "swap2", "play")


def test_remembered_lists_are_the_generators() -> None:
    """A determinization's states remember their swap steps' and play windows' lists on the
    spec under ``legal_key``; every list the memo hands out, for ordinary states and corners
    sharing the one memo, is a fresh generation's list (and the plain reading's)."""
    remembered = 0
    for variant, players, params in CONFIGS:
        game = load_game("damocles", variant=variant, players=players, **params)
        memo = game.legal_memo
        for seed in range(3):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.phase == "turn" and state.step in REMEMBERED:
                    others = [state.clone()]
                    if state.step == "play":
                        others.append(corner(state, rng))
                    for other in others:
                        other.tables = memo
                        seat = other.active
                        remembered += legal_key(other, seat) in memo
                        actions, members = remembered_moves(other, seat)
                        assert members is None
                        assert list(actions) == plain_moves(other, seat)
                        other._legal = None
                        assert other.legal_actions(seat) is actions
                joint = {}
                for s in state.current_players():
                    legal = state.legal_actions(s)
                    joint[s] = legal[rng.randrange(len(legal))]
                state.apply_actions(joint)
    assert remembered > 100


def _perturbed(state, rng: random.Random):
    """Copies of a swap-step or play-window ``state`` with one field the generator reads
    changed."""
    seat, n = state.active, state.game.players
    out = []

    def changed(edit):
        other = state.clone()
        edit(other)
        other._legal = None
        out.append(other)

    hand = state.hands[seat]
    if len(hand) > 1:
        changed(lambda s: s.hands[seat].reverse())
        changed(lambda s: s.hands[seat].pop(rng.randrange(len(hand))))
    if state.deck:
        changed(lambda s: s.hands[seat].append(s.deck.pop()))
    a, b = rng.sample(range(CIRCLE), 2)
    changed(lambda s: s.circle.__setitem__(a, (s.circle[a] + 1) % 5))
    changed(lambda s: s.circle.__setitem__(b, s.circle[a]))
    changed(lambda s: setattr(s, "relax_tokens", s.relax_tokens + 1))
    changed(lambda s: setattr(s, "pair_played", not s.pair_played))
    changed(lambda s: setattr(s, "annex_played", not s.annex_played))
    changed(lambda s: setattr(s, "annex_available", not s.annex_available))
    for other in range(n):
        if state.hands[other]:
            changed(lambda s, o=other: s.tableaus[o].append(s.hands[o].pop()))
        if len(state.tableaus[other]) > 1:
            changed(lambda s, o=other: s.tableaus[o].reverse())
    pairs = [m.args[:2] for m in legal_moves(state, seat) if m.kind == "pair"]
    if pairs:
        changed(lambda s: s.pairs_used.add(rng.choice(pairs)))
    if hand:
        changed(lambda s: s.granted.append(rng.choice(s.hands[seat])))
    hastes = [c for c in state.deck if state.game.codex_by_id[c].type == "HASTE"]
    if hastes:
        changed(lambda s: s.hands[seat].insert(0, s.deck.pop(s.deck.index(hastes[0]))))
    if state.bank is not None:
        god = rng.randrange(5)
        changed(lambda s: s.bank.__setitem__(god, 0))
        changed(lambda s: s.bank.__setitem__(god, s.bank[god] + 1))
    return out


def test_the_key_changes_whenever_the_list_does() -> None:
    differing = 0
    for variant, players, params in CONFIGS:
        game = load_game("damocles", variant=variant, players=players, **params)
        state = game.new_initial_state(7)
        rng = random.Random(7)
        while not state.is_terminal():
            if state.phase == "turn" and state.step in REMEMBERED:
                bases = [state, corner(state, rng)] if state.step == "play" else [state]
                for base in bases:
                    seat = base.active
                    key, legal = legal_key(base, seat), list(legal_moves(base, seat))
                    for other in _perturbed(base, rng):
                        if list(legal_moves(other, seat)) != legal:
                            differing += 1
                            assert legal_key(other, seat) != key
            joint = {}
            for s in state.current_players():
                legal = state.legal_actions(s)
                joint[s] = legal[rng.randrange(len(legal))]
            state.apply_actions(joint)
    assert differing >= 100  # the changes did reach the generator

