"""The public content the web board of Damocles draws from (``Game.board_content``).

A seat's view names codices only by id (``GEN-03``), so the board needs the deck manifest:
each codex's type, class, points and pattern. The manifest is public (docs/rules/damocles.md,
section 2, *Hidden information*); this content holds nothing else: no deck order, no seed,
no hand. Codices are listed sorted by id, whatever order the deck file has.
"""

from __future__ import annotations

from typing import Any

from meeple.engine.game import Game
from meeple.games.damocles.codex import CIRCLE, GOD_COLOURS, GODS, TYPES

#: What each codex type does, in a line for a card or a tooltip, as the rules page's codex
#: table says it (docs/rules/damocles.md, section 2, *Codices*); the rules implement them.
EFFECTS = {
    "GENERATE": "With a Number: draw N.",
    "COMBUST": "With a Number: draw N + 1.",
    "ORACLE": "With a Number: look at N + 2, keep N.",
    "ONE": "N = 1.", "TWO": "N = 2.", "THREE": "N = 3.",
    "HASTE": "Before swapping: two swaps this turn.",
    "REFLEX": "One later match this turn may shrink blank gaps.",
    "ANNEX": "Borrow one opponent's played Production or Number.",
    "LYSE": "Destroy 1 played codex of each opponent.",
    "SACRIFICE": "Discard 1 own played codex, destroy 2 of each opponent.",
    "EVISCERATE": "Destroy 2 played codices of each opponent.",
}


def content(game: Game) -> dict[str, Any]:
    """The board content of a Damocles game (JSON-compatible).

    Input: a Damocles game spec (its deck as loaded for its variant and parameters).
    Output: ``{"circle": 7, "gods": [{"name", "letter", "colour"}...],
    "types": {TYPE: {"name", "letter", "class", "permanent", "points", "number", "effect"}},
    "codices": {ID: {"type", "pattern": [[position, GOD], ...], "text"}}}``, positions
    counted from 1 as in the rule document, every codex of the game's deck included.
    """
    gods = [{"name": name, "letter": name[0], "colour": colour}
            for name, colour in zip(GODS, GOD_COLOURS, strict=True)]
    types = {name: {"name": info.name.title(), "letter": info.letter, "class": info.cls.title(),
                    "permanent": info.permanent, "points": info.pips, "number": info.number,
                    "effect": EFFECTS[name]}
             for name, info in TYPES.items()}
    codices = {codex.id: {"type": codex.type,
                          "pattern": [[offset + 1, GODS[god]] for offset, god in codex.pattern],
                          "text": codex.pattern_text()}
               for codex in sorted(game.deck, key=lambda c: c.id)}
    return {"circle": CIRCLE, "gods": gods, "types": types, "codices": codices}
