"""Legal moves of Epoch Ellipse, per step (the one place legality is defined).

Rules: seeds/epoch-ellipse.txt; decisions EPE-n in docs/rules/epoch-ellipse.md. Copies of a
card are interchangeable, so moves name card types; a card pays with one printed mode
(EPE-9).

:func:`legal_moves` generates a seat's legal list; :func:`legal_tables` remembers it on the
game spec under :func:`legal_key` (every part of the state the generator reads), so a search
that meets the same decision again (the same hand at a limit, a combat, a plan) gets the same
table object back instead of generating it again. Only a determinization's states remember
(``EpochState.tables``): a playthrough rarely meets a decision twice.

Speed (search and the lab list moves at every step): card facts are read from per-game
tables by type (:class:`_Tables`, built once per game spec), the moves a card type pays with
are listed once per seat, kind and points (:func:`_paying`), and moves are looked up in the
game spec's interning dict under the engine's own key ``(seat, kind, args)`` (built through
:func:`.actions.make_move` the first time only), with plain loops (a comprehension costs a
frame in Python 3.11).
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from meeple.engine.determinization import remembered_tables
from meeple.engine.state import LegalEntry
from meeple.games.epoch_ellipse.actions import Move, make_move
from meeple.games.epoch_ellipse.cards import CATASTROPHE, CHARM, SALVAGE

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochState

#: Legal tables remembered per game spec (the memo is emptied when it holds more: a bound on
#: memory over a long run of searches, whose positions move on and never come back).
TABLES_MEMO = 8192
#: Trade offer lists remembered per game spec (emptied when it holds more).
TRADES_MEMO = 4096
#: Steps of one's own exploration, where emergency stabilization is open (EPE-30).
EXPLORING = ("choose", "flip", "combat", "collapse", "rescue", "limit")
#: Steps where a Mournful Sacrifice's charm may be played (EPE-6).
MOURNFUL_CHARM = ("plan", "choose", "combat", "collapse", "hunger")
#: Points wanted in the PLAN phase: card draw, and treatment with a catastrophe in hand.
PLAN_DRAW = ("draw",)
PLAN_TREAT = ("draw", "medical", "trash_catastrophe")


def paying_modes(card: Any, points: tuple[str, ...]) -> tuple[str, ...]:
    """The printed modes of ``card`` whose ability gives any of ``points`` (EPE-9), in the
    card's mode order: the rule of every payment."""
    out = []
    for mode in card.modes():
        ability = card.points(mode)
        for p in points:
            if ability.get(p, 0) > 0:
                out.append(mode)
                break
    return tuple(out)


class _Tables:
    """Per-game constants of the generator (built once per game spec, cached on it).

    By card type: ``catastrophe``, ``salvage``, ``charm`` (subtype CHARM) and ``redraw`` (a
    Discard ability with ``redraw``); by instance: ``cat`` (a catastrophe), and the set of
    those instances, ``catastrophes``; ``payable``: a type may pay points at all
    (``medical_salvage_only``: only SALVAGE); ``paying``: per ``(seat, kind, points)``, by
    type, the moves a card of that type pays with (built lazily per type, None until then);
    ``explores``: per ``(seat, position)``, the ``explore`` moves of 1.. ``explore_max``
    cards; ``trades``: per ``(seat, partner, given types, received types)``, the trade offers
    (at most :data:`TRADES_MEMO`); ``anytime``: emergency stabilization is open at any
    decision (EPE-30)."""

    __slots__ = ("catastrophe", "salvage", "charm", "redraw", "cat", "catastrophes", "payable",
                 "paying", "explores", "trades", "anytime")

    def __init__(self, game: Any) -> None:
        cards = game.content.cards
        self.catastrophe = tuple(c.kind == CATASTROPHE for c in cards)
        self.salvage = tuple(c.kind == SALVAGE for c in cards)
        self.charm = tuple(c.subtype == CHARM for c in cards)
        self.redraw = tuple(bool(c.discard.get("redraw")) for c in cards)
        self.cat = tuple(self.catastrophe[t] for t in game.ctype)
        self.catastrophes = frozenset(c for c, cat in enumerate(self.cat) if cat)
        only = game.params["medical_salvage_only"]
        self.payable = tuple(not only or c.kind == SALVAGE for c in cards)
        self.paying: dict[tuple, list[tuple[Move, ...] | None]] = {}
        self.explores: dict[tuple[int, int], tuple[Move, ...]] = {}
        self.trades: dict[tuple, tuple[Move, ...]] = {}
        self.anytime = game.params["stabilize_window"] == "anytime"


