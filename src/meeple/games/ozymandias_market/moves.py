"""Legal moves of Ozymandias (market edition), per sub-decision (the one place legality is
defined). Rules: seeds/ozymandias-market.md, Game Sequence; decisions OZD-n in
docs/rules/ozymandias-market.md.

:func:`legal_orders` generates a seat's legal list; :func:`legal_tables` remembers it on the
game spec under :func:`legal_key` (every part of the state the generator reads), so a search
that meets the same decision again (the same public map and market, the same hand) gets the
same table object back instead of generating it again. Only a determinization's states
remember (``MarketState.tables``): a playthrough rarely meets a decision twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import TYPE_CHECKING

from meeple.engine.action import interning
from meeple.engine.determinization import remember_legal, remembered_tables
from meeple.engine.state import LegalEntry
from meeple.games.ozymandias_market.actions import Order, make_order
from meeple.games.ozymandias_market.hexes import Hex, frontier, neighbours

if TYPE_CHECKING:
    from meeple.games.ozymandias_market.rules import MarketState, OzymandiasMarket


#: Legal tables remembered per game spec (the memo is emptied when it holds more: a bound on
#: memory over a long run of searches, whose positions move on and never come back).
TABLES_MEMO = 8192


def legal_tables(state: MarketState) -> dict[int, LegalEntry]:
    """``State._legal_tables`` of a market state whose ``tables`` is the game spec's memo: per
    acting seat, its legal orders (as :func:`legal_orders` lists them) with no membership
    container, each remembered in the memo under :func:`legal_key`. The tables are shared
    between states and never mutated."""
    memo = state.tables
    if state.phase == "plan":  # every seat plans: the key's sorted hand serves the miss too
        game, hands, out = state.game, state.hands, {}
        for seat in state._acting:
            hand = tuple(sorted(hands[seat]))
            key = (seat, hand)  # legal_key's, for a plan
            entry = memo.get(key)
            if entry is None:
                entry = remember_legal(memo, key, _plans(game, seat, hand), TABLES_MEMO)
            out[seat] = entry
        return out
    return remembered_tables(state, memo, legal_key, legal_orders, TABLES_MEMO)


def legal_key(state: MarketState, seat: int) -> tuple:
    """Everything :func:`legal_orders` reads of ``state`` for ``seat`` (the game spec's
    parameters and cards aside), as a hashable key: two states of one game with equal keys
    have equal legal lists, in the same order. Change it with the generator:
    ``tests/test_ozymandias_market_moves.py`` checks the two agree over many playthroughs.

    The map enters as its sectors in the dict's order with their stacks (the generator sorts
    sectors, so a map met in another order is only a miss, never a wrong table); the hand
    enters a raise only for Bazaar, the one event that offers hand cards."""
    if state.phase == "plan":
        return (seat, tuple(sorted(state.hands[seat])))
    step = state.step
    if step == "trade_hand":
        return (seat, step, tuple(sorted(state.hands[seat])), tuple(sorted(state.market)),
                not state.deck and not state.discard)
    if step == "trade_played":
        return (seat, step, state.played[seat], tuple(sorted(state.market)),
                not state.deck and not state.discard)
    if step == "augury":
        return (seat, step, tuple(state.augury_pool))
    stacks = state.stacks
    played = state.played[seat]
    board = (tuple(stacks), tuple(map(tuple, stacks.values())))
    if step == "surge":
        return (seat, step, played, board, state.sectors_left)
    game = state.game
    hand = (tuple(sorted(state.hands[seat])) if game.card_by_rank[played].event == "BAZAAR"
            else None)
    return (seat, step, played, board, state.sectors_left, state.supply[game.suit_of[played]],
            tuple(sorted(state.market)), len(state.deck) >= 2, hand)


def legal_orders(state: MarketState, seat: int) -> list[Order]:
    """Every legal action of ``seat`` now, in a deterministic order."""
    game = state.game
    if state.phase == "plan":  # Secret plans: any card in hand (OZD-15)
        return _plans(game, seat, sorted(state.hands[seat]))
    step = state.step
    if step == "trade_hand":  # must trade a hand card (Trade cards, OZD-18, OZD-19)
        takeable = _takeable(state)
        trades = game.trades[seat]
        out = []
        for given in sorted(state.hands[seat]):
            out += _trade_row(game, trades, seat, given, takeable)
        return out
    if step == "trade_played":  # may trade the played card too
        given = state.played[seat]
        return _trade_row(game, game.trades[seat], seat, given, _takeable(state)) + [
            _interned(game, seat, "done", ())]
    suits = game.suit_of
    interned = game.orders  # one Order object per value, per game spec
    order = interning(interned, seat, lambda kind, args: make_order(seat, kind, suits, args))
    # The longest lists (expansions, surges, diasporas) look the interned orders up directly,
    # with the interning's own key, and build through it only the first time (were that key
    # to change, every look-up would miss and build: slower, never different).
    known = interned.get
    colour = suits[state.played[seat]]
    if step == "surge":  # further expansions of a Surge, or stop
        card = game.card_by_rank[state.played[seat]]
        explore = bool(card.param("explore")) or game.params["explore_on_expand"]
        return [known((seat, "surge", (h,))) or order("surge", h)
                for h in _expansions(state, colour, explore=explore)] + [order("done")]
    if step == "augury":  # the order to put the looked-at cards back, top first
        return [order("order", *p) for p in permutations(state.augury_pool)]
    # Raise: expand with the card's colour, or its event; pass only if neither (OZD-14)
    moves = [known((seat, "expand", option)) or order("expand", *option)
             for option in _expand_options(state, colour)]
    moves += _event_orders(state, seat, colour, order)
    return moves or [order("pass")]


def _plans(game: OzymandiasMarket, seat: int, hand: Sequence[int]) -> list[Order]:
    """``seat``'s plan orders, one per card of ``hand`` (sorted by the caller), from the game
    spec's rank -> interned plan order table ``plans[seat]`` (filled on first use)."""
    plans = game.plans[seat]
    out = []
    for rank in hand:  # a plain loop: no comprehension's frame
        found = plans.get(rank)
        if found is None:
            found = plans[rank] = _interned(game, seat, "plan", (rank,))
        out.append(found)
    return out


