"""Ozymandias (campaign edition) encoding for the learning adapters: a fixed action table and a
fixed-size observation vector (the ``encoding`` hooks of :class:`meeple.engine.game.Game`).

**Action table** (:func:`action_texts`): every canonical action text (:mod:`.actions`) any seat
can ever take in one game instance, built from the tile and card files and the action kinds'
argument domains (:mod:`.moves`), never from play. Tableau positions run over 1..C, where
C = min(``workers``, cards in the deck): every tableau card was played after a colony worker
of its owner was laid (OZW-28), and that worker leaves the map only when it is recovered, one
per discarded card (OZW-18), so a tableau never holds more cards than its owner has colony
workers on the map. Points are ``TILE:point`` of every tile in the file (any tile may be
drawn). In order:

================== ===========================================================================
block               texts (argument domain)
================== ===========================================================================
bare                ``intake migrate campaign pass done end``, and ``keep`` under free
                    migration (OZW-13)
cube                ``cube S P``: suit S in G, R, B; P = 1..C (Intake (a))
move                ``move S P`` for P = 2..C (a cube moves right of the first card at
                    least), then ``move S out`` (OZW-13)
recover             ``recover TILE:point``: colonies (unless ``colony_recovery=bag``, OZW-18)
                    and standable points (standing workers, OZW-16), in file order; then
                    ``recover card P``, P = 1..C
stand               ``stand TILE:point``: the standable intersections and hazards
                    (:func:`standable`; OZW-22, OZW-23)
colony              ``colony TILE:point``: colonies (OZW-24)
lay, harvest        ``lay P``, ``harvest P``: P = 1..C (OZW-17, OZW-20)
fight, play         ``fight XR``, ``play XR``: every distinct card (suit, rank) of the deck
attach              ``attach A B`` (``explore`` on only): A a port name of one tile, B of
                    another (OZW-32)
================== ===========================================================================

With the reference files (9 tiles of 90 points: 18 colonies, and 24 standable points of the
72 intersections and hazards, 6 more under the ``two_if_4plus`` setup; 18 distinct cards;
port names a-f) and 12 workers (C = 12) the table holds **270 texts at every seat count** in
``seed`` and ``cfa0da0``, 271 in ``e935810`` (``keep``), 234 in ``literal`` (no ``attach``),
and in ``18ad11a`` 270 at 2-3 seats and 282 at 4-6.

**Observation** (:func:`observation_tensor`): a flat float32 vector of
:func:`observation_shape`, made from one seat's view alone; seats are *relative* (index 0 is
the viewing seat, then the next seats in seat order). Layout, block by block (n seats, C
tableau slots, P points, D distinct cards, K tiles, O port names):

1. global: step one-hot (10), active seat, acting seats, seats to act, seats that submitted
   a war card (4 x n), round / max_rounds, tiles left / K, deck size / cards, owed
   recoveries and cubes migrated out per suit (squashed), the card migrating (C one-hot), the
   trigger seat and the last seat (2 x n one-hot), the winners (n), truncated, over;
2. cards: the discard pile and the viewer's hand (2 x D counts, each / copies of that card),
   the viewer's pending war card (D one-hot);
3. per relative seat: VP / target_vp (clipped at 2), unrest and incoming cubes per suit
   (squashed, x / (x + 5)), bag and supply / workers, hand size / hand_size, then C tableau
   slots of: present, suit one-hot (3), rank / 7, cubes per suit (squashed), tapped, laid, harvest;
4. per point (P, file order): on the map, the standing worker's seat (n one-hot), workers per
   seat in its colony stack (squashed, x / (x + 2)), the top seat of the stack (n one-hot),
   open ports / 2;
5. per tile (K, file order): placed, drawn for exploration, the tile it was joined to (K
   one-hot), the map port and the tile port of the join (2 x O one-hot);
6. the war: kind one-hot (stand, colony), point (P one-hot), attacker and defender (2 x n
   one-hot), sector suit one-hot (3); the exploration point (P one-hot).

Size: 19 + C + 3D + K (2 + K + 2O) + 4P + 5 + n (17 + 11C + 3P) floats; with the reference
files 657 + 419 n: 1495 at 2 seats, 2333 at 4, 3171 at 6. Values lie in 0..1 except VP /
target_vp past the target (measured maximum over 300 random and heuristic games: 1.8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.tensor import TensorWriter, relative_seat, seats_from
from meeple.games.ozymandias_campaign.actions import BARE_KINDS, Move, card_name
from meeple.games.ozymandias_campaign.vocab import COLONY, SUITS

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import OzymandiasCampaign

STEPS = ("mode", "distribute", "recover_colony", "migrate", "recover_standing", "campaign",
         "war", "play", "explore", "over")
WAR_KINDS = ("stand", "colony")


def tableau_slots(game: OzymandiasCampaign) -> int:
    """C, the most cards a tableau can hold: min(workers, cards in the deck) (module
    docstring)."""
    return min(game.params["workers"], len(game.cards))


def _points(game: OzymandiasCampaign) -> list[tuple[str, str]]:
    """``(TILE:point, kind)`` of every tile in the file, in file order."""
    return [(f"{t.id}:{p}", kind) for t in game.tiles for p, kind in t.points]


def standable(game: OzymandiasCampaign) -> list[str]:
    """Intersections and hazards a worker can ever stand on, in file order.

    A stand is one line from a colony (OZW-22, OZW-23). Lines inside a tile make the points
    next to its colonies standable. A join made by exploration (OZW-32) ties the explore
    point, where a worker stands (so not a colony, and standable already), to a port of the
    new tile, so it never makes a new point standable; the setup join of ``two_if_4plus``
    (the opening tile's first port to the second tile's first port) does, when one end is a
    colony.
    """
    found: set[tuple[str, str]] = set()
    for tile in game.tiles:
        kinds = dict(tile.points)
        for a, b in tile.lines:
            if kinds[a] == COLONY and kinds[b] != COLONY:
                found.add((tile.id, b))
            if kinds[b] == COLONY and kinds[a] != COLONY:
                found.add((tile.id, a))
    if game.setup_tile_count() > 1:
        for first in game.tiles:
            for second in game.tiles:
                if first is second:
                    continue
                ends = [(t.id, t.ports[0][1], t.kind(t.ports[0][1])) for t in (first, second)]
                for (tid, q, kind), (_, _, other) in (ends, ends[::-1]):
                    if kind != COLONY and other == COLONY:
                        found.add((tid, q))
    return [f"{t.id}:{q}" for t in game.tiles for q, _ in t.points if (t.id, q) in found]


def _distinct_cards(game: OzymandiasCampaign) -> list[str]:
    return [card_name(s, r) for s, r in sorted({(c.suit, c.rank) for c in game.cards})]


def _port_names(game: OzymandiasCampaign) -> list[str]:
    return sorted({port for t in game.tiles for port, _ in t.ports})


def action_texts(game: OzymandiasCampaign) -> list[str]:
    """The action table of ``game`` (layout and size in the module docstring)."""
    p = game.params
    c = tableau_slots(game)
    points = _points(game)
    out: list[tuple[str, tuple]] = [(k, ()) for k in BARE_KINDS
                                    if k != "keep" or p["migration"] == "free"]
    out += [("cube", (s, i)) for s in range(len(SUITS)) for i in range(c)]
    out += [("move", (s, i)) for s in range(len(SUITS)) for i in [*range(1, c), -1]]
    stand = set(standable(game))
    out += [("recover", (q,)) for q, kind in points
            if q in stand or (kind == COLONY and p["colony_recovery"] != "bag")]
    out += [("recover", ("card", i)) for i in range(c)]
    out += [("stand", (q,)) for q, _ in points if q in stand]
    out += [("colony", (q,)) for q, kind in points if kind == COLONY]
    out += [("lay", (i,)) for i in range(c)] + [("harvest", (i,)) for i in range(c)]
    cards = sorted({(card.suit, card.rank) for card in game.cards})
    out += [("fight", sr) for sr in cards] + [("play", sr) for sr in cards]
    if p["explore"]:
        pairs = {(a, b) for t in game.tiles for u in game.tiles if t is not u
                 for a, _ in t.ports for b, _ in u.ports}
        out += [("attach", pair) for pair in sorted(pairs)]
    return [str(Move(0, kind, args)) for kind, args in out]


def _sizes(game: OzymandiasCampaign) -> tuple[int, int, int, int, int, int]:
    return (game.players, tableau_slots(game), len(_points(game)), len(_distinct_cards(game)),
            len(game.tiles), len(_port_names(game)))


@lru_cache(maxsize=64)
def _lookups(game: OzymandiasCampaign) -> tuple[dict, dict, list[int], dict, tuple, int]:
    """Per game spec (specs are immutable and hashable): point, card and port indexes, the
    copies of each distinct card, the sizes and the vector length."""
    point_index = {q: i for i, (q, _) in enumerate(_points(game))}
    card_index = {name: i for i, name in enumerate(_distinct_cards(game))}
    copies = [0] * len(card_index)
    for card in game.cards:
        copies[card_index[card_name(card.suit, card.rank)]] += 1
    ports = {name: i for i, name in enumerate(_port_names(game))}
    return point_index, card_index, copies, ports, _sizes(game), observation_shape(game)[0]


def observation_shape(game: OzymandiasCampaign) -> tuple[int]:
    """``(size,)``, the length of the flat vector (layout in the module docstring)."""
    n, c, pts, d, k, o = _sizes(game)
    s = len(SUITS)
    size = (len(STEPS) + 4 * n + 4 + c + s + 3 * n + 2
            + 3 * d
            + n * (2 + s + 3 + c * (1 + s + 1 + s + 3))
            + pts * (1 + 3 * n + 1)
            + k * (2 + k + 2 * o)
            + len(WAR_KINDS) + pts + 2 * n + s + pts)
    return (size,)


#: A seat's VP is encoded as VP / target_vp, clipped at this (the game ends at the turn a seat
#: reaches target_vp), to keep a finite bound.
VP_CAP = 2.0


def _most_ports(game: OzymandiasCampaign) -> int:
    """The most ports one point of a tile has (an open-port count's bound)."""
    most = 0
    for tile in game.tiles:
        at: dict[str, int] = {}
        for _, point in tile.ports:
            at[point] = at.get(point, 0) + 1
        most = max(most, *at.values(), 0)
    return most


def _squash(x: float, half: float = 5.0) -> float:
    """``x / (x + half)``: a count without a useful bound, mapped monotonically into 0..1."""
    return x / (x + half)


def observation_tensor(game: OzymandiasCampaign, view: Mapping[str, Any]) -> np.ndarray:
    """One seat's ``view`` (``state.view(seat)``; a spectator's view reads as seat 0's,
    without a hand) as a float32 vector of :func:`observation_shape`; layout in the module
    docstring. Reads only ``view`` and the game's tile and card files."""
    point_index, card_index, copies, ports, sizes, size = _lookups(game)
    n, c, pts, d, k, o = sizes
    p = game.params
    w = TensorWriter(size)
    me = view.get("seat") if isinstance(view.get("seat"), int) else 0
    tile_index = game.tile_index
    per_copy = [1.0 / c for c in copies]
    row_high = np.ones(1 + 3 + 1 + 3 + 3, dtype=np.float32)
    row_high[4] = max(card.rank for card in game.cards) / 7.0

    def card_counts(names: Sequence[str]) -> None:
        w.counts(d, [card_index[name] for name in names], per_copy)

    def suits(cubes: Mapping[str, int]) -> None:
        w.values([_squash(cubes[s]) for s in SUITS])

    step = view["step"]
    # 1. global
    w.one_hot(len(STEPS), STEPS.index(step) if step in STEPS else None)
    w.seat_hot(view["active"], me, n)
    w.seats_hot(view["acting"], me, n)
    w.seats_hot(view["to_act"], me, n)
    w.seats_hot(view["submitted"], me, n)
    w.value(view["round"] / p["max_rounds"], 0.0, (p["max_rounds"] + 1) / p["max_rounds"])
    w.value(view["tile_deck_size"] / len(game.tiles))
    w.value(view["deck_size"] / len(game.cards))
    w.value(_squash(view["owed"]))
    w.one_hot(c, view["migrating"])
    suits(view["migrated_out"])
    w.seat_hot(view["trigger"], me, n)
    w.seat_hot(view["last_seat"], me, n)
    w.seats_hot(view["winners"] or (), me, n)
    w.value(bool(view["truncated"]))
    w.value(step == "over")
    # 2. cards
    card_counts(view["discard"])
    card_counts(view.get("hand", ()))
    mine = view.get("my_submission")
    w.one_hot(d, card_index[mine.split()[1].upper()] if mine else None)
    # 3. seats, the viewer first
    for seat in seats_from(me, n):
        pl = view["players"][seat]
        w.value(min(pl["vp"] / p["target_vp"], VP_CAP), 0.0, VP_CAP)
        w.value(_squash(pl["unrest"]))
        suits(pl["incoming"])
        w.value(pl["bag"] / p["workers"])
        w.value(pl["supply"] / p["workers"])
        w.value(pl["hand_size"] / p["hand_size"], 0.0, len(game.cards) / p["hand_size"])
        for i in range(c):
            b = w.block(1 + 3 + 1 + 3 + 3, 0.0, row_high)
            if i < len(pl["tableau"]):
                row = pl["tableau"][i]
                b[0] = 1.0
                b[1 + SUITS.index(row["suit"])] = 1.0
                b[4] = row["rank"] / 7.0
                b[5:8] = [_squash(row["cubes"][s]) for s in SUITS]
                b[8:] = (row["tapped"], row["laid"], row["harvest"])
    # 4. points
    on_map = {f"{entry['tile']}:{q}" for entry in view["map"]
              for q, _ in game.tiles[tile_index[entry["tile"]]].points}
    open_ports: dict[str, int] = {}
    for q, _ in view["open_ports"]:
        open_ports[q] = open_ports.get(q, 0) + 1
    point_high = np.ones(1 + 3 * n + 1, dtype=np.float32)
    point_high[-1] = _most_ports(game) / 2.0
    block = w.block(pts * (1 + 3 * n + 1), 0.0, np.tile(point_high, pts)) \
        .reshape(pts, 1 + 3 * n + 1)
    for q in on_map:
        block[point_index[q], 0] = 1.0
    for q, seat in view["standing"].items():
        block[point_index[q], 1 + relative_seat(seat, me, n)] = 1.0
    for q, stack in view["stacks"].items():
        row = block[point_index[q]]
        for seat in set(stack):
            row[1 + n + relative_seat(seat, me, n)] = _squash(stack.count(seat), 2.0)
        row[1 + 2 * n + relative_seat(stack[-1], me, n)] = 1.0
    for q, count in open_ports.items():
        block[point_index[q], -1] = count / 2.0
    # 5. tiles
    explore = view["explore"]
    block = w.block(k * (2 + k + 2 * o)).reshape(k, 2 + k + 2 * o)
    for entry in view["map"]:
        row = block[tile_index[entry["tile"]]]
        row[0] = 1.0
        if entry["join"] is not None:
            at, port, tile_port = entry["join"]
            row[2 + tile_index[at.split(":")[0]]] = 1.0
            row[2 + k + ports[port]] = 1.0
            row[2 + k + o + ports[tile_port]] = 1.0
    if explore is not None:
        block[tile_index[explore["tile"]], 1] = 1.0
    # 6. the war and the exploration point
    war = view["war"]
    w.one_hot(len(WAR_KINDS), WAR_KINDS.index(war["kind"]) if war else None)
    w.one_hot(pts, point_index[war["point"]] if war else None)
    w.seat_hot(war["attacker"] if war else None, me, n)
    w.seat_hot(war["defender"] if war else None, me, n)
    w.one_hot(len(SUITS), SUITS.index(war["sector_suit"]) if war else None)
    w.one_hot(pts, point_index[explore["at"]] if explore else None)
    return w.done()
