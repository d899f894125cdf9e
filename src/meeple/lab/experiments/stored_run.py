"""One stored, summarised run of a loaded game: what ``meeple study`` keeps for every question,
for callers that play a game with non-default parameters (``meeple study --target`` confirms
parameter settings this way).

:func:`play_stored` plays ``games`` games into a :class:`~meeple.lab.run.store.RunStore`
folder (so ``meeple report DIR`` and ``meeple replay DIR --index N`` work on it, with the
game's parameters read back from ``run.json``), records the session, summarises the results
with :func:`meeple.lab.analysis.stats.summarize` and writes ``summary.json`` beside them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from meeple.engine.game import Game
from meeple.lab.analysis.stats import summarize
from meeple.lab.run.backends import resolve_jobs
from meeple.lab.run.runner import run_playtest
from meeple.lab.run.store import RUN_JSON, RunStore, run_config

__all__ = ["play_stored"]


def play_stored(game: Game, bots: Sequence[str], games: int, seed: int, where: str | Path,
                jobs: int = 1, *, resume: bool = False,
                on_progress: Callable[[int], None] | None = None,
                backend: str = "process", address: str | None = None
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play (or, resuming, finish) one stored run of ``game`` and summarise it.

    Args:
        game: the loaded game (variant, seat count and parameters as played).
        bots: bot names cycled over the seats; games (>= 1), seed: as for a playtest.
        where: the run's folder (created; must not hold another run unless ``resume``).
        jobs: workers (0: every core). resume: go on with the games already stored in
            ``where`` (its ``run.json`` must be this run's config).
        on_progress: called with the number of games just finished.
        backend, address: where the games are played (:func:`~meeple.lab.run.runner.
            run_playtest`: ``process`` or ``ray``); the results do not depend on it.
    Returns:
        ``(results in game order, summary)``; ``summary.json`` is written in ``where``.
    Raises:
        MeepleError: a folder holding another run (``StoreError``), an unknown bot, games < 1.
        KeyboardInterrupt is re-raised after the session is recorded as interrupted.
    """
    where = Path(where)
    config = run_config(game, bots, games, seed)
    if resume and (where / RUN_JSON).is_file():
        store = RunStore.resume(where, config)
    else:
        store = RunStore.create(where, config)
    played = 0

    def advance(k: int) -> None:
        nonlocal played
        played += k
        if on_progress is not None:
            on_progress(k)

    workers = resolve_jobs(jobs)
    start = time.perf_counter()
    store.begin_session(jobs=workers, backend=backend)
    try:
        results, _ = run_playtest(game, list(bots), games, seed, jobs, store=store,
                                  on_progress=advance, backend=backend, address=address)
    except KeyboardInterrupt:
        store.add_session(games_played=played, elapsed_seconds=time.perf_counter() - start,
                          jobs=workers, backend=backend, status="interrupted")
        raise
    store.add_session(games_played=played, elapsed_seconds=time.perf_counter() - start,
                      jobs=workers, backend=backend)
    summary = summarize(results, game=game.name, variant=game.variant, players=game.players,
                        params=dict(game.params), seed=seed, bots=list(bots),
                        seat_names=list(game.seat_names()),
                        length_unit=game.capabilities.length_unit,
                        elapsed_seconds=store.elapsed_seconds(), jobs=workers,
                        cooperative=game.capabilities.cooperative)
    summary["score"]["name"] = type(game).score_name
    (where / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return results, summary
