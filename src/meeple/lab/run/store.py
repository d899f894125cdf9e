"""Stored playtest records: one Parquet table of games under ``DIR/records/``, the run's config in
``DIR/run.json``.

Every game a stored playtest plays becomes one row (schema :data:`SCHEMA`, documented column by
column in ``docs/lab.md``): what was run (run id, game, variant, players, parameters, playtest
seed), the game's index, seed and bots by seat, its result (winners, returns, scores, length,
truncated, wall seconds, the game's ``outcome()`` and extra traced fields as JSON text) and its
moves in compact text with the final state's digest, so :meth:`RunStore.record` rebuilds a
:class:`~meeple.engine.record.Record` that :func:`~meeple.engine.record.replay` checks exactly.

Rows are written in *parts*: each finished batch of games goes to its own
``records/part-<first>-<last>-<n>.parquet`` file, written under a temporary name and renamed
into place (``os.replace``, atomic on POSIX), so a part is either complete or absent and an
interrupted run keeps every part it finished. A part that cannot be read all the same (a
truncated file, a run that filled the disk) makes reading fail with :class:`BrokenPartError`, one
line naming the file and the ``--resume`` command; :meth:`RunStore.resume` renames such parts to
``<name>.broken`` so that only their games are played again. All parts together are one table
that DuckDB reads with ``read_parquet('DIR/records/*.parquet')`` (see :func:`connect`).

``run.json`` (format ``meeple-run/1``) holds the run's config (:func:`run_config`) and one
entry per session (a first run, then each ``--resume``) with its wall time, jobs and backend;
``meeple report DIR`` and ``--resume`` read it. A session is written when it starts (``status``
``"running"``, ``finished`` null) and completed when it stops (``"completed"``, or
``"interrupted"`` after Ctrl-C or SIGTERM). A session still ``"running"`` when the run is
resumed was killed (``kill -9``, a crash, a lost machine): ``--resume`` marks it ``"killed"``,
keeps ``finished`` null, and counts as its ``games_played`` the stored games no other session
accounts for.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from meeple.engine.errors import MeepleError
from meeple.engine.game import Game
from meeple.engine.record import Record

__all__ = ["RUN_FORMAT", "SCHEMA", "BrokenPartError", "RunStore", "StoreError", "connect",
           "decode_moves", "encode_moves", "result_columns", "run_config"]

RUN_FORMAT = "meeple-run/1"
RUN_JSON = "run.json"
RECORDS_DIR = "records"
_PART_GLOB = "part-*.parquet"

#: Columns of the stored games table, in order. JSON columns hold text (``null`` when empty).
SCHEMA = pa.schema([
    ("run_id", pa.string()),          # run.json's run_id (a uuid4 hex)
    ("game", pa.string()),
    ("variant", pa.string()),
    ("players", pa.int32()),
    ("params", pa.string()),          # JSON object of the game's parameters
    ("playtest_seed", pa.int64()),    # the --seed of the run
    ("index", pa.int64()),            # game index in the run, 0 .. games-1
    ("seed", pa.int64()),             # this game's seed, derive_seed(playtest_seed, "game", index)
    ("bots", pa.list_(pa.string())),  # bot name per seat
    ("winners", pa.list_(pa.int32())),
    ("returns", pa.list_(pa.float64())),
    ("scores", pa.list_(pa.float64())),
    ("length", pa.int64()),           # in the game's length_unit
    ("truncated", pa.bool_()),
    ("seconds", pa.float64()),        # wall time of this game
    ("outcome", pa.string()),         # JSON of State.outcome(), null when empty
    ("extra", pa.string()),           # JSON object of the result's other fields (the trace's)
    ("moves", pa.string()),           # the record's steps, see encode_moves
    ("digest", pa.string()),          # SHA-256 digest of the final state
])

#: Result keys with a column of their own; any other key of a result goes to ``extra``.
_NOT_EXTRA = frozenset(("index", "seed", "bots", "winners", "returns", "scores", "length",
                        "truncated", "seconds", "outcome", "record"))
_RESULT_COLUMNS = ("index", "seed", "bots", "winners", "returns", "scores", "length",
                   "truncated", "seconds", "outcome", "extra")
#: The run.json keys that must match for ``--resume``.
CONFIG_KEYS = ("game", "variant", "players", "params", "seed", "bots", "games", "start")
_JSON_MOVES = "json:"


class StoreError(MeepleError, ValueError):
    """A run directory is missing, unreadable, or holds a different run than the one asked."""


class BrokenPartError(StoreError):
    """A record part that cannot be read (a truncated file, a run that filled the disk); the
    message is one line naming the file and what to do. ``path`` is the part."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


