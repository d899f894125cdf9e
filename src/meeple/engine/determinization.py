"""The engine's side of determinization (engine-patterns 6): many draws from one view.

:func:`determinizer` wraps a game's ``_determinizer`` hook (what the hidden parts may be)
with what every game shares: the view checked and read once, the acting seats checked, a
fresh chance seed per draw, other seats' pending simultaneous choices drawn, the seat's own
kept. ``Game.determinize`` and ``Game.determinizer`` are its public faces. :class:`UnseenDeal`
is the part card games share: the unseen cards shuffled and dealt to the other hands.
:func:`remember_legal`, :func:`remembered_tables` and :data:`LEGAL_MEMO` are for games whose
determinized states remember their legal tables on the game spec.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine import checks
from meeple.engine.errors import MeepleError
from meeple.engine.rng import shuffle

if TYPE_CHECKING:
    from meeple.engine.action import Action
    from meeple.engine.game import Game
    from meeple.engine.state import LegalEntry, State

#: The default bound of a game's memo of remembered legal tables (:func:`remember_legal`).
LEGAL_MEMO = 8192


def remember_legal(memo: MutableMapping[Hashable, LegalEntry], key: Hashable,
                   actions: Iterable[Action], bound: int = LEGAL_MEMO) -> LegalEntry:
    """The legal entry ``(tuple(actions), None)``, kept in ``memo`` under ``key``: a game
    whose determinized states remember their legal tables (a search meets the same decision
    again and again) calls it when ``memo.get(key)`` misses, ``key`` being everything its
    legal-move generator reads. Later states with that key get the same entry, whose tuple the
    search tree also recognises by identity. ``memo`` (the game spec's) is emptied first when
    it holds ``bound`` entries.

    The entry has no membership container (None): a search applies its own picks
    (``State.apply_legal``) and never tests membership, and a checked apply builds the set
    when it needs one (``State._check``); building a ``frozenset`` at every miss hashed every
    action for nothing."""
    if len(memo) >= bound:
        memo.clear()
    entry = memo[key] = (tuple(actions), None)
    return entry


def remembered_tables(state: State, memo: MutableMapping[Hashable, LegalEntry],
                      legal_key: Callable[[Any, int], Hashable],
                      generate: Callable[[Any, int], Iterable[Action]],
                      bound: int = LEGAL_MEMO) -> dict[int, LegalEntry]:
    """``State._legal_tables`` of a determinized ``state`` that remembers its tables in
    ``memo``: per acting seat, the entry under ``legal_key(state, seat)``, made on a miss by
    :func:`remember_legal` from ``generate(state, seat)`` (the game's legal-move generator,
    which must read nothing of ``state`` that the key leaves out)."""
    out = {}
    for seat in state._acting:
        key = legal_key(state, seat)
        entry = memo.get(key)
        if entry is None:
            entry = remember_legal(memo, key, generate(state, seat), bound)
        out[seat] = entry
    return out


def determinizer(game: Game, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
    """``draw(rng)``: a full state consistent with ``view`` (see ``Game.determinizer``).

    Raises:
        ViewError: ``view`` is not a seat's view of ``game``, or one it cannot read.
        NotImplementedError: the game has no determinization.
        RuntimeError: (from ``draw``) the game's draw acts other seats than the view says.
    """
    seat = game.check_view(view)
    sample = checks.reading_view(game, game._determinizer, view)
    submitted = tuple(view.get("submitted", ()))
    acting = tuple(sorted({*view.get("to_act", ()), *submitted}))
    mine = game.parse_action(view["my_submission"], seat) if seat in submitted else None
    # When the seat alone acts, its legal actions are the same in every draw (they are
    # what it knows it may do: the conformance suite checks that a determinization keeps
    # them), so from the second draw on one table serves every draw.
    alone = acting == (seat,) and not submitted
    tables: Any = None
    draws = 0

    def draw(rng: random.Random) -> State:
        nonlocal tables, draws
        if type(rng) is not random.Random:
            checks.rng(rng)
        try:  # checks.reading_view, inlined: a frame less at every draw of a search
            state = sample(rng)
        except MeepleError:
            raise
        except checks.READ_ERRORS as exc:
            raise checks.view_error(game, exc) from exc
        if state._acting != acting:
            raise RuntimeError(f"{game.name} determinization acts seats "
                               f"{list(state._acting)}, the view says {list(acting)}")
        state.seed = rng.getrandbits(62)  # the engine's fields of a drawn state, set here
        state._rng = None
        state._legal = None
        state._pending = {}  # (drawn below)
        state.narrate = True
        if alone:
            if tables is None and draws:
                tables = state._legal_tables()
            state._legal = tables
            draws += 1
        pending = {}
        for other in submitted:
            if other == seat:
                pending[other] = mine
            else:
                pending[other] = rng.choice(state.legal_actions(other))
        state._pending = pending
        return state

    return draw


class UnseenDeal:
    """The cards a seat cannot see, shuffled and dealt to the other seats' hands at each draw
    (the hidden-hands part of a determinization, shared by every card game).

    Args:
        unseen: the cards the seat cannot place (any values; their order is the draw's start).
        sizes: every seat's hand size, seat 0 first (the seat's own included, not dealt).
        seat: the seat whose view this is (0-based); its hand is ``hand``.
        hand: the seat's own hand, copied into every draw.
        start: where the other hands begin in the shuffled cards (the deck, a hidden pool...
            may come first); the hands follow in seat order, skipping ``seat``.
    Attributes:
        end: the position after the last dealt hand (what follows is the caller's: a deck).
    """

    __slots__ = ("unseen", "seat", "hand", "players", "deals", "end")

    def __init__(self, unseen: Sequence[Any], sizes: Sequence[int], seat: int,
                 hand: Sequence[Any], start: int = 0) -> None:
        self.unseen = list(unseen)
        self.seat = seat
        self.hand = list(hand)
        self.players = len(sizes)
        deals = []
        at = start
        for s, size in enumerate(sizes):
            if s != seat:
                deals.append((s, at, at + size))
                at += size
        self.deals = tuple(deals)
        self.end = at

    def draw(self, rng: random.Random) -> tuple[list[Any], list[list[Any]]]:
        """Shuffle a copy of the unseen cards with ``rng`` (:func:`meeple.engine.rng.shuffle`,
        one draw sequence) and deal them. Returns ``(cards, hands)``: the shuffled cards and
        every seat's hand (new lists; ``hands[seat]`` a copy of ``hand``)."""
        cards = self.unseen.copy()
        shuffle(rng, cards)
        hands: list[Any] = [None] * self.players  # every seat's slot is filled below
        hands[self.seat] = self.hand.copy()
        for s, a, b in self.deals:
            hands[s] = cards[a:b]
        return cards, hands
