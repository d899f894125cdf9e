"""Argument checks shared by the public entry points of ``Game`` and ``State``.

Each check returns the value it accepts (normalised: a numpy integer seat becomes an ``int``)
or raises a subclass of :class:`~meeple.engine.errors.ArgumentError` whose message names the
argument, what was expected and what was given. The entry points call them before touching
anything, so a refused call leaves the state as it was.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import (
    ActionArgumentError,
    ArgumentError,
    MeepleError,
    SeatError,
    ViewError,
)

if TYPE_CHECKING:
    from meeple.engine.action import Action
    from meeple.engine.game import Game
    from meeple.engine.state import State


def given(value: Any) -> str:
    """``value`` as an error message shows it: its ``repr`` (cut to 60 characters) and type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def integer(value: Any) -> int | None:
    """``value`` as an int if it is an integer that is not a bool (numpy integers accepted),
    else None."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return None
    index = getattr(type(value), "__index__", None)
    if index is None:
        return None
    try:
        return int(index(value))
    except Exception:  # noqa: BLE001 - a broken __index__ is just not an integer
        return None


def seat(value: Any, players: int, name: str = "seat") -> int:
    """``value`` if it is a seat of a ``players``-seat game: an int (not a bool) in
    ``0..players-1``.

    Raises:
        SeatError: naming ``name``, the range and what was given.
    """
    number = integer(value)
    if number is None or not 0 <= number < players:
        raise SeatError(f"{name} must be a seat, an int in 0..{players - 1}; "
                        f"got {given(value)}")
    return number


def key_seat(value: Any, players: int) -> int:
    """A key of a joint action as an int: a numpy integer becomes an int (kept even when out of
    range, so the caller refuses it as a seat that does not act).

    Raises:
        SeatError: ``value`` is not a whole number (a bool, a str, None...).
    """
    number = integer(value)
    if number is None:
        raise SeatError(f"a key of joint must be a seat, an int in 0..{players - 1}; "
                        f"got {given(value)}")
    return number


def count(value: Any, name: str, allow_none: bool = False) -> int | None:
    """``value`` if it is a non-negative int (not a bool), or None when ``allow_none``.

    Raises:
        ArgumentError: naming ``name`` and what was given.
    """
    if value is None and allow_none:
        return None
    number = integer(value)
    if number is None or number < 0:
        extra = " or None" if allow_none else ""
        raise ArgumentError(f"{name} must be a non-negative int{extra}; got {given(value)}")
    return number


def rng(value: Any, name: str = "rng") -> random.Random:
    """``value`` if it is a ``random.Random`` (the caller's own stream).

    Raises:
        ArgumentError: naming ``name`` and what was given.
    """
    if not isinstance(value, random.Random):
        raise ArgumentError(f"{name} must be a random.Random; got {given(value)}")
    return value


#: The errors a game's code raises when a view's contents are not what it reads
#: (:func:`reading_view`).
READ_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def reading_view(game: Any, hook: Callable[..., Any], *args: Any) -> Any:
    """``hook(*args)`` (a game's encoding or determinization reading a view that passed
    ``check_view``), with a game's failure to read the view's contents (``READ_ERRORS``, not
    a meeple error) as a :class:`ViewError` (:func:`view_error`)."""
    try:
        return hook(*args)
    except MeepleError:
        raise
    except READ_ERRORS as exc:
        raise view_error(game, exc) from exc


def view_error(game: Any, exc: BaseException) -> ViewError:
    """The :class:`ViewError` for ``game`` failing to read a view with ``exc``."""
    return ViewError(f"{game.name} cannot read this view ({type(exc).__name__}: {exc}); "
                     "pass State.view(seat) unchanged")


# ------------------------------------------------- game hooks behind the engine's checks
_checked_seat = seat  # (the wrapper below names its argument ``seat``)


def seat_checked(method: Callable[[State, int], bool]) -> Callable[[State, int], bool]:
    """``method`` (a game's ``is_eliminated``) behind the seat check of the base method
    (``State.__init_subclass__`` wraps a game's own with it): a seat that is not an int in
    ``0..players-1`` raises :class:`~meeple.engine.errors.SeatError` before the game reads it."""

    @functools.wraps(method)
    def is_eliminated(self: State, seat: int) -> bool:
        if type(seat) is not int or not 0 <= seat < self.game.players:
            seat = _checked_seat(seat, self.game.players)
        return method(self, seat)

    is_eliminated._seat_checked = True  # type: ignore[attr-defined]
    return is_eliminated


def checked_parse(parse: Callable[[Game, str, int], Action]) -> Callable[[Game, str, int], Action]:
    """A game's ``parse_action`` behind the engine's argument checks (``Game.__init_subclass__``
    wraps a game's own with it; see ``Game.parse_action``): blank or non-str text raises
    :class:`~meeple.engine.errors.ActionArgumentError`, a bad seat
    :class:`~meeple.engine.errors.SeatError`, before the game reads them."""

    @functools.wraps(parse)
    def parse_action(self: Game, text: str, seat: int) -> Action:
        if type(text) is not str or not text.strip():
            raise ActionArgumentError(f"action text must be a non-empty str in {self.name}'s "
                                      f"notation; got {given(text)}")
        return parse(self, text, self.check_seat(seat))

    parse_action._checked = True  # type: ignore[attr-defined]
    return parse_action
