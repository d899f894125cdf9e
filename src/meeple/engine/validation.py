"""Checking a saved state before it is loaded: JSON, shape and types, then game invariants.

``Game.state_from_json`` runs, in order: JSON parsing, the envelope (:class:`Envelope`: format,
game, variant, players, params, seed, pending submissions, chance stream), the game's hook
``Game._validate_data(data)`` on the ``"data"`` object, the game's own restore, and last the
generic checks of :func:`check_loaded` (every acting seat has legal actions, pending
submissions are legal, views and results compute). The first problem raises
:class:`~meeple.engine.errors.StateError` whose ``path`` is a JSON path into the state document
(``$.data.hands[2][0]``) and whose message says what was expected.

The helpers here are what a game's ``_validate_data`` is written with:

* :func:`check_model`: shape and types with a pydantic model (strict: ``1`` is not ``"1"``, a
  bool is not a number), the first pydantic error turned into a path and a message;
* :func:`check_pieces`: each physical piece (card id, tile) in exactly one place, every id
  known, none missing;
* :func:`check_count`, :func:`check_len`, :func:`check_that`: one number in range, one list's
  length, any other invariant.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple.engine.errors import MeepleError, StateError
from meeple.engine.rng import rng_from_json
from meeple.engine.state import STATE_FORMAT

if TYPE_CHECKING:
    from meeple.engine.game import Game
    from meeple.engine.state import State


#: A pydantic config for state models: strict types, no unknown keys.
STRICT = ConfigDict(strict=True, extra="forbid")

NonNegInt = Annotated[int, Field(ge=0)]


def json_path(base: str, *parts: Any) -> str:
    """``base`` extended by keys (``.key``) and indices (``[i]``): ``json_path("$.data",
    "hands", 2, 0) == "$.data.hands[2][0]"``."""
    out = base
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(str(part))}]"
    return out


def check_that(ok: bool, path: str, message: str) -> None:
    """Raise ``StateError(path, message)`` unless ``ok``."""
    if not ok:
        raise StateError(path, message)


def check_model(model: type[BaseModel], value: Any, path: str) -> BaseModel:
    """Validate ``value`` against the pydantic ``model`` (use :data:`STRICT` in its config).

    Returns:
        The validated model instance.
    Raises:
        StateError: at the path of the first pydantic error, e.g. ``$.data.deck[3]: expected
            a valid string, got 2.5``; a missing key says so, an unknown key is named.
    """
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        loc = [p for p in error["loc"] if not (isinstance(p, str) and p.startswith(("function-",
                                                                                 "list[", "int")))]
        where = json_path(path, *loc)
        kind = error["type"]
        if kind == "missing":
            raise StateError(where, "this key is missing") from None
        if kind == "extra_forbidden":
            raise StateError(where, "unknown key (not part of this game's state)") from None
        got = error.get("input")
        shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
        raise StateError(where, f"expected {_lower_first(error['msg'])}, got {shown}") from None


def _lower_first(text: str) -> str:
    text = text.removeprefix("Input should be ").removeprefix("Value error, ")
    return text[:1].lower() + text[1:]


def check_len(value: Sequence[Any], expected: int, path: str, what: str) -> None:
    """Raise unless ``len(value) == expected`` (``what``: e.g. ``"one hand per seat"``)."""
    check_that(len(value) == expected, path, f"expected {expected} entries ({what}), "
                                             f"found {len(value)}")


def check_count(value: int, low: int, high: int | None, path: str, what: str = "") -> None:
    """Raise unless ``low <= value <= high`` (``high`` None: no upper bound)."""
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise StateError(path, f"expected {bound}{' (' + what + ')' if what else ''}, "
                               f"got {value}")


def check_pieces(places: Iterable[tuple[str, Iterable[Hashable]]], known: Collection[Hashable],
                 what: str, *, all_placed: bool = True, where: str = "") -> None:
    """Each piece in exactly one place: every id in ``places`` (pairs of a JSON path and the
    list found there) is in ``known``, appears once over all the places, and (if
    ``all_placed``) every known id appears.

    Raises:
        StateError: an unknown id or a repeat (at its element's path, naming the other place)
            or a missing piece (at ``where``, naming the piece and the places looked in).
    """
    seen: dict[Hashable, str] = {}
    names = []
    for base, items in places:
        names.append(base)
        for index, item in enumerate(items):
            here = f"{base}[{index}]"
            if item not in known:
                raise StateError(here, f"unknown {what} {item!r}")
            if item in seen:
                raise StateError(here, f"{what} {item!r} is already at {seen[item]}; each "
                                       f"{what} is in exactly one place")
            seen[item] = here
    if all_placed and len(seen) != len(known):
        missing = sorted((k for k in known if k not in seen), key=str)
        raise StateError(where or names[0] if names else "$",
                         f"{what} {missing[0]!r} is in none of {', '.join(names)} "
                         f"({len(missing)} missing); each {what} is in exactly one place")


class Envelope(BaseModel):
    """The state document around a game's data: ``State.to_json`` output."""

    model_config = STRICT

    format: Literal["meeple-state/1"]
    game: str
    variant: str
    players: int
    params: dict[str, Any]
    seed: NonNegInt
    pending: dict[str, str] = {}
    rng: list[Any] | None = None
    data: dict[str, Any]


class _Rng(BaseModel):
    model_config = STRICT

    version: Literal[3]
    internal: Annotated[list[Annotated[int, Field(ge=0, lt=2**32)]],
                        Field(min_length=625, max_length=625)]
    gauss: float | None


def parse_document(game: Game, payload: str | bytes | Mapping[str, Any]) -> Envelope:
    """The checked envelope of a state document (JSON text or its parsed dict) for ``game``.

    Raises:
        StateError: not JSON (truncated text), not an object, a missing or wrong-typed key,
            another game, variant, seat count or parameters than ``game``'s.
    """
    if isinstance(payload, (str, bytes)):
        try:
            payload = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise StateError("$", f"expected a JSON state document, the text is not JSON "
                                  f"({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(payload, Mapping):
        raise StateError("$", f"expected a JSON object (a meeple state), got "
                              f"{type(payload).__name__}")
    if payload.get("format") != STATE_FORMAT:
        raise StateError("$.format", f"not a meeple state: expected {STATE_FORMAT!r}, got "
                                     f"{payload.get('format')!r}")
    envelope = check_model(Envelope, dict(payload), "$")
    spec = game.spec()
    for key in ("game", "variant", "players", "params"):
        if getattr(envelope, key) != spec[key]:
            raise StateError(f"$.{key}", f"state is for {key} {getattr(envelope, key)!r} but "
                                         f"this game has {spec[key]!r}")
    if envelope.rng is not None:
        check_model(_Rng, dict(zip(("version", "internal", "gauss"), envelope.rng,
                                   strict=False)), "$.rng")
        check_that(len(envelope.rng) == 3, "$.rng", "expected [version, internal state, gauss]")
    elif game.capabilities.chance:
        raise StateError("$.rng", "expected the chance stream of a game with chance, got null")
    return envelope


def check_loaded(state: State, pending: Mapping[str, str]) -> None:
    """The generic checks after a game restored ``state``: it can be played on.

    Pending submissions (``pending``: seat text -> action text) belong to acting seats, not
    all of them, and are legal; every acting seat has legal actions; the views, results and
    length compute. A game's own checks should make the last ones unreachable; they stop a
    state that slipped through from failing later with a non-meeple exception.

    Raises:
        StateError: naming the first problem.
    """
    game = state.game
    acting = state._acting
    if pending:
        check_that(len(pending) < len(acting), "$.pending",
                   f"expected fewer submissions than the {len(acting)} acting seats "
                   f"{list(acting)}, got {len(pending)}")
    for text, action_text in pending.items():
        where = json_path("$.pending", text)
        check_that(text.isdigit() and int(text) in acting, where,
                   f"expected one of the acting seats {list(acting)}")
        seat = int(text)
        try:
            action = game.parse_action(action_text, seat)
            state._check(seat, action)
        except MeepleError as exc:
            raise StateError(where, f"expected a legal submission: {exc}") from None
        state._pending[seat] = action
    state._legal = None
    try:
        for seat in acting:
            check_that(bool(state.legal_actions(seat)) or seat in state._pending, "$.data",
                       f"seat {seat} acts but has no legal action")
        state.length()
        state.returns()
        state.scores()
        for seat in (None, *range(game.players)):
            state.view(seat)
    except MeepleError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure here means an impossible state
        raise StateError("$.data", f"the state is inconsistent ({type(exc).__name__}: "
                                   f"{exc}); fields disagree") from None
    state._legal = None


def restore_state(game: Game, payload: str | bytes | Mapping[str, Any]) -> State:
    """Rebuild a state of ``game`` from :meth:`State.to_json` output (see
    ``Game.state_from_json``), checking it first (:mod:`meeple.engine.validation`).

    Raises:
        StateError: naming the JSON path of the first problem: not JSON, another game,
            variant, players or parameters, a wrong shape or type, a broken game invariant
            (``Game._validate_data``), or a state that cannot be played on.
    """
    envelope = parse_document(game, payload)
    data = envelope.data
    game._validate_data(data)
    try:
        state = game._state_from_data(data)
        state.seed = envelope.seed
        state._rng = None if envelope.rng is None else rng_from_json(envelope.rng)
    except StateError:
        raise
    except MeepleError as exc:
        raise StateError("$.data", str(exc)) from None
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        raise StateError("$.data", f"malformed state ({type(exc).__name__}: {exc})") from None
    state._pending = {}
    check_loaded(state, envelope.pending)
    return state
