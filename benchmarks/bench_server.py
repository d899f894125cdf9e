"""Server load, loopback only, bounded in time (issue 19).

Two measurements:

1. ``one table``: actions/s through one table in process (default rules, games back to back):
   ``Table.act`` with the real database (SQLite file, or ``--db``), every seat and a spectator
   listening, random legal moves; the whole path of an action (parse, apply, commit, views,
   broadcast) without sockets.
2. ``tables``: a real ``meeple serve`` process, and in this process N table slots: each creates
   a table, seats a person per seat and a spectator (websocket clients), plays it to the end
   and starts the next. A seat acts on each decision after a think time drawn uniformly from 0
   to twice ``--think`` seconds (``--think 0``: as fast as the server lets it), a random legal
   action. Reported per N: connections, actions/s, games finished, and the latency from sending
   ``act`` to receiving its ``accepted`` (committed, and every seat's ``state`` queued):
   p50, p99 and max, over actions sent after the first ``--warmup`` seconds (the slots' first
   tables are being created and joined then).

The server and the clients run in separate processes (one core each on a 2-core machine).

    python benchmarks/bench_server.py --tables 10,50,100,200 --seconds 30 --think 2
    python benchmarks/bench_server.py --game damocles --players 5 --spectators 0 --tables 200
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]

from meeple.server import protocol as p  # noqa: E402
from meeple.server.app import tune_collector  # noqa: E402
from meeple.server.db import Store, make_engine  # noqa: E402
from meeple.server.manager import TableManager  # noqa: E402

GAME = "battle-of-the-four-gods"


class Sink:
    def __init__(self, seat: int | None) -> None:
        self.seat, self.last_key, self.frames = seat, None, 0

    def send(self, text: str) -> None:
        self.frames += 1


async def one_table(db_url: str, seconds: float, game: str = GAME,
                    players: int | None = None) -> dict:
    """Games of the default rules back to back through one table at a time."""
    manager = TableManager(Store(make_engine(db_url)))
    rng = random.Random(1)
    done, games, frames, start = 0, 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        table = await manager.create(p.CreateTable(game=game, players=players))
        for i in range(table.game.players):
            await table.join(f"p{i}", None)
        sinks = [Sink(s) for s in [*range(table.game.players), None]]
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


async def seat_client(port: int, table_id: str, token: str | None, stop: float, think: float,
                      lat: list[tuple[float, float]], rng: random.Random) -> int:
    """One connection until its game ends or ``stop``: a seat (``token``) acts after a think
    time drawn uniformly from 0..2*``think`` seconds each time it has legal actions; a spectator
    (``token`` None) only listens. Returns the actions it had accepted."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                                  compression=None, max_queue=None) as ws:
        OPEN["now"] += 1
        OPEN["peak"] = max(OPEN["peak"], OPEN["now"])
        try:
            return await _play(ws, token, stop, think, lat, rng)
        finally:
            OPEN["now"] -= 1


#: Websocket connections open now, and the most at once in this run.
OPEN = {"now": 0, "peak": 0}


