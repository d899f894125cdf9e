"""Crash test: a real ``meeple serve`` process on a free port, a game played partway over real
websockets, the process killed with SIGKILL mid-game, restarted on the same database: every
table comes back at the same state digest, each person reconnects to the same seat and view
with the talk, and the game plays on to a record that replays."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from meeple.engine.record import Record, replay
from meeple.server.db import Store, make_engine
from tests.server.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """``meeple serve`` in a subprocess, on a free port or on ``port`` (a restart on the port
    of a killed one, for the clients that reconnect to it), returned once it answers and (with
    ``wait_ready``) has rebuilt its stored tables."""

    def __init__(self, db_url: str, cwd: Path, port: int | None = None,
                 wait_ready: bool = True, preload: tuple[str, ...] = ()) -> None:
        self.port = free_port() if port is None else port
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
        # its output to a file: a pipe nobody reads would stop the server once full
        self.log_path = Path(cwd) / f"serve-{self.port}-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed by kill)
        # ``preload``: modules imported first, such as a template that registers its game
        start = (["-c", "".join(f"import {m}; " for m in preload)
                  + "from meeple.cli import main; main()"] if preload else ["-m", "meeple.cli"])
        self.proc = subprocess.Popen(
            [sys.executable, *start, "serve", "--port", str(self.port), "--db", db_url],
            cwd=cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        self.started = time.monotonic()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                health = httpx.get(self.url + "/api/health", timeout=1)
                if health.status_code == 200 and (health.json()["ready"] or not wait_ready):
                    self.ready_seconds = time.monotonic() - self.started
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"meeple serve did not start: {self.output()}")

    def output(self) -> str:
        """What the server printed so far (its log included)."""
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._log.close()


class Seat:
    """A real websocket client holding one seat."""

    def __init__(self, server: Server, table_id: str, token: str | None) -> None:
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
                          open_timeout=10).__enter__()
        self.state: dict[str, Any] | None = None
        self.history: list[dict] = []
        self.n = 0
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.drain()

    def drain(self) -> None:
        self.n += 1
        self.ws.send(json.dumps({"type": "ping", "id": self.n}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "state":
                self.state = message
            elif message["type"] == "history":
                self.history = message["messages"]
            elif message["type"] == "talk":
                self.history.append(message["message"])
            elif message["type"] == "error" and message["code"] == "rate_limited":
                # the real server's default limits apply: wait, and ask again
                time.sleep(0.5)
                if message["id"] == self.n:
                    self.ws.send(json.dumps({"type": "ping", "id": self.n}))
            elif message["type"] == "error":
                raise AssertionError(message)
            elif message["type"] == "pong" and message["id"] == self.n:
                return

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))
        self.drain()


def play(seats: list[Seat], steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        acting = [s for s in seats if s.state["legal"]]
        if not acting:
            return
        actor = rng.choice(acting)
        actor.send({"type": "act", "action": rng.choice(actor.state["legal"])})
        for s in seats:
            s.drain()


@pytest.mark.slow
def test_sigkill_mid_game_and_restart_resume_every_table(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'meeple.db'}"
    rng = random.Random(5)
    server = Server(db_url, tmp_path)
    try:
        api = server.url + "/api/tables"
        four = httpx.post(api, json={"game": "battle-of-the-four-gods",
                                     "timer_seconds": 300}).json()
        tokens = [httpx.post(f"{api}/{four['id']}/join", json={"name": n}).json()["token"]
                  for n in ("ann", "bo", "cy", "di")]
        duo = httpx.post(api, json={"game": "damocles", "players": 2,
                                    "seats": [{"bot": "heuristic"}]}).json()
        duo_token = httpx.post(f"{api}/{duo['id']}/join", json={"name": "eve"}).json()["token"]
        seats = [Seat(server, four["id"], t) for t in tokens]
        eve = Seat(server, duo["id"], duo_token)
        play(seats, 25, rng)
        seats[2].send({"type": "say", "text": "-ro together?"})
        for _ in range(3):
            if eve.state["legal"]:
                eve.send({"type": "act", "action": rng.choice(eve.state["legal"])})
            time.sleep(0.2)
            eve.drain()
        for s in [*seats, eve]:
            s.drain()
        before = [s.state for s in seats]
        eve_before = eve.state
        history = [s.history for s in seats]
    finally:
        server.kill()  # SIGKILL: no shutdown hook runs
    store = Store(make_engine(db_url))
    stored = {t: store.load_table(t) for t in (four["id"], duo["id"])}
    store.dispose()
    digests = {t: s.actions[-1]["digest"] for t, s in stored.items()}
    restarted = Server(db_url, tmp_path)
    try:
        seats = [Seat(restarted, four["id"], t) for t in tokens]
        for seat, s in enumerate(seats):
            assert s.state["view"] == before[seat]["view"]
            assert s.state["legal"] == before[seat]["legal"]
            deadline = before[seat]["timer"]["deadline"]
            assert s.state["timer"]["deadline"] == pytest.approx(deadline)
        assert [s.history for s in seats] == history
        assert seats[1].history == [] and seats[2].history[0]["text"] == "together?"
        assert seats[3].history[0]["recipients"] == [0, 3]
        eve = Seat(restarted, duo["id"], duo_token)
        assert eve.state["view"] == eve_before["view"]
        # play both games to the end after the restart
        for _ in range(400):
            play(seats, 20, rng)
            if seats[0].state["status"] == "finished":
                break
        deadline = time.monotonic() + 60
        while eve.state["status"] != "finished" and time.monotonic() < deadline:
            if eve.state["legal"]:
                eve.send({"type": "act", "action": rng.choice(eve.state["legal"])})
            else:
                time.sleep(0.02)
                eve.drain()
        for table_id in (four["id"], duo["id"]):
            record = Record.from_json(httpx.get(
                f"{restarted.url}/api/tables/{table_id}/record").json())
            final = replay(record)  # reaches the recorded final digest or raises
            assert final.is_terminal()
            prefix = [{str(a["seat"]): a["text"]} for a in stored[table_id].actions]
            assert record.steps[:len(prefix)] == prefix
            # the state at the kill replays to the digest stored before it
            game = final.game
            state = game.new_initial_state(record.seed)
            for step in prefix:
                ((seat, text),) = step.items()
                state.apply_action(game.parse_action(text, int(seat)), int(seat))
            assert state.digest() == digests[table_id]
        print(f"restart to ready: {restarted.ready_seconds:.2f} s")
    finally:
        restarted.kill()
