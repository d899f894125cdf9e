"""Meeple games as OpenSpiel (pyspiel) Python games. Needs the extra ``meeple[openspiel]``.

``register()`` registers every game that declares an encoding as ``meeple_<game>`` (``-``
becomes ``_``), so ``pyspiel.load_game("meeple_battle_of_the_four_gods(players=3)")`` and every
OpenSpiel algorithm work on it. Game parameters (all optional):

============  =======  =========================================================================
name          default  meaning
============  =======  =========================================================================
players       game's   seat count (OpenSpiel player ``i`` is meeple seat ``i``)
variant       first    a variant name of the game
params        ""       rule-parameter overrides as ``name:value;name:value`` (no commas: OpenSpiel
                       game strings split on them)
seeds         4096     games with chance: how many meeple seeds the opening chance node deals
rng_seed      0        which meeple seeds those are (outcome ``i`` is seed
                       ``derive_seed(rng_seed, "openspiel", i)``; games without chance: the seed)
turn_based    false    present simultaneous decisions one seat at a time (SEQUENTIAL dynamics)
============  =======  =========================================================================

How the meeple game maps onto OpenSpiel (docs/adapters/openspiel.md has the reasons):

* **Dynamics.** A game with simultaneous decisions (``capabilities.simultaneous``) is
  SIMULTANEOUS: where several seats act, ``current_player()`` is ``SIMULTANEOUS`` and every
  player gives an action; a seat that does not act there has exactly one legal action, the
  extra code ``num_distinct_actions() - 1`` (``"wait"``). Where one seat acts, it is that
  player's node. With ``turn_based=true`` (or a game without simultaneous decisions) the game
  is SEQUENTIAL; a simultaneous decision is taken seat by seat, ascending, each submission
  hidden from the others until the decision resolves (the engine's pending submissions).
* **Actions.** Code ``c`` of seat ``s`` is ``game.action_from_code(c, s)``: the index of the
  action's text in the game's action table (``Game.action_table``), stable per instance.
* **Chance.** A meeple state draws every chance outcome (shuffles, dice) from its own stream,
  a function of its seed, so the seed is the whole of a playthrough's chance. A game with
  chance is therefore EXPLICIT_STOCHASTIC with exactly one chance node, at the start: a uniform
  draw of one of ``seeds`` meeple seeds (``max_chance_outcomes = seeds``), hidden from every
  player (it is in OpenSpiel's ``history()`` but in no observation). Clones and deserialized
  states keep the state's stream, so they replay the same chance outcomes. (SAMPLED_STOCHASTIC
  would fit too, but pyspiel cannot serialize a Python game's random state, so
  ``random_sim_test(..., serialize=True)`` could not pass.) A game without chance is
  DETERMINISTIC and starts at its first decision.
* **Information.** IMPERFECT_INFORMATION for a game with hidden cards, simultaneous decisions
  or chance (the unseen opening seed fixes every later roll); PERFECT_INFORMATION otherwise.
  The observation string is the seat's view (``State.view``) as
  canonical JSON; the observation tensor is ``Game.observation_tensor`` of that view. The
  information-state string (perfect recall) is the current view's JSON and a SHA-256 digest
  of everything before it that the seat saw: each change of its view and each of its own
  actions, in order. Equal strings mean equal information (up to hash collisions).
  No information-state tensor.
* **Utility.** Returns are ``State.returns()`` at the end (win shares, X-6), 0 before:
  CONSTANT_SUM (sum 1) for competitive games, GENERAL_SUM for cooperative ones (Epoch Ellipse
  pays 1 to each surviving seat of a winning team), utility in ``0..1``; TERMINAL rewards.
* **Length.** ``max_game_length`` is the encoding's ``max_steps(game)`` if it declares one,
  else ``capabilities.max_length * players * 64`` (see :mod:`meeple.adapters._common`), times
  ``players`` with ``turn_based=true`` for games with simultaneous decisions.
* **Serialization.** A state pickles as ``State.to_json()`` of its root and current meeple
  state plus its move log (OpenSpiel's default for Python games pickles ``__dict__``), so
  ``pyspiel.deserialize_game_and_state`` restores it exactly.

Search: :class:`MeepleEvaluator` scores non-terminal states with the game's own evaluator, and
:func:`resampler` gives ``ISMCTSBot.set_resampler`` information-set samples drawn with
``Game.determinize``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pyspiel

from meeple.adapters._common import (
    encoded_game,
    encoded_game_names,
    legal_codes,
    max_steps,
    param_text,
    parse_param_text,
    view_text,
)
from meeple.adapters._spiel_core import Core
from meeple.engine.errors import IllegalActionError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.engine.rng import derive_seed

PREFIX = "meeple_"
#: Observation and state text at the opening chance node, before the seed is dealt.
BEFORE_DEAL = "(before the deal)"
WAIT = "wait"
#: Default number of meeple seeds the opening chance node of a game with chance deals.
DEFAULT_SEEDS = 4096
_GT = pyspiel.GameType
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def short_name(game_name: str) -> str:
    """The OpenSpiel name of a meeple game: ``meeple_`` + the name with ``-`` as ``_``."""
    return PREFIX + game_name.replace("-", "_")


def register(games: Iterable[str] | None = None) -> list[str]:
    """Register meeple games with pyspiel (idempotent).

    Args:
        games: meeple game names; ``None`` registers every game that declares an encoding.
    Returns:
        The OpenSpiel short names, in the order given.
    Raises:
        NotImplementedError: for a named game without an encoding.
        UnknownGameError: for an unknown name.
    """
    names = encoded_game_names() if games is None else list(games)
    known = set(pyspiel.registered_names())
    out = []
    for name in names:
        short = short_name(name)
        if short not in known:
            default = encoded_game(load_game(name))
            pyspiel.register_game(_game_type(default, turn_based=False),
                                  _creator(name))
            known.add(short)
        out.append(short)
    return out


def load(game: Game | str, *, rng_seed: int = 0, turn_based: bool = False,
         seeds: int = DEFAULT_SEEDS, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of a meeple game (registering it first if needed).

    Args:
        game: a loaded meeple game or a name (then ``variant``, ``players`` and rule
            parameters may be passed in ``params``).
        rng_seed: picks the meeple seeds the opening chance node deals (module docstring).
        turn_based: present simultaneous decisions one seat at a time.
        seeds: how many meeple seeds the opening chance node deals (games with chance).
    Returns:
        The pyspiel game.
    """
    spec = encoded_game(game, **params)
    register([spec.name])
    return pyspiel.load_game(short_name(spec.name), {
        "players": spec.players, "variant": spec.variant, "params": param_text(spec),
        "rng_seed": int(rng_seed), "turn_based": bool(turn_based), "seeds": int(seeds)})


