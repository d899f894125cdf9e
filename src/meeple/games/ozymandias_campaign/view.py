"""Ozymandias, campaign edition: what a seat sees of a state (the engine's ``State.view``).

Everything on the table is public (docs/rules/ozymandias-campaign.md, "Components"): the
map, standing workers, stacks, tableaus, cube counts, the discard pile and the events. A seat
sees its own hand and every other hand's size only; the deck and the tile deck show as their
sizes. The tile drawn by an exploration is public once drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.ozymandias_campaign.moves import CARD, CUBES, HARVEST, LAID, TAPPED
from meeple.games.ozymandias_campaign.vocab import SUITS

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import CampaignState

SUIT_COUNT = len(SUITS)
G, R, B = SUITS  # the keys of the per-suit counts, in suit order


def state_view(state: CampaignState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (0-based; ``None``: the public view, no hand).

    Returns a fresh dict of JSON values; the seat's ``hand`` is its cards' texts, sorted.
    Card texts, suit names and ranks come from the game's tables (``card_texts``,
    ``card_keys``), built once per game spec; the lab asks for a view at every decision.
    """
    game = state.game
    texts, keys = game.card_texts, game.card_keys
    n = game.players
    players = []
    for s in range(n):  # plain loops: a comprehension costs a frame in 3.11
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
    cubes_in, cubes_out, mig_out = state.cubes_in, state.cubes_out, state.mig_out
    out: dict[str, Any] = {
        "round": state.turns // n + 1,
        "rounds_played": state.length(),
        "active": state.active,
        "right_of": [state.right_of(s) for s in range(n)],
        "step": state.step,
        "acting": list(state._acting),
        "map": state.map.to_json(),
        "open_ports": [list(p) for p in state.map.open_ports],
        "standing": dict(sorted(state.standing.items())),
        "stacks": {p: list(s) for p, s in sorted(state.stacks.items())},
        "tile_deck_size": len(state.tile_deck),
        "deck_size": len(state.deck),
        "discard": [texts[c] for c in state.discard],
        "players": players,
        "turns": state.turns,
        "cubes_in": {G: cubes_in[0], R: cubes_in[1], B: cubes_in[2]},
        "cubes_out": {G: cubes_out[0], R: cubes_out[1], B: cubes_out[2]},
        "owed": state.owed,
        "migrating": state.mig_pos if state.step == "migrate" else None,
        "migrated_out": {G: mig_out[0], R: mig_out[1], B: mig_out[2]},
        "war": None if state.war is None else {
            "kind": state.war[0], "point": state.war[1], "attacker": state.war[2],
            "defender": state.war[3], "sector_suit": SUITS[state.map.suits[state.war[1]]]},
        "explore": None if state.drawn_tile is None else _explore_view(state),
        "trigger": state.trigger,
        "last_seat": state.last_seat,
        "events": [list(e) for e in state.events[-12:]],
        "winners": None if state.winners_ is None else list(state.winners_),
        "truncated": state.truncated,
        "lost_wars": sorted(state.lost_wars),
    }
    if seat is not None:
        out["hand"] = sorted([texts[c] for c in state.hands[seat]])
    return out


def _explore_view(state: CampaignState) -> dict[str, Any]:
    """The drawn tile (public once drawn) and where each of its ports leads."""
    tile = state.game.tiles[state.drawn_tile]
    return {"at": state.explore_at, "tile": tile.id, "suit": SUITS[tile.suit],
            "ports": {port: [point, tile.kind(point)] for port, point in tile.ports}}
