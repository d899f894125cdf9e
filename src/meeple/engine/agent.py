"""Agents and the bot base class.

An agent picks an action from its seat's view and legal actions, never from the state
(engine-patterns 5). :class:`Bot` gives every bot its own random stream derived from the
playtest seed, the bot's name and its seat (rules-questions X-1), so a bot's thinking never
changes the game's chance outcomes. Game-specific bots live in their game's package and derive
from :class:`Bot`; game-agnostic bots live in ``meeple.bots``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from meeple.engine.rng import derive_seed

if TYPE_CHECKING:
    from meeple.engine.action import Action
    from meeple.engine.game import Game
    from meeple.engine.talk import Message


class Agent(Protocol):
    """Anything that picks an action from a view: bots and human front ends."""

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Return one of ``legal_actions`` given the seat's ``view``."""
        ...


class Bot(ABC):
    """Base class of bots.

    Args:
        game: the game spec (public: rules and parameters, never a state).
        seat: the seat this bot plays.
        seed: the playtest's seed; the bot's stream is ``derive_seed(seed, "bot", name, seat)``.
    """

    #: The name used in ``--bots`` lists and reports.
    name: ClassVar[str] = "bot"
    #: Weights a bot name may override (``heuristic@DECAY=0.5``, see ``meeple.bots.make_bot``):
    #: the name of a class attribute the bot reads as ``self.NAME``, with the range an
    #: optimiser should search, ``(low, high)``. Empty: nothing to tune.
    tunable: ClassVar[Mapping[str, tuple[float, float]]] = {}
    #: The actions the last :meth:`choose_best` found equally good (the one it returned among
    #: them), or ``None``. An imitation learner reads them as the teacher's equally good
    #: choices (``meeple.adapters.imitation``); set it to ``None`` before :meth:`act` to tell
    #: whether that call chose through :meth:`choose_best`.
    ties: Sequence[Action] | None = None

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(derive_seed(seed, "bot", self.name, seat))

    @abstractmethod
    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` (never empty) from this seat's ``view``."""

    def choose_best(self, actions: Sequence[Action], values: Sequence[float],
                    tolerance: float = 1e-9) -> Action:
        """One of the ``actions`` whose value is within ``tolerance`` of the highest, drawn
        uniformly from this bot's stream (one ``random()`` call, none when a single action is
        that good); the equally good ones are kept as :attr:`ties`.

        Args:
            actions: the candidates (never empty).
            values: one value per candidate, same order (higher is better, any scale).
            tolerance: how far below the highest value still counts as equally good (>= 0).
        Raises:
            ValueError: if ``actions`` is empty or ``values`` has another length.
        """
        floor = max(values) - tolerance
        best = [a for v, a in zip(values, actions, strict=True) if v >= floor]
        self.ties = best
        return best[0] if len(best) == 1 else best[int(self.rng.random() * len(best))]

    def action_values(self, view: Mapping[str, Any],
                      legal_actions: Sequence[Action]) -> Sequence[float] | None:
        """This bot's value of each of ``legal_actions`` (same order; higher is better, any
        scale), or ``None`` when the bot does not rank moves (the default). Search bots use a
        ranking to order and prune their candidates (progressive widening)."""
        return None

    def hear(self, message: Message) -> None:
        """Receive a table-talk message visible to this seat (default: ignore it)."""
        return None
