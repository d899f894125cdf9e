"""The copy and the views of a component declaration, written as Python source once per state
class (docs/engine.md, "Components"): a search copies states and reads views at every step, so
:func:`compile_copy` and :func:`compile_view` write one flat function for the declared fields
(``.source`` holds its text), and the small helpers on dotted view keys (:func:`get_at`,
:func:`put_at`) and on piece lists they share with the determinization."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from meeple.engine.declarations import (
    COUNT,
    ORDER_HIDDEN,
    OTHERS,
    OWNER,
    PUBLIC,
    Component,
    Mark,
    Pieces,
    Shown,
    Value,
    Visibility,
    Zone,
)
from meeple.engine.persist import copied, jsonable

if TYPE_CHECKING:
    pass


_SCALARS = frozenset({int, float, str, bool, type(None), tuple, frozenset})


def _copy_lists(value: list[list[Any]]) -> list[list[Any]]:
    """A list of lists copied two levels deep (``copied``'s result for it)."""
    return list(map(list.copy, value))


def fast_copier(value: Any) -> Callable[[Any], Any] | None:
    """The cheapest copy of ``value`` that shares nothing mutable with it, as ``copied``
    would make (None: immutable, assign it)."""
    kind = type(value)
    if kind in _SCALARS:
        return None
    if kind is list:
        scalars = _SCALARS
        if value and all(type(v) is list for v in value):
            return _copy_lists  # a list per seat: as ``copied``, without its tests
        for v in value:
            if type(v) not in scalars:
                return copied
        return list.copy
    if kind is dict:
        scalars = _SCALARS
        for v in value.values():
            if type(v) not in scalars:
                return copied
        return dict.copy
    if kind is set:
        return set.copy
    return copied


def put_at(view: dict[str, Any], key: str, value: Any) -> None:
    """``view[key] = value`` for a dotted ``key`` (``"turn.step"``: in the dict ``turn``)."""
    if "." in key:
        head, _, rest = key.partition(".")
        put_at(view.setdefault(head, {}), rest, value)
    else:
        view[key] = value


MISSING = object()


def get_at(view: Mapping[str, Any], key: str, default: Any = MISSING) -> Any:
    """``view[key]`` for a dotted ``key``; ``default`` (or KeyError) when absent."""
    try:
        if "." not in key:
            return view[key]
        here: Any = view
        for part in key.split("."):
            here = here[part]
        return here
    except (KeyError, TypeError):
        if default is MISSING:
            raise KeyError(key) from None
        return default


def is_scalar(annotation: Any) -> bool:
    """Whether a ``Value.type`` holds only JSON scalars (its view is the value itself)."""
    origin = get_origin(annotation)
    if annotation in (int, float, str, bool, type(None)):
        return True
    if origin is Literal:
        return True
    if origin is Annotated:
        return is_scalar(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return all(is_scalar(a) for a in get_args(annotation))
    return False

def copier(component: Component) -> Callable[[Any], Any]:
    if isinstance(component, Value) and component.shared:
        return lambda v: v
    if isinstance(component, Value) and component.copy is not None:
        return component.copy
    return copied


def compile_copy(fields: Sequence[Component],
                 extra: Sequence[str]) -> Callable[[Any], Any]:
    """A function ``copy(state)`` for the components ``fields`` and the cache slots ``extra``,
    written as source code once, one line a field: a ``Value.shared`` value or a scalar one
    (its ``type`` holds only JSON scalars, no list) assigned, any other copied as
    ``Value.copy`` (default ``persist.copied``) says; a cache shared (None if unset)."""
    lines = ["def copy(state):", "    new = new_(type(state))"]
    consts: list[Any] = []
    for c in fields:
        if isinstance(c, Value) and (c.shared or (is_scalar(c.type) and not c.per_seat)):
            lines.append(f"    new.{c.name} = state.{c.name}")
        else:
            consts.append(copier(c))
            lines.append(f"    new.{c.name} = C[{len(consts) - 1}](state.{c.name})")
    for name in extra:
        lines.append(f"    new.{name} = getattr(state, {name!r}, None)")
    lines.append("    return new")
    source = "\n".join(lines)
    scope: dict[str, Any] = {"C": tuple(consts), "new_": object.__new__}
    exec(compile(source, "<meeple.engine.components copy>", "exec"), scope)  # noqa: S102
    copy = scope["copy"]
    copy.source = source  # for a reader: what the declaration became
    return copy  # type: ignore[no-any-return]


def compile_view(declared: Sequence[Component], pieces: Mapping[str, Pieces] | None = None
                 ) -> Callable[[Any, int | None], dict[str, Any]]:
    """A function ``view(state, seat)`` for ``declared`` components, written as source code
    once (the view is read at every step of a search's heuristic rollouts, so it must cost
    what a hand-written one does): each component's keys in declaration order, a dotted key
    in its group's dict, each visibility's test inlined; pieces of a kind with
    ``Pieces.names`` (in ``pieces``) shown by name."""
    lines = ["def view(state, seat):", "    out = {}"]
    groups: dict[str, str] = {}
    consts: list[Any] = []

    def const(value: Any) -> str:
        consts.append(value)
        return f"C[{len(consts) - 1}]"

    namer: dict[str, str] = {}  # piece kind -> the local holding its names' __getitem__
    for c in declared:
        kind = getattr(c, "pieces", None)
        if (isinstance(c, (Zone, Mark)) and pieces is not None and kind not in namer
                and pieces[kind].names is not None):
            namer[kind] = f"nm{len(namer)}"
            lines.append(f"    {namer[kind]} = {const(pieces[kind].names)}(state.game).__getitem__")

    def lst(c: Zone | Mark, expr: str) -> str:
        nm = namer.get(c.pieces)
        return f"list({expr})" if nm is None else f"list(map({nm}, {expr}))"

    def srt(c: Zone | Mark, expr: str) -> str:
        nm = namer.get(c.pieces)
        if nm is None:
            return f"sorted({expr})"
        if pieces is not None and pieces[c.pieces].copies:  # copies: sorted by name
            return f"sorted(map({nm}, {expr}))"
        return f"list(map({nm}, sorted({expr})))"

    def target(key: str) -> tuple[str, str]:
        head, dot, rest = key.partition(".")
        if not dot:
            return "out", repr(key)
        if "." in rest:
            raise TypeError(f"view key {key!r}: one level of nesting at most")
        if head not in groups:
            groups[head] = f"g{len(groups)}"
            lines.append(f"    {groups[head]} = out[{head!r}] = out.get({head!r}) or {{}}")
        return groups[head], repr(rest)

    def put(key: str, expr: str, indent: str = "    ") -> None:
        where, name = target(key)
        lines.append(f"{indent}{where}[{name}] = {expr}")

    for c in declared:
        if isinstance(c, Value):
            if c.view is None:
                continue
            attr = f"state.{c.name}"
            if c.show is not None:
                expr = f"{const(c.show)}(state)"
            elif is_scalar(c.type):
                expr = f"list({attr})" if c.per_seat else attr
            else:
                expr = f"jsonable({attr})"
            put(c.view or c.name, expr)
        elif isinstance(c, Shown):
            if c.when is not None:
                lines.append(f"    if {const(c.when)}(state, seat):")
                put(c.name, f"{const(c.show)}(state, seat)", "        ")
            else:
                put(c.name, f"{const(c.show)}(state, seat)")
        elif isinstance(c, Zone) and c.slot:
            lines.append(f"    p = state.{c.name}")
            nm = namer.get(c.pieces)
            expr = "list(p)" if nm is None else f"[None if x is None else {nm}(x) for x in p]"
            for key in (c.show, c.show_sorted):
                if key is not None:
                    put(key, expr)
            if c.count is not None:
                put(c.count, "[0 if x is None else 1 for x in p]")
        elif isinstance(c, Zone) and c.per_seat:
            lines.append(f"    p = state.{c.name}")
            if c.visibility is PUBLIC or c.visibility is ORDER_HIDDEN:
                if c.show is not None:
                    put(c.show, f"[{lst(c, 'x')} for x in p]")
                if c.show_sorted is not None:
                    put(c.show_sorted, f"[{srt(c, 'x')} for x in p]")
            elif c.visibility is OWNER:
                lines.append("    if seat is not None:")
                if c.show is not None:
                    put(c.show, lst(c, "p[seat]"), "        ")
                if c.show_sorted is not None:
                    put(c.show_sorted, srt(c, "p[seat]"), "        ")
            elif c.visibility is OTHERS:
                others = f"[None if s == seat else {lst(c, 'x')} for s, x in enumerate(p)]"
                if c.show is not None:
                    put(c.show, others)
                if c.show_sorted is not None:
                    put(c.show_sorted,
                        f"[None if s == seat else {srt(c, 'x')} for s, x in enumerate(p)]")
            if c.count is not None:
                put(c.count, "[len(x) for x in p]")
        else:  # a shared zone or a mark
            assert isinstance(c, (Zone, Mark))
            lines.append(f"    p = state.{c.name}")
            owner = f"{const(c.owner)}(state)" if c.owner is not None else "None"
            test = {PUBLIC: "True", COUNT: "False", ORDER_HIDDEN: "True",
                    OWNER: f"seat is not None and seat == {owner}",
                    OTHERS: f"seat is not None and seat != {owner}"}[c.visibility]
            when = getattr(c, "when", None)
            if when is not None:
                test = f"({test}) and {const(when)}(state)"
            if test != "False" and (c.show is not None or c.show_sorted is not None):
                lines.append(f"    if {test}:")
                if c.show is not None:
                    put(c.show, lst(c, "p"), "        ")
                if c.show_sorted is not None:
                    put(c.show_sorted, srt(c, "p"), "        ")
            if c.count is not None:
                if getattr(c, "count_when", False) and when is not None:
                    lines.append(f"    if {const(when)}(state):")
                    put(c.count, "len(p)", "        ")
                else:
                    put(c.count, "len(p)")
    lines.append("    return out")
    source = "\n".join(lines)
    scope: dict[str, Any] = {"C": tuple(consts), "jsonable": jsonable}
    exec(compile(source, "<meeple.engine.components view>", "exec"), scope)  # noqa: S102
    view = scope["view"]
    view.source = source  # for a reader: what the declaration became
    return view  # type: ignore[no-any-return]


def _sees(visibility: Visibility, owner: int | None, seat: int | None) -> bool:
    if visibility is PUBLIC or visibility is ORDER_HIDDEN:
        return True
    if visibility is COUNT or seat is None:
        return False
    return (seat == owner) if visibility is OWNER else (seat != owner)


def _show_pieces(c: Zone | Mark, state: Any, seat: int | None, pieces: Sequence[Any],
                 target: dict[str, Any], owner: int | None = None) -> None:
    if c.owner is not None:
        owner = c.owner(state)
    shown = _sees(c.visibility, owner, seat) and (getattr(c, "when", None) is None
                                                  or c.when(state))  # type: ignore[union-attr]
    if shown:
        if c.show is not None:
            put_at(target, c.show, list(pieces))
        if c.show_sorted is not None:
            put_at(target, c.show_sorted, sorted(pieces))
    if c.count is not None:
        put_at(target, c.count, len(pieces))


def _show_zone(c: Zone, state: Any, seat: int | None, target: dict[str, Any]) -> None:
    value = getattr(state, c.name)
    if not c.per_seat:
        _show_pieces(c, state, seat, value, target)
        return
    if c.visibility is PUBLIC:
        if c.show is not None:
            put_at(target, c.show, [list(p) for p in value])
        if c.show_sorted is not None:
            put_at(target, c.show_sorted, [sorted(p) for p in value])
    elif c.visibility is OWNER and seat is not None:
        if c.show is not None:
            put_at(target, c.show, list(value[seat]))
        if c.show_sorted is not None:
            put_at(target, c.show_sorted, sorted(value[seat]))
    elif c.visibility is OTHERS:
        others = [None if s == seat else list(p) for s, p in enumerate(value)]
        if c.show is not None:
            put_at(target, c.show, others)
        if c.show_sorted is not None:
            put_at(target, c.show_sorted, [None if p is None else sorted(p) for p in others])
    if c.count is not None:
        put_at(target, c.count, [len(p) for p in value])


def shown_pieces(c: Zone | Mark, view: Mapping[str, Any],
                  back: Mapping[Any, Any] | None = None) -> list[Any] | None:
    """The pieces of a shared zone or a mark as the view shows them (``back``: name -> id,
    if the view names them), or None if hidden."""
    for key in (c.show, c.show_sorted):
        if key is not None:
            found = get_at(view, key, None)
            if found is not None:
                return list(found) if back is None else [back[x] for x in found]
    return None
