"""The stored records of a playtest (meeple.lab.run.store): Parquet parts, run.json, read-back equal
to the played results, exact replay, resume after an interruption, DuckDB queries."""

from __future__ import annotations

import json

import pytest

from meeple.engine.errors import RecordError
from meeple.engine.record import replay
from meeple.engine.registry import load_game
from meeple.lab.run.runner import run_playtest
from meeple.lab.run.store import (
    RunStore,
    StoreError,
    connect,
    decode_moves,
    encode_moves,
    run_config,
)

GAME = "battle-of-the-four-gods"
GAMES = 40
SEED = 5


def _strip(results):
    """Results without the wall time, which is the one field that differs between runs."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture(scope="module")
def straight(game):
    """The reference: the same games played without a store, in this process."""
    results, _ = run_playtest(game, ["random"], GAMES, SEED, 1)
    return results


@pytest.fixture(scope="module")
def stored(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("stored")
    store = RunStore.create(out, run_config(game, ["random"], GAMES, SEED))
    results, _ = run_playtest(game, ["random"], GAMES, SEED, 1, store=store, flush_rows=10)
    return store, results


def test_moves_text_round_trips_including_awkward_action_texts():
    steps = [{"0": "pass", "1": "atk:O", "2": "atk:B def:RO"}, {"3": "play X=1"}]
    text = encode_moves(steps)
    assert text == "0=pass;1=atk:O;2=atk:B def:RO\n3=play X=1"
    assert decode_moves(text) == steps
    awkward = [{"0": "say a;b"}, {"1": "two\nlines"}]
    assert encode_moves(awkward).startswith("json:")
    assert decode_moves(encode_moves(awkward)) == awkward
    assert decode_moves(encode_moves([])) == []
    with pytest.raises(StoreError, match="not SEAT=ACTION"):
        decode_moves("pass;1=x")


def test_stored_results_equal_the_played_ones_and_parts_are_complete(stored, straight):
    store, results = stored
    assert _strip(results) == _strip(straight)
    assert _strip(store.read_results()) == _strip(straight)
    parts = store.parts()
    assert len(parts) >= 4  # flush_rows=10: a part per 10 games or fewer
    assert sum(int(p.stem.rsplit("-", 1)[1]) for p in parts) == GAMES
    assert not list((store.dir / "records").glob(".*"))  # no temporary file left
    run = json.loads((store.dir / "run.json").read_text())
    assert run["format"] == "meeple-run/1"
    assert {k: run[k] for k in ("game", "seed", "games", "bots")} == {
        "game": GAME, "seed": SEED, "games": GAMES, "bots": ["random"]}
    assert store.finished_indices() == set(range(GAMES))
    assert store.count() == GAMES


def test_the_trace_fields_are_stored_and_read_back(stored):
    store, results = stored
    assert all("lead_changes" in r and "actions" in r for r in results)
    con = connect(store.dir)
    ((extra,),) = con.sql('select extra from games where "index" = 3').fetchall()
    assert json.loads(extra)["actions"] == results[3]["actions"]


def test_a_stored_game_replays_exactly_and_a_tampered_one_does_not(stored, game):
    store, results = stored
    record = store.record(7)
    assert record.seed == results[7]["seed"] and record.meta["bots"] == results[7]["bots"]
    state = replay(record)
    assert state.length() == results[7]["length"]
    assert list(state.winners()) == results[7]["winners"]
    record.steps = record.steps[:-1]
    with pytest.raises(RecordError, match="does not reach the recorded final state"):
        replay(record)
    with pytest.raises(StoreError, match="no stored game 999"):
        store.record(999)


def test_records_export_as_json_lines(stored, tmp_path):
    store, results = stored
    path = tmp_path / "records.jsonl"
    assert store.export_records(path) == GAMES
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["meta"]["index"] for line in lines] == list(range(GAMES))
    assert lines[0]["seed"] == results[0]["seed"]


def test_duckdb_reads_the_parts_as_one_table(stored, straight):
    store, _ = stored
    con = connect(store.dir)
    ((n, mean_length),) = con.sql("select count(*), avg(length) from games").fetchall()
    assert n == GAMES
    assert mean_length == pytest.approx(sum(r["length"] for r in straight) / GAMES)
    wins = con.sql("select winners[1] as w, count(*) from games where len(winners) = 1 "
                   "group by w order by w").fetchall()
    expected = {}
    for r in straight:
        if len(r["winners"]) == 1:
            expected[r["winners"][0]] = expected.get(r["winners"][0], 0) + 1
    assert dict(wins) == expected


def test_resume_after_an_interruption_plays_only_the_missing_games(game, straight, tmp_path):
    """Ctrl-C after 15 games: the finished games are stored (the runner flushes on the way
    out); --resume plays the rest and the run equals a straight one."""
    config = run_config(game, ["random"], GAMES, SEED)
    store = RunStore.create(tmp_path, config)
    seen = []

    def interrupt_after_15(k):
        seen.append(k)
        if sum(seen) >= 15:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_playtest(game, ["random"], GAMES, SEED, 1, store=store, on_progress=interrupt_after_15)
    kept = store.count()
    assert kept == sum(seen) and 15 <= kept < GAMES  # nothing finished was lost

    # a part lost in the crash (deleted) and a half-written temporary file left behind
    store.parts()[0].unlink()
    (tmp_path / "records" / ".part-000000000-000000001-2.parquet.tmp").write_bytes(b"junk")
    missing = GAMES - store.count()
    resumed = RunStore.resume(tmp_path, config)
    played = []
    results, _ = run_playtest(game, ["random"], GAMES, SEED, 1, store=resumed,
                              on_progress=played.append)
    assert sum(played) == missing
    assert _strip(results) == _strip(straight)
    assert not list((tmp_path / "records").glob(".*"))


def test_resume_refuses_a_different_run(game, stored):
    store, _ = stored
    other = run_config(game, ["random"], GAMES, SEED + 1)
    with pytest.raises(StoreError, match=r"different run: seed 5 \(asked: 6\)"):
        RunStore.resume(store.dir, other)


def test_opening_a_folder_without_a_run_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no stored playtest"):
        RunStore.open(tmp_path)
    (tmp_path / "run.json").write_text('{"format": "something-else"}')
    with pytest.raises(StoreError, match="not a meeple run"):
        RunStore.open(tmp_path)
    with pytest.raises(StoreError, match="no stored games"):
        connect(tmp_path)


def test_a_game_stored_twice_is_refused(game, tmp_path):
    store = RunStore.create(tmp_path, run_config(game, ["random"], 4, 0))
    run_playtest(game, ["random"], 4, 0, 1, store=store)
    part = store.parts()[0]
    part.with_name("part-copy.parquet").write_bytes(part.read_bytes())
    with pytest.raises(StoreError, match="stored twice"):
        store.read_results()


def test_creating_a_run_replaces_the_parts_of_the_one_before(game, tmp_path):
    store = RunStore.create(tmp_path, run_config(game, ["random"], 4, 0))
    run_playtest(game, ["random"], 4, 0, 1, store=store)
    (tmp_path / "notes.txt").write_text("mine")
    fresh = RunStore.create(tmp_path, run_config(game, ["random"], 8, 1))
    assert fresh.parts() == [] and fresh.run["run_id"] != store.run["run_id"]
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_resuming_a_finished_run_plays_nothing(game, stored, straight):
    store, _ = stored
    played = []
    results, _ = run_playtest(game, ["random"], GAMES, SEED, 2,
                              store=RunStore.resume(store.dir, store.config),
                              on_progress=played.append)
    assert played == []
    assert _strip(results) == _strip(straight)
