"""Game-agnostic bots, and the lookup of any bot by name for a game.

``make_bot(name, game, seat, seed)`` finds ``name`` among the generic bots here (``random``,
``ismcts`` and its labelled settings such as ``ismcts-400``, scripted policies such as
``script-attack:left=2-defend=-1``, :mod:`meeple.bots.scripted`, ``rl:PATH`` for a trained
policy) and the game's own bots (``game.bot_factories()``, e.g. a game's ``heuristic``). A
name may end in weight overrides, ``@NAME=VALUE`` each, for a bot that declares them tunable
(``Bot.tunable``): ``heuristic@BASE_WEIGHT=0.4@DECAY=0.5`` is the heuristic bot with those two
weights changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from meeple.bots.ismcts import ISMCTSBot, ismcts_from_name
from meeple.bots.random_bot import RandomBot
from meeple.bots.rl import PolicyBot, rl_from_name
from meeple.bots.scripted import SCRIPT_PREFIX, ScriptedBot, script_from_name
from meeple.bots.weights import parse_weights, weights_name, with_weights
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "ismcts": ISMCTSBot}
#: Bot families whose label carries settings, by the label's family part (:func:`family_of`):
#: ``ismcts-400-heuristic`` is an ISMCTS bot with 400 iterations and heuristic rollouts;
#: ``script-attack=2-defend=-1`` is a scripted policy with those tag weights;
#: ``rl:runs/rl-b4g/model.zip`` plays the policy trained and saved there (``meeple[rl]``).
GENERIC_FAMILIES: dict[str, Callable[..., Bot]] = {"ismcts": ismcts_from_name,
                                                   SCRIPT_PREFIX: script_from_name,
                                                   "rl": rl_from_name}


def family_of(name: str) -> str:
    """The family part of a bot label: what comes before its first ``-`` or ``:``, whichever
    comes first (``ismcts-400``, ``script-attack:left=2``, ``rl:runs/rl-b4g/model.zip``, whose
    path may hold ``-``)."""
    return re.split(r"[-:]", name, maxsplit=1)[0]


def bot_names(game: Game) -> list[str]:
    """Names of every bot that can play ``game``: generic ones first, then the game's own."""
    return list(GENERIC_BOTS) + [n for n in game.bot_factories() if n not in GENERIC_BOTS]


def make_bot(name: str, game: Game, seat: int, seed: int = 0) -> Any:
    """Build bot ``name`` for ``seat`` of ``game`` with a stream derived from ``seed``.

    Raises:
        ParameterError: naming the bots available for this game; for ``@NAME=VALUE``
            overrides, a weight the bot does not declare tunable or a value that is not a
            number.
    """
    if "@" in name:
        base, *overrides = name.split("@")
        bot = make_bot(base, game, seat, seed)
        return with_weights(bot, parse_weights(name, overrides, type(bot).tunable))
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


__all__ = ["GENERIC_BOTS", "GENERIC_FAMILIES", "ISMCTSBot", "PolicyBot", "RandomBot",
           "ScriptedBot", "bot_names", "family_of", "make_bot", "parse_weights", "weights_name",
           "with_weights"]
