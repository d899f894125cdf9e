"""Components with visibility: a game declares what its state is made of, and the engine derives
from that one declaration what every design needs (docs/engine.md, "Components").

A state class lists its **components** in ``COMPONENTS`` and its **pieces** in ``PIECES``:

* a :class:`Zone` holds pieces in a list (the top of a pile is its end), shared or one per
  seat, with a :class:`Visibility`: ``PUBLIC`` (everyone sees the pieces), ``OWNER`` (its owner
  does; everyone sees how many), ``OTHERS`` (everyone but its owner does, as Hanabi's hands),
  ``COUNT`` (nobody does; everyone sees how many: a deck). A shared zone may have an owner (an
  Oracle's pool belongs to the seat whose turn it is);
* a :class:`Mark` names some pieces that are in zones (the codices drawn this turn), with the
  same visibilities: per-seat knowledge that play creates;
* a :class:`Value` is anything else the rules keep: a counter, a track, a phase, a seat, a log;
* a :class:`Shown` is a view key computed from the rest (``turns_total``).

From the declaration alone (:class:`Components`, compiled once per state class) the engine
derives: the state's copy, its JSON data and the state rebuilt from it, its validation (shape
and types, one entry per seat, seats in range, every piece in exactly one zone, known ids;
``StateError`` at the JSON path), ``view(seat)`` and the spectator's view, a determinization
that copies what the view shows and deals the pieces it hides (one shuffle of the unseen pieces
of each kind, dealt to the hidden zones in declaration order, sized by their counts; by class
where the hidden places have quotas: :func:`meeple.engine.dealing.dealer`; the pieces of an
``ORDER_HIDDEN`` zone, whose contents are public, reshuffled), and a scenario builder (named
pieces into named zones, values set, the next draws on top of the draw pile). A game adds only
what the declaration cannot say, through small hooks on its state class
(:class:`ComponentState`): invariants across fields, how a hidden mark is rebuilt after a deal,
a scenario's defaults.

The code is split by what it does: the declarations (:mod:`meeple.engine.declarations`, all
importable from here), the compiled copy and views (:mod:`meeple.engine.compiled`), the
determinization (:mod:`meeple.engine.dealing`) and the scenario builder
(:mod:`meeple.engine.scenario_builder`); this module holds :class:`ComponentState` and
:class:`Components`, which ties them together per state class.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, create_model

from meeple.engine import dealing, scenario_builder
from meeple.engine.compiled import (
    compile_copy,
    compile_view,
)
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
    event_log,
    ids_in,
    piece_names,
    piles_in,
    recorded_winners,
)
from meeple.engine.errors import ParameterError
from meeple.engine.persist import copied, jsonable
from meeple.engine.rng import shuffle
from meeple.engine.state import State
from meeple.engine.validation import (
    check_count,
    check_len,
    check_model,
    check_pieces,
    check_that,
    json_path,
)

if TYPE_CHECKING:
    from meeple.engine.game import Game

#: The declarations, importable from here as before (:mod:`meeple.engine.declarations`).
__all__ = [
    "ComponentState",
    "Components",
    "COUNT",
    "ORDER_HIDDEN",
    "OTHERS",
    "OWNER",
    "PUBLIC",
    "Component",
    "Mark",
    "Pieces",
    "Shown",
    "Value",
    "Visibility",
    "Zone",
    "event_log",
    "piece_names",
    "recorded_winners",
]


class ComponentState(State):
    """A state made of declared components: copy, JSON data, views and the rest derive from
    ``COMPONENTS`` (:class:`Components`). A subclass sets ``COMPONENTS`` and ``PIECES``
    (kind -> :class:`Pieces`) and may override the hooks below."""

    COMPONENTS: ClassVar[tuple[Component, ...]] = ()
    PIECES: ClassVar[Mapping[str, Pieces]] = {}
    __slots__ = ()

    @classmethod
    def components(cls) -> Components:
        """The compiled declaration of this class (made once)."""
        compiled = cls.__dict__.get("_compiled")
        if compiled is None:
            compiled = Components(cls)
            cls._compiled = compiled  # type: ignore[attr-defined]
        return compiled

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's ``_view`` and ``_copy`` (unless it writes its own) become, at their
        first call, the functions compiled for its components (:func:`compile_view`,
        :func:`compile_copy`): a search calls them at every step, so they are called with no
        look-up of the compiled declaration on the way."""
        super().__init_subclass__(**kwargs)
        for name in ("_view", "_copy"):
            if name not in cls.__dict__ and getattr(getattr(cls, name), "derived", False):
                setattr(cls, name, _compiled_at_first_call(cls, name))

    # ------------------------------------------------------------------ derived protocol
    def _copy(self) -> State:
        return self.components().copy(self)

    _copy.derived = True  # type: ignore[attr-defined]

    def _data(self) -> dict[str, Any]:
        return self.components().data(self)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.components().view(self, seat)

    _view.derived = True  # type: ignore[attr-defined]

    def _shuffle_unseen(self) -> None:
        """Shuffle the draw piles (``Zone.draw_pile``): future chance nobody has seen."""
        for zone in self.components().draw_piles:
            shuffle(self.rng, getattr(self, zone.name))

    # ------------------------------------------------------------------ the game's hooks
    def _refresh_acting(self) -> None:
        """Set ``_acting`` from the fields (after a restore, a deal or a scenario). Every
        state class on the model writes it: whose turn it is is a rule of the game.

        Raises:
            NotImplementedError: a state class that does not.
        """
        raise NotImplementedError(f"{type(self).__name__} must set _acting from its fields "
                                  "(ComponentState._refresh_acting)")

    def after_restore(self) -> None:
        """Set what is not saved (caches) on a state rebuilt from data or a view: the default
        sets ``_acting`` (:meth:`_refresh_acting`)."""
        self._refresh_acting()

    def rebuild_mark(self, mark: Mark, view: Mapping[str, Any]) -> list[Any]:
        """A mark the viewer may not see, rebuilt after the deal from what was dealt and the
        view (its size is public: ``view``'s count key). Default: none of it."""
        return []

    def after_deal(self, view: Mapping[str, Any]) -> None:
        """A determinization's last touch (a search's caches); default: nothing."""

    @classmethod
    def check_invariants(cls, game: Game, data: Any, base: str) -> None:
        """Invariants across fields that the declaration cannot state, on validated data
        (``data``: the pydantic model of the JSON data; ``base``: its JSON path). Raise
        ``StateError`` at the path of the first problem. Default: none."""

    @classmethod
    def scenario_keys(cls) -> Mapping[str, str]:
        """Scenario description words the game reads itself (:meth:`scenario_setup`), with
        what each means (for the error listing the words). A word that names a component
        (or ``next_draws``) is then the game's to read, not placed by the model. Default:
        none."""
        return {}

    def scenario_setup(self, described: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """A scenario's defaults after the named pieces and values are placed: ``described``
        holds the components the description named, ``extra`` the game's own words
        (:meth:`scenario_keys`). Default: nothing."""


def _compiled_at_first_call(cls: type[ComponentState], name: str) -> Callable[..., Any]:
    """``cls``'s method ``name`` (``_view`` or ``_copy``) until its first call, which puts
    the function compiled for ``cls``'s components in its place."""

    def first_call(self: Any, *args: Any) -> Any:
        compiled = cls.components()
        function = compiled.view_function() if name == "_view" else compiled.copy_function()
        function.derived = True  # type: ignore[union-attr]
        setattr(cls, name, function)
        return function(self, *args)

    first_call.derived = True  # type: ignore[attr-defined]
    return first_call




class Components:
    """The compiled declaration of a :class:`ComponentState` subclass: the derived copy, data,
    restore, validation, views, determinizer and scenario builder."""

    def __init__(self, cls: type[ComponentState]) -> None:
        self.cls = cls
        self.declared = tuple(cls.COMPONENTS)
        names = [c.name for c in self.declared if not isinstance(c, Shown)]
        if len(set(names)) != len(names):
            raise TypeError(f"{cls.__name__}: a component name is declared twice")
        self.fields = tuple(c for c in self.declared if not isinstance(c, Shown))
        self.zones = tuple(c for c in self.declared if isinstance(c, Zone))
        self.marks = tuple(c for c in self.declared if isinstance(c, Mark))
        self.values = tuple(c for c in self.declared if isinstance(c, Value))
        self.draw_piles = tuple(z for z in self.zones if z.draw_pile)
        for c in (*self.zones, *self.marks):
            if c.pieces not in cls.PIECES:
                raise TypeError(f"{cls.__name__}.{c.name}: unknown piece kind {c.pieces!r}")
        for z in self.zones:
            if z.slot and not (z.per_seat and z.visibility is PUBLIC):
                raise TypeError(f"{cls.__name__}.{z.name}: a slot is a public per-seat zone")
            if z.visibility is ORDER_HIDDEN and z.show is not None:
                raise TypeError(f"{cls.__name__}.{z.name}: an order-hidden zone is shown "
                                "sorted only (show_sorted)")
        names = {c.name for c in self.fields}
        #: The class's own slots that are no component (caches): shared by a copy, None in
        #: a restored or drawn state until its hook sets them.
        self.extra = tuple(n for n in cls.__dict__.get("__slots__", ()) if n not in names)
        self._model: type[BaseModel] | None = None

    # ------------------------------------------------------------------ copy and data
    def copy(self, state: Any) -> Any:
        """A copy sharing no mutable part with ``state`` (but ``Value.shared`` ones): the
        function :func:`compile_copy` wrote for this class (made on first use; a search
        copies states at every iteration)."""
        return self.copy_function()(state)

    def copy_function(self) -> Callable[[Any], Any]:
        """The function ``copy(state)`` :func:`compile_copy` wrote for this class."""
        compiled = self.__dict__.get("_copy")
        if compiled is None:
            compiled = self.__dict__["_copy"] = compile_copy(self.fields, self.extra)
        return compiled  # type: ignore[no-any-return]

    def data(self, state: Any) -> dict[str, Any]:
        """The fields as JSON data (``State.to_json``'s ``data``)."""
        out = {}
        for c in self.fields:
            value = getattr(state, c.name)
            if c.sparse and value == c.default():  # type: ignore[misc]
                continue
            if isinstance(c, Value) and c.to_data is not None:
                value = c.to_data(value)
            out[c.data_key] = jsonable(value)
        return out

    def restore(self, game: Game, data: Mapping[str, Any]) -> Any:
        """A state of ``game`` from validated JSON data (``Game._state_from_data``).

        Raises:
            ParameterError: a missing or malformed field.
        """
        state = object.__new__(self.cls)
        State.__init__(state, game, 0)
        for c in self.fields:
            try:
                key = c.data_key
                value = data[key] if key in data or c.default is None else c.default()
                if isinstance(c, Value) and c.from_data is not None:
                    value = c.from_data(value)
                elif isinstance(c, Value) and c.copy is not None:
                    value = c.copy(value)
                else:
                    value = copied(value)
            except (KeyError, TypeError, ValueError) as exc:
                raise ParameterError(f"malformed {game.name} state: field {c.name!r}: "
                                     f"{exc!r}") from None
            setattr(state, c.name, value)
        for name in self.extra:
            setattr(state, name, None)
        state.after_restore()
        return state

    # ------------------------------------------------------------------ validation
    def model(self) -> type[BaseModel]:
        """The pydantic model of the JSON data (strict: ``1`` is not ``"1"``; no unknown
        key), built from the declaration once."""
        if self._model is None:
            specs: dict[str, Any] = {}
            for c in self.fields:
                if isinstance(c, (Zone, Mark)):
                    id_type = self.cls.PIECES[c.pieces].type
                    if getattr(c, "slot", False):
                        kind: Any = list[id_type | None]  # type: ignore[operator]
                    else:
                        kind = list[list[id_type]] if getattr(c, "per_seat", False) \
                            else list[id_type]  # type: ignore[valid-type]
                else:
                    kind = list[c.type] if c.per_seat else c.type  # type: ignore[name-defined]
                specs[c.data_key] = (kind, ... if c.default is None else c.default())
            self._model = create_model(  # type: ignore[call-overload]
                f"{self.cls.__name__}Data",
                __config__=ConfigDict(strict=True, extra="forbid"), **specs)
        return self._model

    def validate(self, game: Game, data: Mapping[str, Any]) -> None:
        """Check JSON data before it is restored (``Game._validate_data``): shape and types,
        one entry per seat, seats in range, every piece of each kind in exactly one of its
        zones and every id known, then the state class's :meth:`~ComponentState.
        check_invariants`.

        Raises:
            StateError: at the JSON path of the first problem.
        """
        base = "$.data"
        model = check_model(self.model(), dict(data), base)
        n = game.players
        for c in self.fields:
            if getattr(c, "per_seat", False):
                check_len(getattr(model, c.data_key), n, json_path(base, c.data_key),
                          "one per seat")
        for c in self.values:
            if c.seat:
                check_count(getattr(model, c.data_key), 0, n - 1, json_path(base, c.data_key),
                            "a seat")
        for kind, pieces in self.cls.PIECES.items():
            known = frozenset(pieces.ids(game))
            places: list[tuple[str, Sequence[Any]]] = []
            for zone in self.fields:  # zones and holding values, in declaration order
                if getattr(zone, "pieces", None) != kind or isinstance(zone, Mark):
                    continue
                value = getattr(model, zone.data_key)
                if isinstance(zone, Value):
                    if zone.holds is True:
                        places += piles_in(value, json_path(base, zone.data_key))
                elif zone.slot:
                    places.append((json_path(base, zone.data_key),
                                   [v for v in value if v is not None]))
                elif zone.per_seat:
                    places += [(json_path(base, zone.data_key, s), v)
                               for s, v in enumerate(value)]
                else:
                    places.append((json_path(base, zone.data_key), value))
            for v in self.values:  # values holding pieces in a shape of their own: after
                if v.pieces == kind and callable(v.holds):
                    places.append((json_path(base, v.data_key),
                                   list(v.holds(game, getattr(model, v.data_key)))))
            check_pieces(places, known, kind, all_placed=pieces.all_placed, where=base)
            for c in (*self.marks, *(v for v in self.values if v.pieces == kind
                                     and not v.holds)):
                if getattr(c, "pieces", None) != kind:
                    continue
                for path, pid in ids_in(getattr(model, c.data_key),
                                         json_path(base, c.data_key)):
                    check_that(pid is None or pid in known, path, f"unknown {kind} {pid!r}")
        self.cls.check_invariants(game, model, base)

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """``State._view(seat)``: every component's view keys, as its visibility allows
        (the function :func:`compile_view` wrote for this class, made on first use)."""
        return self.view_function()(state, seat)  # type: ignore[no-any-return]

    def view_function(self) -> Callable[[Any, int | None], dict[str, Any]]:
        """The function ``view(state, seat)`` :func:`compile_view` wrote for this class."""
        compiled = self.__dict__.get("_view")
        if compiled is None:
            compiled = self.__dict__["_view"] = compile_view(self.declared, self.cls.PIECES)
        return compiled  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ determinization
    def piece_ids(self, game: Game, kind: str) -> tuple[Hashable, ...]:
        """Every piece of ``kind`` in ``game`` (``Pieces.ids``), kept on the spec."""
        key = ("components-pieces", kind)
        ids = game._cache.get(key)
        if ids is None:
            ids = game._cache[key] = tuple(self.cls.PIECES[kind].ids(game))
        return ids  # type: ignore[no-any-return]

    def taker(self, game: Game, kind: str) -> Callable[[Any], Any]:
        """``take(name)``: the next id of that name (``Pieces.names`` of a kind with
        ``copies``) not taken yet, in ``ids`` order; a new taker for each determinizer.

        Raises:
            ParameterError: (at a take) more pieces of that name than the game has.
        """
        key = ("components-by-name", kind)
        by_name = game._cache.get(key)
        if by_name is None:
            names = piece_names(game, kind, self.cls.PIECES[kind])
            grouped: dict[Any, list[Any]] = {}
            for pid in self.piece_ids(game, kind):
                grouped.setdefault(names[pid], []).append(pid)
            by_name = game._cache[key] = {k: tuple(v) for k, v in grouped.items()}
        used: dict[Any, int] = {}

        def take(name: Any) -> Any:
            k = used.get(name, 0)
            ids = by_name.get(name, ())
            if k >= len(ids):
                raise ParameterError(f"the view shows more {kind} pieces {name!r} than the "
                                     "game has")
            used[name] = k + 1
            return ids[k]

        return take

    def class_of(self, game: Game, kind: str) -> Any:
        """``Pieces.classes(game)`` of ``kind`` (id -> class), kept on the spec."""
        key = ("components-classes", kind)
        found = game._cache.get(key)
        if found is None:
            found = game._cache[key] = self.cls.PIECES[kind].classes(game)  # type: ignore[misc]
        return found

    def names_back(self, game: Game, kind: str) -> Mapping[Any, Hashable] | None:
        """How views name the pieces of ``kind`` (``Pieces.names``), reversed: name -> id,
        kept on the spec; None if views show the ids."""
        names = self.cls.PIECES[kind].names
        if names is None or self.cls.PIECES[kind].copies:  # copies: taken by name instead
            return None
        key = ("components-names-back", kind)
        back = game._cache.get(key)
        if back is None:
            back = game._cache[key] = {v: k for k, v in names(game).items()}
        return back  # type: ignore[no-any-return]

    def determinizer(self, game: Game,
                     view: Mapping[str, Any]) -> Callable[[random.Random], Any]:
        """``draw(rng)``: a state consistent with ``view`` (one seat's): what it shows copied,
        the pieces it hides dealt (:func:`meeple.engine.dealing.determinizer`).

        Raises:
            ParameterError: the view's counts do not add up to the unseen pieces, or its
                quotas cannot be met.
        """
        return dealing.determinizer(self, game, view)

    # ------------------------------------------------------------------ scenarios
    def scenario(self, game: Game, seed: int = 0, **description: Any) -> Any:
        """A position from a short description, checked like a loaded state
        (:func:`meeple.engine.scenario_builder.build_scenario`).

        Raises:
            ParameterError: an unknown word, an unknown or repeated piece, a piece that
                cannot be drawn next, a seat out of range, or a broken invariant.
        """
        return scenario_builder.build_scenario(self, game, seed, **description)
