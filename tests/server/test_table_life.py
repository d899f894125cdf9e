"""A table as people live it (docs/server.md, "The log" and "Leaving"): one ordered log in
words, the same after a reconnect or a restart, that says when time ran out and for whom; a
person who leaves, whose seat a bot or the timer takes as the table's creator chose; a table no
person is left at ends; seats with colours."""

from __future__ import annotations

import json
import time

from meeple.engine.record import Record, replay
from tests.server.conftest import WS, TestClient, join, make_table, serving

FOUR_GODS = "battle-of-the-four-gods"


def log_texts(frames: list[dict]) -> list[str]:
    return [e["text"] for f in frames if f["type"] == "log" for e in f["entries"]]


def play(conns: list[WS], steps: int) -> None:
    """``steps`` actions, each by a seat to act, its first legal action."""
    for _ in range(steps):
        acting = [c for c in conns if c.last_state()["legal"]]
        if not acting:
            return
        acting[0].send({"type": "act", "action": acting[0].last_state()["legal"][0]})
        acting[0].drain()
        for c in conns:
            c.drain()


def test_the_log_is_the_games_narration_in_order_and_kept_on_reconnect(
        client: TestClient) -> None:
    table = make_table(client, "damocles", players=2, params={"cycles": 2})
    tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo")]
    conns = [WS(client, table["id"], t) for t in tokens]
    watcher = WS(client, table["id"])
    play(conns, 12)
    watcher.drain()
    seen = [e for f in map(json.loads, watcher.frames) if f["type"] == "log"
            for e in f["entries"]]
    assert seen and all(e["kind"] == "event" for e in seen)
    # seats are written {seat:N}, never "Seat 0" or "seat 0"
    assert not any("Seat " in e["text"] or "seat " in e["text"] for e in seen)
    assert any("{seat:" in e["text"] for e in seen) or all(e["seat"] is not None for e in seen)
    # the opening discard is simultaneous: each seat read its own choice, privately
    mine = [log_texts([json.loads(f) for f in c.frames]) for c in conns]
    assert any(t.startswith("You chose discard") for t in mine[0])
    assert not any(t.startswith("You chose") for t in log_texts(
        [json.loads(f) for f in watcher.frames]))
    # a reconnection gets the whole log again, the same entries in the same order
    again = WS(client, table["id"], tokens[0])
    reset = [json.loads(f) for f in again.frames if '"type":"log"' in f][-1]
    assert reset["reset"] and [e["text"] for e in reset["entries"]] == mine[0]


