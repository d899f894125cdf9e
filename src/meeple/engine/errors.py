"""Typed errors raised by the engine and by every game.

Every error meeple raises on purpose derives from :class:`MeepleError`, so an interface (the
terminal, later the web server) can catch that one class and show the message instead of a
traceback. Each subclass also derives from the closest built-in exception (``ValueError``,
``KeyError``, ``LookupError``) so generic code that expects those keeps working.

Arguments of the wrong type or outside their values (``apply_action(None)``, ``view(True)``,
``parse_action(7, 0)``, ``action_from_code(True, 0)``) raise an :class:`ArgumentError`
subclass naming the argument, what was expected and what was given, before anything changes.

When an action is refused, the state is left exactly as it was before the call.
"""

from __future__ import annotations


class MeepleError(Exception):
    """Base class of every error meeple raises deliberately."""


class UnknownGameError(MeepleError, LookupError):
    """``load_game`` was given a name that no registered game has."""


class UnknownVariantError(MeepleError, LookupError):
    """A game was asked for a variant it does not define."""


class ParameterError(MeepleError, ValueError):
    """A game parameter is unknown, of the wrong type or out of its allowed range."""


class StateError(ParameterError):
    """A saved state given to ``Game.state_from_json`` is not JSON, has the wrong shape or
    types, or is impossible under the game's invariants (a card in two places, an unknown id,
    counts that do not add up, a phase that does not fit whose turn it is).

    ``path`` is the JSON path of the first problem found, e.g. ``$.data.hands[2][0]`` (``$`` is
    the whole state document); the message starts with it and says what was expected. It
    derives from :class:`ParameterError`, which ``state_from_json`` raised before it existed.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.detail = message

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (type(self), (self.path, self.detail))


class ActionParseError(MeepleError, ValueError):
    """An action's text could not be read in the game's action notation."""


class IllegalActionError(MeepleError, ValueError):
    """A well-formed action that the rules do not allow now (the state is unchanged)."""


class NotYourTurnError(IllegalActionError):
    """A seat tried to act at a decision where it is not among the acting seats."""


class GameOverError(IllegalActionError):
    """An action was applied to a terminal state."""


class TalkError(MeepleError, ValueError):
    """A table-talk message breaks the game's talk policy (mode, sender or recipients)."""


class RecordError(MeepleError, ValueError):
    """A record is malformed, or replaying it does not reach the final state it recorded."""


class ArgumentError(MeepleError, TypeError, ValueError):
    """A public entry point was given an argument it cannot take: of the wrong type (``None``,
    a float or a str where an int or an action goes; a bool where an int goes) or outside the
    allowed values. The message names the argument, what was expected and what was given
    (``repr`` and type). Also a ``TypeError`` and a ``ValueError``; nothing has changed."""


class SeatError(ArgumentError, ParameterError, ActionParseError):
    """A seat argument is not a seat of this game: not an int (bools refused) or outside
    ``0..players-1``. Also a ``ParameterError`` and an ``ActionParseError`` (what ``State.view``
    and ``Game.parse_action`` raised for a bad seat before this class existed)."""


class NotAnActionError(ArgumentError, IllegalActionError):
    """``apply_action``, ``apply_actions`` or ``action_code`` got a value that is not an
    :class:`~meeple.engine.action.Action` (or, for ``action_code``, an action outside the
    game's action table). Also an ``IllegalActionError``."""


class ActionArgumentError(ArgumentError, ActionParseError):
    """``parse_action`` got text that is not a non-empty ``str``, or ``action_from_code`` a
    code that is not an int in ``0..num_distinct_actions()-1`` (bools refused). Also an
    ``ActionParseError``."""


class ViewError(ArgumentError, ParameterError):
    """``observation_tensor`` or ``determinize`` got something that is not a seat's view of this
    game (``State.view(seat)`` for an int seat), or a view whose contents the game cannot read.
    Also a ``ParameterError``."""
