"""The server against a stranger (docs/server.md, "Security model"): no path from the web to
the disk, bot budgets bounded and bots shared fairly between tables, tables limited per client
and in all, every malformed request refused with a 4xx and a reason (never a 500, never a closed
connection), and a restart over thousands of stored tables that answers at once."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.orm import Session
from websockets.sync.client import connect

from meeple.engine.registry import game_class, game_names
from meeple.server.db import SeatRow, TableRow, make_engine
from meeple.server.limits import Limits
from tests.server.browser_kit import serving_for
from tests.server.conftest import WS, TestClient, join, make_table, serving
from tests.server.test_crash import Server

DECK = Path(__file__).resolve().parents[2] / "src/meeple/games/damocles/data/codices.json"
FILE_PARAMS = [(g, p.name) for g in game_names() for p in game_class(g).parameters if p.file]


def detail(response: httpx.Response) -> dict:
    return response.json()["detail"]


# ----------------------------------------------------------------- no path from the web to disk
def test_every_content_file_parameter_of_every_game_is_found(tmp_path: Path) -> None:
    # the list the tests below run over: the four (deck, cards x2, tiles), cards of
    # the campaign and of Hanabi
    assert sorted(FILE_PARAMS) == [("damocles", "deck"), ("epoch-ellipse", "cards"),
                                   ("hanabi", "cards"), ("ozymandias-campaign", "cards"),
                                   ("ozymandias-campaign", "tiles"),
                                   ("ozymandias-market", "cards")]


@pytest.mark.parametrize("game, param", FILE_PARAMS)
def test_a_client_never_makes_the_server_open_a_path(sqlite_url: str, tmp_path: Path,
                                                    game: str, param: str) -> None:
    real = tmp_path / "real.json"
    real.write_text(json.dumps({"id": "secret-id-123"}))
    answers = {}
    with serving(sqlite_url, content_dir=tmp_path / "content") as client:
        for path in ("/etc/passwd", "/dev/zero", "/no/such/file.json", str(real), str(DECK)):
            began = time.monotonic()
            response = client.post("/api/tables", json={"game": game, "params": {param: path}})
            assert time.monotonic() - began < 2  # /dev/zero is never read
            assert response.status_code == 400, response.text
            answers[path] = detail(response)["message"].replace(repr(path)[:60], "PATH")
        assert len(set(answers.values())) == 1  # the same words whether the file exists or not
        message = next(iter(answers.values()))
        assert "never by a path" in message and "secret-id-123" not in message
        assert "not valid JSON" not in message and "not found" not in message
        # nothing was made: no table, nothing in the database's list
        assert client.get("/api/tables").json()["total"] == 0


def _deck(**changes) -> dict:
    deck = json.loads(DECK.read_text())
    deck.update(changes)
    return deck


def test_an_uploaded_deck_plays_at_a_table_by_its_id(sqlite_url: str, tmp_path: Path) -> None:
    deck = _deck()
    deck["codices"][0] = {**deck["codices"][0], "id": "ANN-01"}
    body = json.dumps(deck).encode()
    with serving(sqlite_url, content_dir=tmp_path / "content") as client:
        up = client.post("/api/content/damocles/deck?name=ann's deck.json", content=body)
        assert up.status_code == 201, up.text
        ident = up.json()["id"]
        assert ident.startswith("upload-ann-s-deck-") and up.json()["new"]
        again = client.post("/api/content/damocles/deck?name=other", content=body).json()
        assert again == {**again, "id": ident, "new": False}  # the same bytes, the same id
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["damocles"]["content"] == {"deck": [ident]}
        table = make_table(client, "damocles", [{"bot": "random"}] * 3, players=3,
                           params={"deck": ident})
        assert table["params"]["deck"] == ident  # the id is shown, never the path
        assert str(tmp_path) not in json.dumps(table)
        board = client.get(f"/api/tables/{table['id']}/board").json()
        assert "ANN-01" in board["codices"]  # the table plays the uploaded deck
        listed = client.get("/api/tables").json()["tables"][0]
        assert listed["params"]["deck"] == ident and str(tmp_path) not in json.dumps(listed)
    # a restart offers it again from the folder, and the table rebuilds with it
    with serving(sqlite_url, content_dir=tmp_path / "content") as client:
        live = client.app.state.manager.tables[table["id"]]
        assert Path(live.game.params["deck"]).name == f"{ident}.json"


def test_a_bad_upload_is_refused_naming_the_item_never_a_path(sqlite_url: str,
                                                               tmp_path: Path) -> None:
    deck = _deck()
    deck["codices"][3] = {**deck["codices"][3], "type": "Bogus"}
    folder = tmp_path / "content"
    with serving(sqlite_url, content_dir=folder, limits={"upload_burst": 50}) as client:
        bad = client.post("/api/content/damocles/deck?name=mine.json",
                          content=json.dumps(deck).encode())
        assert bad.status_code == 400 and detail(bad)["code"] == "bad_content"
        message = detail(bad)["message"]
        assert deck["codices"][3]["id"] in message and "mine.json" in message
        assert str(folder) not in message and ".incoming" not in message
        for data, words in ((b"\xff\xfe", "UTF-8"), (b"[" * 100_000 + b"]" * 100_000, None),
                            (b"{", "not valid JSON")):
            refused = client.post("/api/content/damocles/deck", content=data)
            assert refused.status_code in (400, 413), refused.text
            if words and refused.status_code == 400:
                assert words in detail(refused)["message"]
        too_big = client.post("/api/content/damocles/deck", content=b" " * 300_000)
        assert too_big.status_code == 413
        assert client.post("/api/content/damocles/cards", content=b"{}").status_code == 404
        assert client.post("/api/content/chess/deck", content=b"{}").status_code == 404
        # nothing kept: no file but the folders
        assert [p for p in folder.rglob("*") if p.is_file()] == []
        # and uploads are limited per client: 5 at once here, then one each 10 s
    with serving(sqlite_url, content_dir=folder) as client:
        codes = [client.post("/api/content/damocles/deck", content=b"{}").status_code
                 for _ in range(6)]
        assert codes == [400] * 5 + [429]
    with serving(sqlite_url) as client:  # a server without a content folder takes none
        refused = client.post("/api/content/damocles/deck", content=DECK.read_bytes())
        assert refused.status_code == 403 and detail(refused)["code"] == "no_uploads"


def test_the_operator_offers_files_by_putting_them_in_the_folder(sqlite_url: str,
                                                                  tmp_path: Path) -> None:
    offered = tmp_path / "content" / "damocles" / "deck"
    offered.mkdir(parents=True)
    (offered / "club-night.json").write_text(DECK.read_text())
    (offered / "../../../escape.json").resolve().write_text("{}")  # outside: not offered
    with serving(sqlite_url, content_dir=tmp_path / "content",
                 limits={"uploads": 1}) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["damocles"]["content"]["deck"] == ["club-night"]
        assert games["damocles"]["params"]["deck"] == ""
        schema = {p["name"]: p for p in games["damocles"]["parameters"]}
        assert schema["deck"]["type"] == "file" and schema["match"]["choices"]
        table = make_table(client, "damocles", params={"deck": "club-night"})
        assert table["params"]["deck"] == "club-night"
        for bad in ("../escape", "club-night.json", "escape"):
            refused = client.post("/api/tables", json={"game": "damocles",
                                                       "params": {"deck": bad}})
            assert refused.status_code == 400 and "club-night" in detail(refused)["message"]
        deck = _deck(description="another")
        client.post("/api/content/damocles/deck", content=json.dumps(deck).encode())
        full = client.post("/api/content/damocles/deck",
                           content=json.dumps(_deck(description="third")).encode())
        assert full.status_code == 507 and detail(full)["code"] == "too_many_uploads"


# ----------------------------------------------------------------- bots
@pytest.mark.parametrize("bot, words", [
    ("rl:/etc/passwd", "only its operator may load"),
    ("rl:model.zip", "only its operator may load"),
    ("ismcts-100000s", "at most 5 s"),
    ("ismcts-1000000", "at most 20000 iterations"),
    ("ismcts-200-ismcts", "rollouts are played by heuristic, random"),
    ("grandmaster", "cannot be seated from the web"),
])
def test_bots_a_client_may_not_seat(client: TestClient, bot: str, words: str) -> None:
    response = client.post("/api/tables", json={"game": "damocles", "seats": [{"bot": bot}]})
    assert response.status_code == 400 and words in detail(response)["message"], response.text


@pytest.mark.parametrize("bot", ["random", "heuristic", "ismcts", "ismcts-400", "ismcts-2s",
                                 "ismcts-100-heuristic-d4", "heuristic@DRAW_VALUE=0.5"])
def test_bots_a_client_may_seat(client: TestClient, bot: str) -> None:
    response = client.post("/api/tables", json={"game": "damocles", "seats": [{"bot": bot}]})
    assert response.status_code == 201, response.text


def test_searching_bots_cannot_starve_the_other_tables(sqlite_url: str) -> None:
    # two tables of searches at the ceiling (1 s a decision here) hold the search threads;
    # a new table of quick bots still plays at once, and a third search table gets its turn
    searches = [{"bot": "ismcts-1s"}] * 4
    with serving(sqlite_url, limits={"bot_seconds": 1.0, "bot_threads": 2}) as client:
        busy = [make_table(client, "battle-of-the-four-gods", searches) for _ in range(2)]
        time.sleep(0.3)
        quick = make_table(client, "battle-of-the-four-gods", [{"bot": "random"}] * 4)
        manager = client.app.state.manager
        began = time.monotonic()
        # its first round (four random decisions): at once; sharing one pool, it waited
        # behind the eight searches queued before it (4 s at two threads)
        while manager.tables[quick["id"]].state.length() < 1:
            assert time.monotonic() - began < 2.5, "the quick table waited behind searches"
            time.sleep(0.02)
        third = make_table(client, "battle-of-the-four-gods", searches)
        began = time.monotonic()
        while manager.tables[third["id"]].state.length() == 0:
            # each table runs one search at a time and they take turns: the third table's
            # first search starts within one round of searches of the others
            assert time.monotonic() - began < 12, "the third search table never got a thread"
            time.sleep(0.05)
        assert all(manager.tables[t["id"]].state.length() >= 1 for t in busy)


def test_a_stored_search_with_a_huge_budget_is_capped_on_rebuild(sqlite_url: str) -> None:
    # an older server seated ismcts-100000s; rebuilt, its decisions stop at bot_seconds
    engine = make_engine(sqlite_url)
    with Session(engine) as session, session.begin():
        session.add(TableRow(id="old-search", game="battle-of-the-four-gods",
                             variant="default", players=4, params={}, seed=5,
                             timer_seconds=None, status="running", created_at=time.time(),
                             record=None, rematch=None))
        session.flush()
        session.add_all(SeatRow(table_id="old-search", seat=i, kind="bot", name=name,
                                token_hash=None)
                        for i, name in enumerate(["ismcts-100000s", "random", "random",
                                                  "random"]))
    engine.dispose()
    with serving(sqlite_url, limits={"bot_seconds": 0.5}) as client:
        table = client.app.state.manager.tables["old-search"]
        assert table.bots[0].time_cap == 0.5
        began = time.monotonic()
        while table.state.length() < 2:
            assert time.monotonic() - began < 10
            time.sleep(0.05)


# ----------------------------------------------------------------- tables: limits and paging
def test_creating_tables_is_limited_per_client_and_in_all(sqlite_url: str) -> None:
    limits = {"create_burst": 5, "create_rate": 0.01, "open_per_client": 100}
    with serving(sqlite_url, limits=limits) as client:
        made = [client.post("/api/tables", json={"game": "damocles"}) for _ in range(6)]
        assert [r.status_code for r in made] == [201] * 5 + [429]
        assert detail(made[-1])["code"] == "rate_limited" and "Retry-After" in made[-1].headers
    with serving(sqlite_url, limits={"open_per_client": 3}) as client:
        codes = [client.post("/api/tables", json={"game": "damocles"}).status_code
                 for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        # all-bot tables start at once and wait for nobody: not counted as waiting
        assert client.post("/api/tables", json={"game": "damocles", "seats": [
            {"bot": "random"}] * 4}).status_code == 201
    with serving(sqlite_url, limits={"open_tables": 2, "open_per_client": 50}) as client:
        # the earlier apps' tables are in the database too: 8 open, over this app's 2
        refused = client.post("/api/tables", json={"game": "damocles"})
        assert refused.status_code == 429 and "wait for players" in detail(refused)["message"]
    with serving(sqlite_url, limits={"live_tables": 3}) as client:
        refused = client.post("/api/tables", json={"game": "damocles",
                                                   "seats": [{"bot": "random"}] * 4})
        assert refused.status_code == 429 and "full" in detail(refused)["message"]


def test_the_table_list_is_paged(sqlite_url: str) -> None:
    with serving(sqlite_url, limits={"page_size": 4, "open_per_client": 50,
                                     "create_burst": 50}) as client:
        ids = [make_table(client, "damocles")["id"] for _ in range(10)]
        first = client.get("/api/tables").json()
        assert first["total"] == 10 and first["limit"] == 4 and len(first["tables"]) == 4
        assert [t["id"] for t in first["tables"]] == ids[::-1][:4]  # newest first
        rest = client.get("/api/tables?offset=8&limit=100").json()
        assert [t["id"] for t in rest["tables"]] == ids[1::-1] and rest["limit"] == 4
        assert client.get("/api/tables?game=ozymandias-market").json()["total"] == 0
        assert client.get("/api/tables?offset=-1").status_code == 422


def test_tables_nobody_fills_or_attends_are_closed(sqlite_url: str) -> None:
    limits = {"open_table_seconds": 0.3, "idle_table_seconds": 0.3, "min_timer_seconds": 1}
    with serving(sqlite_url, limits=limits) as client:
        manager = client.app.state.manager
        waiting = make_table(client, "damocles", players=2)
        watcher = WS(client, waiting["id"])
        running = make_table(client, "damocles", [{"bot": "random"}], players=2)
        me = join(client, running["id"], "ann")
        bots = make_table(client, "damocles", [{"bot": "random"}] * 2, players=2,
                          params={"cycles": 100})
        time.sleep(0.5)
        closed = client.portal.call(manager.sweep)
        assert sorted(closed) == sorted([waiting["id"], running["id"]])  # bots play on
        assert [m["status"] for m in watcher.drain() if m["type"] == "state"] == ["expired"]
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert waiting["id"] not in listed and running["id"] not in listed
        assert client.get(f"/api/tables/{waiting['id']}").status_code == 404
        assert manager.store.load_table(running["id"]).row["status"] == "abandoned"
        refused = client.post(f"/api/tables/{waiting['id']}/join", json={"name": "late"})
        assert refused.status_code == 404
        assert bots["id"] in listed or manager.tables[bots["id"]].status == "finished"
        assert me["seat"] == 1
    with serving(sqlite_url, limits=limits) as client:  # a closed table stays closed
        assert client.get(f"/api/tables/{running['id']}").status_code == 404


# ----------------------------------------------------------------- refusals, never a 500
@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory):
    """One real ``meeple serve`` for the module's protocol cases."""
    yield from serving_for(tmp_path_factory, "security")


