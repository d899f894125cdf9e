"""Train a masked policy-gradient agent (sb3-contrib's ``MaskablePPO``) on a meeple game through
the Gymnasium adapter, measure its learning curve, and save it as an ``rl:PATH`` bot.
Needs the extra ``meeple[rl]`` (sb3-contrib and PyTorch, CPU only).

:func:`train_maskable_ppo` trains one learning seat against fixed meeple bots: each episode the
learner sits in a seat drawn at random (:class:`SeatCycleEnv`), so the saved policy plays any
seat; the other seats are played by the opponent bots (one environment per name in
``opponents``, cycled, so ``("random", "heuristic")`` mixes both). Every ``eval_every`` steps
(and before the first), the policy, playing its most probable legal code, plays ``eval_games``
games against each evaluation opponent (learner's seat cycled over the seats, the same game
seeds at every point): its **win share** (``State.returns()``: 1 for a sole win, a fraction of
a shared one) with a Wilson interval. The same games are played once by the heuristic bot in
the learner's place, the reference the agent should approach. Everything lands in ``out``:
``model.zip``, its sidecar ``model.json`` (what :mod:`meeple.bots.rl` checks before it plays),
``curve.json`` and ``curve.png``. See docs/adapters/gymnasium.md.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from meeple.adapters.gymnasium import MeepleEnv
from meeple.bots import make_bot
from meeple.bots.rl import PolicyBot, sidecar_path
from meeple.engine.episode import play_episode
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.engine.rng import derive_seed
from meeple.lab.analysis.stats import wilson

#: PPO settings used unless ``ppo`` overrides them: small batches and few epochs, so a few
#: minutes on two cores do many updates; a long horizon (``gamma``) since the only reward is
#: the win share at the game's end.
PPO_DEFAULTS: dict[str, Any] = {"n_steps": 512, "batch_size": 256, "n_epochs": 4,
                                "gamma": 0.995, "gae_lambda": 0.95, "ent_coef": 0.01,
                                "learning_rate": 3e-4}


class SeatCycleEnv(gymnasium.Env):
    """The Gymnasium adapter's environment (:class:`~meeple.adapters.gymnasium.MeepleEnv`) with
    the learner's seat drawn from the environment's ``np_random`` at each ``reset``; the other
    seats are played by ``opponents`` (one bot name). Spaces, steps, rewards and
    ``action_masks`` are those of the drawn seat's environment (the same spaces for every
    seat). ``reset(seed=s)`` seeds the draws; each playthrough's seed is drawn from them too.

    Raises:
        ParameterError, NotImplementedError: as ``MeepleEnv``.
    """

    metadata = {"render_modes": []}

    def __init__(self, game: Game, opponents: str = "random", actions: str = "auto") -> None:
        self.envs = [MeepleEnv(game, seat=s, opponents=opponents, actions=actions)
                     for s in range(game.players)]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self.current = self.envs[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw the learner's seat and a playthrough seed, and start it."""
        super().reset(seed=seed)
        self.current = self.envs[int(self.np_random.integers(len(self.envs)))]
        return self.current.reset(seed=int(self.np_random.integers(0, 2 ** 62)))

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """``MeepleEnv.step`` of the drawn seat."""
        return self.current.step(action)

    def action_masks(self) -> np.ndarray:
        """The drawn seat's legal codes now (bool), read by ``MaskablePPO``."""
        return self.current.action_masks()


def win_share(game: Game, make_learner: Callable[[int, int], Any], opponent: str,
              games: int, seed: int) -> dict[str, Any]:
    """The learner's win share over ``games`` games against ``opponent`` bots in every other
    seat, the learner in seat ``i % players`` of game ``i`` (seed ``derive_seed(seed, "eval",
    i)``).

    Args:
        make_learner: ``(seat, game_seed) -> agent`` for the learner's seat.
    Returns:
        ``{"opponent", "games", "share", "ci_low", "ci_high"}``: the mean of the learner's
        ``State.returns()`` entry and its Wilson interval (95%).
    Raises:
        ParameterError: for an unknown opponent name or ``games < 1``.
    """
    if games < 1:
        raise ParameterError(f"games = {games}: need at least one")
    total = 0.0
    for i in range(games):
        seat, gseed = i % game.players, derive_seed(seed, "eval", i)
        agents = [make_learner(s, gseed) if s == seat else make_bot(opponent, game, s, gseed)
                  for s in range(game.players)]
        state, _ = play_episode(game, gseed, agents)
        total += float(state.returns()[seat])
    low, high = wilson(total, games)
    return {"opponent": opponent, "games": games, "share": total / games,
            "ci_low": low, "ci_high": high}


