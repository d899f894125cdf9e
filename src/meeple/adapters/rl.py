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
from meeple.bots.rl import ObservationMemory, PolicyBot, sidecar_path
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


class LabViewEnv(MeepleEnv):
    """:class:`~meeple.adapters.gymnasium.MeepleEnv` whose learner, at a simultaneous decision,
    is shown its view from before the bots' submissions: the view the lab shows every seat
    (``play_episode`` asks all acting seats on the same state), so the policy is trained on
    the observations it will see as an ``rl:`` bot. ``MeepleEnv`` lets the bots submit first
    (their selections stay hidden, but the view's "submitted" marks show who is in), which a
    trained policy never sees in the lab. Turn-based decisions are unchanged; with step codes
    the pending sub-decision still follows the view.
    """

    _before: np.ndarray | None = None

    def _play_bots(self) -> None:
        self._before = None
        super()._play_bots()

    def _before_bots(self, acting: tuple[int, ...]) -> None:
        seat = self.seat
        if seat in acting and len(acting) > 1:
            self._before = self.game.observation_tensor(self.state.view(seat)).reshape(-1)

    def _observation(self) -> np.ndarray:
        obs = super()._observation()
        if self._before is not None:
            obs = obs.copy()
            obs[:self._before.size] = self._before
        return obs


class SeatCycleEnv(gymnasium.Env):
    """The Gymnasium adapter's environment (:class:`LabViewEnv`, a
    :class:`~meeple.adapters.gymnasium.MeepleEnv` showing lab views) with the learner's seat
    drawn from the environment's ``np_random`` at each ``reset``; the other seats are played
    by ``opponents`` (one bot name). Spaces, steps, rewards and ``action_masks`` are those of
    the drawn seat's environment (the same spaces for every seat). ``reset(seed=s)`` seeds the
    draws; each playthrough's seed is drawn from them too.

    Optional reward shaping (``shaping = beta > 0``): potential-based (Ng, Harada and Russell,
    1999), so the policies that are optimal for the win share stay optimal. The potential is
    the game's own state evaluator (``Game.state_evaluator()``, the search cut-off estimate of
    each seat's final return, in 0..1) at the learner's seat, ``Phi(s) = beta * evaluate(s)
    [seat]``, and 0 once the game is over; each step adds ``gamma * Phi(s') - Phi(s)`` to the
    adapter's reward (``gamma`` must be the learner's discount). A step's reward is then about
    the change of the learner's estimated win share (Four Gods: its share of the squared
    energies), a signal even in games it does not win. The evaluator reads the whole state,
    hidden parts included, but only to score the training reward: the observation is
    unchanged, and a trained policy plays from its view alone.

    Optional observation memory (``memory = d``, 0 < d < 1): each observation is followed by
    its decaying trace over the learner's steps in the playthrough
    (:class:`~meeple.bots.rl.ObservationMemory`, which the ``rl:`` bot applies the same way),
    doubling the observation size; the bounds stay those of the observation.

    Raises:
        ParameterError, NotImplementedError: as ``MeepleEnv``; ParameterError also for a
            negative ``shaping``, a ``gamma`` outside 0..1, shaping on a game without an
            evaluator, or a ``memory`` outside 0..1.
    """

    metadata = {"render_modes": []}

    def __init__(self, game: Game, opponents: str = "random", actions: str = "auto",
                 shaping: float = 0.0, gamma: float = 1.0, memory: float = 0.0) -> None:
        if shaping < 0 or not 0 <= gamma <= 1:
            raise ParameterError(f"shaping = {shaping}, gamma = {gamma}: need shaping >= 0 "
                                 f"and 0 <= gamma <= 1")
        self.evaluate = game.state_evaluator() if shaping else None
        if shaping and self.evaluate is None:
            raise ParameterError(f"{game.name} declares no state evaluator: no reward shaping")
        self.shaping, self.gamma = float(shaping), float(gamma)
        self.envs = [LabViewEnv(game, seat=s, opponents=opponents, actions=actions)
                     for s in range(game.players)]
        self.memory = ObservationMemory(memory)
        space = self.envs[0].observation_space
        if memory:
            space = gymnasium.spaces.Box(np.concatenate([space.low, space.low]),
                                         np.concatenate([space.high, space.high]),
                                         dtype=np.float32)
        self.observation_space = space
        self.action_space = self.envs[0].action_space
        self.current = self.envs[0]
        self.potential = 0.0

    def _potential(self) -> float:
        state = self.current.state
        if self.evaluate is None or state.is_terminal():
            return 0.0
        return self.shaping * float(self.evaluate(state)[self.current.seat])

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw the learner's seat and a playthrough seed, and start it."""
        super().reset(seed=seed)
        self.current = self.envs[int(self.np_random.integers(len(self.envs)))]
        obs, info = self.current.reset(seed=int(self.np_random.integers(0, 2 ** 62)))
        self.potential = self._potential()
        self.memory.reset()
        return self.memory(obs), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """``MeepleEnv.step`` of the drawn seat, its reward shaped (class docstring)."""
        obs, reward, terminated, truncated, info = self.current.step(action)
        if self.evaluate is not None:
            before, self.potential = self.potential, self._potential()
            reward += self.gamma * self.potential - before
        return self.memory(obs), reward, terminated, truncated, info

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


