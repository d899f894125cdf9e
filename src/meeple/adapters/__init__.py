"""Ecosystem adapters: meeple games as OpenSpiel games, PettingZoo and Gymnasium environments.

Each adapter is a module imported on demand, so the core never needs the peer libraries:

* :mod:`meeple.adapters.openspiel` (extra ``meeple[openspiel]``): ``register()`` makes every
  game with an encoding a pyspiel game ``meeple_<game>``;
* :mod:`meeple.adapters.pettingzoo` (extra ``meeple[rl]``): ``env(game, **params)`` (AEC) and
  ``parallel_env(game, **params)`` for games with simultaneous decisions;
* :mod:`meeple.adapters.gymnasium` (extra ``meeple[rl]``): ``make(game, seat=0,
  opponents="random", **params)``, one seat against meeple bots.

All three use the game's encoding (``Game.encoding``: the integer action table and the
observation tensor of one seat's view); a game without one cannot be adapted. Docs:
docs/adapters/.
"""

from __future__ import annotations

from meeple.adapters._common import encoded_game_names

__all__ = ["encoded_game_names"]