@pytest.mark.parametrize("raw, code", [
    ('{"game": "damocles", "timer_seconds": NaN}', "bad_request"),
    ('{"game": "damocles", "timer_seconds": Infinity}', "bad_request"),
    ('{"game": "damocles", "timer_seconds": -Infinity}', "bad_request"),
    ('{"game": "damocles", "timer_seconds": 1e309}', "bad_request"),
    ('{"game": "damocles", "timer_seconds": 1e-9}', "bad_timer"),
    ('{"game": "damocles", "timer_seconds": 4.9}', "bad_timer"),
    ('{"game": "damocles", "timer_seconds": 86401}', "bad_timer"),
    ('{"game": "da\\ud800"}', "bad_request"),
    ('{"game": "damocles", "params": {"cycles": ' + "[" * 8000 + "]" * 8000 + "}}", "bad_json"),
    ("[" * 8000 + "]" * 8000, "bad_json"),
    ("{", "bad_json"),
])
def test_malformed_bodies_are_refused_and_the_connection_lives_on(raw: str, code: str,
                                                                   real_server: Server) -> None:
    server = real_server
    with httpx.Client(base_url=server.url) as http:  # one kept-alive connection
        response = http.post("/api/tables", content=raw,
                             headers={"Content-Type": "application/json"})
        assert 400 <= response.status_code < 500, response.text
        assert detail(response)["code"] == code
        assert http.get("/api/health").status_code == 200  # the same connection answers


