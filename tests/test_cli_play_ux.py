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
from pathlib import Path

from meeple.engine.record import Record

ROOT = Path(__file__).resolve().parents[1]
#: this checkout's code first (as the server tests' subprocesses), a wide terminal
ENV = {**os.environ, "COLUMNS": "200", "PYTHONPATH": os.pathsep.join(
    [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}


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
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
        # a shell's background job starts with SIGINT ignored, and Python keeps an ignored
        # SIGINT: the game gets the default disposition, as in a terminal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while not seen.endswith(b"> ") and time.monotonic() < deadline:
            seen += os.read(proc.stdout.fileno(), 4096)  # the prompt has no newline
        assert seen.endswith(b"> "), seen[-300:]
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)  # stdin stays open: an EOF must not race the signal
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
    out = (seen + out).decode()
    assert proc.returncode == 130, (out[-500:], err)
    # the prompt's line is ended before the farewell, so the shell's prompt starts a line
    assert re.search(r"> \nleft the game \(Ctrl-C\)\n", out), out[-300:]
    assert b"Traceback" not in err
    record = Record.load(path)  # the game so far is still saved: the bots' round-1 plans
    assert [list(step) for step in record.steps] == [["1"], ["2"], ["3"]]


# ------------------------------------------------------- 2. Four Gods help examples
FOUR_GODS = "battle-of-the-four-gods"


def test_four_gods_help_examples_are_legal_for_every_seat() -> None:
    """``help`` at every seat of 4: each quoted example is one of that seat's legal
    selections (RED was told 'def:R', its own colour)."""
    from meeple import load_game

    game = load_game(FOUR_GODS)
    state = game.new_initial_state(1)
    for seat in range(4):
        proc = play(FOUR_GODS, "--seat", str(seat), "--seed", "1", input="help\nquit\n")
        about = re.search(r"^this decision: (.*)$", proc.stdout, re.M).group(1)
        quoted = [q for q in re.findall(r"'(\w+:[^']+)'", about)]
        assert len(quoted) == 3, about
        legal = set(state.legal_actions(seat))
        for text in quoted:
            assert game.parse_action(text, seat) in legal, (seat, text, about)
        mine = game.seat_names()[seat][0]
        assert not re.search(rf"(atk|def):[A-Z]*{mine}", about), (seat, about)


def test_four_gods_examples_stay_legal_as_seats_fall_and_energy_runs_low() -> None:
    """Every planning decision of random games at 2-4 seats with little energy: the examples
    are legal selections of the seat whenever it has one of that kind."""
    import random

    from meeple import load_game
    from meeple.games.battle_of_the_four_gods.decisions import examples

    checked = 0
    for players in (2, 3, 4):
        game = load_game(FOUR_GODS, players=players, start_energy=4)
        for seed in range(6):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            while not state.is_terminal():
                moves = {}
                for seat in state.current_players():
                    legal = state.legal_actions(seat)
                    shown = examples(state, seat)
                    kinds = {"attack": lambda a: a.attacks and not a.defends,
                             "defend": lambda a: a.defends and not a.attacks,
                             "both": lambda a: a.size}
                    for name, text in shown.items():
                        if any(kinds[name](a) for a in legal):
                            assert game.parse_action(text, seat) in legal, (seat, name, text)
                            checked += 1
                    moves[seat] = rng.choice(legal)
                state.apply_actions(moves)
    assert checked > 100


# ------------------------------------------------------------- 3. Damocles at the prompt
def test_damocles_header_help_and_nonsense_offer_only_what_is_on_now() -> None:
    """Talk is off in Damocles: the header and help do not advertise 'say'; nonsense during
    the setup discard suggests the discard only (it listed swap, pair, keep...)."""
    proc = play("damocles", "--seat", "0", "--seed", "3", input="banana\nhelp\nsay hi\nquit\n")
    out = proc.stdout
    assert "Other commands: list | help (or ?) | quit" in out
    assert "Damocles - setup discard, cycle 1 of 10" in out  # the step in players' words
    assert "say TEXT" not in out and "say -rg" not in out
    assert "table talk is off in this game" in out  # 'say' itself is still answered
    line = next(x for x in out.splitlines() if x.startswith("cannot read 'banana'"))
    assert "moves now: discard (e.g. 'discard " in line
    for kind in ("swap", "pair", "keep", "haste", "destroy", "end"):
        assert kind not in line, line
    # where talk is on, both forms are advertised
    talk = play(FOUR_GODS, "--seat", "0", "--param", "talk=private")
    assert "say TEXT | say -rg TEXT (private, to seats by initial) | quit" in talk.stdout


def test_damocles_swap_of_two_equal_gods_is_refused_for_that_reason(tmp_path) -> None:
    """Played to the person's first turn (always move 0), a swap of two slots holding the same
    god is refused as changing nothing (DAM-11), in players' words."""
    from meeple import load_game

    path = tmp_path / "first.json"
    args = ("damocles", "--seat", "0", "--players", "3", "--bots", "heuristic", "--seed", "21")
    play(*args, "--record", str(path), input="0\n" * 12 + "quit\n")
    record = Record.load(path)
    game = load_game("damocles", players=3)
    state, answered = game.new_initial_state(21), 0
    for step in record.steps:
        if 0 in state.current_players() and state.phase == "turn":
            break
        ((seat, text),) = step.items()
        answered += seat == "0"
        state.apply_action(game.parse_action(text, int(seat)), int(seat))
    assert state.step == "pre" and 0 in state.current_players()
    circle = state.circle  # seven slots, five gods: two slots share a god
    a, b = next((i, j) for i in range(7) for j in range(i + 1, 7) if circle[i] == circle[j])
    out = play(*args, input="0\n" * answered + f"swap {a + 1} {b + 1}\nquit\n").stdout
    god = ("HADES", "POSEIDON", "ARTEMIS", "DEMETER", "NYX")[circle[a]]
    assert (f"cannot play swap {a + 1} {b + 1}: slots {a + 1} and {b + 1} both hold {god}: "
            "swapping two equal gods changes nothing;") in out, out[-1500:]
    assert "(DAM-11)" in out and "codex must be yours" not in out and "pre decision" not in out
