"""Fixtures of the server tests: a real SQLite file per test, a real PostgreSQL server per
session (initdb and pg_ctl from Debian's postgresql 15, in a temporary folder, on a free port),
and a small websocket client over Starlette's TestClient."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")
from fastapi.testclient import TestClient  # noqa: E402

from meeple.server.app import create_app  # noqa: E402


def _pg_bin() -> Path:
    """MEEPLE_PG_BIN, else Debian's newest /usr/lib/postgresql/VERSION/bin (15 on this machine)."""
    if "MEEPLE_PG_BIN" in os.environ:
        return Path(os.environ["MEEPLE_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'meeple.db'}"


def _as_postgres(cmd: list[str]) -> list[str]:
    # initdb refuses to run as root: run the server as the postgres user then.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The base URL of a PostgreSQL server started for this test session."""
    initdb, pg_ctl = PG_BIN / "initdb", PG_BIN / "pg_ctl"
    if not initdb.exists() or not pg_ctl.exists():
        pytest.skip(f"PostgreSQL binaries not found in {PG_BIN} (apt-get install postgresql, "
                    "or set MEEPLE_PG_BIN)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as its own user")
    base = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    port = free_port()
    try:
        subprocess.run(_as_postgres([str(initdb), "-D", str(data), "-U", "postgres",
                                     "--auth=trust", "-E", "UTF8"]),
                       check=True, capture_output=True, timeout=120)
        subprocess.run(_as_postgres([
            str(pg_ctl), "start", "-D", str(data), "-l", str(base / "log"), "-w", "-t", "60", "-o",
            f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={base} "
            "-c fsync=off"]), check=True, capture_output=True, timeout=120)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"PostgreSQL could not start: {exc} {detail.decode(errors='replace')}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_postgres([str(pg_ctl), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh database on the session's PostgreSQL server."""
    import psycopg

    name = "meeple_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{postgres_server}/{name}"


class WS:
    """A test connection to a table's websocket: JSON in, JSON out, every frame kept."""

    #: Connections still open; the ``client`` fixture closes them (an open session would
    #: keep TestClient from shutting down).
    open: list[WS] = []

    def __init__(self, client: TestClient, table_id: str, token: str | None = None,
                 headers: dict[str, str] | None = None, hello: bool = True) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table_id}",
                                            headers=dict(headers or {}))
        self.ws = self._cm.__enter__()
        WS.open.append(self)
        self.frames: list[str] = []
        self._ping = 0
        if hello:
            self.send({"type": "hello", "token": token})
            self.welcome = self.until("welcome")
            self.seat = self.welcome["seat"]
            self.until("log")  # the snapshot's last frame

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.frames.append(text)
        return json.loads(text)

    def until(self, kind: str) -> dict[str, Any]:
        """Receive until a message of type ``kind``; return it."""
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    def drain(self) -> list[dict[str, Any]]:
        """Everything the server queued for this connection so far (a ping barrier)."""
        self._ping += 1
        self.send({"type": "ping", "id": f"b{self._ping}"})
        out = []
        while True:
            message = self.recv()
            if message["type"] == "pong" and message["id"] == f"b{self._ping}":
                self.frames.pop()
                return out
            out.append(message)

    def last_state(self) -> dict[str, Any] | None:
        states = [json.loads(f) for f in self.frames if json.loads(f)["type"] == "state"]
        return states[-1] if states else None

    def history(self) -> list[dict[str, Any]]:
        """The talk messages of the last ``history`` frame received."""
        frames = [json.loads(f) for f in self.frames]
        return [m for m in frames if m["type"] == "history"][-1]["messages"]

    def close(self) -> None:
        if self in WS.open:
            WS.open.remove(self)
            try:
                self._cm.__exit__(None, None, None)
            except Exception:  # closed by the server already
                pass

    @classmethod
    def close_all(cls) -> None:
        for ws in list(cls.open):
            ws.close()


def make_table(client: TestClient, game: str, seats: list[dict[str, Any]] | None = None,
               **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "seats": seats or [], **body})
    assert response.status_code == 201, response.text
    return response.json()


def join(client: TestClient, table_id: str, name: str, seat: int | None = None) -> dict:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
    assert response.status_code == 200, response.text
    return response.json()


#: The limits of the tests' apps: the defaults but a shorter decision timer (1 s), so a timer
#: test waits seconds, not minutes. A test of the limits themselves passes its own.
TEST_LIMITS = {"min_timer_seconds": 1.0}


@contextlib.contextmanager
def serving(url: str, **options: Any) -> Iterator[TestClient]:
    """A TestClient on a new app over the database ``url`` (with :data:`TEST_LIMITS` unless
    ``limits`` is given), once every stored table is rebuilt; every test connection is closed
    on the way out (an open one would keep the app from shutting down)."""
    options.setdefault("limits", TEST_LIMITS)
    with TestClient(create_app(url, **options)) as c:
        try:
            wait_ready(c)
            yield c
        finally:
            WS.close_all()


def wait_ready(client: TestClient, seconds: float = 60) -> None:
    """Wait until the app has rebuilt every stored table (``GET /api/health``)."""
    deadline = time.monotonic() + seconds
    while not client.get("/api/health").json()["ready"]:
        assert time.monotonic() < deadline, "the server did not rebuild its tables in time"
        time.sleep(0.02)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url) as c:
        yield c


# The browser tests' fixtures (browser_kit.py imports test_crash, which imports free_port from
# here: so this comes last).
from tests.server.browser_kit import browser, server  # noqa: E402, F401
