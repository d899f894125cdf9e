"""Ecosystem adapters: meeple games as OpenSpiel games, PettingZoo and Gymnasium environments.

Each adapter is a module imported on demand, so the core never needs the peer libraries:

* :mod:`meeple.adapters.openspiel` (extra ``meeple[openspiel]``): ``register()`` makes every
  game with an encoding a pyspiel game ``meeple_<game>``;
* :mod:`meeple.adapters.pettingzoo` (extra ``meeple[rl]``): ``env(game, **params)`` (AEC) and
  ``parallel_env(game, **params)`` for games with simultaneous decisions;
* :mod:`meeple.adapters.gymnasium` (extra ``meeple[rl]``): ``make(game, seat=0,
  opponents="random", **params)``, one seat against meeple bots;
* :mod:`meeple.adapters.rl` (extra ``meeple[rl]``, with sb3-contrib and PyTorch):
  ``train_maskable_ppo(game, ...)`` trains a masked PPO agent through the Gymnasium adapter
  and saves it as an ``rl:PATH`` bot (:mod:`meeple.bots.rl`);
* :mod:`meeple.adapters.imitation` (the same extra): demonstrations of a bot recorded as the
  learner sees them and a behavioural-cloning fit of the policy, ``train_maskable_ppo``'s
  imitation warm start (``imitate=GAMES``).

All of them use the game's encoding (``Game.encoding``: the integer action table and the
observation tensor of one seat's view); a game without one cannot be adapted. Docs:
docs/adapters/.
"""

from __future__ import annotations

from meeple.adapters._common import encoded_game_names

__all__ = ["encoded_game_names"]
