"""Legal moves of Damocles, per sub-decision (the one place legality is defined).

The state (``rules.DamoclesState``) asks :func:`legal_moves` for the acting seat; the engine
refuses anything not in that list, so the transitions in ``rules`` may assume legality.
Rules: seeds/damocles.txt, SETUP and TURN MECHANICS; decisions DAM-n in docs/rules/damocles.md.

Speed (a search lists moves at every node of every iteration): what depends only on the game
spec is built once per spec and seat (:func:`_tables`: each codex's role in the play window,
the interned ``play``, ``haste``, ``pair``, swap and trade moves); rotation masks come from
the state's per-circle memo (``DamoclesState.circle_masks``); placements are remembered per
seat, circle and supply (:func:`_placements`); a determinization's states remember their
swap steps' and play windows' lists under :func:`legal_key` (:func:`remembered_moves`).
Every list is the same, in the same order, as the plain reading of the rules would give;
``tests/test_damocles_moves.py`` checks the specialised paths against the general ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from meeple.engine.determinization import remember_legal
from meeple.games.damocles.actions import Move, move
from meeple.games.damocles.codex import CIRCLE, MANIPULATION, NUMBER, PRODUCTION

if TYPE_CHECKING:
    from meeple.games.damocles.rules import DamoclesState

#: A codex's role in the play window (:func:`_tables`): a Production or a Number (played only
#: in a pair), a Manipulation (Haste, Reflex), an Annex, a Destruction (Lyse, Eviscerate), a
#: Sacrifice.
PRODUCES, COUNTS, MANIPULATES, ANNEXES, DESTROYS, SACRIFICES = range(6)
_KEY = "damocles-moves"


def legal_moves(state: DamoclesState, seat: int) -> Sequence[Move]:
    """Every legal move of ``seat`` now, in a deterministic order (never empty when acting);
    a list, or a remembered tuple (placements) that must not be changed."""
    phase = state.phase
    if phase == "turn":
        step = state.step
        if step == "play":
            return _play_window(state, seat)
        if step == "pre" or step == "swap2":
            return _swap_step(state, seat, step)
        if step == "keep":
            return sorted((Move(seat, "keep", tuple(sorted(c)))
                           for c in combinations(state.keep_pool, state.keep_count)), key=str)
        target = state.destroy_queue[0][0]  # step == "destroy"
        return [move(seat, "destroy", (cid,)) for cid in sorted(state.tableaus[target])]
    if phase == "place":
        return _placements(state, seat)
    size = state.game.params["setup_discard"]  # phase == "discard"
    return sorted((Move(seat, "discard", tuple(sorted(c)))
                   for c in combinations(state.hands[seat], size)), key=str)


def _swap_step(state: DamoclesState, seat: int, step: str) -> list[Move]:
    """TURN MECHANICS 1-2: before the first swap, a Haste whose pattern is in the circle
    (before any other action, DAM-13); then the swaps; ``stop`` at the second swap, which is
    optional (DAM-12), or at any swap with ``swap_optional``."""
    tables = _tables(state.game)
    moves = _hastes(state, seat) if step == "pre" else []
    moves += _swaps(state, seat)
    if step == "swap2" or tables.swap_optional:
        moves.append(tables.stops[seat])
    return moves


def _hastes(state: DamoclesState, seat: int) -> list[Move]:
    """The ``haste`` moves of ``seat``'s hand: Hastes that may be played this turn whose
    pattern is in the circle (TURN MECHANICS 1, DAM-13), in hand order."""
    tables = _tables(state.game)
    hastes = tables.hastes[seat]
    barred = () if tables.grants_now else state.granted
    moves = []
    for cid in state.hands[seat]:
        if cid in hastes and cid not in barred and state.mask(cid, False):
            moves.append(hastes[cid])
    return moves


#: How many legal lists a game spec remembers (:func:`remembered_moves`), then again from
#: empty.
LEGAL_MEMO = 8192


def legal_key(state: DamoclesState, seat: int) -> tuple:
    """Everything the generator reads of ``state`` for ``seat`` at a swap step or in the play
    window (the spec aside), as a hashable key: two states of one game with equal keys have
    equal legal lists, in the same order. At a swap step the hand enters only as the Hastes
    that may be played (:func:`_hastes`, which the key lists). Change it with the generator:
    ``tests/test_damocles_moves.py`` checks they agree."""
    step = state.step
    bank = state.bank
    if step != "play":
        return (step, seat, tuple(state.circle), None if bank is None else tuple(bank),
                tuple(_hastes(state, seat)) if step == "pre" else None)
    tableaus = state.tableaus
    used = state.pairs_used
    return (step, seat, tuple(state.hands[seat]), tuple(state.circle), tuple(tableaus[seat]),
            state.relax_tokens, state.pair_played, state.annex_played,
            tuple(map(tuple, tableaus)) if state.annex_available else None,
            frozenset(used) if used else None, tuple(state.granted))


def remembered_moves(state: DamoclesState, seat: int) -> tuple[tuple[Move, ...], None]:
    """``seat``'s legal moves at a swap step or in the play window as a legal entry of the
    engine (``(moves, None)``), kept in the memo ``state.tables`` (the game spec's) under
    :func:`legal_key`: the same tuple for every state with that key, which a search's tree
    also recognises by identity."""
    memo = state.tables
    key = legal_key(state, seat)
    entry = memo.get(key)
    if entry is None:
        entry = remember_legal(memo, key, legal_moves(state, seat), LEGAL_MEMO)
    return entry


class _Tables:
    """What the generator reads per game spec and seat (:func:`_tables`).

    Attributes:
        role: codex id -> its play-window role (``PRODUCES``..``SACRIFICES``).
        grants_now, strict_steps, joint, swap_optional: the parameters
            ``grants_playable_same_turn``, ``strict_steps``, ``pair_anchor == "joint"`` and
            ``swap_optional``.
        hastes: seat -> Haste codex id -> its ``haste`` move.
        plays: seat -> codex id -> its two ``play`` moves (printed, relaxed), once asked.
        ends, stops: seat -> its ``end`` move, its ``stop`` move.
        pairs: seat -> Production id -> Number id -> their ``pair`` move without a Reflex,
            once asked.
        swaps: seat -> ``(a, b, move)`` for every pair of slots ``a < b``.
        trades: seat -> slot -> circle god -> ``(god, move)`` for every other god, in order.
        trade_moves: the same moves without the gods (a bank with every god in stock).
        placements: ``(seat, empty slots, gods in supply)`` -> the placement moves.
        placed: ``(seat, first placement, circle, bank)`` -> the legal entry of the same
            lists (:func:`_placements`, the engine's ``remember_legal``).
    """

    __slots__ = ("role", "grants_now", "strict_steps", "joint", "swap_optional", "hastes",
                 "plays", "ends", "stops", "pairs", "swaps", "trades", "trade_moves",
                 "placements", "placed")

    def __init__(self, game: Any) -> None:
        self.role: dict[str, int] = {}
        for cid, codex in game.codex_by_id.items():
            cls = codex.info.cls
            self.role[cid] = (
                PRODUCES if cls == PRODUCTION else COUNTS if cls == NUMBER
                else (ANNEXES if codex.type == "ANNEX" else MANIPULATES) if cls == MANIPULATION
                else SACRIFICES if codex.type == "SACRIFICE" else DESTROYS)
        p = game.params
        self.grants_now = p["grants_playable_same_turn"]
        self.strict_steps = p["strict_steps"]
        self.joint = p["pair_anchor"] == "joint"
        self.swap_optional = p["swap_optional"]
        seats = range(game.players)
        self.hastes = [{cid: move(s, "haste", (cid,)) for cid, codex in game.codex_by_id.items()
                        if codex.type == "HASTE"} for s in seats]
        self.plays: list[dict[str, tuple[Move, Move]]] = [{} for _ in seats]  # filled on use
        self.ends = [move(s, "end") for s in seats]
        self.stops = [move(s, "stop") for s in seats]
        self.pairs: list[dict[str, dict[str, Move]]] = [{} for _ in seats]  # filled on use
        self.swaps = [tuple((a, b, move(s, "swap", (a, b)))
                            for a in range(CIRCLE) for b in range(a + 1, CIRCLE)) for s in seats]
        self.trades = [tuple(tuple(tuple((god, move(s, "trade", (slot, god)))
                                         for god in range(5) if god != held)
                                   for held in range(5)) for slot in range(CIRCLE))
                       for s in seats]
        self.trade_moves = [tuple(tuple(tuple(m for _, m in held) for held in slot)
                                  for slot in by_slot) for by_slot in self.trades]
        self.placements: dict[tuple, tuple[Move, ...]] = {}
        self.placed: dict[tuple, Any] = {}


def _tables(game: Any) -> _Tables:
    """The generator's tables of ``game`` (built on first use, kept on the spec)."""
    tables = game._cache.get(_KEY)
    if tables is None:
        tables = game._cache[_KEY] = _Tables(game)
    return tables


#: Circles (with seat and supply) under which a game spec remembers its placement lists
#: (:func:`_placements`), then again from empty.
PLACEMENT_MEMO = 4096


def _placements(state: DamoclesState, seat: int) -> tuple[Move, ...]:
    """:func:`_placement_moves`, remembered per seat, first placement or not, circle and bank
    (everything it reads; ``PLACEMENT_MEMO`` keys at most, then emptied): a search meets the
    same public circle in every determinization, and the key is built without a Python loop."""
    tables = _tables(state.game)
    bank = state.bank
    key = (seat, state.placed == 0, tuple(state.circle), None if bank is None else tuple(bank))
    memo = tables.placed
    entry = memo.get(key)
    if entry is None:  # the engine's bounded memo of legal lists
        entry = remember_legal(memo, key, _placement_moves(state, seat), PLACEMENT_MEMO)
    return entry[0]  # type: ignore[return-value]


def _placement_moves(state: DamoclesState, seat: int) -> tuple[Move, ...]:
    """SETUP 2: a god on an empty slot (DAM-10). Under rotational matching the first token's
    slot is irrelevant, so it always goes to slot 1; under ``shared20`` the supply limits gods.
    Remembered per (seat, empty slots, gods in supply): at most 6 x 2^7 x 2^5 lists."""
    circle, bank = state.circle, state.bank
    empty = tuple(s for s in range(CIRCLE) if circle[s] is None)
    if state.placed == 0 and state.game.params["match"] == "rotational":
        empty = (0,)
    shared = state.game.params["bank"] == "shared20"
    gods = tuple(god for god in range(5) if not shared or bank[god] > 0)
    memo = _tables(state.game).placements
    key = (seat, empty, gods)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(move(seat, "place", (god, slot)) for god in gods
                                  for slot in empty)
    return found


def _swaps(state: DamoclesState, seat: int) -> list[Move]:
    """TURN MECHANICS 2: internal swaps of two different gods, external swaps of a slot with a
    different bank god in stock; no-op swaps are not moves (DAM-11). Every candidate move is
    built once per game spec and seat (:func:`_tables`); this only filters them."""
    circle, bank = state.circle, state.bank
    tables = _tables(state.game)
    moves = [m for a, b, m in tables.swaps[seat] if circle[a] != circle[b]]
    if bank is None or min(bank) > 0:  # every other god is in stock
        for slot, held in zip(tables.trade_moves[seat], circle, strict=True):
            moves += slot[held]
    else:
        for slot, held in zip(tables.trades[seat], circle, strict=True):
            for god, m in slot[held]:
                if bank[god] > 0:
                    moves.append(m)
    return moves


def _play_window(state: DamoclesState, seat: int) -> list[Move]:
    """TURN MECHANICS 3-4 as one window (DAM-22): Manipulation and Destruction codices, then
    (Production, Number) pairs, then ``end``. One pass over the hand sorts its codices."""
    tables = _tables(state.game)
    role, plays = tables.role, tables.plays[seat]
    tokens = state.relax_tokens
    hand = state.hands[seat]
    if not tables.grants_now:  # codices drawn this turn wait (DAM-20)
        barred = state.granted
        hand = [cid for cid in hand if cid not in barred]
    entry = state.circle_masks()
    printed, relaxed = entry[0], entry[1]
    moves = []
    productions, numbers = [], []
    manipulations_open = not (tables.strict_steps and state.pair_played)
    annex_open = not state.annex_played  # "Annex codices do not stack" (DAM-31)
    tableau = state.tableaus[seat]  # a Sacrifice needs an own played codex (DAM-32)
    for cid in hand:
        kind = role[cid]
        if kind == PRODUCES:
            productions.append(cid)
            continue
        if kind == COUNTS:
            numbers.append(cid)
            continue
        if kind == MANIPULATES or kind == ANNEXES:
            if not manipulations_open or kind == ANNEXES and not annex_open:
                continue
        elif kind == SACRIFICES and not tableau:
            continue
        mask = printed.get(cid)
        if mask is None:
            mask = state.masked(entry, cid, 0)
        if not mask and tokens:
            mask = relaxed.get(cid)
            if mask is None:
                mask = state.masked(entry, cid, 1)
            if not mask:
                continue
            found = 1  # a Reflex relaxes it (DAM-6)
        elif mask:
            found = 0
        else:
            continue
        both = plays.get(cid)
        if both is None:
            both = plays[cid] = (move(seat, "play", (cid, False)), move(seat, "play", (cid, True)))
        moves.append(both[found])
    for cid in tableau:  # played Productions and Numbers pair again (DAM-18)
        kind = role[cid]
        if kind == PRODUCES:
            productions.append(cid)
        elif kind == COUNTS:
            numbers.append(cid)
    if productions or state.annex_available:
        moves += _pairs(state, seat, productions, numbers, tables.joint)
    moves.append(tables.ends[seat])
    return moves


def _pairs(state: DamoclesState, seat: int, productions: list[str], numbers: list[str],
           joint: bool) -> list[Move]:
    """(Production, Number) pairs that both match (DAM-14), each at most once per turn
    (DAM-15), never alone (DAM-16); a Reflex token relaxes only a codex that needs it (DAM-6);
    with an Annex, one opponent's matching tableau codex may stand in for one's own (DAM-31).
    ``productions`` and ``numbers``: the seat's own playable ones, hand then tableau.
    Without a Reflex token only :func:`_relaxation`'s first option can hold, so the codices
    that do not match as printed are dropped before the pairs are formed."""
    tables = _tables(state.game)
    role = tables.role
    borrowed: set[str] = set()
    if state.annex_available:
        for other, tableau in enumerate(state.tableaus):
            if other != seat:
                borrowed.update(c for c in tableau if role[c] <= COUNTS)
        productions = productions + sorted(c for c in borrowed if role[c] == PRODUCES)
        numbers = numbers + sorted(c for c in borrowed if role[c] == COUNTS)
    used = state.pairs_used
    entry = state.circle_masks()
    printed = entry[0]
    tokens = state.relax_tokens
    moves = []
    if not tokens:
        matched_p, matched_n = [], []
        for cids, matched in ((productions, matched_p), (numbers, matched_n)):
            for cid in cids:
                mask = printed.get(cid)
                if mask is None:
                    mask = state.masked(entry, cid, 0)
                if mask:
                    matched.append((cid, mask))
        plain = tables.pairs[seat]
        for pid, mp in matched_p:
            row = plain.get(pid)
            if row is None:
                row = plain[pid] = {}
            for nid, mn in matched_n:
                if used and (pid, nid) in used or borrowed and pid in borrowed and nid in borrowed:
                    continue
                if joint and not mp & mn:
                    continue
                found = row.get(nid)
                if found is None:
                    found = row[nid] = move(seat, "pair", (pid, nid, False, False))
                moves.append(found)
        return moves

    def mask(cid: str, relax: bool) -> int:
        return state.masked(entry, cid, 1 if relax else 0)

    for pid in productions:
        for nid in numbers:
            if (pid, nid) in used or (pid in borrowed and nid in borrowed):
                continue
            relax = _relaxation(mask, tokens, pid, nid, pid in borrowed, nid in borrowed, joint)
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
