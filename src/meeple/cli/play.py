"""``meeple play``: one seat in the terminal against bots."""

from __future__ import annotations

import secrets
import select
import sys
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import (
    GameArg,
    ParamOpt,
    PlayersOpt,
    VariantOpt,
    check_bots,
    console,
    fail,
    load,
    make_dir,
)
from meeple.engine.errors import MeepleError, ParameterError


def play(
    game_name: GameArg,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 = first)")] = 0,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="bots for the other seats, comma-separated, cycled")] = "heuristic",
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="seed (non-negative integer) for a fixed game; default: a fresh "
        "random seed, printed at the start")] = None,
    param: ParamOpt = None,
    record: Annotated[Path | None, typer.Option(
        "--record", help="save the game's record to this JSON file")] = None,
    timer: Annotated[bool, typer.Option(
        "--timer/--no-timer",
        help="time each of your decisions by the game's timer_seconds parameter")] = False,
):
    """Play one seat in the terminal against bots (you see only your seat's view). At the
    prompt: an action in the game's notation or its number from 'list'; 'help' or '?' (the
    legal moves and what this decision is); 'say TEXT' (where talk is on); 'quit' (exit
    status 0). Every run deals a new game unless --seed is given; the seed is printed first and
    stored in --record's file."""
    from meeple.terminal import TerminalSession

    if seed is None:
        seed = fresh_seed()
    elif seed < 0:
        raise fail(f"--seed {seed} must be a non-negative integer")
    try:
        game = load(game_name, variant, players, param)
        bot_list = check_bots(bots, game)
        if record is not None:
            make_dir(record.parent, "--record's folder")
        seconds = None
        if timer:
            if "timer_seconds" not in game.params:
                raise ParameterError(f"{game.name} has no timer_seconds parameter")
            seconds = float(game.params["timer_seconds"]) or None
        console.print(f"seed {seed}: replay with --seed {seed}")
        session = TerminalSession(game, seat, bot_list, seed, console,
                                  read_line=_read_line, timer=seconds)
        _, rec, finished = session.run()
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if record is not None:
        try:
            rec.save(record)
        except OSError as exc:
            raise fail(f"cannot save the record to {record}: {exc.strerror or exc}") from None
        console.print(f"record saved to {record} (replay: meeple replay {record})")
    if session.interrupted:  # Ctrl-C: the shell's usual status for SIGINT
        raise typer.Exit(code=130)
    if not finished and not session.quit:  # 'quit' is a normal end; lost input is not
        raise typer.Exit(code=1)


def fresh_seed() -> int:
    """A new game seed for a person's game (from the OS's randomness, ``secrets``): an integer
    in 0..999,999,999, short enough to retype with ``--seed``. A lab command keeps its fixed
    default seed instead: its runs are experiments to repeat."""
    return secrets.randbelow(1_000_000_000)


def _read_line(prompt: str, timeout: float | None = None) -> str:
    interactive = sys.stdin.isatty()
    if interactive:
        import readline  # noqa: F401  (line editing and history for input())
    console.print(prompt, end="")
    if timeout is not None:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)  # POSIX terminals and pipes
        if not ready:
            console.print()
            raise TimeoutError
    if interactive:
        return input()
    line = sys.stdin.readline()
    if not line:
        console.print()
        raise EOFError
    if not sys.stdin.isatty():
        console.print(line.rstrip("\n"))
    return line
