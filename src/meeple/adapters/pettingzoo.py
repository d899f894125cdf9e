"""Meeple games as PettingZoo environments. Needs the extra ``meeple[rl]``.

* ``env(game, **params)``: an AEC environment (agents act one at a time) for every game with an
  encoding; ``raw_env`` is the same without PettingZoo's order-enforcing wrapper.
* ``parallel_env(game, **params)``: a Parallel environment (every agent sends an action each
  step) for games with simultaneous decisions (``capabilities.simultaneous``).

``game`` is a meeple game name (then ``variant``, ``players`` and rule parameters may be passed)
or a loaded game. Conventions (docs/adapters/pettingzoo.md):

* Agents ``player_0 .. player_{n-1}`` are the seats; all stay until the game ends (a seat that
  is out of play is simply never selected).
* Observation: ``Game.observation_tensor(state.view(seat))`` from that seat's view only, in a
  ``Box`` bounded by the game's limits (``meeple.engine.tensor.observation_bounds``); the
  seat's int8 action mask is ``infos[agent]["action_mask"]`` (and :meth:`action_mask`).
  ``masks="observation"`` gives the older ``{"observation": ..., "action_mask": ...}`` dict
  instead (PettingZoo's ``api_test`` warns about dict observations outside its own games).
  Action (``actions=``): ``"full"``, an integer
  code of the game's action table (``Game.action_table``); ``"compact"``, a step code
  (:mod:`meeple.engine.stepwise`): a seat chooses its action over a few steps, one
  sub-decision each (AEC: it stays selected until its action is complete), and its observation
  ends with its pending sub-decision; ``"auto"`` (default) is compact for tables of more than
  512 codes. The mask marks the seat's legal codes now.
* AEC and simultaneous decisions: the acting seats are selected one after another (ascending);
  each submission is held by the engine as pending and hidden from the other seats' views
  until all have submitted and the decision resolves.
* Parallel: the action space has one extra code, the last (``wait``, ``env.wait``), the
  only legal action of a seat that does not act at this step; other codes from such a seat
  are ignored.
* Rewards: ``State.returns()`` (win shares) when the game ends, 0 before. A game cut by its
  length cap (``State.is_truncated()``) ends with truncations, otherwise terminations.
* A code that is not legal now is replaced by a uniformly random legal action (from the
  environment's seeded stream) and ``infos[agent]["illegal_action"]`` is True; pass
  ``illegal="raise"`` to get :class:`~meeple.engine.errors.IllegalActionError` instead.
* ``reset(seed=s)`` plays the meeple playthrough of seed ``s``; ``reset()`` without a seed draws
  the next seed from the stream the last seed started.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from meeple.adapters._common import (
    action_coder,
    check_policy,
    encoded_game,
    render_text,
    seed_stream,
)
from meeple.engine.errors import IllegalActionError, ParameterError
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed


def env(game: Game | str, *, render_mode: str | None = None, illegal: str = "random",
        actions: str = "auto", masks: str = "info", **params: Any) -> AECEnv:
    """The AEC environment of ``game`` in PettingZoo's order-enforcing wrapper.

    Raises:
        NotImplementedError: for a game without an encoding.
        ParameterError: for a bad parameter, render mode, ``illegal`` policy, ``actions``
            (``"auto"``, ``"compact"``, ``"full"``) or ``masks`` (``"info"``,
            ``"observation"``; module docstring).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode=render_mode,
                                                  illegal=illegal, actions=actions,
                                                  masks=masks, **params))


def raw_env(game: Game | str, *, render_mode: str | None = None, illegal: str = "random",
            actions: str = "auto", masks: str = "info", **params: Any) -> MeepleAECEnv:
    """The AEC environment of ``game`` without wrappers (see :func:`env`)."""
    return MeepleAECEnv(encoded_game(game, **params), render_mode=render_mode, illegal=illegal,
                        actions=actions, masks=masks)


def parallel_env(game: Game | str, *, render_mode: str | None = None, illegal: str = "random",
                 actions: str = "auto", masks: str = "info", **params: Any
                 ) -> MeepleParallelEnv:
    """The Parallel environment of a game with simultaneous decisions.

    Raises:
        ValueError: for a game without simultaneous decisions (use :func:`env`).
        NotImplementedError: for a game without an encoding.
    """
    return MeepleParallelEnv(encoded_game(game, **params), render_mode=render_mode,
                             illegal=illegal, actions=actions, masks=masks)


