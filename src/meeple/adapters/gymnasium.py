"""One seat of a meeple game as a Gymnasium environment, the other seats played by meeple bots.
Needs the extra ``meeple[rl]``.

``make(game, seat=0, opponents="random", **params)``: ``game`` is a meeple game name (then
``variant``, ``players`` and rule parameters may be passed) or a loaded game. Conventions
(docs/adapters/gymnasium.md):

* Observation: ``Game.observation_tensor(state.view(seat))`` (float32 ``Box`` whose bounds are
  the game's limits, ``meeple.engine.tensor.observation_bounds``), from the learner's view only.
  Action (``actions=``): ``"full"``, an integer code of the game's action table; ``"compact"``,
  a step code (:mod:`meeple.engine.stepwise`): the action is chosen over a few steps (a
  sub-decision each, the bots wait), and the observation ends with the pending sub-decision;
  ``"auto"`` (default) is compact for tables of more than 512 codes. ``Discrete``;
  ``info["action_mask"]`` (int8) and :meth:`MeepleEnv.action_masks` mark the legal codes.
* ``step`` applies the learner's action, then lets the bots act until the learner must decide
  again or the game ends. At a simultaneous decision the bots submit first; their submissions
  stay hidden from the learner's view until the decision resolves (the engine's pending
  submissions), so moving first is no advantage to them and no information to it.
* Reward: the learner's ``State.returns()`` (win share in 0..1) when the game ends, 0 before.
  ``terminated`` when the game ends by its rules, ``truncated`` when it hits its length cap.
* A code that is not legal now is replaced by a uniformly random legal action (from the
  environment's seeded stream) and ``info["illegal_action"]`` is True; ``illegal="raise"``
  raises :class:`~meeple.engine.errors.IllegalActionError` instead.
* ``reset(seed=s)`` plays the meeple playthrough of seed ``s`` (the bots' streams derive from it
  too); ``reset()`` draws the next seed from the environment's ``np_random``.

Importing this module registers ``meeple/<game>-v0`` with Gymnasium for every registered game
with an encoding (:func:`register_envs`), so ``gymnasium.make("meeple/damocles-v0", seat=0,
opponents="random")`` works too (the environment then has a ``spec``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from meeple.adapters._common import (
    action_coder,
    check_policy,
    encoded_game,
    render_text,
)
from meeple.bots import make_bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed


def make(game: Game | str, seat: int = 0, opponents: str | Sequence[str] = "random", *,
         render_mode: str | None = None, illegal: str = "random", actions: str = "auto",
         **params: Any) -> MeepleEnv:
    """The single-agent environment of ``seat`` against bots.

    Args:
        game: a meeple game or its name (then ``params`` are ``load_game`` arguments).
        seat: the learner's seat.
        opponents: a bot name (``meeple.bots.make_bot``) for every other seat, or one name per
            other seat in seat order.
        render_mode: None or ``"ansi"`` (the learner's view as text).
        illegal: ``"random"`` or ``"raise"`` (module docstring).
        actions: ``"auto"``, ``"compact"`` or ``"full"`` (module docstring).
    Raises:
        NotImplementedError: for a game without an encoding.
        ParameterError: for a bad seat, opponent list, bot name, parameter or ``actions``.
    """
    return MeepleEnv(encoded_game(game, **params), seat=seat, opponents=opponents,
                     render_mode=render_mode, illegal=illegal, actions=actions)


class MeepleEnv(gymnasium.Env):
    """A meeple game seen from one seat (module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: Game, seat: int = 0, opponents: str | Sequence[str] = "random",
                 render_mode: str | None = None, illegal: str = "random",
                 actions: str = "auto") -> None:
        if type(seat) is not int or not 0 <= seat < game.players:
            raise ParameterError(f"seat {seat!r} is not a seat of this {game.players}-seat game")
        others = [s for s in range(game.players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ParameterError(f"{len(names)} opponents for {len(others)} other seats")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode = {render_mode!r}: only 'ansi' (text) is offered")
        for name, other in zip(names, others, strict=True):
            make_bot(name, game, other, 0)  # fails early on an unknown bot name
        self.game = game
        self.seat = seat
        self.opponents = dict(zip(others, names, strict=True))
        self.render_mode = render_mode
        self.illegal = check_policy(illegal)
        self.coder = action_coder(game, actions)
        low, high = self.coder.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.coder.size)
        self.state: Any = None
        self._bots: dict[int, Any] = {}
        self._rng = random.Random(0)

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a playthrough and play the bots up to the learner's first decision."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2 ** 62))
        self.state = self.game.new_initial_state(game_seed)
        self._bots = {s: make_bot(name, self.game, s, game_seed)
                      for s, name in self.opponents.items()}
        self._rng = random.Random(derive_seed(game_seed, "gymnasium"))
        self.coder.reset()
        self._play_bots()
        return self._observation(), self._info(False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner plays code ``action``; once it completes an action, the bots play until
        its next decision (with step codes, a step that leaves a sub-decision pending returns
        at once with reward 0)."""
        if self.state is None or self.state.is_terminal():
            raise RuntimeError("the game is over (or not started): call reset()")
        chosen, replaced = self.coder.pick(self.state, self.seat, action, self.illegal,
                                           self._rng)
        if chosen is None:
            return self._observation(), 0.0, False, False, self._info(replaced)
        self.state.apply_action(chosen, self.seat)
        self._play_bots()
        over = self.state.is_terminal()
        truncated = over and self.state.is_truncated()
        reward = float(self.state.returns()[self.seat]) if over else 0.0
        return self._observation(), reward, over and not truncated, truncated, \
            self._info(replaced)

    def action_masks(self) -> np.ndarray:
        """The learner's legal codes now (at the pending sub-decision, with step codes) as a
        bool vector (sb3-contrib's MaskablePPO reads this method)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``); None otherwise."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return render_text(self.game, self.state.view(self.seat))

    # ---------------------------------------------------------------------------- helpers
    def _play_bots(self) -> None:
        state, seat = self.state, self.seat
        while not state.is_terminal():
            acting = state.current_players()
            self._before_bots(acting)
            for other in acting:
                if other != seat:
                    bot = self._bots[other]
                    state.apply_action(bot.act(state.view(other), state.legal_actions(other)),
                                       other)
            if seat in acting:
                return

    def _before_bots(self, acting: tuple[int, ...]) -> None:
        """Called before the bots among ``acting`` (the seats acting now) play; a subclass
        may record what the learner's seat sees at this point. Does nothing here."""

    def _mask(self) -> np.ndarray:
        return self.coder.mask(self.state, self.seat)

    def _observation(self) -> np.ndarray:
        return self.coder.observation(self.state, self.seat)

    def _info(self, replaced: bool) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if replaced:
            info["illegal_action"] = True
        return info


def register_envs() -> list[str]:
    """Register ``meeple/<game>-v0`` (entry point :func:`make`, the game's name as ``game``)
    with Gymnasium for every registered game that declares an encoding; ids already registered
    are kept. Returns the ids."""
    from meeple.engine.registry import game_class, game_names

    ids = []
    for name in game_names():
        if not game_class(name).encoding:
            continue
        env_id = f"meeple/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="meeple.adapters.gymnasium:make",
                               kwargs={"game": name})
        ids.append(env_id)
    return ids


register_envs()
