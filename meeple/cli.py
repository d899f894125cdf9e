"""The ``meeple`` command line: list games, run playtests, play in the terminal, replay records.

Every deliberate error (an unknown game, a bad parameter, an unreadable record) is printed as a
one-line message with exit code 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import select
import signal
import sys
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
from rich.table import Column, Table
from rich.text import Text

from meeple.bots import bot_names, make_bot
from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.game import Game
from meeple.engine.record import Record, replay
from meeple.engine.registry import game_class, game_names, load_game

app = typer.Typer(
    help="meeple: play tabletop game designs and playtest them with bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
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


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=2)


def _load(name: str, variant: str | None, players: int | None, params: list[str] | None) -> Game:
    overrides: dict[str, Any] = {}
    for item in params or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"--param {item!r} must look like NAME=VALUE")
        overrides[key.strip()] = value.strip()
    return load_game(name, variant=variant, players=players, **overrides)


def _bots(text: str, game: Game) -> list[str]:
    names = [b.strip() for b in text.split(",")]
    if not text.strip() or not all(names):
        raise ParameterError(f"--bots {text!r} has an empty name; bots: "
                             f"{', '.join(bot_names(game))}")
    for name in set(names):
        make_bot(name, game, 0, 0)  # raises ParameterError naming the bots there are
    return names


# ------------------------------------------------------------------------------------ games
@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False):
    """List the registered games, their variants, parameters and bots."""
    listing = []
    for name in game_names():
        cls = game_class(name)
        game = cls()
        caps = game.capabilities
        listing.append({
            "name": name,
            "title": cls.title,
            "summary": cls.summary,
            "players": {"min": cls.min_players, "max": cls.max_players,
                        "default": cls.default_players},
            "variants": [{"name": v.name, "description": v.description, "source": v.source,
                          "aliases": list(v.aliases), "params": dict(v.params)}
                         for v in cls.variants],
            "parameters": [{"name": p.name, "default": p.default, "allowed": p.allowed(),
                            "doc": p.doc} for p in cls.parameters],
            "capabilities": {"simultaneous": caps.simultaneous,
                             "hidden_information": caps.hidden_information,
                             "chance": caps.chance, "cooperative": caps.cooperative,
                             "max_length": caps.max_length, "length_unit": caps.length_unit,
                             "talk_modes": list(caps.talk_modes)},
            "bots": bot_names(game),
            "rules_page": cls.rules_page,
        })
    if as_json:
        print(json.dumps(listing, indent=2))
        return
    for entry in listing:
        p = entry["players"]
        console.print(f"[bold]{entry['name']}[/] - {entry['title']} "
                      f"({p['min']}-{p['max']} players, default {p['default']})")
        console.print(f"  {entry['summary']}")
        console.print(f"  rules: {entry['rules_page']}   bots: {', '.join(entry['bots'])}")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("variant")
        table.add_column("what changes")
        for v in entry["variants"]:
            alias = f" ({', '.join(v['aliases'])})" if v["aliases"] else ""
            table.add_row(v["name"] + alias, v["description"])
        console.print(table)
        console.print("  parameters (set with --param NAME=VALUE):")
        params = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        params.add_column("parameter")
        params.add_column("default")
        params.add_column("allowed")
        params.add_column("meaning")
        for p in entry["parameters"]:
            params.add_row(p["name"], str(p["default"]), p["allowed"], p["doc"])
        console.print(params)


# --------------------------------------------------------------------------------- playtest
class _RateColumn(ProgressColumn):
    """Games per second (rich's moving estimate over the last 30 s)."""

    def __init__(self) -> None:
        super().__init__(table_column=Column(no_wrap=True, min_width=13))

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} games/s", style="cyan")


def _progress(quiet: bool) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    _RateColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err_console, disable=quiet, transient=False)


def _summarize_run(game: Game, results: list[dict[str, Any]], store: Any) -> dict[str, Any]:
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
    return summary


