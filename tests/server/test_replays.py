"""Replays over REST (meeple.server.replays): frames equal the views of a replayed record,
private talk reaches only its sender and recipients, local records, 404s."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from meeple import load_game
from meeple.engine.record import Record, initial_state
from meeple.server.replays import LocalReplays, frames
from tests.server.conftest import WS, join, make_table, serving

FOUR_GODS = "battle-of-the-four-gods"
SMALL = {"start_energy": 7, "max_rounds": 8}


def _finish(client: TestClient) -> tuple[str, list[str]]:
    """A Four Gods table of four people, with public and private talk, played to the end by
    always choosing the first legal action: (table id, tokens)."""
    table = make_table(client, FOUR_GODS, params=SMALL)
    tokens = [join(client, table["id"], n)["token"] for n in ("ann", "bo", "cy", "di")]
    conns = [WS(client, table["id"], t) for t in tokens]
    conns[0].send({"type": "say", "text": "hello all", "id": 1})
    conns[0].send({"type": "say", "text": "secret for blue", "to": [1], "id": 2})
    for c in conns:
        c.drain()
    rounds = 0
    while conns[0].last_state()["status"] != "finished":
        for c in conns:
            legal = c.last_state()["legal"]
            if legal:
                c.send({"type": "act", "action": legal[-1] if rounds % 2 else legal[0]})
                c.until("accepted")
        if rounds == 1:
            conns[2].send({"type": "say", "text": "green to orange", "to": [3], "id": 3})
        for c in conns:
            c.drain()
        rounds += 1
        assert rounds < 50
    for c in conns:
        c.close()
    return table["id"], tokens


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _texts(reply: dict[str, Any]) -> list[str]:
    return [m["text"] for m in reply["talk"]]


def test_finished_table_replay_frames_equal_the_records_views(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table_id, tokens = _finish(client)
        data = client.get(f"/api/tables/{table_id}/record").json()
        record = Record.from_json(data)
        game = load_game(record.game, record.variant, record.players, **record.params)
        for seat in (None, 0, 2):
            query = "" if seat is None else f"?seat={seat}"
            got = client.get(f"/api/tables/{table_id}/replay{query}",
                             headers={"Accept-Encoding": "gzip"})
            assert got.status_code == 200
            assert got.headers.get("content-encoding") == "gzip"
            reply = got.json()
            assert reply["steps"] == len(record.steps) == len(reply["actions"])
            assert len(reply["views"]) == reply["steps"] + 1
            state = initial_state(game, record)
            assert reply["views"][0] == _json(state.view(seat))
            for i, step in enumerate(record.steps):
                ((who, text),) = step.items()
                state.apply_action(game.parse_action(text, int(who)), int(who))
                assert reply["views"][i + 1] == _json(state.view(seat))
                assert reply["actions"][i] == [{"seat": int(who), "text": text}]
            assert reply["digest"] == state.digest() == record.result["digest"]
            assert reply["table"]["seat_names"] == ["RED", "BLUE", "GREEN", "ORANGE"]
            assert [s["name"] for s in reply["table"]["seats"]] == ["ann", "bo", "cy", "di"]
        # talk: public for everyone; private only with a sender's or recipient's token, and
        # only what the perspective could read
        url = f"/api/tables/{table_id}/replay"
        assert _texts(client.get(url).json()) == ["hello all"]
        assert _texts(client.get(url + "?seat=1").json()) == ["hello all"]
        blue = {"Authorization": f"Bearer {tokens[1]}"}
        assert _texts(client.get(url + "?seat=1", headers=blue).json()) == [
            "hello all", "secret for blue"]
        assert _texts(client.get(url + "?seat=0", headers=blue).json()) == [
            "hello all", "secret for blue"]
        assert _texts(client.get(url + "?seat=3", headers=blue).json()) == ["hello all"]
        assert _texts(client.get(url, headers=blue).json()) == ["hello all"]
        green = {"Authorization": f"Bearer {tokens[2]}"}
        reply = client.get(url + "?seat=3", headers=green).json()
        assert _texts(reply) == ["hello all", "green to orange"]
        said = reply["talk"][1]
        assert said["frame"] >= 4 and said["recipients"] == [3]   # after round 1's 4 steps
        bad = client.get(url, headers={"Authorization": "Bearer nope"})
        assert bad.status_code == 403
        assert client.get(url + "?seat=9").status_code == 400
        # the lobby's recent games, newest first
        recent = client.get("/api/recent").json()
        assert recent[0]["id"] == table_id and recent[0]["steps"] == len(record.steps)
        assert recent[0]["winners"] == record.result["winners"]
        assert client.get(f"/replay/{table_id}").status_code == 200


def test_unknown_or_unfinished_tables_have_no_replay(client: TestClient) -> None:
    assert client.get("/api/tables/nope/replay").status_code == 404
    table = make_table(client, FOUR_GODS)
    got = client.get(f"/api/tables/{table['id']}/replay")
    assert got.status_code == 404 and got.json()["detail"]["code"] == "unknown_table"
    assert client.get("/api/replays/x").status_code == 404
    assert client.get("/api/recent").json() == []


def _local_record() -> Record:
    """A small Four Gods game played with joint steps (as the lab records them), with talk."""
    game = load_game(FOUR_GODS, **SMALL)
    state = game.new_initial_state(3)
    record = Record(game.name, game.variant, game.players, dict(game.params), 3)
    while not state.is_terminal():
        joint = {s: state.legal_actions(s)[0] for s in state.current_players()}
        record.steps.append({str(s): str(a) for s, a in joint.items()})
        state.apply_actions(joint)
    record.talk = [{"step": 2, "sender": 0, "recipients": [1], "text": "psst"},
                   {"step": 1, "sender": 2, "recipients": None, "text": "hi"}]
    record.finish(state)
    return record


def test_local_records_show_all_talk_a_perspective_saw(sqlite_url: str) -> None:
    record = _local_record()
    local = LocalReplays.of({"7": record})
    with serving(sqlite_url, replays=local) as client:
        assert client.get("/api/replays").json() == ["7"]
        spectator = client.get("/api/replays/7").json()
        assert spectator == _json({**frames(record, None), "table": spectator["table"],
                                  "viewer": None})
        assert spectator["steps"] == len(record.steps) and len(spectator["actions"][0]) == 4
        assert _texts(spectator) == ["hi"]
        blue = client.get("/api/replays/7?seat=1").json()
        assert _texts(blue) == ["psst", "hi"]
        # a message stamped with length L is placed at the first position of that length
        assert [m["frame"] for m in blue["talk"]] == [blue["lengths"].index(2),
                                                      blue["lengths"].index(1)]
        assert _texts(client.get("/api/replays/7?seat=3").json()) == ["hi"]
        game = load_game(FOUR_GODS, **SMALL)
        assert client.get("/api/replays/7/board").json() == game.board_content()
        assert client.get("/replay/local/7").status_code == 200
        assert client.get("/api/replays/8").status_code == 404
        assert client.get("/api/replays/7?seat=4").status_code == 400
