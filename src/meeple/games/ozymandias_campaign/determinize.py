"""Ozymandias (campaign edition) determinization: a full state drawn from one seat's view.

Hidden from a seat (OZW-41): the other hands, the deck order and the tile deck order (and a
pending war card, which the engine draws). Everything else is in the view and is copied.

* Cards: copies of a suit and rank are interchangeable (the view names cards ``G5``), so each
  card seen in the view (the seat's hand, every tableau, the discard pile) takes a card index of
  that name, and the card indexes left over, the unseen cards, are shuffled uniformly and dealt
  to the other hands (their public sizes) and the deck (its public size).
* Tiles: the tiles neither on the map nor drawn are shuffled uniformly into the tile deck.
* The view's event log holds the last 12 events; the sampled state keeps just those (the rules
  never read the log).

The sampler is uniform over what the seat has not seen: it ignores what the others' past
choices hint at their hands (the standard choice of ISMCTS determinization).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from meeple.engine.determinization import UnseenDeal
from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.games.ozymandias_campaign.actions import card_name
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.rules import CampaignState, OzymandiasCampaign
from meeple.games.ozymandias_campaign.vocab import SUITS

G, R, B = SUITS
#: Most sector maps kept per game spec (a playthrough makes at most one per placed tile).
MAP_CACHE_SIZE = 4096


class _Info:
    """Per-game lookup tables for sampling, built once per game spec."""

    __slots__ = ("names", "by_name", "tile_index", "tiles_by_id", "maps")

    def __init__(self, game: OzymandiasCampaign) -> None:
        by_name: dict[str, list[int]] = {}
        for i, card in enumerate(game.cards):
            by_name.setdefault(card_name(card.suit, card.rank), []).append(i)
        self.names = tuple(by_name)
        self.by_name = {name: tuple(ids) for name, ids in by_name.items()}
        self.tile_index = dict(game.tile_index)
        self.tiles_by_id = {t.id: t for t in game.tiles}
        self.maps: dict[tuple, SectorMap] = {}


def _info(game: OzymandiasCampaign) -> _Info:
    info = game._cache.get("ozw-determinize")
    if info is None:
        info = game._cache["ozw-determinize"] = _Info(game)
    return info


def view_map(game: OzymandiasCampaign, placements: list[Mapping[str, Any]]) -> SectorMap:
    """The map of a view's ``map`` (its placements), built once per distinct placement list
    per game spec and shared (maps are immutable; at most ``MAP_CACHE_SIZE`` kept). The
    determinizer and the heuristic bot read views' maps through it.

    Raises:
        ParameterError: for an unknown tile or an impossible join (``SectorMap.from_json``).
    """
    return _sector_map(_info(game), placements)


def _sector_map(info: _Info, placements: list[Mapping[str, Any]]) -> SectorMap:
    """The view's map, built once per distinct placement list and shared (maps are
    immutable)."""
    key = tuple((p["tile"], None if p["join"] is None else tuple(p["join"]))
                for p in placements)
    found = info.maps.get(key)
    if found is None:
        if len(info.maps) >= MAP_CACHE_SIZE:
            info.maps.clear()
        found = info.maps[key] = SectorMap.from_json(placements, info.tiles_by_id)
    return found


def determinizer(game: OzymandiasCampaign,
                 view: Mapping[str, Any]) -> Callable[[random.Random], CampaignState]:
    """``draw(rng)``: ``Game.determinize(view, rng)``'s state before the engine's part (the seed,
    the pending choices), with the view read once: ``draw`` shuffles the unseen cards and the
    tile deck and copies the rest (the colony stacks as a new dict of the same lists: the
    rules give a changed stack a new list, never change one in place, so draws share them).

    Raises:
        ParameterError: if the view's cards and counts do not add up to the game's cards.
    """
    info = _info(game)
    by_name = info.by_name
    used = dict.fromkeys(info.names, 0)
    seat = view["seat"]

    def take(name: str) -> int:
        k = used[name]
        ids = by_name[name]
        if k >= len(ids):
            raise ParameterError(f"the view shows more {name} cards than the deck holds")
        used[name] = k + 1
        return ids[k]

    players = view["players"]
    tableaus = []
    incoming, unrest, vp, bag, supply = [], [], [], [], []
    for p in players:
        rows = []
        for c in p["tableau"]:
            cubes = c["cubes"]
            rows.append([take(c["card"]), cubes[G], cubes[R], cubes[B], int(c["tapped"]),
                         int(c["laid"]), int(c["harvest"])])
        tableaus.append(rows)
        inc = p["incoming"]
        incoming.append([inc[G], inc[R], inc[B]])
        unrest.append(p["unrest"])
        vp.append(p["vp"])
        bag.append(p["bag"])
        supply.append(p["supply"])
    discard = [take(name) for name in view["discard"]]
    hand = [take(name) for name in view["hand"]]

    # The unseen cards, shuffled at each draw, then dealt: the other hands, then the deck.
    unseen = [i for name, ids in by_name.items() for i in ids[used[name]:]]
    deal = UnseenDeal(unseen, [p["hand_size"] for p in players], seat, hand)
    at = deal.end
    if max(0, len(unseen) - at) != view["deck_size"]:
        raise ParameterError(f"the view's deck size {view['deck_size']} does not match the "
                             f"{max(0, len(unseen) - at)} cards it leaves unseen")

    sector_map = _sector_map(info, view["map"])
    tile_index = info.tile_index
    explore = view["explore"]
    drawn = None if explore is None else tile_index[explore["tile"]]
    out = {tile_index[p["tile"]] for p in view["map"]}
    if drawn is not None:
        out.add(drawn)
    tiles = [i for i in range(len(tile_index)) if i not in out]

    war = view["war"]
    cubes_in, cubes_out, mig_out = view["cubes_in"], view["cubes_out"], view["migrated_out"]
    winners = view["winners"]
    migrating = view["migrating"]
    standing = dict(view["standing"])
    stacks = {p: list(s) for p, s in view["stacks"].items()}
    active, step, turns, owed = view["active"], view["step"], view["turns"], view["owed"]
    mig_pos = -1 if migrating is None else migrating
    mig_out = [mig_out[G], mig_out[R], mig_out[B]]
    war = None if war is None else [war["kind"], war["point"], war["attacker"], war["defender"]]
    explore_at = None if explore is None else explore["at"]
    trigger, last_seat, truncated = view["trigger"], view["last_seat"], view["truncated"]
    cubes_in = [cubes_in[G], cubes_in[R], cubes_in[B]]
    cubes_out = [cubes_out[G], cubes_out[R], cubes_out[B]]
    events = [tuple(e) for e in view["events"]]
    winners = None if winners is None else tuple(winners)
    lost_wars = list(view["lost_wars"])
    acting = tuple(view["acting"])

    def draw(rng: random.Random) -> CampaignState:
        cards, hands = deal.draw(rng)
        tile_deck = tiles.copy()
        shuffle(rng, tile_deck)
        state = CampaignState.__new__(CampaignState)
        state.game = game  # the engine sets the seed, stream, tables, pending and narrate
        state.map = sector_map
        state.tile_deck = tile_deck
        state.deck = cards[at:]
        state.discard = discard.copy()
        state.hands = hands
        copies = []  # plain loops: a comprehension costs a frame in 3.11
        for rows in tableaus:
            copied = []
            for row in rows:
                copied.append(row.copy())
            copies.append(copied)
        state.tableaus = copies
        copies = []
        for cubes in incoming:
            copies.append(cubes.copy())
        state.incoming = copies
        state.unrest = unrest.copy()
        state.vp = vp.copy()
        state.bag = bag.copy()
        state.supply = supply.copy()
        state.standing = standing.copy()
        state.stacks = stacks.copy()  # the lists shared: the rules never change one in place
        state.active = active
        state.step = step
        state.turns = turns
        state.owed = owed
        state.mig_pos = mig_pos
        state.mig_out = mig_out.copy()
        state.war = None if war is None else war.copy()
        state.explore_at = explore_at
        state.drawn_tile = drawn
        state.trigger = trigger
        state.last_seat = last_seat
        state.cubes_in = cubes_in.copy()
        state.cubes_out = cubes_out.copy()
        state.events = events.copy()
        state.winners_ = winners
        state.truncated = truncated
        state.lost_wars = lost_wars.copy()
        state._acting = acting
        return state

    return draw