def _tables(game: Any) -> _Tables:
    tables = game._cache.get("moves")
    if tables is None:
        tables = game._cache["moves"] = _Tables(game)
    return tables


def _move(game: Any, seat: int, kind: str, args: tuple = ()) -> Move:
    """``seat``'s interned move (the engine's ``interning`` key and dict: one object per
    value, shared across states)."""
    key = (seat, kind, args)
    found = game.moves.get(key)
    if found is None:
        found = game.moves[key] = make_move(seat, kind, game.names, args)
    return found


def _paying(game: Any, tab: _Tables, seat: int, kind: str, points: tuple[str, ...],
            types: list[int]) -> list[Move]:
    """The ``kind`` moves of ``seat`` paying any of ``points`` with a card of one of
    ``types`` (ascending), in type then mode order (:func:`paying_modes`)."""
    row = tab.paying.get((seat, kind, points))
    if row is None:
        row = tab.paying[(seat, kind, points)] = [None] * len(game.names)
    out: list[Move] = []
    for t in types:
        moves = row[t]
        if moves is None:
            moves = row[t] = tuple(_move(game, seat, kind, (t, mode)) for mode in (
                paying_modes(game.content.cards[t], points) if tab.payable[t] else ()))
        out += moves
    return out


def legal_tables(state: EpochState) -> dict[int, LegalEntry]:
    """``State._legal_tables`` of a state whose ``tables`` is the game spec's memo: per acting
    seat, its legal moves (as :func:`legal_moves` lists them), each remembered in the memo
    under :func:`legal_key` (``engine.determinization.remembered_tables``: no membership set; a
    checked apply builds one when it needs it). The tables are shared between states and never
    mutated."""
    return remembered_tables(state, state.tables, legal_key, legal_moves, TABLES_MEMO)


def legal_key(state: EpochState, seat: int) -> tuple:
    """Everything :func:`legal_moves` reads of ``state`` for ``seat`` (the game spec's
    parameters and cards aside), as a hashable key: two states of one game with equal keys
    have equal legal lists, in the same order. Change it with the generator:
    ``tests/test_epoch_ellipse_moves.py`` checks the two agree over many playthroughs.

    A hand enters as the set of its card types (copies are interchangeable, and the generator
    lists types in ascending order). After the seat and the step: at a hand limit or a
    treatment, the hand alone; at a rescue, the hand and the exploration's salvage types;
    elsewhere the Mournful cards' types by owner (None without any), whether stabilization is
    open (a catastrophe in the discard pile, in the window) and then, at a plan, today's
    trades, the seats' status and every seat's hand (the trade offers), at a choice, the hand,
    whether the Location deck holds a card, the event decks' sizes and the tokens, at the
    other steps the hand. One flat tuple (status and hands have one entry per seat, event
    decks and tokens one per location in play), the commonest steps tested first."""
    step = state.step
    types = state.game.ctype
    # A hand's types through one ``itemgetter`` call (two cards or more), not a map.
    if step == "limit" or step == "treat":
        h = state.hands[seat]
        return (seat, step, frozenset(itemgetter(*h)(types) if len(h) > 1
                                      else map(types.__getitem__, h)))
    if step == "pick":
        return (seat, step, len(state.pool))
    if step == "answer":
        return (seat, step)
    if step == "rescue":
        h = state.hands[seat]
        return (seat, step, frozenset(itemgetter(*h)(types) if len(h) > 1
                                      else map(types.__getitem__, h)),
                frozenset(map(types.__getitem__, state.expl_salvage)))
    game = state.game
    ms_card = state.ms_card
    mournful = None
    if ms_card.count(None) != len(ms_card):  # a Mournful card: the types by owner
        mournful = tuple([None if c is None else types[c] for c in ms_card])
    tab = game._cache.get("moves") or _tables(game)
    stabilize = (tab.anytime or (step in EXPLORING and state.explorer == seat)) and (
        not tab.catastrophes.isdisjoint(state.discards[seat]))
    if step == "plan":  # every hand is read (the trade offers)
        key = [seat, step, mournful, stabilize, frozenset(state.traded), *state.status]
        for h in state.hands:
            key.append(frozenset(itemgetter(*h)(types) if len(h) > 1
                                 else map(types.__getitem__, h)))
        return tuple(key)
    h = state.hands[seat]
    hand = frozenset(itemgetter(*h)(types) if len(h) > 1 else map(types.__getitem__, h))
    if step == "choose":
        return (seat, step, mournful, stabilize, hand, bool(state.location_deck),
                *map(len, state.event_decks), *state.tokens)
    return (seat, step, mournful, stabilize, hand)