def _part_range(path: Path) -> tuple[int, int, int] | None:
    """``(first, last, n)`` from a part's name ``part-<first>-<last>-<n>.parquet``."""
    bits = path.name.removesuffix(".parquet").split("-")
    try:
        return int(bits[1]), int(bits[2]), int(bits[3])
    except (IndexError, ValueError):
        return None


def _games_text(path: Path) -> str:
    span = _part_range(path)
    return "its games" if span is None else f"games {span[0]}-{span[1]}, {span[2]} games"


def _resume_hint(run: Mapping[str, Any], out: Path) -> str:
    """The playtest command that resumes ``run`` stored in ``out`` (without --param)."""
    return (f"meeple playtest {run.get('game')} --variant {run.get('variant')} --players "
            f"{run.get('players')} --bots {','.join(map(str, run.get('bots') or []))} --games "
            f"{run.get('games')} --seed {run.get('seed')} --out {out} --resume")


def _reason(path: Path, exc: Exception) -> str:
    """Why a part could not be read, short: the reader's message without the path."""
    text = " ".join(str(exc).replace(f"'{path}'", "").replace(str(path), "").split())
    text = text.replace("Could not open Parquet input source :", "cannot open it:")
    text = text or type(exc).__name__
    return text if len(text) <= 90 else text[:90].rsplit(" ", 1)[0] + " ..."


def _broken(path: Path, exc: Exception, run: Mapping[str, Any], out: Path) -> BrokenPartError:
    reason = _reason(path, exc)
    return BrokenPartError(
        f"broken record part {path} ({_games_text(path)}; {reason}): re-play just those games "
        f"with '{_resume_hint(run, out)}' (add the run's --param options, if any)", path)


# ------------------------------------------------------------------------------ moves text
def encode_moves(steps: Sequence[Mapping[str, str]]) -> str:
    """The record's steps as one compact string.

    Each step is ``seat=action`` for every seat that acted, joined by ``;``, and steps are
    joined by newlines: ``"0=pass;1=atk:O\\n0=def:B;1=pass"``. When an action text holds ``;``
    or a newline (no registered game's does) the steps are stored as ``"json:"`` followed by
    their JSON instead, so any text round-trips through :func:`decode_moves`.
    """
    try:
        lines = []
        for step in steps:
            parts = []
            for seat, text in step.items():
                if ";" in text or "\n" in text:
                    raise ValueError
                parts.append(f"{seat}={text}")
            lines.append(";".join(parts))
    except ValueError:
        return _JSON_MOVES + json.dumps(list(steps), separators=(",", ":"))
    return "\n".join(lines)


def decode_moves(text: str) -> list[dict[str, str]]:
    """Inverse of :func:`encode_moves`: the steps, each ``{seat as text: action text}``.

    Raises:
        StoreError: if ``text`` is not in either form.
    """
    if text.startswith(_JSON_MOVES):
        try:
            return list(json.loads(text[len(_JSON_MOVES):]))
        except json.JSONDecodeError as exc:
            raise StoreError(f"stored moves are not valid JSON: {exc}") from None
    if not text:
        return []
    steps = []
    for number, line in enumerate(text.split("\n")):
        step = {}
        for part in line.split(";"):
            seat, sep, action = part.partition("=")
            if not sep or not seat.isdigit():
                raise StoreError(f"stored moves: step {number} has {part!r}, not SEAT=ACTION")
            step[seat] = action
        steps.append(step)
    return steps


