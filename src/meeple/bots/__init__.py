"""Game-agnostic bots, and the lookup of any bot by name for a game.

``make_bot(name, game, seat, seed)`` finds ``name`` among the generic bots here (``random``,
``ismcts`` and its labelled settings such as ``ismcts-400``, ``rl:PATH`` for a trained
policy) and the game's own bots
(``game.bot_factories()``, e.g. a game's ``heuristic``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.bots.ismcts import ISMCTSBot, ismcts_from_name
from meeple.bots.random_bot import RandomBot
from meeple.bots.rl import PolicyBot, rl_from_name
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "ismcts": ISMCTSBot}
#: Bot families whose label carries settings, by the label's family part (:func:`family_of`):
#: ``ismcts-400-heuristic`` is an ISMCTS bot with 400 iterations and heuristic rollouts;
#: ``rl:runs/rl-b4g/model.zip`` plays the policy trained and saved there (``meeple[rl]``).
GENERIC_FAMILIES: dict[str, Callable[..., Bot]] = {"ismcts": ismcts_from_name,
                                                   "rl": rl_from_name}


def family_of(name: str) -> str:
    """The family part of a bot label: before the first ``:`` when it has one (a label that
    carries a path, ``rl:PATH``, whose path may hold ``-``), else before the first ``-``."""
    return name.split(":", 1)[0] if ":" in name else name.split("-", 1)[0]


def bot_names(game: Game) -> list[str]:
    """Names of every bot that can play ``game``: generic ones first, then the game's own."""
    return list(GENERIC_BOTS) + [n for n in game.bot_factories() if n not in GENERIC_BOTS]


def make_bot(name: str, game: Game, seat: int, seed: int = 0) -> Any:
    """Build bot ``name`` for ``seat`` of ``game`` with a stream derived from ``seed``.

    Raises:
        ParameterError: naming the bots available for this game.
    """
    factory = game.bot_factories().get(name) or GENERIC_BOTS.get(name)
    family = GENERIC_FAMILIES.get(family_of(name)) if factory is None else None
    if family is not None:
        return family(name, game, seat, seed)
    if factory is None:
        raise ParameterError(
            f"no bot called {name!r} for {game.name}; bots: {', '.join(bot_names(game))} "
            "(and labels: ismcts-<settings>, rl:PATH of a trained model)"
        )
    return factory(game, seat, seed)


__all__ = ["GENERIC_BOTS", "GENERIC_FAMILIES", "ISMCTSBot", "RandomBot", "PolicyBot", "bot_names",
           "family_of", "make_bot"]