def meeple_state(state: pyspiel.State) -> Any:
    """The meeple :class:`~meeple.engine.state.State` inside an adapter state (read it,
    do not change it)."""
    return state._core.get()


# ------------------------------------------------------------------------------- the game
def _game_type(game: Game, turn_based: bool) -> pyspiel.GameType:
    caps = game.capabilities
    cls = type(game)
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"meeple {cls.title}",
        dynamics=(_GT.Dynamics.SIMULTANEOUS if caps.simultaneous and not turn_based
                  else _GT.Dynamics.SEQUENTIAL),
        chance_mode=(_GT.ChanceMode.EXPLICIT_STOCHASTIC if caps.chance
                     else _GT.ChanceMode.DETERMINISTIC),
        # A game with chance is imperfect information here even without hidden cards: the
        # opening chance node deals a seed that fixes every later roll, and no seat sees it.
        information=(_GT.Information.IMPERFECT_INFORMATION
                     if caps.hidden_information or caps.simultaneous or caps.chance
                     else _GT.Information.PERFECT_INFORMATION),
        utility=_GT.Utility.GENERAL_SUM if caps.cooperative else _GT.Utility.CONSTANT_SUM,
        reward_model=_GT.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": cls.default_players,
            "variant": cls.variants[0].name,
            "params": "",
            "seeds": DEFAULT_SEEDS,
            "rng_seed": 0,
            "turn_based": False,
        },
    )


