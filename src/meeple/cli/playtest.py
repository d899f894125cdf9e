"""``meeple playtest`` (bot games into a Parquet store, a summary and a report) and ``meeple
report`` (rebuild the summary and report from a store, no play)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from meeple.cli.common import (
    AddressOpt,
    BackendOpt,
    GameArg,
    JobsOpt,
    ParamOpt,
    PlayersOpt,
    QuietOpt,
    SeedOpt,
    VariantOpt,
    check_backend_option,
    check_bots,
    check_run,
    console,
    err_console,
    fail,
    load,
    make_dir,
    progress_bar,
    sigterm_as_interrupt,
    summarize_run,
    write_report,
)
from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.registry import load_game


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
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "playtest-out"),
    param: ParamOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="go on with the interrupted run stored in --out (same options), "
        "playing only the games it lacks")] = False,
    records: Annotated[bool, typer.Option(
        "--records/--no-records", help="also write every game's record to records.jsonl")] = False,
    quiet: QuietOpt = False,
    from_file: Annotated[Path | None, typer.Option(
        "--from", help="start every game from this position (a state JSON file, e.g. from "
        "`meeple replay --at N --save`), each with its own future chance: the stream is "
        "reseeded per game and unseen decks reshuffled; --variant/--players default to the "
        "position's; lengths count from it")] = None,
    keep_order: Annotated[bool, typer.Option(
        "--keep-order", help="with --from: keep the position's deck order (its next draws, "
        "e.g. a scenario's fixed cards); only later chance differs")] = False,
):
    """Run bot games, store them under --out/records (Parquet), and write summary.json,
    results.jsonl and report.html to --out."""
    from meeple.lab.pages.report import summary_table
    from meeple.lab.run.backends import resolve_jobs
    from meeple.lab.run.runner import run_playtest
    from meeple.lab.run.store import RUN_JSON, RunStore, run_config

    try:
        origin = None  # the start position (--from)
        if from_file is not None:
            from meeple.engine.scenario import check_position_matches, read_position

            origin = read_position(from_file, keep_order)
            position = origin["position"]
            named = load(game_name, None, None, None).name
            if position.get("game") != named:
                raise ParameterError(f"--from {from_file.name} is a position of game "
                                     f"{position.get('game')!r}, not of {named!r}")
            if variant is None and isinstance(position.get("variant"), str):
                variant = position["variant"]
            if players is None and isinstance(position.get("players"), int):
                players = position["players"]
            if not param and isinstance(position.get("params"), dict):
                param = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                         for k, v in position["params"].items()]
        elif keep_order:
            raise ParameterError("--keep-order needs --from")
        game = load(game_name, variant, players, param)
        if origin is not None:
            origin["length"] = check_position_matches(game, origin).length()
        bot_list = check_bots(",".join(game.playtest_bots) if bots is None else bots, game)
        check_run(n_games, seed, jobs)
        workers = resolve_jobs(jobs)
        check_backend_option(backend, address)
        make_dir(out, "--out")
        if n_games % game.players:
            err_console.print(f"[yellow]note:[/] {n_games} games is not a multiple of "
                              f"{game.players} seats; seat rotation will be uneven")
        config = run_config(game, bot_list, n_games, seed, origin)
        if resume:
            store = RunStore.resume(out, config)
            for line in store.set_aside:
                err_console.print(f"[yellow]note:[/] {escape(line)}", highlight=False,
                                  soft_wrap=True)
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
        store.begin_session(jobs=workers, backend=backend)
        with progress_bar(quiet) as progress, sigterm_as_interrupt():
            task = progress.add_task(f"{game.name} ({game.variant})", total=n_games,
                                     completed=stored)
            try:
                results, _ = run_playtest(
                    game, bot_list, n_games, seed, jobs, store=store, backend=backend,
                    address=address,
                    records_path=out / "records.jsonl" if records else None,
                    on_progress=advance, start=origin,
                )
            except KeyboardInterrupt:
                store.add_session(games_played=played, elapsed_seconds=time.perf_counter()
                                  - start, jobs=workers, backend=backend, status="interrupted")
                progress.stop()
                err_console.print(
                    f"[yellow]interrupted:[/] {store.count()} of {n_games} games are stored in "
                    f"{out / 'records'}; go on with the same command and --resume")
                raise typer.Exit(code=130) from None
        store.add_session(games_played=played, elapsed_seconds=time.perf_counter() - start,
                          jobs=workers, backend=backend)
        summary = summarize_run(game, results, store)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    try:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        with (out / "results.jsonl").open("w") as fh:
            for r in results:
                fh.write(json.dumps(r) + "\n")
        report = write_report(summary, results, out)
    except OSError as exc:
        raise fail(f"cannot write the results to {out}: {exc.strerror or exc}") from None
    console.print(summary_table(summary))
    console.print(f"wrote {out / 'summary.json'}, {out / 'results.jsonl'}, {report}, "
                  f"{out / 'records'} ({len(store.parts())} Parquet parts)"
                  + (f", {out / 'records.jsonl'}" if records else ""))



def report(
    directory: Annotated[Path, typer.Argument(help="a playtest's --out directory")],
    people: Annotated[str | None, typer.Option(
        "--people", help="a meeple serve database URL (sqlite:///meeple.db, postgresql://...): "
        "add a People section with the human games of this run's game, variant, seats and "
        "parameters played there, beside the run's bot games")] = None,
):
    """Rebuild summary.json and report.html from the games stored in DIRECTORY (no play)."""
    from meeple.lab.pages.report import summary_table
    from meeple.lab.run.store import RunStore

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
        summary = summarize_run(game, results, store)
        if people is not None:
            from meeple.cli.common import server_games
            from meeple.lab.analysis.people import people_summary

            spec = {k: config[k] for k in ("game", "variant", "players", "params")}
            shown, games = server_games(people, spec)
            summary["people"] = {"source": shown, **people_summary(game, games, results)}
    except MeepleError as exc:
        raise fail(str(exc)) from None
    try:
        (directory / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        path = write_report(summary, results, directory)
    except OSError as exc:
        raise fail(f"cannot write the report to {directory}: {exc.strerror or exc}") from None
    console.print(summary_table(summary))
    console.print(f"wrote {directory / 'summary.json'}, {path} from {len(results)} stored games")
