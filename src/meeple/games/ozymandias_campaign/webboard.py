"""Public content for the web board (``Game.board``; static/js/boards/ozymandias-campaign.js).

The seat's view names tiles by id only (``map``, ``explore``), so the board needs each tile's
drawing: its suit, its points with their kind and a position, its lines and its ports. The
positions are a fixed layout computed here from the tile graph (a deterministic spring layout,
no randomness), in a unit square with the port points pushed towards the edge. Nothing hidden
is included: no deck or tile deck order, no seed; the tile and card files are public (rules
page, section 6).

This module is named ``webboard`` because :mod:`.board` already holds the map model.
"""

from __future__ import annotations

import math
from typing import Any

from meeple.games.ozymandias_campaign.vocab import COLONY, FACTION_NAMES, SUITS, Tile

#: Layout margins: points lie in [MARGIN, 1 - MARGIN]; ports a little closer to the edge.
MARGIN = 0.16


def tile_layout(tile: Tile) -> dict[str, tuple[float, float]]:
    """Positions in the unit square for every point of ``tile``: point id -> (x, y).

    Stress majorisation on the graph distances (lines of the tile), started from a circle in
    file order, so it is deterministic; then scaled into [MARGIN, 1 - MARGIN]."""
    ids = [p for p, _ in tile.points]
    n = len(ids)
    adj: dict[str, set[str]] = {p: set() for p in ids}
    for a, b in tile.lines:
        adj[a].add(b)
        adj[b].add(a)
    dist: dict[str, dict[str, int]] = {}
    for src in ids:  # breadth-first distances
        seen, frontier, d = {src: 0}, [src], 0
        while frontier:
            d += 1
            nxt = []
            for p in frontier:
                for q in sorted(adj[p]):
                    if q not in seen:
                        seen[q] = d
                        nxt.append(q)
            frontier = nxt
        dist[src] = {q: seen.get(q, n) for q in ids}
    pos = {p: [math.cos(2 * math.pi * i / n) * n / 4, math.sin(2 * math.pi * i / n) * n / 4]
           for i, p in enumerate(ids)}
    for _ in range(200):
        for i in ids:
            sx = sy = sw = 0.0
            for j in ids:
                if i == j:
                    continue
                dij = dist[i][j] or 1
                w = dij ** -2
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                norm = max(math.hypot(dx, dy), 1e-6)
                sx += w * (pos[j][0] + dij * dx / norm)
                sy += w * (pos[j][1] + dij * dy / norm)
                sw += w
            pos[i] = [sx / sw, sy / sw]
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    sx = (1 - 2 * MARGIN) / max(max(xs) - min(xs), 1e-6)
    sy = (1 - 2 * MARGIN) / max(max(ys) - min(ys), 1e-6)
    sx, sy = min(sx, 1.6 * sy), min(sy, 1.6 * sx)  # fill the square, stretching at most 1.6x
    ox = (1 - (max(xs) - min(xs)) * sx) / 2
    oy = (1 - (max(ys) - min(ys)) * sy) / 2
    return {p: (round(ox + (x - min(xs)) * sx, 3), round(oy + (y - min(ys)) * sy, 3))
            for p, (x, y) in pos.items()}


def tile_content(tile: Tile) -> dict[str, Any]:
    """One tile as JSON: ``{"suit", "points": {id: {"kind", "x", "y"}}, "lines", "ports"}``."""
    layout = tile_layout(tile)
    return {
        "suit": SUITS[tile.suit],
        "colonies": tile.colonies,
        "points": {p: {"kind": kind, "x": layout[p][0], "y": layout[p][1]}
                   for p, kind in tile.points},
        "lines": [list(line) for line in tile.lines],
        "ports": dict(tile.ports),
    }


def content(game: Any) -> dict[str, Any]:
    """The web board's public content for ``game`` (an OzymandiasCampaign).

    Returns a JSON-compatible dict: ``suits`` (name -> letter and faction name), ``tiles``
    (tile id -> :func:`tile_content`, every tile of the game's tile file), ``cards`` (the
    distinct card names of the deck, e.g. ``G5``, sorted), ``colony`` (the colony kind's
    name) and the parameters a reader needs (``target_vp``, ``hand_size``, ``workers``)."""
    names = sorted({f"{SUITS[c.suit][0]}{c.rank}" for c in game.cards})
    return {
        "suits": {s: {"letter": s[0], "faction": FACTION_NAMES[s]} for s in SUITS},
        "tiles": {t.id: tile_content(t) for t in game.tiles},
        "cards": names,
        "colony": COLONY,
        "target_vp": game.params["target_vp"],
        "hand_size": game.params["hand_size"],
        "workers": game.params["workers"],
    }