def _creator(name: str) -> type[MeepleGame]:
    """A subclass of :class:`MeepleGame` for one meeple game, called with the parameters.

    A class, not a closure: pyspiel's registry keeps its creator until after the interpreter
    has finalized, and dropping the last reference to a plain function then aborts the
    process; a class is never freed by that (its own ``__mro__`` keeps it alive).
    """

    def __init__(self: MeepleGame, params: dict) -> None:
        MeepleGame.__init__(self, name, params)

    title = "".join(part.title() for part in name.split("-"))
    return type(f"Meeple{title}Game", (MeepleGame,), {"__init__": __init__,
                                                      "__module__": __name__})


class MeepleGame(pyspiel.Game):
    """A meeple game instance as a pyspiel game (see the module docstring).

    Attributes:
        meeple: the meeple :class:`~meeple.engine.game.Game`.
        simultaneous: whether the OpenSpiel dynamics are SIMULTANEOUS.
        wait: the code of the no-op action of non-acting seats at simultaneous nodes (None for
            SEQUENTIAL dynamics).
    """

    def __init__(self, name: str, params: dict) -> None:
        params = dict(params)
        overrides = parse_param_text(name, str(params.get("params", "")))
        spec = encoded_game(load_game(name, variant=str(params["variant"]),
                                      players=int(params["players"]), **overrides))
        turn_based = bool(params["turn_based"])
        caps = spec.capabilities
        simultaneous = caps.simultaneous and not turn_based
        actions = spec.num_distinct_actions()
        seeds = int(params["seeds"]) if caps.chance else 0
        if caps.chance and not 1 <= seeds <= 1 << 24:
            raise ValueError(f"seeds = {seeds}: expected 1..{1 << 24}")
        length = max_steps(spec) * (spec.players if caps.simultaneous and turn_based else 1)
        super().__init__(
            _game_type(spec, turn_based),
            pyspiel.GameInfo(
                num_distinct_actions=actions + (1 if simultaneous else 0),
                max_chance_outcomes=seeds,
                num_players=spec.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None if caps.cooperative else 1.0,
                max_game_length=length,
            ),
            params,
        )
        self.meeple = spec
        self.simultaneous = simultaneous
        self.wait = actions if simultaneous else None
        self.seeds = seeds
        self.rng_seed = int(params["rng_seed"])

    def seed_of(self, outcome: int) -> int:
        """The meeple seed that chance outcome ``outcome`` of the opening node deals."""
        return derive_seed(self.rng_seed, "openspiel", int(outcome))

    def max_chance_nodes_in_history(self) -> int:
        return 1 if self.seeds else 0

    def new_initial_state(self, *args: Any) -> MeepleState:
        """A new playthrough: the opening chance node for games with chance, else the first
        decision (the meeple state is built on first use)."""
        if args:
            raise ValueError("meeple games start only from new_initial_state()")
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """An observer of one seat (``private_info`` SINGLE_PLAYER: its view, or with
        ``perfect_recall`` its information state) or of the public part (NONE: the
        spectator's view, string only).

        Raises:
            ValueError: for observer parameters, ALL_PLAYERS, or public perfect recall.
        """
        if params:
            raise ValueError(f"meeple observers take no parameters, got {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        private = (iig_obs_type.private_info if iig_obs_type is not None
                   else pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("meeple views are per seat; ALL_PLAYERS observations are not offered")
        public = private == pyspiel.PrivateInfoType.NONE
        if public and recall:
            raise ValueError("public perfect-recall observations are not offered")
        return _Observer(self.meeple, recall=recall, public=public)


class _Observer:
    """A pyspiel Python observer: ``set_from`` fills ``tensor``, ``string_from`` reads text."""

    def __init__(self, game: Game, recall: bool, public: bool) -> None:
        self.game = game
        self.recall = recall
        self.public = public
        if recall or public:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            shape = game.observation_shape()
            self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MeepleState, player: int) -> None:
        if self.tensor is not None:
            core = state._core
            if not core.dealt:
                self.tensor[:] = 0.0
                return
            view = core.get().view(player)
            self.tensor[:] = self.game.observation_tensor(view).reshape(-1)

    def string_from(self, state: MeepleState, player: int) -> str:
        core = state._core
        if not core.dealt:
            return BEFORE_DEAL
        if self.recall:
            return core.information_state(player)
        return view_text(core.get().view(None if self.public else player))


