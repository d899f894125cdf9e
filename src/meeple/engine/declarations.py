"""The declarations a state class makes of its parts (docs/engine.md, "Components"): the kinds
of piece (:class:`Pieces`), the zones that hold them (:class:`Zone`, with a :class:`Visibility`),
per-seat knowledge (:class:`Mark`), the other fields (:class:`Value`) and computed view keys
(:class:`Shown`). Plain frozen dataclasses: :mod:`meeple.engine.components` compiles them into
the copy, data, validation and views, :mod:`meeple.engine.dealing` into determinizations and
:mod:`meeple.engine.scenario_builder` into scenarios."""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.engine.validation import (
    NonNegInt,
    json_path,
)

if TYPE_CHECKING:
    pass


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


def piece_names(game: Any, kind: str, pieces: Pieces) -> Any:
    """``pieces.names(game)`` (the name of each id), kept on the game spec."""
    key = ("components-names", kind)
    found = game._cache.get(key)
    if found is None:
        found = game._cache[key] = pieces.names(game)  # type: ignore[misc]
    return found


def piles_in(value: Any, path: str) -> list[tuple[str, list[Any]]]:
    """The piles of piece ids in a holding :class:`Value`, each with its JSON path: a list of
    ids (None entries, empty slots, left out), a dict or a list of them, or one id."""
    if value is None:
        return []
    if isinstance(value, dict):
        out = []
        for key, v in value.items():
            out += piles_in(v, json_path(path, key))
        return out
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (list, tuple, dict)) for v in value):
            out = []
            for i, v in enumerate(value):
                out += piles_in(v, json_path(path, i))
            return out
        return [(path, [v for v in value if v is not None])]
    return [(path, [value])]


def ids_in(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every leaf of nested lists ``value`` with its JSON path."""
    if isinstance(value, (list, tuple)):
        out = []
        for i, v in enumerate(value):
            out += ids_in(v, f"{path}[{i}]")
        return out
    return [(path, value)]
