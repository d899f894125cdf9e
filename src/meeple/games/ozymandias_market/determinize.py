"""Determinization of Ozymandias (market edition): a full state sampled from one seat's view,
for information-set search (``Game.determinize``; rules page section 12).

What a seat cannot see (OZD-31): the other hands (their sizes are public), the deck order, and
an Augury's cards when another seat is the looker (their number is public). The unseen cards
are every card of the deck list except the seat's own hand, the market, the discard pile, the
revealed played cards and, for the looker, its Augury cards. They are shuffled with the
caller's stream and dealt out: the deck (``deck_size`` cards), another looker's Augury pool
(``augury_size``), then the other hands in seat order. Every arrangement of the unseen cards
is equally likely: the sampler ignores what a seat could infer from the history (cards seen
taken from the market into a hand, recovered played cards, the order an Augury put back).

Pending plans are not drawn here: the engine draws them after this hook.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from meeple.engine.determinization import UnseenDeal
from meeple.engine.errors import ParameterError
from meeple.games.ozymandias_market.cards import COLOURS
from meeple.games.ozymandias_market.rules import MarketState, OzymandiasMarket

_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def _rank(card: str) -> int:
    """``W17`` -> 17 (the view writes cards as colour initial and rank)."""
    return int(card[1:])


def determinizer(game: OzymandiasMarket,
                 view: Mapping[str, Any]) -> Callable[[random.Random], MarketState]:
    """``draw(rng)``: ``Game.determinize(view, rng)``'s state before the engine's part (the seed,
    the pending choices), with the view read once: ``draw`` shuffles the unseen cards, deals
    them and copies the rest (the map as a new dict of the same stack lists: the rules give a
    changed stack a new list, never change one in place, so the draws share them safely).

    Raises:
        ParameterError: if the view's card counts do not add up to the game's deck.
    """
    seat = view["seat"]
    colour = _COLOUR_INDEX
    stacks = {(q, r): [colour[c] for c in stack] for q, r, stack in view["map"]}
    supply, dead = view["supply"], view["dead"]
    supply = [supply[c] for c in COLOURS]
    dead = [dead[c] for c in COLOURS]
    sectors_left = view["sectors_left"]
    market = [_rank(c) for c in view["market"]]
    discard = [_rank(c) for c in view["discard"]]
    played = [None if c is None else _rank(c) for c in view["played"]]
    vp = list(view["vp"])
    round_, phase, step = view["round"], view["phase"], view["step"]
    turn_order = list(view["turn_order"])
    acting = view["acting"]
    if acting is not None:
        turn = turn_order.index(acting)
    else:  # during plans 0; at the end the trade order was run through
        turn = len(turn_order) if phase == "over" else 0
    surge_left = view.get("surge_left", 0)
    last_ranks = list(view["last_ranks"])
    events = list(view["events"])  # only the visible tail; the rules never read it
    winners = view["winners"]
    winners = None if winners is None else tuple(winners)
    truncated = view["truncated"]

    # The hidden cards: everything the seat has not seen, dealt at random.
    own = [_rank(c) for c in view["hand"]]
    seen = set(own)
    seen.update(market)
    seen.update(discard)
    seen.update(r for r in played if r is not None)
    looked = view.get("augury")
    if looked is not None:  # the seat is the looker: it sees its Augury's cards, in order
        known_pool = [_rank(c) for c in looked]
        seen.update(known_pool)
        hidden_pool = 0
    else:
        known_pool = []
        hidden_pool = view.get("augury_size", 0)
    unseen = [r for r in game.card_by_rank if r not in seen]
    sizes = view["hand_sizes"]
    deck_size = view["deck_size"]
    if len(unseen) != deck_size + hidden_pool + sum(sizes) - sizes[seat]:
        raise ParameterError(f"{game.name} view does not account for the deck: {len(unseen)} "
                             "unseen cards for the deck, other hands and Augury")
    # The other hands come after the deck and Augury in the shuffled unseen cards.
    deal = UnseenDeal(unseen, sizes, seat, own, start=deck_size + hidden_pool)
    memo = game.legal_memo

    def draw(rng: random.Random) -> MarketState:
        cards, hands = deal.draw(rng)
        state = MarketState.__new__(MarketState)
        state.game = game  # the engine sets the seed, stream, tables, pending and narrate
        state.stacks = stacks.copy()  # the lists shared: the rules never change one in place
        state.supply = supply.copy()
        state.dead = dead.copy()
        state.sectors_left = sectors_left
        state.market = market.copy()
        state.discard = discard.copy()
        state.played = played.copy()
        state.vp = vp.copy()
        state.round = round_
        state.phase = phase
        state.step = step
        state.turn_order = turn_order.copy()
        state.turn = turn
        state.surge_left = surge_left
        state.last_ranks = last_ranks.copy()
        state.events = events.copy()
        state.winners_ = winners
        state.truncated = truncated
        state.deck = cards[:deck_size]
        state.augury_pool = (cards[deck_size:deck_size + hidden_pool] if hidden_pool
                             else known_pool.copy())
        state.hands = hands
        state.tables = memo  # a search meets the same decisions again: remember the tables
        state._refresh_acting()
        return state

    return draw
