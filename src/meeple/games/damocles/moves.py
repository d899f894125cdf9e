"""Legal moves of Damocles, per sub-decision (the one place legality is defined).

The state (``rules.DamoclesState``) asks :func:`legal_moves` for the acting seat; the engine
refuses anything not in that list, so the transitions in ``rules`` may assume legality.
Rules: seeds/damocles.txt, SETUP and TURN MECHANICS; decisions DAM-n in docs/rules/damocles.md.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any

from meeple.games.damocles.actions import Move, move
from meeple.games.damocles.codex import CIRCLE, DESTRUCTION, MANIPULATION, NUMBER, PRODUCTION

if TYPE_CHECKING:
    from meeple.games.damocles.rules import DamoclesState


def legal_moves(state: DamoclesState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now, in a deterministic order (never empty when acting)."""
    phase = state.phase
    if phase == "discard":
        size = state.game.params["setup_discard"]
        return sorted((Move(seat, "discard", tuple(sorted(c)))
                       for c in combinations(state.hands[seat], size)), key=str)
    if phase == "place":
        return _placements(state, seat)
    step = state.step
    if step == "keep":
        return sorted((Move(seat, "keep", tuple(sorted(c)))
                       for c in combinations(state.keep_pool, state.keep_count)), key=str)
    if step == "destroy":
        target = state.destroy_queue[0][0]
        return [move(seat, "destroy", (cid,)) for cid in sorted(state.tableaus[target])]
    if step in ("pre", "swap2"):
        moves = []
        if step == "pre":  # TURN MECHANICS 1: Haste before any other action (DAM-13)
            moves += [move(seat, "haste", (cid,)) for cid in _playable(state, seat, "HASTE")
                      if state.mask(cid, False)]
        moves += _swaps(state, seat)
        if step == "swap2" or state.game.params["swap_optional"]:
            moves.append(move(seat, "stop"))  # the second swap is optional (DAM-12)
        return moves
    return _play_window(state, seat)


def _placements(state: DamoclesState, seat: int) -> list[Move]:
    """SETUP 2: a god on an empty slot (DAM-10). Under rotational matching the first token's
    slot is irrelevant, so it always goes to slot 1; under ``shared20`` the supply limits gods."""
    circle, bank = state.circle, state.bank
    empty = [s for s in range(CIRCLE) if circle[s] is None]
    if state.placed == 0 and state.game.params["match"] == "rotational":
        empty = [0]
    shared = state.game.params["bank"] == "shared20"
    return [move(seat, "place", (god, slot)) for god in range(5)
            if not shared or bank[god] > 0 for slot in empty]


def _swaps(state: DamoclesState, seat: int) -> list[Move]:
    """TURN MECHANICS 2: internal swaps of two different gods, external swaps of a slot with a
    different bank god in stock; no-op swaps are not moves (DAM-11). Every candidate move is
    built once per game spec and seat (:func:`_swap_candidates`); this only filters them."""
    circle, bank = state.circle, state.bank
    swaps, trades = _swap_candidates(state.game, seat)
    moves = [m for a, b, m in swaps if circle[a] != circle[b]]
    if bank is None:
        moves += [m for slot, god, m in trades if god != circle[slot]]
    else:
        moves += [m for slot, god, m in trades if god != circle[slot] and bank[god] > 0]
    return moves


def _swap_candidates(game: Any, seat: int) -> tuple[tuple, tuple]:
    """``seat``'s swap moves ``(a, b, move)`` for every pair of slots ``a < b`` and its trade
    moves ``(slot, god, move)`` for every slot and god, in the generator's order (memoised on
    the game spec)."""
    found = game._swap_moves.get(seat)
    if found is None:
        found = game._swap_moves[seat] = (
            tuple((a, b, move(seat, "swap", (a, b)))
                  for a in range(CIRCLE) for b in range(a + 1, CIRCLE)),
            tuple((slot, god, move(seat, "trade", (slot, god)))
                  for slot in range(CIRCLE) for god in range(5)))
    return found


