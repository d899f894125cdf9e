"""Four Gods as fixed-size numbers for the learning adapters (``Game.encoding``).

Action table (``action_texts``): every selection text any seat can take in this game
instance (at most ``max_actions`` indicators; with ``reveal_lock``, each also face up), seat
by seat in the canonical order of :func:`~.actions.all_selections`, each text once. Texts name
colours, not relative seats, so ``atk:G`` is one code for every seat that can attack GREEN. With
4 seats and the default ``max_actions = 3`` the table has 93 texts (175 with all 6 indicators).

Observation (``observation_tensor``), from one seat's view only, ``P`` = seat count, in this
order (float32, ``observation_shape = (11 * P + 4 * P * P + 3,)``, 111 numbers for 4 seats):

====================  =======  ===================================================================
part                  size     value
====================  =======  ===================================================================
own seat              P        one-hot
energy                P        energy / start_energy (may be negative once eliminated)
alive                 P        1 while the seat is in the game
to act                P        1 for seats whose selection for this round is not in yet
submitted             P        1 for seats whose selection is in (pending, never its content)
round                 1        round being planned / max_rounds
stall                 1        stall counter / stall_rounds (0 without the stall rule)
last round            2 P P    per seat: the seats it attacked, then defended against (public)
last deltas           P        action-caused energy change per seat last round / start_energy
last drain            1        stall drain applied last round / start_energy
own pending           2 P      own submitted selection: attacked seats, then defended seats
revealed pending      2 P P    face-up pending selections (``reveal_lock``): per seat, as above
revealed flags        P        1 for seats whose pending selection is face up
own reveal            P        1 at the own seat when its pending selection is face up
winners               P        1 for the winners once the game is over
====================  =======  ===================================================================

Rules: docs/rules/battle-of-the-four-gods.md (B4G-19: selections are secret until the reveal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from meeple.engine.tensor import TensorWriter
from meeple.games.battle_of_the_four_gods.actions import all_selections, parse_selection


def action_texts(game: Any) -> list[str]:
    """Every selection text of any seat, each once, in a stable order (module docstring)."""
    most = game.params["max_actions"]
    reveals = (False, True) if game.params["reveal_lock"] else (False,)
    seen: dict[str, None] = {}
    for reveal in reveals:
        for seat in range(game.players):
            for sel in all_selections(game.players, seat, reveal):
                if sel.size <= most:
                    seen.setdefault(str(sel), None)
    return list(seen)


def observation_shape(game: Any) -> tuple[int]:
    """``(11 * P + 4 * P * P + 3,)`` for ``P`` seats (module docstring)."""
    p = game.players
    return (11 * p + 4 * p * p + 3,)


def max_steps(game: Any) -> int:
    """Most engine steps (``apply_actions`` calls) a playthrough can take: one per round, and
    the game ends after ``max_rounds`` rounds at the latest (B4G-14, X-5)."""
    return int(game.params["max_rounds"])


def observation_tensor(game: Any, view: Mapping[str, Any]) -> np.ndarray:
    """One seat's view (``State.view(seat)``, or its JSON round trip) as the vector of the
    module docstring. Reads only the view.

    Raises:
        KeyError: if ``view`` is not a Four Gods seat view.
    """
    p = game.players
    params = game.params
    scale = float(params["start_energy"])
    seat = view["seat"]
    w = TensorWriter(11 * p + 4 * p * p + 3)  # filled part by part, in the docstring's order
    w.one_hot(p, seat)
    w.values([e / scale for e in view["energy"]])
    w.values([1.0 if a else 0.0 for a in view["alive"]])
    w.multi_hot(p, view["to_act"])
    w.multi_hot(p, view["submitted"])
    w.value(view["round"] / params["max_rounds"])
    w.value(view["stall"] / params["stall_rounds"] if params["stall_rounds"] else 0.0)
    history = view["history"]
    publics = history[-1][1] if history else [None] * p
    for entry in publics:
        w.multi_hot(p, entry[0] if entry is not None else ())
        w.multi_hot(p, entry[1] if entry is not None else ())
    if history:
        _, _, deltas, drain = history[-1]
        w.values([d / scale for d in deltas])
        w.value(drain / scale)
    else:
        w.skip(p + 1)
    mine = view.get("my_submission")
    own = parse_selection(mine, p, seat) if mine is not None and seat is not None else None
    w.multi_hot(p, own.attacks if own is not None else ())
    w.multi_hot(p, own.defends if own is not None else ())
    revealed = {int(key): parse_selection(text, p, int(key))
                for key, text in (view.get("revealed") or {}).items()}
    for s in range(p):
        w.multi_hot(p, revealed[s].attacks if s in revealed else ())
        w.multi_hot(p, revealed[s].defends if s in revealed else ())
    w.multi_hot(p, revealed)
    w.one_hot(p, seat if own is not None and own.reveal else None)
    w.multi_hot(p, view.get("winners") or ())
    return w.done()
