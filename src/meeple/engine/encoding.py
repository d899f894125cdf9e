"""Observation tensors with bounds and action masks derived from a component declaration
(docs/engine.md, "Derived encodings").

A game on the component model (:class:`~meeple.engine.components.ComponentState`) may declare
its adapters' encoding as ``Game.define(encoding=derived_encoding(State, action_texts=...))``
instead of writing ``observation_tensor`` by hand. From ``COMPONENTS`` and ``PIECES`` alone,
each component that the view shows becomes one or more blocks of a flat float32 vector, every
number in ``0..1``, seat blocks relative to the viewer (row 0 is the viewer, then the next
seats in seat order; :func:`~meeple.engine.tensor.seats_from`):

* a :class:`~meeple.engine.components.Zone` (or a ``Mark``) whose pieces the view may show:
  a multi-hot over the kind's ids (``Components.piece_ids``, in ``Pieces.ids`` order); for a
  kind with ``Pieces.copies``, the count of each distinct name divided by the copies of that
  name. A per-seat zone gives one row per seat (``PUBLIC``, ``OTHERS``: the viewer's row
  stays 0 under ``OTHERS``), or the viewer's own row only (``OWNER``); a ``slot`` one one-hot
  row per seat. Where the view does not show the pieces (another seat's, a ``COUNT`` zone, a
  ``when`` that does not hold) the block stays 0;
* a shared zone shown in order (``show``) also gives its top piece (the list's end) one-hot;
* a zone whose pieces may be hidden gives how many from its ``count`` key (or ``sizes``),
  divided by the number of pieces of the kind (one number, or one per seat);
* a :class:`~meeple.engine.components.Value` that is a seat (``seat=True``): a seat one-hot
  relative to the viewer; a ``bool``: 0 or 1; a ``Literal`` (a phase): a one-hot over its
  choices (``None``: all 0); a number with bounds (``Value.bounds(game)``, else the ``ge`` and
  ``le`` of its type): ``(x - low) / (high - low)`` clipped to ``0..1`` (``None``: 0). A
  per-seat value gives one row per seat. Other values (logs, boards, lists), ``Shown`` keys
  and values in no view are left out, and :meth:`DerivedEncoding.layout` lists them with the
  reason: a game says what the declaration cannot through its own :class:`Feature` blocks.

The tensor reads only the view it is given (``State.view(seat)``), so it holds exactly what
the declaration's visibilities show that seat. The action table (``action_texts(game)``) and
the step bound (``max_steps(game)``) cannot be derived from components: the game supplies them,
and :meth:`DerivedEncoding.action_mask` combines the table with a seat's legal actions.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import numpy as np

from meeple.engine import codes
from meeple.engine.components import (
    COUNT,
    OWNER,
    PUBLIC,
    ComponentState,
    Mark,
    Value,
    Zone,
    piece_names,
)
from meeple.engine.tensor import TensorWriter, recorded_bounds

if TYPE_CHECKING:
    from meeple.engine.game import Game

#: ``write(view, me, n, out)``: one block of a derived tensor (``me`` the viewer, ``n`` seats).
BlockWriter = Callable[[Mapping[str, Any], int, int, TensorWriter], None]


@dataclass(frozen=True, slots=True)
class Block:
    """One block of a derived tensor: ``name`` (the component's name, then ``.top`` or
    ``.count`` for a zone's top piece and size, or a feature's name), where it starts
    (``offset``) and how many numbers (``size``), the lowest and highest value of its numbers
    (``low``, ``high``) and ``what`` it holds, in words."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    what: str


@dataclass(frozen=True, slots=True)
class Feature:
    """A block a game appends for what its declaration cannot say: ``size`` numbers (an int,
    or ``size(game)``), written by ``write(game, view, out)`` with the
    :class:`~meeple.engine.tensor.TensorWriter` methods (stating each block's bounds), exactly
    ``size`` of them (else ``RuntimeError``); ``what`` it holds, for the layout. It must read
    ``view`` only."""

    name: str
    size: int | Callable[[Any], int]
    write: Callable[[Any, Mapping[str, Any], TensorWriter], None]
    what: str = ""


