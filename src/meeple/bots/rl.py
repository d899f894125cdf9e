"""A bot that plays a trained masked policy (sb3-contrib's ``MaskablePPO``): the ``rl:PATH`` bots.

``make_bot("rl:runs/rl-b4g/model.zip", game, seat, seed)`` loads the model saved at PATH and its
sidecar ``PATH`` with ``.json`` (written by :func:`meeple.adapters.rl.train_maskable_ppo`: the
game, variant, players and parameters it was trained on, the action encoding ``"full"`` or
``"compact"``, and the observation and action sizes). The bot sees only what any bot sees, its
seat's view and legal actions, and builds from them exactly the observation and mask the
Gymnasium adapter gave the learner (docs/adapters/gymnasium.md):

* observation: ``game.observation_tensor(view)`` flattened; with step codes followed by the
  pending sub-decision (:meth:`meeple.engine.stepwise.StepCodes.pending`);
* memory (when the model was trained with ``memory = d > 0``): the observation is followed by
  its trace, ``trace = d * trace + (1 - d) * observation`` over the seat's decisions in this
  playthrough so far (:class:`ObservationMemory`), so the policy sees the table's recent habits
  (who attacked whom lately), not only the last round;
* mask: the legal codes of the whole action table (``"full"``), or of each sub-decision in turn
  (``"compact"``: the bot composes its action step by step, as the learner did).

So it plays only legal actions, in any seat (the trainer rotates the learner over the seats,
and the games' encodings name the viewer's seat). It is game-agnostic: it needs only the game's
encoding. PyTorch and sb3-contrib (the extra ``meeple[rl]``) are imported when a model is
loaded; each process loads a model once (by path and modification time) and keeps PyTorch to one
thread, so a lab process pool runs one model per worker.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from meeple.engine.action import Action
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.stepwise import step_codes

#: The prefix of the bot family's names: ``rl:PATH``.
PREFIX = "rl:"

#: Loaded models by (resolved path, modification time): one load per process.
_MODELS: dict[tuple[str, float], Any] = {}


def sidecar_path(model_path: str | Path) -> Path:
    """The JSON sidecar of a saved model: ``model.zip`` -> ``model.json``."""
    return Path(model_path).with_suffix(".json")


def load_policy(model_path: str | Path) -> Any:
    """The ``MaskablePPO`` model saved at ``model_path`` (loaded once per process, on the CPU,
    with PyTorch set to one thread).

    Raises:
        ParameterError: if sb3-contrib is not installed or the file cannot be read as a model.
    """
    path = Path(model_path).resolve()
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError as exc:
        raise ParameterError(f"no trained model at {model_path}: {exc.strerror}") from None
    found = _MODELS.get(key)
    if found is not None:
        return found
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ParameterError("rl:PATH bots need the extra meeple[rl] (sb3-contrib and "
                             "PyTorch): pip install 'meeple[rl]'") from None
    torch.set_num_threads(1)
    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as exc:  # a zip that is not a model: say which file
        raise ParameterError(f"cannot load {model_path} as a MaskablePPO model: {exc}") from exc
    if len(_MODELS) > 8:
        _MODELS.clear()
    _MODELS[key] = model
    return model


def read_sidecar(model_path: str | Path) -> dict[str, Any]:
    """The training facts saved beside ``model_path`` (module docstring).

    Raises:
        ParameterError: if the sidecar is missing or not JSON.
    """
    side = sidecar_path(model_path)
    try:
        return json.loads(side.read_text())
    except (OSError, ValueError) as exc:
        raise ParameterError(f"{model_path} has no readable sidecar {side} (written by "
                             f"meeple.adapters.rl.train_maskable_ppo): {exc}") from None


class ObservationMemory:
    """An exponentially decaying trace of a seat's observations within one playthrough, put
    after each observation: ``trace = observation`` at the first decision, then ``trace =
    decay * trace + (1 - decay) * observation`` at each later one (every learner step, step
    codes included). ``decay = 0`` leaves observations unchanged. The trainer's environment
    and :class:`PolicyBot` apply the same memory, so the bot sees what the learner saw.

    Raises:
        ParameterError: for ``decay`` outside 0..1 (1 excluded).
    """

    def __init__(self, decay: float = 0.0) -> None:
        if not 0 <= decay < 1:
            raise ParameterError(f"memory decay = {decay}: need 0 <= decay < 1")
        self.decay = float(decay)
        self.trace: np.ndarray | None = None

    def reset(self) -> None:
        """Forget the trace (a new playthrough)."""
        self.trace = None

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` followed by the updated trace (``obs`` itself when ``decay = 0``)."""
        if not self.decay:
            return obs
        obs = np.asarray(obs, dtype=np.float32)
        if self.trace is None:
            self.trace = obs.copy()
        else:
            self.trace = (self.decay * self.trace + (1 - self.decay) * obs).astype(np.float32)
        return np.concatenate([obs, self.trace])


