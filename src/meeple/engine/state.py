"""The state protocol: one point in a playthrough, cheap to clone.

The public methods here are the whole API that bots, the lab, the adapters and the interfaces
use. They handle terminal states, whose turn it is, legality and simultaneous submissions once,
for every game (engine-patterns 3 and 8); a game implements only the underscored hooks.

Simultaneous decisions (rules-questions X-2): when ``_acting`` holds several seats, each
submits privately, either all at once with :meth:`State.apply_actions` or one by one with
:meth:`State.apply_action` (as a web client would). Submitted-but-unresolved actions are held as
*pending*, hidden from other seats' views, and the game's transition runs once every acting seat
has submitted. A pending action cannot be changed.

The game contract, in short: keep ``self._acting`` (the seats that decide now, ascending; empty
exactly when the game is over) up to date from ``__init__`` and ``_apply``, list legal actions
in ``_legal_actions`` (or all acting seats' at once in ``_legal_tables``), and transition in
``_apply``. The base caches each decision's legal actions once, so ``legal_actions`` and the
legality check of ``apply_action(s)`` are dictionary look-ups (playouts and search call them
millions of times). A game may also override ``_playout`` (the loop of :meth:`State.playout`)
with a faster loop that draws and transitions exactly as the general one.

Narration: a game writes its event log (``events``, for views) only while ``narrate`` is true,
the default; a search turns it off on its own states (docs/engine.md, "Narration").
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine import checks, codes
from meeple.engine.action import Action
from meeple.engine.errors import (
    ArgumentError,
    GameOverError,
    IllegalActionError,
    NotAnActionError,
    NotYourTurnError,
    ParameterError,
)
from meeple.engine.persist import copied, jsonable
from meeple.engine.rng import chance_stream, copy_stream, rng_to_json

if TYPE_CHECKING:
    from meeple.engine.game import Game

STATE_FORMAT = "meeple-state/1"

#: One acting seat's legal actions: (the actions in order, a container for membership tests,
#: or None to build a ``frozenset`` of them only when a check needs one).
LegalEntry = tuple[Sequence["Action"], Collection["Action"] | None]


class State(ABC):
    """Base class of every game state. See the module docstring for the protocol."""

    __slots__ = ("game", "seed", "_rng", "_pending", "_acting", "_legal", "narrate")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A game overrides ``is_eliminated(seat)``; the seat check wraps its version here, once.
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("is_eliminated")
        if own is not None and not getattr(own, "_seat_checked", False):
            cls.is_eliminated = checks.seat_checked(own)

    def __init__(self, game: Game, seed: int) -> None:
        if type(seed) is not int or seed < 0:  # bool is refused too
            raise ParameterError(f"seed = {seed!r} must be a non-negative integer")
        self.game = game
        self.seed = seed
        self._rng: random.Random | None = None
        self._pending: dict[int, Action] = {}
        #: Seats that decide at this node, ascending; empty exactly when terminal. The game
        #: keeps it current.
        self._acting: tuple[int, ...] = ()
        #: This decision's legal tables (see ``_legal_tables``); None until first asked.
        self._legal: Mapping[int, LegalEntry] | None = None
        #: Whether the game writes its event log (module docstring); not saved in to_json.
        self.narrate = True

    # ------------------------------------------------------------------------ game hooks
    @abstractmethod
    def _legal_actions(self, seat: int) -> Sequence[Action]:
        """Legal actions of an acting ``seat``, in a deterministic order, never empty."""

    def _legal_tables(self) -> Mapping[int, LegalEntry]:
        """For every acting seat: its legal actions and a container of the same actions for
        membership tests (None here: the checks build a ``frozenset`` when they need one, and a
        search applying its own picks with :meth:`apply_legal` never does). Called at most
        once per decision; the result is never mutated, so a game may return a shared,
        memoised mapping. Override for speed."""
        tables = {}
        for seat in self._acting:  # a plain loop: a comprehension costs a frame in 3.11
            tables[seat] = (tuple(self._legal_actions(seat)), None)
        return tables

    def _shuffle_unseen(self) -> None:
        """Shuffle, with ``self.rng``, the piles whose order is future chance that no seat has
        seen (draw decks, tile stacks), for :meth:`reseed`. The default does nothing (a game
        without hidden piles); a game with them overrides it and says which piles."""
        return None

    def _illegal_reason(self, seat: int, action: Action) -> str:
        """Why ``action`` is illegal for ``seat`` (called only when it is). Override to explain."""
        return f"it is not among the {len(self._legal_actions(seat))} legal actions"

    @abstractmethod
    def _apply(self, joint: Mapping[int, Action]) -> None:
        """Apply the legal actions of every acting seat (one entry at a sequential decision)."""

    def is_terminal(self) -> bool:
        """Whether the playthrough is over (by the rules or by the length cap): no seat acts."""
        return not self._acting

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """One number per seat; at a terminal state the game's result, else all zeros."""

    @abstractmethod
    def length(self) -> int:
        """How long the playthrough has been, in the game's ``capabilities.length_unit``."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator), JSON-compatible values only."""

    @abstractmethod
    def _copy(self) -> State:
        """A copy of the game-specific fields (the base copies its own afterwards)."""

    @abstractmethod
    def _data(self) -> dict[str, Any]:
        """The game-specific fields as JSON-compatible data (the inverse of
        ``Game._state_from_data``)."""

    def winners(self) -> tuple[int, ...]:
        """Seats that share the best result at a terminal state; ``()`` before the end."""
        if not self.is_terminal():
            return ()
        r = self.returns()
        best = max(r)
        return tuple(s for s, v in enumerate(r) if v == best)

    def is_eliminated(self, seat: int) -> bool:
        """Whether ``seat`` is out of play for good before the end (interfaces use it to tell a
        person so); default False for games without elimination. A game's override gets its
        seat checked first.

        Raises:
            SeatError: if ``seat`` is not a seat of this game.
        """
        checks.seat(seat, self.game.players)
        return False

    is_eliminated._seat_checked = True  # type: ignore[attr-defined]

    def scores(self) -> tuple[float, ...]:
        """The game's own score per seat (points, energy...) for the lab's score statistics;
        defaults to :meth:`returns`."""
        return self.returns()

    def is_truncated(self) -> bool:
        """Whether the game ended by hitting ``capabilities.max_length`` (rules-questions X-5)."""
        return False

    def outcome(self) -> dict[str, Any]:
        """Game-specific details of the result at a terminal state, as JSON-compatible data
        (the lab stores them with each game's result); ``{}`` by default and before the end.

        A cooperative game (``capabilities.cooperative``) returns at least
        ``{"team_win": bool, "cause": str}``: whether the team won, and a short lowercase name
        of why the game ended, e.g. ``"recovered"`` for a win and ``"starvation"``,
        ``"combat"``, ``"collapse"`` or ``"curse"`` for a loss. A game that hit the length cap
        reports ``"cause": "truncation"`` (the lab counts every truncated game as lost to
        truncation unless ``team_win`` is true). Any further keys (e.g. the day the team fell,
        who survived) are kept as they are. The individual result of each seat stays in
        :meth:`returns` (positive: that seat survived, or won its share)."""
        return {}

    # ------------------------------------------------------------------------ public API
    @property
    def rng(self) -> random.Random:
        """The state's own chance stream, seeded from ``seed``; games draw only from it."""
        if self._rng is None:
            self._rng = chance_stream(self.seed)  # random.Random(derive_seed(seed, "chance"))
        return self._rng

    def reseed(self, seed: int, *, shuffle_unseen: bool = True) -> None:
        """Give this state new future chance: ``seed`` becomes its seed and its chance stream
        restarts from it (as a new game's would, ``derive_seed(seed, "chance")``); with
        ``shuffle_unseen`` the game's unseen piles are then shuffled from that stream
        (:meth:`_shuffle_unseen`), so the next cards drawn differ too. Everything else (hands,
        board, scores, whose turn, pending submissions) is kept. Used to play many games from
        one position (``meeple playtest --from``); the same seed gives the same state.

        Raises:
            ParameterError: ``seed`` is not a non-negative integer.
        """
        if type(seed) is not int or seed < 0:
            raise ParameterError(f"seed = {seed!r} must be a non-negative integer")
        self.seed = seed
        self._rng = chance_stream(seed)
        if shuffle_unseen:
            self._shuffle_unseen()
            self._legal = None  # legal tables never depend on a pile order; be safe

    def current_players(self) -> tuple[int, ...]:
        """Seats that must act now and have not yet submitted; ``()`` when terminal."""
        if self._pending:
            return tuple(s for s in self._acting if s not in self._pending)
        return self._acting

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """The legal actions of ``seat`` now, in a deterministic order.

        Args:
            seat: the seat asking; ``None`` means the only acting seat.
        Returns:
            A sequence (empty when ``seat`` is not to act, or the game is over).
        Raises:
            NotYourTurnError: if ``seat`` is None while several seats act.
            SeatError: if ``seat`` is neither None nor a seat of this game.
        """
        if type(seat) is int and not self._pending:  # the common case: an acting seat
            tables = self._legal
            if tables is None:
                tables = self._legal = self._legal_tables()
            entry = tables.get(seat)
            if entry is not None:
                return entry[0]
        if seat is None:
            seat = self._single_actor()
        elif type(seat) is not int or not 0 <= seat < self.game.players:
            seat = checks.seat(seat, self.game.players)
        tables = self._legal
        if tables is None:
            tables = self._legal = self._legal_tables()
        entry = tables.get(seat)
        if entry is None or (self._pending and seat in self._pending):
            return ()
        return entry[0]

    def apply_action(self, action: Action, seat: int | None = None) -> None:
        """One seat acts (at a simultaneous decision: submits, resolved once all have).

        Args:
            action: an action value of this game.
            seat: the acting seat; defaults to ``action.seat``, else to the only acting seat.
        Raises:
            NotAnActionError: ``action`` is not an :class:`Action`.
            SeatError: ``seat`` is neither None nor a seat of this game.
            GameOverError: the state is terminal.
            NotYourTurnError: ``seat`` is not among ``current_players()``.
            IllegalActionError: the action is not legal for that seat now.
            On any error the state is unchanged.
        """
        if not isinstance(action, Action):
            raise NotAnActionError(f"action must be an Action of {self.game.name} (parse "
                                   f"text with game.parse_action); got {checks.given(action)}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.game.players):
            seat = checks.seat(seat, self.game.players)
        acting = self._acting
        if not acting:
            raise GameOverError(f"the game is over; {action} cannot be applied")
        if seat is None:
            seat = action.seat if action.seat is not None else self._single_actor()
        elif action.seat is not None and action.seat != seat:
            raise IllegalActionError(f"{action} belongs to seat {action.seat}, not seat {seat}")
        if seat not in acting or seat in self._pending:
            raise NotYourTurnError(self._turn_message(seat))
        self._check(seat, action)
        if len(acting) == 1:
            self._resolve({seat: action})
            return
        self._pending[seat] = action
        if len(self._pending) == len(acting):
            joint, self._pending = self._pending, {}
            self._resolve(joint)

    def apply_actions(self, joint: Mapping[int, Action]) -> None:
        """Every seat still to act submits at once; the decision then resolves.

        Args:
            joint: one action per seat in ``current_players()``, no more, no fewer.
        Raises:
            ArgumentError: ``joint`` is not a mapping; its subclasses ``SeatError`` for a key
                that is not a whole number (an int out of range is a seat that does not act:
                ``NotYourTurnError``) and ``NotAnActionError`` for a value that is not an action.
            GameOverError, NotYourTurnError, IllegalActionError: as for :meth:`apply_action`;
            all actions are checked before any is applied, so on error nothing changes.
        """
        if type(joint) is dict and not self._pending and len(joint) == len(self._acting):
            # The common case first, with no side effect until it is known to hold: int
            # seats, each action in its seat's legal set. The tables hold exactly the acting
            # seats, so equal sizes and every key found make the keys the acting seats.
            tables = self._legal
            if tables is None:
                tables = self._legal = self._legal_tables()
            try:
                for seat, action in joint.items():  # _holds, inlined: the hottest check
                    if type(seat) is not int:
                        break
                    members = (entry := tables[seat])[1]
                    if action not in (frozenset(entry[0]) if members is None else members):
                        break
                else:
                    if joint:
                        self._legal = None
                        self._apply(joint)
                        return
            except (KeyError, TypeError):
                pass  # the full checks below name the error
        if not isinstance(joint, Mapping):
            raise ArgumentError(f"joint must be a mapping {{seat: action}}; got "
                                f"{checks.given(joint)}")
        players = self.game.players
        for seat in joint:
            if type(seat) is not int:  # a whole number out of range is a seat not to act
                joint = {s if type(s) is int else checks.key_seat(s, players): a
                         for s, a in joint.items()}
                break
        for action in joint.values():
            if not isinstance(action, Action):
                raise NotAnActionError(f"every value of joint must be an Action of "
                                       f"{self.game.name}; got {checks.given(action)}")
        acting = self._acting
        if not acting:
            raise GameOverError("the game is over; no actions can be applied")
        pending = self._pending
        wanted = [s for s in acting if s not in pending] if pending else acting
        # ``tables`` has exactly the acting seats, so with no pending seat, equal sizes and
        # every key found in it, the keys are exactly the acting seats.
        if len(joint) != len(wanted) or (pending and joint.keys() != set(wanted)):
            raise NotYourTurnError(self._joint_message(wanted, joint))
        tables = self._legal
        if tables is None:
            tables = self._legal = self._legal_tables()
        try:
            for seat, action in joint.items():
                if not _holds(tables[seat], action):
                    self._check(seat, action)  # raises with the reason
        except KeyError:
            raise NotYourTurnError(self._joint_message(wanted, joint)) from None
        except TypeError:  # an unhashable seat or action: let _check name it
            for seat, action in joint.items():
                if seat not in tables:
                    raise NotYourTurnError(self._joint_message(wanted, joint)) from None
                self._check(seat, action)
        if pending:
            joint = {**pending, **joint}
            self._pending = {}
        self._legal = None
        self._apply(joint)

    def apply_legal(self, joint: Mapping[int, Action]) -> None:
        """Apply ``joint`` (one action per seat still to act, each taken from this state's own
        ``legal_actions(seat)`` now) without checking it again: a search's step with its own
        picks (``playout`` skips the same checks). Anything else (a seat not to act or
        missing, an action from elsewhere) leaves the state undefined; use
        :meth:`apply_actions`, which checks and refuses."""
        if self._pending:
            joint = {**self._pending, **joint}  # as apply_action collects submissions
            self._pending = {}
        self._legal = None
        self._apply(joint)

    def legal_codes(self, seat: int | None = None) -> tuple[int, ...]:
        """The legal actions of ``seat`` now as action codes (indices of
        ``Game.action_table``), ascending; ``()`` when ``seat`` is not to act. Arguments and
        errors as :meth:`legal_actions`; also ``NotImplementedError`` for a game with no
        ``encoding`` (no action table). See :mod:`meeple.engine.codes`."""
        return codes.codec(self.game).entry(self.legal_actions(seat))[1]

    def apply_codes(self, joint: Mapping[int, int]) -> None:
        """:meth:`apply_actions` with action codes: ``{seat: code}`` for every seat still to
        act. A code legal for its seat now is applied as its action; anything else goes through
        the full checks and raises exactly as :meth:`apply_actions` would for that action
        (``ActionArgumentError`` for a code outside the table, ``ActionParseError`` for a code
        that names no action of that seat, ``SeatError`` for a key that is not a seat of this
        game). On error nothing changes."""
        codes.apply_codes(self, joint)

    def playout(self, rng: random.Random, max_steps: int | None = None) -> int:
        """Play uniformly random legal actions from here until the end (a rollout).

        Every acting seat draws from its legal actions with ``rng`` (the caller's stream, never
        the state's chance stream), pending submissions are kept, and the game's own
        transition runs exactly as through :meth:`apply_actions`; only the re-check of actions
        taken from the legal tables themselves is skipped. Used by search rollouts and the
        playout benchmark.

        Args:
            rng: the random stream to draw actions from (a ``random.Random``).
            max_steps: stop after this many steps even if not terminal (None: play to the end).
        Returns:
            The number of steps (joint actions) applied.
        Raises:
            ArgumentError: ``rng`` is not a ``random.Random`` or ``max_steps`` not an int >= 0.
        """
        checks.rng(rng)
        max_steps = checks.count(max_steps, "max_steps", allow_none=True)
        return self._playout(rng, float("inf") if max_steps is None else max_steps)

    def _playout(self, rng: random.Random, limit: float) -> int:
        """The loop of :meth:`playout` (arguments checked; ``limit`` may be infinite). A game
        may override it for speed; it must draw the same actions from ``rng`` (one uniform
        draw per acting seat in ascending seat order, as ``rng.choice`` of its legal actions
        would) and leave the same state as applying them through :meth:`apply_actions`."""
        if type(rng) is random.Random:  # draw as rng.choice does, without its two frames
            getrandbits = rng.getrandbits
        else:  # a subclass may draw differently: use its own choice
            getrandbits, choice = None, rng.choice
        steps = 0
        acting = self._acting
        while acting and steps < limit:
            tables = self._legal
            if tables is None:
                tables = self._legal_tables()
            joint = self._pending
            if joint:
                self._pending = {}
            else:
                joint = {}
            for seat in acting:  # a plain loop: a comprehension costs a frame in 3.11
                if seat not in joint:
                    legal = tables[seat][0]
                    if getrandbits is None:
                        joint[seat] = choice(legal)
                        continue
                    count = len(legal)  # random.Random._randbelow_with_getrandbits
                    bits = count.bit_length()
                    r = getrandbits(bits)
                    while r >= count:
                        r = getrandbits(bits)
                    joint[seat] = legal[r]
            self._legal = None
            self._apply(joint)
            steps += 1
            acting = self._acting
        return steps

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, as JSON-compatible data; ``None`` for a spectator.

        Always holds ``game``, ``seat``, ``to_act`` (seats yet to act), ``submitted`` (seats whose
        simultaneous choice is in but unresolved) and, for a seat that submitted, its own
        ``my_submission`` text; the game adds the rest. Another seat's pending choice never
        appears (rules-questions X-2, X-4).

        Raises:
            SeatError: if ``seat`` is not ``None`` or a seat of this game (also a
                ``ParameterError``).
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.game.players):
            seat = checks.seat(seat, self.game.players)
        out = {
            "game": self.game.name,
            "seat": seat,
            "to_act": list(self.current_players()),
            "submitted": sorted(self._pending),
        }
        if seat is not None and seat in self._pending:
            out["my_submission"] = str(self._pending[seat])
        out.update(self._view(seat))
        return out

    def clone(self) -> State:
        """An independent copy: applying actions to it never changes this state."""
        new = self._copy()
        new.game = self.game
        new.seed = self.seed
        new._acting = self._acting
        new._legal = self._legal
        new._pending = dict(self._pending)
        new._rng = None if self._rng is None else copy_stream(self._rng)
        new.narrate = self.narrate
        return new

    def to_json(self) -> dict[str, Any]:
        """The full state (including hidden parts and the chance stream) as JSON-compatible
        data; ``game.state_from_json`` reads it back to an equal state."""
        return {
            "format": STATE_FORMAT,
            **self.game.spec(),
            "seed": self.seed,
            "pending": {str(s): str(a) for s, a in sorted(self._pending.items())},
            # A game with chance always serialises its stream (so merely touching ``rng``
            # does not change the digest); a game without chance never has one.
            "rng": rng_to_json(self.rng) if self.game.capabilities.chance else None,
            "data": self._data(),
        }

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of :meth:`to_json`: equal digests, equal states."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def __repr__(self) -> str:
        status = "terminal" if self.is_terminal() else f"to act {list(self.current_players())}"
        return f"<{type(self).__name__} {self.game.name} length={self.length()} {status}>"

    # ----------------------------------------------------------------------- internals
    def _blank(self) -> State:
        """An uninitialised instance of this class, for ``_copy`` implementations."""
        return object.__new__(type(self))

    def _copy_fields(self, names: Iterable[str]) -> State:
        """A ``_copy`` for states made of plain fields: each named field copied deeply enough
        that the copy shares no list, dict or set with this state."""
        new = self._blank()
        for name in names:
            setattr(new, name, copied(getattr(self, name)))
        return new

    def _fields_data(self, names: Iterable[str],
                     convert: Mapping[str, Callable[[Any], Any]] | None = None) -> dict[str, Any]:
        """A ``_data`` for states made of plain fields: each named field as a JSON-compatible
        copy (tuples and sets become lists, sets sorted), after ``convert[name]`` if given."""
        out = {}
        for name in names:
            value = getattr(self, name)
            if convert and name in convert:
                value = convert[name](value)
            out[name] = jsonable(value)
        return out

    def _restore_fields(self, data: Mapping[str, Any], names: Iterable[str],
                        convert: Mapping[str, Callable[[Any], Any]] | None = None) -> None:
        """Set each named field from ``data`` (the inverse of :meth:`_fields_data`), through
        ``convert[name]`` if given.

        Raises:
            ParameterError: naming a missing or malformed field.
        """
        for name in names:
            try:
                value = data[name]
                value = convert[name](value) if convert and name in convert else copied(value)
            except (KeyError, TypeError, ValueError) as exc:
                raise ParameterError(f"malformed {self.game.name} state: field {name!r}: "
                                     f"{exc!r}") from None
            setattr(self, name, value)

    def _single_actor(self) -> int:
        acting = self.current_players()
        if len(acting) != 1:
            raise NotYourTurnError(
                f"seats {list(acting)} act now; say which seat"
                if acting
                else "the game is over; no seat acts"
            )
        return acting[0]

    @staticmethod
    def _joint_message(wanted: Sequence[int], joint: Mapping[Any, Any]) -> str:
        return (f"expected one action from each of seats {list(wanted)}, got seats "
                f"{sorted(joint, key=str)}")

    def _turn_message(self, seat: int) -> str:
        if seat in self._pending:
            return f"seat {seat} has already submitted this decision"
        return f"seat {seat} is not to act now; seats to act: {list(self.current_players())}"

    def _check(self, seat: int, action: Action) -> None:
        tables = self._legal
        if tables is None:
            tables = self._legal = self._legal_tables()
        entry = tables.get(seat)
        try:
            legal = entry is not None and _holds(entry, action)
        except TypeError:  # an unhashable non-action
            legal = False
        if not legal:
            text = str(action)  # "cannot play play R3" reads "cannot play R3"
            verb = "cannot" if text.startswith("play ") else "cannot play"
            raise IllegalActionError(
                f"seat {seat} {verb} {text}: {self._illegal_reason(seat, action)}")

    def _resolve(self, joint: Mapping[int, Action]) -> None:
        self._legal = None
        self._apply(joint)


def _holds(entry: LegalEntry, action: Any) -> bool:
    """Whether ``action`` is among ``entry``'s actions (a ``frozenset`` built for the test when
    the entry has no container). Raises TypeError for an unhashable ``action``."""
    members = entry[1]
    return action in (frozenset(entry[0]) if members is None else members)
