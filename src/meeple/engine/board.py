"""The board description a generic drawing needs, derived from a state's component declaration
(docs/engine.md, "Components"; the web client's ``static/js/generic.js`` draws it).

A :class:`~meeple.engine.components.ComponentState` says what its state is made of and who
sees what; :func:`board_layout` turns that into JSON a client can draw with no game code:
zones as rows of cards (face up where the viewing seat sees them, as a count of face-down
cards where it does not), one row per seat for a per-seat zone, marks as tags on the cards
they name, and the values a view shows as counters (per seat, or for the table). The layout
names only view keys and visibilities, never a piece: the pieces themselves come from each
seat's own view, so drawing it cannot show more than the view holds.
"""

from __future__ import annotations

from typing import Any

from meeple.engine.components import ComponentState, Mark, Shown, Value, Zone


def _label(name: str) -> str:
    """``"hand_sizes"`` -> ``"Hand sizes"``; the last part of a dotted view key."""
    words = name.rsplit(".", 1)[-1].strip("_").replace("_", " ")
    return words[:1].upper() + words[1:]


def _zone(zone: Zone) -> dict[str, Any]:
    return {"name": zone.name, "label": _label(zone.name), "pieces": zone.pieces,
            "per_seat": zone.per_seat, "visibility": zone.visibility.value,
            "show": zone.show or zone.show_sorted, "sorted": zone.show is None,
            "count": zone.count, "slot": zone.slot, "draw_pile": zone.draw_pile,
            "notes": zone.notes}


def _mark(mark: Mark) -> dict[str, Any]:
    return {"name": mark.name, "label": _label(mark.name), "pieces": mark.pieces,
            "visibility": mark.visibility.value, "show": mark.show or mark.show_sorted,
            "count": mark.count}


def board_layout(state_class: type | None) -> dict[str, Any] | None:
    """The generic board description of ``state_class`` (JSON-compatible), or None for a state
    that declares no components.

    Output: ``{"zones": [{"name", "label", "pieces", "per_seat", "visibility" ("public",
    "owner", "others" or "count"), "show" (the view key of its pieces, or None),
    "sorted" (the view sorts them: their order is not told), "count" (the view key of how
    many, or None), "slot", "draw_pile", "notes" (the view key of what is known of each
    piece as held, written on the cards, or None)}...], "marks": [{"name", "label", "pieces",
    "visibility", "show", "count"}...], "values": [{"key", "label", "per_seat", "seat"}...]}``,
    in declaration order. ``values`` lists every :class:`Value` a view shows (its view key)
    and every :class:`Shown` key; a client draws per-seat values as columns of one table of
    seats and the others as counters. View keys may be dotted (``"turn.keep_size"``).
    """
    if state_class is None or not issubclass(state_class, ComponentState):
        return None
    declared = state_class.COMPONENTS
    values: list[dict[str, Any]] = []
    for c in declared:
        if isinstance(c, Value) and c.view is not None:
            key = c.view or c.name
            values.append({"key": key, "label": _label(key), "per_seat": c.per_seat,
                           "seat": c.seat})
        elif isinstance(c, Shown):
            values.append({"key": c.name, "label": _label(c.name), "per_seat": False,
                           "seat": False})
    return {"zones": [_zone(c) for c in declared if isinstance(c, Zone)],
            "marks": [_mark(c) for c in declared if isinstance(c, Mark)],
            "values": values}
