"""Hanabi: 2-5 players build fireworks together, each seeing every hand but their own, and
speak only through hints. The HLE's default game (OpenSpiel's ``hanabi``) on the component
model; rules, decisions (HAN-n), variants and notation: docs/rules/hanabi.md. Modules:
``content`` (the card file), ``rules`` (spec and state), ``bot`` (the heuristic bot),
``encoding`` (the adapters' action table; the tensor is derived), ``render``
(terminal text).
"""

from meeple.games.hanabi import bot, encoding, render
from meeple.games.hanabi.rules import Hanabi, HanabiState

__all__ = ["Hanabi", "HanabiState"]

Hanabi.define(bots={"heuristic": bot.HeuristicBot}, encoding=encoding.ENCODING,
              renderer=render.render)
