"""Finished server games into the lab: bot tables played to the end by a real TableManager over
a real SQLite file, then ``meeple import sqlite:///...`` and ``meeple report`` through the CLI;
the ``--records`` folder of the same server imports the same games; a table rebuilt after a
restart still records when it started; PostgreSQL (the session's server, conftest.py) too."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.record import Record
from meeple.lab.run.imports import Source, import_records
from meeple.lab.run.store import RunStore
from meeple.server import protocol as p
from meeple.server.db import Store, make_engine
from meeple.server.manager import TableManager

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


async def _play_bot_tables(url: str, records: Path, bots: list[list[str]]) -> list[str]:
    """Create an all-bot Damocles table per line-up (each starts by itself) and wait until
    every one is finished; their ids."""
    manager = TableManager(Store(make_engine(url)), records_dir=records)
    await manager.start()
    try:
        tables = [await manager.create(p.CreateTable(
            game="damocles", players=len(line), seats=[p.SeatRequest(bot=b) for b in line]))
            for line in bots]
        deadline = time.monotonic() + 60
        while any(t.status != "finished" for t in tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert [t.status for t in tables] == ["finished"] * len(tables)
        return [t.id for t in tables]
    finally:
        await manager.stop()


def test_finished_bot_tables_import_from_the_database_and_the_records_folder(tmp_path):
    url = f"sqlite:///{tmp_path / 'meeple.db'}"
    lineups = [["random", "heuristic"], ["heuristic", "random"], ["random", "random"]]
    ids = asyncio.run(_play_bot_tables(url, tmp_path / "records", lineups))
    other = asyncio.run(_play_bot_tables(url, tmp_path / "elsewhere", [["random"] * 3]))

    # two specs in the database (2 and 3 players): refused with the specs and their counts
    refused = invoke("import", url, "--out", str(tmp_path / "mixed"))
    assert refused.exit_code == 2
    assert ("damocles (variant seed, 2 players): 3 games; damocles (variant seed, 3 players): "
            "1 game") in " ".join(refused.output.split())
    assert not (tmp_path / "mixed" / "run.json").exists()

    out = tmp_path / "from-db"
    done = invoke("import", url, "--players", "2", "--out", str(out))
    assert done.exit_code == 0, done.output
    assert "imported 3 games of damocles (variant seed, 2 players)" in done.output
    assert f"meeple report {out}" in " ".join(done.output.split())
    store = RunStore.open(out)
    results = store.read_results()
    run = store.run
    # indexed by finish time; each row's bots are its table's seats, its seed the table's
    origins = [g["origin"] for g in run["imported"]["games"]]
    finished = [g["finished_at"] for g in run["imported"]["games"]]
    assert sorted(origins) == sorted(f"table {i}" for i in ids) and finished == sorted(finished)
    by_table = {f"table {i}": line for i, line in zip(ids, lineups, strict=True)}
    assert [r["bots"] for r in results] == [by_table[o] for o in origins]
    assert all(r["seconds"] > 0 and r["actions"] for r in results)
    assert f"table {other[0]}" not in origins

    report = invoke("report", str(out))
    assert report.exit_code == 0, report.output
    page = (out / "report.html").read_text()
    assert "Imported games" in page and all(f"table {i}" in page for i in ids)
    assert "imported from sqlite:///" in " ".join(report.output.split())
    replayed = invoke("replay", str(out), "--index", "2")
    assert replayed.exit_code == 0 and "matches the recorded final state" in replayed.output

    # the --records folder holds the same games: the same rows, in the same order
    again = invoke("import", str(tmp_path / "records"), "--out", str(tmp_path / "from-files"))
    assert again.exit_code == 0, again.output
    files = RunStore.open(tmp_path / "from-files")
    assert files.read_results() == results
    assert [g["origin"] for g in files.run["imported"]["games"]] == [
        str(tmp_path / "records" / f"{o.split()[1]}.json") for o in origins]

    # both sources at once: each game once
    both = invoke("import", url, str(tmp_path / "records"), "--players", "2", "--out",
                  str(tmp_path / "both"))
    assert both.exit_code == 0 and "left out 3 duplicate games" in " ".join(both.output.split())
    assert RunStore.open(tmp_path / "both").count() == 3


def test_a_table_rebuilt_after_a_restart_records_its_start_and_people(tmp_path):
    url = f"sqlite:///{tmp_path / 'meeple.db'}"
    rng = random.Random(5)

    async def act(table, steps: int) -> None:
        while table.status == "running" and steps:
            seat = table.state.current_players()[0]
            await table.act(seat, rng.choice(table._legal_texts(seat)))
            steps -= 1

    async def first_half() -> str:
        manager = TableManager(Store(make_engine(url)))
        await manager.start()
        table = await manager.create(p.CreateTable(game="damocles", players=2, seats=[]))
        await table.join("ann", 0)
        await table.join("bo", 1)
        await act(table, 10)
        await manager.stop()
        return table.id

    async def second_half(table_id: str) -> dict:
        manager = TableManager(Store(make_engine(url)))
        await manager.start()
        try:
            table = await manager.get(table_id)  # rebuilt on demand
            await act(table, 10_000)
            assert table.status == "finished"
            return manager.store.record(table_id)
        finally:
            await manager.stop()

    table_id = asyncio.run(first_half())
    record = asyncio.run(second_half(table_id))
    store = Store(make_engine(url))
    first_at = store.load_table(table_id).actions[0]["at"]
    store.dispose()
    assert record["meta"]["started_at"] == first_at
    assert record["meta"]["finished_at"] >= first_at
    source = Source(f"table {table_id}", Record.from_json(json.loads(json.dumps(record))))
    (row,) = import_records([source], tmp_path / "run").store.read_results()
    assert row["bots"] == ["person", "person"]
    assert row["seconds"] == record["meta"]["finished_at"] - first_at
    (named,) = import_records([source], tmp_path / "named", name_people=True).store.read_results()
    assert named["bots"] == ["person:ann", "person:bo"]


def test_finished_tables_import_from_postgresql(postgres_url, tmp_path):
    ids = asyncio.run(_play_bot_tables(postgres_url, tmp_path / "records",
                                       [["random", "heuristic"]] * 2))
    done = invoke("import", postgres_url, "--out", str(tmp_path / "run"))
    assert done.exit_code == 0, done.output
    run = RunStore.open(tmp_path / "run").run
    assert sorted(g["origin"] for g in run["imported"]["games"]) == sorted(
        f"table {i}" for i in ids)
    again = invoke("import", str(tmp_path / "records"), "--out", str(tmp_path / "files"))
    assert again.exit_code == 0, again.output
    assert RunStore.open(tmp_path / "files").read_results() == RunStore.open(
        tmp_path / "run").read_results()
