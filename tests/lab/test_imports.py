"""Records imported as a lab run (meeple.lab.run.imports): the same result rows as the playtest's
own store for the same games, a replayable store DuckDB reads, and the refusals (a mix of
game specs, a record that does not reach its digest, an unfinished game)."""

from __future__ import annotations

import copy
import json

import pytest

from meeple.engine.record import Record, replay
from meeple.engine.registry import load_game
from meeple.engine.scenario import check_position_matches
from meeple.lab.analysis.trace import TRACE_FIELDS
from meeple.lab.run.imports import (
    RecordImportError,
    Source,
    import_records,
    order_records,
    seat_labels,
)
from meeple.lab.run.runner import play_one
from meeple.lab.run.store import RunStore, connect, result_columns, run_config

FOUR_GODS = "battle-of-the-four-gods"
COMPARED = ("index", "seed", "bots", "winners", "returns", "scores", "length", "truncated",
            "outcome", *TRACE_FIELDS)


def _played(name: str, bots: list[str], games: int, seed: int = 11, start=None, **spec):
    game = load_game(name, **spec)
    return game, [play_one(game, bots, seed, i, keep_record=True, start=start)
                  for i in range(games)]


def _sources(results) -> list[Source]:
    return [Source(f"game {r['index']}", Record.from_json(json.loads(json.dumps(r["record"]))))
            for r in results]


def _own_store(tmp_path, game, bots, results, start=None) -> RunStore:
    """The playtest's own store of ``results`` (what ``meeple playtest --out`` keeps)."""
    store = RunStore.create(tmp_path / "own", run_config(game, bots, len(results), 11, start))
    store.write(result_columns(results))
    return store


def _compared(rows):
    return [{k: r.get(k) for k in COMPARED} for r in rows]


@pytest.mark.parametrize(("name", "bots"), [
    (FOUR_GODS, ["heuristic", "random"]),   # simultaneous steps, eliminations
    ("damocles", ["random"]),                # cards played
    ("epoch-ellipse", ["heuristic"]),        # cooperative: an outcome per game
])
def test_imported_records_read_back_as_the_playtests_own_store(tmp_path, name, bots):
    game, results = _played(name, bots, 8)
    own = _own_store(tmp_path, game, bots, results)
    done = import_records(_sources(results), tmp_path / "imported", described=["test"])
    assert done.games == 8 and done.duplicates == []
    got = done.store.read_results()
    assert _compared(got) == _compared(own.read_results())
    assert all(r["actions"] and r["length"] > 0 for r in got)  # the trace fields are there
    assert all(("outcome" in r) == game.capabilities.cooperative for r in got)
    assert all(r["seconds"] == 0.0 for r in got)  # playtest records do not keep their time
    run = RunStore.open(tmp_path / "imported").run
    assert (run["game"], run["variant"], run["players"], run["seed"]) == (
        game.name, game.variant, game.players, None)
    assert run["bots"] == list(dict.fromkeys(b for r in results for b in r["bots"]))
    assert [g["origin"] for g in run["imported"]["games"]] == [f"game {i}" for i in range(8)]
    # every lab reader: a stored game replays to its digest, DuckDB sees the games
    assert replay(done.store.record(5)).digest() == results[5]["record"]["result"]["digest"]
    con = connect(tmp_path / "imported")
    assert con.sql("select count(*), count(playtest_seed) from games").fetchall() == [(8, 0)]


def test_games_from_a_position_count_their_length_from_it(tmp_path):
    game = load_game(FOUR_GODS)
    state = game.new_initial_state(3)
    while state.length() < 4:  # a few rounds in
        state.apply_actions({s: state.legal_actions(s)[0] for s in state.current_players()})
    start = {"position": state.to_json(), "keep_order": False, "file": "pos.json"}
    start["length"] = check_position_matches(game, start).length()
    _, results = _played(FOUR_GODS, ["random"], 4, start=start)
    own = _own_store(tmp_path, game, ["random"], results, start)
    done = import_records(_sources(results), tmp_path / "imported")
    assert _compared(done.store.read_results()) == _compared(own.read_results())
    assert done.store.run["start"]["file"] == "pos.json"
    assert replay(done.store.record(2)).digest() == results[2]["record"]["result"]["digest"]


