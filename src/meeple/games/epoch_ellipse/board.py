"""The public content the web board (``static/js/boards/epoch-ellipse.js``) needs beside a
seat's view: every card of the game's card file by name (kind, subtype, a combat's difficulty,
the printed Discard and Trash abilities, a curse's, charm's or night card's effect, the text)
and every location (its build counts, VP and text).

All of it is the card file (``game.content``), which is public (rules page, section 6):
nothing here depends on a deal, a deck order or the seed.
"""

from __future__ import annotations

from typing import Any

from meeple.engine.game import Game
from meeple.games.epoch_ellipse.actions import slug

#: Short labels of the typed points (EPE-9), as the board writes an ability.
POINT_LABELS = {"weapon": "Weapon", "food": "Food", "medical": "Medical",
                "avoid_collapse": "Avoid COLLAPSE", "trash_catastrophe": "Trash catastrophe",
                "redraw": "Redraw", "draw": "Draw"}


def content(game: Game) -> dict[str, Any]:
    """The board content of an Epoch Ellipse ``game`` (a JSON-compatible dict).

    Returns ``{"cards": {NAME: {"slug", "kind", "subtype", "difficulty", "discard",
    "trash", "effect", "params", "text"}}, "locations": {NAME: {"catastrophes", "salvage",
    "survivors", "vp", "fixed", "text"}}, "points": {POINT: label}, "hand_size",
    "explore_max", "explore_count"}``: every card and location of the game's card file, keyed
    by the names the views use, and the parameters the board needs to label its controls.
    """
    cards = {}
    for card in game.content.cards:
        cards[card.name] = {
            "slug": slug(card.name), "kind": card.kind, "subtype": card.subtype,
            "difficulty": card.difficulty, "discard": dict(card.discard),
            "trash": dict(card.trash), "effect": card.effect, "params": dict(card.params),
            "text": card.text,
        }
    locations = {
        loc.name: {"catastrophes": loc.catastrophes, "salvage": loc.salvage,
                   "survivors": loc.survivors, "vp": loc.vp, "fixed": loc.fixed,
                   "text": loc.text}
        for loc in game.content.locations
    }
    params = game.params
    return {"cards": cards, "locations": locations, "points": dict(POINT_LABELS),
            "hand_size": params["hand_size"], "explore_max": params["explore_max"],
            "explore_count": params["explore_count"]}