def _interned(game: OzymandiasMarket, seat: int, kind: str, args: tuple) -> Order:
    """``seat``'s order of ``kind`` with ``args``, one object per value in the game spec's
    ``orders`` (under the engine's interning key ``(seat, kind, args)``, so the orders made here
    and through :func:`meeple.engine.action.interning` are the same objects)."""
    key = (seat, kind, args)
    found = game.orders.get(key)
    if found is None:
        found = game.orders[key] = make_order(seat, kind, game.suit_of, args)
    return found


def _trade_row(game: OzymandiasMarket, trades: dict[int, dict[int | str, Order]], seat: int,
               given: int, takeable: list[int | str]) -> list[Order]:
    """The trades of ``given`` for each of ``takeable`` in order, from ``trades`` (the seat's
    given -> taken -> interned order table on the game spec, filled on first use)."""
    row = trades.get(given)
    if row is None:
        row = trades[given] = {}
    out = []
    for taken in takeable:
        found = row.get(taken)
        if found is None:
            found = row[taken] = _interned(game, seat, "trade", (given, taken))
        out.append(found)
    return out


def _takeable(state: MarketState) -> list[int | str]:
    """Market cards, and the deck top while a card can be drawn (OZD-19, OZD-25)."""
    out: list[int | str] = sorted(state.market)
    if state.deck or state.discard:
        out.append("deck")
    return out


