"""``meeple replay``: replay a record from its seed and check it reaches the recorded end;
``--show`` steps through it (next, back, jump N) showing the board and each action."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.cli.common import console, fail
from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.record import Record, initial_state, replay
from meeple.engine.state import State


def replay_command(
    file: Annotated[Path, typer.Argument(
        help="a record (.json), a records file (.jsonl) or a playtest's --out directory")],
    index: Annotated[int, typer.Option(
        "--index", "-i", help="which line of a .jsonl records file, or which game (its "
        "index) of a playtest directory")] = 0,
    at: Annotated[int | None, typer.Option(
        "--at", help="with --save: the position after this many steps (0 = the start)")] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="write the position (--at, else the end) as a state JSON file that "
        "`meeple playtest GAME --from` and Game.state_from_json read")] = None,
    show: Annotated[bool, typer.Option(
        "--show", help="step through the record: the board and each action; commands from "
        "stdin: next (or Enter), back, jump N, quit")] = False,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="with --show: draw that seat's view (default: the spectator's)")] = None,
):
    """Replay a record from its seed and check it reaches the recorded final state; --show
    steps through it."""
    try:
        if not file.exists():
            raise ParameterError(f"no such file: {file}")
        if file.is_dir():
            from meeple.lab.store import RunStore

            rec = RunStore.open(file).record(index)
        elif file.suffix == ".jsonl":
            lines = file.read_text().splitlines()
            if not 0 <= index < len(lines):
                raise ParameterError(f"--index {index} out of range 0..{len(lines) - 1}")
            rec = Record.from_json(json.loads(lines[index]))
        else:
            rec = Record.load(file)
        state = replay(rec)
        if save is not None:
            _save_position(rec, at, save)
        if seat is not None and not 0 <= seat < state.game.players:
            raise ParameterError(f"--seat {seat} is not a seat of this game "
                                 f"(0..{state.game.players - 1})")
    except (MeepleError, json.JSONDecodeError) as exc:
        raise fail(str(exc)) from None
    game = state.game
    if show:
        _step_through(rec, state, seat)
    names = game.seat_names()
    winners = ", ".join(names[s] for s in state.winners()) or "none"
    verified = "matches the recorded final state" if rec.result else "no recorded result to check"
    if rec.start is not None:
        verified += f"; from the position {rec.start.get('file', '')}".rstrip()
    console.print(f"replayed {len(rec.steps)} steps of {game.name} ({game.variant}), seed "
                  f"{rec.seed}: {state.length()} {game.capabilities.length_unit}, winners: "
                  f"{winners}; {verified} (digest {state.digest()[:16]})")


def _save_position(rec: Record, at: int | None, path: Path) -> None:
    """Write the state after step ``at`` of ``rec`` (None: the last) to ``path`` as
    ``State.to_json`` output, and say so.

    Raises:
        ParameterError: ``at`` outside ``0..len(rec.steps)``.
    """
    steps = len(rec.steps)
    at = steps if at is None else at
    if not 0 <= at <= steps:
        raise ParameterError(f"--at {at} is outside 0..{steps} (the record's steps)")
    partial = Record(rec.game, rec.variant, rec.players, rec.params, rec.seed, rec.steps[:at],
                     start=rec.start)
    state = replay(partial, verify=False)
    path.write_text(json.dumps(state.to_json(), indent=1) + "\n")
    console.print(f"saved the position after step {at} of {steps} to {path}")


STEPPER_HELP = ("commands: next (n, or Enter), back (b), jump N (j N; 0 = the start), "
                "quit (q)")


def _positions(rec: Record, final: State) -> list[State]:
    """The state before any step and after each step of ``rec`` (already checked by
    ``replay``, so every step applies)."""
    game = final.game
    state = initial_state(game, rec)  # the deal, or a --from game's start position
    states = [state.clone()]
    for step in rec.steps:
        joint = {int(s): game.parse_action(text, int(s)) for s, text in step.items()}
        if len(joint) == 1:
            ((who, action),) = joint.items()
            state.apply_action(action, who)
        else:
            state.apply_actions(joint)
        states.append(state.clone())
    return states


def _describe(rec: Record, names: Any, at: int, seat: int | None) -> str:
    """What step ``at`` (1-based) did; with a seat's view, other seats' actions are not named
    (they may be secret) and the view's events tell what became public."""
    if at == 0:
        return "the start, before any action"
    parts = []
    for who, text in rec.steps[at - 1].items():
        s = int(who)
        parts.append(f"{names[s]}: {text}" if seat is None or s == seat else f"{names[s]} acts")
    return "; ".join(parts)


def _step_through(rec: Record, final: State, seat: int | None) -> None:
    """``--show``: read commands from stdin (a terminal or a pipe) and draw the board at each
    position asked for, with the action that led there, until ``quit`` or the end of input."""
    game = final.game
    states = _positions(rec, final)
    last = len(states) - 1
    render = game.text_renderer()
    names = game.seat_names()
    at = 0
    console.print(f"{game.title}: {last} steps. {STEPPER_HELP}")
    while True:
        view = states[at].view(seat)
        console.print(render(game, view) if render is not None else escape(str(view)))
        console.print(f"[bold]step {at} of {last}[/]: {escape(_describe(rec, names, at, seat))}")
        while True:
            console.print("replay> ", end="")
            line = sys.stdin.readline()
            if not line:
                console.print()
                return
            if not sys.stdin.isatty():
                console.print(line.rstrip("\n"))
            words = line.split()
            word = words[0].lower() if words else "next"
            if word in ("q", "quit", "exit"):
                return
            if word in ("n", "next"):
                if at == last:
                    console.print("at the last step; 'back', 'jump N' or 'quit'")
                    continue
                at += 1
            elif word in ("b", "back"):
                if at == 0:
                    console.print("at the start; 'next', 'jump N' or 'quit'")
                    continue
                at -= 1
            elif word in ("j", "jump", "goto") and len(words) == 2 and words[1].isdigit() \
                    and int(words[1]) <= last:
                at = int(words[1])
            else:
                console.print(f"[red]cannot read {escape(line.strip())!r}[/]; {STEPPER_HELP} "
                              f"(N in 0..{last})")
                continue
            break
