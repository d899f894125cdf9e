"""Running many bot games: seat rotation, per-game seeds, worker processes.

Game ``i`` of a playtest with seed ``S`` uses the game seed ``derive_seed(S, "game", i)`` and
bots seeded from the same value, so any single game can be replayed alone, and the results do
not depend on ``jobs`` (they are returned in game order). Seats rotate: the ``--bots`` list is
cycled to the seat count, then shifted by ``i % players``, so with a number of games that is a
multiple of the seat count every bot sits in every seat equally often.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed


def seat_bots(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Bot names by seat for game ``index``: ``bots`` cycled to ``players``, rotated by
    ``index % players`` (seat ``s`` plays ``cycled[(s + index) % players]``)."""
    cycled = [bots[i % len(bots)] for i in range(players)]
    shift = index % players
    return cycled[shift:] + cycled[:shift]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a playtest seeded with ``seed``."""
    return derive_seed(seed, "game", index)


def play_one(game: Game, bots: Sequence[str], seed: int, index: int,
             keep_record: bool = False) -> dict[str, Any]:
    """Play game ``index`` of a playtest and return its result.

    Returns:
        ``{"index", "seed", "bots", "winners", "returns", "scores", "length", "truncated",
        "seconds"}``, ``"outcome"`` (the final state's :meth:`~meeple.engine.state.State.outcome`,
        e.g. a cooperative game's ``{"team_win", "cause"}``) when the game gives a non-empty
        one, and, if ``keep_record``, ``"record"`` (the record's JSON form).
    """
    names = seat_bots(bots, game.players, index)
    gseed = game_seed(seed, index)
    agents = [make_bot(name, game, s, gseed) for s, name in enumerate(names)]
    start = time.perf_counter()
    state, record = play_episode(game, gseed, agents, meta={"bots": names, "index": index})
    seconds = time.perf_counter() - start
    result = {
        "index": index,
        "seed": gseed,
        "bots": names,
        "winners": list(state.winners()),
        "returns": list(state.returns()),
        "scores": list(state.scores()),
        "length": state.length(),
        "truncated": state.is_truncated(),
        "seconds": seconds,
    }
    outcome = state.outcome()
    if outcome:
        result["outcome"] = dict(outcome)
    if keep_record:
        result["record"] = record.to_json()
    return result


def _play_chunk(game: Game, bots: Sequence[str], seed: int, indices: range,
                keep_record: bool) -> list[dict[str, Any]]:
    return [play_one(game, bots, seed, i, keep_record) for i in indices]


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def run_playtest(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    *,
    records_path: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """Play ``games`` bot games of ``game``, in ``jobs`` worker processes.

    Args:
        game: the game spec (picklable, sent to the workers).
        bots: bot names (``meeple.bots.bot_names(game)``), cycled over the seats.
        games: number of games (>= 1).
        seed: the playtest seed.
        jobs: worker processes; 1 plays in this process; 0 means one per CPU core.
        records_path: if given, every game's record is written there as JSON lines, in order.
        on_progress: called with the number of games just finished.
    Returns:
        ``(results in game order, elapsed wall-clock seconds)``.
    Raises:
        ParameterError: for an unknown bot name, games < 1 or jobs < 0.
    """
    if games < 1:
        raise ParameterError(f"games = {games} must be at least 1")
    if jobs < 0:
        raise ParameterError(f"jobs = {jobs} must be 0 (all cores) or more")
    if not bots:
        raise ParameterError("at least one bot name is needed")
    for name in set(bots):
        make_bot(name, game, 0, 0)  # fail fast, in this process, on an unknown name
    jobs = jobs or os.cpu_count() or 1
    keep = records_path is not None
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    if jobs == 1:
        for chunk in _chunks(games, max(1, min(50, games // 100))):
            part = _play_chunk(game, bots, seed, chunk, keep)
            results.extend(part)
            if on_progress:
                on_progress(len(part))
    else:
        size = max(1, min(200, games // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending = {pool.submit(_play_chunk, game, bots, seed, c, keep) for c in
                       _chunks(games, size)}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    part = future.result()
                    results.extend(part)
                    if on_progress:
                        on_progress(len(part))
        results.sort(key=lambda r: r["index"])
    elapsed = time.perf_counter() - start
    if records_path is not None:
        with Path(records_path).open("w") as fh:
            for r in results:
                fh.write(json.dumps(r.pop("record")) + "\n")
    return results, elapsed
