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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from meeple.engine.determinization import UnseenDeal
from meeple.games.damocles.codex import CIRCLE, GODS

if TYPE_CHECKING:
    from meeple.games.damocles.rules import Damocles, DamoclesState

_GOD_INDEX = {name: i for i, name in enumerate(GODS)}
_KEY = "damocles-determinize"


def determinizer(game: Damocles,
                 view: Mapping[str, Any]) -> Callable[[random.Random], DamoclesState]:
    """``draw(rng)``: ``Game.determinize(view, rng)``'s state before the engine's part (the seed,
    the pending choices), with the view read once: ``draw`` shuffles the unseen codices, deals
    them and copies the rest.

    Raises:
        RuntimeError: (at a draw) if the view's sizes do not add up to the unseen codices.
    """
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
    keep_pool = []
    if own_pool:
        keep_pool = list(view["keep_pool"])
        known.update(keep_pool)
    unseen = [c for c in ids if c not in known]

    deal = UnseenDeal(unseen, view["hand_sizes"], seat, hand)  # the other hands first
    at = pool_at = deal.end
    if not own_pool:
        at += turn["keep_size"]
    discard_at = at
    at += view["discard_size"]
    deck_at = at
    deck_size = view["deck_size"]

    granted = list(view["granted"]) if "granted" in view else None
    granted_count = turn["granted_count"]
    consumed_now = tuple(view["turn"]["consumed"])
    circle = [None if g is None else _GOD_INDEX[g] for g in view["circle"]]
    bank = view["bank"]
    bank = None if bank is None else [bank[g] for g in GODS]
    points = list(view["scores"])
    placed = CIRCLE - circle.count(None)
    turns_taken = view["turns_taken"]
    # the log's entries as tuples: immutable, so every draw shares them (a list each would
    # cost a copy per entry per draw); the state's own entries are lists, read the same way
    events = [tuple(e) for e in view["events"]]
    winners = view["winners"]
    winners = None if winners is None else tuple(winners)
    swaps_allowed, swaps_done = turn["swaps_allowed"], turn["swaps_done"]
    relax_tokens = turn["relax_tokens"]
    annex_played, annex_available = turn["annex_played"], turn["annex_available"]
    pairs_used = {(p, q) for p, q in turn["pairs_used"]}
    keep_count = turn["keep_count"]
    destroy_queue = [list(e) for e in turn["destroy_queue"]]
    memo = game.legal_memo
    pair_played = bool(pairs_used)  # set and reset together with pairs_used
    copy = list.copy
    probe = DamoclesState.__new__(DamoclesState)  # the seats acting: the same in every draw
    probe.game, probe.phase, probe.active = game, phase, active
    probe._refresh_acting()
    acting = probe._acting
    new = DamoclesState.__new__

    def draw(rng: random.Random) -> DamoclesState:
        cards, hands = deal.draw(rng)
        pool = keep_pool.copy() if own_pool else cards[pool_at:discard_at]
        deck = cards[deck_at:]
        if len(deck) != deck_size:
            raise RuntimeError(f"damocles determinization: {len(deck)} codices left for a "
                               f"deck of {deck_size}; the view does not add up")
        if granted is not None:  # the active seat's own draws this turn
            drawn = granted.copy()
        elif not granted_count:
            drawn = []
        else:  # drawn codices join the end of the hand; only their number is public
            k = granted_count
            held = hands[active]
            drawn = held[max(0, len(held) - k):]
            if len(drawn) < k:  # some draws were played already: among this turn's plays
                played = [c for c in (*consumed_now, *reversed(tableaus[active]))
                          if c not in drawn]
                drawn = played[:k - len(drawn)] + drawn
        state = new(DamoclesState)
        state.game = game  # the engine sets the seed, stream, tables, pending and narrate
        state._acting = acting
        state.circle = circle.copy()
        state.bank = None if bank is None else bank.copy()
        state.deck = deck
        state.discard = cards[discard_at:deck_at]
        state.removed = removed.copy()
        state.hands = hands
        state.tableaus = list(map(copy, tableaus))
        state.points = points.copy()
        state.phase = phase
        state.placer = placer
        state.placed = placed
        state.active = active
        state.turns_taken = turns_taken
        state.events = events.copy()
        state.winners_ = winners
        state.step = step
        state.swaps_allowed = swaps_allowed
        state.swaps_done = swaps_done
        state.relax_tokens = relax_tokens
        state.annex_played = annex_played
        state.annex_available = annex_available
        state.pairs_used = pairs_used.copy()
        state.pair_played = pair_played
        state.consumed = consumed.copy()
        state.granted = drawn
        state.keep_pool = pool
        state.keep_count = keep_count
        state.destroy_queue = list(map(copy, destroy_queue)) if destroy_queue else []
        state.tables = memo  # a search meets the same decisions again: remember their lists
        return state

    return draw
