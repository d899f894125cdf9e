"""What every ``meeple`` command shares: the consoles, the option types, loading a game and a
bot line-up from the command line, the progress bar, and turning a MeepleError into a one-line
message with exit code 2. Command modules import this module and nothing else of the CLI.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
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
BackendOpt = Annotated[str, typer.Option(
    "--backend", help="process (a local process pool) or ray (Ray tasks; pip install "
    "'meeple\\[ray]')")]
AddressOpt = Annotated[str | None, typer.Option(
    "--address", help="an existing Ray cluster's address (--backend ray; default: start "
    "a local one)")]


def check_backend_option(backend: str, address: str | None) -> None:
    """Refuse a ``--backend`` other than process or ray, or one that cannot run
    (:func:`meeple.lab.run.backends.check_backend`). Raises: ParameterError."""
    from meeple.lab.run.backends import check_backend

    if backend not in ("process", "ray"):
        raise ParameterError(f"--backend {backend!r} must be process or ray")
    check_backend(backend, address)


def fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=2)


def overrides(params: list[str] | None) -> dict[str, str]:
    """``--param NAME=VALUE`` items as ``{NAME: VALUE}`` (the game parses the values).

    Raises:
        ParameterError: an item without ``=`` or a name.
    """
    out: dict[str, str] = {}
    for item in params or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"--param {item!r} must look like NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def load(name: str, variant: str | None, players: int | None, params: list[str] | None) -> Game:
    return load_game(name, variant=variant, players=players, **overrides(params))


def check_bots(text: str, game: Game) -> list[str]:
    names = [b.strip() for b in text.split(",")]
    if not text.strip() or not all(names):
        raise ParameterError(f"--bots {text!r} has an empty name; bots: "
                             f"{', '.join(bot_names(game))}")
    for name in set(names):
        make_bot(name, game, 0, 0)  # raises ParameterError naming the bots there are
    return names


class RateColumn(ProgressColumn):
    """Games per second (rich's moving estimate over the last 30 s), with decimals below 10
    (a search run at 0.3 games/s used to show "0 games/s")."""

    def __init__(self) -> None:
        super().__init__(table_column=Column(no_wrap=True, min_width=13))

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else format_rate(speed), style="cyan")


def progress_bar(quiet: bool) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    RateColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err_console, disable=quiet, transient=False)


def summarize_run(game: Game, results: list[dict[str, Any]], store: Any) -> dict[str, Any]:
    """The summary of a stored run's ``results`` (the store's config and sessions give the
    bots, seed, wall time and jobs); an imported run's (``meeple import``) has ``seed`` None
    and ``imported`` (run.json's: the sources and each game's origin)."""
    from meeple.lab.analysis.stats import summarize

    sessions = store.run.get("sessions") or [{}]
    imported = store.run.get("imported")
    summary = summarize(
        results, game=game.name, variant=game.variant, players=game.players,
        params=dict(game.params), seed=store.run.get("seed") or 0,
        bots=list(store.run["bots"]),
        seat_names=list(game.seat_names()), length_unit=game.capabilities.length_unit,
        elapsed_seconds=store.elapsed_seconds(), jobs=int(sessions[-1].get("jobs", 1)),
        cooperative=game.capabilities.cooperative,
    )
    summary["score"]["name"] = type(game).score_name
    if imported is not None:  # games played elsewhere: no playtest seed
        summary["seed"] = None
        summary["imported"] = imported
    start = store.run.get("start")
    if start is not None:  # games from a position (--from): lengths count from it
        summary["start"] = {"file": start.get("file"), "length": start.get("length"),
                            "keep_order": bool(start.get("keep_order"))}
    return summary


def write_report(summary: dict[str, Any], results: list[dict[str, Any]], out: Path) -> Path:
    from meeple.lab.pages.report import write_report

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

# ------------------------------------------------------------------- runs in stages
def format_rate(rate: float) -> str:
    """``1,234 games/s``, ``2.5 games/s``, ``0.15 games/s``."""
    if rate >= 10:
        return f"{rate:,.0f} games/s"
    return f"{rate:.1f} games/s" if rate >= 1 else f"{rate:.2f} games/s"


class RealRateColumn(ProgressColumn):
    """Games per second from the games completed in this task over its elapsed time."""

    def __init__(self) -> None:
        super().__init__(table_column=Column(no_wrap=True, min_width=14))

    def render(self, task: Any) -> Text:
        elapsed = task.finished_time if task.finished else task.elapsed
        if not elapsed or task.completed <= 0:
            return Text("")
        return Text(format_rate(task.completed / elapsed), style="cyan")


class EtaColumn(ProgressColumn):
    """Time left: from the rate of this task's completed work (``work``, the share of its
    estimated seconds done, when the task sets it; else the share of its games), or before
    any is done, the estimate (``est``) minus the time elapsed, marked ``~``."""

    def __init__(self) -> None:
        super().__init__(table_column=Column(no_wrap=True, min_width=14))

    def render(self, task: Any) -> Text:
        from meeple.lab.run.estimate import format_duration

        if task.finished:
            return Text("done", style="green")
        elapsed = task.elapsed or 0.0
        share = task.fields.get("work")
        if share is None:
            share = task.completed / task.total if task.total else 0.0
        if share > 0 and elapsed > 0:
            return Text(f"{format_duration(elapsed * (1 - share) / share)} left",
                        style="yellow")
        est = task.fields.get("est")
        if est is None:
            return Text("")
        return Text(f"~{format_duration(max(0.0, est - elapsed))} left", style="yellow")


class StagedRun:
    """Progress of a run in stages (ladder steps, compare arms, sweep points): a bar for the
    stage being played and one for the whole run, each with games done, the real rate and
    the time left; a line per finished stage. Made by :func:`staged_run`."""

    def __init__(self, progress: Progress, title: str, stages: list[Any],
                 stage_seconds: list[float], log: bool) -> None:
        self.progress, self.log = progress, log
        self.stages, self.est = list(stages), list(stage_seconds)
        played = [s for s in stages if not s.reused]
        self.total_est = sum(stage_seconds)
        self.total = progress.add_task(f"{title} (all)", total=sum(s.games for s in played)
                                       or 1, est=self.total_est, work=None)
        self.index = -1
        self.task: Any = None
        self.done_est = 0.0

    def add_stages(self, stages: list[Any], seconds: list[float]) -> None:
        """Append ``stages`` (estimated at ``seconds`` each) to the run (a study's growth
        round): the whole run's bar grows by their games."""
        self.stages += stages
        self.est += seconds
        self.total_est += sum(seconds)
        task = self.progress.tasks[self.total]
        self.progress.update(self.total, total=(task.total or 0) + sum(s.games for s in stages),
                             est=self.total_est)

    def begin(self, index: int | None = None, reused: bool = False) -> None:
        """Start stage ``index`` (the next one when None); ``reused``: it is not played."""
        self._close()
        self.index = self.index + 1 if index is None else index
        stage = self.stages[self.index]
        self.reused = reused or stage.reused
        label = f"{self.index + 1}/{len(self.stages)} {stage.label}"
        self.task = self.progress.add_task(label + (" (reused)" if self.reused else ""),
                                           total=stage.games, est=self.est[self.index])

    def next_stage(self, *_: Any) -> Any:
        """For compare's ``on_arm`` and sweep's ``on_point``: begin the next stage and return
        :meth:`advance`."""
        self.begin()
        return self.advance

    def advance(self, k: int) -> None:
        """``k`` more games of the current stage are done."""
        self.progress.advance(self.task, k)
        if self.reused:
            return
        stage = self.stages[self.index]
        self.done_est += self.est[self.index] * k / stage.games
        work = self.done_est / self.total_est if self.total_est > 0 else None
        self.progress.update(self.total, advance=k, work=work)

    def _close(self) -> None:
        from meeple.lab.run.estimate import format_duration

        if self.task is None:
            return
        task = self.progress.tasks[self.task]
        self.progress.update(self.task, visible=False)
        if self.log and not self.reused:
            took = task.finished_time or task.elapsed or 0.0
            rate = f", {format_rate(task.completed / took)}" if took > 0 else ""
            est = format_duration(self.est[self.index])
            self.progress.console.print(
                f"  {escape(task.description)}: {task.completed:.0f} games in "
                f"{format_duration(took)}{rate} (estimated {est})")
        self.task = None


