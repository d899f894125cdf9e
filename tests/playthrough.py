"""Walking a playthrough state by state, for tests that check every state on the way."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from meeple.engine.game import Game
from meeple.engine.state import State


def playthrough(game: Game, seed: int, walk: random.Random,
                bots: Sequence[Any] | None = None) -> Iterator[State]:
    """Each state of one playthrough of ``seed`` before its step, then the step: uniform
    choices from ``walk``, or the ``bots`` (one per seat) when given."""
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        yield state
        step(state, walk, bots)


def step(state: State, walk: random.Random, bots: Sequence[Any] | None = None) -> None:
    """One checked step of a non-terminal ``state``: every acting seat's uniform choice from
    ``walk``, or its bot's (``bots``, one per seat) when given."""
    acting = state.current_players()
    if bots is None:
        joint = {s: walk.choice(state.legal_actions(s)) for s in acting}
    else:
        joint = {s: bots[s].act(state.view(s), state.legal_actions(s)) for s in acting}
    state.apply_actions(joint)


def states_and_draws(game: Game, games: int, bots_every: int, draw_every: int) -> Iterator[State]:
    """Every state of ``games`` seeded playthroughs (heuristic bots in every ``bots_every``-th,
    uniform random choices otherwise), and two determinizations (seeds 0 and 1) from the first
    acting seat's view at every ``draw_every``-th step."""
    from meeple.bots import make_bot

    for g in range(games):
        bots = ([make_bot("heuristic", game, s, g) for s in range(game.players)]
                if g % bots_every == 0 else None)
        for step, state in enumerate(playthrough(game, g, random.Random(g), bots)):
            yield state
            if step % draw_every == 0:  # determinizations: hidden cards redrawn
                draw = game.determinizer(state.view(state.current_players()[0]))
                for k in range(2):
                    yield draw(random.Random(k))


def check_remembered_tables(state: Any, legal_key: Any, legal_tables: Any, generate: Any) -> int:
    """Every acting seat's remembered legal table (``state`` made to remember, as a
    determinization's states do: ``tables`` set to the game spec's ``legal_memo``) is stored
    under ``legal_key`` and equals a fresh ``generate(state, seat)``, text for text, with no
    membership container; returns how many of them came from the memo."""
    memo = state.game.legal_memo
    state = state.clone()
    state.tables = memo
    remembered = sum(legal_key(state, s) in memo for s in state._acting)
    tables = legal_tables(state)
    assert sorted(tables) == list(state._acting)
    for seat in state._acting:
        assert memo[legal_key(state, seat)] is tables[seat]
    for seat, (actions, members) in tables.items():
        fresh = generate(state, seat)
        assert list(actions) == fresh, (seat, state.phase, state.step)
        assert [str(a) for a in actions] == [str(a) for a in fresh]
        assert members is None  # no container: a checked apply builds the set
    return remembered


def steps_keep_stack_lists(state: Any, walk: random.Random, steps: int) -> int:
    """Play ``steps`` random steps on ``state`` (unchecked, as a search plays a draw on),
    checking after each that every list in ``state.stacks`` before it still holds what it did
    (a game whose draws share stack lists must never change one in place); returns how many
    steps changed the stacks."""
    changed = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        before = [(stack, list(stack)) for stack in state.stacks.values()]
        shape = {key: list(stack) for key, stack in state.stacks.items()}
        state.apply_legal({s: walk.choice(state.legal_actions(s))
                           for s in state.current_players()})
        assert all(stack == kept for stack, kept in before)
        changed += shape != state.stacks
    return changed
