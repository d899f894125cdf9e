"""Saving and loading states: the field copies and JSON conversions the state protocol's
``_copy_fields``/``_fields_data``/``_restore_fields`` helpers use, and :func:`restore_state`,
which rebuilds a checked state from ``State.to_json`` output (``Game.state_from_json``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import MeepleError, StateError
from meeple.engine.rng import rng_from_json

if TYPE_CHECKING:
    from meeple.engine.game import Game
    from meeple.engine.state import State


def copied(value: Any) -> Any:
    """``value`` with its lists, dicts and sets (and those directly inside them) copied."""
    if isinstance(value, list):
        return [v.copy() if isinstance(v, (list, dict, set)) else v for v in value]
    if isinstance(value, dict):
        return {k: v.copy() if isinstance(v, (list, dict, set)) else v for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


def jsonable(value: Any) -> Any:
    """A JSON-compatible deep copy: tuples become lists, sets sorted lists."""
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, set):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


def restore_state(game: Game, payload: str | bytes | Mapping[str, Any]) -> State:
    """Rebuild a state of ``game`` from :meth:`State.to_json` output (see
    ``Game.state_from_json``), checking it first (:mod:`meeple.engine.validation`).

    Raises:
        StateError: naming the JSON path of the first problem: not JSON, another game,
            variant, players or parameters, a wrong shape or type, a broken game invariant
            (``Game._validate_data``), or a state that cannot be played on.
    """
    from meeple.engine.validation import check_loaded, parse_document

    envelope = parse_document(game, payload)
    data = envelope.data
    game._validate_data(data)
    try:
        state = game._state_from_data(data)
        state.seed = envelope.seed
        state._rng = None if envelope.rng is None else rng_from_json(envelope.rng)
    except StateError:
        raise
    except MeepleError as exc:
        raise StateError("$.data", str(exc)) from None
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        raise StateError("$.data", f"malformed state ({type(exc).__name__}: {exc})") from None
    state._pending = {}
    check_loaded(state, envelope.pending)
    return state
