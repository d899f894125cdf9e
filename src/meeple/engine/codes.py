"""Integer action codes: stepping a state with the indices of :meth:`Game.action_table`.

An action's *code* is the index of its canonical text in the game's action table (fixed for a
game instance: variant, parameters and seat count; engine-patterns 5, OpenSpiel's integer
actions). The adapters (OpenSpiel, PettingZoo, Gymnasium) speak codes; so can any caller that
keeps its own arrays of codes (a learner's masks, a batch of games). This module holds the one
place codes are turned into actions and back, memoised per game instance:

* :func:`legal_codes` - one seat's legal actions as codes, ascending (a shared tuple);
* :func:`code_actions` - the same seat's ``{code: action}``, for stepping with codes;
* :func:`action_of_code` - ``game.action_from_code`` memoised per ``(seat, code)``;
* :func:`apply_codes` - the body of ``State.apply_codes``.

``State.legal_codes`` and ``State.apply_codes`` are the public methods built on them. Games that
share their legal-action tuples between states (Four Gods) hit the memos on almost every
step; the others pay one look-up per new tuple.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine import checks
from meeple.engine.errors import ArgumentError

if TYPE_CHECKING:
    from meeple.engine.game import Game
    from meeple.engine.state import State

#: Entries a per-game memo keeps before it is emptied (legal-action tuples of games that build
#: a new tuple per state would otherwise grow it without bound).
MEMO_LIMIT = 1 << 14


class Codec:
    """Memos of one game instance: ``id(legal tuple)`` -> (the tuple, its ascending codes,
    ``{code: action}``), and ``(seat, code)`` -> action. The tuple is kept in its entry, so
    its id cannot be reused while the entry lives."""

    __slots__ = ("game", "legal", "actions")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.legal: dict[int, tuple[Sequence[Any], tuple[int, ...], dict[int, Any]]] = {}
        self.actions: dict[tuple[int, int], Any] = {}

    def entry(self, legal: Sequence[Any]) -> tuple[Sequence[Any], tuple[int, ...],
                                                   dict[int, Any]]:
        memo = self.legal
        found = memo.get(id(legal))
        if found is not None and found[0] is legal:
            return found
        code = self.game.action_code
        by_code = {code(a): a for a in legal}
        found = (legal, tuple(sorted(by_code)), by_code)
        if type(legal) is tuple:  # a list could change under its id
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[id(legal)] = found
        return found


#: Codecs by ``id(game)``: each holds its game, so the id cannot be reused while it is here
#: (hashing a game hashes its parameters, too slow for every step).
_CODECS: dict[int, Codec] = {}


def codec(game: Game) -> Codec:
    """The memos of ``game`` (one per game instance): ``codec(game).entry(legal)`` is
    ``(legal, its ascending codes, {code: action})``."""
    found = _CODECS.get(id(game))
    if found is None:
        if len(_CODECS) > 64:
            _CODECS.clear()
        found = _CODECS[id(game)] = Codec(game)
    return found


def legal_codes(game: Game, legal: Sequence[Any]) -> tuple[int, ...]:
    """The codes of ``legal`` (one seat's legal actions), ascending.

    Raises:
        NotImplementedError: for a game that declares no ``encoding`` (no action table).
        NotAnActionError: if an action's text is not in the table (a gap in the game's table).
    """
    return codec(game).entry(legal)[1]


def code_actions(game: Game, legal: Sequence[Any]) -> dict[int, Any]:
    """``{code: action}`` over ``legal`` (one seat's legal actions; a shared dict: do not
    change it). Raises as :func:`legal_codes`."""
    return codec(game).entry(legal)[2]


def action_of_code(game: Game, code: int, seat: int) -> Any:
    """``game.action_from_code(code, seat)``, memoised per game instance.

    Raises:
        ActionArgumentError: for a code that is not an int in the table's range.
        ActionParseError: as ``Game.action_from_code``.
    """
    if type(code) is not int:  # numpy integers, bools...: the full checks, no memo
        return game.action_from_code(code, seat)
    memo = codec(game).actions
    key = (seat, code)
    found = memo.get(key)
    if found is None:
        found = game.action_from_code(code, seat)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = found
    return found


def apply_codes(state: State, joint: Mapping[int, int]) -> None:
    """``State.apply_codes``: codes legal now become their actions for ``apply_actions``;
    anything else goes through the full checks (see that method for the errors)."""
    if type(joint) is dict and not state._pending:  # the common case: legal codes
        tables = state._legal
        if tables is None:
            tables = state._legal = state._legal_tables()
        entry = codec(state.game).entry
        try:
            actions = {seat: entry(tables[seat][0])[2][code]
                       for seat, code in joint.items() if type(code) is int}
        except (KeyError, TypeError):
            actions = None  # the full checks below name the error
        if actions is not None and len(actions) == len(joint):
            state.apply_actions(actions)
            return
    if not isinstance(joint, Mapping):
        raise ArgumentError(f"joint must be a mapping {{seat: code}}; got "
                            f"{checks.given(joint)}")
    players = state.game.players
    state.apply_actions({s: action_of_code(
        state.game, c, s if type(s) is int else checks.key_seat(s, players))
        for s, c in joint.items()})