class _Base:
    """What both environments share: spaces, seeding, observations, the final rewards."""

    def _setup(self, game: Game, render_mode: str | None, illegal: str, extra: int,
               actions: str, masks: str) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode = {render_mode!r}: only 'ansi' (text) is offered")
        if masks not in ("info", "observation"):
            raise ParameterError(f"masks = {masks!r}: expected 'info' or 'observation'")
        self.masks = masks
        self.game = game
        self.render_mode = render_mode
        self.illegal = check_policy(illegal)
        self.metadata = {"name": f"meeple_{game.name.replace('-', '_')}_v0",
                         "render_modes": ["ansi"], "is_parallelizable": False}
        self.possible_agents = [f"player_{s}" for s in range(game.players)]
        self.seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        self.coder = action_coder(game, actions)
        self.size = self.coder.size + extra
        low, high = self.coder.bounds()
        self._observation_spaces = {agent: spaces.Box(low, high, dtype=np.float32) if
                                    masks == "info" else spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.size,), np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self.size)
                               for agent in self.possible_agents}
        self.state: Any = None
        self._seeds: random.Random | None = None
        self._rng = random.Random(0)

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object on every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object on every call)."""
        return self._action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        self._seeds = seed_stream(seed, self._seeds)
        game_seed = seed if seed is not None else self._seeds.getrandbits(62)
        self.state = self.game.new_initial_state(game_seed)
        self._rng = random.Random(derive_seed(game_seed, "pettingzoo"))
        self.coder.reset()

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal codes now (at its pending sub-decision, with step codes) as an
        int8 vector (all 0 when it does not act)."""
        return self._mask(self.seat_of[agent])

    def _masks_info(self, infos: dict[str, dict]) -> dict[str, dict]:
        for agent, info in infos.items():
            info["action_mask"] = self._mask(self.seat_of[agent])
        return infos

    def _observation(self, seat: int, mask: np.ndarray | None = None) -> Any:
        observation = self.coder.observation(self.state, seat)
        if self.masks == "info":
            return observation
        return {"observation": observation,
                "action_mask": self._mask(seat) if mask is None else mask}

    def _mask(self, seat: int) -> np.ndarray:
        return self.coder.mask(self.state, seat, self.size)

    def _final(self) -> tuple[dict[str, float], bool]:
        returns = self.state.returns()
        return ({a: float(returns[s]) for a, s in self.seat_of.items()},
                self.state.is_truncated())

    def render(self) -> str | None:
        """The spectator's view as text (``render_mode="ansi"``); None otherwise."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return render_text(self.game, self.state.view(None))

    def close(self) -> None:
        """Nothing to release."""
        self.state = None


class MeepleAECEnv(_Base, AECEnv):
    """A meeple game as a PettingZoo AEC environment (module docstring)."""

    def __init__(self, game: Game, render_mode: str | None = None,
                 illegal: str = "random", actions: str = "auto", masks: str = "info") -> None:
        AECEnv.__init__(self)
        self._setup(game, render_mode, illegal, extra=0, actions=actions, masks=masks)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start the playthrough of meeple seed ``seed`` (module docstring)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = self._masks_info({a: {} for a in self.agents})
        self.agent_selection = self.possible_agents[self.state.current_players()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation (with ``masks="observation"``, and its mask: all zeros
        when it does not act now)."""
        return self._observation(self.seat_of[agent])

    def step(self, action: Any) -> None:
        """The selected agent acts with code ``action`` (None once its game is over); with
        step codes it stays selected until its action is complete."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of[agent]
        chosen, replaced = self.coder.pick(self.state, seat, action, self.illegal, self._rng)
        self._cumulative_rewards[agent] = 0.0
        if chosen is not None:
            self.state.apply_action(chosen, seat)
        self.infos = {a: {} for a in self.agents}
        if replaced:
            self.infos[agent]["illegal_action"] = True
        if chosen is None:
            self.rewards = {a: 0.0 for a in self.agents}
        elif self.state.is_terminal():
            self.rewards, truncated = self._final()
            self.terminations = {a: not truncated for a in self.agents}
            self.truncations = {a: truncated for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_players()[0]]
        self._masks_info(self.infos)
        self._accumulate_rewards()


class MeepleParallelEnv(_Base, ParallelEnv):
    """A meeple game with simultaneous decisions as a PettingZoo Parallel environment (module
    docstring). ``wait`` is the code of the no-op of seats that do not act at a step."""

    def __init__(self, game: Game, render_mode: str | None = None,
                 illegal: str = "random", actions: str = "auto", masks: str = "info") -> None:
        if not game.capabilities.simultaneous:
            raise ValueError(f"{game.name} has no simultaneous decisions; use env() (AEC)")
        self._setup(game, render_mode, illegal, extra=1, actions=actions, masks=masks)
        self.wait = self.coder.size
        self.agents: list[str] = []

    def _mask(self, seat: int) -> np.ndarray:
        if seat in self.state.current_players():
            return super()._mask(seat)
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.wait] = 1
        return mask

    def _observations(self) -> dict[str, Any]:
        return {a: self._observation(s) for a, s in self.seat_of.items()}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict]]:
        """Start the playthrough of meeple seed ``seed``: (observations, infos)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), self._masks_info({a: {} for a in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Every acting seat's code (others send ``wait``); the step resolves once every
        acting seat's action is complete (with step codes, a seat whose action is complete
        sends ``wait`` while the others finish theirs: its action is submitted, hidden).

        Returns:
            observations, rewards, terminations, truncations, infos: one entry per agent.
        Raises:
            IllegalActionError: with ``illegal="raise"``, for an illegal or missing code of an
                acting seat, or a code other than ``wait`` from a seat that does not act.
        """
        infos: dict[str, dict] = {a: {} for a in self.agents}
        joint = {}
        acting = self.state.current_players()
        for agent in self.agents:
            seat = self.seat_of[agent]
            code = actions.get(agent)
            if seat in acting:
                chosen, replaced = self.coder.pick(self.state, seat, code, self.illegal,
                                                   self._rng)
                if chosen is not None:
                    joint[seat] = chosen
                if replaced:
                    infos[agent]["illegal_action"] = True
            elif code is not None and code != self.wait:
                if self.illegal == "raise":
                    raise IllegalActionError(f"{agent} does not act now; send {self.wait}")
                infos[agent]["illegal_action"] = True
        if len(joint) == len(acting):
            self.state.apply_actions(joint)
        else:
            for seat, chosen in joint.items():
                self.state.apply_action(chosen, seat)
        observations = self._observations()
        if self.state.is_terminal():
            rewards, truncated = self._final()
            terminations = {a: not truncated for a in self.agents}
            truncations = {a: truncated for a in self.agents}
            self.agents = []
        else:
            rewards = {a: 0.0 for a in self.agents}
            terminations = {a: False for a in self.agents}
            truncations = {a: False for a in self.agents}
        return observations, rewards, terminations, truncations, self._masks_info(infos)