def _playable(state: DamoclesState, seat: int, type_name: str) -> list[str]:
    """Ids of ``type_name`` codices in ``seat``'s hand that may be played this turn."""
    deck = state.game.codex_by_id
    barred = () if state.game.params["grants_playable_same_turn"] else state.granted
    return [cid for cid in state.hands[seat]
            if deck[cid].type == type_name and cid not in barred]


def _play_window(state: DamoclesState, seat: int) -> list[Move]:
    """TURN MECHANICS 3-4 as one window (DAM-22): Manipulation and Destruction codices, then
    (Production, Number) pairs, then ``end``."""
    game = state.game
    deck, p = game.codex_by_id, game.params
    tokens = state.relax_tokens
    barred = () if p["grants_playable_same_turn"] else state.granted
    hand = [cid for cid in state.hands[seat] if cid not in barred]
    moves = []
    manipulations_open = not (p["strict_steps"] and state.pair_played)
    for cid in hand:
        codex = deck[cid]
        cls = codex.info.cls
        if cls == MANIPULATION and not manipulations_open:
            continue
        if cls not in (MANIPULATION, DESTRUCTION):
            continue
        if codex.type == "ANNEX" and state.annex_played:
            continue  # "Annex codices do not stack" (DAM-31)
        if codex.type == "SACRIFICE" and not state.tableaus[seat]:
            continue  # needs an own played codex to discard (DAM-32)
        if state.mask(cid, False):
            moves.append(move(seat, "play", (cid, False)))
        elif tokens and state.mask(cid, True):
            moves.append(move(seat, "play", (cid, True)))  # a Reflex relaxes it (DAM-6)
    moves += _pairs(state, seat, hand)
    moves.append(move(seat, "end"))
    return moves


def _pairs(state: DamoclesState, seat: int, hand: list[str]) -> list[Move]:
    """(Production, Number) pairs that both match (DAM-14), each at most once per turn
    (DAM-15), never alone (DAM-16); a Reflex token relaxes only a codex that needs it (DAM-6);
    with an Annex, one opponent's matching tableau codex may stand in for one's own (DAM-31)."""
    game = state.game
    deck = game.codex_by_id
    joint = game.params["pair_anchor"] == "joint"
    own = hand + state.tableaus[seat]
    productions = [c for c in own if deck[c].info.cls == PRODUCTION]
    numbers = [c for c in own if deck[c].info.cls == NUMBER]
    borrowed: set[str] = set()
    if state.annex_available:
        for other, tableau in enumerate(state.tableaus):
            if other != seat:
                borrowed.update(c for c in tableau if deck[c].info.cls in (PRODUCTION, NUMBER))
    used = state.pairs_used
    masks: dict[tuple[str, bool], int] = {}  # the circle is fixed while the pairs are listed

    def mask(cid: str, relaxed: bool) -> int:
        key = (cid, relaxed)
        if key not in masks:
            masks[key] = state.mask(cid, relaxed)
        return masks[key]

    moves = []
    for pid in productions + sorted(c for c in borrowed if deck[c].info.cls == PRODUCTION):
        for nid in numbers + sorted(c for c in borrowed if deck[c].info.cls == NUMBER):
            if (pid, nid) in used or (pid in borrowed and nid in borrowed):
                continue
            relax = _relaxation(mask, state.relax_tokens, pid, nid, pid in borrowed,
                                nid in borrowed, joint)
            if relax is not None:
                moves.append(move(seat, "pair", (pid, nid, relax[0], relax[1])))
    return moves


def _relaxation(mask: Callable[[str, bool], int], tokens: int, pid: str, nid: str,
                p_borrowed: bool, n_borrowed: bool, joint: bool) -> tuple[bool, bool] | None:
    """The fewest Reflex relaxations (of ``tokens`` held) that let the pair match, or None if
    none do; ``mask(codex_id, relaxed)`` is the codex's rotation mask on the circle."""
    options = [(False, False), (True, False), (False, True), (True, True)]
    for relax_p, relax_n in options:
        if relax_p + relax_n > tokens or (relax_p and p_borrowed) or (relax_n and n_borrowed):
            continue
        mp, mn = mask(pid, relax_p), mask(nid, relax_n)
        if (mp & mn) if joint else (mp and mn):
            return relax_p, relax_n
    return None
