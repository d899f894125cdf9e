"""Imitation warm start (behavioural cloning) for the masked policy of :mod:`meeple.adapters.rl`:
demonstrations of a meeple bot (the game's heuristic) recorded as the learner would have seen
them, and a supervised masked cross-entropy fit of a ``MaskablePPO`` policy to them, before
PPO continues from there. Needs the extra ``meeple[rl]`` (PyTorch, sb3-contrib) to fit.

The demonstrations come from lab games (``play_episode``): in one seat the teacher bot chooses
each action from its view; a :class:`DemonstrationBot` in that seat turns the chosen action
into the codes the learner would have played (one full code, or its step codes one
sub-decision at a time) through :class:`meeple.bots.rl.PolicyBot`'s own path, so each
recorded observation (trace included, with ``memory``) and mask is exactly what the ``rl:``
bot and the learner's environment show at that decision (tests/adapters/test_rl.py checks
that the two agree). :func:`clone_policy` then minimises the policy's negative
log-probability of the teacher's codes under the mask (sb3-contrib's
``evaluate_actions(obs, codes, action_masks)``), and optionally fits the value head to the
discounted win share of the rest of the game. With a ``player`` model the player's codes are
played and the teacher's recorded at the positions it reaches (DAgger). See
docs/adapters/gymnasium.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from meeple.bots import make_bot
from meeple.bots.rl import PolicyBot
from meeple.engine.action import Action
from meeple.engine.agent import Bot
from meeple.engine.episode import play_episode
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed


class _Recorder:
    """The model inside :class:`DemonstrationBot`'s ``PolicyBot`` path: at each (sub-)decision
    it asks the bot for the teacher's code and the code to play, and keeps (observation, mask,
    teacher's code)."""

    def __init__(self, bot: DemonstrationBot) -> None:
        self.bot = bot
        self.observations: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.codes: list[int] = []
        self.labels: list[np.ndarray] = []

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = True
                ) -> tuple[int, None]:
        label, played, labels = self.bot.label_and_play(obs, action_masks)
        self.observations.append(np.array(obs, dtype=np.float32))
        self.masks.append(np.array(action_masks, dtype=bool))
        self.codes.append(label)
        self.labels.append(labels)
        return played, None


class DemonstrationBot(PolicyBot):
    """Records ``teacher``'s choice at every decision of its seat, as the learner sees it, and
    plays it, or (with ``player``, DAgger-style) plays ``player``'s choice instead, so the
    teacher is asked in the positions the learner reaches.

    With step codes the teacher's label at a sub-decision is the next code of the action it
    chooses among the legal actions that agree with the codes played so far (asked again only
    when the played codes left its previous choice).

    A teacher that chooses through :meth:`~meeple.engine.agent.Bot.choose_best` names the
    actions it found equally good (its ``ties``); the codes they lead to at a sub-decision
    (the next codes of those that agree with the codes played so far) are its **labels**
    there, the chosen code among them. Any other teacher's labels are its code alone.

    Args:
        game, seat, seed: as :class:`~meeple.engine.agent.Bot`.
        teacher: the bot whose choices are recorded (built for the same seat and seed).
        encoding, memory: the learner's codes (``"full"`` or ``"compact"``) and observation
            memory decay, as :class:`~meeple.bots.rl.PolicyBot`.
        player: None (play the teacher's codes) or a model with ``MaskablePPO.predict``'s
            signature whose codes are played (sampled, from torch's global stream).
    Attributes:
        recorder: ``observations``, ``masks``, ``codes`` (the teacher's) and ``labels`` (bool
            rows: the teacher's equally good codes); lists, one entry per learner step (a step
            code is one step).
    """

    name = "demonstration"

    def __init__(self, game: Game, seat: int, seed: int = 0, *, teacher: Bot,
                 encoding: str = "full", memory: float = 0.0, player: Any = None) -> None:
        self.recorder = _Recorder(self)
        super().__init__(game, seat, seed, model=self.recorder, encoding=encoding,
                         memory=memory)
        self.teacher, self.player = teacher, player
        self._view: Mapping[str, Any] = {}
        self._legal: Sequence[Action] = ()
        self._prefix: list[int] = []
        self._target: tuple[int, ...] = ()
        self._ties: list[tuple[int, ...]] = []

    def _codes(self, action: Action) -> tuple[int, ...]:
        return self.steps.codes(action) if self.steps is not None else \
            (self.game.action_code(action),)

    def _ask(self, legal_actions: Sequence[Action]) -> None:
        """The teacher's choice among ``legal_actions`` and its equally good ones, as codes."""
        self.teacher.ties = None
        chosen = self.teacher.act(self._view, legal_actions)
        ties = self.teacher.ties
        self._target = self._codes(chosen)
        self._ties = [self._codes(a) for a in ties] if ties and chosen in ties else \
            [self._target]

    def label_and_play(self, obs: np.ndarray, mask: np.ndarray
                       ) -> tuple[int, int, np.ndarray]:
        """The teacher's code at the pending (sub)decision, the code to play, and the
        teacher's labels there (bool, one per code: the next codes of its equally good
        actions that agree with the codes played so far).

        Raises:
            RuntimeError: if a label is not legal at the decision (a teacher outside the
                legal actions, or codes that do not compose them).
        """
        d = len(self._prefix)
        prefix = tuple(self._prefix)
        if self._target[:d] != prefix:  # the played codes left its choice
            self._ask([a for a in self._legal if self._codes(a)[:d] == prefix])
        label = self._target[d]
        labels = np.zeros(len(mask), dtype=bool)
        for codes in self._ties:
            if codes[:d] == prefix:
                labels[codes[d]] = True
        if not mask[labels].all():
            raise RuntimeError(f"the teacher's codes {np.flatnonzero(labels & ~mask)} are not "
                               f"legal at its decision")
        played = label
        if self.player is not None:
            played = int(self.player.predict(obs, action_masks=mask, deterministic=False)[0])
        self._prefix.append(played)
        return label, played, labels

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        self._view, self._legal, self._prefix = view, legal_actions, []
        self._ask(legal_actions)
        return super().act(view, legal_actions)

    def hear(self, message: Any) -> None:
        """Pass table talk on to the teacher."""
        self.teacher.hear(message)


