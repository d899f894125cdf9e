"""Game configurations the engine-wide tests run over: every registered game x variant at its
default seat count, and the first variant also at its fewest and most seats."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from meeple.engine.registry import game_class, game_names


def game_configs(keep: Callable[[type], bool] = lambda cls: True) -> list:
    """``pytest.param((name, variant, players), id=...)`` for every registered game class that
    ``keep`` accepts (e.g. only games declaring an encoding)."""
    out = []
    for name in game_names():
        cls = game_class(name)
        if not keep(cls):
            continue
        for variant in cls.variants:
            counts = {cls.default_players}
            if variant is cls.variants[0]:
                counts |= {cls.min_players, cls.max_players}
            for players in sorted(counts):
                out.append(pytest.param((name, variant.name, players),
                                        id=f"{name}-{variant.name}-{players}p"))
    return out


def adapted_games() -> list:
    """``pytest.param(name, id=name)`` for every registered game; a game declaring no encoding
    is marked skip (the adapters have nothing to adapt)."""
    out = []
    for name in game_names():
        marks = () if game_class(name).encoding else pytest.mark.skip(
            reason=f"{name} declares no encoding (Game.encoding): nothing to adapt")
        out.append(pytest.param(name, id=name, marks=marks))
    return out