def train_maskable_ppo(game_name: str, *, variant: str | None = None,
                       players: int | None = None, params: dict[str, Any] | None = None,
                       opponents: Sequence[str] = ("random",), steps: int = 50_000,
                       seed: int = 0, eval_every: int = 10_000, eval_games: int = 100,
                       eval_opponents: Sequence[str] = ("random", "heuristic"),
                       reference: str | None = "heuristic", actions: str = "auto",
                       ppo: dict[str, Any] | None = None, out: str | Path = "runs/rl",
                       on_point: Callable[[dict[str, Any]], None] | None = None
                       ) -> dict[str, Any]:
    """Train ``MaskablePPO`` on ``game_name`` for ``steps`` environment steps and save it.

    Args:
        game_name, variant, players, params: the game setting (``load_game``).
        opponents: bot names for the other seats, one training environment each (cycled).
        steps: learner decisions (environment steps; a step code is one step) to train.
        seed: seeds the policy, the environments and the evaluation games.
        eval_every: steps between evaluation points (the first is before training).
        eval_games: games per evaluation opponent at each point.
        eval_opponents: bot names the policy is measured against.
        reference: a bot measured once in the learner's place on the same games (the agent's
            target), or None.
        actions: the adapter's action encoding (``"auto"``, ``"compact"``, ``"full"``).
        ppo: ``MaskablePPO`` keyword arguments over :data:`PPO_DEFAULTS`.
        out: the folder for ``model.zip``, ``model.json``, ``curve.json`` and ``curve.png``.
        on_point: called with each evaluation point as it is measured (progress).
    Returns:
        The ``curve.json`` dict: ``game``, ``variant``, ``players``, ``encoding``, ``fair_share``
        (``1 / players``), ``steps``, ``train_seconds`` and ``eval_seconds`` (wall clock),
        ``points`` (``{"steps", "seconds", "results": [win_share dicts]}`` per point),
        ``reference`` (win_share dicts of the reference bot, or []), ``model`` (path).
    Raises:
        ImportError: without sb3-contrib (the extra ``meeple[rl]``).
        ParameterError: for a bad game setting, bot name, ``steps`` or ``eval_every`` < 1.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    if steps < 1 or eval_every < 1:
        raise ParameterError(f"steps = {steps}, eval_every = {eval_every}: both must be >= 1")
    torch.set_num_threads(1)
    game = load_game(game_name, variant=variant, players=players, **(params or {}))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = list(opponents) or ["random"]
    env = DummyVecEnv([(lambda name=name: SeatCycleEnv(game, name, actions)) for name in names])
    encoding = env.envs[0].current.coder.kind
    model = MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", verbose=0,
                        **{**PPO_DEFAULTS, **(ppo or {})})

    def learner(s: int, gseed: int) -> PolicyBot:
        return PolicyBot(game, s, gseed, model=model, encoding=encoding)

    def measure(done: int, seconds: float) -> dict[str, Any]:
        point = {"steps": done, "seconds": seconds,
                 "results": [win_share(game, learner, o, eval_games, seed)
                             for o in eval_opponents]}
        if on_point is not None:
            on_point(point)
        return point

    eval_seconds, train_seconds, done = 0.0, 0.0, 0
    began = time.perf_counter()
    points = [measure(0, 0.0)]
    eval_seconds += time.perf_counter() - began
    while done < steps:
        chunk = min(eval_every, steps - done)
        began = time.perf_counter()
        model.learn(chunk, reset_num_timesteps=False)
        train_seconds += time.perf_counter() - began
        done = int(model.num_timesteps)
        began = time.perf_counter()
        points.append(measure(done, train_seconds))
        eval_seconds += time.perf_counter() - began
    refs = []
    if reference is not None:
        refs = [win_share(game, lambda s, g: make_bot(reference, game, s, g), o, eval_games,
                          seed) for o in eval_opponents]
    model_path = out / "model.zip"
    model.save(str(model_path))
    meta = {"game": game.name, "variant": game.variant, "players": game.players,
            "params": dict(game.params), "encoding": encoding,
            "observation_size": int(env.observation_space.shape[0]),
            "action_size": int(env.action_space.n), "seats": "drawn at random each episode",
            "opponents": names, "steps": done, "seed": seed, "algorithm": "MaskablePPO",
            "ppo": {**PPO_DEFAULTS, **(ppo or {})}}
    sidecar_path(model_path).write_text(json.dumps(meta, indent=2, default=str) + "\n")
    curve = {"game": game.name, "variant": game.variant, "players": game.players,
             "encoding": encoding, "opponents": names, "fair_share": 1 / game.players,
             "steps": done, "train_seconds": train_seconds, "eval_seconds": eval_seconds,
             "eval_games": eval_games, "points": points, "reference_bot": reference,
             "reference": refs, "model": str(model_path)}
    (out / "curve.json").write_text(json.dumps(curve, indent=2) + "\n")
    plot_curve(curve, out / "curve.png")
    return curve


def plot_curve(curve: dict[str, Any], path: str | Path) -> Path:
    """Draw a ``curve.json`` dict: win share against training steps, one line per evaluation
    opponent with its 95% interval shaded, the fair share and the reference bot's shares as
    dashed lines. Returns ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=110)
    xs = [p["steps"] for p in curve["points"]]
    colours = ["tab:blue", "tab:red", "tab:green", "tab:purple"]
    for i, result in enumerate(curve["points"][0]["results"]):
        name, colour = result["opponent"], colours[i % len(colours)]
        rows = [p["results"][i] for p in curve["points"]]
        ax.plot(xs, [r["share"] for r in rows], marker="o", color=colour,
                label=f"agent vs {name}")
        ax.fill_between(xs, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows],
                        color=colour, alpha=0.15)
        for ref in curve.get("reference", []):
            if ref["opponent"] == name:
                ax.axhline(ref["share"], color=colour, linestyle="--", linewidth=1,
                           label=f"{curve['reference_bot']} vs {name}")
    ax.axhline(curve["fair_share"], color="grey", linestyle=":", label="fair share")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win share (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"MaskablePPO on {curve['game']} ({curve['players']} players, "
                 f"{curve['encoding']} codes)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return Path(path)