@dataclass
class Demonstrations:
    """Recorded decisions: ``observations`` (a float32 ``scipy.sparse.csr_matrix``, one row per
    learner step; stored sparse since an observation is mostly zeros: the market's 5,559
    floats hold about 56 that are not, so a million rows take about half a GB, where dense
    they would take 22 GB; its masks and labels take another 0.7 GB), ``masks``
    (bool, the legal codes), ``codes`` (int64, the teacher's code), ``labels`` (bool, shaped as
    ``masks``: the teacher's equally good codes, its code among them; :class:`DemonstrationBot`),
    ``returns`` (float32, the seat's win share at the game's end discounted by ``gamma`` per
    later step of the seat), ``game_index`` (int64, the game each row comes from), ``games``
    and ``seconds``."""

    observations: sparse.csr_matrix
    masks: np.ndarray
    codes: np.ndarray
    labels: np.ndarray
    returns: np.ndarray
    game_index: np.ndarray
    games: int
    seconds: float

    def __add__(self, other: Demonstrations) -> Demonstrations:
        """Both sets of decisions (``other``'s games numbered after these)."""
        return Demonstrations(sparse.vstack([self.observations, other.observations],
                                            format="csr"),
                              *(np.concatenate([a, b]) for a, b in (
            (self.masks, other.masks),
            (self.codes, other.codes), (self.labels, other.labels),
            (self.returns, other.returns),
            (self.game_index, other.game_index + self.games))),
            games=self.games + other.games, seconds=self.seconds + other.seconds)

    def split(self, held_out: float) -> tuple[Demonstrations, Demonstrations]:
        """The first games and the last ``held_out`` fraction of games (by game, so no game's
        positions are on both sides): ``(train, held)``."""
        cut = self.games - int(round(self.games * held_out))
        first = self.game_index < cut

        def part(keep: np.ndarray, games: int) -> Demonstrations:
            return Demonstrations(self.observations[np.flatnonzero(keep)], self.masks[keep],
                                  self.codes[keep],
                                  self.labels[keep], self.returns[keep], self.game_index[keep],
                                  games, 0.0)

        return part(first, cut), part(~first, self.games - cut)


