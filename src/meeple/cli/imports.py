"""``meeple import``: finished games from record files or a server's database into a lab run
(:mod:`meeple.lab.run.imports`), for ``meeple report``, ``meeple replay DIR --index N`` and
DuckDB."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import (
    DB_PREFIXES,
    PlayersOpt,
    VariantOpt,
    console,
    err_console,
    fail,
    open_server_store,
    unreadable_database,
)
from meeple.engine.errors import MeepleError, ParameterError, RecordError


def import_command(
    sources: Annotated[list[str], typer.Argument(
        help="record files (.json), records files (.jsonl, one record a line, as `meeple "
        "playtest --records` writes), folders of record .json files (as `meeple serve "
        "--records` writes) or a server database URL (sqlite:///meeple.db, "
        "postgresql://...: every finished table)", show_default=False)],
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="the run directory to write (a run already there is replaced)",
        show_default=False)],
    game: Annotated[str | None, typer.Option(
        "--game", "-g", help="import only this game's records (needed when the sources hold "
        "several games)")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    name_people: Annotated[bool, typer.Option(
        "--name-people", help="label a person's seat person:NAME (their display name) in the "
        "bots column, not just person (all people pooled)")] = False,
):
    """Import finished games (meeple records) as a lab run in --out: each is replayed and
    checked against its recorded final state, then stored like a playtest's games."""
    from meeple.lab.run.imports import import_records, spec_key, spec_label
    from meeple.lab.run.store import RUN_JSON

    try:
        found, described, skipped = _read_sources(sources)
        for line in skipped:
            err_console.print(f"[yellow]note:[/] skipped {line}")
        chosen = [s for s in found
                  if (game is None or s.record.game == game)
                  and (variant is None or s.record.variant == variant)
                  and (players is None or s.record.players == players)]
        groups = Counter(spec_key(s.record) for s in chosen)
        if len(groups) != 1:
            raise ParameterError(_spec_message(found, chosen, groups, game, variant, players))
        replacing = (out / RUN_JSON).exists()
        done = import_records(chosen, out, described=described, name_people=name_people)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write the run to {out}: {exc.strerror or exc}") from None
    if replacing:
        err_console.print(f"[yellow]note:[/] replaced the run stored in {out}")
    if done.duplicates:
        origin, repeats = done.duplicates[0]
        more = f" and {len(done.duplicates) - 1} more" if len(done.duplicates) > 1 else ""
        err_console.print(f"[yellow]note:[/] left out {len(done.duplicates)} duplicate "
                          f"game{'s' if len(done.duplicates) != 1 else ''} ({origin} repeats "
                          f"{repeats}{more})")
    console.print(f"imported {done.games} game{'s' if done.games != 1 else ''} of "
                  f"{spec_label(chosen[0].record)} into {out}, each replayed to its recorded "
                  "final state")
    console.print(f"next: meeple report {out}")


def _spec_message(found: list, chosen: list, groups: Counter, game: str | None,
                  variant: str | None, players: int | None) -> str:
    """Why the selected records are not exactly one game spec, with the specs and counts."""
    from meeple.lab.run.imports import spec_key, spec_label

    asked = " ".join(f"{flag} {value}" for flag, value in
                     (("--game", game), ("--variant", variant), ("--players", players))
                     if value is not None)
    pool = chosen if groups else found
    counts = Counter(spec_key(s.record) for s in pool)
    labels = {spec_key(s.record): spec_label(s.record) for s in pool}
    clash = Counter(labels.values())
    lines = []
    for key, n in counts.most_common():
        label = labels[key]
        if clash[label] > 1:  # only the parameters differ: show them
            label += " parameters " + json.dumps(json.loads(key)[3], sort_keys=True)
        lines.append(f"{label}: {n} game{'s' if n != 1 else ''}")
    listing = "; ".join(lines)
    if not found:
        return "the sources hold no finished games"
    if not groups:
        return f"no game matches {asked}; the sources hold {listing}"
    return (f"the sources hold several games{' for ' + asked if asked else ''} ({listing}); "
            "a run holds one: pick one with --game NAME (and --variant, --players)")


def _read_sources(sources: list[str]) -> tuple[list, list[str], list[str]]:
    """Every record of ``sources``: ``(Source list, the sources described, notes on skipped
    files)``.

    Raises:
        ParameterError: a missing path; RecordError: a named file that is not a record (or a
        .jsonl line that is not); a database that cannot be read.
    """
    from meeple.engine.record import Record
    from meeple.lab.run.imports import Source

    found: list[Source] = []
    described: list[str] = []
    skipped: list[str] = []
    for text in sources:
        if "://" in text or text.startswith(DB_PREFIXES):
            shown, records = _database_records(text)
            found += records
            described.append(shown)
            continue
        path = Path(text)
        described.append(str(path))
        if path.is_dir() and (path / "run.json").is_file():
            raise ParameterError(f"{path} is a lab run already (run.json): 'meeple report "
                                 f"{path}' reads it as it is")
        if path.is_dir():
            files = sorted(path.glob("*.json"))
            others = []
            for file in files:
                try:
                    found.append(Source(str(file), Record.load(file)))
                except RecordError:
                    others.append(file.name)
            if others:
                skipped.append(f"{len(others)} file{'s' if len(others) != 1 else ''} in "
                               f"{path} that {'are' if len(others) != 1 else 'is'} not a meeple "
                               f"record: {', '.join(others[:5])}"
                               + (", ..." if len(others) > 5 else ""))
        elif not path.exists():
            raise ParameterError(f"no such file, folder or database URL: {text}")
        elif path.suffix == ".jsonl":
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if not line.strip():
                    continue
                where = f"{path}:{number}"
                try:
                    found.append(Source(where, Record.from_json(json.loads(line))))
                except (RecordError, json.JSONDecodeError) as exc:
                    raise RecordError(f"{where}: {exc}") from None
        else:
            try:
                found.append(Source(str(path), Record.load(path)))
            except RecordError as exc:
                raise RecordError(exc.args[0] if str(path) in str(exc)
                                  else f"{path}: {exc}") from None
    return found, described, skipped


def _database_records(url: str) -> tuple[str, list]:
    """``(the URL without its password, a Source per finished table)`` of a server database.

    Raises:
        ParameterError: an unsupported URL, a missing SQLite file, a database that cannot be
            read as a meeple server's.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from meeple.engine.record import Record
    from meeple.lab.run.imports import Source

    shown, store = open_server_store(url)
    try:
        records = []
        for table_id, data in store.finished_records():
            try:
                records.append(Source(f"table {table_id}", Record.from_json(data)))
            except RecordError as exc:
                raise RecordError(f"table {table_id}: {exc}") from None
    except (SQLAlchemyError, json.JSONDecodeError) as exc:
        raise unreadable_database(shown, exc) from None
    finally:
        store.dispose()
    return shown, records
