"""Ozymandias (market edition) as fixed-size numbers for learning adapters: the action table
and the observation.

**Sectors a game can ever name.** The map starts with the three opening sectors ``O`` and
grows one new sector at a time, always next to the map (OZD-10), until ``sectors`` exist. So
every sector, and every spot an Explore may attach, lies within ``G = sectors - 3`` steps of
``O`` (``G = 0`` when no card and no parameter can add a sector): these hexes, sorted by their
distance to ``O`` and then by ``(q, r)``, are the *region* ``R`` (:func:`region`). Two hexes
named in one action (``march``, ``expand ... from``) must both lie on one connected map of at
most ``G`` added sectors; a pair is kept when the half-perimeter lower bound of that tree,
``ceil((d(h) + d(s) + d'(h, s)) / 2)``, is at most ``G`` (``d`` = distance to ``O``, ``d'`` =
the distance with ``O`` crossable for free), so no reachable pair is left out.

**Action table** (:func:`action_texts`): every action text of :mod:`.actions` any seat can ever
take, built from the cards (``game.cards``), the region and the argument domains in
:mod:`.moves`, never by sampling play. A kind whose event no card has is left out. It does not
depend on the seat count. In order, with ``K`` cards:

============================== =============================================================
block                          size
============================== =============================================================
``pass``, ``done``             2
``tribute``, ``augury``        1 each, if a card has that event (Augury: depth >= 2)
``plan C``                     K
``embargo C``                  K (C is not the only Embargo card)
``expand h``                   R
``explore h``                  R minus the opening sectors
``raze``/``coup``/``surge``/   R each
``diaspora h``
``march h n``                  neighbouring pairs of R that fit the map (see above)
``trade C deck``               K
``trade C D``                  K x (K - 1)
``bazaar C D``                 K x (K - 1), less pairs holding every Bazaar card
``expand h from s``            pairs of R that fit the map, only with ``take_from_map``
``order C1 .. Cj``             ordered j-tuples of cards, j = 2..the largest Augury depth,
                               that leave out some Augury card of depth >= j
============================== =============================================================

Sizes for the packaged 40-card deck and 12 sectors (R = 300 with the triangle opening, 309
with the line): ``seed``, ``2017tie`` and ``explore`` 67,447 codes (order 60,840, trade 1,600,
march 1,566, bazaar 1,560, the rest 1,881); ``v2015`` 100,033 (expand-from 32,586 more). The
Augury order (any 3 of the deck, in order) dominates: the table is as small as the current
notation allows, which names the whole order in one move. A table whose bound
:func:`table_size` exceeds :data:`MAX_ACTIONS` (e.g. ``sectors`` in the hundreds, or an Augury
depth of 5) raises ``ParameterError``.

**Observation** (:func:`observation_tensor`): one seat's view (``state.view(seat)``) as a flat
float32 vector. Seat blocks are relative to the viewer (block 0 = the viewer, then seats
1, 2, ... after it). With ``n`` seats, ``K`` cards and ``R`` region hexes, in order:

- the viewer's seat, one-hot (n); the phase (plan, raise, trade, over) (4); the step (main,
  surge, augury, trade_hand, trade_played) (5); the acting seat (n); each seat's place in the
  turn order, (index + 1) / n, 0 when none (n); round / max_rounds (1);
- per region hex (R x 14): a sector is there, stack height / disks_per_colour, the top disk's
  colour one-hot (4), the second disk's colour one-hot (4), disks of each colour /
  disks_per_colour (4);
- faction value per colour / sectors, supply and dead disks per colour / disks_per_colour,
  sectors left / (sectors - 3) (13);
- multi-hots over the cards (sorted by rank): the market, the discard pile, the viewer's hand,
  the viewer's Augury cards (4 x K); each seat's played card (n x K);
- per seat: VP / target_vp, clipped at :data:`VP_CAP` (n), hand size / hand_size (n), the
  rank revealed last round / the highest rank (n); deck size / K, Surge expansions left / 4,
  Augury cards / their largest depth (3); the winners (n) and a 1 when the game was truncated (1).

Length ``7n + 27 + 14 R + (n + 4) K``: 4,528 for 3 seats and the seed setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import permutations
from math import perm
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.errors import ParameterError
from meeple.engine.tensor import TensorWriter, seats_from
from meeple.games.ozymandias_market.actions import make_order
from meeple.games.ozymandias_market.cards import COLOURS, Card
from meeple.games.ozymandias_market.hexes import OPENINGS, Hex, neighbours

if TYPE_CHECKING:
    from meeple.games.ozymandias_market.rules import OzymandiasMarket

#: Largest action table this module builds; bigger ones raise ``ParameterError``.
MAX_ACTIONS = 1_000_000

PHASES = ("plan", "raise", "trade", "over")
STEPS = ("main", "surge", "augury", "trade_hand", "trade_played")
HEX_FEATURES = 14


def _hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def growth(cards: Sequence[Card], sectors: int, explore_on_expand: bool) -> int:
    """Sectors that can be added to the opening three: ``sectors - 3``, or 0 when neither a
    card (Explore; Surge or Diaspora with ``explore``) nor ``explore_on_expand`` adds any."""
    grows = explore_on_expand or any(
        c.event == "EXPLORE" or (c.event in ("SURGE", "DIASPORA") and c.param("explore"))
        for c in cards)
    return sectors - 3 if grows else 0


@cache
def _region(opening: str, grow: int) -> tuple[tuple[Hex, ...], dict[Hex, int]]:
    start = OPENINGS[opening]
    dist = {h: 0 for h in start}
    frontier = list(start)
    for step in range(1, grow + 1):
        nxt = []
        for h in frontier:
            for m in neighbours(h):
                if m not in dist:
                    dist[m] = step
                    nxt.append(m)
        frontier = nxt
    order = tuple(sorted(dist, key=lambda h: (dist[h], h)))
    return order, dist


def region(game: OzymandiasMarket) -> tuple[Hex, ...]:
    """The hexes any action or map of ``game`` can name, in the table's order (see above)."""
    p = game.params
    return _region(p["opening"], growth(game.cards, p["sectors"], p["explore_on_expand"]))[0]


