"""Determinization of Epoch Ellipse: a full state sampled from one seat's view, for
information-set search (``Game.determinize``; rules page section 11).

Everything but deck orders and event deck contents is public (EPE-4), and the view is the
same for every seat. Known exactly and copied: hands and discard piles (in order), survivor
piles, Mournful cards, the exploration in progress, removed survivors, the night discard
pile and the *contents* of each player's deck (``deck_cards``; only its order is drawn).
Drawn with the caller's stream:

* each player's deck order, the Night deck order (its contents: every night card not in the
  night discard pile) and the Location deck order (the locations not in play);
* the unseen cards (every card instance not placed above) are dealt uniformly: the
  Catastrophe, Salvage and Survivor decks get cards of their kind from the shared supply
  (sizes public), then each event deck gets exactly its token count of the remaining
  catastrophes and its other cards from the remaining non-catastrophes, shuffled.

Copies of a card type are interchangeable to the rules, so a visible card is given the first
free instance of its type, starter copies first (only the shared supply's copies can be in a
shared deck). The sampler ignores what a seat could infer from the history (e.g. which cards
went into the Graveyard's event deck): uniform sampling over the unseen cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from itertools import chain
from operator import add
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.errors import ParameterError
from meeple.engine.rng import SPEEDUPS, keyed_order, randbelow
from meeple.games.epoch_ellipse.cards import CATASTROPHE, NIGHT, SALVAGE, SURVIVOR

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochEllipse, EpochState


class _Tables:
    """Per-game constants of the sampler (built once per game spec, cached on it)."""

    __slots__ = ("index", "order", "kind", "loc_index", "loc_deck", "size", "groups")

    def __init__(self, game: EpochEllipse) -> None:
        cards = game.content.cards
        self.index = {c.name: i for i, c in enumerate(cards)}
        starter = [[] for _ in cards]
        shared = [[] for _ in cards]
        starters = {c for seat in game.starters for c in seat}
        for inst, t in enumerate(game.ctype):
            (starter if inst in starters else shared)[t].append(inst)
        #: Instances of each type, starter copies first.
        self.order = [tuple(a + b) for a, b in zip(starter, shared, strict=True)]
        self.kind = [c.kind for c in cards]
        self.size = len(game.ctype)
        #: Every instance by where an unseen copy may lie: the night cards; the shared
        #: catastrophes, salvage and survivors (a shared deck or an event deck); the starter
        #: catastrophes and the other starter copies (only an event deck).
        kinds = [cards[t].kind for t in game.ctype]
        night = tuple(i for i, k in enumerate(kinds) if k == NIGHT)
        by_kind = {k: tuple(i for i, kd in enumerate(kinds) if kd == k and i not in starters)
                   for k in (CATASTROPHE, SALVAGE, SURVIVOR)}
        starter_cats = tuple(i for i in sorted(starters) if kinds[i] == CATASTROPHE)
        starter_rest = tuple(i for i in sorted(starters) if kinds[i] != CATASTROPHE)
        self.groups = (night, by_kind[CATASTROPHE], by_kind[SALVAGE], by_kind[SURVIVOR],
                       starter_cats, starter_rest)
        self.loc_index = {loc.name: i for i, loc in enumerate(game.content.locations)}
        self.loc_deck = tuple(game.content.location_deck)


def _tables(game: EpochEllipse) -> _Tables:
    tables = game._cache.get("determinize")
    if tables is None:
        tables = game._cache["determinize"] = _Tables(game)
    return tables


def _shuffled(cards: list[int], key: Callable[[Any], float]) -> list[int]:
    """``cards`` in a uniformly random order: sorted by random keys (faster than a shuffle),
    ``key`` being :func:`_random_key` of the stream."""
    return sorted(cards, key=key)


def _random_key(rng: random.Random) -> Callable[[Any], float]:
    """A sort key that ignores its argument and returns ``rng.random()``: the same draws as
    ``lambda _: rng.random()``, in the same order (a sort computes its keys first, element by
    element), with no Python frame per element (``next(iterator, default)`` of a callable
    iterator that never ends)."""
    return partial(next, iter(rng.random, None))


#: ``random.Random.random()`` from two 32-bit outputs ``w0, w1`` of the generator is
#: ``((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53``: that 53-bit integer orders draws exactly as
#: the floats do (ties included). Read from the 64-bit word ``w = w0 | w1 << 32``, it goes
#: to bits 7-59 of a sort key: ``(w << _A_SHIFT) & _A_MASK | (w >> _B_SHIFT) & _B_MASK``.
_A_SHIFT, _A_MASK, _B_SHIFT, _B_MASK = 28, 0xFFFFFFE0 << 28, 31, 0x1FFFFFF80
#: A key's other bits: the group's index (bits 60-63, flipped top bit: the keys are read as
#: signed words, which numpy sorts and indexes with directly) above the draw, the card's
#: position in its group (bits 0-6) below it, which makes every key distinct.
_GROUPS, _GROUP_SIZE, _GROUP_SHIFT, _SIGN = 16, 128, 60, 8
#: The keys' words, little-endian as ``int.to_bytes(..., "little")`` writes them.
_I64 = np.dtype("<i8")


def random_order(groups: list[list[int]]) -> Callable[[random.Random], list[int]]:
    """``order(rng)``: a new list of the cards of ``groups`` (lists that must not change),
    group after group, each group in a uniformly random order: the concatenation of
    ``[_shuffled(g, _random_key(rng)) for g in groups]``, with the same stream afterwards.

    From the second call on (a search draws many times from one view; a single draw, as
    OpenSpiel's resampler makes, pays nothing for the tables), the keys are the same
    ``rng.random()`` draws, in the same order, taken at once (a plain ``random.Random``):
    ``getrandbits(64 * n)`` is the generator's next ``2 n`` 32-bit outputs, least
    significant first, which are the next ``n`` ``random()`` calls. Each draw becomes its
    exact 53-bit integer (shifts and masks on the one integer of all the draws), with the
    group's index above it and the card's position in its group below it, and one numpy sort
    of these distinct keys orders every group at once, as ``sorted`` does (equal draws keep
    the cards' order). A determinization orders about 190 cards at every draw; one by one
    through ``sorted`` they were a quarter of a search's time. With the engine's C loops
    (``engine.rng.SPEEDUPS``), :func:`meeple.engine.rng.keyed_order` makes the same draws and
    sorts from the first call, and no tables are built. Another generator type (a subclass
    may draw otherwise), more than 16 groups or a group of more than 128 cards are ordered
    group by group through ``sorted``. ``tests/test_epoch_ellipse_determinize.py``
    checks the two ways agree, ties included.
    """
    tables: Any = None  # built at the second call (False: one by one)
    first = True

    def order(rng: random.Random) -> list[int]:
        nonlocal tables, first
        if SPEEDUPS and type(rng) is random.Random:  # the engine's C loop, the same draws
            return keyed_order(rng, groups)
        if tables is None and not first:
            tables = _order_tables(groups) or False
        first = False
        if not tables or type(rng) is not random.Random:
            key = _random_key(rng)
            ordered: list[int] = []
            for g in groups:
                ordered += sorted(g, key=key)
            return ordered
        count, cards, low, a_mask, b_mask, starts, position = tables
        # Every 64-bit word's key at once, on the one integer of all the draws (its words
        # shifted into their neighbours' bits are masked off), then read as an array.
        words = rng.getrandbits(64 * count)
        packed = (words << _A_SHIFT & a_mask) | (words >> _B_SHIFT & b_mask) | low
        keys = np.frombuffer(bytearray(packed.to_bytes(8 * count, "little")), _I64)
        keys.sort()
        np.bitwise_and(keys, position, out=keys)  # two arrays: faster than a scalar
        keys += starts  # each key's place among the cards
        return cards[keys].tolist()

    return order


def _bounds(sizes: list[int], start: int = 0) -> list[slice]:
    """The slices of consecutive parts of ``sizes`` items, the first at ``start``."""
    bounds = []
    for size in sizes:
        bounds.append(slice(start, start + size))
        start += size
    return bounds


def _order_tables(groups: list[list[int]]) -> tuple | None:
    """:func:`random_order`'s tables for ``groups`` (None when they do not fit the keys): the
    card count; the cards (an array); three integers of one 64-bit word per card (each
    card's group and place in it, and the two masks of a draw's bits); two arrays (each
    card's group start, the place mask). Built with numpy (a search builds them once per
    determinizer: a Python loop over the cards was about 1% of a search)."""
    sizes = [len(g) for g in groups]
    count = sum(sizes)
    if not count or len(groups) > _GROUPS or max(sizes) > _GROUP_SIZE:
        return None
    lengths = np.array(sizes, dtype=np.int64)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    places = (np.arange(count, dtype=np.int64) - starts).astype(np.uint64)  # in its group
    tags = (np.arange(len(sizes), dtype=np.uint64) ^ np.uint64(_SIGN)) << np.uint64(
        _GROUP_SHIFT)
    places |= np.repeat(tags, lengths)
    return (count, np.fromiter(chain.from_iterable(groups), np.int64, count),
            int.from_bytes(places.astype("<u8").tobytes(), "little"),
            _repeated(_A_MASK, count), _repeated(_B_MASK, count), starts,
            np.full(count, _GROUP_SIZE - 1, dtype=np.int64))


def _repeated(word: int, count: int) -> int:
    """``count`` copies of the 64-bit ``word`` as one integer (one word per card)."""
    return int.from_bytes(word.to_bytes(8, "little") * count, "little")


def determinizer(game: EpochEllipse,
                 view: Mapping[str, Any]) -> Callable[[random.Random], EpochState]:
    """``draw(rng)``: ``Game.determinize(view, rng)``'s state before the engine's part (the seed,
    the pending choices), with the view read once: the known cards are placed here, ``draw``
    only draws the orders and event decks. A drawn state remembers its legal tables in the
    game spec's memo (``EpochState.tables``; :func:`.moves.legal_tables`).

    Raises:
        ParameterError: if the view's cards and counts do not add up to the game's cards.
    """
    state_class = game.state_class
    tab = _tables(game)
    index, order = tab.index, tab.order
    nxt = [0] * len(order)
    seen = bytearray(tab.size)

    def take(name: str) -> int:
        t = index[name]
        k = nxt[t]
        nxt[t] = k + 1
        card = order[t][k]
        seen[card] = 1
        return card

    def takes(names: list[str]) -> list[int]:
        return [take(name) for name in names]

    known: dict[str, Any] = {}  # the fields read from the view, copied into every draw
    exploration: dict[str, Any] = {}
    try:
        players = view["players"]
        known["hands"] = [takes(p["hand"]) for p in players]
        known["discards"] = [takes(p["discard"]) for p in players]
        known["status"] = [p["status"] for p in players]
        known["ms_card"] = [None if p["mournful_card"] is None else take(p["mournful_card"])
                            for p in players]
        known["death_cause"] = [p["death_cause"] for p in players]
        decks = [takes(p["deck_cards"]) for p in players]
        known["pool"] = [takes(pile) for pile in view["pool"]]
        known["removed"] = takes(view["removed"])
        known["night_discard"] = takes(view["night_discard"])
        ex = view["exploration"]
        known["explore_queue"] = []
        locations = view["locations"]
        if ex is not None:
            exploration["explorer"] = ex["seat"]
            if ex["location"] is not None:
                exploration["expl_pos"] = next(pos for pos, loc in enumerate(locations)
                                               if loc["name"] == ex["location"])
            exploration["expl_k"] = ex["k"]
            exploration["current"] = None if ex["current"] is None else take(ex["current"])
            exploration["paid"] = ex["paid"]
            exploration["expl_cats"] = takes(ex["catastrophes"])
            exploration["expl_survivors"] = takes(ex["survivors"])
            exploration["expl_salvage"] = takes(ex["salvage"])
            exploration["rescue"] = None if ex["rescue"] is None else takes(ex["rescue"])
            known["explore_queue"] = list(ex["waiting"])

        # The unseen cards, by kind and origin (starter copies never enter a shared deck).
        # The Night deck holds the night cards not in the night discard pile.
        night, cat_shared, salvage, survivors, cat_starter, other = (
            [c for c in group if not seen[c]] for group in tab.groups)
        sizes = view["decks"]
        if len(night) != sizes[NIGHT]:
            raise ParameterError(f"the view's Night deck holds {sizes[NIGHT]} cards, not "
                                 f"{len(night)}")
        d_cat, d_salv, d_surv = sizes[CATASTROPHE], sizes[SALVAGE], sizes[SURVIVOR]
        ended = view["result"] is not None
        if (len(salvage) < d_salv or len(survivors) < d_surv or len(cat_shared) < d_cat
                or (not ended and (
                    len(cat_shared) - d_cat + len(cat_starter) + len(salvage) - d_salv
                    + len(survivors) - d_surv + len(other)
                    != sum(loc["cards"] for loc in locations)
                    or len(cat_shared) - d_cat + len(cat_starter)
                    != sum(loc["tokens"] for loc in locations)))):
            raise ParameterError("the view's deck sizes and tokens do not add up to the "
                                 "unseen cards")
        shapes = [(loc["tokens"], loc["cards"]) for loc in locations]
        loc_index = tab.loc_index
        known["locations"] = [loc_index[loc["name"]] for loc in locations]
        known["tokens"] = [t for t, _ in shapes]
        in_play = set(known["locations"])
        location_deck = [i for i in tab.loc_deck if i not in in_play]
        if len(location_deck) != view["location_deck"]:
            raise ParameterError(f"the view's Location deck holds {view['location_deck']} "
                                 f"cards, not {len(location_deck)}")
        known["day"], known["phase"], known["step"] = view["day"], view["phase"], view["step"]
        known["first"] = view["first"]
        known["queue"] = list(view["queue"])
        known["passes"] = view["passes"]
        known["traded"] = {(a, b) for a, b in view["traded"]}
        offer = view["offer"]
        known["offer"] = None if offer is None else (
            offer["from"], offer["to"], index[offer["give"]], index[offer["receive"]])
        known["credits"] = view["credits"]
        known["hungry"] = list(view["hungry"])
        known["events"] = [tuple(e) for e in view["events"]]
        known["result"], known["cause"] = view["result"], view["cause"]
        acting = view["acting"]
        if known["step"] == "answer":
            known["turn"] = offer["from"]
        else:  # at a pick the turn is unused: WAKE UP sets it afterwards
            known["turn"] = acting[0] if acting and known["step"] != "pick" else known["first"]
    except (KeyError, IndexError, TypeError, StopIteration) as exc:
        raise ParameterError(f"not a consistent {game.name} view: {exc!r}") from None
    # The exploration in progress: the view's fields over ``_reset_exploration``'s values,
    # stored by name at every draw.
    expl_scalars, (expl_cats, expl_survivors, expl_salvage), rescue = _exploration(
        state_class, exploration)
    k = known
    hands, discards, pool = k["hands"], k["discards"], k["pool"]
    status, ms_card, death_cause = k["status"], k["ms_card"], k["death_cause"]
    removed, night_discard, explore_queue = k["removed"], k["night_discard"], k["explore_queue"]
    placed, tokens, queue, hungry = k["locations"], k["tokens"], k["queue"], k["hungry"]
    traded, events = k["traded"], k["events"]
    # Every seat's packed counts (``EpochState.packs``): fixed by the view, counted once.
    packs = list(map(game.packed_counts().seat, hands, discards, decks))
    day, phase, step, first, turn = k["day"], k["phase"], k["step"], k["first"], k["turn"]
    passes, offer, credits, result, cause = (k["passes"], k["offer"], k["credits"],
                                             k["result"], k["cause"])
    kind, ctype = tab.kind, game.ctype
    memo = game.legal_memo
    # The orders drawn first: each player's deck, then the Night, Catastrophe, Salvage and
    # Survivor decks' candidates (all fixed by the view), in one call; with no starter
    # catastrophe to place at random in between, also the places of the cards left for the
    # event decks (their number is fixed) and the Location deck's order, which follow.
    leftover = list(range(len(other) + len(salvage) - d_salv + len(survivors) - d_surv))
    first_order = random_order([*decks, night, cat_shared, salvage, survivors]
                               + ([] if cat_starter else [leftover, location_deck]))
    # Each part's slice of the ordered cards: every deck; the Night deck; the Catastrophe,
    # Salvage and Survivor decks (their first cards) and the cards of each kind left over;
    # the leftovers' places and the Location deck (none with a starter catastrophe).
    *deck_parts, night_part, cat_top, cat_more, salv_top, salv_more, surv_top, surv_more, \
        places_part, location_part = _bounds(
            [*map(len, decks), len(night), d_cat, len(cat_shared) - d_cat, d_salv,
             len(salvage) - d_salv, d_surv, len(survivors) - d_surv]
            + ([0, 0] if cat_starter else [len(leftover), len(location_deck)]))
    # Each event deck's catastrophes (a slice of those left over, and of the ordered cards)
    # and other cards (a slice of the rest), in the order of the locations.
    cat_slices = _bounds([t for t, _ in shapes])
    cat_parts = _bounds([t for t, _ in shapes], cat_more.start)
    rest_slices = _bounds([size - t for t, size in shapes])
    copy = list.copy

    def draw(rng: random.Random) -> EpochState:
        state = state_class.__new__(state_class)
        state.game = game  # the engine sets the seed, stream, tables, pending and narrate
        state.tables = memo
        # Every known field by name (direct stores: twice as fast as a setattr loop); each
        # list a fresh copy, each list of lists copied two levels deep.
        state.hands = list(map(copy, hands))
        state.discards = list(map(copy, discards))
        state.packs = packs.copy()
        state.pool = list(map(copy, pool))
        state.status = status.copy()
        state.ms_card = ms_card.copy()
        state.death_cause = death_cause.copy()
        state.removed = removed.copy()
        state.night_discard = night_discard.copy()
        state.explore_queue = explore_queue.copy()
        state.locations = placed.copy()
        state.tokens = tokens.copy()
        state.queue = queue.copy()
        state.hungry = hungry.copy()
        state.traded = traded.copy()
        state.events = events.copy()
        state.day, state.phase, state.step, state.first, state.turn = (day, phase, step,
                                                                         first, turn)
        state.passes, state.offer, state.credits = passes, offer, credits
        state.result, state.cause = result, cause
        (state.explorer, state.expl_pos, state.expl_k, state.expl_new, state.current,
         state.paid) = expl_scalars
        state.expl_cats = expl_cats.copy()
        state.expl_survivors = expl_survivors.copy()
        state.expl_salvage = expl_salvage.copy()
        state.rescue = None if rescue is None else rescue.copy()
        ordered = first_order(rng)
        state.draws = list(map(ordered.__getitem__, deck_parts))
        state.decks = {SALVAGE: ordered[salv_top], SURVIVOR: ordered[surv_top],
                       CATASTROPHE: ordered[cat_top], NIGHT: ordered[night_part]}
        rest = other + ordered[salv_more] + ordered[surv_more]
        if not cat_starter:
            rest = list(map(rest.__getitem__, ordered[places_part]))
            state.location_deck = ordered[location_part]
            if not ended:  # each event deck's catastrophes straight from the ordered cards
                state.event_decks = list(map(add, map(ordered.__getitem__, cat_parts),
                                             map(rest.__getitem__, rest_slices)))
                state._refresh_acting()
                return state
            cat_rest = ordered[cat_more]
        else:
            cat_rest = ordered[cat_more]  # in random order: the starter copies join at random
            for card in cat_starter:  # rng.randrange's draws (engine.rng.randbelow)
                cat_rest.insert(randbelow(rng, len(cat_rest) + 1), card)
            # the few cards left, one by one (faster than a second bulk draw)
            key = _random_key(rng)
            rest = _shuffled(rest, key)
            state.location_deck = _shuffled(location_deck, key)
        if ended:
            _park_leftovers(state, locations, cat_rest, rest, kind, ctype)
            if (len(cat_rest) + len(rest) != sum(c for _, c in shapes)
                    or len(cat_rest) != sum(t for t, _ in shapes)):
                raise ParameterError("the view's deck sizes and tokens do not add up to the "
                                     "unseen cards")
        # Only the contents matter: an event deck is shuffled before every flip (3B), a new
        # one is built fresh, and catastrophes leave it in their own (random) order.
        state.event_decks = list(map(add, map(cat_rest.__getitem__, cat_slices),
                                     map(rest.__getitem__, rest_slices)))
        state._refresh_acting()
        return state

    return draw


#: The exploration's fields that ``_reset_exploration`` sets: those stored as they are, the
#: lists, and the rescue (None or a list). ``tests/test_epoch_ellipse_determinize.py`` checks
#: that the reset sets exactly these.
_EXPL_SCALARS = ("explorer", "expl_pos", "expl_k", "expl_new", "current", "paid")
_EXPL_LISTS = ("expl_cats", "expl_survivors", "expl_salvage")
EXPL_FIELDS = (*_EXPL_SCALARS, *_EXPL_LISTS, "rescue")


def _exploration(state_class: type[EpochState], fields: Mapping[str, Any]) -> tuple:
    """A drawn state's exploration: ``fields`` (the view's) over ``_reset_exploration``'s
    values (of a ``state_class`` instance), as (the scalars of ``_EXPL_SCALARS``, the lists of
    ``_EXPL_LISTS``, the rescue)."""
    probe = state_class.__new__(state_class)
    probe._reset_exploration()
    values = {**{name: getattr(probe, name) for name in EXPL_FIELDS}, **fields}
    return (tuple(values[name] for name in _EXPL_SCALARS),
            tuple(values[name] for name in _EXPL_LISTS), values["rescue"])


def _park_leftovers(state: EpochState, locations: list, cat_rest: list[int], other: list[int],
                    kind: list[str], ctype: tuple[int, ...]) -> None:
    """At the end, an exploration cut short by the win holds cards the view no longer shows:
    the unseen cards the event decks do not take lie in the (unshown) exploration."""
    tokens = sum(loc["tokens"] for loc in locations)
    rest = sum(loc["cards"] for loc in locations) - tokens
    state.expl_cats.extend(cat_rest[tokens:])
    del cat_rest[tokens:]
    for card in other[rest:]:
        (state.expl_survivors if kind[ctype[card]] == SURVIVOR
         else state.expl_salvage).append(card)
    del other[rest:]