#: The evaluation policies: the most probable legal code, or a code sampled from the policy
#: (from a stream derived from the bot's seed, so the games replay).
EVAL_POLICIES = ("greedy", "sample")


def train_maskable_ppo(game_name: str, *, variant: str | None = None,
                       players: int | None = None, params: dict[str, Any] | None = None,
                       opponents: Sequence[str] = ("random",), steps: int = 50_000,
                       seed: int = 0, eval_every: int = 10_000, eval_games: int = 100,
                       eval_opponents: Sequence[str] = ("random", "heuristic"),
                       eval_policies: Sequence[str] = ("greedy",),
                       reference: str | None = "heuristic", actions: str = "auto",
                       shaping: float = 0.0, memory: float = 0.0,
                       keep_best: str | None = None, imitate: int = 0,
                       imitate_epochs: int = 10, teacher: str = "heuristic",
                       imitate_target: str = "ties", imitate_fit: dict[str, Any] | None = None,
                       ppo: dict[str, Any] | None = None,
                       out: str | Path = "runs/rl",
                       on_point: Callable[[dict[str, Any]], None] | None = None
                       ) -> dict[str, Any]:
    """Train ``MaskablePPO`` on ``game_name`` for ``steps`` environment steps and save it.

    Args:
        game_name, variant, players, params: the game setting (``load_game``).
        opponents: bot names for the other seats, one training environment each (cycled).
        steps: learner decisions (environment steps; a step code is one step) to train.
        seed: seeds the policy, the environments and the evaluation games.
        eval_every: steps between evaluation points (the first is before training).
        eval_games: games per evaluation opponent (and policy) at each point.
        eval_opponents: bot names the policy is measured against.
        eval_policies: how the measured policy picks its codes, any of :data:`EVAL_POLICIES`
            (``"greedy"``: its most probable legal code; ``"sample"``: sampled, as
            ``rl:PATH?sample`` plays).
        reference: a bot measured once in the learner's place on the same games (the agent's
            target), or None.
        actions: the adapter's action encoding (``"auto"``, ``"compact"``, ``"full"``).
        shaping: the weight ``beta`` of the potential-based reward shaping
            (:class:`SeatCycleEnv`; 0 = the win share alone), with PPO's ``gamma``.
        memory: the decay of the observation memory (:class:`SeatCycleEnv`; 0 = none),
            saved in the sidecar so the ``rl:`` bot applies it too.
        keep_best: an evaluation opponent: the model of the point (after the first; with
            ``imitate`` the first too, the cloned policy) with the highest share against it
            (first of ``eval_policies``; the later point on a tie) is saved as ``best.zip``
            (with ``best.json``), then measured again on fresh games (other seeds, so its share
            is not inflated by the choice), beside the reference bot on the same fresh games:
            ``curve["best"]``. None: no best model.
        imitate: games of demonstrations for an imitation warm start (0: none): ``teacher``
            plays one seat against ``opponents`` (:mod:`meeple.adapters.imitation`), the last
            10% of the games are held out, and the policy is cloned on the rest for
            ``imitate_epochs`` epochs before the first point, so point 0 measures the cloned
            policy and PPO fine-tunes it. Recorded in the sidecar and curve (``imitation``).
        imitate_epochs, teacher: the cloning epochs and the demonstrating bot.
        imitate_target: what the cloning fits, ``"ties"`` (any of the teacher's equally good
            codes) or ``"choice"`` (its code), :func:`~meeple.adapters.imitation.clone_policy`.
        imitate_fit: more ``clone_policy`` keyword arguments, any of
            :data:`~meeple.adapters.imitation.CLONE_SETTINGS` (``batch_size``: an int >= 1;
            ``learning_rate``: > 0; ``value_weight``: >= 0), or None for its defaults.
        ppo: ``MaskablePPO`` keyword arguments over :data:`PPO_DEFAULTS`.
        out: the folder for ``model.zip``, ``model.json``, ``curve.json`` and ``curve.png``
            (and ``best.zip``, ``best.json``).
        on_point: called with each evaluation point as it is measured (progress).
    Returns:
        The ``curve.json`` dict: ``game``, ``variant``, ``players``, ``encoding``, ``fair_share``
        (``1 / players``), ``steps``, ``train_seconds`` and ``eval_seconds`` (wall clock),
        ``shaping``, ``memory``, ``imitation`` (None, or the teacher, games, decisions, epochs,
        seconds, last epoch's losses, and the agreement with the teacher's codes at real
        decisions, :func:`~meeple.adapters.imitation.agreement`, before and after cloning on
        the held-out games and after on the cloned ones), ``points`` (``{"steps", "seconds",
        "results": [win_share dicts, each with its "policy"]}`` per point), ``reference``
        (win_share dicts of the reference bot, or []), ``model`` (path), ``best``
        (``{"steps", "model", "selected_share", "results", "reference"}`` or None).
    Raises:
        ImportError: without sb3-contrib (the extra ``meeple[rl]``).
        ParameterError: for a bad game setting, bot name, policy, ``keep_best`` that is not an
            evaluation opponent, ``steps`` < 0 (0 only with ``imitate``), ``eval_every`` < 1,
            ``imitate`` < 0, or a bad ``shaping``, ``memory``, ``teacher``,
            ``imitate_target`` or ``imitate_fit`` (checked before any game is played).
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    if steps < (0 if imitate else 1) or eval_every < 1 or imitate < 0:
        raise ParameterError(f"steps = {steps}, eval_every = {eval_every}, imitate = "
                             f"{imitate}: need steps >= 1 (>= 0 with imitate), eval_every >= 1 "
                             f"and imitate >= 0")
    from meeple.adapters.imitation import check_clone_settings

    check_clone_settings(imitate_target, imitate_fit)
    policies = list(eval_policies)
    if not policies or any(p not in EVAL_POLICIES for p in policies):
        raise ParameterError(f"eval_policies = {policies}: choose from {EVAL_POLICIES}")
    if keep_best is not None and keep_best not in eval_opponents:
        raise ParameterError(f"keep_best = {keep_best!r} is not an evaluation opponent "
                             f"{list(eval_opponents)}")
    torch.set_num_threads(1)
    game = load_game(game_name, variant=variant, players=players, **(params or {}))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = list(opponents) or ["random"]
    settings = {**PPO_DEFAULTS, **(ppo or {})}
    env = DummyVecEnv([(lambda name=name: SeatCycleEnv(game, name, actions, shaping,
                                                       settings["gamma"], memory))
                       for name in names])
    encoding = env.envs[0].current.coder.kind
    model = MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", verbose=0, **settings)
    meta = {"game": game.name, "variant": game.variant, "players": game.players,
            "params": dict(game.params), "encoding": encoding,
            "observation_size": int(env.observation_space.shape[0]),
            "action_size": int(env.action_space.n), "seats": "drawn at random each episode",
            "opponents": names, "shaping": shaping, "memory": memory, "seed": seed,
            "algorithm": "MaskablePPO", "ppo": settings}
    imitation = None
    if imitate:
        imitation = imitation_warm_start(model, game, games=imitate, epochs=imitate_epochs,
                                         teacher=teacher, opponents=names, encoding=encoding,
                                         memory=memory, gamma=settings["gamma"], seed=seed,
                                         target=imitate_target, fit=imitate_fit)
        meta["imitation"] = imitation

    def results(policy_model: Any, eval_seed: int) -> list[dict[str, Any]]:
        rng_state = torch.random.get_rng_state()  # sampling must not move training's stream
        found = []
        for policy in policies:
            def learner(s: int, gseed: int, policy: str = policy) -> PolicyBot:
                return PolicyBot(game, s, gseed, model=policy_model, encoding=encoding,
                                 deterministic=policy == "greedy", memory=memory)
            found += [{**win_share(game, learner, o, eval_games, eval_seed), "policy": policy}
                      for o in eval_opponents]
        torch.random.set_rng_state(rng_state)
        return found

    def save(path: Path, done: int) -> None:
        model.save(str(path))
        sidecar_path(path).write_text(json.dumps({**meta, "steps": done}, indent=2,
                                                 default=str) + "\n")

    def references(eval_seed: int) -> list[dict[str, Any]]:
        if reference is None:
            return []
        return [win_share(game, lambda s, g: make_bot(reference, game, s, g), o, eval_games,
                          eval_seed) for o in eval_opponents]

    eval_seconds, train_seconds, done = 0.0, 0.0, 0
    best: dict[str, Any] | None = None

    def keep(point: dict[str, Any], best: dict[str, Any] | None) -> dict[str, Any] | None:
        if keep_best is None:
            return best
        share = next(r["share"] for r in point["results"] if r["opponent"] == keep_best)
        if best is None or share >= best["selected_share"]:
            best = {"steps": point["steps"], "model": str(out / "best.zip"),
                    "selected_share": share}
            save(out / "best.zip", point["steps"])
        return best

    began = time.perf_counter()
    points = [{"steps": 0, "seconds": 0.0, "results": results(model, seed)}]
    if imitate:  # the cloned policy is a candidate too
        best = keep(points[0], best)
    if on_point is not None:
        on_point(points[0])
    eval_seconds += time.perf_counter() - began
    while done < steps:
        chunk = min(eval_every, steps - done)
        began = time.perf_counter()
        model.learn(chunk, reset_num_timesteps=False)
        train_seconds += time.perf_counter() - began
        done = int(model.num_timesteps)
        began = time.perf_counter()
        point = {"steps": done, "seconds": train_seconds, "results": results(model, seed)}
        points.append(point)
        best = keep(point, best)
        if on_point is not None:
            on_point(point)
        eval_seconds += time.perf_counter() - began
    refs = references(seed)
    model_path = out / "model.zip"
    save(model_path, done)
    if best is not None:
        began = time.perf_counter()
        fresh = derive_seed(seed, "fresh games")
        best_model = MaskablePPO.load(best["model"], device="cpu")
        best.update(results=results(best_model, fresh), reference=references(fresh))
        eval_seconds += time.perf_counter() - began
    curve = {"game": game.name, "variant": game.variant, "players": game.players,
             "encoding": encoding, "opponents": names, "fair_share": 1 / game.players,
             "shaping": shaping, "memory": memory, "imitation": imitation, "ppo": settings,
             "steps": done,
             "train_seconds": train_seconds, "eval_seconds": eval_seconds,
             "eval_games": eval_games, "points": points, "reference_bot": reference,
             "reference": refs, "model": str(model_path), "best": best}
    (out / "curve.json").write_text(json.dumps(curve, indent=2) + "\n")
    plot_curve(curve, out / "curve.png")
    return curve


def imitation_warm_start(model: Any, game: Game, *, games: int, epochs: int, teacher: str,
                         opponents: Sequence[str], encoding: str, memory: float, gamma: float,
                         seed: int, target: str = "ties", fit: dict[str, Any] | None = None
                         ) -> dict[str, Any]:
    """Clone ``teacher`` into ``model``'s policy (in place) from ``games`` demonstration games
    against ``opponents``, the last 10% held out, fitting its ``target`` (``"ties"`` or
    ``"choice"``; :mod:`meeple.adapters.imitation`), with ``fit``'s other ``clone_policy``
    arguments.

    Returns:
        ``{"teacher", "opponents", "games", "decisions", "epochs", "target", "seconds",
        "fit", "loss", "agreement_before", "agreement_held_out", "agreement_train",
        "tie_agreement_before", "tie_agreement_held_out", "tie_share"}``: agreements at real
        decisions with the teacher's code, ``tie_`` ones with any of its equally good codes
        (``_before``: the untrained policy's, on the held-out games); ``tie_share``: the share
        of real decisions where the teacher had more than one equally good code.
    Raises:
        ParameterError: for an unknown teacher or opponent name, or target.
    """
    from meeple.adapters.imitation import agreement, clone_policy, collect_demonstrations

    began = time.perf_counter()
    demos = collect_demonstrations(game, games=games, encoding=encoding, teacher=teacher,
                                   opponents=opponents, memory=memory, gamma=gamma, seed=seed)
    train, held = demos.split(0.1)
    before = agreement(model, held) if held.games else None
    tie_before = agreement(model, held, ties=True) if held.games else None
    history = clone_policy(model, train, epochs=epochs, seed=seed, target=target, **(fit or {}))
    real = demos.masks.sum(axis=1) > 1
    return {"teacher": teacher, "opponents": list(opponents), "games": games,
            "decisions": len(demos.codes), "epochs": epochs, "target": target,
            "fit": dict(fit or {}),
            "seconds": time.perf_counter() - began,
            "loss": {k: float(v) for k, v in history[-1].items()},
            "agreement_before": before,
            "agreement_held_out": agreement(model, held) if held.games else None,
            "agreement_train": agreement(model, train),
            "tie_agreement_before": tie_before,
            "tie_agreement_held_out": agreement(model, held, ties=True) if held.games else None,
            "tie_share": float((demos.labels[real].sum(axis=1) > 1).mean()) if real.any()
            else 0.0}


def plot_curve(curve: dict[str, Any], path: str | Path) -> Path:
    """Draw a ``curve.json`` dict: win share against training steps, one line per evaluation
    opponent and policy (solid: greedy, dash-dotted: sampled) with its 95% interval shaded,
    the fair share and the reference bot's shares as dashed lines, and the best model's
    shares on fresh games as points with their intervals. Returns ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=110)
    xs = [p["steps"] for p in curve["points"]]
    colours = ["tab:blue", "tab:red", "tab:green", "tab:purple"]
    opponents = list(dict.fromkeys(r["opponent"] for r in curve["points"][0]["results"]))
    styles = {"greedy": "-", "sample": "-."}
    for i, result in enumerate(curve["points"][0]["results"]):
        name, policy = result["opponent"], result.get("policy", "greedy")
        colour = colours[opponents.index(name) % len(colours)]
        rows = [p["results"][i] for p in curve["points"]]
        label = f"agent vs {name}" + (" (sampled)" if policy == "sample" else "")
        ax.plot(xs, [r["share"] for r in rows], marker="o", markersize=3, color=colour,
                linestyle=styles[policy], label=label)
        ax.fill_between(xs, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows],
                        color=colour, alpha=0.12)
    for ref in curve.get("reference", []):
        colour = colours[opponents.index(ref["opponent"]) % len(colours)]
        ax.axhline(ref["share"], color=colour, linestyle="--", linewidth=1,
                   label=f"{curve['reference_bot']} vs {ref['opponent']}")
    best = curve.get("best")
    if best and best.get("results"):
        for r in best["results"]:
            colour = colours[opponents.index(r["opponent"]) % len(colours)]
            ax.errorbar([best["steps"]], [r["share"]], fmt="D", color=colour, markersize=5,
                        yerr=[[max(0.0, r["share"] - r["ci_low"])],
                              [max(0.0, r["ci_high"] - r["share"])]],
                        capsize=3, markeredgecolor="black")
        ax.plot([], [], "D", color="grey", markeredgecolor="black",
                label="kept model, fresh games")
    ax.axhline(curve["fair_share"], color="grey", linestyle=":", label="fair share")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win share (95% Wilson interval)")
    ax.set_ylim(0, 1)
    shaped = f", shaping {curve['shaping']:g}" if curve.get("shaping") else ""
    shaped += f", memory {curve['memory']:g}" if curve.get("memory") else ""
    if curve.get("imitation"):
        shaped += (f"; cloned from {curve['imitation']['teacher']} "
                   f"({curve['imitation']['games']} games) at step 0")
    ax.set_title(f"MaskablePPO on {curve['game']} ({curve['players']} players, "
                 f"{curve['encoding']} codes)\ntrained vs "
                 f"{', '.join(curve.get('opponents', []))}{shaped}", fontsize=9)
    ax.legend(fontsize=6.5, loc="upper left", ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return Path(path)
