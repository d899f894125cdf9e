"""The field copies and JSON conversions the state protocol's ``_copy_fields``/
``_fields_data``/``_restore_fields`` helpers and the component model use. Loading a saved state
is :func:`meeple.engine.validation.restore_state`."""

from __future__ import annotations

from typing import Any


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
