"""Actions: immutable values with a canonical text form.

Every game defines its own action classes deriving from :class:`Action`. An action must be
hashable and compare by value, must never change after creation, and must print (``str``) in
the game's canonical notation, which ``game.parse_action(text, seat)`` reads back to an equal
action. Its JSON form (records, the web) is that same text; games whose actions belong to one
seat expose it as ``seat`` so ``state.apply_action(action)`` knows who acts. The integer form
the learning adapters use is ``Game.action_code(action)``: the index of the action's text in
the game's action table (``Game.action_table``).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any


class Action:
    """Base of all action values. Subclasses define ``__str__``, ``__eq__``, ``__hash__``."""

    __slots__ = ()

    #: The seat this action belongs to, or None when the action is not tied to one seat.
    seat: int | None = None

    def to_json(self) -> str:
        """The action's JSON form: its canonical text."""
        return str(self)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __setstate__(self, state: object) -> None:
        # Unpickling of ``__slots__`` classes sets attributes; immutability blocks setattr.
        slots = state[1] if isinstance(state, tuple) else state
        for key, value in (slots or {}).items():
            object.__setattr__(self, key, value)


class KindAction(Action):
    """An action of one ``seat`` made of a ``kind`` (a word) and ``args`` (a tuple of plain
    values), compared and hashed by those three. Games with many kinds of moves subclass it
    and define :meth:`describe`, the canonical text of a kind and its arguments, or pass the
    text in when it needs more than the arguments (e.g. a card's suit).
    """

    __slots__ = ("seat", "kind", "args", "_text", "_key", "_hash")

    def __init__(self, seat: int, kind: str, args: tuple = (), text: str | None = None) -> None:
        setter = object.__setattr__
        setter(self, "seat", seat)
        setter(self, "kind", kind)
        setter(self, "args", args)
        setter(self, "_text", self.describe(kind, args) if text is None else text)
        setter(self, "_key", (seat, kind, args))
        setter(self, "_hash", hash(self._key))  # searches hash actions in every node

    @staticmethod
    def describe(kind: str, args: tuple) -> str:
        """The canonical text of ``kind`` with ``args`` (override in the game)."""
        return " ".join([kind, *map(str, args)])

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat {self.seat}: {self._text})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key == self._key

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):
        return (type(self), (self.seat, self.kind, self.args, self._text))


def interning(cache: MutableMapping[tuple, Action], seat: int,
              build: Callable[[str, tuple], Action]) -> Callable[..., Action]:
    """A factory ``make(kind, *args)`` of ``seat``'s actions that returns one shared object per
    value: ``build(kind, args)`` runs once per ``(seat, kind, args)`` and is kept in ``cache``
    (a dict the game spec owns, so equal actions are the same object across states). Legal-move
    generators use it so playouts do not rebuild action objects and their texts."""

    def make(kind: str, *args: Any) -> Action:
        key = (seat, kind, args)
        found = cache.get(key)
        if found is None:
            found = cache[key] = build(kind, args)
        return found

    return make
