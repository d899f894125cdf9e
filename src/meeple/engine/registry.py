"""The game registry, filled by each game's own package (engine-patterns: no central list).

A game package calls :func:`register` on its :class:`~meeple.engine.game.Game` subclass when it
is imported. :func:`load_game` discovers packages on first use: every sub-package of
``meeple.games`` (found by walking the package path, not from a list), plus any module named by
an installed distribution under the entry-point group ``meeple.games``, so an outside package
can add a game without touching meeple.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from meeple.engine.checks import given
from meeple.engine.errors import ArgumentError, UnknownGameError
from meeple.engine.game import Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False

GAMES_PACKAGE = "meeple.games"
ENTRY_POINT_GROUP = "meeple.games"


def register(cls: type[Game]) -> type[Game]:
    """Add a game class to the registry under ``cls.name`` (usable as a class decorator).

    Raises:
        ValueError: if another class already holds that name.
    """
    existing = _GAMES.get(cls.name)
    if existing is not None and existing is not cls:
        raise ValueError(f"game name {cls.name!r} is already registered by {existing!r}")
    _GAMES[cls.name] = cls
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = importlib.import_module(GAMES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__, GAMES_PACKAGE + "."):
        importlib.import_module(info.name)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        ep.load()


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The registered class for ``name``.

    Raises:
        UnknownGameError: naming the registered games.
        ArgumentError: if ``name`` is not a str.
    """
    _discover()
    if not isinstance(name, str):
        raise ArgumentError(f"a game name must be a str, one of {', '.join(sorted(_GAMES))}; "
                            f"got {given(name)}")
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"no game called {name!r}; registered games: {known}") from None


def load_game(
    name: str, variant: str | None = None, players: int | None = None, **params: Any
) -> Game:
    """An immutable game spec, validated.

    Args:
        name: a registered game name (see ``meeple games``), e.g. ``"battle-of-the-four-gods"``.
        variant: a named variant or alias; ``None`` is the game's default variant.
        players: the seat count; ``None`` is the game's default.
        **params: parameter overrides on top of the variant's values.
    Raises:
        UnknownGameError, UnknownVariantError, ParameterError: with the allowed names or range.
        ArgumentError: if ``name`` is not a str.
    """
    return game_class(name)(variant=variant, players=players, **params)