@dataclass(frozen=True, slots=True)
class Layout:
    """The layout of a derived tensor for one game instance: its ``blocks`` in order (they
    tile ``0..size-1``) and the components ``left_out`` with the reason for each."""

    game: str
    size: int
    blocks: tuple[Block, ...]
    left_out: tuple[tuple[str, str], ...]

    def text(self) -> str:
        """The layout as a table for a reader: offset, size, range, name and what, one block
        a line, then the components left out."""
        lines = [f"{self.game}: {self.size} numbers",
                 f"{'offset':>6} {'size':>5}  {'range':<9} {'block':<24} what"]
        for b in self.blocks:
            lines.append(f"{b.offset:>6} {b.size:>5}  {_range(b.low, b.high):<9} "
                         f"{b.name:<24} {b.what}")
        if self.left_out:
            lines.append("left out (a game feature block can add them):")
            lines += [f"  {name}: {why}" for name, why in self.left_out]
        return "\n".join(lines)


def _range(low: float, high: float) -> str:
    return f"{low:g}..{high:g}"


@dataclass(frozen=True, slots=True)
class _Plan:
    size: int
    names: tuple[str, ...]
    sizes: tuple[int, ...]
    whats: tuple[str, ...]
    writers: tuple[BlockWriter, ...]
    left_out: tuple[tuple[str, str], ...]


