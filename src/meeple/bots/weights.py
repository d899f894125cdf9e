"""A bot's tunable weights named in its label (``heuristic@BASE_WEIGHT=0.4@DECAY=0.5``), and a
game's own bot built from such a label: what :func:`meeple.bots.make_bot` and the ISMCTS
rollout policy (:mod:`meeple.bots.ismcts`) share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game


def game_bot(name: str, game: Game, seat: int, seed: int = 0) -> Bot | None:
    """``game``'s own bot ``name`` (a key of ``game.bot_factories()``, with optional
    ``@NAME=VALUE`` weight overrides) for ``seat``, seeded from ``seed``; ``None`` when the game
    has no bot of that name.

    Raises:
        ParameterError: a weight override the bot does not declare tunable, or not a number.
    """
    base, *overrides = name.split("@")
    factory = game.bot_factories().get(base)
    if factory is None:
        return None
    bot = factory(game, seat, seed)
    if overrides:
        with_weights(bot, parse_weights(name, overrides, type(bot).tunable))
    return bot


def parse_weights(name: str, overrides: list[str], tunable: Mapping[str, Any]
                  ) -> dict[str, float]:
    """The ``NAME=VALUE`` parts of bot ``name`` as weights, each a key of ``tunable``.

    Raises:
        ParameterError: a part that is not ``NAME=VALUE`` with a number, or an unknown name.
    """
    weights: dict[str, float] = {}
    for part in overrides:
        key, _, value = part.partition("=")
        if key not in tunable:
            known = ", ".join(tunable) or "none"
            raise ParameterError(f"bot {name!r}: {key!r} is not a weight of this bot "
                                 f"(tunable: {known})")
        try:
            weights[key] = float(value)
        except ValueError:
            raise ParameterError(f"bot {name!r}: {part!r} must be NAME=NUMBER") from None
    return weights


def with_weights(bot: Bot, weights: Mapping[str, float]) -> Bot:
    """``bot`` with its tunable weights (``Bot.tunable``) set to ``weights`` (instance
    attributes over the class defaults); returns the same bot."""
    for key, value in weights.items():
        setattr(bot, key, value)
    return bot


def weights_name(base: str, weights: Mapping[str, float]) -> str:
    """The bot name of ``base`` with weight overrides: ``heuristic@BASE_WEIGHT=0.4@DECAY=0.5``
    (keys sorted, values with at most 3 decimals)."""
    parts = [f"@{k}={f'{float(v):.3f}'.rstrip('0').rstrip('.') or '0'}"
             for k, v in sorted(weights.items())]
    return base + "".join(parts)