# ------------------------------------------------------------------------------ the state
class MeepleState(pyspiel.State):
    """One point of a playthrough. Everything lives in ``_core`` (a :class:`Core`), the only
    Python attribute, so OpenSpiel's clone (deep copy of ``__dict__``) and serialization
    (pickle of ``__dict__``) go through the meeple state's own clone and JSON."""

    def __init__(self, game: MeepleGame, core: Core | None = None) -> None:
        super().__init__(game)
        self._core = core if core is not None else Core(
            game.meeple, game.simultaneous, game.wait,
            seed=None if game.seeds else game.seed_of(0))

    def current_player(self) -> int:
        core = self._core
        state = core.state
        if state is None:
            if core.seed is None:
                return _CHANCE
            state = core.get()
        acting = state.current_players()
        if not acting:
            return _TERMINAL
        if len(acting) > 1 and core.simultaneous:
            return _SIMULTANEOUS
        return acting[0]

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        state = core.get()
        if player in state.current_players():
            return legal_codes(core.game, state.legal_actions(player))
        return [core.wait] if core.wait is not None else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The opening deal: each of the game's ``seeds`` meeple seeds, uniformly."""
        n = self.get_game().seeds
        return [(i, 1.0 / n) for i in range(n)] if not self._core.dealt else []

    def _apply_action(self, action: int) -> None:
        if not self._core.dealt:
            game = self.get_game()
            if not 0 <= action < game.seeds:
                raise IllegalActionError(f"chance outcome {action} is outside 0..{game.seeds - 1}")
            self._core.deal(game.seed_of(action))
            return
        state = self._core.get()
        seat = state.current_players()[0]
        self._core.apply(((seat, self._core.action(seat, action)),))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        core = self._core
        acting = core.get().current_players()
        joint = []
        for seat, code in enumerate(actions):
            if seat in acting:
                joint.append((seat, core.action(seat, code)))
            elif code != core.wait:
                raise IllegalActionError(f"player {seat} does not act here; its only legal "
                                         f"action is {core.wait} ({WAIT}), not {code}")
        core.apply(tuple(joint))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed #{action}"
        if action == core.wait and core.wait is not None:
            return WAIT
        table = core.game.action_table()
        return table[action] if 0 <= action < len(table) else f"<code {action}>"

    def is_terminal(self) -> bool:
        return self._core.dealt and self._core.get().is_terminal()

    def returns(self) -> list[float]:
        core = self._core
        if not core.dealt:
            return [0.0] * core.game.players
        return [float(r) for r in core.get().returns()]

    def __str__(self) -> str:
        if not self._core.dealt:
            return BEFORE_DEAL
        state = self._core.get()
        return f"{state!r} digest={state.digest()}"


# ------------------------------------------------------------------------------- search
class MeepleEvaluator:
    """An OpenSpiel MCTS/ISMCTS evaluator (``evaluate``, ``prior``) using the game's own
    evaluator (``Game.state_evaluator``: per seat an estimate in 0..1 of its return) at
    non-terminal states and the returns at terminal ones; uniform priors. Falls back to
    one random playout when the game has no evaluator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        inner = meeple_state(state)
        if inner.is_terminal():
            return np.asarray(inner.returns(), dtype=float)
        judge = inner.game.state_evaluator()
        if judge is None:
            playout = inner.clone()
            playout.playout(self._rng)
            return np.asarray(playout.returns(), dtype=float)
        return np.asarray(judge(inner), dtype=float)

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def resampler(seed: int = 0) -> Callable[[pyspiel.State, int], pyspiel.State]:
    """A callback for ``ISMCTSBot.set_resampler``: ``(state, player) -> state`` drawn with
    ``Game.determinize`` from ``player``'s view (its information state is unchanged), with
    its own random stream seeded by ``seed``."""
    rng = random.Random(seed)

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        game = state.get_game()
        new = game.new_initial_state()
        new._core = state._core.resampled(player, rng)
        return new

    return resample

