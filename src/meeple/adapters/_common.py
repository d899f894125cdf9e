"""What the three adapters share: loading an encoded game, codes, masks, step bounds.

Nothing here imports a peer library; numpy only. See docs/adapters/ for the conventions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from meeple.engine import codes
from meeple.engine.errors import IllegalActionError, MeepleError, ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import game_class, game_names, load_game
from meeple.engine.stepwise import StepChoice, step_codes
from meeple.engine.tensor import observation_bounds

#: Engine steps per seat per length unit assumed when a game's encoding does not state its own
#: bound (``max_steps(game)``): measured random games take at most about 4 (Ozymandias
#: Campaign: 11 steps a round with 4 seats), so this is far above, but not a proof.
FALLBACK_STEPS_PER_SEAT_UNIT = 64

#: How an adapter treats an action code that is not legal now: ``"random"`` replaces it with a
#: uniformly drawn legal action (from the environment's own seeded stream) and flags
#: ``info["illegal_action"]``; ``"raise"`` raises :class:`IllegalActionError`.
ILLEGAL_POLICIES = ("random", "raise")


def encoded_game_names() -> list[str]:
    """Registered games that declare an encoding (the ones the adapters can present)."""
    return [name for name in game_names() if game_class(name).encoding]


def encoded_game(game: Game | str, **params: Any) -> Game:
    """``game`` itself, or ``load_game(game, **params)`` for a name (``variant`` and
    ``players`` may be among ``params``).

    Raises:
        NotImplementedError: if the game declares no encoding (no action table to offer).
        ParameterError, UnknownGameError: as ``load_game``.
    """
    if isinstance(game, str):
        game = load_game(game, **params)
    elif params:
        raise ParameterError("pass parameters with a game name, not with a loaded game")
    if not game.encoding:
        raise NotImplementedError(
            f"{game.name} declares no encoding (Game.encoding), so it has no fixed action "
            "table or observation tensor for the adapters")
    return game


def parse_param_text(game_name: str, text: str) -> dict[str, Any]:
    """Read ``"key:value;key:value"`` (the form OpenSpiel game strings can carry) into
    parameter overrides, each validated by the game's declared parameter.

    Raises:
        ParameterError: for a malformed pair, an unknown name or a value out of range.
    """
    declared = {p.name: p for p in game_class(game_name).parameters}
    out: dict[str, Any] = {}
    for pair in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = pair.partition(":")
        key = key.strip()
        if not sep or key not in declared:
            known = ", ".join(sorted(declared))
            raise ParameterError(f"cannot read {pair!r} in params {text!r}: write "
                                 f"'name:value;name:value' with names among {known}")
        out[key] = declared[key].validate(value.strip())
    return out


def param_text(game: Game) -> str:
    """The parameters of ``game`` that differ from its variant's values, as
    ``"key:value;..."`` (inverse of :func:`parse_param_text`)."""
    base = game.variant_params()
    parts = []
    for key, value in game.params.items():
        if value != base[key]:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{key}:{shown}")
    return ";".join(parts)


def max_steps(game: Game) -> int:
    """An upper bound on the engine steps (``apply_actions`` calls, one per decision) of one
    playthrough: the encoding's ``max_steps(game)`` where it defines one, else
    ``capabilities.max_length * players * FALLBACK_STEPS_PER_SEAT_UNIT``."""
    own = getattr(game.encoding, "max_steps", None)
    if own is not None:
        return int(own(game))
    return int(game.capabilities.max_length) * game.players * FALLBACK_STEPS_PER_SEAT_UNIT


def legal_codes(game: Game, legal: Sequence[Any]) -> list[int]:
    """The codes of ``legal`` (one seat's legal actions), ascending, as a new list
    (:func:`meeple.engine.codes.legal_codes`)."""
    return list(codes.legal_codes(game, legal))


def action_from_code(game: Game, code: int, seat: int) -> Any:
    """``game.action_from_code(code, seat)``, memoised per game instance
    (:func:`meeple.engine.codes.action_of_code`).

    Raises:
        ActionParseError: as ``Game.action_from_code``.
    """
    return codes.action_of_code(game, code, seat)


def action_mask(game: Game, legal: Sequence[Any], size: int | None = None) -> np.ndarray:
    """An int8 vector of ``size`` (default ``num_distinct_actions``), 1 at legal codes."""
    mask = np.zeros(game.num_distinct_actions() if size is None else size, dtype=np.int8)
    mask[legal_codes(game, legal)] = 1
    return mask


def pick_action(game: Game, state: Any, seat: int, code: Any, policy: str,
                rng: random.Random) -> tuple[Any, bool]:
    """The legal action of ``seat`` that ``code`` names, and whether it was replaced.

    An integer-like code outside the table or not legal now is, by ``policy``, replaced with a
    uniformly random legal action drawn from ``rng`` (``"random"``) or refused (``"raise"``).

    Raises:
        IllegalActionError: under ``"raise"`` for a code that is not legal now.
    """
    legal = state.legal_actions(seat)
    action = None
    try:
        number = int(code)
        if 0 <= number < game.num_distinct_actions():
            candidate = action_from_code(game, number, seat)
            if candidate in legal:
                action = candidate
    except (TypeError, ValueError, MeepleError):
        action = None
    if action is not None:
        return action, False
    if policy == "raise":
        raise IllegalActionError(f"seat {seat} cannot play code {code!r} now; legal codes: "
                                 f"{legal_codes(game, legal)}")
    return rng.choice(legal), True


def view_text(view: Mapping[str, Any]) -> str:
    """A seat's view as canonical JSON text (sorted keys, no spaces): equal views, equal text."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def check_policy(illegal: str) -> str:
    """``illegal`` if it is one of :data:`ILLEGAL_POLICIES`.

    Raises:
        ParameterError: naming the policies.
    """
    if illegal not in ILLEGAL_POLICIES:
        raise ParameterError(
            f"illegal = {illegal!r}: expected one of {', '.join(ILLEGAL_POLICIES)}")
    return illegal


def render_text(game: Game, view: Mapping[str, Any]) -> str:
    """``view`` drawn by the game's text renderer as plain text (markup removed), or its JSON
    when the game has no renderer; for the environments' ``render_mode="ansi"``."""
    renderer = game.text_renderer()
    if renderer is None:
        return view_text(view)
    from rich.text import Text

    return Text.from_markup(renderer(game, view)).plain


def seed_stream(seed: int | None, previous: random.Random | None) -> random.Random:
    """The environment's stream of game seeds after ``reset(seed=seed)``: a new stream seeded
    by ``seed``, else the previous one, else one seeded from the operating system."""
    if seed is not None:
        return random.Random(seed)
    return previous if previous is not None else random.Random()


#: ``actions="auto"`` gives a game the step-wise codes when its action table has more codes
#: than this (Damocles, the Ozymandias market, Epoch Ellipse), else the table's codes.
COMPACT_THRESHOLD = 512

#: The action encodings the Gymnasium and PettingZoo adapters offer (``actions=``).
ACTION_ENCODINGS = ("auto", "compact", "full")


def action_coder(game: Game, actions: str = "auto") -> FullCoder:
    """How an environment turns integer codes into ``game``'s actions: :class:`FullCoder` (one
    code per action of ``Game.action_table``) for ``actions="full"``, :class:`CompactCoder`
    (step-wise codes, :mod:`meeple.engine.stepwise`) for ``"compact"``; ``"auto"`` picks
    compact when the table has more than :data:`COMPACT_THRESHOLD` codes.

    Raises:
        ParameterError: for another ``actions`` value.
    """
    if actions not in ACTION_ENCODINGS:
        raise ParameterError(f"actions = {actions!r}: expected one of "
                             f"{', '.join(ACTION_ENCODINGS)}")
    if actions == "auto":
        actions = "compact" if game.num_distinct_actions() > COMPACT_THRESHOLD else "full"
    return CompactCoder(game) if actions == "compact" else FullCoder(game)


class FullCoder:
    """Codes of the game's whole action table: one code, one action, applied at once.

    Attributes:
        game: the game; ``kind``: ``"full"``; ``size``: the number of codes.
    """

    kind = "full"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.size = game.num_distinct_actions()

    def reset(self) -> None:
        """Forget actions being composed (a new playthrough)."""

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The observation's lowest and highest values (flat float32 arrays)."""
        return observation_bounds(self.game)

    def observation(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation: the encoding of its view (flattened)."""
        return self.game.observation_tensor(state.view(seat)).reshape(-1)

    def mask(self, state: Any, seat: int, size: int | None = None) -> np.ndarray:
        """An int8 vector of ``size`` (default :attr:`size`), 1 at ``seat``'s legal codes now
        (all 0 when it does not act)."""
        return action_mask(self.game, state.legal_actions(seat), self.size if size is None
                           else size)

    def composing(self, seat: int) -> bool:
        """Whether ``seat`` has chosen part of an action (never, with whole-action codes)."""
        return False

    def pick(self, state: Any, seat: int, code: Any, policy: str, rng: random.Random
             ) -> tuple[Any, bool]:
        """The action ``code`` completes for ``seat`` (None while more steps are pending) and
        whether the code was replaced by a random legal one (see :func:`pick_action`).

        Raises:
            IllegalActionError: under ``policy="raise"`` for a code not legal now.
        """
        return pick_action(self.game, state, seat, code, policy, rng)


class CompactCoder(FullCoder):
    """Step-wise codes (:mod:`meeple.engine.stepwise`): an action is chosen in a few
    sub-decisions over a vocabulary of ``size`` codes; the observation ends with the pending
    sub-decision (:meth:`~meeple.engine.stepwise.StepCodes.pending`)."""

    kind = "compact"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.steps = step_codes(game)
        self.size = self.steps.size
        self._choices: dict[int, tuple[Any, StepChoice]] = {}

    def reset(self) -> None:
        self._choices = {}

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low, high = observation_bounds(self.game)
        extra = self.steps.pending_size
        return (np.concatenate([low, np.zeros(extra, np.float32)]),
                np.concatenate([high, np.ones(extra, np.float32)]))

    def _choice(self, state: Any, seat: int) -> StepChoice | None:
        legal = state.legal_actions(seat)
        if not legal:
            return None
        held = self._choices.get(seat)
        if held is not None and (held[0] is legal or held[0] == legal):
            return held[1]
        choice = self.steps.choice(legal)
        self._choices[seat] = (legal, choice)
        return choice

    def observation(self, state: Any, seat: int) -> np.ndarray:
        held = self._choices.get(seat)
        prefix = held[1].prefix if held is not None and state.legal_actions(seat) else ()
        return np.concatenate([super().observation(state, seat), self.steps.pending(prefix)])

    def mask(self, state: Any, seat: int, size: int | None = None) -> np.ndarray:
        choice = self._choice(state, seat)
        if choice is None:
            return np.zeros(self.size if size is None else size, dtype=np.int8)
        return choice.mask(size)

    def composing(self, seat: int) -> bool:
        held = self._choices.get(seat)
        return held is not None and bool(held[1].prefix)

    def pick(self, state: Any, seat: int, code: Any, policy: str, rng: random.Random
             ) -> tuple[Any, bool]:
        """The action ``code`` completes for ``seat`` (None while a sub-decision is still
        pending) and whether it was replaced: a code not legal at this sub-decision is
        replaced by a uniformly random legal code of it (``policy="random"``).

        Raises:
            IllegalActionError: under ``policy="raise"`` for a code not legal now.
        """
        choice = self._choice(state, seat)
        if choice is None:
            raise IllegalActionError(f"seat {seat} does not act now")
        legal = choice.legal_codes()
        number = None
        try:
            number = int(code)
        except (TypeError, ValueError):
            pass
        replaced = number not in legal
        if replaced:
            if policy == "raise":
                raise IllegalActionError(f"seat {seat} cannot play step code {code!r} now; "
                                         f"legal codes: {legal}")
            number = rng.choice(legal)
        action = choice.choose(number)
        if action is not None:
            del self._choices[seat]
        return action, replaced
