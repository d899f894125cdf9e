"""The episode runner: the only code that holds the true state while agents play.

Agents (bots, a human at the terminal) receive their seat's view and legal actions, never the
state (engine-patterns 5). The runner asks every acting seat, applies the joint action, and
writes the record as it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine.action import Action
from meeple.engine.agent import Agent
from meeple.engine.game import Game
from meeple.engine.record import Record, initial_state
from meeple.engine.state import State
from meeple.engine.talk import Message, TalkLog


def play_episode(
    game: Game,
    seed: int,
    agents: Sequence[Agent],
    *,
    talk: TalkLog | None = None,
    on_step: Callable[[State, dict[int, Action]], None] | None = None,
    meta: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
) -> tuple[State, Record]:
    """Play one episode from ``game.new_initial_state(seed)`` (or from a position) to the end.

    Args:
        game: the game spec.
        seed: the game's seed (chance stream); agents own their own streams.
        agents: one agent per seat, ``agents[seat]``.
        talk: the table-talk log that agents' messages went to, copied into the record.
        on_step: called after every step with the new state and the joint action applied
            (for interfaces and observers; it must not mutate the state).
        meta: free-form metadata stored in the record (bot names, etc.).
        start: a start (:mod:`meeple.engine.scenario`): play from its position reseeded with
            ``seed`` instead of a new deal; the record keeps it so it replays.
    Returns:
        ``(final_state, record)``; the state is terminal since every game declares a cap on
        its length and keeps each turn finite whatever the seats choose (checked for every
        game by ``tests/test_termination.py``).
    Raises:
        ValueError: if ``len(agents) != game.players``.
        IllegalActionError: if an agent returns an illegal action.
        StateError: if ``start``'s position is not a valid state of ``game``.
    """
    if len(agents) != game.players:
        raise ValueError(
            f"{game.name} has {game.players} seats but {len(agents)} agents were given"
        )
    record = Record(game.name, game.variant, game.players, dict(game.params), seed,
                    meta=dict(meta or {}), start=start)
    state = initial_state(game, record)
    steps = record.steps
    while not state.is_terminal():
        joint = {
            seat: agents[seat].act(state.view(seat), state.legal_actions(seat))
            for seat in state.current_players()
        }
        state.apply_actions(joint)
        steps.append({str(s): str(a) for s, a in joint.items()})
        if on_step is not None:
            on_step(state, joint)
    if talk is not None:
        record.talk = [m.to_json() for m in talk.messages]
    record.finish(state)
    return state, record


def notify_talk(agents: Sequence[Any], message: Message) -> None:
    """Deliver ``message`` to every agent allowed to read it that has a ``hear`` method."""
    for seat, agent in enumerate(agents):
        hear = getattr(agent, "hear", None)
        if hear is not None and message.visible_to(seat) and seat != message.sender:
            hear(message)