async def _play(ws: Any, token: str | None, stop: float, think: float,
                lat: list[tuple[float, float]], rng: random.Random) -> int:
    import websockets

    done, sent_at = 0, 0.0
    legal: list[str] = []
    pending: asyncio.Task | None = None

    async def send_later(action: str, delay: float) -> None:
        nonlocal sent_at
        await asyncio.sleep(delay)
        sent_at = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "action": action}))

    def decide() -> asyncio.Task | None:
        if token is None or not legal:
            return None
        delay = rng.uniform(0, 2 * think) if think else 0.0
        return asyncio.create_task(send_later(rng.choice(legal), delay))

    await ws.send(json.dumps({"type": "hello", "token": token}))
    while (left := stop - time.perf_counter()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except (TimeoutError, websockets.ConnectionClosed):
            break
        kind = message["type"]
        if kind == "state":
            if message["status"] != "running":
                break
            legal = message["legal"]
            if pending is None:
                pending = decide()
        elif kind in ("accepted", "error"):
            if kind == "accepted":
                lat.append((sent_at, time.perf_counter() - sent_at))
                done += 1
            pending = decide()
    if pending is not None:
        pending.cancel()
    return done


async def table_slot(http: Any, port: int, args: argparse.Namespace, stop: float,
                     lat: list[tuple[float, float]], rng: random.Random,
                     games: list[int]) -> int:
    """One table after another until ``stop``: create it, seat people, play it to the end with
    a spectator watching. Returns the actions accepted."""
    base = f"http://127.0.0.1:{port}/api/tables"
    done = 0
    while time.perf_counter() < stop:
        body = {"game": args.game, **({"players": args.players} if args.players else {})}
        table = (await http.post(base, json=body)).json()
        tokens = []
        for i in range(table["players"]):
            joined = (await http.post(f"{base}/{table['id']}/join", json={"name": f"p{i}"}))
            tokens.append(joined.json()["token"])
        clients = [seat_client(port, table["id"], tok, stop, args.think, lat, rng)
                   for tok in tokens + [None] * args.spectators]
        done += sum(await asyncio.gather(*clients))
        games[0] += time.perf_counter() < stop
    return done


async def tables_run(port: int, n: int, args: argparse.Namespace) -> dict:
    """``n`` table slots for ``args.seconds`` seconds (after a warm-up in which they connect)."""
    import httpx

    lat: list[tuple[float, float]] = []
    OPEN["peak"] = 0
    rng = random.Random(n)
    games = [0]
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        start = time.perf_counter()
        stop = start + args.warmup + args.seconds
        await asyncio.gather(*(table_slot(http, port, args, stop, lat, rng, games)
                               for _ in range(n)))
    measured = sorted(d for t, d in lat if t >= start + args.warmup)
    q = (statistics.quantiles(measured, n=100) if len(measured) > 100
         else [float("nan")] * 99)
    return {"tables": n, "connections": OPEN["peak"], "actions": len(measured),
            "games_finished": games[0],
            "actions_per_s": round(len(measured) / args.seconds),
            "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
            "max_ms": round(measured[-1] * 1000, 1) if measured else None}


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve(db_url: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    """A real ``meeple serve`` on a free loopback port, ready to answer."""
    import socket

    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    # every table slot is this one address: lift the per-address limits on creating tables
    # (docs/server.md, "Security model") for the load test
    limits = ["create_rate=1000000", "create_burst=1000000", "open_per_client=1000000",
              "open_tables=1000000", "live_tables=1000000"]
    server = subprocess.Popen([sys.executable, "-m", "meeple.cli", "serve", "--port",
                               str(port), "--db", db_url,
                               *[arg for limit in limits for arg in ("--limit", limit)]],
                              env=env, cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return server, port
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("meeple serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--spectators", type=int, default=1, help="per table")
    parser.add_argument("--tables", default="1,10,50")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean think time per decision, seconds (0: as fast as allowed)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured, per point")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite "
                        "file per point)")
    parser.add_argument("--skip-in-process", action="store_true")
    parser.add_argument("--port", type=int, default=None,
                        help="load a server already running on this loopback port instead "
                        "of starting one per point")
    args = parser.parse_args()
    # The clients are the measuring instrument: their own full garbage collections (1,000
    # websockets of objects) would show up as the server's latency. Tuned as the server is.
    tune_collector()
    tmp = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    if not args.skip_in_process:
        db_url = args.db or f"sqlite:///{tmp / 'one.db'}"
        print("one table, in process:", asyncio.run(one_table(db_url, args.seconds, args.game,
                                                              args.players)), flush=True)
    print(f"{args.game}, think {args.think} s, {args.spectators} spectator(s) per table")
    for n in [int(x) for x in args.tables.split(",")]:
        if args.port:
            own = time.process_time()
            result = asyncio.run(tables_run(args.port, n, args))
            print({**result, "clients_cpu": round((time.process_time() - own)
                                                  / (args.seconds + args.warmup), 2)})
            continue
        server, port = serve(args.db or f"sqlite:///{tmp / f'tables-{n}.db'}", tmp)
        try:
            cpu, own = cpu_seconds(server.pid), time.process_time()
            result = asyncio.run(tables_run(port, n, args))
            span = args.seconds + args.warmup
            print({**result, "server_cpu": round((cpu_seconds(server.pid) - cpu) / span, 2),
                   "clients_cpu": round((time.process_time() - own) / span, 2)}, flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
