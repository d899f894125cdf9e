"""Damocles determinization: a full state drawn from what one seat's view leaves open.

Hidden from a seat (docs/rules/damocles.md, "Search: determinization and evaluation"): the
other hands, the deck order, the discard pile's contents and, while another seat chooses an
Oracle keep, that seat's pool. Everything else is copied from the view. The codices of the deck
manifest that the view does not place (own hand, tableaus, this turn's consumed codices, the
codices out of the game, an own Oracle pool) are shuffled once with the caller's stream and
dealt out: to the other hands (their public sizes), another seat's Oracle pool (its public
size), the discard pile and the deck.
Uniform over the unseen, as TAG and OpenSpiel do: what a seat could infer (its own setup
discards, codices it saw go to the pile, opponents' choices) is ignored.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.engine.rng import shuffle
from meeple.engine.state import State
from meeple.games.damocles.codex import CIRCLE, GODS

if TYPE_CHECKING:
    from meeple.games.damocles.rules import Damocles, DamoclesState

_GOD_INDEX = {name: i for i, name in enumerate(GODS)}
_KEY = "damocles-determinize"


def determinize(game: Damocles, view: Mapping[str, Any], rng: random.Random) -> DamoclesState:
    """A state of ``game`` consistent with ``view`` (a seat's view), hidden parts drawn from
    ``rng``; the engine then fills pending discards and the chance seed."""
    from meeple.games.damocles.rules import DamoclesState

    ids = game._cache.get(_KEY)
    if ids is None:
        ids = game._cache[_KEY] = tuple(game.codex_by_id)
    seat = view["seat"]
    n = game.players
    phase = view["phase"]
    turn = view["turn"]
    placer = view["placer"]
    if phase == "discard":
        active = placer
    elif phase == "over":  # the seat that ended the last turn (DAM-28)
        active = (placer + CIRCLE + view["turns_taken"] - 1) % n
    else:
        active = view["active"]
    step = turn["step"]

    hand = list(view["hand_order"])
    tableaus = [list(t) for t in view["tableau_order"]]
    consumed = list(turn["consumed"])
    known = set(hand)
    for t in tableaus:
        known.update(t)
    known.update(consumed)
    removed = list(view["removed"])  # out of the game, public (DAM-38, DAM-39)
    known.update(removed)
    own_pool = "keep_pool" in view
    if own_pool:
        keep_pool = list(view["keep_pool"])
        known.update(keep_pool)
    unseen = [c for c in ids if c not in known]
    shuffle(rng, unseen)

    sizes = view["hand_sizes"]
    hands: list[list[str]] = []
    at = 0
    for s in range(n):
        if s == seat:
            hands.append(hand)
        else:
            size = sizes[s]
            hands.append(unseen[at:at + size])
            at += size
    if not own_pool:
        size = turn["keep_size"]
        keep_pool = unseen[at:at + size]
        at += size
    size = view["discard_size"]
    discard = unseen[at:at + size]
    at += size
    deck = unseen[at:]
    if len(deck) != view["deck_size"]:
        raise RuntimeError(f"damocles determinization: {len(deck)} codices left for a deck of "
                           f"{view['deck_size']}; the view does not add up")

    if "granted" in view:  # the active seat's own draws this turn
        granted = list(view["granted"])
    else:  # drawn codices join the end of the hand; only their number is public
        k = turn["granted_count"]
        held = hands[active]
        granted = held[max(0, len(held) - k):] if k else []
        if len(granted) < k:  # some draws were played already: among this turn's plays
            played = [c for c in (*view["turn"]["consumed"], *reversed(tableaus[active]))
                      if c not in granted]
            granted = played[:k - len(granted)] + granted

    state = DamoclesState.__new__(DamoclesState)
    State.__init__(state, game, 0)
    circle = [None if g is None else _GOD_INDEX[g] for g in view["circle"]]
    state.circle = circle
    bank = view["bank"]
    state.bank = None if bank is None else [bank[g] for g in GODS]
    state.deck = deck
    state.discard = discard
    state.removed = removed
    state.hands = hands
    state.tableaus = tableaus
    state.points = list(view["scores"])
    state.phase = phase
    state.placer = placer
    state.placed = CIRCLE - circle.count(None)
    state.active = active
    state.turns_taken = view["turns_taken"]
    state.events = [list(e) for e in view["events"]]
    winners = view["winners"]
    state.winners_ = None if winners is None else tuple(winners)
    state.step = step
    state.swaps_allowed = turn["swaps_allowed"]
    state.swaps_done = turn["swaps_done"]
    state.relax_tokens = turn["relax_tokens"]
    state.annex_played = turn["annex_played"]
    state.annex_available = turn["annex_available"]
    pairs_used = {(p, q) for p, q in turn["pairs_used"]}
    state.pairs_used = pairs_used
    state.pair_played = bool(pairs_used)  # set and reset together with pairs_used
    state.consumed = consumed
    state.granted = granted
    state.keep_pool = keep_pool
    state.keep_count = turn["keep_count"]
    state.destroy_queue = [list(e) for e in turn["destroy_queue"]]
    state._refresh_acting()
    return state
