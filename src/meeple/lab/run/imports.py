"""Turning meeple records into a lab run: games played elsewhere (on the server, in the
terminal, in another playtest) become a :class:`~meeple.lab.run.store.RunStore` that every lab
reader takes unchanged (``meeple report DIR``, ``meeple replay DIR --index N``,
:meth:`RunStore.read_results`, :func:`~meeple.lab.run.store.connect`).

All records of one import share one game spec (game, variant, players, parameters and, for
games played from a position, the start). Each is replayed with verification, its final state
must match the recorded digest and be terminal, and its result row is computed from the replay
by :func:`meeple.lab.run.runner.game_result` with a :class:`~meeple.lab.analysis.trace.Trace`
watching every step, exactly as a playtest computes its own games'. Nothing is written until every
record has passed, so a refused import leaves the output directory as it was.

A row's ``bots`` are the seats' labels: a playtest's or the terminal's record gives
``meta.bots``; a server record gives, per ``meta.seats`` entry, the bot's name (``heuristic``)
or, for a person, ``person``: all people pooled into one row of the report's bot tables, since
display names are chosen at the table (one person may use several, two people the same one)
and too few games per name would give intervals too wide to read; ``name_people=True`` labels
them ``person:NAME`` instead. ``seconds`` is the game's wall time from ``meta.started_at`` to
``meta.finished_at`` (server records), else 0. ``seed`` is the record's seed; the run's
``playtest_seed`` is null (run.json ``seed`` null). Games are indexed 0..n-1 in the order
:func:`order_records` gives. ``run.json`` keeps ``imported``: the sources and, per index, where
the game came from (``origin``) and when it finished when known.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.engine.errors import MeepleError, RecordError
from meeple.engine.game import Game
from meeple.engine.record import Record, initial_state, replay
from meeple.engine.registry import load_game
from meeple.lab.analysis.trace import Trace
from meeple.lab.run.runner import game_result
from meeple.lab.run.store import RunStore, result_columns

__all__ = ["ImportedRun", "RecordImportError", "Source", "import_records", "order_records",
           "seat_labels", "spec_key", "spec_label"]

#: Rows per Parquet part written by an import.
PART_ROWS = 5000


class RecordImportError(MeepleError, ValueError):
    """Records that cannot become one lab run: a mix of game specs, a record whose replay
    does not reach its recorded digest, an unfinished game, no records at all."""


@dataclass
class Source:
    """One record to import and where it came from (``origin``: ``table ID``,
    ``games/ID.json``, ``records.jsonl:3``), for messages and ``run.json``."""

    origin: str
    record: Record


@dataclass
class ImportedRun:
    """What :func:`import_records` wrote: the store, its number of games, and the records left
    out as duplicates (``(origin, origin of the game it repeats)``)."""

    store: RunStore
    games: int
    duplicates: list[tuple[str, str]] = field(default_factory=list)


# ------------------------------------------------------------------------------ game spec
def spec_key(record: Record) -> str:
    """The record's game spec as one comparable text (game, variant, players, parameters and
    start, as recorded)."""
    return json.dumps([record.game, record.variant, record.players, record.params,
                       record.start], sort_keys=True, default=str)


def spec_label(record: Record) -> str:
    """``damocles (variant seed, 2 players)``, and ``, from a position`` for a start."""
    text = f"{record.game} (variant {record.variant}, {record.players} players"
    return text + (", from a position)" if record.start is not None else ")")


def _spec_differences(record: Record, first: Record) -> list[str]:
    """What differs in ``record``'s game spec from ``first``'s, one phrase per field."""
    out = []
    for name in ("game", "variant", "players", "params"):
        mine, theirs = getattr(record, name), getattr(first, name)
        if mine != theirs:
            if name == "params":
                keys = sorted(k for k in {*mine, *theirs} if mine.get(k) != theirs.get(k))
                out.append("parameters " + ", ".join(
                    f"{k}={mine.get(k)!r} (first: {theirs.get(k)!r})" for k in keys))
            else:
                out.append(f"{name} {mine!r} (first: {theirs!r})")
    if record.start != first.start:
        out.append("its start position")
    return out


def _load(record: Record) -> Game:
    try:
        return load_game(record.game, record.variant, record.players, **record.params)
    except MeepleError as exc:
        raise RecordImportError(f"its game cannot be loaded: {exc}") from None


# ---------------------------------------------------------------------------- per record
def seat_labels(record: Record, name_people: bool = False) -> list[str]:
    """The ``bots`` column of ``record``'s game: a label per seat (module docstring).

    Args:
        record: a record with ``meta.seats`` (server) or ``meta.bots`` (playtest, terminal).
        name_people: label a server seat's person ``person:NAME`` instead of ``person``.
    Returns:
        One label per seat; ``unknown`` for every seat of a record with neither.
    Raises:
        RecordImportError: ``meta.seats`` or ``meta.bots`` does not have one entry per seat.
    """
    meta = record.meta or {}
    seats, bots = meta.get("seats"), meta.get("bots")
    if isinstance(seats, list):
        labels = []
        for seat in seats:
            kind, name = str(seat.get("kind", "")), str(seat.get("name", ""))
            if kind == "bot":
                labels.append(name or "bot")
            elif kind == "person":
                labels.append(f"person:{name}" if name_people and name else "person")
            else:
                labels.append(kind or "unknown")
    elif isinstance(bots, list):
        labels = [str(b) for b in bots]
    else:
        return ["unknown"] * record.players
    if len(labels) != record.players:
        raise RecordImportError(f"meta lists {len(labels)} seats for a {record.players}-seat "
                                "game")
    return labels


def _seconds(meta: dict[str, Any]) -> float:
    started, finished = meta.get("started_at"), meta.get("finished_at")
    if isinstance(started, int | float) and isinstance(finished, int | float):
        return max(0.0, float(finished) - float(started))
    return 0.0


def _finished_at(record: Record) -> float | None:
    value = (record.meta or {}).get("finished_at")
    return float(value) if isinstance(value, int | float) else None


def order_records(sources: Iterable[Source]) -> list[Source]:
    """``sources`` in the order they are indexed: by ``meta.finished_at`` (server records),
    then by server table id, then as given; records without a finish time after those with
    one. Stable, so the same games from a database and from a ``--records`` folder get the
    same indices."""
    items = list(sources)

    def key(pair: tuple[int, Source]) -> tuple[Any, ...]:
        pos, src = pair
        at = _finished_at(src.record)
        table = str((src.record.meta or {}).get("server_table") or "")
        return (at is None, at or 0.0, table, pos)

    return [src for _, src in sorted(enumerate(items), key=key)]


def _result(src: Source, game: Game, index: int, name_people: bool) -> dict[str, Any]:
    """The stored row of one record (a :func:`meeple.lab.run.runner.play_one` result with its
    record), from a verified replay."""
    record = src.record
    if not record.result or not record.result.get("digest"):
        raise RecordImportError("it has no recorded result (an unfinished game?)")
    trace = Trace(game)
    try:
        state = replay(record, verify=True, on_step=trace.on_step)
    except RecordError as exc:
        raise RecordImportError(f"it does not replay: {exc}") from None
    if not state.is_terminal():
        raise RecordImportError("its game is not finished")
    start_length = initial_state(game, record).length() if record.start is not None else 0
    return {"index": index, "seed": int(record.seed),
            "bots": seat_labels(record, name_people),
            **game_result(state, trace, _seconds(record.meta or {}), start_length),
            "record": {"steps": record.steps, "result": record.result}}


def _fingerprint(record: Record) -> str:
    text = json.dumps([record.seed, record.start, record.steps], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


# --------------------------------------------------------------------------------- import
def import_records(sources: Iterable[Source], out_dir: str | Path, *,
                   described: Sequence[str] = (), name_people: bool = False,
                   order: bool = True) -> ImportedRun:
    """Replay and verify ``sources`` and store them as one lab run in ``out_dir``.

    Args:
        sources: the records (:class:`Source`), all of one game spec.
        out_dir: the run directory; created if missing, a run already there is replaced
            (as :meth:`RunStore.create` does), but only once every record has passed.
        described: where the records came from, for ``run.json`` and the report (file
            names, a database URL without its password).
        name_people: label people ``person:NAME`` rather than ``person`` (see
            :func:`seat_labels`).
        order: index the games in :func:`order_records` order (False: as given).
    Returns:
        An :class:`ImportedRun`. A record that repeats an earlier one (same seed, start and
        steps: the same game, e.g. from both a database and its ``--records`` folder) is left
        out and listed in ``duplicates``.
    Raises:
        RecordImportError: no records; a record of another game spec than the first (naming
            both and what differs); a record that has no result, does not replay, does not
            reach its recorded digest or is unfinished (naming it); a record whose meta does
            not have a label per seat.
    """
    items = order_records(sources) if order else list(sources)
    if not items:
        raise RecordImportError("no records to import")
    first = items[0]
    first_key = spec_key(first.record)
    try:
        game = _load(first.record)
    except RecordImportError as exc:
        raise RecordImportError(f"{first.origin}: {exc}") from None
    seen: dict[str, str] = {}
    duplicates: list[tuple[str, str]] = []
    kept: list[Source] = []
    for src in items:
        if spec_key(src.record) != first_key:
            raise RecordImportError(
                f"{src.origin} is a game of another spec than {first.origin}: "
                + "; ".join(_spec_differences(src.record, first.record))
                + ". A run holds one game spec: import them separately (--game, --variant, "
                "--players)")
        mark = _fingerprint(src.record)
        if mark in seen:
            duplicates.append((src.origin, seen[mark]))
            continue
        seen[mark] = src.origin
        kept.append(src)
    labels: dict[str, None] = {}
    games: list[dict[str, Any]] = []

    def rows() -> Iterable[dict[str, Any]]:
        for index, src in enumerate(kept):
            try:
                row = _result(src, game, index, name_people)
            except RecordImportError as exc:
                raise RecordImportError(f"{src.origin}: {exc}") from None
            labels.update(dict.fromkeys(row["bots"]))
            entry: dict[str, Any] = {"origin": src.origin}
            if (at := _finished_at(src.record)) is not None:
                entry["finished_at"] = at
            games.append(entry)
            yield row

    columns = result_columns(rows())
    config: dict[str, Any] = {
        "game": game.name, "variant": game.variant, "players": int(game.players),
        "params": json.loads(json.dumps(dict(game.params))), "seed": None,
        "bots": list(labels), "games": len(kept)}
    if first.record.start is not None:
        config["start"] = dict(first.record.start)
    config["imported"] = {"sources": list(described), "games": games,
                          "duplicates": len(duplicates)}
    store = RunStore.create(out_dir, config)
    for begin in range(0, len(kept), PART_ROWS):
        store.write({name: values[begin:begin + PART_ROWS]
                     for name, values in columns.items()})
    return ImportedRun(store, len(kept), duplicates)