def legal_moves(state: EpochState, seat: int) -> list[Move]:
    """Every legal action of ``seat`` now, in a deterministic order."""
    game = state.game
    step = state.step
    if step == "pick":  # a survivor pile, in death order (EPE-38)
        return [_move(game, seat, "pick", (i,)) for i in range(len(state.pool))]
    if step == "answer":
        return [_move(game, seat, "accept"), _move(game, seat, "decline")]
    tab = _tables(game)
    ctype = game.ctype
    types = sorted(set(map(ctype.__getitem__, state.hands[seat])))
    out: list[Move] = []
    if step == "limit":
        for t in types:
            out.append(_move(game, seat, "return", (t,)))
        return out
    catastrophe = tab.catastrophe
    if step == "treat":  # trash a catastrophe from hand per medical point (2. PLAN)
        for t in types:
            if catastrophe[t]:
                out.append(_move(game, seat, "treat", (t,)))
        out.append(_move(game, seat, "done"))
        return out
    if step == "rescue":  # salvage from the hand or the exploration (3D; EPE-22)
        salvage = tab.salvage
        for t in types:
            if salvage[t]:
                out.append(_move(game, seat, "give", (t, False)))
        for t in sorted(set(map(ctype.__getitem__, state.expl_salvage))):
            out.append(_move(game, seat, "give", (t, True)))
        out.append(_move(game, seat, "done"))
        return out
    mournful = state.ms_card.count(None) != len(state.ms_card)  # a Mournful card in play
    if step == "plan":
        out += _trades(state, seat)
        treat = False
        for t in types:
            if catastrophe[t]:
                treat = True
                break
        out += _payments(state, seat, PLAN_TREAT if treat else PLAN_DRAW, "use", mournful,
                         types)
    elif step == "choose":
        out += _explore_options(state, seat)
    elif step == "flip":
        redraw = tab.redraw
        for t in types:
            if redraw[t]:
                out.append(_move(game, seat, "redraw", (t,)))
        out.append(_move(game, seat, "resolve"))
    elif step == "combat":
        out += _payments(state, seat, ("weapon",), "use", mournful, types)
    elif step == "collapse":
        out += _payments(state, seat, ("medical", "avoid_collapse"), "use", mournful, types)
    elif step == "hunger":
        out += _payments(state, seat, ("food",), "eat", mournful, types)
    charm = tab.charm
    for t in types:
        if charm[t]:
            out.append(_move(game, seat, "charm", (t,)))
    if mournful and step in MOURNFUL_CHARM:  # a Mournful charm (EPE-6)
        cards = game.content.cards
        for owner, ms in enumerate(state.ms_card):
            if ms is not None and cards[ctype[ms]].subtype == CHARM:
                out.append(_move(game, seat, "charm", ("ms", owner)))
    if tab.anytime or (step in EXPLORING and state.explorer == seat):
        cat = tab.cat
        for c in state.discards[seat]:
            if cat[c]:
                out += _paying(game, tab, seat, "stabilize", ("medical",), types)
                break
    if step == "plan":
        out.append(_move(game, seat, "pass"))
    elif step == "combat" or step == "collapse":
        out.append(_move(game, seat, "suffer"))
    elif step == "hunger":
        out.append(_move(game, seat, "starve"))
    elif step == "choose":
        for m in out:
            if m.kind == "new" or m.kind == "explore":
                break
        else:
            out.append(_move(game, seat, "skip"))  # nowhere to explore (EPE-12)
    return out


