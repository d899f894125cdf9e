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
energy                P        energy / start_energy (may be negative once eliminated; bounds:
                               :func:`energy_limits`)
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


def energy_limits(game: Any) -> tuple[int, int, int, int]:
    """``(lowest, highest, delta_low, delta_high)``: the bounds of a seat's energy and of its
    action-caused change in one round (observation bounds). A round costs a seat at most
    ``max_actions`` indicators at the dearer cost and ``damage`` from each other seat, and
    gains it at most ``defend_refund`` per other seat (Results, B4G-8); a seat plays only
    while its energy is above 0 (B4G-10) and loses at most ``stall_drain`` more to a stall
    (B4G-14), so its energy stays in ``1 + delta_low - stall_drain`` ..
    ``start_energy + max_rounds * delta_high``."""
    p, params = game.players, game.params
    delta_low = -(params["max_actions"] * max(params["attack_cost"], params["defend_cost"])
                  + params["damage"] * (p - 1))
    delta_high = params["defend_refund"] * (p - 1)
    lowest = min(params["start_energy"], 1 + delta_low - params["stall_drain"])
    highest = params["start_energy"] + params["max_rounds"] * delta_high
    return lowest, highest, delta_low, delta_high


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
    lowest, highest, delta_low, delta_high = energy_limits(game)
    w = TensorWriter(11 * p + 4 * p * p + 3)  # filled part by part, in the docstring's order
    w.one_hot(p, seat)
    w.values([e / scale for e in view["energy"]], lowest / scale, highest / scale)
    w.values([1.0 if a else 0.0 for a in view["alive"]])
    w.multi_hot(p, view["to_act"])
    w.multi_hot(p, view["submitted"])
    rounds = params["max_rounds"]
    w.value(view["round"] / rounds)
    stall = params["stall_rounds"]
    w.value(view["stall"] / stall if stall else 0.0, 0.0, rounds / stall if stall else 0.0)
    history = view["history"]
    publics = history[-1][1] if history else [None] * p
    for entry in publics:
        w.multi_hot(p, entry[0] if entry is not None else ())
        w.multi_hot(p, entry[1] if entry is not None else ())
    if history:
        _, _, deltas, drain = history[-1]
        w.values([d / scale for d in deltas], delta_low / scale, delta_high / scale)
        w.value(drain / scale, 0.0, params["stall_drain"] / scale)
    else:
        w.skip(p, delta_low / scale, delta_high / scale)
        w.skip(1, 0.0, params["stall_drain"] / scale)
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