def test_the_log_survives_a_restart(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = make_table(client, "damocles", players=2, params={"cycles": 2})
        tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo")]
        conns = [WS(client, table["id"], t) for t in tokens]
        play(conns, 10)
        before = client.app.state.manager.tables[table["id"]].log.visible_to(0)
        WS.close_all()
    with serving(sqlite_url) as client:
        after = client.app.state.manager.tables[table["id"]].log.visible_to(0)
        assert [e.model_dump() for e in after] == [e.model_dump() for e in before]


def test_a_timeout_is_said_in_the_log_to_everyone_and_what_it_played_to_the_seat(
        client: TestClient) -> None:
    table = make_table(client, FOUR_GODS, timer_seconds=1.0)
    tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
    conns = [WS(client, table["id"], t) for t in tokens]
    for c in conns[:3]:
        c.send({"type": "act", "action": "pass"})
        c.drain()
    deadline = conns[0].last_state()["timer"]["deadline"]
    time.sleep(max(0.0, deadline - time.time()) + 0.5)
    frames = [c.drain() for c in conns]
    assert "Time ran out for {seat:3}." in log_texts(frames[0])
    assert "Time ran out: the timer played pass for you." in log_texts(frames[3])
    assert not any("the timer played" in t for t in log_texts(frames[0]))
    # the entry comes before the state that shows the next round
    assert [f["type"] for f in frames[3]][-2:] == ["log", "state"]
    assert frames[3][-1]["view"]["round"] == 2


def test_a_person_leaves_a_running_game_and_the_chosen_bot_plays_on(client: TestClient
                                                                    ) -> None:
    table = make_table(client, FOUR_GODS, [{}, {}, {"bot": "random"}, {"bot": "random"}],
                       replace="random")
    assert table["replace"] == "random" and table["seat_colours"] == [
        "red", "blue", "green", "orange"]
    tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo")]
    conns = [WS(client, table["id"], t) for t in tokens]
    left = client.post(f"/api/tables/{table['id']}/leave",
                       headers={"Authorization": f"Bearer {tokens[1]}"})
    assert left.status_code == 200, left.text
    assert left.json()["seats"][1] == {**left.json()["seats"][1], "kind": "bot",
                                       "name": "random"}
    frames = conns[1].drain()
    kinds = [f["type"] for f in frames]
    left_at = kinds.index("left")
    assert kinds[left_at:left_at + 4] == ["left", "state", "history", "log"]
    assert frames[left_at + 1]["view"]["seat"] is None  # a spectator now
    assert "bo left; the random bot plays for them now." in log_texts(conns[0].drain())
    # the token no longer holds the seat; the game goes on without waiting for bo
    again = client.post(f"/api/tables/{table['id']}/leave",
                        headers={"Authorization": f"Bearer {tokens[1]}"})
    assert again.status_code == 403
    conns[1].send({"type": "act", "action": "pass"})
    assert [f["code"] for f in conns[1].drain() if f["type"] == "error"] == ["not_seated"]
    conns[0].send({"type": "act", "action": "pass"})
    conns[0].drain()
    began = time.monotonic()
    while conns[0].last_state()["view"]["round"] < 2:
        assert time.monotonic() - began < 10
        conns[0].drain()
        time.sleep(0.05)
    # the last person leaves: nobody is left to play for, the table ends
    client.post(f"/api/tables/{table['id']}/leave",
                headers={"Authorization": f"Bearer {tokens[0]}"})
    assert client.get(f"/api/tables/{table['id']}").status_code == 404
    store = client.app.state.manager.store
    assert store.load_table(table["id"]).row["status"] == "abandoned"
    departures = store.load_table(table["id"]).departures
    assert [(d["seat"], d["name"], d["replacement"]) for d in departures] == [
        (1, "bo", "random"), (0, "ann", "random")]
    # bo left in round 1 (the bots may have chosen already), ann after round 1's four actions
    assert departures[0]["after_action"] <= 2 < 4 <= departures[1]["after_action"]


def test_leaving_before_the_start_opens_the_seat_and_the_timer_can_take_a_seat(
        client: TestClient) -> None:
    table = make_table(client, "damocles", players=3, replace="timer")
    ann = join(client, table["id"], "ann")
    bo = join(client, table["id"], "bo")
    client.post(f"/api/tables/{table['id']}/leave",
                headers={"Authorization": f"Bearer {bo['token']}"})
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "open" and info["seats"][bo["seat"]]["kind"] == "open"
    cy = join(client, table["id"], "cy")
    di = join(client, table["id"], "di")
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "running"
    # cy leaves; the timer plays cy's seat: each of its decisions times out at once
    client.post(f"/api/tables/{table['id']}/leave",
                headers={"Authorization": f"Bearer {cy['token']}"})
    live = client.app.state.manager.tables[table["id"]]
    conns = [WS(client, table["id"], t["token"]) for t in (ann, di)]
    for _ in range(200):
        play(conns, 1)
        if any(src == "bot" and seat == cy["seat"] for seat, _, src in live.steps):
            break
    assert any(seat == cy["seat"] for seat, _, _ in live.steps)
    assert live.seats[cy["seat"]] == {"kind": "bot", "name": "timer", "token_hash": None}


def test_a_finished_game_with_a_departure_is_a_record_that_replays(client: TestClient) -> None:
    table = make_table(client, "damocles", [{"bot": "random"}], players=2,
                       params={"cycles": 1})
    me = join(client, table["id"], "ann")
    c = WS(client, table["id"], me["token"])
    play([c], 3)
    client.post(f"/api/tables/{table['id']}/leave",
                headers={"Authorization": f"Bearer {me['token']}"})
    # nobody is left: abandoned, not finished; a table with a second person plays on
    assert client.app.state.manager.store.load_table(table["id"]).row["status"] == \
        "abandoned"
    table = make_table(client, "damocles", players=2, params={"cycles": 1}, replace="random")
    ann, bo = (join(client, table["id"], n) for n in ("ann", "bo"))
    conns = [WS(client, table["id"], t["token"]) for t in (ann, bo)]
    play(conns, 2)
    client.post(f"/api/tables/{table['id']}/leave",
                headers={"Authorization": f"Bearer {bo['token']}"})
    for _ in range(400):
        conns[0].drain()
        if conns[0].last_state()["status"] == "finished":
            break
        play(conns[:1], 1)
        time.sleep(0.01)
    response = client.get(f"/api/tables/{table['id']}/record")
    assert response.status_code == 200, (response.text, conns[0].last_state())
    record = response.json()
    assert record["meta"]["departures"][0]["name"] == "bo"
    assert record["meta"]["seats"][bo["seat"]] == {"kind": "bot", "name": "random"}
    assert replay(Record.from_json(record)).is_terminal()
    rematch = client.post(f"/api/tables/{table['id']}/rematch").json()
    assert [s["kind"] for s in rematch["seats"]] == ["open", "open"]  # bo's seat: a person's


def test_who_replaces_a_leaver_is_checked_like_any_bot(client: TestClient) -> None:
    for bad in ("rl:/etc/passwd", "ismcts-100000s", "nobody"):
        refused = client.post("/api/tables", json={"game": "damocles", "replace": bad})
        assert refused.status_code == 400, bad
    assert make_table(client, "damocles")["replace"] == "heuristic"  # the default
