"""``meeple study``: plan the runs that answer a designer's questions within a time budget, say
the plan and its estimated time, play them with progress (and ``--resume``), and write
``study.json`` and ``study.html``.

Every deliberate error is printed as a one-line message with exit code 2, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.common import (
    AddressOpt,
    BackendOpt,
    GameArg,
    JobsOpt,
    ParamOpt,
    QuietOpt,
    SeedOpt,
    VariantOpt,
    check_backend_option,
    check_run,
    console,
    err_console,
    fail,
    make_dir,
    overrides,
    sigterm_as_interrupt,
    staged_run,
    write_report,
)
from meeple.engine.errors import MeepleError, ParameterError


def plan_table(plan: Any) -> Table:
    """The plan for the terminal: per run its section, what is played, games and estimate."""
    from meeple.lab.run.estimate import format_duration

    given = "".join(f", {k}={v}" for k, v in plan.params.items())
    table = Table(title=f"{plan.game} ({plan.variant}{given}): study plan, budget "
                        f"{format_duration(plan.budget)} on {plan.workers} worker"
                        f"{'s' if plan.workers != 1 else ''}", title_justify="left",
                  caption=f"estimated {format_duration(plan.seconds)} for these runs "
                          f"(+ {format_duration(plan.probe_seconds)} of probe games); the rest "
                          "of the budget grows the samples still too small to decide",
                  caption_justify="left")
    for name in ("section", "run", "bots"):
        table.add_column(name, overflow="fold")
    table.add_column("games", justify="right")
    table.add_column("estimate", justify="right", no_wrap=True)
    for run in plan.runs:
        table.add_row(run.section, run.key, _lineup(run.bots, run.players), f"{run.games:,}",
                      format_duration(run.seconds))
    if plan.exploit_seconds:
        table.add_row("strategies", "exploit-...", "scripted policies and heuristic weights "
                      f"against {', '.join(plan.tiers)}", "as fit",
                      format_duration(plan.exploit_seconds))
    if plan.target_seconds:
        table.add_row("target", "target-...", f"parameters toward {plan.target}", "as fit",
                      format_duration(plan.target_seconds))
    return table


def _lineup(bots: list[str], players: int) -> str:
    """``4 heuristic`` or ``1 ismcts-50 + 3 heuristic`` (bots cycled over the seats)."""
    from collections import Counter

    seats = Counter(bots[i % len(bots)] for i in range(players))
    return " + ".join(f"{k} {name}" for name, k in seats.items())


def study(
    game_name: GameArg,
    variant: VariantOpt = None,
    param: ParamOpt = None,
    budget: Annotated[str, typer.Option(
        "--budget", help="the study's time: 90s, 10m, 1h (the plan is sized to it)")] = "10m",
    jobs: JobsOpt = 0,
    seed: SeedOpt = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "study-out"),
    resume: Annotated[bool, typer.Option(
        "--resume", help="go on with the study in --out: its saved plan is kept and only the "
        "games it lacks are played")] = False,
    plan_only: Annotated[bool, typer.Option(
        "--plan-only", help="print the plan and its estimated time, and exit")] = False,
    target: Annotated[str | None, typer.Option(
        "--target", help="search the game's parameters for settings that meet this, e.g. "
        "'mean_rounds=20..30,seat_spread<0.05' (section 8; takes 30% of the budget)")] = None,
    vary: Annotated[list[str] | None, typer.Option(
        "--vary", help="with --target, repeatable: a parameter to search, as NAME (its "
        "default range), NAME=LO..HI or NAME=V1,V2 (default: every int, bool and choice "
        "parameter of the game)")] = None,
    strategies: Annotated[bool, typer.Option(
        "--strategies/--no-strategies", help="search for degenerate strategies (section 6; "
        "takes 15% of the budget)")] = True,
    against: Annotated[Path | None, typer.Option(
        "--against", help="an earlier study's --out folder: flag the answers that moved "
        "since")] = None,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    quiet: QuietOpt = False,
):
    """Study a design, sized to --budget: seat fairness at every seat count, length and pace,
    skill depth, every variant against the default, card power, degenerate strategies,
    elimination and kingmaking (or a co-op's loss causes) and, with --target, parameter
    settings that meet a target; writes study.json and study.html (and one stored run per
    folder) to --out."""
    from meeple.lab.analysis.against import compare_studies, load_study
    from meeple.lab.experiments.study import load_plan, parse_budget, plan_study, run_study
    from meeple.lab.pages.study_page import (
        against_terminal_table,
        study_terminal_table,
        write_study,
    )
    from meeple.lab.run.estimate import RunEstimate, Stage, format_duration

    try:
        seconds = parse_budget(budget)
        check_run(1, seed, jobs)
        check_backend_option(backend, address)
        baseline = load_study(against) if against is not None else None
        plan = load_plan(out) if resume else None
        if resume and plan is None:
            raise ParameterError(f"--resume: there is no study plan (plan.json) in {out}")
        if plan is not None:
            from meeple.engine.registry import load_game

            named = load_game(game_name, variant=variant)
            if param and overrides(param) != plan.params:
                raise ParameterError(f"--resume: {out} holds a study with --param "
                                     f"{plan.params or 'none'}; resume it without --param")
            if plan.game != named.name or (variant and plan.variant != named.variant):
                raise ParameterError(f"--resume: {out} holds a study of {plan.game} "
                                     f"({plan.variant}), not of {named.name} ({named.variant})")
            err_console.print(f"resuming the study in {escape(str(out))} with its saved plan")
        else:
            err_console.print("timing probe games to plan the study ...")
            if vary and target is None:
                raise ParameterError("--vary names the parameters --target searches; give "
                                     "--target too")
            plan = plan_study(game_name, variant, seconds, jobs, seed, target=target,
                              exploit=strategies,
                              vary=[v.strip() for v in vary] if vary else None,
                              params=overrides(param))
        if baseline is not None and baseline.get("game") != plan.game:
            raise ParameterError(f"--against: {against} is a study of {baseline.get('game')}, "
                                 f"not of {plan.game}")
        console.print(plan_table(plan))
        for note in plan.notes:
            console.print(f"[yellow]note:[/] {escape(note)}")
        if plan_only:
            return
        make_dir(out, "--out")
        stages = [Stage(r.label, None, r.bots, r.games) for r in plan.runs]  # type: ignore[arg-type]
        estimate = RunEstimate(seconds=plan.seconds, stage_seconds=[r.seconds for r in plan.runs],
                               workers=plan.workers)
        with sigterm_as_interrupt(), staged_run(quiet, f"{plan.game} study", stages, jobs,
                                                seed, estimate=estimate) as run:
            def on_run(planned: Any) -> Any:
                run.begin(reused=resume and _stored(out / planned.key) >= planned.games)
                return run.advance

            def on_grow(more: list[Any]) -> None:
                err_console.print(f"growing {len(more)} sample{'s' if len(more) != 1 else ''} "
                                  "still too small to decide: " + ", ".join(
                                      f"{r.label} +{r.games}" for r in more))
                run.add_stages([Stage(r.label, None, r.bots, r.games) for r in more],  # type: ignore[arg-type]
                               [r.seconds for r in more])

            try:
                def on_section(name: str, budget: float) -> None:
                    what = {"strategies": "searching for degenerate strategies",
                            "target": f"searching toward the target {plan.target}"}[name]
                    err_console.print(f"{escape(what)} (up to {format_duration(budget)}) ...")

                data = run_study(plan, out, jobs, resume, on_run=on_run, on_grow=on_grow,
                                 backend=backend, address=address, on_section=on_section)
            except KeyboardInterrupt:
                run.progress.stop()
                err_console.print(f"[yellow]interrupted:[/] every finished game is stored in "
                                  f"{escape(str(out))}; go on with the same command and --resume")
                raise typer.Exit(code=130) from None
        reports = _fairness_reports(data, out)
        if baseline is not None:
            data["against"] = compare_studies(data, baseline, str(against))
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write the study to {out}: {exc.strerror or exc}") from None
    try:
        page = write_study(data, out)
    except OSError as exc:
        raise fail(f"cannot write the study to {out}: {exc.strerror or exc}") from None
    console.print(study_terminal_table(data))
    if data.get("against"):
        console.print(against_terminal_table(data["against"]))
    for line in data["notes"]:
        console.print(f"[yellow]note:[/] {escape(line)}")
    if data["not_yet"]:
        console.print("not yet studied: " + "; ".join(data["not_yet"]))
    replay = (data.get("strategies_detail") or {}).get("replay")
    if replay:
        console.print(f"a game the best simple policy won: {escape(replay['command'])}")
    if data.get("longest"):
        console.print(f"the longest game: {escape(data['longest']['command'])}")
    if data.get("upset"):
        console.print(f"the biggest upset ({escape(data['upset']['what'])}): "
                      f"{escape(data['upset']['command'])}")
    console.print(f"took {format_duration(data['elapsed_seconds'])} (planned "
                  f"{format_duration(plan.seconds)}); wrote {out / 'study.json'}, {page} and "
                  f"{reports} run report{'s' if reports != 1 else ''}")


def _stored(folder: Path) -> int:
    """Games stored in a run folder (0 when it holds no run yet)."""
    from meeple.lab.run.store import RUN_JSON, RunStore

    return RunStore.open(folder).count() if (folder / RUN_JSON).is_file() else 0


def _fairness_reports(data: dict[str, Any], out: Path) -> int:
    """Write report.html in every fairness run's folder (the page links them); the number
    written."""
    import json

    from meeple.lab.run.store import RunStore

    count = 0
    for entry in data["sections"]["fairness"]:
        for key in entry.get("dirs", []):
            folder = out / key
            summary = json.loads((folder / "summary.json").read_text())
            write_report(summary, RunStore.open(folder).read_results(), folder)
            count += 1
    return count