def _fits(h: Hex, s: Hex, dist: Mapping[Hex, int], grow: int) -> bool:
    """Whether ``h`` and ``s`` may both be on a map of at most ``grow`` added sectors (a lower
    bound of the Steiner tree joining them to the opening, so never too strict)."""
    dh, ds = dist[h], dist[s]
    through = min(_hex_distance(h, s), dh + ds)
    return -(-(dh + ds + through) // 2) <= grow


def _order_tuples(cards: Sequence[Card]) -> list[tuple[int, ...]]:
    """Augury orders (E9): j distinct ranks top first, j = 2..the largest depth, leaving out an
    Augury card of depth >= j (the one being played)."""
    augurs = [(c.rank, c.param("depth")) for c in cards if c.event == "AUGURY"]
    ranks = [c.rank for c in cards]
    out: list[tuple[int, ...]] = []
    for j in range(2, max((d for _, d in augurs), default=0) + 1):
        able = [r for r, d in augurs if d >= j]
        for t in permutations(ranks, j):
            if len(able) > j or not set(able) <= set(t):
                out.append(t)
    return out


def table_size(game: OzymandiasMarket) -> int:
    """An upper bound of the table's length, computed without building it (the Augury and
    region blocks counted in full), to refuse tables over :data:`MAX_ACTIONS` early."""
    cards, hexes = game.cards, region(game)
    k, r = len(cards), len(hexes)
    depth = max((c.param("depth") for c in cards if c.event == "AUGURY"), default=0)
    orders = sum(perm(k, j) for j in range(2, depth + 1))
    pairs = r * (r - 1) if game.params["take_from_map"] else 0
    return 6 + 3 * k + 2 * k * k + 12 * r + orders + pairs


@cache
def _table(cards: tuple[Card, ...], opening: str, sectors: int, explore_on_expand: bool,
           take_from_map: bool) -> tuple[str, ...]:
    suit_of = {c.rank: c.suit for c in cards}
    events = {c.event for c in cards}
    ranks = sorted(suit_of)
    grow = growth(cards, sectors, explore_on_expand)
    hexes, dist = _region(opening, grow)
    opened = set(OPENINGS[opening])

    def text(kind: str, *args: Any) -> str:
        return str(make_order(0, kind, suit_of, args))

    out = [text("pass"), text("done")]
    if "TRIBUTE" in events:
        out.append(text("tribute"))
    if any(c.event == "AUGURY" and c.param("depth") >= 2 for c in cards):
        out.append(text("augury"))
    out += [text("plan", r) for r in ranks]
    embargoes = {c.rank for c in cards if c.event == "EMBARGO"}
    out += [text("embargo", r) for r in ranks if embargoes - {r}]
    out += [text("expand", h, None) for h in hexes]
    if "EXPLORE" in events:
        out += [text("explore", h) for h in hexes if h not in opened]
    for kind in ("raze", "coup", "diaspora"):
        if kind.upper() in events:
            out += [text(kind, h) for h in hexes]
    if any(c.event == "SURGE" and c.param("times") >= 1 for c in cards):
        out += [text("surge", h) for h in hexes]
    if "MARCH" in events:
        out += [text("march", h, m) for h in hexes for m in neighbours(h)
                if m in dist and _fits(h, m, dist, grow)]
    out += [text("trade", r, "deck") for r in ranks]
    out += [text("trade", g, t) for g in ranks for t in ranks if g != t]
    bazaars = {c.rank for c in cards if c.event == "BAZAAR"}
    out += [text("bazaar", g, t) for g in ranks for t in ranks
            if g != t and bazaars - {g, t}]
    if take_from_map:
        out += [text("expand", h, s) for h in hexes for s in hexes
                if s != h and _fits(h, s, dist, grow)]
    out += [text("order", *t) for t in _order_tuples(sorted(cards, key=lambda c: c.rank))]
    return tuple(out)


def action_texts(game: OzymandiasMarket) -> tuple[str, ...]:
    """Every action text of ``game`` in the order of the module docstring (cached per deck
    and map parameters; the same for every seat count).

    Raises:
        ParameterError: if the table could exceed :data:`MAX_ACTIONS` texts.
    """
    size = table_size(game)
    if size > MAX_ACTIONS:
        raise ParameterError(
            f"ozymandias-market may have up to {size:,} distinct actions with these cards and "
            f"parameters; the adapters' table is capped at {MAX_ACTIONS:,}")
    p = game.params
    return _table(tuple(sorted(game.cards, key=lambda c: c.rank)), p["opening"], p["sectors"],
                  p["explore_on_expand"], p["take_from_map"])


def observation_shape(game: OzymandiasMarket) -> tuple[int]:
    """``(7n + 27 + 14 R + (n + 4) K,)`` for ``n`` seats, ``R`` region hexes, ``K`` cards."""
    n, k, r = game.players, len(game.cards), len(region(game))
    return (7 * n + 27 + HEX_FEATURES * r + (n + 4) * k,)


@cache
def _card_index(cards: tuple[Card, ...]) -> dict[str, int]:
    return {c.id: i for i, c in enumerate(sorted(cards, key=lambda c: c.rank))}


@cache
def _hex_index(hexes: tuple[Hex, ...]) -> dict[Hex, int]:
    return {h: i for i, h in enumerate(hexes)}


#: A seat's VP is encoded as VP / target_vp, clipped at this (a game ends once a seat reaches
#: target_vp, so only the last round's gains can pass it), to keep a finite bound.
VP_CAP = 2.0


def observation_tensor(game: OzymandiasMarket, view: Mapping[str, Any]) -> np.ndarray:
    """``view`` (one seat's ``state.view(seat)``) as the float32 vector of the module docstring.

    Reads only the view and the game's static content (cards, parameters).

    Raises:
        ValueError: if the view shows a sector outside :func:`region` (a bug in the region).
    """
    p, n = game.params, game.players
    cards = tuple(game.cards)
    k = len(cards)
    cindex = _card_index(cards)
    hexes = region(game)
    hindex = _hex_index(hexes)
    disks = p["disks_per_colour"]
    me = view["seat"]
    w = TensorWriter(observation_shape(game)[0])

    def card_hot(names: Sequence[str | None]) -> None:
        w.multi_hot(k, [None if name is None else cindex[name] for name in names])

    w.one_hot(n, me)  # the viewer's own seat number, the only absolute seat block
    w.one_hot(len(PHASES), PHASES.index(view["phase"]))
    w.one_hot(len(STEPS), STEPS.index(view["step"]))
    w.seat_hot(view["acting"], me, n)
    order = view["turn_order"]
    w.per_seat([order.index(s) + 1 if s in order else None for s in range(n)], me, n, n)
    w.value(view["round"] / p["max_rounds"], 0.0, (p["max_rounds"] + 1) / p["max_rounds"])
    # a stack holds at most every disk of every colour: height / disks <= the colour count
    row_high = np.ones(HEX_FEATURES, dtype=np.float32)
    row_high[1] = len(COLOURS)
    grid = w.block(HEX_FEATURES * len(hexes), 0.0, np.tile(row_high, len(hexes))) \
        .reshape(len(hexes), HEX_FEATURES)
    for q, r, stack in view["map"]:
        at = hindex.get((q, r))
        if at is None:
            raise ValueError(f"sector {q},{r} lies outside the encoding's region")
        row = grid[at]
        row[0] = 1.0
        row[1] = len(stack) / disks
        if stack:
            row[2 + COLOURS.index(stack[-1])] = 1.0
        if len(stack) >= 2:
            row[6 + COLOURS.index(stack[-2])] = 1.0
        for colour in stack:
            row[10 + COLOURS.index(colour)] += 1.0 / disks
    w.values([*(view["values"][c] / p["sectors"] for c in COLOURS),
              *(view["supply"][c] / disks for c in COLOURS),
              *(view["dead"][c] / disks for c in COLOURS),
              view["sectors_left"] / max(1, p["sectors"] - 3)])
    card_hot(view["market"])
    card_hot(view["discard"])
    card_hot(view.get("hand", ()))
    card_hot(view.get("augury", ()))
    for seat in seats_from(me, n):
        card_hot([view["played"][seat]])
    top_rank = max(c.rank for c in cards)
    depth = max((c.param("depth") for c in cards if c.event == "AUGURY"), default=1)
    target = p["target_vp"]
    w.per_seat([None if v is None else min(v, VP_CAP * target) for v in view["vp"]], me, n,
               target, 0.0, VP_CAP)
    w.per_seat(view["hand_sizes"], me, n, p["hand_size"], 0.0, k / p["hand_size"])
    w.per_seat(view["last_ranks"], me, n, top_rank)
    surges = max((c.param("times") for c in cards if c.event == "SURGE"), default=0)
    w.values([view["deck_size"] / k, view.get("surge_left", 0) / 4,
              view.get("augury_size", 0) / max(1, depth)], 0.0, [1.0, max(4, surges) / 4, 1.0])
    w.seats_hot(view["winners"] or (), me, n)
    w.value(float(view["truncated"]))
    return w.done()
