"""``meeple export``: one table's whole playtest from a server's database as one JSON file a
designer can share (its meeple record with every talk message, the decision times, the seats and
the people's survey answers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import console, fail, open_server_store
from meeple.engine.errors import MeepleError, ParameterError

#: The export file's format tag.
EXPORT_FORMAT = "meeple-playtest/1"


def export_command(
    database: Annotated[str, typer.Argument(
        help="the server's database URL: sqlite:///meeple.db or postgresql://...")],
    table: Annotated[str, typer.Argument(help="the table's id (its page is /table/ID)")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="the file to write (default: playtest-TABLE.json)")] = None,
):
    """Export one finished table's playtest (record, all talk, decision times, survey) as JSON.

    The file holds everything, private talk included: whoever can read the database can export
    it, and nothing of it is served on the web. Its ``record`` replays with ``meeple replay``
    (after ``jq .record``) and imports with ``meeple import``.
    """
    from sqlalchemy.exc import SQLAlchemyError

    target = out or Path(f"playtest-{table}.json")
    try:
        shown, store = open_server_store(database)
        try:
            record = store.record(table)
            stored = store.load_table(table)
            surveys = store.surveys(table) if record is not None else []
        except SQLAlchemyError as exc:
            raise ParameterError(f"cannot read table {table} from {shown}: "
                                 f"{str(exc).splitlines()[0]}") from None
        finally:
            store.dispose()
        if stored is None:
            raise ParameterError(f"no table {table!r} in {shown}")
        if record is None:
            raise ParameterError(f"table {table} is {stored.row['status']}: a playtest is "
                                 "exported once its game is over")
    except MeepleError as exc:
        raise fail(str(exc)) from None
    data = {"format": EXPORT_FORMAT, "table": table, "created_at": stored.row["created_at"],
            "timer_seconds": stored.row["timer_seconds"],
            "seats": [{"seat": s["seat"], "kind": s["kind"], "name": s["name"]}
                      for s in stored.seats],
            "surveys": [{k: s[k] for k in ("seat", "name", "answers", "at")} for s in surveys],
            "record": record}
    try:
        target.write_text(json.dumps(data, indent=1) + "\n")
    except OSError as exc:
        raise fail(f"cannot write {target}: {exc.strerror or exc}") from None
    console.print(f"wrote {target}: table {table}, {len(record['steps'])} steps, "
                  f"{len(record.get('talk') or [])} talk messages, {len(surveys)} survey "
                  "answer(s)")