# ------------------------------------------------------------------------------- config
def run_config(game: Game, bots: Sequence[str], games: int, seed: int,
               start: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a playtest runs, as stored in ``run.json`` and compared by ``--resume``:
    ``{"game", "variant", "players", "params", "seed", "bots", "games"}`` (``bots`` as
    configured, before seat rotation; ``params`` the game's full parameters, JSON-able), and
    ``"start"`` for games played from a position (``--from``, :mod:`meeple.engine.scenario`)."""
    config = {"game": game.name, "variant": game.variant, "players": int(game.players),
              "params": json.loads(json.dumps(dict(game.params))), "seed": int(seed),
              "bots": list(bots), "games": int(games)}
    if start is not None:
        config["start"] = dict(start)
    return config


def result_columns(results: Iterable[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """Per-game results (``play_one(..., keep_record=True)`` dicts) as per-game columns.

    The returned dict has one list per :data:`SCHEMA` column except the run columns
    (``run_id`` ... ``playtest_seed``, which :meth:`RunStore.write` adds). A result's keys
    that have no column of their own (the trace's fields) go to ``extra`` as one JSON object.
    It is plain Python (picklable, cheap to send from a worker process or a Ray task).

    Raises:
        KeyError: if a result lacks its ``record``.
    """
    cols: dict[str, list[Any]] = {name: [] for name in SCHEMA.names[6:]}
    for r in results:
        record = r["record"]
        cols["index"].append(r["index"])
        cols["seed"].append(r["seed"])
        cols["bots"].append(list(r["bots"]))
        cols["winners"].append(list(r["winners"]))
        cols["returns"].append([float(x) for x in r["returns"]])
        cols["scores"].append([float(x) for x in r["scores"]])
        cols["length"].append(r["length"])
        cols["truncated"].append(bool(r["truncated"]))
        cols["seconds"].append(float(r["seconds"]))
        cols["outcome"].append(json.dumps(r["outcome"]) if r.get("outcome") else None)
        extra = {k: v for k, v in r.items() if k not in _NOT_EXTRA}
        cols["extra"].append(json.dumps(extra, separators=(",", ":")) if extra else None)
        cols["moves"].append(encode_moves(record["steps"]))
        cols["digest"].append((record.get("result") or {}).get("digest"))
    return cols


# -------------------------------------------------------------------------------- store
class RunStore:
    """A run directory: ``run.json`` and the ``records/`` parts.

    Use :meth:`create` to start a run (or :meth:`resume` to go on with one) and :meth:`open`
    to read one. Not safe for two processes writing the same directory at once.
    """

    def __init__(self, out_dir: str | Path, run: dict[str, Any]):
        self.dir = Path(out_dir)
        self.run = run
        #: After :meth:`resume`: one line per broken part it set aside (to be re-played).
        self.set_aside: list[str] = []
        self._began = False  # this process's session entry is open (begin_session)

    # ---- opening
    @classmethod
    def create(cls, out_dir: str | Path, config: Mapping[str, Any]) -> RunStore:
        """Start a new run in ``out_dir`` (created if missing) with ``config``
        (:func:`run_config`). Parts of an earlier run there are deleted, and so are leftover
        temporary files; other files are left alone."""
        out = Path(out_dir)
        (out / RECORDS_DIR).mkdir(parents=True, exist_ok=True)
        for path in (out / RECORDS_DIR).iterdir():
            if path.name.startswith("part-") or path.name.startswith(".part-"):
                path.unlink()
        run = {"format": RUN_FORMAT, "run_id": uuid.uuid4().hex, **dict(config),
               "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "sessions": []}
        store = cls(out, run)
        store._save_run()
        return store

    @classmethod
    def open(cls, out_dir: str | Path) -> RunStore:
        """Open the run stored in ``out_dir``.

        Raises:
            StoreError: no ``run.json`` there, or it is not a meeple run.
        """
        out = Path(out_dir)
        path = out / RUN_JSON
        if not path.is_file():
            raise StoreError(f"{out} holds no stored playtest (no {RUN_JSON}); run "
                             f"'meeple playtest GAME --out {out}' first")
        try:
            run = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise StoreError(f"cannot read {path}: {exc}") from None
        if not isinstance(run, dict) or run.get("format") != RUN_FORMAT:
            raise StoreError(f"{path} is not a meeple run (expected format {RUN_FORMAT})")
        return cls(out, run)

    @classmethod
    def resume(cls, out_dir: str | Path, config: Mapping[str, Any]) -> RunStore:
        """Open the run in ``out_dir`` to go on with it; its config must equal ``config``.

        Leftover temporary files of an interrupted part are deleted, and unreadable parts are
        set aside (renamed ``<name>.broken``; :attr:`set_aside` says which) so that their
        games, and only those, are played again.

        Raises:
            StoreError: no run there, or its config differs (the message lists each
                differing key with both values).
        """
        store = cls.open(out_dir)
        shown = lambda key, v: (v or {}).get("file") if key == "start" else v  # noqa: E731
        diffs = [f"{key} {shown(key, store.run.get(key))!r} (asked: "
                 f"{shown(key, config.get(key))!r})"
                 for key in CONFIG_KEYS if store.run.get(key) != config.get(key)]
        if diffs:
            raise StoreError(
                f"--resume: {store.dir} holds a different run: " + "; ".join(diffs)
                + ". Give the same options as that run, or a new --out.")
        for path in (store.dir / RECORDS_DIR).glob(".part-*"):
            path.unlink()
        store.set_aside = store._set_aside_broken()
        store._mark_killed_sessions()
        return store

    def _set_aside_broken(self) -> list[str]:
        """Rename every unreadable part to ``<name>.broken`` (no longer a part, so its games
        count as not played and are played again); one line per part saying so."""
        lines = []
        for path in self.parts():
            try:
                pq.read_table(path, columns=["index"])
            except (OSError, pa.ArrowException) as exc:
                aside = path.with_name(path.name + ".broken")
                os.replace(path, aside)
                lines.append(f"broken record part {path} ({_games_text(path)}; "
                             f"{_reason(path, exc)}): "
                             f"moved aside to {aside.name}; re-playing its games")
        return lines

    # ---- config and sessions
    @property
    def config(self) -> dict[str, Any]:
        """The run's config (the :data:`CONFIG_KEYS` of ``run.json``; ``start`` only when the
        games start from a position)."""
        return {key: self.run.get(key) for key in CONFIG_KEYS
                if key != "start" or self.run.get("start") is not None}

    def begin_session(self, *, jobs: int, backend: str) -> None:
        """Append a ``"running"`` session entry to ``run.json`` (written at once), so a run
        killed before :meth:`add_session` still shows that it was started."""
        self.run.setdefault("sessions", []).append({
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "finished": None,
            "status": "running", "games_played": 0, "elapsed_seconds": 0.0, "jobs": int(jobs),
            "backend": backend})
        self._began = True
        self._save_run()

    def add_session(self, *, games_played: int, elapsed_seconds: float, jobs: int,
                    backend: str, status: str = "completed") -> None:
        """Complete this process's ``"running"`` session entry (see :meth:`begin_session`), or
        append one, with ``status`` (``"completed"`` or ``"interrupted"``); written at once."""
        sessions = self.run.setdefault("sessions", [])
        entry = sessions[-1] if self._began and sessions \
            and sessions[-1].get("status") == "running" else None
        if entry is None:
            entry = {}
            sessions.append(entry)
        entry.update({
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "status": status,
            "games_played": int(games_played), "elapsed_seconds": float(elapsed_seconds),
            "jobs": int(jobs), "backend": backend})
        self._began = False
        self._save_run()

    def _mark_killed_sessions(self) -> None:
        """Mark every session still ``"running"`` as ``"killed"`` (see the module docstring)."""
        sessions = self.run.get("sessions") or []
        killed = [s for s in sessions if s.get("status") == "running"]
        if not killed:
            return
        accounted = sum(int(s.get("games_played", 0)) for s in sessions if s not in killed)
        unaccounted = max(0, self.count() - accounted)
        for i, session in enumerate(killed):
            session.update({
                "status": "killed", "finished": None,
                "games_played": unaccounted if i == len(killed) - 1 else 0,
                "note": "ended without finishing (killed or crashed): no end time; "
                        "games_played counts its stored games"})
        self._save_run()

    def elapsed_seconds(self) -> float:
        """Total wall time of the run's sessions, in seconds."""
        return float(sum(s.get("elapsed_seconds", 0.0) for s in self.run.get("sessions", [])))

    def _save_run(self) -> None:
        path = self.dir / RUN_JSON
        tmp = path.with_name(f".{RUN_JSON}.tmp")
        tmp.write_text(json.dumps(self.run, indent=2) + "\n")
        os.replace(tmp, path)

    # ---- parts
    def parts(self) -> list[Path]:
        """The finished part files, sorted by name."""
        folder = self.dir / RECORDS_DIR
        return sorted(folder.glob(_PART_GLOB)) if folder.is_dir() else []

    def write(self, columns: Mapping[str, Sequence[Any]]) -> Path | None:
        """Store one batch of games (columns as from :func:`result_columns`) as a new part,
        atomically. Returns the part's path, or None for an empty batch.

        Raises:
            pyarrow.ArrowInvalid / ArrowTypeError: if a column does not fit :data:`SCHEMA`.
        """
        n = len(columns["index"])
        if n == 0:
            return None
        run = self.run
        consts = {"run_id": run["run_id"], "game": run["game"], "variant": run["variant"],
                  "players": run["players"], "params": json.dumps(run["params"], sort_keys=True),
                  "playtest_seed": run["seed"]}
        arrays = [pa.array([consts[f.name]] * n, f.type) if f.name in consts
                  else pa.array(columns[f.name], f.type) for f in SCHEMA]
        table = pa.Table.from_arrays(arrays, schema=SCHEMA)
        first, last = min(columns["index"]), max(columns["index"])
        name = f"part-{first:09d}-{last:09d}-{n}.parquet"
        folder = self.dir / RECORDS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{name}.tmp"
        pq.write_table(table, tmp, compression="zstd")
        path = folder / name
        os.replace(tmp, path)
        return path

    def _table(self, columns: Sequence[str] | None = None,
               index: int | None = None) -> pa.Table:
        parts = self.parts()
        if not parts:
            return SCHEMA.empty_table().select(list(columns) if columns else SCHEMA.names)
        filters = [("index", "=", index)] if index is not None else None
        if index is not None:  # only the parts whose name says they may hold the game
            parts = [p for p in parts if (span := _part_range(p)) is None
                     or span[0] <= index <= span[1]]
        tables = []
        for p in parts:
            try:
                tables.append(pq.read_table(p, columns=list(columns) if columns else None,
                                            filters=filters))
            except (OSError, pa.ArrowException) as exc:
                raise _broken(p, exc, self.run, self.dir) from None
        if not tables:
            return SCHEMA.empty_table().select(list(columns) if columns else SCHEMA.names)
        return pa.concat_tables(tables)

    def finished_indices(self) -> set[int]:
        """Indices of the games stored so far."""
        return set(self._table(["index"]).column("index").to_pylist())

    def count(self) -> int:
        """Number of games stored (read from the parts' metadata)."""
        total = 0
        for p in self.parts():
            try:
                total += pq.ParquetFile(p).metadata.num_rows
            except (OSError, pa.ArrowException) as exc:
                raise _broken(p, exc, self.run, self.dir) from None
        return total

    def read_results(self) -> list[dict[str, Any]]:
        """Every stored game as a result dict, in index order.

        Each dict is the game's result as :func:`meeple.lab.run.runner.play_one` gave it (without
        ``record``): the keys ``index, seed, bots, winners, returns, scores, length,
        truncated, seconds`` (the shape :func:`meeple.lab.analysis.stats.summarize` takes),
        ``outcome`` (parsed) when the game had one, and the keys stored in ``extra`` (the trace's
        fields) merged in.

        Raises:
            StoreError: if two stored rows share an index (two runs mixed in one directory).
        """
        table = self._table(_RESULT_COLUMNS)
        table = table.sort_by("index")
        rows = table.to_pylist()
        for prev, row in zip(rows, rows[1:], strict=False):
            if prev["index"] == row["index"]:
                raise StoreError(f"{self.dir}: game {row['index']} is stored twice")
        for row in rows:
            outcome, extra = row.pop("outcome"), row.pop("extra")
            if outcome is not None:
                row["outcome"] = json.loads(outcome)
            if extra is not None:
                row.update(json.loads(extra))
        return rows

    def record(self, index: int) -> Record:
        """The stored game ``index`` as a :class:`~meeple.engine.record.Record` (replayable,
        with its final digest to check against).

        Raises:
            StoreError: if no stored game has that index.
        """
        table = self._table(index=int(index))
        if table.num_rows == 0:
            raise StoreError(f"{self.dir} has no stored game {index} "
                             f"({self.count()} of {self.run.get('games')} games stored)")
        return _row_record(table.slice(0, 1).to_pylist()[0], self.run.get("start"))

    def export_records(self, path: str | Path) -> int:
        """Write every stored game's record as JSON lines (``meeple-record/1``), in index
        order, to ``path``; returns the number written."""
        table = self._table().sort_by("index")
        count = 0
        with Path(path).open("w") as fh:
            for batch in table.to_batches(max_chunksize=2000):
                for row in batch.to_pylist():
                    record = _row_record(row, self.run.get("start"))
                    fh.write(json.dumps(record.to_json()) + "\n")
                    count += 1
        return count


def _row_record(row: Mapping[str, Any], start: dict[str, Any] | None = None) -> Record:
    record = Record(game=row["game"], variant=row["variant"], players=row["players"],
                    params=json.loads(row["params"]), seed=row["seed"],
                    steps=decode_moves(row["moves"]),
                    meta={"bots": row["bots"], "index": row["index"], "run_id": row["run_id"]},
                    start=start)
    record.result = {"returns": row["returns"], "winners": row["winners"],
                     "scores": row["scores"], "length": row["length"],
                     "truncated": row["truncated"], "terminal": True, "digest": row["digest"]}
    return record


def connect(out_dir: str | Path, database: str = ":memory:"):
    """A DuckDB connection with the run's games as the view ``games``.

    Example: ``connect("out").sql("select bots[1], avg(length) from games group by 1")
    .fetchall()``.

    Raises:
        StoreError: if ``out_dir`` has no stored part yet.
    """
    import duckdb

    folder = Path(out_dir) / RECORDS_DIR
    if not any(folder.glob(_PART_GLOB)):
        raise StoreError(f"{out_dir} has no stored games ({folder}/{_PART_GLOB})")
    pattern = str(folder / _PART_GLOB).replace("'", "''")
    con = duckdb.connect(database)
    con.execute(f"CREATE VIEW games AS SELECT * FROM read_parquet('{pattern}')")
    return con