def _payments(state: EpochState, seat: int, points: tuple[str, ...], kind: str,
              mournful: bool, types: list[int]) -> list[Move]:
    """Cards of the hand (of ``types``, ascending) and, when ``mournful``, Mournful cards
    (EPE-6) with a mode giving any of ``points``."""
    game = state.game
    out = _paying(game, _tables(game), seat, kind, points, types)
    if mournful:
        cards, ctype = game.content.cards, game.ctype
        for owner, ms in enumerate(state.ms_card):
            if ms is None:
                continue
            for mode in paying_modes(cards[ctype[ms]], points):
                out.append(_move(game, seat, kind, ("ms", owner, mode)))
    return out


def _salvage_types(state: EpochState, seat: int, salvage: tuple[bool, ...]) -> tuple[int, ...]:
    """The SALVAGE card types in ``seat``'s hand, ascending."""
    out = []
    for t in sorted(set(map(state.game.ctype.__getitem__, state.hands[seat]))):
        if salvage[t]:
            out.append(t)
    return tuple(out)


def _trades(state: EpochState, seat: int) -> list[Move]:
    """1-for-1 salvage offers, one per pair of players a day (2. PLAN; EPE-7)."""
    game = state.game
    tab = _tables(game)
    salvage, memo = tab.salvage, tab.trades
    mine = None
    out: list[Move] = []
    traded = state.traded
    for partner, status in enumerate(state.status):
        if partner == seat or status != "alive":
            continue
        if (min(seat, partner), max(seat, partner)) in traded:
            continue
        if mine is None:
            mine = _salvage_types(state, seat, salvage)
            if not mine:
                return out
        theirs = _salvage_types(state, partner, salvage)
        key = (seat, partner, mine, theirs)
        offers = memo.get(key)
        if offers is None:
            offers = []
            for g in mine:
                for r in theirs:
                    if g != r:
                        offers.append(_move(game, seat, "trade", (partner, g, r)))
            offers = memo[key] = tuple(offers)
            if len(memo) > TRADES_MEMO:
                memo.clear()
                memo[key] = offers
        out += offers
    return out


def _explore_options(state: EpochState, seat: int) -> list[Move]:
    """A NEW LOCATION while the Location deck lasts, or any location in play with cards in
    its event deck (3A, 3B; EPE-13, EPE-41, EPE-42)."""
    game = state.game
    p = game.params
    out = [_move(game, seat, "new")] if state.location_deck else []
    skip_recovered, d6, most = (p["no_recovered_explore"], p["explore_count"] == "d6",
                                p["explore_max"])
    tokens = state.tokens
    explores = _tables(game).explores
    for pos, deck in enumerate(state.event_decks):
        if not deck or (skip_recovered and tokens[pos] == 0):
            continue
        if d6:
            out.append(_move(game, seat, "explore", (pos, 0)))
        else:
            row = explores.get((seat, pos))
            if row is None:
                row = explores[(seat, pos)] = tuple(
                    _move(game, seat, "explore", (pos, k)) for k in range(1, most + 1))
            out += row[:len(deck)]  # 1..min(explore_max, cards) cards
    return out
