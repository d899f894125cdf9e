"""The JSON Schema of a game's saved states, derived from its component declaration
(docs/engine.md, "Components"): what ``State.to_json()`` writes and ``Game.state_from_json``
reads, for tools outside Python (a designer's editor, another language's loader).

The data part is the pydantic model the validation already uses
(``Components.model()``: types, ranges, choices, no unknown key), made specific to one game
instance: every list of pieces may hold only that game's piece ids (an ``enum`` per kind, from
``Pieces.ids``), and every per-seat list has exactly one entry per seat. What a schema cannot say
(every piece in exactly one place, the rules' invariants) stays with ``Game.state_from_json``,
which checks both; a state it accepts always passes the schema.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine.components import Mark, Value, Zone
from meeple.engine.state import STATE_FORMAT

if TYPE_CHECKING:
    from meeple.engine.game import Game

#: The dialect pydantic writes (``model_json_schema``).
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _pieces(ids: Sequence[Hashable]) -> dict[str, Any]:
    return {"enum": sorted(ids, key=str)}


def _per_seat(items: dict[str, Any], players: int) -> dict[str, Any]:
    return {"type": "array", "items": items, "minItems": players, "maxItems": players}


def state_schema(game: Game) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``game``'s saved states, or of their envelope only
    (``data`` any object) for a game whose state declares no components.

    Output: a JSON-compatible dict. Its ``properties`` are the envelope of
    :meth:`~meeple.engine.state.State.to_json` (``format``, ``game``, ``variant``,
    ``players`` and ``params`` fixed to this game instance's, ``seed``, ``pending``, ``rng``)
    and ``data``: one property per component, a zone's pieces limited to this game's ids of its
    kind, per-seat components with one entry per seat.
    """
    envelope: dict[str, Any] = {
        "format": {"const": STATE_FORMAT},
        "game": {"const": game.name},
        "variant": {"const": game.variant},
        "players": {"const": game.players},
        "params": {"const": dict(game.params)},
        "seed": {"type": "integer"},
        "pending": {"type": "object", "additionalProperties": {"type": "string"}},
        "rng": {},
        "data": {"type": "object"},
    }
    schema: dict[str, Any] = {
        "$schema": DIALECT,
        "title": f"{game.title} saved state ({game.players} seats, {game.variant})",
        "type": "object",
        "properties": envelope,
        "required": sorted(envelope),
        "additionalProperties": False,
    }
    cls = game.state_class
    if cls is None:
        return schema
    components = cls.components()
    data = components.model().model_json_schema()
    schema["$defs"] = data.pop("$defs", {})
    props = data["properties"]
    for c in components.fields:
        prop = props[c.data_key]
        if isinstance(c, (Zone, Mark)):
            ids = _pieces(components.piece_ids(game, c.pieces))
            if isinstance(c, Zone) and c.slot:
                prop = _per_seat({"anyOf": [ids, {"type": "null"}]}, game.players)
            elif isinstance(c, Zone) and c.per_seat:
                prop = _per_seat({"type": "array", "items": ids}, game.players)
            else:
                prop = {"type": "array", "items": ids}
        elif isinstance(c, Value) and c.per_seat:
            prop = {**prop, "minItems": game.players, "maxItems": game.players}
        props[c.data_key] = prop
    envelope["data"] = data
    return schema