@contextlib.contextmanager
def staged_run(quiet: bool, title: str, stages: list[Any], jobs: int,
               seed: int = 0, estimate: Any = None) -> Iterator[StagedRun]:
    """Estimate the run of ``stages`` (:func:`meeple.lab.run.estimate.estimate_run`), print the
    estimate line, show the progress bars while inside, and print the actual time at the end.
    ``quiet``: no estimate (nothing is measured), bars or lines. ``estimate``: a
    :class:`~meeple.lab.run.estimate.RunEstimate` made already (a study's plan): used as it is,
    nothing is measured and no estimate line is printed."""
    from meeple.lab.run.estimate import estimate_run, format_duration

    if quiet:
        seconds = [0.0] * len(stages)
    elif estimate is not None:
        seconds = list(estimate.stage_seconds)
    else:
        estimate = estimate_run(stages, jobs, seed)
        seconds = estimate.stage_seconds
        err_console.print(escape(estimate.line()))
    start = time.perf_counter()
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), RealRateColumn(), TimeElapsedColumn(),
                        EtaColumn(), console=err_console, disable=quiet, transient=False)
    with progress:
        run = StagedRun(progress, title, stages, seconds, log=not quiet)
        yield run
        run._close()
    if not quiet:
        err_console.print(f"took {format_duration(time.perf_counter() - start)} "
                          f"(estimated about {format_duration(estimate.seconds)})")