def _expansions(state: MarketState, colour: int, explore: bool) -> list[Hex]:
    """Sectors (and, if ``explore``, frontier spots for a new sector) where an expansion of
    ``colour`` may go: next to its colour if it is in play, anywhere otherwise (OZD-7, OZD-9);
    never onto its own colour unless ``allow_self_stack`` (OZD-8). A sector holds the colour
    (it anchors an expansion next to it) with the colour anywhere in its stack, or only on
    top under ``adjacency=top_only`` (OZD-7)."""
    p = state.game.params
    stacks = state.stacks
    mine = [h for h, stack in stacks.items() if colour in stack]  # the colour is in play
    if not mine:
        near: set[Hex] | None = None  # anywhere (OZD-9)
    else:
        if p["adjacency"] == "top_only":
            mine = [h for h in mine if stacks[h][-1] == colour]
        near = {n for h in mine for n in neighbours(h)}
    self_stack = p["allow_self_stack"]
    out = [h for h in sorted(stacks) if (self_stack or colour not in stacks[h])
           and (near is None or h in near)]
    if explore and state.sectors_left:
        out += [h for h in frontier(stacks) if near is None or h in near]
    return out


def _expand_options(state: MarketState, colour: int) -> list[tuple[Hex, Hex | None]]:
    """(target, source) of each legal expansion: from the supply, or, when it is empty and
    ``take_from_map`` is on, a top disk of the colour taken from elsewhere (OZD-3)."""
    p = state.game.params
    targets = _expansions(state, colour, explore=p["explore_on_expand"])
    if state.supply[colour]:
        return [(h, None) for h in targets]
    if not p["take_from_map"]:
        return []
    sources = [h for h in sorted(state.stacks) if state.stacks[h] and
               state.stacks[h][-1] == colour]
    return [(h, s) for h in targets for s in sources if s != h]


def _event_orders(state: MarketState, seat: int, colour: int, order) -> list[Order]:
    """The card's event, with every target it can take; nothing if it cannot change the
    state (OZD-14). Events override the rules text (OZD-13)."""
    card = state.game.card_by_rank[state.played[seat]]
    kind = card.event
    stacks = state.stacks
    has_disk = state.supply[colour] > 0
    if kind == "EXPLORE":
        if not (has_disk and state.sectors_left):
            return []
        return [order("explore", h) for h in frontier(stacks)]
    if kind == "RAZE":
        return [order("raze", h) for h in sorted(stacks) if stacks[h]]
    if kind == "MARCH":
        self_stack = state.game.params["allow_self_stack"]
        return [order("march", h, n) for h in sorted(stacks)
                if stacks[h] and stacks[h][-1] == colour
                for n in neighbours(h) if n in stacks and (self_stack or colour not in stacks[n])]
    if kind == "COUP":
        return [order("coup", h) for h in sorted(stacks)
                if len(stacks[h]) >= 2 and stacks[h][-1] != stacks[h][-2]]
    if kind == "SURGE":
        if not has_disk or card.param("times") < 1:
            return []
        explore = bool(card.param("explore")) or state.game.params["explore_on_expand"]
        return [order("surge", h) for h in _expansions(state, colour, explore=explore)]
    if kind == "DIASPORA":
        if not has_disk:
            return []
        self_stack = state.game.params["allow_self_stack"]
        targets = [h for h in sorted(stacks) if self_stack or colour not in stacks[h]]
        if card.param("explore") and state.sectors_left:
            targets += frontier(stacks)
        known = state.game.orders.get  # as in legal_orders
        return [known((seat, "diaspora", (h,))) or order("diaspora", h) for h in targets]
    if kind == "TRIBUTE":
        return [order("tribute")] if state.value(colour) - card.param("minus") > 0 else []
    if kind == "BAZAAR":
        return [order("bazaar", given, taken) for given in sorted(state.hands[seat])
                for taken in sorted(state.market)]
    if kind == "AUGURY":  # reordering needs at least two cards (OZD-14)
        return [order("augury")] if min(card.param("depth"), len(state.deck)) >= 2 else []
    if kind == "EMBARGO":
        return [order("embargo", rank) for rank in sorted(state.market)]
    return []
