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


def content(game: Game) -> dict[str, Any]:
    """The board content of a Damocles game (JSON-compatible).

    Input: a Damocles game spec (its deck as loaded for its variant and parameters).
    Output: ``{"circle": 7, "gods": [{"name", "letter", "colour"}...],
    "types": {TYPE: {"name", "letter", "class", "permanent", "points", "number"}},
    "codices": {ID: {"type", "pattern": [[position, GOD], ...], "text"}}}``, positions
    counted from 1 as in the rule document, every codex of the game's deck included.
    """
    gods = [{"name": name, "letter": name[0], "colour": colour}
            for name, colour in zip(GODS, GOD_COLOURS, strict=True)]
    types = {name: {"name": info.name.title(), "letter": info.letter, "class": info.cls.title(),
                    "permanent": info.permanent, "points": info.pips, "number": info.number}
             for name, info in TYPES.items()}
    codices = {codex.id: {"type": codex.type,
                          "pattern": [[offset + 1, GODS[god]] for offset, god in codex.pattern],
                          "text": codex.pattern_text()}
               for codex in sorted(game.deck, key=lambda c: c.id)}
    return {"circle": CIRCLE, "gods": gods, "types": types, "codices": codices}
