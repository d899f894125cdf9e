"""Ozymandias, campaign edition: how its view keys show the state and how a determinization
reads them back (the ``show``/``restore`` of ``CampaignState.COMPONENTS``).

Everything on the table is public (docs/rules/ozymandias-campaign.md, "Components"): the
map, standing workers, stacks, tableaus, cube counts, the discard pile and the events. A seat
sees its own hand and every other hand's size only; the deck and the tile deck show as their
sizes. The tile drawn by an exploration is public once drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from meeple.games.ozymandias_campaign.moves import CARD, CUBES, HARVEST, LAID, TAPPED
from meeple.games.ozymandias_campaign.vocab import SUITS

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import CampaignState

SUIT_COUNT = len(SUITS)
G, R, B = SUITS  # the keys of the per-suit counts, in suit order


def suits(counts: list[int]) -> dict[str, int]:
    """A count per suit as the view shows it (``{GOLD: g, RED: r, BLUE: b}``)."""
    return {G: counts[0], R: counts[1], B: counts[2]}


def suit_list(counts: Mapping[str, int]) -> list[int]:
    """The inverse of :func:`suits`."""
    return [counts[G], counts[R], counts[B]]


def players_view(state: CampaignState, seat: int | None) -> list[dict[str, Any]]:
    """The view's ``players``: per seat its VP, unrest, incoming cubes, bag, supply, hand size
    and tableau rows (card text, suit, rank, cubes, tapped, laid, harvest). Card texts and
    keys come from the game's tables, built once per game spec."""
    game = state.game
    texts, keys = game.card_texts, game.card_keys
    players = []
    for s in range(game.players):  # plain loops: a comprehension costs a frame in 3.11
        tableau = []
        for row in state.tableaus[s]:
            card = row[CARD]
            suit, rank = keys[card]
            tableau.append({"card": texts[card], "suit": SUITS[suit], "rank": rank,
                            "cubes": {G: row[CUBES], R: row[CUBES + 1], B: row[CUBES + 2]},
                            "tapped": bool(row[TAPPED]), "laid": bool(row[LAID]),
                            "harvest": bool(row[HARVEST])})
        incoming = state.incoming[s]
        players.append({
            "vp": state.vp[s],
            "unrest": state.unrest[s],
            "incoming": {G: incoming[0], R: incoming[1], B: incoming[2]},
            "bag": state.bag[s],
            "supply": state.supply[s],
            "hand_size": len(state.hands[s]),
            "tableau": tableau,
        })
    return players


def tableaus_from(view: Mapping[str, Any], state: Any,
                  take: Callable[[str], int]) -> list[list[list[int]]]:
    """The tableau rows of a view's ``players``, each card a copy of its name (``take``)."""
    tableaus = []
    for p in view["players"]:
        rows = []
        for c in p["tableau"]:
            cubes = c["cubes"]
            rows.append([take(c["card"]), cubes[G], cubes[R], cubes[B], int(c["tapped"]),
                         int(c["laid"]), int(c["harvest"])])
        tableaus.append(rows)
    return tableaus


def per_seat(key: str) -> Callable[[Mapping[str, Any], Any], list[Any]]:
    """``restore`` of a per-seat count shown in each of the view's ``players``."""
    return lambda view, state: [p[key] for p in view["players"]]


def war_view(state: CampaignState) -> dict[str, Any] | None:
    """The war in progress and the suit of its sector."""
    war = state.war
    if war is None:
        return None
    return {"kind": war[0], "point": war[1], "attacker": war[2], "defender": war[3],
            "sector_suit": SUITS[state.map.suits[war[1]]]}


def explore_view(state: CampaignState) -> dict[str, Any] | None:
    """The drawn tile (public once drawn) and where each of its ports leads."""
    if state.drawn_tile is None:
        return None
    tile = state.game.tiles[state.drawn_tile]
    return {"at": state.explore_at, "tile": tile.id, "suit": SUITS[tile.suit],
            "ports": {port: [point, tile.kind(point)] for port, point in tile.ports}}
