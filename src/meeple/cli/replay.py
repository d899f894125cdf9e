"""``meeple replay``: replay a record from its seed and check it reaches the recorded end;
``--show`` steps through it (next, back, jump N) showing the board and each action; ``--web``
serves it to a browser (the server's replay page, docs/server.md#replays)."""

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
    web: Annotated[bool, typer.Option(
        "--web", help="serve the replay to a browser on a loopback port (step through it from "
        "any seat's perspective, with the talk); Ctrl+C stops")] = False,
    port: Annotated[int, typer.Option(
        "--port", help="with --web: the port (0: any free one)")] = 0,
    open_browser: Annotated[bool, typer.Option(
        "--open", help="with --web: also open the page in the default browser")] = False,
):
    """Replay a record from its seed and check it reaches the recorded final state; --show
    steps through it; --web shows it in a browser."""
    if web and (show or save is not None or at is not None):
        raise fail("--web cannot be combined with --show, --save or --at: the browser page "
                   "steps through the record itself")
    if not web and (open_browser or port):
        raise fail("--open and --port go with --web")
    if not 0 <= port <= 65535:
        raise fail(f"--port {port} must be 0..65535")
    try:
        if not file.exists():
            raise ParameterError(f"no such file: {file}")
        rec = load_record(file, index)
        state = replay(rec)
        if save is not None:
            _save_position(rec, at, save)
        if seat is not None and not 0 <= seat < state.game.players:
            raise ParameterError(f"--seat {seat} is not a seat of this game "
                                 f"(0..{state.game.players - 1})")
    except (MeepleError, json.JSONDecodeError) as exc:
        raise fail(str(exc)) from None
    game = state.game
    if web:
        _serve(file, index, rec, port, open_browser)
        return
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


def load_record(file: Path, index: int = 0) -> Record:
    """The record in ``file``: a record ``.json``, line ``index`` of a ``.jsonl``, or game
    ``index`` of a playtest run directory.

    Raises:
        ParameterError: ``index`` is out of range of a ``.jsonl`` file.
        RecordError, StoreError (MeepleError): not a record, no such stored game.
        json.JSONDecodeError: a ``.jsonl`` line is not JSON.
    """
    if file.is_dir():
        from meeple.lab.run.store import RunStore

        return RunStore.open(file).record(index)
    if file.suffix == ".jsonl":
        lines = file.read_text().splitlines()
        if not 0 <= index < len(lines):
            raise ParameterError(f"--index {index} out of range 0..{len(lines) - 1}")
        return Record.from_json(json.loads(lines[index]))
    return Record.load(file)


def _serve(file: Path, index: int, rec: Record, port: int, open_browser: bool) -> None:
    """``--web``: serve the replay page on 127.0.0.1:``port`` (0: a free one) with a temporary
    database, print its address, and serve until interrupted. Other games of the same
    ``.jsonl`` or run directory are served too, at ``/replay/local/N``."""
    import socket
    import tempfile
    import webbrowser

    import uvicorn

    from meeple.server.app import create_app
    from meeple.server.replays import LocalReplays

    def load(key: str) -> Record:
        if not key.isdigit():
            raise KeyError(key)
        if int(key) == index:
            return rec
        if not (file.is_dir() or file.suffix == ".jsonl"):
            raise KeyError(key)
        return load_record(file, int(key))

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise fail(f"cannot listen on 127.0.0.1:{port}: {exc}") from None
    sock.listen(64)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/replay/local/{index}"
    with tempfile.TemporaryDirectory(prefix="meeple-replay-") as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'replay.db'}",
                         replays=LocalReplays(load, [str(index)]))
        config = uvicorn.Config(app, log_level="warning", ws_per_message_deflate=False)
        console.print(f"replay of {file} (game {index}): {url} ; Ctrl+C stops")
        sys.stdout.flush()
        if open_browser:
            webbrowser.open(url)
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            sock.close()


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
