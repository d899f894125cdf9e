"""Positions and scenarios: games that start from a given state instead of a new deal.

**Scenarios** (the public API). ``game.build_scenario(**description)`` (or the game's
``meeple.games.<game>.scenario.build(game, **description)``) builds a position from a short
readable description (hands, board, scores, whose turn) with defaults for the rest, and returns
it checked like a loaded state (:func:`validated`). Future chance is fixed the honest way:
every meeple game keeps its draw piles in the state, in order, so a builder's ``next_draws``
puts the named cards on top of the deck in that order (:func:`stack_on_top`) and they are the
next cards drawn; chance that is not a pile (a die, a reshuffle) comes from the state's seeded
stream, reproducible from the built state's ``seed`` but not chosen. Save a built position with
``json.dumps(state.to_json())``; ``meeple playtest GAME --from FILE --keep-order`` keeps its
next draws while reseeding later chance.

**Starting from a position** (``meeple playtest GAME --from position.json``). A *start* is a
JSON-compatible dict ``{"position": <State.to_json output>, "keep_order": bool, "file": str}``
(``file`` is informational; the lab adds ``"length"``, the position's ``State.length``, and
counts game lengths from it). Game ``i`` of such a playtest starts from
:func:`start_state` ``(game, start, seed_i)``: the position is loaded (validated, see
``Game.state_from_json``) and reseeded with the game's seed (:meth:`State.reseed`): its chance
stream restarts from ``derive_seed(seed_i, "chance")`` and, unless ``keep_order``, the game's
unseen piles (decks) are shuffled from that stream, so every game has its own future chance
while hands, board, scores and whose turn are the position's. A record of such a game keeps the
start (``Record.start``) and its seed, so :func:`~meeple.engine.record.replay` rebuilds the same
first state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import ParameterError, StateError

if TYPE_CHECKING:
    from meeple.engine.game import Game
    from meeple.engine.state import State

__all__ = ["check_position_matches", "read_position", "seat_values", "stack_on_top",
           "start_state", "validated"]


def validated(state: State) -> State:
    """``state`` checked like a loaded state: its JSON read back by ``Game.state_from_json``
    (the game's invariants, a playable position); returns the state read back.

    Raises:
        StateError: at the JSON path of the first broken invariant.
    """
    return state.game.state_from_json(state.to_json())


def stack_on_top(pile: list[Any], cards: Sequence[Any], what: str = "card") -> None:
    """Move ``cards`` (each in ``pile``) to the top of ``pile`` so that they are drawn in the
    order given: ``cards[0]`` first. The top of a meeple pile is its end (``pile.pop()``).

    Example: ``stack_on_top(deck, ["NYX-01", "ORC-02"])`` then ``deck.pop() == "NYX-01"``.

    Raises:
        ParameterError: a card is not in ``pile`` (unknown, or placed elsewhere), or twice.
    """
    if len(set(cards)) != len(cards):
        raise ParameterError(f"next draws name a {what} twice: {list(cards)}")
    for card in cards:
        if card not in pile:
            raise ParameterError(f"{what} {card!r} cannot be drawn next: it is not in the "
                                 "draw pile (unknown, or placed elsewhere by the description)")
        pile.remove(card)
    pile.extend(reversed(cards))


def seat_values(value: Mapping[int, Any] | Sequence[Any] | None, players: int, default: Any,
                what: str) -> list[Any]:
    """One value per seat from a description: a list (one per seat), a dict ``{seat: value}``
    (other seats get ``default``) or None (all ``default``). Mutable defaults are copied.

    Raises:
        ParameterError: a list of the wrong length or a seat outside ``0..players-1``.
    """
    fresh = lambda: list(default) if isinstance(default, list) else default  # noqa: E731
    if value is None:
        return [fresh() for _ in range(players)]
    if isinstance(value, Mapping):
        out = [fresh() for _ in range(players)]
        for seat, v in value.items():
            if not (isinstance(seat, int) and 0 <= seat < players):
                raise ParameterError(f"{what}: seat {seat!r} is not a seat (0..{players - 1})")
            out[seat] = v
        return out
    if len(value) != players:
        raise ParameterError(f"{what}: expected one per seat ({players}), got {len(value)}")
    return list(value)


def read_position(path: str | Path, keep_order: bool = False) -> dict[str, Any]:
    """Read a state JSON file (``meeple replay --save`` or a scenario builder's output) as a
    start: ``{"position", "keep_order", "file"}``.

    Raises:
        ParameterError: no such file, or not a JSON object.
    """
    path = Path(path)
    if not path.is_file():
        raise ParameterError(f"--from {path}: no such file")
    try:
        position = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ParameterError(f"--from {path}: not JSON ({exc})") from None
    if not isinstance(position, dict):
        raise ParameterError(f"--from {path}: expected a state JSON object")
    return {"position": position, "keep_order": bool(keep_order), "file": path.name}


def check_position_matches(game: Game, start: Mapping[str, Any]) -> State:
    """Check that ``start``'s position is a valid state of ``game`` (same game, variant,
    players and parameters) and return it loaded (not reseeded).

    Raises:
        ParameterError: naming the option that contradicts the position (game, --variant,
            --players, a parameter), or a :class:`StateError` for an invalid position.
    """
    position = start["position"]
    where = f"--from {start.get('file', 'position')}"
    for key, option, mine in (("game", "GAME", game.name), ("variant", "--variant", game.variant),
                              ("players", "--players", game.players)):
        theirs = position.get(key)
        if theirs is not None and theirs != mine:
            hint = f" (leave {option} out to take the position's)" if option[0] == "-" else ""
            raise ParameterError(f"{where} is a position with {key} = {theirs!r}, but {option} "
                                 f"asks for {mine!r}{hint}")
    theirs = position.get("params")
    if isinstance(theirs, dict):
        mine_params = json.loads(json.dumps(dict(game.params)))
        for key in sorted(set(theirs) | set(mine_params)):
            if theirs.get(key) != mine_params.get(key):
                raise ParameterError(f"{where}: the position's parameter {key} = "
                                     f"{theirs.get(key)!r} but the options give "
                                     f"{mine_params.get(key)!r}")
    try:
        state = game.state_from_json(position)
    except StateError as exc:
        raise StateError(exc.path, f"{where}: {exc.detail}") from None
    if state.is_terminal():
        raise ParameterError(f"{where}: the position is already over; nothing to play")
    return state


def start_state(game: Game, start: Mapping[str, Any], seed: int) -> State:
    """The first state of a game played from ``start`` with ``seed``: the position loaded and
    reseeded (:meth:`State.reseed`, shuffling unseen piles unless ``start["keep_order"]``).
    The same ``(start, seed)`` always gives the same state.

    Raises:
        StateError: the position is not a valid state of ``game``.
    """
    state = game.state_from_json(start["position"])
    state.reseed(seed, shuffle_unseen=not start.get("keep_order", False))
    return state
