"""What a first-day player hits at ``meeple play`` (a real ``meeple`` process, its stdin a
pipe): a fresh deal every run with its seed printed and recorded, help examples legal for
the seat, refusals that name the real reason in players' words, suggestions from the kinds
legal now, ``say`` advertised only where talk is on, and Ctrl-C leaving cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

from meeple.engine.record import Record

ENV = {**os.environ, "COLUMNS": "200"}


def play(*args: str, input: str = "quit\n", timeout: float = 120) -> subprocess.CompletedProcess:
    """``meeple play ARGS`` in its own process, ``input`` on its stdin."""
    return subprocess.run([sys.executable, "-m", "meeple.cli", "play", *args], input=input,
                          capture_output=True, text=True, timeout=timeout, env=ENV)


def hand(out: str) -> list[str]:
    """The codex ids of the first 'your hand:' block of a Damocles screen."""
    block = out.split("your hand:", 1)[1]
    return re.findall(r"^\s{4}([A-Z]{3}-\d\d) ", block.split("Seat 0 (", 1)[0], re.M)


# ------------------------------------------------------------------ 1. a fresh deal
def test_play_deals_a_fresh_game_each_run_prints_its_seed_and_records_it(tmp_path) -> None:
    seeds, hands = [], []
    for k in range(2):
        path = tmp_path / f"game{k}.json"
        proc = play("damocles", "--seat", "0", "--record", str(path))
        assert proc.returncode == 0, proc.stderr
        found = re.search(r"^seed (\d+): replay with --seed (\d+)$", proc.stdout, re.M)
        assert found and found.group(1) == found.group(2), proc.stdout[:500]
        seeds.append(int(found.group(1)))
        hands.append(hand(proc.stdout))
        assert Record.load(path).seed == seeds[-1]  # --record keeps the seed used
    assert seeds[0] != seeds[1]  # two draws of 10^9 seeds
    # --seed N plays that very game again
    again = play("damocles", "--seat", "0", "--seed", str(seeds[0]))
    assert f"seed {seeds[0]}: replay with --seed {seeds[0]}" in again.stdout
    assert hand(again.stdout) == hands[0] and len(hands[0]) == 8


def test_a_fixed_seed_deals_the_same_game_and_a_negative_one_is_refused(tmp_path) -> None:
    first, second = (play("damocles", "--seat", "0", "--seed", "7") for _ in range(2))
    assert hand(first.stdout) == hand(second.stdout)
    assert "seed 7: replay with --seed 7" in first.stdout
    refused = play("damocles", "--seed", "-3")
    assert refused.returncode == 2 and "--seed -3 must be a non-negative integer" in (
        refused.stderr)


# ------------------------------------------------------------------------ 7. Ctrl-C
def test_ctrl_c_at_the_prompt_ends_the_line_says_so_and_exits_130(tmp_path) -> None:
    path = tmp_path / "left.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "play", "battle-of-the-four-gods", "--seat", "0",
         "--record", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while not seen.endswith(b"> ") and time.monotonic() < deadline:
            seen += os.read(proc.stdout.fileno(), 4096)  # the prompt has no newline
        assert seen.endswith(b"> "), seen[-300:]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    out = (seen + out).decode()
    assert proc.returncode == 130, (out[-500:], err)
    # the prompt's line is ended before the farewell, so the shell's prompt starts a line
    assert re.search(r"> \nleft the game \(Ctrl-C\)\n", out), out[-300:]
    assert b"Traceback" not in err
    record = Record.load(path)  # the game so far is still saved: the bots' round-1 plans
    assert [list(step) for step in record.steps] == [["1"], ["2"], ["3"]]
