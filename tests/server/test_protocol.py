"""The protocol through FastAPI's TestClient: every REST call and websocket message type, and
every refusal (each to the requesting connection only, with the state untouched)."""

from __future__ import annotations

import json
import time

import pytest
from starlette.websockets import WebSocketDisconnect

from meeple.server.app import create_app
from meeple.server.protocol import MAX_FRAME_BYTES, MAX_TALK_CHARS
from tests.server.conftest import WS, TestClient, join, make_table

FOUR_GODS = "battle-of-the-four-gods"


@pytest.fixture
def four(client: TestClient):
    """A Four Gods table with four people connected: (table, tokens, connections)."""
    table = make_table(client, FOUR_GODS)
    tokens = [join(client, table["id"], name)["token"] for name in ("ann", "bo", "cy", "di")]
    conns = [WS(client, table["id"], token) for token in tokens]
    for c in conns:
        c.drain()  # the others' connection notices
    yield table, tokens, conns
    for c in conns:
        c.close()


def digest(client: TestClient, table_id: str) -> str:
    return client.app.state.manager.tables[table_id].state.digest()


# ----------------------------------------------------------------------------- REST lobby
def test_games_lists_every_design_with_bots_and_talk_modes(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) >= {FOUR_GODS, "damocles", "epoch-ellipse", "ozymandias-campaign",
                          "ozymandias-market"}
    assert "heuristic" in games[FOUR_GODS]["bots"] and "random" in games["damocles"]["bots"]
    assert games[FOUR_GODS]["talk_modes"] == ["public", "private"]
    assert games["damocles"]["talk_modes"] == []


def test_create_list_get_join_and_the_table_starts_when_full(client: TestClient) -> None:
    table = make_table(client, "damocles", [{"bot": "random"}], players=2)
    assert table["status"] == "open" and [s["kind"] for s in table["seats"]] == ["bot", "open"]
    secret_seed = client.app.state.manager.tables[table["id"]].seed
    assert str(secret_seed) not in json.dumps(table) and '"seed":' not in json.dumps(table)
    assert table["id"] in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    joined = join(client, table["id"], "ann")
    assert joined["seat"] == 1 and len(joined["token"]) >= 40
    got = client.get(f"/api/tables/{table['id']}").json()
    assert got["status"] == "running" and got["seats"][1] == {
        "seat": 1, "kind": "person", "name": "ann", "connected": False}
    assert joined["token"] not in json.dumps(got)
    # the database holds the token's hash, never the token
    store = client.app.state.manager.store
    seats = store.load_table(table["id"]).seats
    assert seats[1]["token_hash"] and joined["token"] not in json.dumps(seats)


