"""Server load, loopback only, bounded in time (issue 19; first cut).

Two measurements:

1. ``one table``: actions/s through one Four Gods table in process (default rules, games back
   to back): ``Table.act`` with the real database (SQLite file, or ``--db``), four listening
   seats and a spectator, random legal moves; the whole path of an action (parse, apply,
   commit, views, broadcast) without sockets.
2. ``tables``: a real ``meeple serve`` process and N Four Gods tables of four websocket clients
   each playing random legal moves as soon as they may; actions/s and the latency from sending
   an action to receiving its ``accepted`` (committed and broadcast), p50/p99, per N.

    python benchmarks/bench_server.py --tables 1,10,50 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]

from meeple.server import protocol as p  # noqa: E402
from meeple.server.db import Store, make_engine  # noqa: E402
from meeple.server.manager import TableManager  # noqa: E402

GAME = "battle-of-the-four-gods"
#: Games that do not end within a run (random play would end a 100-energy game in ~25 rounds).
LONG = {"start_energy": 100_000, "max_rounds": 100_000}


class Sink:
    def __init__(self, seat: int | None) -> None:
        self.seat, self.last_key, self.frames = seat, None, 0

    def send(self, text: str) -> None:
        self.frames += 1


async def one_table(db_url: str, seconds: float) -> dict:
    """Four Gods games of the default rules back to back through one table at a time."""
    manager = TableManager(Store(make_engine(db_url)))
    rng = random.Random(1)
    done, games, frames, start = 0, 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        table = await manager.create(p.CreateTable(game=GAME))
        for name in "abcd":
            await table.join(name, None)
        sinks = [Sink(s) for s in (0, 1, 2, 3, None)]
        for sink in sinks:
            table.attach(sink)
        while table.status == "running":
            seat = table.state.current_players()[0]
            await table.act(seat, str(rng.choice(table.state.legal_actions(seat))))
            done += 1
        games += 1
        frames += sum(s.frames for s in sinks)
    elapsed = time.perf_counter() - start
    await manager.stop()
    return {"games": games, "actions": done, "seconds": round(elapsed, 2),
            "actions_per_s": round(done / elapsed), "frames_sent": frames}


async def client(port: int, table_id: str, token: str, stop: float, lat: list[float],
                 rng: random.Random) -> int:
    import websockets

    done = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        legal: list[str] = []
        sent_at = None
        while time.perf_counter() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), stop - time.perf_counter()))
            except (TimeoutError, ValueError):
                break
            if message["type"] == "state":
                legal = message["legal"]
            elif message["type"] == "accepted":
                lat.append(time.perf_counter() - sent_at)
                sent_at = None
                done += 1
            elif message["type"] == "error":
                sent_at = None
                await asyncio.sleep(0.05)
            if legal and sent_at is None:
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))
                legal = []
    return done


async def tables_run(port: int, n: int, seconds: float) -> dict:
    import httpx

    base = f"http://127.0.0.1:{port}/api/tables"
    seats = []
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(n):
            t = (await http.post(base, json={"game": GAME,
                                             "params": LONG})).json()
            for name in "abcd":
                joined = (await http.post(f"{base}/{t['id']}/join", json={"name": name})).json()
                seats.append((t["id"], joined["token"]))
    lat: list[float] = []
    rng = random.Random(n)
    start = time.perf_counter()
    stop = start + seconds
    counts = await asyncio.gather(*(client(port, t, tok, stop, lat, rng) for t, tok in seats))
    elapsed = time.perf_counter() - start
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) > 100 else [float("nan")] * 99
    return {"tables": n, "seats": len(seats), "actions": sum(counts),
            "actions_per_s": round(sum(counts) / elapsed),
            "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,10,50")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    db_url = args.db or f"sqlite:///{tmp / 'bench.db'}"
    print("one table, in process:", asyncio.run(one_table(db_url, args.seconds)), flush=True)
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen([sys.executable, "-m", "meeple.cli", "serve", "--port",
                               str(port), "--db", db_url], env=env, cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import httpx

        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        for n in [int(x) for x in args.tables.split(",")]:
            print(asyncio.run(tables_run(port, n, args.seconds)), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
