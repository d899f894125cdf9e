"""Running many bot games: seat rotation, per-game seeds, workers, stored records.

Game ``i`` of a playtest with seed ``S`` uses the game seed ``derive_seed(S, "game", i)`` and
bots seeded from the same value, so any single game can be replayed alone, and the results do
not depend on ``jobs`` or the backend (they are returned in game order). Seats rotate: the
``--bots`` list is cycled to the seat count, then shifted by ``i % players``, so with a number
of games that is a multiple of the seat count every bot sits in every seat equally often.

With a :class:`~meeple.lab.run.store.RunStore`, games are stored as they finish and a run that was
interrupted goes on with the games it lacks (``--resume``); since a game depends only on its
index, the resumed run's games equal an uninterrupted run's.

With a ``start`` (``--from position.json``, :mod:`meeple.engine.scenario`), every game starts
from the position reseeded with its game seed (its own future chance) instead of a new deal.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from meeple.bots import make_bot
from meeple.engine.episode import play_episode
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.rng import derive_seed
from meeple.engine.scenario import check_position_matches
from meeple.engine.state import State
from meeple.lab.analysis.trace import Trace
from meeple.lab.run.backends import Backend, make_backend
from meeple.lab.run.store import RunStore, result_columns


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
             keep_record: bool = False, start: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play game ``index`` of a playtest (from ``start``'s position if given) and return its
    result.

    Returns:
        ``{"index", "seed", "bots", "winners", "returns", "scores", "length", "truncated",
        "seconds"}``, ``"outcome"`` (the final state's :meth:`~meeple.engine.state.State.outcome`,
        e.g. a cooperative game's ``{"team_win", "cause"}``) when the game gives a non-empty
        one, the per-game trace fields of :meth:`meeple.lab.analysis.trace.Trace.finish`
        (``lead_changes``, ``leader_before_final``, ``eliminations``, ``actions``, ``cards``;
        a store keeps them in its ``extra`` column) and, if ``keep_record``, ``"record"``
        (the record's JSON form). From a start, ``length`` counts from its position.
    """
    names = seat_bots(bots, game.players, index)
    gseed = game_seed(seed, index)
    agents = [make_bot(name, game, s, gseed) for s, name in enumerate(names)]
    trace = Trace(game)
    began = time.perf_counter()
    state, record = play_episode(game, gseed, agents, on_step=trace.on_step,
                                 meta={"bots": names, "index": index}, start=start)
    seconds = time.perf_counter() - began
    # from a position: counted from it (the position's own length is start["length"])
    result = {"index": index, "seed": gseed, "bots": names,
              **game_result(state, trace, seconds, (start or {}).get("length", 0))}
    if keep_record:
        result["record"] = record.to_json()
    return result


def game_result(state: State, trace: Trace, seconds: float,
                start_length: int = 0) -> dict[str, Any]:
    """The result fields of one finished game, as :func:`play_one` stores them (and
    :mod:`meeple.lab.run.imports` for a replayed record).

    Args:
        state: the game's final state.
        trace: the :class:`~meeple.lab.analysis.trace.Trace` that watched every step (not finished).
        seconds: the game's wall time.
        start_length: ``state.length()`` of the position the game started from (0 for a deal);
            ``length`` counts from it.
    Returns:
        ``{"winners", "returns", "scores", "length", "truncated", "seconds"}``, ``"outcome"``
        when the state gives a non-empty one, and the trace fields of
        :meth:`~meeple.lab.analysis.trace.Trace.finish`, in that order.
    """
    result: dict[str, Any] = {
        "winners": list(state.winners()),
        "returns": list(state.returns()),
        "scores": list(state.scores()),
        "length": state.length() - start_length,
        "truncated": state.is_truncated(),
        "seconds": seconds,
    }
    outcome = state.outcome()
    if outcome:
        result["outcome"] = dict(outcome)
    result.update(trace.finish(state))
    return result


