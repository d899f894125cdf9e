"""Persistence: a table played partway, the app discarded and rebuilt from the same database
reaches the same state digest, with its talk and its deadline; against a real SQLite file and
a real PostgreSQL server (started by the session fixture in conftest.py)."""

from __future__ import annotations

import json
import random
import time

import pytest
from sqlalchemy import text

from meeple.engine.record import Record, replay
from meeple.server.db import make_engine
from tests.server.conftest import WS, TestClient, join, make_table, serving

FOUR_GODS = "battle-of-the-four-gods"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue(f"{request.param}_url")


def play_rounds(conns: list[WS], rounds: int, rng: random.Random) -> None:
    """Every seat submits a random legal action, ``rounds`` times."""
    for _ in range(rounds):
        for c in conns:
            state = c.last_state()
            if state["legal"]:
                c.send({"type": "act", "action": rng.choice(state["legal"])})
                c.drain()
        for c in conns:
            c.drain()


def live(client: TestClient, table_id: str):
    return client.app.state.manager.tables[table_id]


def test_rebuilt_app_reaches_the_same_digest_talk_and_deadline(db_url: str) -> None:
    rng = random.Random(3)
    with serving(db_url) as client:
        table = make_table(client, FOUR_GODS, timer_seconds=600)
        tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo", "cy", "di")]
        conns = [WS(client, table["id"], t) for t in tokens]
        play_rounds(conns, 3, rng)
        conns[0].send({"type": "say", "text": "truce?"})
        conns[0].send({"type": "say", "text": "-b secret plan"})
        conns[0].drain()
        conns[1].send({"type": "act", "action": conns[1].last_state()["legal"][0]})
        conns[1].drain()  # the actor's reply first: then the others' updates are queued
        for c in conns:
            c.drain()
        before = live(client, table["id"])
        digest, epoch, deadline = before.state.digest(), before.epoch, before.deadline
        talk = [m.to_json() for m in before.talk.messages]
        views = [c.last_state() for c in conns]
        assert before.state.length() == 3 and before.state.view(None)["submitted"] == [1]
        WS.close_all()
    with serving(db_url) as client:
        after = live(client, table["id"])
        assert after.state.digest() == digest
        assert [m.to_json() for m in after.talk.messages] == talk
        assert (after.epoch, after.deadline) == (epoch, deadline)
        # each person comes back to the same seat with the same view, timer and talk
        for seat, token in enumerate(tokens):
            back = WS(client, table["id"], token)
            state = back.last_state()
            assert back.seat == seat and state["view"] == views[seat]["view"]
            assert state["legal"] == views[seat]["legal"]
            assert state["timer"]["deadline"] == pytest.approx(deadline)
            history = back.history()
            assert ("secret plan" in json.dumps(history)) == (seat in (0, 1))
            back.close()
        # play on to the end; the finished game is a replayable meeple record
        conns = [WS(client, table["id"], t) for t in tokens]
        while live(client, table["id"]).status == "running":
            play_rounds(conns, 1, rng)
        record = client.get(f"/api/tables/{table['id']}/record").json()
        assert [m["text"] for m in record["talk"]] == ["truce?"]  # no token: public talk only
        mine = client.get(f"/api/tables/{table['id']}/record",
                          headers={"Authorization": f"Bearer {tokens[1]}"}).json()
        assert [m["text"] for m in mine["talk"]] == ["truce?", "secret plan"]
        final = replay(Record.from_json(record))
        assert final.digest() == live(client, table["id"]).state.digest()
        assert record["result"]["terminal"] and record["meta"]["sources"][0] == "person"
        WS.close_all()
    with serving(db_url) as client:  # finished tables load on demand
        assert client.get(f"/api/tables/{table['id']}").json()["status"] == "finished"
        assert table["id"] not in [t["id"] for t in client.get("/api/tables").json()["tables"]]