class DerivedEncoding:
    """A game's encoding (``Game.encoding``) derived from ``state_class``'s components: see
    the module docstring for the blocks. Made by :func:`derived_encoding`; one object serves
    every instance of the game (each instance's plan is made once and kept on the game spec).

    Attributes:
        state_class: the :class:`~meeple.engine.components.ComponentState` subclass read.
        features: the game's own blocks, appended after the derived ones in order.
        tops: whether shared zones shown in order add their top piece.
        leave_out: component names not encoded (listed in the layout as left out).
        max_steps: ``max_steps(game)``, the game's bound on the engine steps of a playthrough
            (the adapters' episode length), present only where the game supplies it.
    """

    def __init__(self, state_class: type[ComponentState],
                 action_texts: Callable[[Any], Iterable[str]], *,
                 max_steps: Callable[[Any], int] | None = None,
                 features: Sequence[Feature] = (), tops: bool = True,
                 leave_out: Iterable[str] = ()) -> None:
        if not (isinstance(state_class, type) and issubclass(state_class, ComponentState)):
            raise TypeError(f"derived_encoding: {state_class!r} is not a ComponentState class")
        self.state_class = state_class
        self._action_texts = action_texts
        self.features = tuple(features)
        self.tops = tops
        self.leave_out = frozenset(leave_out)
        known = {c.name for c in state_class.COMPONENTS}
        unknown = sorted(self.leave_out - known)
        if unknown:
            raise TypeError(f"derived_encoding: no component named {', '.join(unknown)}")
        if max_steps is not None:
            self.max_steps = max_steps

    def __repr__(self) -> str:
        return f"DerivedEncoding({self.state_class.__name__})"

    # ------------------------------------------------------------------ the encoding contract
    def action_texts(self, game: Game) -> tuple[str, ...]:
        """The game's action table, as its ``action_texts(game)`` gives it."""
        return tuple(self._action_texts(game))

    def observation_shape(self, game: Game) -> tuple[int]:
        """``(size,)``: the sum of the block sizes (:meth:`layout`)."""
        return (self._plan(game).size,)

    def observation_tensor(self, game: Game, view: Mapping[str, Any]) -> np.ndarray:
        """Seat ``view["seat"]``'s view as float32 numbers of :meth:`observation_shape`, the
        blocks of :meth:`layout` in order; reads ``view`` only.

        Raises:
            KeyError, TypeError, IndexError: a view this declaration did not make (the engine's
                ``Game.observation_tensor`` turns them into ``ViewError``).
            RuntimeError: a feature that writes another number of numbers than its size.
        """
        plan = self._plan(game)
        out = TensorWriter(plan.size)
        me, n = view["seat"], game.players
        for write in plan.writers:
            write(view, me, n, out)
        return out.done()

    def observation_bounds(self, game: Game) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value of every number (two float32 arrays of the size):
        0 and 1 for the derived blocks, the bounds a feature's writer states for its own
        (read by encoding seat 0's initial view while recording)."""
        key = ("derived-encoding-bounds", self)
        found = game._cache.get(key)
        if found is None:
            view = game.new_initial_state(0).view(0)
            low, high = recorded_bounds(game, self._plan(game).size,
                                        lambda: self.observation_tensor(game, view))
            found = game._cache[key] = (low.copy(), high.copy())
        return found  # type: ignore[no-any-return]

    def action_mask(self, game: Game, legal_actions: Sequence[Any]) -> np.ndarray:
        """An int8 vector over the game's action table (``game.num_distinct_actions()``
        numbers: this encoding's table where it is the game's encoding, or the same
        ``action_texts``), 1 at the codes of ``legal_actions`` (one seat's
        ``State.legal_actions``), 0 elsewhere.

        Raises:
            NotAnActionError: a legal action whose text is not in the table.
        """
        mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
        mask[list(codes.legal_codes(game, legal_actions))] = 1
        return mask

    # ------------------------------------------------------------------ the layout
    def layout(self, game: Game) -> Layout:
        """Every block's name, offset, size, bounds and meaning for ``game`` (an instance:
        the sizes follow its seats and piece kinds), and the components left out."""
        plan = self._plan(game)
        low, high = self.observation_bounds(game)
        blocks, at = [], 0
        for name, size, what in zip(plan.names, plan.sizes, plan.whats, strict=True):
            lo = float(low[at:at + size].min()) if size else 0.0
            hi = float(high[at:at + size].max()) if size else 0.0
            blocks.append(Block(name, at, size, lo, hi, what))
            at += size
        return Layout(game.name, plan.size, tuple(blocks), plan.left_out)

    def describe(self, game: Game) -> str:
        """:meth:`layout` as text (``Layout.text``)."""
        return self.layout(game).text()

    def _plan(self, game: Game) -> _Plan:
        key = ("derived-encoding", self)
        plan = game._cache.get(key)
        if plan is None:
            plan = game._cache[key] = _compile(self, game)
        return plan  # type: ignore[no-any-return]


def derived_encoding(state_class: type[ComponentState],
                     action_texts: Callable[[Any], Iterable[str]], *,
                     max_steps: Callable[[Any], int] | None = None,
                     features: Sequence[Feature] = (), tops: bool = True,
                     leave_out: Iterable[str] = ()) -> DerivedEncoding:
    """The encoding of a game whose state class is ``state_class``, for
    ``Game.define(encoding=...)``: observation tensors derived from its ``COMPONENTS`` and
    ``PIECES`` (module docstring), the game's ``action_texts(game)`` as its action table, its
    ``max_steps(game)`` where given, its ``features`` appended, ``tops``: shared zones shown
    in order add their top piece one-hot; ``leave_out``: component names not to encode.

    Raises:
        TypeError: ``state_class`` is not a ``ComponentState`` subclass, or ``leave_out`` names
            no component of it.
    """
    return DerivedEncoding(state_class, action_texts, max_steps=max_steps, features=features,
                           tops=tops, leave_out=leave_out)


# ---------------------------------------------------------------------- compiling a plan
def _compile(enc: DerivedEncoding, game: Game) -> _Plan:
    cls = enc.state_class
    compiled = cls.components()
    n = game.players
    names: list[str] = []
    sizes: list[int] = []
    whats: list[str] = []
    writers: list[BlockWriter] = []
    left_out: list[tuple[str, str]] = []

    def add(name: str, size: int, what: str, writer: BlockWriter) -> None:
        names.append(name)
        sizes.append(size)
        whats.append(what)
        writers.append(writer)

    kinds: dict[str, _Kind] = {}
    for c in cls.COMPONENTS:
        if c.name in enc.leave_out:
            left_out.append((c.name, "left out by the game (leave_out)"))
        elif isinstance(c, (Zone, Mark)):
            kind = kinds.get(c.pieces)
            if kind is None:
                kind = kinds[c.pieces] = _Kind(game, cls, c.pieces, compiled.piece_ids(game,
                                                                                       c.pieces))
            if not _zone_blocks(c, kind, n, enc.tops, add):
                left_out.append((c.name, "no view key shows its pieces or its size"))
        elif isinstance(c, Value):
            why = _value_block(c, game, n, add)
            if why is not None:
                left_out.append((c.name, why))
        else:
            left_out.append((c.name, "a Shown key (computed from the state: no type)"))
    for f in enc.features:
        size = f.size(game) if callable(f.size) else int(f.size)
        add(f.name, size, f.what or "the game's own feature", _feature_writer(game, f, size))
    return _Plan(sum(sizes), tuple(names), tuple(sizes), tuple(whats), tuple(writers),
                 tuple(left_out))


def _feature_writer(game: Game, f: Feature, size: int) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        start = out.written
        f.write(game, view, out)
        if out.written - start != size:
            raise RuntimeError(f"feature {f.name!r} wrote {out.written - start} numbers, "
                               f"declared {size}")
    return write


class _Kind:
    """A piece kind's columns: ``index`` (the name or id a view shows -> column), ``width``,
    ``weight`` per column (1, or 1 / copies of a name), ``total`` pieces, ``copies``."""

    __slots__ = ("name", "index", "width", "weight", "total", "copies")

    def __init__(self, game: Game, cls: type[ComponentState], name: str,
                 ids: Sequence[Any]) -> None:
        pieces = cls.PIECES[name]
        self.name = name
        self.total = len(ids)
        self.copies = pieces.copies
        if pieces.names is None:
            self.index = {pid: i for i, pid in enumerate(ids)}
            self.weight = None
        else:
            named = piece_names(game, name, pieces)
            if pieces.copies:
                index: dict[Any, int] = {}
                counts: list[int] = []
                for pid in ids:
                    col = index.setdefault(named[pid], len(index))
                    if col == len(counts):
                        counts.append(0)
                    counts[col] += 1
                self.index = index
                self.weight = [1.0 / k for k in counts]
            else:
                self.index = {named[pid]: i for i, pid in enumerate(ids)}
                self.weight = None
        self.width = len(self.index)


def _reader(key: str) -> Callable[[Mapping[str, Any]], Any]:
    """``view -> view[key]`` for a view key (one dot at most), None when absent."""
    head, dot, rest = key.partition(".")
    if not dot:
        return lambda view: view.get(key)
    return lambda view: (view.get(head) or {}).get(rest)


def _zone_blocks(c: Zone | Mark, kind: _Kind, n: int, tops: bool,
                 add: Callable[[str, int, str, BlockWriter], None]) -> bool:
    """Add the blocks of zone (or mark) ``c``; False if it has none (nothing in the view)."""
    width, index, weight, total = kind.width, kind.index, kind.weight, kind.total
    shown_key = c.show if c.show is not None else c.show_sorted
    visibility = c.visibility
    slot = getattr(c, "slot", False)
    per_seat = getattr(c, "per_seat", False)
    what = (f"count of each {kind.name} name / its copies" if weight is not None
            else f"multi-hot over the {width} {kind.name} ids")
    added: list[str] = []

    def add_(name: str, size: int, words: str, writer: BlockWriter) -> None:
        added.append(name)
        add(name, size, words, writer)

    if shown_key is not None and visibility is not COUNT:
        read = _reader(shown_key)
        if slot:
            add_(c.name, n * width, f"per seat (viewer first): one-hot of its {kind.name} "
                 f"over the {width} ids", _slot_writer(read, index, width))
        elif per_seat and visibility is OWNER:
            add_(c.name, width, f"the viewer's own: {what}",
                 _pieces_writer(read, index, width, weight))
        elif per_seat:
            whose = "per seat (viewer first)" if visibility is PUBLIC else \
                "per other seat (viewer first, its own row 0)"
            add_(c.name, n * width, f"{whose}: {what}",
                 _rows_writer(read, index, width, weight))
        else:
            shown = "" if visibility is PUBLIC else \
                " (0 where the viewer may not see them)"
            add_(c.name, width, what + shown, _pieces_writer(read, index, width, weight))
            if tops and c.show is not None and isinstance(c, Zone):
                add_(f"{c.name}.top", width, f"one-hot of its top (last) {kind.name}",
                     _top_writer(read, index, width))
    when = getattr(c, "when", None)
    hidden = visibility is not PUBLIC or when is not None
    sizes = getattr(c, "sizes", None)
    if hidden and (c.count is not None or sizes is not None) and not slot:
        read = _reader(c.count) if c.count is not None else sizes
        if per_seat:
            add_(f"{c.name}.count", n, f"per seat (viewer first): how many / {total}",
                 _seat_counts_writer(read, total))
        else:
            add_(f"{c.name}.count", 1, f"how many / {total}", _count_writer(read, total))
    return bool(added)


def _pieces_writer(read: Callable[[Any], Any], index: Mapping[Any, int], width: int,
                   weight: Sequence[float] | None) -> BlockWriter:
    if weight is None:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            b = out.block(width)
            got = read(view)
            if got:
                for x in got:
                    b[index[x]] = 1.0
    else:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            b = out.block(width)
            got = read(view)
            if got:
                for x in got:
                    i = index[x]
                    b[i] += weight[i]
    return write


def _rows_writer(read: Callable[[Any], Any], index: Mapping[Any, int], width: int,
                 weight: Sequence[float] | None) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        b = out.block(n * width)
        got = read(view)
        if not got:
            return
        for s, pieces in enumerate(got):
            if not pieces:
                continue
            base = ((s - me) % n) * width
            for x in pieces:
                i = index[x]
                b[base + i] += 1.0 if weight is None else weight[i]
    return write


def _slot_writer(read: Callable[[Any], Any], index: Mapping[Any, int],
                 width: int) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        b = out.block(n * width)
        got = read(view)
        if got:
            for s, x in enumerate(got):
                if x is not None:
                    b[((s - me) % n) * width + index[x]] = 1.0
    return write


def _top_writer(read: Callable[[Any], Any], index: Mapping[Any, int],
                width: int) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        b = out.block(width)
        got = read(view)
        if got:
            b[index[got[-1]]] = 1.0
    return write


def _count_writer(read: Callable[[Any], Any], total: int) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        k = read(view)
        out.value(0.0 if k is None else k / total)
    return write


def _seat_counts_writer(read: Callable[[Any], Any], total: int) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        got = read(view)
        out.per_seat(got if got is not None else [None] * n, me, n, total)
    return write


# ---------------------------------------------------------------------- values
def _unwrap(annotation: Any) -> tuple[Any, bool, list[Any]]:
    """``annotation`` without ``Annotated`` and ``| None``: (the type, whether None is
    allowed, the metadata found on the way)."""
    meta: list[Any] = []
    optional = False
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            args = get_args(annotation)
            for m in args[1:]:
                meta.extend(getattr(m, "metadata", None) or [m])
            annotation = args[0]
        elif origin in (Union, types.UnionType):
            rest = [a for a in get_args(annotation) if a is not type(None)]
            if len(rest) != 1:
                return annotation, optional, meta
            optional = True
            annotation = rest[0]
        else:
            return annotation, optional, meta


def _type_bounds(meta: Sequence[Any]) -> tuple[float, float] | None:
    low = high = None
    for m in meta:
        for name in ("ge", "gt"):
            if getattr(m, name, None) is not None:
                low = getattr(m, name)
        for name in ("le", "lt"):
            if getattr(m, name, None) is not None:
                high = getattr(m, name)
    return None if low is None or high is None else (float(low), float(high))


def _value_block(c: Value, game: Game, n: int,
                 add: Callable[[str, int, str, BlockWriter], None]) -> str | None:
    """Add value ``c``'s block; the reason it is left out if it has none."""
    if c.view is None:
        return "in no view"
    read = _reader(c.view or c.name)
    base, _, meta = _unwrap(c.type)
    rows = n if c.per_seat else 1
    per = "per seat (viewer first): " if c.per_seat else ""
    if c.seat and not c.per_seat:
        add(c.name, n, "one-hot of the seat, relative to the viewer", _seat_writer(read))
    elif base is bool:
        add(c.name, rows, per + "0 or 1", _numbers_writer(read, 0.0, 1.0, c.per_seat))
    elif get_origin(base) is Literal:
        choices = tuple(a for a in get_args(base) if a is not None)
        add(c.name, rows * len(choices), per + f"one-hot over {', '.join(map(str, choices))}",
            _choice_writer(read, {v: i for i, v in enumerate(choices)}, c.per_seat))
    elif c.bounds is not None or (base in (int, float) and c.show is None):
        bounds = c.bounds(game) if c.bounds is not None else _type_bounds(meta)
        if bounds is None:
            return "a number without both bounds (Value.bounds)"
        low, high = float(bounds[0]), float(bounds[1])
        add(c.name, rows, per + f"(x - {low:g}) / {high - low:g}, clipped to 0..1",
            _numbers_writer(read, low, high, c.per_seat))
    elif base in (int, float):
        return "a number shown transformed (Value.show) without Value.bounds"
    else:
        return "not a seat, bool, choice or bounded number (a game feature block)"
    return None


def _seat_writer(read: Callable[[Any], Any]) -> BlockWriter:
    def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
        out.seat_hot(read(view), me, n)
    return write


def _numbers_writer(read: Callable[[Any], Any], low: float, high: float,
                    per_seat: bool) -> BlockWriter:
    span = high - low

    def scaled(x: Any) -> float:
        if x is None or span <= 0:
            return 0.0
        return min(max((x - low) / span, 0.0), 1.0)

    if per_seat:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            b = out.block(n)
            for s, x in enumerate(read(view) or ()):
                b[(s - me) % n] = scaled(x)
    else:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            out.value(scaled(read(view)))
    return write


def _choice_writer(read: Callable[[Any], Any], index: Mapping[Any, int],
                   per_seat: bool) -> BlockWriter:
    width = len(index)
    if per_seat:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            b = out.block(n * width)
            for s, x in enumerate(read(view) or ()):
                if x is not None:
                    b[((s - me) % n) * width + index[x]] = 1.0
    else:
        def write(view: Mapping[str, Any], me: int, n: int, out: TensorWriter) -> None:
            b = out.block(width)
            x = read(view)
            if x is not None:
                b[index[x]] = 1.0
    return write
