"""``meeple replay``: replay a record from its seed and check it reaches the recorded end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import console, fail
from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.record import Record, replay


def replay_command(
    file: Annotated[Path, typer.Argument(
        help="a record (.json), a records file (.jsonl) or a playtest's --out directory")],
    index: Annotated[int, typer.Option(
        "--index", "-i", help="which line of a .jsonl records file, or which game (its "
        "index) of a playtest directory")] = 0,
    show: Annotated[bool, typer.Option("--show", help="print the spectator view at the end")]
    = False,
    at: Annotated[int | None, typer.Option(
        "--at", help="with --save: the position after this many steps (0 = the start)")] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="write the position (--at, else the end) as a state JSON file that "
        "`meeple playtest GAME --from` and Game.state_from_json read")] = None,
):
    """Replay a record from its seed and check it reaches the recorded final state."""
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
    except (MeepleError, json.JSONDecodeError) as exc:
        raise fail(str(exc)) from None
    game = state.game
    if show and game.text_renderer() is not None:
        console.print(game.text_renderer()(game, state.view(None)))
    names = game.seat_names()
    winners = ", ".join(names[s] for s in state.winners()) or "none"
    verified = "matches the recorded final state" if rec.result else "no recorded result to check"
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
    partial = Record(rec.game, rec.variant, rec.players, rec.params, rec.seed, rec.steps[:at])
    state = replay(partial, verify=False)
    path.write_text(json.dumps(state.to_json(), indent=1) + "\n")
    console.print(f"saved the position after step {at} of {steps} to {path}")
