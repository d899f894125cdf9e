"""What every ``meeple`` command shares: the consoles, the option types, loading a game and a
bot line-up from the command line, the progress bar, and turning a MeepleError into a one-line
message with exit code 2. Command modules import this module and nothing else of the CLI.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column
from rich.text import Text

from meeple.bots import bot_names, make_bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game

console = Console(highlight=False, soft_wrap=True)  # paths and hints are never broken up
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

GameArg = Annotated[str, typer.Argument(help="game name (see 'meeple games')")]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help="named variant")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="seat count")]
ParamOpt = Annotated[list[str] | None, typer.Option(
    "--param", help="parameter override NAME=VALUE (repeatable); see 'meeple games --json'")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="seed (non-negative integer)")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="worker processes; 0 = all cores")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]


def fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=2)


def load(name: str, variant: str | None, players: int | None, params: list[str] | None) -> Game:
    overrides: dict[str, Any] = {}
    for item in params or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"--param {item!r} must look like NAME=VALUE")
        overrides[key.strip()] = value.strip()
    return load_game(name, variant=variant, players=players, **overrides)


def check_bots(text: str, game: Game) -> list[str]:
    names = [b.strip() for b in text.split(",")]
    if not text.strip() or not all(names):
        raise ParameterError(f"--bots {text!r} has an empty name; bots: "
                             f"{', '.join(bot_names(game))}")
    for name in set(names):
        make_bot(name, game, 0, 0)  # raises ParameterError naming the bots there are
    return names


class RateColumn(ProgressColumn):
    """Games per second (rich's moving estimate over the last 30 s)."""

    def __init__(self) -> None:
        super().__init__(table_column=Column(no_wrap=True, min_width=13))

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} games/s", style="cyan")


def progress_bar(quiet: bool) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    RateColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err_console, disable=quiet, transient=False)


def summarize_run(game: Game, results: list[dict[str, Any]], store: Any) -> dict[str, Any]:
    """The summary of a stored run's ``results`` (the store's config and sessions give the
    bots, seed, wall time and jobs)."""
    from meeple.lab.stats import summarize

    sessions = store.run.get("sessions") or [{}]
    summary = summarize(
        results, game=game.name, variant=game.variant, players=game.players,
        params=dict(game.params), seed=store.run["seed"], bots=list(store.run["bots"]),
        seat_names=list(game.seat_names()), length_unit=game.capabilities.length_unit,
        elapsed_seconds=store.elapsed_seconds(), jobs=int(sessions[-1].get("jobs", 1)),
        cooperative=game.capabilities.cooperative,
    )
    summary["score"]["name"] = type(game).score_name
    start = store.run.get("start")
    if start is not None:  # games from a position (--from): lengths count from it
        summary["start"] = {"file": start.get("file"), "length": start.get("length"),
                            "keep_order": bool(start.get("keep_order"))}
    return summary


def write_report(summary: dict[str, Any], results: list[dict[str, Any]], out: Path) -> Path:
    from meeple.lab.report import write_report

    return write_report(summary, results, out)


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises KeyboardInterrupt (so a killed run stores what it
    finished); only in the main thread, where signal handlers can be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def check_run(n_games: int, seed: int, jobs: int) -> None:
    """Refuse a games count below 1, a negative seed or negative jobs (ParameterError)."""
    if seed < 0:
        raise ParameterError(f"--seed {seed} must be a non-negative integer")
    if n_games < 1:
        raise ParameterError(f"--games {n_games} must be at least 1")
    if jobs < 0:
        raise ParameterError(f"--jobs {jobs} must be 0 (all cores) or more")


def make_dir(path: Path, what: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(f"{what} {path} cannot be used as a folder: "
                             f"{exc.strerror or exc}") from None


