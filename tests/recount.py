"""Record-level recounts: play seeded bot games, then replay their records step by step.

The per-game recount tests (``tests/test_<game>_recount.py``) recompute each scoring or end
rule from the rule document's text, reading only the record (its action texts) and the
replayed states' public fields, never the game's own scoring code, and compare the result
with the final state's ``scores()`` / ``winners()``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.engine.record import Record
from meeple.engine.registry import load_game
from meeple.engine.state import State


def play_record(name: str, bots: Sequence[str], seed: int, variant: str | None = None,
                **params: Any) -> Record:
    """Play one seeded game of ``name`` with one bot per seat (``bots[seat]``, e.g. "random",
    "heuristic") and return its finished :class:`Record` (seat count = ``len(bots)``)."""
    game = load_game(name, variant=variant, players=len(bots), **params)
    agents = [make_bot(bot, game, seat, seed * 31 + seat) for seat, bot in enumerate(bots)]
    _, record = play_episode(game, seed, agents, meta={"bots": list(bots)})
    return record


def replay_steps(record: Record) -> Iterator[tuple[State, dict[int, str], State]]:
    """Replay ``record`` from its seed, yielding ``(before, joint, after)`` for every step:
    the state before the step (a clone), the joint action as ``{seat: text}``, and the state
    after it (the live state: do not mutate it, clone it to keep it)."""
    game = load_game(record.game, record.variant, record.players, **record.params)
    state = game.new_initial_state(record.seed)
    for step in record.steps:
        before = state.clone()
        joint = {int(s): text for s, text in step.items()}
        state.apply_actions({s: game.parse_action(t, s) for s, t in joint.items()})
        yield before, joint, state


def final_state(record: Record) -> State:
    """The record's final state, replayed (and checked against the recorded digest)."""
    from meeple.engine.record import replay

    return replay(record)


def top_seats(values: Sequence[float]) -> tuple[int, ...]:
    """Seats holding the highest of ``values`` (a shared win, as X-6 and the pages say)."""
    best = max(values)
    return tuple(s for s, v in enumerate(values) if v == best)
