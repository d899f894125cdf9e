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
    out = [0.0] * (11 * p + 4 * p * p + 3)  # filled part by part, in the docstring's order
    if seat is not None:
        out[seat] = 1.0
    out[p:2 * p] = [e / scale for e in view["energy"]]
    out[2 * p:3 * p] = [1.0 if a else 0.0 for a in view["alive"]]
    for s in view["to_act"]:
        out[3 * p + s] = 1.0
    for s in view["submitted"]:
        out[4 * p + s] = 1.0
    i = 5 * p
    out[i] = view["round"] / params["max_rounds"]
    out[i + 1] = view["stall"] / params["stall_rounds"] if params["stall_rounds"] else 0.0
    i += 2
    history = view["history"]
    if history:
        _, publics, deltas, drain = history[-1]
        for s, entry in enumerate(publics):
            if entry is not None:
                base = i + 2 * p * s
                for t in entry[0]:
                    out[base + t] = 1.0
                for t in entry[1]:
                    out[base + p + t] = 1.0
        out[i + 2 * p * p:i + 2 * p * p + p] = [d / scale for d in deltas]
        out[i + 2 * p * p + p] = drain / scale
    i += 2 * p * p + p + 1
    own_reveal = i + 3 * p + 2 * p * p
    mine = view.get("my_submission")
    if mine is not None and seat is not None:
        sel = parse_selection(mine, p, seat)
        for t in sel.attacks:
            out[i + t] = 1.0
        for t in sel.defends:
            out[i + p + t] = 1.0
        if sel.reveal:
            out[own_reveal + seat] = 1.0
    i += 2 * p
    for key, text in (view.get("revealed") or {}).items():
        s = int(key)
        sel = parse_selection(text, p, s)
        for t in sel.attacks:
            out[i + 2 * p * s + t] = 1.0
        for t in sel.defends:
            out[i + 2 * p * s + p + t] = 1.0
        out[i + 2 * p * p + s] = 1.0
    i = own_reveal + p
    for s in view.get("winners") or ():
        out[i + s] = 1.0
    return np.array(out, dtype=np.float32)