def collect_demonstrations(game: Game, *, games: int, encoding: str, teacher: str = "heuristic",
                           opponents: Sequence[str] = ("heuristic",), memory: float = 0.0,
                           gamma: float = 1.0, seed: int = 0, player: Any = None
                           ) -> Demonstrations:
    """Record ``teacher``'s decisions in ``games`` lab games (module docstring); with
    ``player`` (a ``MaskablePPO`` model), the player's sampled codes are played in the
    teacher's seat and the teacher's are recorded (:class:`DemonstrationBot`; DAgger, Ross,
    Gordon and Bagnell 2011), from torch's stream seeded by ``seed`` (any object with
    ``MaskablePPO.predict``'s signature may play; without torch installed none is seeded).

    Game ``i`` has seed ``derive_seed(seed, "imitate", i)``; the teacher sits in seat
    ``i % players``, every other seat is played by ``opponents[(i // players) %
    len(opponents)]`` (so with two opponent names each seat meets both).

    ``encoding``: ``"full"``, ``"compact"`` or ``"auto"`` (the adapters' choice,
    :func:`meeple.adapters._common.action_coder`: compact for a table over 512 codes).

    Returns:
        the :class:`Demonstrations`.
    Raises:
        ParameterError: for ``games < 1``, no opponents, an unknown bot name or encoding, or a
            memory decay outside 0..1.
    """
    if games < 1 or not opponents:
        raise ParameterError(f"games = {games}, opponents = {list(opponents)}: need at least "
                             f"one game and one opponent")
    if encoding not in ("full", "compact", "auto"):
        raise ParameterError(f"encoding = {encoding!r}: 'full', 'compact' or 'auto'")
    if encoding == "auto":
        from meeple.adapters._common import action_coder

        encoding = action_coder(game, "auto").kind
    began = time.perf_counter()
    if player is not None:  # a model samples from torch's stream; a plain policy needs none
        try:
            import torch
        except ImportError:  # no torch installed: the player is not a torch model
            pass
        else:
            torch.manual_seed(derive_seed(seed, "imitate", "player"))
    obs, masks, codes, labels, returns, index = [], [], [], [], [], []
    for i in range(games):
        seat, gseed = i % game.players, derive_seed(seed, "imitate", i)
        other = opponents[(i // game.players) % len(opponents)]
        learner = DemonstrationBot(game, seat, gseed,
                                   teacher=make_bot(teacher, game, seat, gseed),
                                   encoding=encoding, memory=memory, player=player)
        agents = [learner if s == seat else make_bot(other, game, s, gseed)
                  for s in range(game.players)]
        state, _ = play_episode(game, gseed, agents)
        rec = learner.recorder
        n, share = len(rec.codes), float(state.returns()[seat])
        obs.append(sparse.csr_matrix(np.asarray(rec.observations, dtype=np.float32)))
        masks += rec.masks
        codes += rec.codes
        labels += rec.labels
        returns += [share * gamma ** (n - 1 - k) for k in range(n)]
        index += [i] * n
    return Demonstrations(sparse.vstack(obs, format="csr", dtype=np.float32),
                          np.asarray(masks, dtype=bool),
                          np.asarray(codes, dtype=np.int64), np.asarray(labels, dtype=bool),
                          np.asarray(returns, np.float32),
                          np.asarray(index, dtype=np.int64), games, time.perf_counter() - began)


def agreement(policy: Any, demos: Demonstrations, ties: bool = False) -> float:
    """The share of ``demos``' real decisions (more than one legal code; a forced step is no
    test) where the policy's most probable legal code (what ``rl:PATH`` plays) is the
    teacher's code, or with ``ties`` one of the teacher's equally good codes (its labels).
    ``policy``: a ``MaskablePPO`` model or its ``policy``.

    Raises:
        ValueError: if ``demos`` holds no decision with a choice.
    """
    import torch

    real = demos.masks.sum(axis=1) > 1
    if not real.any():
        raise ValueError("no demonstrated decision with more than one legal code")
    obs, masks, codes = (demos.observations[np.flatnonzero(real)], demos.masks[real],
                         demos.codes[real])
    labels = demos.labels[real]
    policy = getattr(policy, "policy", policy)
    hits = 0
    with torch.no_grad():
        for start in range(0, len(codes), 4096):
            part = slice(start, start + 4096)
            dist = policy.get_distribution(torch.as_tensor(obs[part].toarray()),
                                           action_masks=masks[part])
            best = dist.distribution.probs.argmax(dim=1).numpy()
            if ties:
                hits += int(labels[part][np.arange(len(best)), best].sum())
            else:
                hits += int((best == codes[part]).sum())
    return hits / len(codes)


#: What :func:`clone_policy` fits: the teacher's ``"choice"`` (its code) or its ``"ties"``
#: (any of its equally good codes).
TARGETS = ("choice", "ties")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


#: :func:`clone_policy`'s settings besides the epochs, seed and target, each with the kind of
#: value it takes and the check of that kind.
CLONE_SETTINGS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "batch_size": ("an int >= 1", lambda v: isinstance(v, int) and not isinstance(v, bool)
                   and v >= 1),
    "learning_rate": ("a number > 0", lambda v: _number(v) and v > 0),
    "value_weight": ("a number >= 0", lambda v: _number(v) and v >= 0),
}


def check_clone_settings(target: str, settings: Mapping[str, Any] | None) -> None:
    """Refuse a cloning ``target`` or ``settings`` (:func:`clone_policy` keyword arguments)
    before anything is played or fitted.

    Raises:
        ParameterError: a target not in :data:`TARGETS`, or a setting not in
            :data:`CLONE_SETTINGS` or not of its kind.
    """
    if target not in TARGETS:
        raise ParameterError(f"target = {target!r}: one of {list(TARGETS)}")
    for name, value in (settings or {}).items():
        if name not in CLONE_SETTINGS:
            raise ParameterError(f"cloning setting {name!r}: choose from "
                                 f"{', '.join(CLONE_SETTINGS)} (epochs, seed and target have "
                                 f"their own arguments)")
        kind, ok = CLONE_SETTINGS[name]
        if not ok(value):
            raise ParameterError(f"cloning setting {name} = {value!r}: must be {kind}")


def clone_policy(model: Any, demos: Demonstrations, *, epochs: int = 10, batch_size: int = 256,
                 learning_rate: float = 1e-3, value_weight: float = 0.5, seed: int = 0,
                 target: str = "ties") -> list[dict[str, float]]:
    """Fit ``model``'s policy (a ``MaskablePPO``) to ``demos`` in place: Adam over shuffled
    batches, loss = mean negative log-probability of the teacher's code (``target="choice"``)
    or of the set of its equally good codes (``"ties"``: the summed probability of its labels,
    a partial-label likelihood, so a tie the teacher broke at random is not noise to fit) under
    the masks, + ``value_weight`` * mean squared error of the value head against
    ``demos.returns`` (0: the value head is left to PPO).

    Returns:
        one dict per epoch: ``{"epoch", "loss", "nll", "value_mse"}`` (means over the epoch).
    Raises:
        ParameterError: for ``epochs`` < 1, no demonstrations, or a target or setting
            :func:`check_clone_settings` refuses.
    """
    import torch

    if epochs < 1 or not len(demos.codes):
        raise ParameterError(f"epochs = {epochs}, {len(demos.codes)} decisions: need at least "
                             f"one of each")
    check_clone_settings(target, {"batch_size": batch_size, "learning_rate": learning_rate,
                                  "value_weight": value_weight})
    policy = model.policy
    policy.set_training_mode(True)
    optimiser = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = demos.observations
    codes = torch.as_tensor(demos.codes)
    labels = torch.as_tensor(demos.labels)
    targets = torch.as_tensor(demos.returns)
    rng = np.random.default_rng(seed)
    history = []
    for epoch in range(epochs):
        order = rng.permutation(len(codes))
        sums, batches = np.zeros(3), 0
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            batch = torch.as_tensor(obs[rows].toarray())
            if target == "choice":
                values, log_prob, _ = policy.evaluate_actions(batch, codes[rows],
                                                              action_masks=demos.masks[rows])
            else:  # log of the labels' summed probability (masked codes: log-prob ~ -1e8)
                dist = policy.get_distribution(batch, action_masks=demos.masks[rows])
                log_probs = dist.distribution.logits.masked_fill(~labels[rows], -torch.inf)
                log_prob = torch.logsumexp(log_probs, dim=1)
                values = policy.predict_values(batch)
            nll = -log_prob.mean()
            value_mse = ((values.flatten() - targets[rows]) ** 2).mean()
            loss = nll + value_weight * value_mse
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimiser.step()
            sums += [loss.item(), nll.item(), value_mse.item()]
            batches += 1
        loss, nll, mse = sums / batches
        history.append({"epoch": epoch + 1, "loss": loss, "nll": nll, "value_mse": mse})
    policy.set_training_mode(False)
    return history
