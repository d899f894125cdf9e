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
where the hidden places have quotas: :func:`_dealer`; the pieces of an ``ORDER_HIDDEN`` zone,
whose contents are public, reshuffled), and a
scenario builder (named pieces into named zones, values set, the next draws on top of the draw
pile). A game adds only what the declaration cannot say, through small hooks on its state class
(:class:`ComponentState`): invariants across fields, how a hidden mark is rebuilt after a deal,
a scenario's defaults.
"""

from __future__ import annotations

import enum
import random
import types
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, create_model

from meeple.engine.errors import ParameterError
from meeple.engine.persist import copied, jsonable
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values, stack_on_top, validated
from meeple.engine.state import State
from meeple.engine.validation import (
    NonNegInt,
    check_count,
    check_len,
    check_model,
    check_pieces,
    check_that,
    json_path,
)

if TYPE_CHECKING:
    from meeple.engine.game import Game


class Visibility(enum.Enum):
    """Who sees the pieces of a zone or a mark (everyone sees how many, but with ``HIDDEN``)."""

    #: Everyone sees the pieces, in order.
    PUBLIC = "public"
    #: The owner sees the pieces; the others see how many.
    OWNER = "owner"
    #: Everyone but the owner sees the pieces; the owner sees how many (Hanabi's hands).
    OTHERS = "others"
    #: Nobody sees the pieces; everyone sees how many (a deck, a face-down pile).
    COUNT = "count"
    #: Everyone sees which pieces, nobody their order (a pile shuffled in front of everyone:
    #: a deck whose contents are public). Shown sorted only (``show_sorted``); a
    #: determinization reshuffles the zone's own pieces.
    ORDER_HIDDEN = "order_hidden"


PUBLIC, OWNER, OTHERS, COUNT, ORDER_HIDDEN = (
    Visibility.PUBLIC, Visibility.OWNER, Visibility.OTHERS, Visibility.COUNT,
    Visibility.ORDER_HIDDEN)


def _default_key() -> str:
    return ""


@dataclass(frozen=True, slots=True)
class Pieces:
    """A kind of piece: ``ids(game)``, every piece of the kind in a game instance in a fixed
    order (the deck manifest's), and ``type``, the Python type of an id in the JSON data.

    Optional: ``names(game)``, a mapping (or a sequence indexed by id) id -> how views show
    the piece (int ranks shown as ``"W17"``; default: the id itself; a sorted view key sorts
    the ids, then names them); with ``copies``, several pieces share a name and are
    **interchangeable copies** (the campaign's ``G5``): a sorted view key sorts the names, and
    a determinization gives each name the view shows the next id of that name not given yet,
    in ``ids`` order, the pieces everyone sees first (``PUBLIC`` and ``ORDER_HIDDEN`` zones
    and values, in declaration order), then
    those only the viewer sees (a :class:`Value` reads names with ``takes``);
    ``parse(game, word, what)``, a piece's id from a word naming it in a scenario description
    (``"W17"`` -> 17; ``what``: where it was named, for the error; default: the word is the
    id), or, for a word naming any of several interchangeable copies (``"G4"``), the tuple of
    their ids: the scenario builder gives the first not named yet (the description's words
    read in the components' declaration order; ``ParameterError`` when every copy is named
    already); and ``all_placed``: the validation requires every piece in some place (False: a saved
    state may leave a piece out, and only repeats and unknown ids are refused).

    ``classes(game)``, a mapping (or a sequence indexed by id) id -> the piece's class, a
    hashable label (a card's kind, whether it is a starter copy): where a hidden place may
    only hold pieces of some classes, a :class:`Zone`'s ``quota`` or a :class:`Value`'s
    ``deal`` says how many of which (default: one class, every hidden place takes any
    piece)."""

    ids: Callable[[Any], Sequence[Hashable]]
    type: type = str
    names: Callable[[Any], Any] | None = None
    parse: Callable[[Any, Any, str], Hashable] | None = None
    copies: bool = False
    all_placed: bool = True
    classes: Callable[[Any], Any] | None = None


@dataclass(frozen=True, slots=True)
class Component:
    """What every component has: the state attribute (and JSON data key) ``name``, and
    ``default``, the value a saved state made before the component existed loads with (None:
    required). View keys may be dotted (``"turn.keep_size"``): the key ``keep_size`` of the
    view's dict ``turn``. ``key``: its JSON data key when it is not ``name`` (a field
    ``winners_`` saved as ``"winners"``: the attribute may not shadow a method)."""

    name: str
    _: KW_ONLY
    default: Callable[[], Any] | None = None
    key: str | None = None
    #: Left out of the JSON data while it equals ``default()`` (a field added later, so that
    #: the data of states that never use it stays as it was).
    sparse: bool = False

    @property
    def data_key(self) -> str:
        """The component's key in the JSON data (and the validation's paths)."""
        return self.key or self.name


@dataclass(frozen=True, slots=True, kw_only=True)
class Zone(Component):
    """Pieces of kind ``pieces`` in a list (one list per seat with ``per_seat``).

    Attributes:
        pieces: the kind, a key of the state class's ``PIECES``.
        per_seat: one list per seat, the seat its owner.
        visibility: who sees the pieces (:class:`Visibility`).
        owner: the owner of a shared zone, from the state (None: nobody, or per seat).
        show: the view key of the pieces as held (their order). For an ``OWNER`` per-seat
            zone, the viewer's own list; for a ``PUBLIC`` per-seat zone, every seat's.
        show_sorted: the view key of the pieces sorted (an order the viewer is not told).
        count: the view key of how many (a list per seat for a per-seat zone).
        when: the pieces are shown (to whoever may see them) only when this holds.
        draw_pile: the pile a scenario's ``next_draws`` are stacked on; a ``reseed`` shuffles
            it (``State._shuffle_unseen``).
        count_when: ``when`` hides the count too (absent from the view; a determinization
            then deals the zone nothing).
        slot: a per-seat ``PUBLIC`` zone holding at most one piece per seat, kept as the
            piece or None rather than a list (the card each seat revealed this round).
        sizes: how many, read from a view (``sizes(view)``: an int, or a list per seat) where
            no ``count`` key holds it (a count inside a per-seat record of the view).
        contents: the pieces, read from a view (``contents(view)``: a list of pieces as the
            view names them, or a list of them per seat; None, or None for a seat, where the
            view does not show them) where no ``show`` key holds them (pieces inside
            per-seat records, or in a :class:`Shown` key).
        quota: a determinization's hidden places of the zone may hold only pieces of some
            classes (``Pieces.classes``): ``quota(view)`` gives, for a shared zone, a
            sequence of ``(classes, count)`` entries, ``count`` pieces drawn from the unseen
            pieces of ``classes`` (a collection of labels), or None for every unseen piece of
            those classes no counted entry of any place takes (what is left over); a per-seat
            zone gives one such sequence per seat. The place holds its entries' pieces in
            entry order. See :meth:`Components.determinizer` for the deal.
        notes: the view key of what is known of each piece as held, for the generic web
            board to write on the card, face up or down (Hanabi's hints): for a per-seat zone
            a list per seat, else one list, of one short text (or None) per position in the
            zone's order. The rules keep that knowledge in a :class:`Value` (or a
            :class:`Shown` computes it); the key only tells the board where it is.
    """

    pieces: str
    per_seat: bool = False
    visibility: Visibility = PUBLIC
    owner: Callable[[Any], int | None] | None = None
    show: str | None = None
    show_sorted: str | None = None
    count: str | None = None
    when: Callable[[Any], bool] | None = None
    draw_pile: bool = False
    count_when: bool = False
    slot: bool = False
    sizes: Callable[[Mapping[str, Any]], Any] | None = None
    contents: Callable[[Mapping[str, Any]], Any] | None = None
    quota: Callable[[Mapping[str, Any]], Any] | None = None
    notes: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark(Component):
    """Some pieces of kind ``pieces`` that are in zones, named for a rule (the codices drawn
    this turn): per-seat knowledge created by play. Visibility and view keys as a shared
    :class:`Zone`'s; where the viewer may not see it, the state class's
    :meth:`ComponentState.rebuild_mark` rebuilds it after the deal."""

    pieces: str
    visibility: Visibility = PUBLIC
    owner: Callable[[Any], int | None] | None = None
    show: str | None = None
    show_sorted: str | None = None
    count: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Value(Component):
    """Any other rules field: a counter, a track, a flag, a phase, a seat, a log.

    Attributes:
        type: its JSON data's type, as a pydantic annotation (``int``, ``Literal[...]``,
            ``Annotated[int, Field(ge=1, le=2)]``, ``list[int]``...).
        per_seat: a list with one entry per seat.
        seat: a seat number (0..players-1).
        pieces: the kind of the piece ids inside it, all of which must be known.
        view: its view key (default: ``name``); None: in no view (rebuilt from the others
            by ``restore`` in a determinization).
        show: its view value from the state (default: a JSON copy of the field).
        restore: the field's value from a view and the state rebuilt so far (components are
            restored in declaration order; default: the view value).
        to_data, from_data: the field's JSON data from its value and back (default: a JSON
            copy, and the data as it is).
        describe: the field's value from a scenario description's (default: as given; a
            per-seat value as a list or ``{seat: value}``).
        shared: the value is never changed in place (tuples): copies and draws share it.
        holds: the pieces inside it (of kind ``pieces``) are in play there, as in a zone's
            list: the validation counts them in "every piece in exactly one place", and a
            determinization counts them as seen. ``True`` for pieces kept in a shape no
            :class:`Zone` has: a dict of piles (``{kind: [...]}``), a list of piles of any
            length (one per location), a slot (one id or None), a list of slots; or a
            function ``holds(game, value)`` giving the ids the value holds (a board built of
            tiles, a row of cards with counters on them), ``value`` the validated data or the
            restored value.
        takes: a kind with ``Pieces.copies``: ``restore`` is called as ``restore(view,
            state, take)``, ``take(name)`` giving the id of a named copy (as a zone's); and
            ``describe`` (if given) as ``describe(given, take)``, ``given`` the description's
            value (a per-seat value as a list, None for a seat not given) and
            ``take(word, what)`` the id of a piece word (``Pieces.parse``,
            each piece named once across the description): the pieces the described value
            holds (``holds``) leave the zones where the deal put them, as a zone's do.
        copy: how a state's copy, a restore (from data not its own) and, without
            ``draw_copy``, a determinization's draws copy the value (default: lists, dicts
            and sets copied two levels deep, ``persist.copied``); ``list.copy`` for a list of
            scalars or tuples (per-seat counters, a log of tuples) is cheaper, a deeper copy
            for lists and dicts nested deeper.
        draw_copy: how each draw of a determinization copies the value read from the view
            (default: the cheapest copy sharing nothing mutable); ``dict.copy`` shares the
            dict's values between draws, for values the rules replace but never change in
            place (copies of a state still copy them).
        deal: the value holds piles the view hides (a dict of shared decks, an event deck per
            location): ``deal(view)`` gives its hidden places as ``(key, quota)`` pairs, each
            pile ``value[key]`` of the restored value (``restore`` gives the rest) dealt as a
            zone's ``quota`` entries say (``(classes, count)`` entries).
        bounds: ``bounds(game) -> (low, high)``, the range of a number (or of each entry of
            a per-seat one) for a derived observation tensor (``meeple.engine.encoding``;
            None: read from the type's ``ge``/``le`` where it states both, else left out).
    """

    type: Any = Any
    per_seat: bool = False
    seat: bool = False
    pieces: str | None = None
    view: str | None = field(default_factory=_default_key)
    show: Callable[[Any], Any] | None = None
    restore: Callable[[Mapping[str, Any], Any], Any] | None = None
    to_data: Callable[[Any], Any] | None = None
    from_data: Callable[[Any], Any] | None = None
    describe: Callable[[Any], Any] | None = None
    shared: bool = False
    holds: bool | Callable[[Any, Any], Any] = False
    takes: str | None = None
    copy: Callable[[Any], Any] | None = None
    draw_copy: Callable[[Any], Any] | None = None
    deal: Callable[[Mapping[str, Any]], Any] | None = None
    bounds: Callable[[Any], tuple[float, float]] | None = None


def event_log(shown: int = 12) -> Value:
    """The ``events`` value of a game that logs what happens as ``(time, seat, text)`` tuples
    (``State.event_lines`` prints them): the view shows the last ``shown`` entries as lists;
    a determinization restores them as tuples that every draw shares."""
    return Value("events", type=list[list[Any]],
                 show=lambda st: [list(e) for e in st.events[-shown:]],
                 restore=lambda view, st: [tuple(e) for e in view["events"]])


def recorded_winners(**options: Any) -> Value:
    """The ``winners_`` value of a state with :class:`~meeple.engine.winners.RecordedWinners`:
    None while the game goes on, then the tuple of winning seats; shown as ``winners``, saved
    as a list, shared by copies (a tuple; ``options``: more :class:`Value` fields, such as
    ``key``)."""
    options.setdefault("shared", True)
    return Value("winners_", type=list[NonNegInt] | None, view="winners",
                 from_data=lambda v: None if v is None else tuple(v),
                 restore=lambda view, st: None if view["winners"] is None
                 else tuple(view["winners"]), **options)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown(Component):
    """A view key (``name``, may be dotted) computed from the state, no field of its own:
    ``show(state, seat)``, in the view only when ``when(state, seat)`` holds (default:
    always)."""

    show: Callable[[Any, int | None], Any]
    when: Callable[[Any, int | None], bool] | None = None


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


def _copier(component: Component) -> Callable[[Any], Any]:
    if isinstance(component, Value) and component.shared:
        return lambda v: v
    if isinstance(component, Value) and component.copy is not None:
        return component.copy
    return copied


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
        self._extra = tuple(n for n in cls.__dict__.get("__slots__", ()) if n not in names)
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
            compiled = self.__dict__["_copy"] = compile_copy(self.fields, self._extra)
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
        for name in self._extra:
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
                        places += _piles_in(value, json_path(base, zone.data_key))
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
                for path, pid in _ids_in(getattr(model, c.data_key),
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

    def _taker(self, game: Game, kind: str) -> Callable[[Any], Any]:
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

    def _classes(self, game: Game, kind: str) -> Any:
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
        """``draw(rng)``: a state consistent with ``view`` (one seat's), before the engine's
        part (seed, pending choices): what the view shows copied, the pieces it hides dealt
        (see the module docstring; with ``Zone.quota`` / ``Value.deal``, by class:
        :func:`_dealer`), each ``ORDER_HIDDEN`` zone's own pieces reshuffled, hidden marks
        rebuilt (:meth:`ComponentState.rebuild_mark`). The view is read once here; a draw
        copies that template (each value by the cheapest copy its type needs) and deals.

        Raises:
            ParameterError: the view's counts do not add up to the unseen pieces, or its
                quotas cannot be met (a view that does not account for every piece).
        """
        cls = self.cls
        seat = view["seat"]
        n = game.players
        probe = object.__new__(cls)
        probe.game = game
        assigned: list[tuple[str, Any]] = []  # values never changed in place: shared
        copies: list[tuple[str, Callable[[Any], Any], Any]] = []
        deals: dict[str, list[Place]] = {k: [] for k in cls.PIECES}
        reshuffled: list[tuple[str, int | None]] = []  # order-hidden zones' own pieces
        known: dict[str, set[Any]] = {k: set() for k in cls.PIECES}
        later: list[Mark] = []
        takers = {k: self._taker(game, k) for k, p in cls.PIECES.items() if p.copies}
        private: list[tuple[str, list[Any]]] = []  # copies only the viewer sees: taken last
        for c in self.fields:
            if type(c) is Value:
                if c.takes is not None:
                    value = c.restore(view, probe, takers[c.takes])  # type: ignore[misc,call-arg]
                elif c.restore is not None:
                    value = c.restore(view, probe)
                elif c.view is None:
                    raise TypeError(f"{cls.__name__}.{c.name} is in no view: it needs restore")
                else:
                    value = copied(_get(view, c.view or c.name))
                setattr(probe, c.name, value)
                if c.deal is not None:
                    deals[c.pieces] += [  # type: ignore[index]
                        (c.name, key, None, tuple((frozenset(cl), k) for cl, k in quota))
                        for key, quota in c.deal(view)]
                if c.pieces is not None and callable(c.holds):
                    known[c.pieces].update(c.holds(game, value))
                elif c.pieces is not None and c.holds:
                    known[c.pieces].update(p for _, pile in _piles_in(value, "") for p in pile)
                copy = None if c.shared else (c.draw_copy or c.copy or _fast_copier(value))
            elif type(c) is Zone:
                value, hidden = _read_zone(c, view, seat, n, self.names_back(game, c.pieces))
                setattr(probe, c.name, value)
                if c.visibility is ORDER_HIDDEN:
                    reshuffled += ([(c.name, s) for s, p in enumerate(value) if p is not None]
                                   if c.per_seat else [(c.name, None)])
                take = takers.get(c.pieces)
                if c.slot:
                    known[c.pieces].update(p for p in value if p is not None)
                else:
                    for pieces in (value if c.per_seat else (value,)):
                        if pieces is None:
                            continue
                        if take is not None and c.visibility not in (PUBLIC, ORDER_HIDDEN):
                            private.append((c.pieces, pieces))
                            continue
                        if take is not None:
                            pieces[:] = [take(x) for x in pieces]
                        known[c.pieces].update(pieces)
                deals[c.pieces] += hidden
                copy = _fast_copier(value)
            else:  # a mark
                value = _shown_pieces(c, view,  # type: ignore[arg-type]
                                      self.names_back(game, c.pieces))
                if value is None:
                    later.append(c)  # type: ignore[arg-type]
                    value = []
                copy = list.copy
            if copy is None:
                assigned.append((c.name, value))
            else:
                copies.append((c.name, copy, value))
        for kind, pieces in private:  # after those everyone sees
            take = takers[kind]
            pieces[:] = [take(x) for x in pieces]
            known[kind].update(pieces)
        unseen = {k: [p for p in self.piece_ids(game, k) if p not in known[k]]
                  for k in cls.PIECES}
        plans = []
        for kind, plan in deals.items():
            if not plan:
                continue
            classes = cls.PIECES[kind].classes
            class_of = None if classes is None else self._classes(game, kind)
            plans.append((_dealer(kind, unseen[kind], class_of, plan, game.name),
                          tuple((name, where) for name, where, *_ in plan)))
        acting: list[tuple[int, ...]] = []
        fill = self._filler((*((name, None) for name, _ in assigned),
                             *((name, copy) for name, copy, _ in copies)))
        values = (*(v for _, v in assigned), *(v for _, _, v in copies))

        def draw(rng: random.Random) -> Any:
            state = object.__new__(cls)
            state.game = game
            fill(state, values)  # every field, copied as it needs; the caches None
            for deal, places in plans:  # the quotas hold (checked by _dealer)
                for (name, where), dealt in zip(places, deal(rng), strict=True):
                    if where is None:
                        setattr(state, name, dealt)
                    else:
                        getattr(state, name)[where] = dealt
            for name, where in reshuffled:
                shuffle(rng, getattr(state, name) if where is None
                        else getattr(state, name)[where])
            for mark in later:
                setattr(state, mark.name, state.rebuild_mark(mark, view))
            if acting:
                state._acting = acting[0]
            else:
                state._refresh_acting()
                acting.append(state._acting)
            state.after_deal(view)
            return state

        return draw

    def _filler(self, plan: tuple[tuple[str, Callable[[Any], Any] | None], ...]
                ) -> Callable[[Any, tuple[Any, ...]], None]:
        """``fill(state, values)``: each field of ``plan`` (name, copy or None: assigned) set
        from ``values`` in that order, and the caches (the class's other slots) None; written
        as source code once per plan (a draw sets every field, a search draws thousands of
        states per decision)."""
        fillers = self.__dict__.setdefault("_fillers", {})
        found = fillers.get(plan)
        if found is None:
            lines = ["def fill(state, V):"]
            funcs: list[Callable[[Any], Any]] = []
            for i, (name, copy) in enumerate(plan):
                if copy is None:
                    expr = f"V[{i}]"
                elif copy is list.copy or copy is dict.copy or copy is set.copy:
                    expr = f"V[{i}].copy()"
                else:
                    funcs.append(copy)
                    expr = f"F[{len(funcs) - 1}](V[{i}])"
                lines.append(f"    state.{name} = {expr}")
            lines += [f"    state.{name} = None" for name in self._extra]
            if len(lines) == 1:
                lines.append("    pass")
            scope: dict[str, Any] = {"F": tuple(funcs)}
            exec(compile("\n".join(lines), "<meeple.engine.components fill>", "exec"),  # noqa: S102
                 scope)
            found = fillers[plan] = scope["fill"]
        return found  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ scenarios
    def scenario(self, game: Game, seed: int = 0, **description: Any) -> Any:
        """A position from a short description, starting from a new game dealt with ``seed``:
        the pieces named for a zone moved there (``hands={1: ["ONE-03"]}``; a per-seat zone
        takes a list per seat or ``{seat: list}``; what the zone held goes to the bottom of
        the draw pile of its kind), values set (``points=[4, 7, 2]``), the state class's
        :meth:`~ComponentState.scenario_setup` with the game's own words, then
        ``next_draws`` put on top of the draw pile in that order; checked like a loaded
        state.

        Raises:
            ParameterError: an unknown word (naming the words there are), an unknown or
                repeated piece, a piece that cannot be drawn next, a seat out of range, or a
                state that breaks an invariant (``StateError``).
        """
        cls = self.cls
        extra_words = dict(cls.scenario_keys())  # the game's own: before a component's
        words = {c.name: c for c in self.fields if c.name not in extra_words}
        unknown = [k for k in description if k not in words and k not in extra_words
                   and k != "next_draws"]
        if unknown:
            known = sorted([*words, *extra_words, "next_draws"])
            raise ParameterError(f"unknown scenario word {unknown[0]!r}; {game.name} "
                                 f"scenarios take: {', '.join(known)}")
        state = game.new_initial_state(seed)
        n = game.players
        taken: dict[str, set[Any]] = {k: set() for k in cls.PIECES}  # copies given so far

        def take(kind: str, word: Any, what: str) -> Any:
            """The id a piece word names (``Pieces.parse``): of interchangeable copies (a
            tuple), the first not named yet."""
            parse = cls.PIECES[kind].parse
            found = word if parse is None else parse(game, word, what)
            if isinstance(found, tuple):
                found = next((p for p in found if p not in taken[kind]), _MISSING)
                if found is _MISSING:
                    raise ParameterError(f"{what}: no {kind} {word!r} left (every copy is "
                                         "named already)")
            taken[kind].add(found)
            return found

        named: dict[str, Any] = {}  # a slot's pieces as a list of one (or None) per seat
        held: dict[str, Any] = {}  # the values of ``Value.takes`` with ``describe``
        for c in self.fields:  # in declaration order: which copy a word gets
            if c.name not in description or c.name not in words:
                continue
            name, given = c.name, description[c.name]
            if isinstance(c, Value) and c.takes is not None and c.describe is not None:
                held[name] = c.describe(  # type: ignore[call-arg]
                    seat_values(given, n, None, name) if c.per_seat else given,
                    lambda w, what, k=c.takes: take(k, w, what))
            elif isinstance(c, Zone):
                def ids(ws: Any, what: str, kind: str = c.pieces) -> list[Any]:
                    return [take(kind, w, what) for w in ws]
                if c.slot:
                    named[name] = [None if w is None else ids([w], f"{name}[{s}]")
                                   for s, w in enumerate(seat_values(given, n, None, name))]
                elif c.per_seat:
                    named[name] = [None if ws is None else ids(ws, f"{name}[{s}]")
                                   for s, ws in enumerate(seat_values(given, n, None, name))]
                else:
                    named[name] = ids(given, name)
        named_ids: dict[str, set[Any]] = {}  # by kind: every piece the description names
        for kind, pieces_of in cls.PIECES.items():
            known_ids = set(pieces_of.ids(game))
            seen = named_ids[kind] = set()
            lists = [pieces for name, value in named.items()
                     if words[name].pieces == kind  # type: ignore[union-attr]
                     for pieces in (value if words[name].per_seat else [value])]  # type: ignore
            for name, value in held.items():
                c = words[name]
                if c.pieces == kind:  # type: ignore[union-attr]
                    lists.append(list(c.holds(game, value)) if callable(c.holds)  # type: ignore
                                 else [p for _, pile in _piles_in(value, "") for p in pile])
            for pieces in lists:
                for pid in pieces or ():
                    if pid not in known_ids:
                        raise ParameterError(f"unknown {kind} {pid!r}")
                    if pid in seen:
                        raise ParameterError(f"{kind} {pid!r} is named twice")
                    seen.add(pid)
            for zone in self.zones:  # the named pieces leave wherever the deal put them
                if zone.pieces != kind:
                    continue
                current = getattr(state, zone.name)
                if zone.slot:
                    current[:] = [None if p in seen else p for p in current]
                    continue
                for pieces in (current if zone.per_seat else [current]):
                    pieces[:] = [p for p in pieces if p not in seen]
        displaced: dict[str, list[Any]] = {}  # what a named zone held: to its draw pile
        for name, value in named.items():
            zone = words[name]
            current = getattr(state, name)
            if zone.slot:  # type: ignore[union-attr]
                for s, pieces in enumerate(value):
                    if pieces is not None:
                        if current[s] is not None:
                            displaced.setdefault(zone.pieces, []).append(current[s])
                        current[s] = pieces[0]
            elif zone.per_seat:  # type: ignore[union-attr]
                for s, pieces in enumerate(value):
                    if pieces is not None:
                        displaced.setdefault(zone.pieces, []).extend(current[s])  # type: ignore
                        current[s] = list(pieces)
            else:
                displaced.setdefault(zone.pieces, []).extend(current)  # type: ignore
                setattr(state, name, list(value))
        for kind, pieces in displaced.items():
            if not pieces:
                continue
            pile = next((z for z in self.draw_piles if z.pieces == kind), None)
            if pile is None:
                raise ParameterError(f"{game.name} has no draw pile of {kind} pieces for what "
                                     "the description moves aside")
            getattr(state, pile.name)[:0] = pieces  # at the bottom
        for name, given in description.items():
            c = words.get(name)
            if name in held:
                setattr(state, name, held[name])
            elif isinstance(c, Value):
                value = seat_values(given, n, 0, name) if c.per_seat else given
                setattr(state, name, value if c.describe is None else c.describe(value))
            elif isinstance(c, Mark):
                setattr(state, name, list(given))
        state.scenario_setup({k: v for k, v in description.items() if k in words},
                             {k: v for k, v in description.items() if k in extra_words})
        draws = [] if "next_draws" in extra_words else list(description.get("next_draws", ()))
        if draws:
            if not self.draw_piles:
                raise ParameterError(f"{game.name} has no draw pile for next_draws")
            pile = self.draw_piles[0]
            parse = cls.PIECES[pile.pieces].parse
            if parse is not None:
                draws = [parse(game, w, "next_draws") for w in draws]
            named_here = named_ids[pile.pieces]
            for i, found in enumerate(draws):  # copies: the first not named elsewhere
                if isinstance(found, tuple):
                    draws[i] = next((p for p in found if p not in named_here
                                     and p not in draws), found[0] if found else None)
            self._free_for_next_draws(state, pile, draws, named_here)
            stack_on_top(getattr(state, pile.name), draws, pile.pieces)
        state._legal = None
        state._refresh_acting()
        return validated(state)

    def _free_for_next_draws(self, state: Any, pile: Zone, draws: Sequence[Any],
                             named: set[Any]) -> None:
        """A next draw the description did not place but the deal did (in a hand, say)
        changes places with the draw pile's top piece that is no next draw, so that every
        zone keeps its size."""
        stack = getattr(state, pile.name)
        wanted = set(draws)
        for pid in draws:
            if pid in stack or pid in named:
                continue  # in the pile already, or named elsewhere: stack_on_top says so
            for zone in self.zones:
                if zone.pieces != pile.pieces or zone is pile or zone.slot:
                    continue
                current = getattr(state, zone.name)
                for pieces in (current if zone.per_seat else [current]):
                    if pid in pieces:
                        spare = next((i for i in range(len(stack) - 1, -1, -1)
                                      if stack[i] not in wanted), None)
                        if spare is None:
                            return
                        at = pieces.index(pid)
                        pieces[at], stack[spare] = stack[spare], pid


_SCALARS = frozenset({int, float, str, bool, type(None), tuple, frozenset})


def _copy_lists(value: list[list[Any]]) -> list[list[Any]]:
    """A list of lists copied two levels deep (``copied``'s result for it)."""
    return list(map(list.copy, value))


def _fast_copier(value: Any) -> Callable[[Any], Any] | None:
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


def _put(view: dict[str, Any], key: str, value: Any) -> None:
    """``view[key] = value`` for a dotted ``key`` (``"turn.step"``: in the dict ``turn``)."""
    if "." in key:
        head, _, rest = key.partition(".")
        _put(view.setdefault(head, {}), rest, value)
    else:
        view[key] = value


_MISSING = object()


def _get(view: Mapping[str, Any], key: str, default: Any = _MISSING) -> Any:
    """``view[key]`` for a dotted ``key``; ``default`` (or KeyError) when absent."""
    try:
        if "." not in key:
            return view[key]
        here: Any = view
        for part in key.split("."):
            here = here[part]
        return here
    except (KeyError, TypeError):
        if default is _MISSING:
            raise KeyError(key) from None
        return default


def _is_scalar(annotation: Any) -> bool:
    """Whether a ``Value.type`` holds only JSON scalars (its view is the value itself)."""
    origin = get_origin(annotation)
    if annotation in (int, float, str, bool, type(None)):
        return True
    if origin is Literal:
        return True
    if origin is Annotated:
        return _is_scalar(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return all(_is_scalar(a) for a in get_args(annotation))
    return False


def piece_names(game: Any, kind: str, pieces: Pieces) -> Any:
    """``pieces.names(game)`` (the name of each id), kept on the game spec."""
    key = ("components-names", kind)
    found = game._cache.get(key)
    if found is None:
        found = game._cache[key] = pieces.names(game)  # type: ignore[misc]
    return found


def compile_copy(fields: Sequence[Component],
                 extra: Sequence[str]) -> Callable[[Any], Any]:
    """A function ``copy(state)`` for the components ``fields`` and the cache slots ``extra``,
    written as source code once, one line a field: a ``Value.shared`` value or a scalar one
    (its ``type`` holds only JSON scalars, no list) assigned, any other copied as
    ``Value.copy`` (default ``persist.copied``) says; a cache shared (None if unset)."""
    lines = ["def copy(state):", "    new = new_(type(state))"]
    consts: list[Any] = []
    for c in fields:
        if isinstance(c, Value) and (c.shared or (_is_scalar(c.type) and not c.per_seat)):
            lines.append(f"    new.{c.name} = state.{c.name}")
        else:
            consts.append(_copier(c))
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
            elif _is_scalar(c.type):
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


def _piles_in(value: Any, path: str) -> list[tuple[str, list[Any]]]:
    """The piles of piece ids in a holding :class:`Value`, each with its JSON path: a list of
    ids (None entries, empty slots, left out), a dict or a list of them, or one id."""
    if value is None:
        return []
    if isinstance(value, dict):
        out = []
        for key, v in value.items():
            out += _piles_in(v, json_path(path, key))
        return out
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (list, tuple, dict)) for v in value):
            out = []
            for i, v in enumerate(value):
                out += _piles_in(v, json_path(path, i))
            return out
        return [(path, [v for v in value if v is not None])]
    return [(path, [value])]


def _ids_in(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every leaf of nested lists ``value`` with its JSON path."""
    if isinstance(value, (list, tuple)):
        out = []
        for i, v in enumerate(value):
            out += _ids_in(v, f"{path}[{i}]")
        return out
    return [(path, value)]


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
            _put(target, c.show, list(pieces))
        if c.show_sorted is not None:
            _put(target, c.show_sorted, sorted(pieces))
    if c.count is not None:
        _put(target, c.count, len(pieces))


def _show_zone(c: Zone, state: Any, seat: int | None, target: dict[str, Any]) -> None:
    value = getattr(state, c.name)
    if not c.per_seat:
        _show_pieces(c, state, seat, value, target)
        return
    if c.visibility is PUBLIC:
        if c.show is not None:
            _put(target, c.show, [list(p) for p in value])
        if c.show_sorted is not None:
            _put(target, c.show_sorted, [sorted(p) for p in value])
    elif c.visibility is OWNER and seat is not None:
        if c.show is not None:
            _put(target, c.show, list(value[seat]))
        if c.show_sorted is not None:
            _put(target, c.show_sorted, sorted(value[seat]))
    elif c.visibility is OTHERS:
        others = [None if s == seat else list(p) for s, p in enumerate(value)]
        if c.show is not None:
            _put(target, c.show, others)
        if c.show_sorted is not None:
            _put(target, c.show_sorted, [None if p is None else sorted(p) for p in others])
    if c.count is not None:
        _put(target, c.count, [len(p) for p in value])


def _shown_pieces(c: Zone | Mark, view: Mapping[str, Any],
                  back: Mapping[Any, Any] | None = None) -> list[Any] | None:
    """The pieces of a shared zone or a mark as the view shows them (``back``: name -> id,
    if the view names them), or None if hidden."""
    for key in (c.show, c.show_sorted):
        if key is not None:
            found = _get(view, key, None)
            if found is not None:
                return list(found) if back is None else [back[x] for x in found]
    return None


def _read_zone(c: Zone, view: Mapping[str, Any], seat: int, n: int,
               back: Mapping[Any, Any] | None = None) -> tuple[Any, list[Place]]:
    """A zone's value in a determinization's template (None where dealt) and its hidden
    places ``(name, seat or None, size, quota entries or None)``, in deal order (``back``:
    name -> id, if the view names the pieces)."""
    if c.sizes is not None:
        counts = c.sizes(view)
    elif c.count is None:
        counts = None
    else:
        counts = _get(view, c.count, 0) if c.count_when else _get(view, c.count)
    quota = None if c.quota is None else c.quota(view)
    ids = list if back is None else (lambda found: [back[x] for x in found])

    def place(where: int | None, size: Any, entries: Any) -> Place:
        if entries is not None:
            entries = tuple((frozenset(classes), k) for classes, k in entries)
            if all(k is not None for _, k in entries):
                size = sum(k for _, k in entries)
        elif size is None:
            raise TypeError(f"zone {c.name}: hidden from the view and no count to deal by")
        return (c.name, where, size, entries)

    if c.contents is not None:
        found = c.contents(view)
        if not c.per_seat:
            return ([], [place(None, counts, quota)]) if found is None else (ids(found), [])
        value: list[Any] = [None] * n
        hidden = []
        for s in range(n):
            if found[s] is not None:
                value[s] = ids(found[s])
            else:
                hidden.append(place(s, None if counts is None else counts[s],
                                    None if quota is None else quota[s]))
        return value, hidden
    if not c.per_seat:
        shown = _shown_pieces(c, view, back)
        if shown is not None:
            return shown, []
        return [], [place(None, counts, quota)]
    if c.visibility is PUBLIC or c.visibility is ORDER_HIDDEN:
        shown = _get(view, c.show if c.show is not None else c.show_sorted)
        if c.slot:
            return [None if p is None else (p if back is None else back[p]) for p in shown], []
        return [ids(p) for p in shown], []
    value = [None] * n
    hidden = []
    own = _shown_pieces(c, view, back)
    for s in range(n):
        if c.visibility is OWNER and s == seat and own is not None:
            value[s] = own
        elif c.visibility is OTHERS and s != seat:
            key = c.show if c.show is not None else c.show_sorted
            value[s] = ids(_get(view, key)[s])
        else:
            hidden.append(place(s, None if counts is None else counts[s],
                                None if quota is None else quota[s]))
    return value, hidden


#: A determinization's hidden place: the component's name, where in it (None: the whole
#: field; a seat, or a key of a value's piles), its size, and its quota entries (``(classes,
#: count or None)``; None: any unseen piece of the kind).
Place = tuple[str, Any, Any, Any]


def _dealer(kind: str, unseen: list[Any], class_of: Any, plan: Sequence[Place],
            game_name: str) -> Callable[[random.Random], list[list[Any]]]:
    """``deal(rng)``: the pieces of each place of ``plan`` (in order) dealt from the
    ``unseen`` pieces of ``kind`` (in ``ids`` order), ``class_of`` (id -> class, or None: one
    class) by the places' quotas, checked here (``ParameterError`` naming ``game_name``).

    The deal, uniform over the deals the quotas allow: each class that a counted
    single-class entry takes from is shuffled once (classes in ``ids`` order of their first
    piece) and those entries take its first pieces, in place order; the classes the other
    entries name are joined where they overlap, and each such group's pieces left over
    (class by class) are shuffled once: its counted entries, which must name the whole
    group, take its first pieces in place order, then its ``None`` entries, in place order,
    every piece left of their classes. With no class and no quota, this is one shuffle of
    the unseen pieces, dealt to the places in order.
    """
    entries: list[tuple[int, frozenset[Any] | None, int | None]] = []
    for i, (_name, _where, size, quota) in enumerate(plan):
        if quota is None:
            entries.append((i, None, size))
        else:
            entries += [(i, classes, k) for classes, k in quota]
    if class_of is None and all(q is None for *_, q in plan):
        sizes = [size for *_, size, _q in plan]
        if sum(sizes) != len(unseen):
            raise ParameterError(f"{game_name} view does not account for the {kind} pieces: "
                                 f"{len(unseen)} unseen for {sum(sizes)} hidden places")
        bounds = []
        at = 0
        for size in sizes:
            bounds.append(slice(at, at + size))
            at += size

        def deal_all(rng: random.Random) -> list[list[Any]]:
            cards = unseen.copy()
            shuffle(rng, cards)
            return [cards[b] for b in bounds]

        return deal_all
    label = (lambda p: None) if class_of is None else class_of.__getitem__
    pools: dict[Any, list[Any]] = {}
    for p in unseen:
        pools.setdefault(label(p), []).append(p)
    order = list(pools)  # classes in ids order of their first unseen piece
    everything = frozenset(order)
    entries = [(i, everything if cl is None else cl, k) for i, cl, k in entries]

    def refuse(why: str) -> ParameterError:
        return ParameterError(f"{game_name} view does not account for the {kind} pieces: "
                              f"{why}")

    # the counted single-class entries
    first = [e for e, (_, cl, k) in enumerate(entries) if len(cl) == 1 and k is not None]
    used = dict.fromkeys(order, 0)
    for e in first:
        (c,) = entries[e][1]
        used[c] = used.get(c, 0) + entries[e][2]  # type: ignore[operator]
        if used[c] > len(pools.get(c, ())):
            raise refuse(f"{used[c]} of class {c!r} wanted, {len(pools.get(c, ()))} unseen")
    shuffled = [c for c in order if any(entries[e][1] == {c} for e in first)]
    # the groups: classes of the other entries, joined where they overlap
    groups: list[set[Any]] = []
    for _, cl, k in entries:
        if len(cl) == 1 and k is not None:
            continue
        joined = set(cl)
        for g in [g for g in groups if g & joined]:
            joined |= g
            groups.remove(g)
        groups.append(joined)
    stages = []
    for g in groups:
        members = [c for c in order if c in g]
        size = sum(len(pools.get(c, ())) - used.get(c, 0) for c in members)
        counted = [e for e, (_, cl, k) in enumerate(entries) if k is not None and cl & g
                   and not (len(cl) == 1 and k is not None)]
        rest = [e for e, (_, cl, k) in enumerate(entries) if k is None and cl & g]
        if any(entries[e][1] != g for e in counted):
            raise refuse("counted quotas of several classes overlap but differ")
        wanted = sum(entries[e][2] for e in counted)  # type: ignore[misc]
        if wanted > size or (wanted < size and not rest):
            raise refuse(f"{size} unseen for {wanted} hidden places of classes {sorted(g)}")
        if wanted < size:
            left = {c for c in members if len(pools.get(c, ())) > used.get(c, 0)}
            if not left <= set().union(*(entries[e][1] for e in rest)):
                raise refuse("pieces left over that no place takes")
        stages.append((members, counted, [(e, entries[e][1]) for e in rest]))
    placed = {c for g in groups for c in g}
    for c in order:
        if c not in placed and used.get(c, 0) != len(pools[c]):
            raise refuse(f"{len(pools[c]) - used.get(c, 0)} of class {c!r} in no place")
    by_place = [[e for e, (i, _, _) in enumerate(entries) if i == j] for j in range(len(plan))]
    count = len(entries)

    def deal(rng: random.Random) -> list[list[Any]]:
        taken: list[Any] = [None] * count
        left: dict[Any, list[Any]] = {}
        for c in shuffled:
            cards = pools[c].copy()
            shuffle(rng, cards)
            left[c] = cards
        at = dict.fromkeys(shuffled, 0)
        for e in first:
            (c,) = entries[e][1]
            k = entries[e][2]
            if not k:
                taken[e] = []
                continue
            taken[e] = left[c][at[c]:at[c] + k]  # type: ignore[operator]
            at[c] += k  # type: ignore[operator]
        for members, counted, rest in stages:
            cards = []
            for c in members:
                cards += left[c][at[c]:] if c in left else pools[c]
            shuffle(rng, cards)
            k = 0
            for e in counted:
                size = entries[e][2]
                taken[e] = cards[k:k + size]  # type: ignore[operator]
                k += size  # type: ignore[operator]
            cards = cards[k:]
            for e, classes in rest:
                taken[e] = [p for p in cards if label(p) in classes]
                cards = [p for p in cards if label(p) not in classes]
        out = []
        for es in by_place:
            if len(es) == 1:
                out.append(taken[es[0]])
            else:
                pieces = []
                for e in es:
                    pieces += taken[e]
                out.append(pieces)
        return out

    return deal
