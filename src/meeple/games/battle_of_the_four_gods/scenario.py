"""Battle of the Four Gods scenarios: a position from energies and the round (issue 18).

Example (four gods, round 6 to plan, seat 3 already out)::

    from meeple import load_game
    game = load_game("battle-of-the-four-gods")
    state = game.build_scenario(energy=[5, 2, 8, 0], round=5)
    assert state.current_players() == (0, 1, 2)

The game has no chance: a position and the seats' selections decide everything, so there are
no draws to fix. The history starts empty (validation accepts a short history for a position
set up by hand); stall drains count from ``stall``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from meeple.engine.errors import ParameterError
from meeple.engine.scenario import seat_values, validated

if TYPE_CHECKING:
    from meeple.games.battle_of_the_four_gods.rules import FourGods, FourGodsState


def build(game: FourGods, *, energy: Mapping[int, int] | Sequence[int] | None = None,
          round: int = 0, stall: int = 0,  # noqa: A002 (the rules' word)
          eliminated: Mapping[int, int] | None = None) -> FourGodsState:
    """A Four Gods position before round ``round + 1`` is planned.

    Args:
        game: the game spec (its players and parameters apply).
        energy: ENERGY POINTS per seat (a list, or ``{seat: value}``; others start with
            ``start_energy``). A seat at 0 or below is out.
        round: rounds completed; ``stall``: consecutive rounds without an energy change by an
            action (B4G-14).
        eliminated: ``{seat: round}`` the round each out seat fell in (default: ``round``).
    Returns:
        The state, checked like a loaded one (``Game.state_from_json``).
    Raises:
        ParameterError: fewer than two seats standing, a bad seat or round, or a state that
            breaks an invariant (a :class:`~meeple.engine.errors.StateError`).
    """
    n = game.players
    state = game.new_initial_state(0)
    state.energy = [int(e) for e in seat_values(energy, n, game.params["start_energy"],
                                                  "energy")]
    if round < 0 or round >= game.params["max_rounds"]:
        raise ParameterError(f"round: {round} must be in 0..{game.params['max_rounds'] - 1}")
    fallen = dict(eliminated or {})
    out = []
    for s, e in enumerate(state.energy):
        if e > 0:
            if s in fallen:
                raise ParameterError(f"eliminated: seat {s} has {e} energy (out means <= 0)")
            out.append(0)
        else:
            when = int(fallen.get(s, round))
            if not 1 <= when <= round:
                raise ParameterError(f"seat {s} is out: it fell in a round 1..{round} "
                                     f"(round must be at least 1), got {when}")
            out.append(when)
    if sum(1 for r in out if r == 0) < 2:
        raise ParameterError("a scenario needs at least two seats standing (else it is over)")
    state.eliminated_round, state.round, state.stall = out, int(round), int(stall)
    state.history, state.winners_, state.truncated = [], None, False
    state._refresh_acting()
    return validated(state)  # type: ignore[return-value]