def check_fits(meta: Mapping[str, Any], game: Game, where: str) -> None:
    """Refuse a model trained on another game or setting than ``game``.

    Raises:
        ParameterError: naming what differs (game name, players, observation size, codes).
    """
    if meta.get("game") != game.name or meta.get("players") != game.players:
        raise ParameterError(f"{where} was trained on {meta.get('game')} with "
                             f"{meta.get('players')} players, not {game.name} with "
                             f"{game.players}")
    kind = meta.get("encoding")
    if kind not in ("full", "compact"):
        raise ParameterError(f"{where}: unknown action encoding {kind!r}")
    size = step_codes(game).size if kind == "compact" else game.num_distinct_actions()
    obs = int(np.prod(game.observation_shape()))
    if kind == "compact":
        obs += step_codes(game).pending_size
    if meta.get("memory"):
        obs *= 2
    if meta.get("action_size") != size or meta.get("observation_size") != obs:
        raise ParameterError(f"{where} expects {meta.get('observation_size')} observation "
                             f"numbers and {meta.get('action_size')} codes; this game setting "
                             f"gives {obs} and {size} (other parameters?)")


class PolicyBot(Bot):
    """Plays a trained masked policy (module docstring).

    Args:
        game, seat, seed: as :class:`~meeple.engine.agent.Bot`.
        model: a loaded ``MaskablePPO`` (or anything with its ``predict(obs, action_masks=,
            deterministic=)``).
        encoding: ``"full"`` or ``"compact"``: the codes the model was trained with.
        deterministic: play the most probable legal code (default) or sample the policy
            (from a stream derived from the bot's seed, so a playtest replays).
        memory: the decay of the observation memory the model was trained with (0: none);
            one bot plays one playthrough (as the engine's episodes seat them).
    Raises:
        ParameterError: for a memory decay outside 0..1.
    """

    name = "rl"

    def __init__(self, game: Game, seat: int, seed: int = 0, *, model: Any,
                 encoding: str = "full", deterministic: bool = True,
                 memory: float = 0.0) -> None:
        super().__init__(game, seat, seed)
        self.memory = ObservationMemory(memory)
        self.model = model
        self.encoding = encoding
        self.deterministic = deterministic
        self.steps = step_codes(game) if encoding == "compact" else None
        self.size = self.steps.size if self.steps is not None else game.num_distinct_actions()

    def _code(self, obs: np.ndarray, mask: np.ndarray) -> int:
        obs = self.memory(obs)
        if not self.deterministic:
            import torch

            torch.manual_seed(self.rng.getrandbits(31))
        code, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        code = int(code)
        if not mask[code]:  # a policy that ignores masks: never play an illegal code
            code = int(np.flatnonzero(mask)[0])
        return code

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        tensor = self.game.observation_tensor(view).reshape(-1)
        if self.steps is None:
            mask = np.zeros(self.size, dtype=bool)
            codes = {self.game.action_code(a): a for a in legal_actions}
            mask[list(codes)] = True
            return codes[self._code(tensor, mask)]
        choice = self.steps.choice(legal_actions)
        while True:
            obs = np.concatenate([tensor, self.steps.pending(choice.prefix)])
            action = choice.choose(self._code(obs, choice.mask().astype(bool)))
            if action is not None:
                return action


def rl_from_name(name: str, game: Game, seat: int, seed: int = 0) -> PolicyBot:
    """Build a :class:`PolicyBot` from ``rl:PATH`` (``PATH`` a saved ``model.zip``; a
    ``rl:PATH?sample`` label samples the policy instead of playing its most probable code).

    Raises:
        ParameterError: for a name without ``rl:``, a missing model or sidecar, a model trained
            on another game or setting, or sb3-contrib not installed.
    """
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        raise ParameterError(f"{name!r} is not an rl:PATH label")
    path, _, option = name[len(PREFIX):].partition("?")
    if option not in ("", "sample"):
        raise ParameterError(f"{name!r}: unknown option {option!r} (only ?sample)")
    path = os.path.expanduser(path)
    meta = read_sidecar(path)
    check_fits(meta, game, path)
    return PolicyBot(game, seat, seed, model=load_policy(path), encoding=meta["encoding"],
                     deterministic=option != "sample", memory=float(meta.get("memory", 0.0)))
