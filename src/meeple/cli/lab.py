"""The ``meeple`` experiment commands: ``ladder`` (skill tiers), ``compare`` (rule variants
side by side) and ``sweep`` (a parameter grid).

Every deliberate error is printed as a one-line message with exit code 2, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.common import (
    GameArg,
    JobsOpt,
    ParamOpt,
    PlayersOpt,
    QuietOpt,
    SeedOpt,
    VariantOpt,
    check_bots,
    check_run,
    console,
    err_console,
    fail,
    load,
    make_dir,
    staged_run,
)
from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game


# ----------------------------------------------------------------------------------- ladder
def ladder(
    game_name: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    n_games: Annotated[int | None, typer.Option(
        "--games", "-n", help="games per step (per tier in a cooperative game); default: as "
        "many as fit the ladder into about 80 s of play on its estimate, one rotation of the "
        "seats at least, 60 at most")] = None,
    budgets: Annotated[str | None, typer.Option(
        "--budgets", help="ISMCTS iterations per decision of the search tiers, comma-separated "
        "(default: an eighth of the game's default budget up to it, doubling)")] = None,
    rollout: Annotated[str, typer.Option(
        "--rollout", help="rollout policy of the search tiers: a bot of the game, or random "
        "(default: the game's own search settings)")] = "",
    tiers: Annotated[str | None, typer.Option(
        "--tiers", help="explicit tiers, weakest first, comma-separated (replaces the default "
        "random, heuristic, ismcts-BUDGET...)")] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "ladder-out"),
    param: ParamOpt = None,
    quiet: QuietOpt = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="continue the ladder saved in --out: its finished steps are kept, "
        "the rest are played (same game, settings, seed and --games)")] = False,
):
    """Play a skill ladder (each tier against the tier below) and write ladder.json and the
    report's ladder section to --out. ladder.json is saved after every step, so an
    interrupted ladder can be continued with --resume."""
    import json

    from meeple.lab.experiments.ladder import (
        LADDER_SECONDS,
        default_tiers,
        ladder_stages,
        planned_ladder,
        run_ladder,
    )
    from meeple.lab.pages.ladder_report import LADDER_JSON, ladder_table, read_ladder
    from meeple.lab.pages.report import write_ladder
    from meeple.lab.run.estimate import format_duration

    try:
        game = load(game_name, variant, players, param)
        if tiers is not None:
            tier_list = check_bots(tiers, game)
        else:
            try:
                sizes = None if budgets is None else [int(b) for b in budgets.split(",")]
            except ValueError:
                raise ParameterError(f"--budgets {budgets!r} must be integers, e.g. "
                                     "50,100,200") from None
            tier_list = check_bots(",".join(default_tiers(game, sizes, rollout)), game)
        check_run(n_games or 1, seed, jobs)
        make_dir(out, "--out")
        earlier = None
        if resume:
            try:
                earlier = read_ladder(out)
            except (OSError, ValueError) as exc:
                raise fail(f"cannot read {out / LADDER_JSON} to resume: {exc}") from None
            if earlier is None:
                raise fail(f"--resume: there is no {LADDER_JSON} in {out}")
        planned = None
        if n_games is None and earlier is not None:
            n_games = int(earlier.get("games", 0)) or None
        if n_games is None:  # as many games as fit the time (the estimate is made here)
            n_games, planned = planned_ladder(game, tier_list, jobs, seed)
            if not quiet:
                err_console.print(escape(planned.line()))
                err_console.print(f"{n_games} games a step (the most that fit about "
                                  f"{format_duration(LADDER_SECONDS)} of play; more with --games)")

        def save(partial: dict[str, Any]) -> None:
            (out / LADDER_JSON).write_text(json.dumps(partial, indent=2) + "\n")

        stages = ladder_stages(game, tier_list, n_games, earlier)
        with staged_run(quiet, f"{game.name} ladder", stages, jobs, seed,
                        estimate=planned) as run:
            result = run_ladder(game, tier_list, n_games, seed, jobs, on_progress=run.advance,
                                on_step=save, resume=earlier, on_stage=run.begin)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write the ladder to {out}: {exc.strerror or exc}") from None
    try:
        report = write_ladder(result, out)
    except OSError as exc:
        raise fail(f"cannot write the ladder to {out}: {exc.strerror or exc}") from None
    console.print(ladder_table(result))
    console.print(f"wrote {out / 'ladder.json'}, {report}")


# ---------------------------------------------------------------------------------- compare
LabBotsOpt = Annotated[str | None, typer.Option(
    "--bots", "-b", help="comma-separated bot names cycled over the seats (default: heuristic,"
    "random where the game has a heuristic bot and is competitive, so the edge of skill over "
    "luck is measured; else the game's playtest line-up)")]


def lab_bots(text: str | None, game: Game) -> list[str] | None:
    return None if text is None else check_bots(text, game)


def compare(
    game_name: GameArg,
    variants: Annotated[list[str] | None, typer.Option(
        "--variant", "-v", help="a variant to compare; repeat it: each is one arm, the first "
        "is the baseline")] = None,
    param_sets: Annotated[list[str] | None, typer.Option(
        "--param-set", help="an arm of parameter overrides, \"NAME=VALUE,NAME=VALUE\" (may "
        "set variant= and players=); repeatable. With exactly one --variant, the sets apply "
        "on top of it")] = None,
    players: PlayersOpt = None,
    bots: LabBotsOpt = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="games per arm")] = 1000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "compare-out"),
    quiet: QuietOpt = False,
):
    """Play rule variants (or parameter sets) on the same seeds and write compare.json and
    compare.html: every metric side by side, the difference with its 95% interval, and a flag
    where it really differs (Holm-adjusted)."""
    from meeple.lab.experiments.compare import Arm, compare_stages, parse_arm, run_compare
    from meeple.lab.pages.compare_page import compare_terminal_table, write_compare

    existed = out.exists()
    try:
        names = list(variants or [])
        arms = [Arm(label=v, variant=v, players=players) for v in names]
        base = names[0] if len(names) == 1 else None
        arms += [parse_arm(text, variant=base, players=players) for text in param_sets or []]
        if len(arms) < 2:
            raise ParameterError("give two or more arms: --variant A --variant B, or "
                                 "--param-set \"NAME=VALUE,...\" (repeatable)")
        first = arms[0].load(game_name)
        lineup = lab_bots(bots, first)
        check_run(n_games, seed, jobs)
        make_dir(out, "--out")
        stages = compare_stages(game_name, arms, bots=lineup, games=n_games)
        with staged_run(quiet, f"{game_name} compare", stages, jobs, seed) as run:
            data = run_compare(game_name, arms, bots=lineup, games=n_games, seed=seed,
                               jobs=jobs, on_arm=run.next_stage)
    except MeepleError as exc:
        _drop_if_empty(out, existed)
        raise fail(str(exc)) from None
    try:
        page = write_compare(data, out)
    except OSError as exc:
        raise fail(f"cannot write the comparison to {out}: {exc.strerror or exc}") from None
    console.print(compare_terminal_table(data))
    console.print(f"wrote {out / 'compare.json'}, {page}")


# ------------------------------------------------------------------------------------ sweep
def sweep(
    game_name: GameArg,
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="a swept parameter NAME=V1,V2,... (repeatable: the grid is every "
        "combination; players and variant may be swept too)")] = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="rank the points by closeness to METRIC=VALUE (repeatable), e.g. "
        "length=30, truncated=0, first_seat=0, skill_edge=20%")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    bots: LabBotsOpt = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="games per point")] = 500,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path(
        "sweep-out"),
    quiet: QuietOpt = False,
):
    """Play every point of a parameter grid and write sweep.json and sweep.html: the metrics
    per point with 95% intervals, a plot per metric, and the ranking by --target."""
    from meeple.lab.experiments.sweep import parse_param, parse_target, run_sweep, sweep_stages
    from meeple.lab.pages.sweep_page import metric_names, write_sweep

    existed = out.exists()
    try:
        grid = [parse_param(p) for p in param or []]
        if not grid:
            raise ParameterError("give at least one --param NAME=V1,V2,...")
        targets = dict(parse_target(t) for t in target or [])
        lineup = lab_bots(bots, load_game(game_name, variant=variant, players=players))
        check_run(n_games, seed, jobs)
        make_dir(out, "--out")
        stages = sweep_stages(game_name, grid, variant=variant, players=players, bots=lineup,
                              games=n_games)
        with staged_run(quiet, f"{game_name} sweep", stages, jobs, seed) as run:
            data = run_sweep(game_name, grid, variant=variant, players=players, bots=lineup,
                             games=n_games, seed=seed, jobs=jobs, targets=targets,
                             on_point=run.next_stage)
    except MeepleError as exc:
        _drop_if_empty(out, existed)
        raise fail(str(exc)) from None
    try:
        page = write_sweep(data, out)
    except OSError as exc:
        raise fail(f"cannot write the sweep to {out}: {exc.strerror or exc}") from None
    shown = metric_names(data)
    names = [n for n in dict.fromkeys([*data["targets"], "length", "truncated", "first_seat",
                                       "skill_edge", "team_win"]) if n in shown][:5]
    table = Table(title=f"{data['game']} sweep ({n_games} games per point, bots "
                        f"{', '.join(data['bots'])})", title_justify="left",
                  caption=f"all metrics, with 95% intervals: {page}", caption_justify="left")
    ranks = {e["index"]: e["rank"] for e in data["ranking"]}
    if ranks:
        table.add_column("rank", justify="right")
    table.add_column("point", no_wrap=True)
    for name in names:
        table.add_column(name, justify="right")
    order = ([e["index"] for e in data["ranking"]] if ranks
             else list(range(len(data["points"]))))
    for i in order:
        p = data["points"][i]
        cells = [_metric_cell(p["metrics"].get(n)) for n in names]
        table.add_row(*([str(ranks[i])] if ranks else []), p["label"], *cells)
    console.print(table)
    console.print(f"wrote {out / 'sweep.json'}, {page}")


def _metric_cell(m: dict[str, Any] | None) -> str:
    if m is None or m["value"] is None:
        return "–"
    if m["kind"] == "share":
        return f"{100 * m['value']:.1f}%"
    if m["kind"] == "edge":
        return f"{100 * m['value']:+.1f} pts"
    return f"{m['value']:.2f}"


def _drop_if_empty(out: Path, existed: bool) -> None:
    """Remove ``out`` when this command made it and it is still empty (a refused run leaves
    no empty folder behind)."""
    if not existed and out.is_dir() and not any(out.iterdir()):
        out.rmdir()