@app.command()
def playtest(
    game_name: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", help="comma-separated bot names, one per seat, cycled (default: the "
        "game's playtest line-up, random for most games)")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 1000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 0,
    backend: Annotated[str, typer.Option(
        "--backend", help="process (a local process pool) or ray (Ray tasks; pip install "
        "'meeple\\[ray]')")] = "process",
    address: Annotated[str | None, typer.Option(
        "--address", help="an existing Ray cluster's address (--backend ray; default: start "
        "a local one)")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "playtest-out"),
    param: ParamOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="go on with the interrupted run stored in --out (same options), "
        "playing only the games it lacks")] = False,
    records: Annotated[bool, typer.Option(
        "--records/--no-records", help="also write every game's record to records.jsonl")] = False,
    quiet: QuietOpt = False,
):
    """Run bot games, store them under --out/records (Parquet), and write summary.json,
    results.jsonl and report.html to --out."""
    from meeple.lab.backends import check_backend, resolve_jobs
    from meeple.lab.report import summary_table
    from meeple.lab.runner import run_playtest
    from meeple.lab.store import RUN_JSON, RunStore, run_config

    try:
        game = _load(game_name, variant, players, param)
        bot_list = _bots(",".join(game.playtest_bots) if bots is None else bots, game)
        _check_run(n_games, seed, jobs)
        workers = resolve_jobs(jobs)
        if backend not in ("process", "ray"):
            raise ParameterError(f"--backend {backend!r} must be process or ray")
        check_backend(backend, address)
        _make_dir(out, "--out")
        if n_games % game.players:
            err_console.print(f"[yellow]note:[/] {n_games} games is not a multiple of "
                              f"{game.players} seats; seat rotation will be uneven")
        config = run_config(game, bot_list, n_games, seed)
        if resume:
            store = RunStore.resume(out, config)
        else:
            if (out / RUN_JSON).exists():
                err_console.print(f"[yellow]note:[/] replacing the run stored in {out} "
                                  "(--resume goes on with it instead)")
            store = RunStore.create(out, config)
        stored = store.count()
        played = 0

        def advance(k: int) -> None:
            nonlocal played
            played += k
            progress.advance(task, k)

        start = time.perf_counter()
        with _progress(quiet) as progress, _sigterm_as_interrupt():
            task = progress.add_task(f"{game.name} ({game.variant})", total=n_games,
                                     completed=stored)
            try:
                results, _ = run_playtest(
                    game, bot_list, n_games, seed, jobs, store=store, backend=backend,
                    address=address,
                    records_path=out / "records.jsonl" if records else None,
                    on_progress=advance,
                )
            except KeyboardInterrupt:
                store.add_session(games_played=played, elapsed_seconds=time.perf_counter()
                                  - start, jobs=workers, backend=backend)
                progress.stop()
                err_console.print(
                    f"[yellow]interrupted:[/] {store.count()} of {n_games} games are stored in "
                    f"{out / 'records'}; go on with the same command and --resume")
                raise typer.Exit(code=130) from None
        store.add_session(games_played=played, elapsed_seconds=time.perf_counter() - start,
                          jobs=workers, backend=backend)
        summary = _summarize_run(game, results, store)
    except MeepleError as exc:
        raise _fail(str(exc)) from None
    try:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        with (out / "results.jsonl").open("w") as fh:
            for r in results:
                fh.write(json.dumps(r) + "\n")
        report = _write_report(summary, results, out)
    except OSError as exc:
        raise _fail(f"cannot write the results to {out}: {exc.strerror or exc}") from None
    console.print(summary_table(summary))
    console.print(f"wrote {out / 'summary.json'}, {out / 'results.jsonl'}, {report}, "
                  f"{out / 'records'} ({len(store.parts())} Parquet parts)"
                  + (f", {out / 'records.jsonl'}" if records else ""))


def _write_report(summary: dict[str, Any], results: list[dict[str, Any]], out: Path) -> Path:
    from meeple.lab.report import write_report

    return write_report(summary, results, out)


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
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


