"""The public content the web board of Ozymandias (market edition) draws beside a seat's view.

The view names cards only by id (``W17``); the board also shows each card's colour, rank and
event text, and the colours' names and initials. All of it is the card file itself, which is
public (OZD-31); nothing here depends on a game's deal (no deck order, no seed).
"""

from __future__ import annotations

from typing import Any

from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS, EVENTS


def content(game: Any) -> dict[str, Any]:
    """The board content of ``game`` (an ``OzymandiasMarket``), JSON-compatible.

    Returns ``{"colours": [{"name": "RED", "initial": "R"}, ...],
    "cards": {"W17": {"rank": 17, "colour": "WHITE", "event": "Surge", "text": "..."}, ...},
    "sectors": 12, "disks_per_colour": 6, "market_size": 5, "hand_size": 3}``: every card of
    the game's card file (the packaged deck or ``--param cards=FILE``) by its id, with its
    event's name and its full text as the terminal shows it.
    """
    p = game.params
    return {
        "colours": [{"name": name, "initial": COLOUR_INITIALS[i]}
                    for i, name in enumerate(COLOURS)],
        "cards": {card.id: {"rank": card.rank, "colour": COLOURS[card.suit],
                            "event": card.event.title(),
                            "text": card.event_text()}
                  for card in game.cards},
        "events": sorted(e.title() for e in EVENTS),
        "sectors": p["sectors"],
        "disks_per_colour": p["disks_per_colour"],
        "market_size": p["market_size"],
        "hand_size": p["hand_size"],
        "target_vp": p["target_vp"],
        "end": p["end"],
    }
