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
from collections.abc import Mapping
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.engine.state import State
from meeple.games.ozymandias_market.cards import COLOURS
from meeple.games.ozymandias_market.rules import MarketState, OzymandiasMarket

_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def _rank(card: str) -> int:
    """``W17`` -> 17 (the view writes cards as colour initial and rank)."""
    return int(card[1:])


def determinize(game: OzymandiasMarket, view: Mapping[str, Any],
                rng: random.Random) -> MarketState:
    """A new state consistent with ``view`` (an int seat's view), its hidden cards drawn
    uniformly with ``rng`` from the cards the seat has not seen.

    Raises:
        ParameterError: if the view's card counts do not add up to the game's deck.
    """
    seat = view["seat"]
    n = game.players
    state = MarketState.__new__(MarketState)
    State.__init__(state, game, 0)

    colour = _COLOUR_INDEX
    state.stacks = {(q, r): [colour[c] for c in stack] for q, r, stack in view["map"]}
    supply, dead = view["supply"], view["dead"]
    state.supply = [supply[c] for c in COLOURS]
    state.dead = [dead[c] for c in COLOURS]
    state.sectors_left = view["sectors_left"]
    market = state.market = [_rank(c) for c in view["market"]]
    discard = state.discard = [_rank(c) for c in view["discard"]]
    played = state.played = [None if c is None else _rank(c) for c in view["played"]]
    state.vp = list(view["vp"])
    state.round = view["round"]
    phase = state.phase = view["phase"]
    state.step = view["step"]
    turn_order = state.turn_order = list(view["turn_order"])
    acting = view["acting"]
    if acting is not None:
        state.turn = turn_order.index(acting)
    else:  # during plans 0; at the end the trade order was run through
        state.turn = len(turn_order) if phase == "over" else 0
    state.surge_left = view.get("surge_left", 0)
    state.last_ranks = list(view["last_ranks"])
    state.events = list(view["events"])  # only the visible tail; the rules never read it
    winners = view["winners"]
    state.winners_ = None if winners is None else tuple(winners)
    state.truncated = view["truncated"]

    # The hidden cards: everything the seat has not seen, dealt at random.
    own = [_rank(c) for c in view["hand"]]
    seen = set(own)
    seen.update(market)
    seen.update(discard)
    seen.update(r for r in played if r is not None)
    looked = view.get("augury")
    if looked is not None:  # the seat is the looker: it sees its Augury's cards, in order
        pool = [_rank(c) for c in looked]
        seen.update(pool)
        hidden_pool = 0
    else:
        pool = []
        hidden_pool = view.get("augury_size", 0)
    unseen = [r for r in game.card_by_rank if r not in seen]
    sizes = view["hand_sizes"]
    deck_size = view["deck_size"]
    if len(unseen) != deck_size + hidden_pool + sum(sizes) - sizes[seat]:
        raise ParameterError(f"{game.name} view does not account for the deck: {len(unseen)} "
                             "unseen cards for the deck, other hands and Augury")
    shuffle(rng, unseen)
    state.deck = unseen[:deck_size]
    at = deck_size
    if hidden_pool:
        pool = unseen[at:at + hidden_pool]
        at += hidden_pool
    state.augury_pool = pool
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(own)
        else:
            end = at + sizes[s]
            hands.append(unseen[at:end])
            at = end
    state.hands = hands
    state._refresh_acting()
    return state
