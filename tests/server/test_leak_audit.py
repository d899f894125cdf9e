"""Full games of every design through the websocket, every seat a person playing random legal
moves, plus a spectator; then the leak audit: every frame each connection received must equal,
byte for byte, the stream rebuilt from that seat's views alone (``view(i)`` after each action,
its legal actions taken from a *determinization* of that view, not from the true state), the
talk it may read, and its own acknowledgements. Anything else the server sent (another seat's
action, a hidden card, a private message's existence, a global counter) breaks the equality.
The finished game is a meeple record that replays, also with ``meeple replay``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli import app as cli_app
from meeple.engine.record import Record, replay
from meeple.engine.registry import load_game
from meeple.engine.talk import Message
from meeple.server import protocol as p
from meeple.server.narration import step_entries
from tests.server.conftest import WS, TestClient, join, make_table, serving

# Small games: two seats where the design allows, short caps where random play cannot finish.
GAMES = [
    ("battle-of-the-four-gods", {"players": 3, "params": {"start_energy": 20}}),
    ("damocles", {"players": 2, "params": {"cycles": 3}}),
    ("epoch-ellipse", {"players": 2}),
    ("hanabi", {"players": 3}),
    ("ozymandias-campaign", {"players": 2, "params": {"max_rounds": 8}}),
    ("ozymandias-market", {"players": 2, "params": {"max_rounds": 8}}),
]
SKIP = {"welcome", "table"}  # public lobby data (checked separately), not game information


def play_to_the_end(client: TestClient, game: str, spec: dict[str, Any],
                    seed: int) -> tuple[dict, list[str], list[WS], WS]:
    rng = random.Random(seed)
    table = make_table(client, game, **spec)
    tokens = [join(client, table["id"], f"p{i}")["token"] for i in range(table["players"])]
    conns = [WS(client, table["id"], t) for t in tokens]
    watcher = WS(client, table["id"])
    everyone = [*conns, watcher]
    for c in everyone:
        c.drain()
    talk = bool(table["talk_modes"])
    for _ in range(5000):
        acting = [c for c in conns if c.last_state()["legal"]]
        if not acting:
            break
        actor = rng.choice(acting)
        if talk and rng.random() < 0.15:
            speaker = rng.choice(conns)
            to = rng.choice([None, [rng.randrange(len(conns))]])
            speaker.send({"type": "say", "text": f"<b>deal {rng.random():.3f}</b>", "to": to})
            speaker.drain()
        actor.send({"type": "act", "action": rng.choice(actor.last_state()["legal"])})
        actor.drain()
        for c in everyone:
            c.drain()
    assert watcher.last_state()["status"] == "finished", f"{game} did not finish"
    return table, tokens, conns, watcher


def expected_stream(record: dict, events: list[tuple[str, Any]], seat: int | None,
                    players: int) -> list[str]:
    """What ``seat`` should have received after its ``welcome``: built from its views only
    (the log from the public view's narration and the seat's own actions)."""
    game = load_game(record["game"], record["variant"], record["players"], **record["params"])
    state = game.new_initial_state(record["seed"])
    rng = random.Random(99)
    out: list[str] = []
    last: list[Any] = [None]

    def state_frame(finished: bool) -> None:
        view = state.view(seat)
        legal: list[str] = []
        if seat is not None and not finished and seat in view["to_act"]:
            legal = [str(a) for a in game.determinize(view, rng).legal_actions(seat)]
        result = None
        if finished:
            result = p.Result(returns=list(state.returns()), winners=list(state.winners()),
                              scores=list(state.scores()), outcome=state.outcome(),
                              truncated=state.is_truncated())
        key = (json.dumps(view, sort_keys=True), legal, finished)
        if key != last[0]:
            last[0] = key
            out.append(p.dump(p.StateUpdate(status="finished" if finished else "running",
                                            view=view, legal=legal, result=result)))

    state_frame(False)
    out.append(p.dump(p.History(messages=[])))
    out.append(p.dump(p.Log(entries=[], reset=True)))
    for kind, item in events:
        if kind == "act":
            actor, text = item
            before, length = state.current_players(), state.length()
            narrated = state.view(None).get("events")
            state.apply_action(game.parse_action(text, actor), actor)
            entries = step_entries(game, length, actor, text, "person", len(before) > 1,
                                   narrated, state.view(None).get("events"),
                                   state.is_terminal())
            mine = [e for to, e in entries if to is None or to == seat]
            if mine:
                out.append(p.dump(p.Log(entries=mine)))
            state_frame(state.is_terminal())
            if actor == seat:
                out.append(p.dump(p.Accepted(action=text)))
        else:
            message = Message.from_json(item)
            if message.visible_to(seat):
                out.append(p.dump(p.Talk(message=p.TalkOut(
                    sender=message.sender, recipients=None if message.recipients is None
                    else list(message.recipients), step=message.step, text=message.text))))
            if message.sender == seat:
                out.append(p.dump(p.Said()))
    return out


@pytest.fixture
def client(sqlite_url: str):
    # a test driver acts far faster than a person: lift the frame-rate limit
    with serving(sqlite_url, limits={"frame_rate": 1e6, "frame_burst": 1e6,
                                     "talk_rate": 1e6, "talk_burst": 1e6}) as c:
        yield c


@pytest.mark.parametrize("game, spec", GAMES, ids=[g for g, _ in GAMES])
def test_full_game_through_the_websocket_and_leak_audit(client: TestClient, game: str,
                                                        spec: dict, tmp_path) -> None:
    table, tokens, conns, watcher = play_to_the_end(client, game, spec, seed=len(game))
    store = client.app.state.manager.store
    stored = store.load_table(table["id"])
    record = store.record(table["id"])
    # the events in the order the table applied them: messages carry how many actions preceded
    events: list[tuple[str, Any]] = []
    talk = iter(record["talk"])
    talk_rows = {m["seq"]: m for m in stored.messages}
    pending = [(talk_rows[i]["after_action"], m) for i, m in enumerate(talk)]
    for seq, action in enumerate(stored.actions):
        while pending and pending[0][0] == seq:
            events.append(("say", pending.pop(0)[1]))
        events.append(("act", (action["seat"], action["text"])))
    events.extend(("say", m) for _, m in pending)
    assert [a["source"] for a in stored.actions] == ["person"] * len(stored.actions)
    for seat, c in [*enumerate(conns), (None, watcher)]:
        got = [f for f in c.frames if json.loads(f)["type"] not in SKIP]
        want = expected_stream(record, events, seat, table["players"])
        assert len(got) == len(want), (seat, len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert g == w, f"{game}: frame {i} to seat {seat} differs:\n{g[:400]}\n{w[:400]}"
    # the lobby frames are the same public summary for everyone
    summaries = {json.dumps(json.loads(f)["table"]["seats"]) for c in [*conns, watcher]
                 for f in c.frames if json.loads(f)["type"] == "table"}
    assert all("token" not in s for s in summaries)
    # the finished game is a meeple record: replayable, also by `meeple replay`
    final = replay(Record.from_json(record))
    assert final.is_terminal() and final.digest() == record["result"]["digest"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert done.exit_code == 0 and "matches the recorded final state" in done.output
    if game == "battle-of-the-four-gods":
        assert record["talk"], "the Four Gods game should have had table talk"
        assert any(m["recipients"] for m in record["talk"])