@pytest.mark.parametrize("body, code", [
    ({"game": "chess"}, "bad_table"),
    ({"game": "damocles", "players": 9}, "bad_table"),
    ({"game": "damocles", "params": {"cycles": -1}}, "bad_table"),
    ({"game": "damocles", "seats": [{"bot": "grandmaster"}]}, "bad_table"),
    ({"game": "damocles", "players": 2, "seats": [{}, {}, {}]}, "bad_seats"),
])
def test_create_refuses_bad_tables(client: TestClient, body: dict, code: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and response.json()["detail"]["code"] == code


def test_create_refuses_unknown_fields_and_bad_timer(client: TestClient) -> None:
    assert client.post("/api/tables", json={"game": "damocles", "seed": 1}).status_code == 422
    assert client.post("/api/tables", json={"game": "damocles",
                                            "timer_seconds": 0}).status_code == 422


def test_join_refusals(client: TestClient) -> None:
    table = make_table(client, "damocles", players=2)
    assert client.post("/api/tables/nope/join", json={"name": "x"}).status_code == 404
    bad = client.post(f"/api/tables/{table['id']}/join", json={"name": "x", "seat": 5})
    assert bad.status_code == 400 and bad.json()["detail"]["code"] == "bad_seat"
    join(client, table["id"], "ann", 0)
    taken = client.post(f"/api/tables/{table['id']}/join", json={"name": "bo", "seat": 0})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    blank = client.post(f"/api/tables/{table['id']}/join", json={"name": " \u0007 "})
    assert blank.status_code == 400 and blank.json()["detail"]["code"] == "bad_name"
    join(client, table["id"], "bo")
    late = client.post(f"/api/tables/{table['id']}/join", json={"name": "cy"})
    assert late.status_code == 409 and late.json()["detail"]["code"] == "not_open"
    assert client.get("/api/tables/nope").status_code == 404
    early = client.get(f"/api/tables/{table['id']}/record")
    assert early.status_code == 409 and early.json()["detail"]["code"] == "not_finished"


def test_the_browser_client_is_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "/static/js/lobby.js" in lobby.text
    table = client.get("/table/anything")
    assert table.status_code == 200 and "/static/js/table.js" in table.text
    script = client.get("/static/js/api.js")
    assert script.status_code == 200 and "/api/tables" in script.text
    assert "javascript" in script.headers["content-type"]
    assert client.get("/static/meeple.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    board = client.get("/static/js/boards/battle-of-the-four-gods.js")
    assert board.status_code == 200 and "export function render" in board.text


def test_board_content_is_the_games_public_content(client: TestClient) -> None:
    from meeple import load_game

    for game in ("battle-of-the-four-gods", "damocles"):
        table = client.post("/api/tables", json={"game": game}).json()
        got = client.get(f"/api/tables/{table['id']}/board")
        assert got.status_code == 200
        assert got.json() == load_game(game).board_content()
    assert client.get("/api/tables/nope/board").status_code == 404


# ----------------------------------------------------------------------------- websocket
def test_seat_sees_its_view_and_legal_actions_spectator_sees_view_none(four) -> None:
    table, _, conns = four
    state = conns[1].last_state()
    assert state["view"]["seat"] == 1 and "pass" in state["legal"]
    assert conns[1].welcome["seat"] == 1 and conns[1].welcome["protocol"] == 1
    conns[1].send({"type": "sync", "id": 1})
    kinds = [m["type"] for m in conns[1].drain()]
    assert kinds == ["table", "state", "history", "log"]


def test_spectator_gets_view_none_and_cannot_act_or_talk(client: TestClient, four) -> None:
    table, _, conns = four
    watcher = WS(client, table["id"])
    state = watcher.last_state()
    assert watcher.seat is None and state["view"]["seat"] is None and state["legal"] == []
    before = digest(client, table["id"])
    for message in ({"type": "act", "action": "pass", "id": 1},
                    {"type": "say", "text": "hi", "id": 2}):
        watcher.send(message)
        (reply,) = watcher.drain()
        assert reply["type"] == "error" and reply["code"] == "not_seated"
    assert digest(client, table["id"]) == before
    watcher.close()


def test_simultaneous_submission_others_learn_who_never_what(four, client) -> None:
    table, _, conns = four
    conns[0].send({"type": "act", "action": "atk:B", "id": 7})
    mine = conns[0].drain()
    assert [m["type"] for m in mine] == ["log", "state", "accepted"]
    assert [e["text"] for e in mine[0]["entries"]] == [
        "You chose atk:B (secret until everyone has chosen)."]
    assert mine[2] == {"type": "accepted", "id": 7, "action": "atk:B"}
    assert mine[1]["view"]["my_submission"] == "atk:B" and mine[1]["legal"] == []
    for other in conns[1:]:
        (update,) = other.drain()
        assert update["view"]["submitted"] == [0] and "my_submission" not in update["view"]
        assert "atk" not in json.dumps(update["view"])
    # a second submission by the same seat is refused, the state untouched
    before = digest(client, table["id"])
    conns[0].send({"type": "act", "action": "pass", "id": 8})
    (reply,) = conns[0].drain()
    assert reply["code"] == "not_your_turn" and reply["id"] == 8
    assert digest(client, table["id"]) == before
    assert all(c.drain() == [] for c in conns[1:])  # the refusal went to that client only
    for c in conns[1:]:
        c.send({"type": "act", "action": "pass"})
        c.drain()
    assert conns[0].drain()[-1]["view"]["round"] == 2


@pytest.mark.parametrize("frame, code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    (json.dumps({"type": "dance"}), "bad_message"),
    (json.dumps({"type": "act"}), "bad_message"),
    (json.dumps({"type": "act", "action": "pass", "seat": 2}), "bad_message"),
    (json.dumps({"type": "act", "action": "x" * 401}), "bad_message"),
    (json.dumps({"type": "say", "text": "x" * (MAX_TALK_CHARS + 1)}), "bad_message"),
    (json.dumps({"type": "say", "text": "y" * (MAX_FRAME_BYTES + 1)}), "too_large"),
    (json.dumps({"type": "hello", "token": None}), "bad_message"),
    (json.dumps({"type": "act", "action": "atk:Q"}), "parse_error"),
    (json.dumps({"type": "act", "action": "atk:R"}), "parse_error"),
    (json.dumps({"type": "act", "action": "atk:BG def:BG"}), "illegal_action"),
])
def test_bad_frames_get_an_error_and_close_nothing(four, client, frame: str, code: str) -> None:
    table, _, conns = four
    before = digest(client, table["id"])
    conns[0].send(frame)
    (reply,) = conns[0].drain()
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert digest(client, table["id"]) == before
    # the connection still works
    conns[0].send({"type": "act", "action": "pass", "id": 1})
    assert conns[0].drain()[-1] == {"type": "accepted", "id": 1, "action": "pass"}


def test_binary_frames_are_read_as_text(four) -> None:
    _, _, conns = four
    conns[0].ws.send_bytes(b"\xff\xfe")
    (reply,) = conns[0].drain()
    assert reply["code"] == "bad_json"
    conns[0].ws.send_bytes(json.dumps({"type": "act", "action": "pass"}).encode())
    assert conns[0].drain()[-1]["type"] == "accepted"


def test_hello_first_unsupported_version_and_wrong_token(client: TestClient, four) -> None:
    table, _, _ = four
    raw = WS(client, table["id"], hello=False)
    raw.send({"type": "ping", "id": 1})
    assert raw.recv() == {"type": "error", "id": 1, "code": "hello_first",
                          "message": "send hello first"}
    raw.send({"type": "hello", "v": 2})
    assert raw.recv()["code"] == "unsupported_version"
    raw.send({"type": "hello", "token": "not-a-token"})
    assert raw.recv()["code"] == "bad_token"
    with pytest.raises(WebSocketDisconnect) as closed:
        raw.recv()
    assert closed.value.code == 4401
    raw.close()


def test_unknown_table_closes_with_4404(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert json.loads(ws.receive_text())["code"] == "unknown_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4404


def test_acting_out_of_turn_in_a_sequential_game(client: TestClient) -> None:
    table = make_table(client, "damocles", players=2)
    tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo")]
    conns = [WS(client, table["id"], t) for t in tokens]
    to_act = conns[0].last_state()["view"]["to_act"]
    idle = conns[1 - to_act[0]] if len(to_act) == 1 else None
    if idle is None:  # both act at the opening discard: let them, then find the idle seat
        for c in conns:
            c.send({"type": "act", "action": c.last_state()["legal"][0]})
            c.drain()
        for c in conns:
            c.drain()
        to_act = conns[0].last_state()["view"]["to_act"]
        idle = conns[1 - to_act[0]]
    before = digest(client, table["id"])
    busy = conns[to_act[0]].last_state()["legal"][0]
    idle.send({"type": "act", "action": busy, "id": "x"})
    (reply,) = idle.drain()
    assert reply["code"] in ("not_your_turn", "parse_error") and reply["id"] == "x"
    assert digest(client, table["id"]) == before
    assert conns[to_act[0]].drain() == []


def test_talk_public_private_prefix_and_escaping(client: TestClient, four) -> None:
    table, _, conns = four
    watcher = WS(client, table["id"])
    conns[0].send({"type": "say", "text": "<script>alert(1)</script>", "id": 1})
    assert conns[0].drain()[-1] == {"type": "said", "id": 1}
    for c in [*conns[1:], watcher]:
        (talk,) = c.drain()
        assert talk["message"] == {"sender": 0, "recipients": None, "step": 0,
                                   "text": "<script>alert(1)</script>"}
    # -bg: private to BLUE and GREEN; ORANGE and the spectator never see it
    conns[0].send({"type": "say", "text": "-bg let's take ORANGE\u0000 down"})
    conns[0].drain()
    for c in conns[1:3]:
        (talk,) = c.drain()
        assert talk["message"]["recipients"] == [1, 2]
        assert talk["message"]["text"] == "let's take ORANGE down"
    assert conns[3].drain() == [] and watcher.drain() == []
    # recipients by list
    conns[3].send({"type": "say", "text": "psst", "to": [0]})
    conns[3].drain()
    assert conns[0].drain()[0]["message"]["recipients"] == [0]
    assert all(c.drain() == [] for c in conns[1:3])
    # history on reconnect holds only what the seat may read
    again = WS(client, table["id"])
    assert [m["text"] for m in again.history()] == ["<script>alert(1)</script>"]
    for bad in ({"type": "say", "text": "-b hi"}, {"type": "say", "text": "hi", "to": [9]},
                {"type": "say", "text": "   "}, {"type": "say", "text": "hi", "to": [1]}):
        conns[1].send(bad)  # BLUE: to itself alone, to no seat, nothing, to itself
        (reply,) = conns[1].drain()
        assert reply["code"] in ("talk_error", "bad_message"), (bad, reply)
    # a dash that is not "-INITIALS " is no address: the line goes to everyone as typed
    for line in ("- I think blue is bluffing", "-3 for me", "-zq hi"):
        conns[0].send({"type": "say", "text": line})
        conns[0].drain()
        (talk,) = conns[2].drain()
        assert talk["message"] == {**talk["message"], "recipients": None, "text": line}
    watcher.close()
    again.close()


def test_talk_is_off_where_the_game_says_so(client: TestClient) -> None:
    table = make_table(client, "damocles", [{"bot": "random"}], players=2)
    c = WS(client, table["id"], join(client, table["id"], "ann")["token"])
    c.send({"type": "say", "text": "hello"})
    replies = [m for m in c.drain() if m["type"] == "error"]
    assert replies[0]["code"] == "talk_error" and "off" in replies[0]["message"]
    c.close()


def test_chat_and_frame_rate_limits(four) -> None:
    _, _, conns = four
    codes = []
    for i in range(8):
        conns[0].send({"type": "say", "text": f"spam {i}", "id": i})
    for message in conns[0].drain():
        codes.append(message.get("code") or message["type"])
    assert codes.count("said") == 5 and codes.count("rate_limited") == 3
    assert [m["message"]["text"] for m in conns[1].drain()] == [f"spam {i}" for i in range(5)]
    for i in range(100):
        conns[1].send({"type": "ping", "id": i})
    replies = [conns[1].recv() for _ in range(100)]
    limited = [m for m in replies if m.get("code") == "rate_limited"]
    assert 20 <= len(limited) <= 45 and len(replies) - len(limited) >= 55
    assert {m["id"] for m in replies} == set(range(100))  # one answer per frame


def test_websocket_origin_is_checked(sqlite_url: str) -> None:
    app = create_app(sqlite_url, allowed_origins=["https://play.example"])
    with TestClient(app) as client:
        table = make_table(client, "damocles", players=2)
        with pytest.raises(WebSocketDisconnect) as refused:
            WS(client, table["id"], headers={"origin": "https://evil.example"})
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://play.example"):
            ok = WS(client, table["id"], headers={"origin": origin})
            assert ok.seat is None
            ok.close()


def test_table_updates_tell_who_is_connected(client: TestClient, four) -> None:
    table, tokens, conns = four
    conns[3].close()
    (update,) = conns[0].drain()
    assert update["type"] == "table" and update["table"]["seats"][3]["connected"] is False
    back = WS(client, table["id"], tokens[3])
    assert back.seat == 3
    (update,) = conns[0].drain()
    assert update["table"]["seats"][3]["connected"] is True
    conns[3] = back


def test_bots_hear_talk_addressed_to_them(client: TestClient) -> None:
    table = make_table(client, FOUR_GODS, [{}, {"bot": "random"}, {"bot": "random"},
                                           {"bot": "random"}])
    heard: dict[int, list[str]] = {1: [], 2: [], 3: []}
    live = client.app.state.manager.tables[table["id"]]
    for seat, bot in live.bots.items():
        bot.hear = lambda message, s=seat: heard[s].append(message.text)
    c = WS(client, table["id"], join(client, table["id"], "ann")["token"])
    c.send({"type": "say", "text": "-g just you"})
    c.send({"type": "say", "text": "everyone"})
    c.drain()
    assert heard == {1: ["everyone"], 2: ["just you", "everyone"], 3: ["everyone"]}
    c.close()


def test_timer_expiry_submits_the_timeout_action(client: TestClient) -> None:
    table = make_table(client, FOUR_GODS, timer_seconds=1.5)
    tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
    conns = [WS(client, table["id"], t) for t in tokens]
    timer = conns[0].last_state()["timer"]
    assert timer["seconds"] == 1.5 and timer["deadline"] > timer["now"] - 1
    conns[0].send({"type": "act", "action": "atk:B"})
    conns[0].drain()
    time.sleep(max(0.0, timer["deadline"] - time.time()) + 0.5)
    state = conns[1].drain()[-1]
    assert state["view"]["round"] >= 2 and state["view"]["to_act"] == [0, 1, 2, 3]
    assert state["timer"]["deadline"] > timer["deadline"]
    stored = client.app.state.manager.store.load_table(table["id"])
    assert [(a["seat"], a["text"], a["source"]) for a in stored.actions[:4]] == [
        (0, "atk:B", "person"), (1, "pass", "timeout"), (2, "pass", "timeout"),
        (3, "pass", "timeout")]
    assert stored.deadline["expires_at"] == pytest.approx(state["timer"]["deadline"])


def test_a_timer_that_fires_before_the_deadline_waits_again(client: TestClient) -> None:
    # the event loop's clock is monotonic, the deadline wall-clock time: a timer may fire a
    # little early; the table must arm again rather than never time out
    table = make_table(client, FOUR_GODS, timer_seconds=1.5)
    tokens = [join(client, table["id"], n)["token"] for n in "abcd"]
    conns = [WS(client, table["id"], t) for t in tokens]
    live = client.app.state.manager.tables[table["id"]]
    deadline = conns[0].last_state()["timer"]["deadline"]
    live._timer.cancel()  # the armed timer is used up: it fires now, early
    assert client.portal.call(live.expire, live.epoch) == 0
    time.sleep(max(0.0, deadline - time.time()) + 0.6)
    state = conns[1].drain()[-1]
    assert state["view"]["round"] == 2 and state["timer"]["deadline"] > deadline


def test_rematch_after_the_end_keeps_settings_and_bots(client: TestClient) -> None:
    table = make_table(client, "damocles", [{"bot": "random"}], players=2,
                       params={"cycles": 2}, timer_seconds=300)
    me = WS(client, table["id"], join(client, table["id"], "ann")["token"])
    early = client.post(f"/api/tables/{table['id']}/rematch")
    assert early.status_code == 409 and early.json()["detail"]["code"] == "not_finished"
    rng = __import__("random").Random(4)
    deadline = time.time() + 60
    while me.last_state()["status"] != "finished" and time.time() < deadline:
        legal = me.last_state()["legal"]
        if legal:
            me.send({"type": "act", "action": rng.choice(legal)})
        else:
            time.sleep(0.01)
        me.drain()
    assert me.last_state()["result"]["winners"]
    again = client.post(f"/api/tables/{table['id']}/rematch").json()
    assert again["id"] != table["id"] and again["status"] == "open"
    assert [s["kind"] for s in again["seats"]] == ["bot", "open"]
    assert again["params"]["cycles"] == 2 and again["timer_seconds"] == 300
    assert client.post(f"/api/tables/{table['id']}/rematch").json()["id"] == again["id"]
    notices = [m for m in me.drain() if m["type"] == "rematch"]
    assert [n["table"]["id"] for n in notices] == [again["id"]]
    assert client.get(f"/api/tables/{table['id']}").json()["rematch"] == again["id"]
