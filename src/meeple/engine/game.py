"""The immutable game spec: name, seats, parameters, variant and declared capabilities.

A :class:`Game` is what ``load_game`` returns. It never changes after construction; every
playthrough lives in a :class:`~meeple.engine.state.State` made by ``new_initial_state(seed)``.
A game package subclasses :class:`Game`, fills in the class attributes, implements the few
hooks marked below, and calls :func:`meeple.engine.registry.register` on the class.
"""

from __future__ import annotations

import functools
import random
import types
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from meeple.engine import checks, determinization
from meeple.engine.board import board_layout
from meeple.engine.errors import (
    ActionArgumentError,
    ArgumentError,
    NotAnActionError,
    ParameterError,
    UnknownVariantError,
    ViewError,
)
from meeple.engine.params import Parameter, Variant, resolve_parameters
from meeple.engine.schema import state_schema

if TYPE_CHECKING:
    from meeple.engine.action import Action
    from meeple.engine.components import ComponentState
    from meeple.engine.state import State


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a game is, as data that bots and the lab read before they start.

    Attributes:
        min_players, max_players: the allowed seat counts (inclusive).
        simultaneous: some decisions are taken by several seats at once.
        hidden_information: some seat cannot see part of the state.
        chance: the state draws random numbers (shuffles, dice).
        cooperative: seats win or lose together (else competitive).
        max_length: the safety cap on the game's length, in ``length_unit``; reaching it ends
            the game as *truncated* with the game's documented tiebreak.
        length_unit: what ``State.length()`` counts: ``"rounds"``, ``"turns"`` or ``"days"`` (a
            game whose rounds are days, e.g. Epoch Ellipse).
        talk_modes: the table-talk modes this game instance allows, e.g. ``("public",
            "private")``; empty when talk is off. Talk never changes the rules state.
    """

    min_players: int
    max_players: int
    simultaneous: bool
    hidden_information: bool
    chance: bool
    cooperative: bool
    max_length: int
    length_unit: str
    talk_modes: tuple[str, ...] = ()


class Game(ABC):
    """Base class of every game spec, and a design's whole definition. Instances are immutable.

    Subclasses set the class attributes ``name``, ``title``, ``parameters``, ``variants``
    (the first is the default), ``min_players``, ``max_players``, ``default_players`` and
    implement ``new_initial_state``, ``parse_action`` and ``capabilities``; a state class that
    declares its components (``state_class``) gives the copy, JSON, validation, views,
    determinization and scenarios. The other parts are declared as typed references to the
    game's own objects, each optional: ``bots`` (name -> bot class), ``renderer``, ``board``,
    ``evaluator``, ``decisions``, ``scenario`` (functions) and ``encoding`` (a module). The
    game's package declares them where it imports its parts (``games/<game>/__init__.py``),
    so the rules modules never import bot, drawing or encoding code and no import goes in a
    circle (``tests/test_import_graph.py``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    #: What ``State.scores()`` counts, for reports: "VP", "points", "final energy"...
    score_name: ClassVar[str] = "score"
    #: The game's own bots: name -> a factory ``factory(game, seat, seed) -> bot`` (its bot
    #: class).
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    #: Bots a playtest seats when none are named (cycled over the seats): random play, unless
    #: random play says nothing about the design: random games cannot finish, or a random
    #: team never wins a cooperative game (then its own bot, said in its rules page).
    playtest_bots: ClassVar[tuple[str, ...]] = ("random",)
    #: ``render(game, view) -> str``, drawing a seat's view as terminal text (None: none).
    renderer: ClassVar[Callable[..., str] | None] = None
    #: ``content(game) -> dict``: the public, fixed content a board drawing needs beside the
    #: views (card texts and patterns, the map's layout...; None: none). See
    #: :meth:`Game.board_content`.
    board: ClassVar[Callable[..., dict[str, Any]] | None] = None
    #: The game's state evaluator for search cut-offs (None: none): ``evaluate(state) ->
    #: tuple[float, ...]``, one estimate per seat of its final return.
    evaluator: ClassVar[Callable[..., tuple[float, ...]] | None] = None
    #: The game's settings for the generic search bot (``meeple.bots.ismcts``), chosen so a
    #: default-budget move stays under a second: ``iterations``, ``rollout_depth`` (steps
    #: before the evaluator scores a rollout; None: play to the end), ``exploration``.
    search: ClassVar[Mapping[str, Any]] = {}
    #: The game's fixed-size encoding for learning adapters (None: none): a module (or any
    #: object) defining ``action_texts(game) -> Sequence[str]`` (every action text any seat can
    #: ever take in this game instance, each once, in a stable order), ``observation_shape(game)
    #: -> tuple[int, ...]`` and ``observation_tensor(game, view) -> Sequence[float] | ndarray``
    #: (one seat's view as numbers of that shape). See :meth:`action_table`.
    encoding: ClassVar[Any] = None
    #: Action kinds a timed-out seat submits, in preference order (see ``timeout_action``).
    timeout_kinds: ClassVar[tuple[str, ...]] = ()
    rules_page: ClassVar[str] = ""
    #: ``help(state, seat) -> str``, a one-paragraph reminder of the decision a seat faces
    #: (from the rules page, naming its section); None: none.
    decisions: ClassVar[Callable[..., str] | None] = None
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    variants: ClassVar[tuple[Variant, ...]] = (Variant("default", "the rules as written"),)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    #: ``build(game, **description) -> State``, the game's own scenario builder, for a game
    #: whose components do not say its scenarios (None: the components' builder, if any).
    scenario: ClassVar[Callable[..., Any] | None] = None
    #: The game's state class when it declares its components
    #: (:class:`meeple.engine.components.ComponentState`): its copy, JSON data, validation,
    #: views, determinization and scenarios derive from them. None: the game writes those
    #: hooks itself.
    state_class: ClassVar[type[ComponentState] | None] = None

    __slots__ = ("variant", "players", "params", "_frozen", "_cache")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every game's ``parse_action`` gets the engine's argument checks, here, once.
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("parse_action")
        if own is not None and not getattr(own, "_checked", False):
            cls.parse_action = checks.checked_parse(own)
        for part in _FUNCTION_PARTS:  # a function declared as a part is no method of the game
            value = cls.__dict__.get(part)
            if isinstance(value, types.FunctionType):
                setattr(cls, part, staticmethod(value))

    def __init__(
        self, variant: str | None = None, players: int | None = None, **params: Any
    ) -> None:
        """Build the spec; use :func:`meeple.load_game` rather than calling this directly.

        Args:
            variant: a variant name or alias; ``None`` selects the first declared variant.
            players: seat count in ``min_players..max_players``; ``None`` uses the default.
            **params: parameter overrides, applied on top of the variant's values.
        Raises:
            UnknownVariantError: for a variant name this game does not define.
            ParameterError: for a seat count out of range or a bad parameter.
        """
        chosen = self.find_variant(variant)
        if players is None:
            players = self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ParameterError(f"players = {players!r} must be an integer")
        if not self.min_players <= players <= self.max_players:
            raise ParameterError(
                f"players = {players} is not allowed for {self.name}: "
                f"expected {self.min_players}..{self.max_players}"
            )
        object.__setattr__(self, "variant", chosen.name)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "params", resolve_parameters(self.parameters, chosen, params))
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_frozen", True)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; load a new game instead")

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != self.variant_params()[k]}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.name!r}, variant={self.variant!r}, players={self.players}{extra})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and other.variant == self.variant
            and other.players == self.players
            and dict(other.params) == dict(self.params)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.variant, self.players, tuple(self.params.items())))

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[Any, ...]]:
        # Pickle as the constructor call, so specs travel to worker processes.
        return (_rebuild_game, (type(self), self.variant, self.players, dict(self.params)))

    # ----------------------------------------------------------------- class-level helpers
    @classmethod
    def find_variant(cls, name: str | None) -> Variant:
        """Return the declared variant called ``name`` (or one of its aliases).

        Raises:
            UnknownVariantError: listing the variants this game defines.
        """
        if name is None:
            return cls.variants[0]
        for v in cls.variants:
            if name == v.name or name in v.aliases:
                return v
        known = ", ".join(v.name for v in cls.variants)
        raise UnknownVariantError(f"{cls.name} has no variant {name!r}; variants: {known}")

    def variant_params(self) -> Mapping[str, Any]:
        """The parameter values of this spec's variant before any explicit overrides."""
        return resolve_parameters(self.parameters, self.find_variant(self.variant), {})

    def spec(self) -> dict[str, Any]:
        """JSON-compatible description: ``name``, ``variant``, ``players``, ``params``."""
        return {
            "game": self.name,
            "variant": self.variant,
            "players": self.players,
            "params": dict(self.params),
        }

    # ----------------------------------------------------------------------- game hooks
    @property
    @abstractmethod
    def capabilities(self) -> Capabilities:
        """The declared capabilities of this game instance (they may depend on parameters)."""

    @abstractmethod
    def new_initial_state(self, seed: int = 0) -> State:
        """A fresh playthrough whose chance outcomes all derive from ``seed`` (an int >= 0)."""

    def check_seat(self, seat: Any) -> int:
        """``seat`` if it is a seat of this game (an int in ``0..players-1``, not a bool).
        ``parse_action`` checks it before the game's own parsing runs.

        Raises:
            SeatError: naming the bad seat (also an ``ActionParseError``).
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = checks.seat(seat, self.players)
        return seat

    def check_view(self, view: Any) -> int:
        """The seat of ``view`` if it is a seat's view of this game (a mapping whose ``game`` is
        this game's name and whose ``seat`` is one of its seats), as ``observation_tensor`` and
        ``determinize`` need.

        Raises:
            ViewError: saying what is wrong.
        """
        if not isinstance(view, Mapping):
            raise ViewError(f"view must be the mapping State.view(seat) of {self.name}; got "
                            f"{checks.given(view)}")
        seat = view.get("seat")
        if view.get("game") != self.name or type(seat) is not int \
                or not 0 <= seat < self.players:
            raise ViewError(f"not a seat's view of {self.name}: game {view.get('game')!r}, "
                            f"seat {seat!r}")
        return seat

    @abstractmethod
    def parse_action(self, text: str, seat: int) -> Action:
        """Read ``text`` in the game's action notation as an action of ``seat``.

        The engine checks the arguments before the game's version runs (``__init_subclass__``
        wraps it): ``text`` must be a ``str`` with something besides spaces, ``seat`` a seat.

        Raises:
            ActionArgumentError: if ``text`` is not a str or is blank.
            SeatError: if ``seat`` is not a seat of this game.
            ActionParseError: if the text is not a well-formed action for that seat. Whether
                the action is legal *now* is checked when it is applied.
        """

    def _state_from_data(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from the ``"data"`` part of :meth:`State.to_json` (derived from the
        components of :attr:`state_class`; a game without them overrides it).

        Raises:
            NotImplementedError: for a game with neither.
        """
        if self.state_class is None:
            raise NotImplementedError(f"{self.name} cannot rebuild a state from data")
        return self.state_class.components().restore(self, data)  # type: ignore[no-any-return]

    @property
    def determinizes(self) -> bool:
        """Whether the game provides a determinization (overrides :meth:`_determinizer` or
        :meth:`_determinize`): what information-set search needs."""
        cls = type(self)
        return (cls.state_class is not None or cls._determinizer is not Game._determinizer
                or cls._determinize is not Game._determinize)

    def _determinize(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """Game hook of :meth:`determinize` (or override :meth:`_determinizer` instead, to read
        the view once for many draws): a state consistent with ``view`` (the output of
        ``State.view(seat)`` for an int seat), its hidden parts (other hands, deck orders,
        face-down cards) drawn with ``rng`` from what the seat cannot tell apart. It sets
        ``_acting`` to the acting seats (``to_act`` and ``submitted`` together); the engine then
        fills pending submissions and gives the state a fresh chance stream.

        Raises:
            NotImplementedError: the default, for a game without determinization.
        """
        raise NotImplementedError(f"{self.name} does not provide a determinization")

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """Sample a full state consistent with everything one seat knows (engine-patterns 6).

        The game draws every part hidden from the seat (other seats' hands, deck orders) from
        what remains possible given ``view``; other seats' pending simultaneous choices are
        drawn uniformly from their legal actions; the seat's own pending choice is kept; the
        state's future chance outcomes come from a new seed drawn from ``rng``. The result
        gives that seat exactly ``view`` again (``determinize(v, rng).view(seat) == v``),
        which the conformance suite checks for every game. Used by information-set search
        (``meeple.bots.ismcts``): a bot holds only its view, never the true state.

        Args:
            view: ``State.view(seat)`` of one seat (an int seat; not a spectator's view).
            rng: the caller's random stream (a bot's own), never a game's chance stream.
        Returns:
            A new state of this game, independent of any other.
        Raises:
            ViewError: if ``view`` is not a seat's view of this game, or one the game cannot
                read (also a ``ParameterError``).
            ArgumentError: if ``rng`` is not a ``random.Random``.
            NotImplementedError: if the game has no determinization.
        """
        return self.determinizer(view)(rng)

    def _determinizer(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """Game hook of :meth:`determinizer`: ``draw(rng)``, the same as
        ``self._determinize(view, rng)`` for every ``rng`` (the same draws from it, an equal
        state), after reading what does not depend on the draws once. Each call of ``draw``
        returns a new state that shares no mutable part with another; the engine then sets
        its ``seed``, ``_rng``, ``_legal``, ``_pending`` and ``narrate``. The default calls
        :meth:`_determinize` at every draw; a game overrides one of the two (all five designs).

        Raises:
            NotImplementedError: the default, for a game without determinization.
        """
        if self.state_class is not None and type(self)._determinize is Game._determinize:
            return self.state_class.components().determinizer(self, view)
        if not self.determinizes:
            raise NotImplementedError(f"{self.name} does not provide a determinization")
        return functools.partial(self._determinize, view)

    def determinizer(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """:meth:`determinize` for many draws from one view: ``draw(rng)`` equals
        ``determinize(view, rng)`` (the same draws from ``rng``, an equal new state), with the
        view checked and read once. Information-set search draws a state per iteration.

        Args:
            view: ``State.view(seat)`` of one seat (an int seat; not a spectator's view). It
                must not change while ``draw`` is used.
        Returns:
            ``draw(rng)``; it raises ``ArgumentError`` if ``rng`` is not a ``random.Random``.
        Raises:
            ViewError: if ``view`` is not a seat's view of this game, or one the game cannot
                read (also a ``ParameterError``).
            NotImplementedError: if the game has no determinization.
        """
        return determinization.determinizer(self, view)

    def state_evaluator(self) -> Callable[[State], tuple[float, ...]] | None:
        """The game's evaluator for search cut-offs (``evaluate(state)``: per seat, an estimate
        in 0..1 of its final return at a non-terminal state): the ``evaluator`` declaration,
        None when the game declares none."""
        return self.evaluator

    # ------------------------------------------------------------ encoding (adapters)
    def _encoding(self) -> Any:
        if self.encoding is None:
            raise NotImplementedError(f"{self.name} declares no encoding")
        return self.encoding

    def action_table(self) -> tuple[str, ...]:
        """Every action text any seat can ever take in this game instance, in a stable order:
        the integer action space of the adapters (OpenSpiel, PettingZoo, Gymnasium). An
        action's code is its text's index; the table depends on the variant, parameters and
        seat count, never on a state.

        Raises:
            NotImplementedError: for a game that declares no ``encoding``.
            RuntimeError: if the game's table repeats a text.
        """
        table = self._cache.get("action_table")
        if table is None:
            table = tuple(self._encoding().action_texts(self))
            index = {text: i for i, text in enumerate(table)}
            if len(index) != len(table):
                raise RuntimeError(f"{self.name}'s action table repeats a text")
            self._cache["action_table"] = table
            self._cache["action_index"] = index
        return table

    def num_distinct_actions(self) -> int:
        """The size of :meth:`action_table` (codes are ``0..n-1``)."""
        return len(self.action_table())

    def action_code(self, action: Action) -> int:
        """The integer code of ``action``: the index of its text in :meth:`action_table`.

        Raises:
            NotAnActionError: if ``action`` is not an :class:`Action`, or its text is not in the
                table (not this game's action, or a gap in the game's table); also a
                ``ValueError``.
        """
        from meeple.engine.action import Action

        if not isinstance(action, Action):
            raise NotAnActionError(f"action must be an Action of {self.name}; got "
                                   f"{checks.given(action)}")
        self.action_table()
        code = self._cache["action_index"].get(str(action))
        if code is None:
            raise NotAnActionError(f"{self.name}: action {str(action)!r} is not in the action "
                                   "table")
        return code

    def action_from_code(self, code: int, seat: int) -> Action:
        """The action of ``seat`` with integer ``code`` (inverse of :meth:`action_code`).

        Raises:
            ActionArgumentError: for a code that is not an int (numpy integers accepted, bools
                refused) in ``0..num_distinct_actions()-1``.
            SeatError: if ``seat`` is not a seat of this game.
        """
        table = self.action_table()
        number = checks.integer(code)
        if number is None or not 0 <= number < len(table):
            raise ActionArgumentError(f"action code must be an int in 0..{len(table) - 1}; "
                                      f"got {checks.given(code)}")
        return self.parse_action(table[number], seat)

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`, fixed for this game instance.

        Raises:
            NotImplementedError: for a game that declares no ``encoding``.
        """
        shape = self._cache.get("observation_shape")
        if shape is None:
            shape = self._cache["observation_shape"] = tuple(
                int(n) for n in self._encoding().observation_shape(self))
        return shape

    def observation_tensor(self, view: Mapping[str, Any]) -> Any:
        """One seat's view (``State.view(seat)``) as a float32 numpy array of
        :meth:`observation_shape`: only what that seat may see, since it reads the view.

        Raises:
            ViewError: if ``view`` is not a seat's view of this game, or one the encoding cannot
                read.
            NotImplementedError: for a game that declares no ``encoding``.
            RuntimeError: if the game's encoding returns another shape.
        """
        import numpy as np

        self.check_view(view)
        encoding = self._encoding()
        tensor = np.asarray(checks.reading_view(self, encoding.observation_tensor, self, view),
                            dtype=np.float32)
        if tensor.shape != self.observation_shape():
            raise RuntimeError(f"{self.name} encoded a view as shape {tensor.shape}, expected "
                               f"{self.observation_shape()}")
        return tensor

    def action_tags(self, action: Action) -> tuple[str, ...]:
        """Words saying what ``action`` does, for scripted policies (``meeple.bots.scripted``,
        a weighted sum over them; a repeated tag counts as often as it appears). Default: the
        action's ``kind`` (a :class:`~meeple.engine.action.KindAction`), else ``()``; a game
        whose kinds say too little overrides it (Four Gods: ``attack``, ``attack:left``...)."""
        kind = getattr(action, "kind", None)
        return (kind,) if isinstance(kind, str) else ()

    def action_tag_names(self) -> tuple[str, ...]:
        """Every tag :meth:`action_tags` gives in this game instance, sorted: the tags of
        every action of :meth:`action_table`, read as seat 0's (tags never depend on the seat);
        ``()`` for a game without an encoding. Cached (Damocles' 91,000 actions: ~0.3 s)."""
        names = self._cache.get("action_tag_names")
        if names is None:
            try:
                table = self.action_table()
            except NotImplementedError:
                table = ()
            found = {t for text in table for t in self.action_tags(self.parse_action(text, 0))
                     } if table else set()
            names = self._cache["action_tag_names"] = tuple(sorted(found))
        return names

    def seat_names(self) -> tuple[str, ...]:
        """Display names of the seats, index = seat (default ``Seat 0``, ``Seat 1``, ...)."""
        return tuple(f"Seat {i}" for i in range(self.players))

    #: Seat colours of a game that gives its seats none (CSS colour names, readable on white
    #: and as a fill behind white text).
    SEAT_COLOURS: ClassVar[tuple[str, ...]] = ("crimson", "royalblue", "seagreen",
                                              "darkorange", "purple", "teal")

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's colour for a board or a list of seats (CSS colour names), index = seat:
        the game's own where its seats have colours (Four Gods' gods), else
        :attr:`SEAT_COLOURS` in order."""
        return tuple(self.SEAT_COLOURS[i % len(self.SEAT_COLOURS)] for i in range(self.players))

    def timeout_action(self, seat: int, legal_actions: Sequence[Action]) -> Action:
        """What a seat submits when its decision timer runs out (human play only): the first
        legal action whose ``kind`` is in ``timeout_kinds`` (e.g. ``end``), else the first
        legal action, which each game's canonical order makes its null move.

        Raises:
            SeatError: if ``seat`` is not a seat of this game.
            ArgumentError: if ``legal_actions`` is not a non-empty sequence of actions.
        """
        from meeple.engine.action import Action

        self.check_seat(seat)
        if not isinstance(legal_actions, Sequence) or isinstance(legal_actions, str) \
                or not legal_actions or not all(isinstance(a, Action) for a in legal_actions):
            raise ArgumentError(f"legal_actions must be a non-empty sequence of actions; got "
                                f"{checks.given(legal_actions)}")
        for action in legal_actions:
            if getattr(action, "kind", None) in self.timeout_kinds:
                return action
        return legal_actions[0]

    @classmethod
    def define(cls, *, bots: Mapping[str, Callable[..., Any]] | None = None,
               **parts: Any) -> type[Game]:
        """Declare the game's parts that live outside its rules: ``bots`` (name -> a bot class
        or ``factory(game, seat, seed)``), and any of ``renderer``, ``board``, ``evaluator``,
        ``decisions``, ``scenario`` (functions; see the class attributes of the same names)
        and ``encoding`` (a module or object with ``action_texts``, ``observation_shape`` and
        ``observation_tensor``). A game's package calls it once, after importing its rules
        and its parts (``games/damocles/__init__.py``): the rules modules then import none of
        them. Returns ``cls``.

        Raises:
            TypeError: an unknown part, a part that is not callable, or an encoding without
                the three functions.
        """
        unknown = sorted(set(parts) - {*_FUNCTION_PARTS, "encoding"})
        if unknown:
            raise TypeError(f"{cls.__name__}.define: unknown parts {', '.join(unknown)}; parts: "
                            f"bots, encoding, {', '.join(_FUNCTION_PARTS)}")
        if bots is not None:
            for name, factory in bots.items():
                if not callable(factory):
                    raise TypeError(f"{cls.__name__}.define: bot {name!r} is not callable")
            cls.bots = dict(bots)
        for name, value in parts.items():
            if name == "encoding":
                missing = [f for f in ENCODING_FUNCTIONS if not callable(getattr(value, f, None))]
                if missing:
                    raise TypeError(f"{cls.__name__}.define: the encoding lacks "
                                    f"{', '.join(missing)}")
                cls.encoding = value
            elif not callable(value):
                raise TypeError(f"{cls.__name__}.define: {name} must be a function")
            else:
                setattr(cls, name, staticmethod(value))
        return cls

    def bot_factories(self) -> Mapping[str, Callable[..., Any]]:
        """The game's own bots by name: ``factory(game, seat, seed) -> bot`` (the ``bots``
        declaration)."""
        return dict(self.bots)

    def text_renderer(self) -> Callable[[Game, Mapping[str, Any]], str] | None:
        """A function drawing a seat's view as terminal text (rich markup allowed), or None
        (the ``renderer`` declaration)."""
        return self.renderer

    def board_content(self) -> dict[str, Any]:
        """The public content a board drawing needs beside a seat's view: JSON-compatible data
        fixed by the game spec (game, variant, players, parameters), such as card names, texts
        and patterns or a map's layout, so views can name pieces by id. It must hold nothing
        that a seat may not know (no deck order, no seed): the web server gives it to anyone
        who can see the table (``GET /api/tables/{id}/board``). ``{}`` for a game without a
        ``board`` declaration."""
        if self.board is None:
            return {}
        return self.board(self)

    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of this game instance's saved states
        (:meth:`State.to_json`), derived from the state's component declaration
        (:func:`meeple.engine.schema.state_schema`: piece ids of this game, one entry per seat);
        the envelope only for a game whose state declares no components. A state that
        :meth:`state_from_json` accepts passes it; the schema cannot say everything that method
        checks (each piece in exactly one place, the rules' invariants)."""
        return state_schema(self)

    def board_layout(self) -> dict[str, Any] | None:
        """The generic board description of this game's state (:func:`meeple.engine.board.
        board_layout`: its zones, marks and shown values with their view keys and
        visibilities), which the web client draws for a game without a board module of its
        own; None for a game whose state declares no components. It names view keys only,
        never a piece, so it holds nothing secret."""
        return board_layout(self.state_class)

    def event_lines(self, view: Mapping[str, Any]) -> list[str]:
        """The event log a view shows, one line per event, oldest first: the view's
        ``"events"`` entries ``(time, seat, text)`` as ``"Seat 2: text"`` (seat -1: the table).
        A view holds only what its seat may see, so these lines never reveal hidden
        information. The terminal prints those new since a seat's last decision; games whose
        view has no ``"events"`` (Four Gods draws the last round whole) give none."""
        names = self.seat_names()
        lines = []
        for entry in view.get("events") or ():
            seat, text = entry[1], entry[2]
            who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "table"
            lines.append(f"{who}: {text}")
        return lines

    def build_scenario(self, **description: Any) -> State:
        """A position of this game from a short readable description (hands, board, scores,
        whose turn, the next draws...; see the game's ``scenario.build`` for the words it
        takes), with defaults for the rest, checked like a loaded state.

        Raises:
            ParameterError: the game has no scenario builder, or the description names
                something unknown or impossible (a :class:`StateError` for a broken invariant).
        """
        if self.scenario is not None:
            return self.scenario(self, **description)  # type: ignore[no-any-return]
        if self.state_class is not None:
            return self.state_class.components().scenario(self, **description)  # type: ignore
        raise ParameterError(f"{self.name} has no scenario builder")

    def decision_help(self, state: State, seat: int) -> str:
        """A one-paragraph reminder of what the decision ``seat`` faces in ``state`` is, taken
        from the rules page and naming the rule section (``help`` in the terminal); imported on
        the ``decisions`` declaration. Without one, it points at the rules page."""
        if self.decisions is not None:
            return str(self.decisions(state, seat))
        return f"See the rules page, {self.rules_page}." if self.rules_page else ""

    # -------------------------------------------------------------------- serialisation
    def state_from_json(self, payload: str | bytes | Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_json` output (a dict or its JSON text),
        refusing anything the game could not have reached.

        Checks, in order (:mod:`meeple.engine.validation`): JSON, the envelope (format, this
        game's name, variant, players and params, seed, chance stream, pending submissions'
        shape), the game's invariants (:meth:`_validate_data`: shapes and types, each piece in
        exactly one place, known ids, counts, seat count, phase consistent with whose turn),
        then that the loaded state can be played on (acting seats have legal actions, pending
        submissions are legal).

        Raises:
            StateError: (a ``ParameterError``) whose ``path`` is the JSON path of the first
                problem (``$.data.hands[2][0]``) and whose message says what was expected.
        """
        from meeple.engine.validation import restore_state

        return restore_state(self, payload)

    def _validate_data(self, data: Mapping[str, Any]) -> None:
        """Game hook of :meth:`state_from_json`: check the ``"data"`` object of a state
        document against the game's invariants before ``_state_from_data`` reads it, raising
        :class:`~meeple.engine.errors.StateError` at the JSON path (``$.data...``) of the first
        problem. Write it with the helpers of :mod:`meeple.engine.validation`. The default
        checks what the components of :attr:`state_class` say (when it has them), else
        nothing (a template game)."""
        if self.state_class is not None:
            self.state_class.components().validate(self, data)


#: What a game's ``encoding`` defines (see ``Game.encoding``).
ENCODING_FUNCTIONS = ("action_texts", "observation_shape", "observation_tensor")

#: The parts of a game definition that are functions: kept as plain functions on the class
#: (``staticmethod``), so ``game.renderer(game, view)`` calls the function as declared.
_FUNCTION_PARTS = ("renderer", "board", "evaluator", "decisions", "scenario")


def _rebuild_game(cls: type[Game], variant: str, players: int, params: dict[str, Any]) -> Game:
    return cls(variant=variant, players=players, **params)