# ----------------------------------------------------------------------------------- report
@app.command()
def report(
    directory: Annotated[Path, typer.Argument(help="a playtest's --out directory")],
):
    """Rebuild summary.json and report.html from the games stored in DIRECTORY (no play)."""
    from meeple.lab.report import summary_table
    from meeple.lab.store import RunStore

    try:
        store = RunStore.open(directory)
        config = store.config
        game = load_game(config["game"], variant=config["variant"],
                         players=config["players"], **config["params"])
        results = store.read_results()
        if not results:
            raise ParameterError(f"{directory} has no stored games yet")
        if len(results) < config["games"]:
            err_console.print(f"[yellow]note:[/] {len(results)} of {config['games']} games "
                              "are stored (an interrupted run; --resume finishes it)")
        summary = _summarize_run(game, results, store)
    except MeepleError as exc:
        raise _fail(str(exc)) from None
    try:
        (directory / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        path = _write_report(summary, results, directory)
    except OSError as exc:
        raise _fail(f"cannot write the report to {directory}: {exc.strerror or exc}") from None
    console.print(summary_table(summary))
    console.print(f"wrote {directory / 'summary.json'}, {path} from {len(results)} stored games")


# ------------------------------------------------------------------------------------- play
@app.command()
def play(
    game_name: GameArg,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 = first)")] = 0,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="bots for the other seats, comma-separated, cycled")] = "heuristic",
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    record: Annotated[Path | None, typer.Option(
        "--record", help="save the game's record to this JSON file")] = None,
    timer: Annotated[bool, typer.Option(
        "--timer/--no-timer",
        help="time each of your decisions by the game's timer_seconds parameter")] = False,
):
    """Play one seat in the terminal against bots (you see only your seat's view)."""
    from meeple.terminal import TerminalSession

    try:
        game = _load(game_name, variant, players, param)
        bot_list = _bots(bots, game)
        if record is not None:
            _make_dir(record.parent, "--record's folder")
        seconds = None
        if timer:
            if "timer_seconds" not in game.params:
                raise ParameterError(f"{game.name} has no timer_seconds parameter")
            seconds = float(game.params["timer_seconds"]) or None
        session = TerminalSession(game, seat, bot_list, seed, console,
                                  read_line=_read_line, timer=seconds)
        _, rec, finished = session.run()
    except MeepleError as exc:
        raise _fail(str(exc)) from None
    if record is not None:
        try:
            rec.save(record)
        except OSError as exc:
            raise _fail(f"cannot save the record to {record}: {exc.strerror or exc}") from None
        console.print(f"record saved to {record} (replay: meeple replay {record})")
    if not finished:
        raise typer.Exit(code=1)


def _check_run(n_games: int, seed: int, jobs: int) -> None:
    """Refuse a games count below 1, a negative seed or negative jobs (ParameterError)."""
    if seed < 0:
        raise ParameterError(f"--seed {seed} must be a non-negative integer")
    if n_games < 1:
        raise ParameterError(f"--games {n_games} must be at least 1")
    if jobs < 0:
        raise ParameterError(f"--jobs {jobs} must be 0 (all cores) or more")


def _make_dir(path: Path, what: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(f"{what} {path} cannot be used as a folder: "
                             f"{exc.strerror or exc}") from None


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


# ----------------------------------------------------------------------------------- replay
@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(
        help="a record (.json), a records file (.jsonl) or a playtest's --out directory")],
    index: Annotated[int, typer.Option(
        "--index", "-i", help="which line of a .jsonl records file, or which game (its "
        "index) of a playtest directory")] = 0,
    show: Annotated[bool, typer.Option("--show", help="print the spectator view at the end")]
    = False,
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
    except (MeepleError, json.JSONDecodeError) as exc:
        raise _fail(str(exc)) from None
    game = state.game
    if show and game.text_renderer() is not None:
        console.print(game.text_renderer()(game, state.view(None)))
    names = game.seat_names()
    winners = ", ".join(names[s] for s in state.winners()) or "none"
    verified = "matches the recorded final state" if rec.result else "no recorded result to check"
    console.print(f"replayed {len(rec.steps)} steps of {game.name} ({game.variant}), seed "
                  f"{rec.seed}: {state.length()} {game.capabilities.length_unit}, winners: "
                  f"{winners}; {verified} (digest {state.digest()[:16]})")


# The experiment commands (ladder, compare, sweep) live in meeple/cli_lab.py and register
# themselves on ``app`` when imported.
from meeple import cli_lab  # noqa: E402,F401


def main() -> None:  # pragma: no cover - console entry
    from meeple.cli import app as registered  # the imported module's app, also under -m

    registered()


if __name__ == "__main__":  # pragma: no cover
    main()
