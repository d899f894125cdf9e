"""Process-pool workers exit when their parent dies, even by ``kill -9`` (issue 18, section 3),
and the next ``--resume`` records that the killed session ended without finishing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple.lab.run.backends import exit_with_parent

ROOT = Path(__file__).resolve().parents[2]
GAME = "battle-of-the-four-gods"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the process table from /proc")


def _children(pid: int) -> set[int]:
    """Live (not zombie) processes whose parent is ``pid``, from /proc."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def _playtest(out: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "playtest", GAME, "--games", "400000",
         "--jobs", "2", "--out", str(out), "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def _kill_with_workers(proc: subprocess.Popen, out: Path) -> set[int]:
    """Wait until ``proc`` has two workers and a stored part, kill -9 it; its workers."""
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 or not list((out / "records").glob("part-*.parquet")):
        assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
        time.sleep(0.1)
        workers = _children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    return workers


def test_workers_exit_when_the_playtest_is_killed(tmp_path):
    proc = _playtest(tmp_path / "run")
    workers: set[int] = set()
    try:
        workers = _kill_with_workers(proc, tmp_path / "run")
        deadline = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)], "workers outlived their parent"
    finally:
        proc.kill()
        for w in workers:  # never leave a stray worker behind, even when the test fails
            if _alive(w):
                os.kill(w, signal.SIGKILL)


def test_watchdog_fallback_exits_when_the_parent_changes():
    # A child whose parent exits: the grandchild runs the watchdog with its real parent's pid
    # and must be gone soon after that parent is.
    code = (
        "import os, sys, time\n"
        "from meeple.lab.run import backends\n"
        "backends.sys.platform = 'other'\n"  # force the portable fallback
        "r, w = os.pipe()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    assert backends.exit_with_parent(os.getppid()) == 'watchdog'\n"
        "    os.write(w, b'ready'); time.sleep(30); os._exit(0)\n"
        "os.read(r, 5); print(pid, flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=30)
    grandchild = int(done.stdout.split()[0])
    try:
        deadline = time.monotonic() + 5
        while _alive(grandchild) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(grandchild), "the watchdog did not exit with its parent"
    finally:
        if _alive(grandchild):
            os.kill(grandchild, signal.SIGKILL)


def test_exit_with_parent_uses_pdeathsig_on_linux():
    if not sys.platform.startswith("linux"):
        pytest.skip("prctl is Linux's")
    code = ("import os\nfrom meeple.lab.run.backends import exit_with_parent\n"
            "print(exit_with_parent(os.getppid()))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=30)
    assert done.stdout.strip() == "pdeathsig", done.stderr
    assert callable(exit_with_parent)


def test_a_resumed_run_records_the_killed_session(tmp_path):
    out = tmp_path / "run"
    proc = _playtest(out)
    workers: set[int] = set()
    try:
        workers = _kill_with_workers(proc, out)
    finally:
        proc.kill()
    run = json.loads((out / "run.json").read_text())
    assert [s["status"] for s in run["sessions"]] == ["running"]
    assert run["sessions"][0]["finished"] is None
    from meeple.lab.run.store import RunStore

    store = RunStore.resume(out, RunStore.open(out).config)
    kept = store.count()
    session = store.run["sessions"][0]
    assert session["status"] == "killed" and session["finished"] is None
    assert session["games_played"] == kept > 0
    assert "without finishing" in session["note"]
    saved = json.loads((out / "run.json").read_text())["sessions"][0]
    assert saved["status"] == "killed"
    for w in workers:
        if _alive(w):
            os.kill(w, signal.SIGKILL)