def test_a_lone_surrogate_anywhere_is_refused_not_a_500(client: TestClient) -> None:
    table = make_table(client, "damocles", players=2)
    bad = client.post(f"/api/tables/{table['id']}/join", content='{"name": "a\\ud800"}',
                      headers={"Content-Type": "application/json"})
    assert bad.status_code == 422 and "surrogate" in detail(bad)["message"]
    token = join(client, table["id"], "ann")["token"]
    join(client, table["id"], "bo")
    c = WS(client, table["id"], token)
    c.send('{"type": "act", "action": "play \\ud800"}')
    c.send('{"type": "say", "text": "hi \\udfff"}')
    errors = [m for m in c.drain() if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["bad_message", "bad_message"]


def test_a_deeply_nested_frame_is_bad_json_and_the_socket_stays(client: TestClient) -> None:
    table = make_table(client, "damocles", players=2)
    c = WS(client, table["id"])
    c.send("[" * 8000 + "]" * 8000)
    error = c.until("error")
    assert error["code"] == "bad_json"
    assert c.drain() == []  # still open: the ping is answered


def test_the_default_timer_minimum_is_five_seconds(sqlite_url: str) -> None:
    assert Limits().min_timer_seconds == 5
    with serving(sqlite_url, limits=Limits()) as client:
        refused = client.post("/api/tables", json={"game": "damocles", "timer_seconds": 1})
        assert refused.status_code == 400 and detail(refused)["code"] == "bad_timer"
        assert make_table(client, "damocles", timer_seconds=5)["timer_seconds"] == 5


def test_limits_are_checked_when_given(sqlite_url: str) -> None:
    with pytest.raises(ValueError, match="unknown limit"):
        Limits.of({"tables_per_day": 3})
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(ValueError):
            Limits.parse([f"bot_seconds={bad}"])
    assert Limits.parse(["bot_seconds=2", "open_tables=7"]).open_tables == 7


# ----------------------------------------------------------------- a restart over many tables
def test_a_restart_over_thousands_of_tables_answers_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    engine = make_engine(url)
    now = time.time()
    with Session(engine) as session, session.begin():
        for i in range(2000):
            session.add(TableRow(id=f"open-{i:04d}", game="damocles", variant="default",
                                 players=4, params={}, seed=i, timer_seconds=None,
                                 status="open", created_at=now, record=None, rematch=None))
        session.add(TableRow(id="tiny-timer", game="battle-of-the-four-gods",
                             variant="default", players=4, params={}, seed=1,
                             timer_seconds=1e-9, status="running", created_at=now,
                             record=None, rematch=None))
        session.add(TableRow(id="big-search", game="battle-of-the-four-gods",
                             variant="default", players=4, params={}, seed=2,
                             timer_seconds=None, status="running", created_at=now,
                             record=None, rematch=None))
        session.flush()
        for i in range(2000):
            session.add_all(SeatRow(table_id=f"open-{i:04d}", seat=s, kind="open", name="",
                                    token_hash=None) for s in range(4))
        session.add_all(SeatRow(table_id="tiny-timer", seat=s, kind="person", name=f"p{s}",
                                token_hash="0" * 64) for s in range(4))
        session.add_all(SeatRow(table_id="big-search", seat=s, kind="bot",
                                name="ismcts-100000s" if s == 0 else "random", token_hash=None)
                        for s in range(4))
    engine.dispose()
    began = time.monotonic()
    server = Server(url, tmp_path, wait_ready=False)
    try:
        assert time.monotonic() - began < 15  # it answers before the tables are rebuilt
        assert httpx.get(server.url + "/api/games", timeout=10).status_code == 200
        # a table asked for before its turn is rebuilt at once
        assert httpx.get(server.url + "/api/tables/open-1999", timeout=10).json()["status"] \
            == "open"
        while not httpx.get(server.url + "/api/health", timeout=10).json()["ready"]:
            assert time.monotonic() - began < 120
            time.sleep(0.2)
        ready = time.monotonic() - began
        page = httpx.get(server.url + "/api/tables").json()
        assert page["total"] == 2002 and len(page["tables"]) == 50
        tiny = httpx.get(server.url + "/api/tables/tiny-timer").json()
        assert tiny["timer_seconds"] == 5  # runs at today's minimum
        print(f"2,002 tables rebuilt in {ready:.1f} s")
    finally:
        server.kill()
    log = server.output()
    assert "rebuilding 2002 open and running tables in the background" in log, log


def test_a_lobby_stream_pushes_the_tables(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, tmp_path)
    try:
        events: list[tuple[str, dict]] = []
        with httpx.Client(base_url=server.url, timeout=10) as http, \
                http.stream("GET", "/api/lobby/events") as stream:
            lines = stream.iter_lines()
            kind = None

            def next_event() -> tuple[str, str]:
                nonlocal kind
                for line in lines:
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        return kind or "", line[6:]
                raise AssertionError("the stream ended")

            kind0, first = next_event()
            assert kind0 == "tables" and json.loads(first)["total"] == 0
            made = httpx.post(server.url + "/api/tables", json={"game": "damocles"}).json()
            kind1, data = next_event()
            while kind1 != "tables":
                kind1, data = next_event()
            assert [t["id"] for t in json.loads(data)["tables"]] == [made["id"]]
            with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{made['id']}") as ws:
                ws.send(json.dumps({"type": "hello"}))
                while True:
                    kind2, data = next_event()
                    if kind2 == "tables" and json.loads(data)["tables"][0]["spectators"] == 1:
                        break
            events.append((kind2, json.loads(data)))
        assert events
    finally:
        server.kill()


def test_every_game_has_its_rules_page_on_the_web(client: TestClient) -> None:
    for game in game_names():
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and "<h1>" in page.text, game
        assert game_class(game).title in page.text
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/..%2f..%2fetc%2fpasswd").status_code == 404


def test_ctrl_c_stops_the_server_with_lobby_streams_open(sqlite_url: str,
                                                        tmp_path: Path) -> None:
    import signal
    import threading

    server = Server(sqlite_url, tmp_path)
    try:
        opened = threading.Event()

        def listen() -> None:
            try:
                with httpx.stream("GET", server.url + "/api/lobby/events", timeout=30) as s:
                    for _ in s.iter_lines():
                        opened.set()
            except httpx.HTTPError:
                pass

        threading.Thread(target=listen, daemon=True).start()
        assert opened.wait(10)
        server.proc.send_signal(signal.SIGINT)
        server.proc.wait(timeout=8)  # a stream that never ends does not hold the server up
        assert "Traceback" not in server.output()
    finally:
        server.kill()