# ------------------------------------------------------------------ a meeple serve database
#: URL prefixes of the databases ``meeple serve`` keeps (read by import, report, export).
DB_PREFIXES = ("sqlite:", "postgresql:", "postgres:", "postgresql+")


def open_server_store(url: str) -> tuple[str, Any]:
    """``(the URL without its password, a Store reading it)`` of a server database (the caller
    disposes of the store).

    Raises:
        ParameterError: an unsupported URL, a missing SQLite file.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from meeple.server.db import Store, make_engine, normalise_url

    if not url.startswith(DB_PREFIXES):
        raise ParameterError(f"unsupported database URL scheme {url.split(':', 1)[0]!r}: use "
                             "sqlite:///FILE or postgresql://USER@HOST:PORT/DB")
    try:
        parsed = make_url(normalise_url(url))
        shown = make_url(url).render_as_string(hide_password=True)
    except (ValueError, SQLAlchemyError) as exc:
        raise ParameterError(str(exc)) from None
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or not Path(parsed.database).is_file():
            raise ParameterError(f"no SQLite database file at {parsed.database or url!r}")
    try:
        return shown, Store(make_engine(url, create_schema=False))
    except SQLAlchemyError as exc:
        raise ParameterError(f"cannot open {shown}: {exc}") from None


def unreadable_database(shown: str, exc: Exception) -> ParameterError:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return ParameterError(f"cannot read finished games from {shown}: {first}")


def server_games(url: str, spec: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The finished games of one game ``spec`` (``game``, ``variant``, ``players``,
    ``params`` as a record has them) in a server database, for ``meeple report --people``.

    Returns:
        ``(the URL without its password, [{"table", "record", "surveys"}...])``: each table's
        record JSON and its survey answers (none from a database older than surveys).
    Raises:
        ParameterError: as :func:`_database_records`.
    """
    from sqlalchemy.exc import SQLAlchemyError

    shown, store = open_server_store(url)
    games = []
    try:
        for table_id, data in store.finished_records():
            if any(data.get(key) != value for key, value in spec.items()):
                continue
            try:
                surveys = store.surveys(table_id)
            except SQLAlchemyError:  # a database from before surveys were kept
                surveys = []
            games.append({"table": table_id, "record": data, "surveys": surveys})
    except (SQLAlchemyError, json.JSONDecodeError) as exc:
        raise unreadable_database(shown, exc) from None
    finally:
        store.dispose()
    return shown, games