def _play_chunk(game: Game, bots: Sequence[str], seed: int, indices: Sequence[int],
                keep_record: bool, start: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return [play_one(game, bots, seed, i, keep_record, start) for i in indices]


def _play_chunk_columns(game: Game, bots: Sequence[str], seed: int, indices: Sequence[int],
                        start: dict[str, Any] | None = None) -> dict[str, list[Any]]:
    """Play ``indices`` and return them as store columns (done in the worker, so the parent
    only writes Parquet)."""
    return result_columns(play_one(game, bots, seed, i, True, start) for i in indices)


def _chunks(indices: Sequence[int], size: int) -> list[range]:
    """Split sorted ``indices`` into ranges of consecutive indices of at most ``size``."""
    chunks: list[range] = []
    pos = 0
    while pos < len(indices):
        end = pos + 1
        while end < len(indices) and end - pos < size and indices[end] == indices[end - 1] + 1:
            end += 1
        chunks.append(range(indices[pos], indices[end - 1] + 1))
        pos = end
    return chunks


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about 16 tasks per worker (for load balance and frequent progress),
    at most 500 (a few tenths of a second of Four Gods random play) and at least 1; one
    worker gets about 100 tasks of at most 200 games."""
    if workers <= 1:
        return max(1, min(200, games // 100))
    return max(1, min(500, games // (workers * 16)))


def run_playtest(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    *,
    records_path: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
    store: RunStore | None = None,
    backend: str = "process",
    address: str | None = None,
    flush_rows: int = 5000,
    flush_seconds: float = 2.0,
    start: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """Play ``games`` bot games of ``game`` on a backend (``jobs`` workers).

    Args:
        game: the game spec (picklable, sent to the workers).
        bots: bot names (``meeple.bots.bot_names(game)``), cycled over the seats.
        games: number of games (>= 1).
        seed: the playtest seed.
        jobs: workers; 1 plays in this process (with the process backend); 0 means one per
            CPU core.
        records_path: if given, every game's record is written there as JSON lines, in order.
        on_progress: called with the number of games just finished.
        store: if given (a :class:`~meeple.lab.run.store.RunStore` whose config is this run's),
            only the games it does not hold yet are played; they are written to it as Parquet
            parts (a part whenever ``flush_rows`` games or ``flush_seconds`` seconds have
            gathered, and the rest when play stops, also on an exception such as Ctrl-C), and
            the returned results are all the games it holds, read back from it.
        backend: ``"process"`` (a local process pool) or ``"ray"`` (see
            :mod:`meeple.lab.run.backends`); ``address`` is an existing Ray cluster's.
    Returns:
        ``(results in game order, elapsed wall-clock seconds of the play)``; a result is
        :func:`play_one`'s dict (from a store: as :meth:`RunStore.read_results` reads it back,
        equal to the played dict without ``record``).
    Raises:
        ParameterError: for an unknown bot name or backend, games < 1 or jobs < 0, or a start
            whose position is not a playable state of ``game`` (a ``StateError``).
    """
    if games < 1:
        raise ParameterError(f"games = {games} must be at least 1")
    if jobs < 0:
        raise ParameterError(f"jobs = {jobs} must be 0 (all cores) or more")
    if not bots:
        raise ParameterError("at least one bot name is needed")
    for name in set(bots):
        make_bot(name, game, 0, 0)  # fail fast, in this process, on an unknown name
    if start is not None:  # fail fast on a position of another game; lengths count from it
        start = {**start, "length": check_position_matches(game, start).length()}
    began = time.perf_counter()
    if store is not None:
        done = store.finished_indices()
        todo = [i for i in range(games) if i not in done]
    else:
        todo = list(range(games))
    results: list[dict[str, Any]] = []
    if todo:  # (a finished run resumed has nothing to play: no workers are started)
        with make_backend(backend, jobs, address) as runner:
            chunks = _chunks(todo, chunk_size(len(todo), runner.jobs))
            if store is not None:
                _run_stored(runner, store, [(game, bots, seed, c, start) for c in chunks],
                            on_progress, flush_rows, flush_seconds)
            else:
                keep = records_path is not None
                for _, part in runner.imap(_play_chunk, [(game, bots, seed, c, keep, start)
                                                         for c in chunks]):
                    results.extend(part)
                    if on_progress:
                        on_progress(len(part))
    elapsed = time.perf_counter() - began
    if store is not None:
        results = store.read_results()
        if records_path is not None:
            store.export_records(records_path)
        return results, elapsed
    results.sort(key=lambda r: r["index"])
    if records_path is not None:
        with Path(records_path).open("w") as fh:
            for r in results:
                fh.write(json.dumps(r.pop("record")) + "\n")
    return results, elapsed


def _run_stored(runner: Backend, store: RunStore, tasks: list[tuple],
                on_progress: Callable[[int], None] | None, flush_rows: int,
                flush_seconds: float) -> None:
    buffer: dict[str, list[Any]] = {}
    last = time.perf_counter()

    def flush() -> None:
        nonlocal buffer, last
        if buffer:
            store.write(buffer)
        buffer, last = {}, time.perf_counter()

    try:
        for _, cols in runner.imap(_play_chunk_columns, tasks):
            for key, values in cols.items():
                buffer.setdefault(key, []).extend(values)
            if on_progress:
                on_progress(len(cols["index"]))
            if (len(buffer["index"]) >= flush_rows
                    or time.perf_counter() - last >= flush_seconds):
                flush()
    finally:
        flush()