def test_a_mix_of_game_specs_is_refused_naming_the_record_and_the_difference(tmp_path):
    _, fours = _played(FOUR_GODS, ["random"], 2)
    _, threes = _played(FOUR_GODS, ["random"], 1, players=3)
    sources = _sources(fours)
    sources.append(Source("threes.json", Record.from_json(threes[0]["record"])))
    with pytest.raises(RecordImportError, match=r"threes\.json is a game of another spec than "
                       r"game 0: players 3 \(first: 4\)"):
        import_records(sources, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_tampered_record_is_refused_by_name_and_an_earlier_run_is_kept(tmp_path):
    _, results = _played("damocles", ["random"], 3)
    import_records(_sources(results), tmp_path / "out")
    tampered = _sources(results)
    tampered[1].record.result["digest"] = "0" * 64
    with pytest.raises(RecordImportError, match=r"game 1: it does not replay: replay does not "
                       "reach the recorded final state"):
        import_records(tampered, tmp_path / "out")
    edited = _sources(results)
    step = edited[2].record.steps[0]
    seat = next(iter(step))
    step[seat] = "no such action"
    with pytest.raises(RecordImportError, match=r"game 2: it does not replay: step 0"):
        import_records(edited, tmp_path / "out")
    unfinished = _sources(results)
    unfinished[0].record.result = None
    with pytest.raises(RecordImportError, match="game 0: it has no recorded result"):
        import_records(unfinished, tmp_path / "out")
    assert RunStore.open(tmp_path / "out").count() == 3  # the earlier import is untouched


def test_the_same_game_twice_is_imported_once(tmp_path):
    _, results = _played("damocles", ["random"], 2)
    sources = _sources(results) + [Source("again", Record.from_json(results[0]["record"]))]
    done = import_records(sources, tmp_path / "out")
    assert done.games == 2 and done.duplicates == [("again", "game 0")]


def test_server_seats_are_labelled_by_bot_name_and_people_pooled():
    record = Record("damocles", "seed", 3, {}, 1, meta={"seats": [
        {"kind": "bot", "name": "heuristic"}, {"kind": "person", "name": "ann"},
        {"kind": "person", "name": "bo"}]})
    assert seat_labels(record) == ["heuristic", "person", "person"]
    assert seat_labels(record, name_people=True) == ["heuristic", "person:ann", "person:bo"]
    assert seat_labels(Record("damocles", "seed", 2, {}, 1, meta={"bots": ["a", "b"]})) == [
        "a", "b"]
    assert seat_labels(Record("damocles", "seed", 2, {}, 1)) == ["unknown", "unknown"]
    with pytest.raises(RecordImportError, match="meta lists 2 seats for a 3-seat game"):
        seat_labels(Record("damocles", "seed", 3, {}, 1, meta={"bots": ["a", "b"]}))


def test_records_are_indexed_by_finish_time_then_table_then_as_given():
    def src(origin, **meta):
        return Source(origin, Record("damocles", "seed", 2, {}, 1, meta=meta))

    given = [src("no time b"), src("late", finished_at=9.0, server_table="a"),
             src("early", finished_at=1.0, server_table="z"), src("no time a"),
             src("tie", finished_at=9.0, server_table="0")]
    assert [s.origin for s in order_records(copy.deepcopy(given))] == [
        "early", "tie", "late", "no time b", "no time a"]


def test_cli_imports_record_files_and_refuses_bad_sources(tmp_path):
    from typer.testing import CliRunner

    from meeple.cli import app

    def invoke(*args):
        result = CliRunner().invoke(app, [str(a) for a in args])
        return result.exit_code, " ".join(result.output.split())

    _, results = _played("damocles", ["random"], 4)
    lines = tmp_path / "records.jsonl"
    lines.write_text("".join(json.dumps(r["record"]) + "\n" for r in results))
    Record.from_json(results[3]["record"]).save(tmp_path / "last.json")
    code, text = invoke("import", lines, tmp_path / "last.json", "--out", tmp_path / "run")
    assert code == 0 and "imported 4 games of damocles (variant seed, 4 players)" in text
    assert "left out 1 duplicate game" in text and "meeple report" in text
    origins = [g["origin"] for g in RunStore.open(tmp_path / "run").run["imported"]["games"]]
    assert origins == [f"{lines}:{n}" for n in (1, 2, 3, 4)]

    (tmp_path / "bad.jsonl").write_text(json.dumps(results[0]["record"]) + "\n{}\n")
    for args, message in [
        ((tmp_path / "nope.json",), "no such file, folder or database URL"),
        ((tmp_path / "bad.jsonl",), "bad.jsonl:2: not a meeple record"),
        ((f"sqlite:///{tmp_path / 'nope.db'}",), "no SQLite database file"),
        (("mysql://u:secret@host/db",), "unsupported database URL scheme 'mysql'"),
        ((tmp_path / "run",), "is a lab run already (run.json)"),
        ((lines, "--game", "pig"), "no game matches --game pig; the sources hold damocles "
                                   "(variant seed, 4 players): 4 games"),
    ]:
        code, text = invoke("import", *args, "--out", tmp_path / "refused")
        assert code == 2 and message in text and "secret" not in text, text
    assert not (tmp_path / "refused").exists()