def test_a_deadline_that_passed_while_down_fires_on_restart(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = make_table(client, FOUR_GODS, timer_seconds=2.0)
        tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
        c = WS(client, table["id"], tokens[2])
        c.send({"type": "act", "action": "def:R"})
        c.drain()
        WS.close_all()
        expires = live(client, table["id"]).deadline
    time.sleep(max(0.0, expires - time.time()) + 0.2)  # the deadline passes while it is down
    with serving(sqlite_url) as client:
        state = live(client, table["id"]).state
        for _ in range(100):
            if state.length() == 1:
                break
            time.sleep(0.05)
        assert state.length() == 1  # the first round resolved by the timeouts
        stored = client.app.state.manager.store.load_table(table["id"])
        assert [(a["seat"], a["source"]) for a in stored.actions[:4]] == [
            (2, "person"), (0, "timeout"), (1, "timeout"), (3, "timeout")]


def test_a_table_whose_replay_differs_is_marked_broken(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = make_table(client, FOUR_GODS)
        tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
        conns = [WS(client, table["id"], t) for t in tokens]
        play_rounds(conns, 1, random.Random(1))
        WS.close_all()
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:  # someone edits history: the digest no longer matches
        conn.execute(text("UPDATE actions SET text='pass' WHERE table_id=:t AND seq=0 AND "
                          "text != 'pass'"), {"t": table["id"]})
        conn.execute(text("UPDATE actions SET text='def:B' WHERE table_id=:t AND seq=0 AND "
                          "text = 'pass'"), {"t": table["id"]})
    engine.dispose()
    with serving(sqlite_url) as client:
        assert table["id"] not in client.app.state.manager.tables
        assert client.get(f"/api/tables/{table['id']}").status_code == 404
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        status = conn.execute(text("SELECT status FROM tables WHERE id=:t"),
                              {"t": table["id"]}).scalar()
    engine.dispose()
    assert status == "broken"


def test_bot_tables_play_to_the_end_and_store_their_records(sqlite_url: str, tmp_path) -> None:
    with serving(sqlite_url, records_dir=tmp_path / "records") as client:
        table = make_table(client, "damocles", [{"bot": "random"}, {"bot": "heuristic"}],
                           players=2)
        deadline = time.time() + 60
        while live(client, table["id"]).status == "running" and time.time() < deadline:
            time.sleep(0.05)
        assert live(client, table["id"]).status == "finished"
        record = Record.load(tmp_path / "records" / f"{table['id']}.json")
        assert replay(record).is_terminal()
        assert set(record.meta["sources"]) == {"bot"}


def test_group_commit_writes_a_batch_and_isolates_a_failing_write(db_url: str) -> None:
    from meeple.server.db import Store

    store = Store(make_engine(db_url))
    row = dict(id="t1", game="damocles", variant="seed", players=2, params={}, seed=2**61,
               timer_seconds=None, status="running", created_at=0.0, record=None)
    store.create_table(row, [dict(seat=0, kind="open", name="", token_hash=None),
                             dict(seat=1, kind="open", name="", token_hash=None)])
    action = dict(seq=0, seat=0, text="x", source="person", digest="d")
    results = store.write_batch([
        ("add_action", ("t1", action, (1, 5.0), None)),
        ("add_action", ("t1", action, False, None)),              # the same seq again: refused
        ("add_message", ("t1", dict(seq=0, step=0, after_action=1, sender=1,
                                    recipients=[0], text="hi", at=1.0))),
    ])
    assert results[0] is None and results[1] is not None and results[2] is None
    stored = store.load_table("t1")
    assert [a["seq"] for a in stored.actions] == [0] and stored.row["seed"] == 2**61
    assert stored.messages[0]["recipients"] == [0] and stored.deadline["epoch"] == 1
    with pytest.raises(ValueError):
        store.write_batch([("mark", ("t1", "broken"))])
    store.dispose()


def test_a_refused_commit_rolls_the_action_back(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = make_table(client, FOUR_GODS)
        tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
        conns = [WS(client, table["id"], t) for t in tokens]
        for c in conns:
            c.drain()
        before = live(client, table["id"]).state.digest()
        engine = make_engine(sqlite_url)
        with engine.begin() as conn:  # the database now refuses every action
            conn.execute(text("ALTER TABLE actions RENAME TO actions_gone"))
        conns[0].send({"type": "act", "action": "atk:B", "id": 1})
        (reply,) = conns[0].drain()
        assert reply["type"] == "error" and reply["code"] == "storage" and reply["id"] == 1
        assert live(client, table["id"]).state.digest() == before
        assert all(c.drain() == [] for c in conns[1:])  # nobody heard of it
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE actions_gone RENAME TO actions"))
        engine.dispose()
        conns[0].send({"type": "act", "action": "atk:B", "id": 2})
        assert conns[0].drain()[-1] == {"type": "accepted", "id": 2, "action": "atk:B"}
