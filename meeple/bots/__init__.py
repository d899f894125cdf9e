"""Game-agnostic bots, and the lookup of any bot by name for a game.

``make_bot(name, game, seat, seed)`` finds ``name`` among the generic bots here and the game's
own bots (``game.bot_factories()``, e.g. a game's ``heuristic``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.bots.random_bot import RandomBot
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def bot_names(game: Game) -> list[str]:
    """Names of every bot that can play ``game``: generic ones first, then the game's own."""
    return list(GENERIC_BOTS) + [n for n in game.bot_factories() if n not in GENERIC_BOTS]


def make_bot(name: str, game: Game, seat: int, seed: int = 0) -> Any:
    """Build bot ``name`` for ``seat`` of ``game`` with a stream derived from ``seed``.

    Raises:
        ParameterError: naming the bots available for this game.
    """
    factory = game.bot_factories().get(name) or GENERIC_BOTS.get(name)
    if factory is None:
        raise ParameterError(
            f"no bot called {name!r} for {game.name}; bots: {', '.join(bot_names(game))}"
        )
    return factory(game, seat, seed)


__all__ = ["GENERIC_BOTS", "RandomBot", "bot_names", "make_bot"]
