"""Reports of a playtest run: terminal tables, PNG plots and a self-contained HTML page.

Everything here reads the summary dict made by :func:`meeple.lab.analysis.stats.summarize` (and,
for the distributions, the per-game result dicts it was made from); nothing is recomputed that the
summary already states, so the page, the plots and the terminal agree.

The plots are drawn by :mod:`meeple.lab.pages.report_plots` on
:class:`matplotlib.figure.Figure` objects directly (no pyplot, so no GUI backend and no global
figure registry) and rendered to PNG with the Agg renderer.

A cooperative game's summary (one with ``team_win_rate``) is reported as a team: the team win
rate and the loss causes first, and each seat's and bot's survival in place of the sole-win
rates (which a team that wins or loses together never has).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.table import Table

from meeple.lab.analysis.stats import seat_phrase
from meeple.lab.pages.ladder_report import (
    LADDER_JSON,
    LADDER_PLOT,
    ladder_plot,
    ladder_section,
    read_ladder,
)
from meeple.lab.pages.people_page import add_people
from meeple.lab.pages.render import (
    CSS,
    ci_range,
    html_table,
    num,
    p_value,
    page_head,
    pct,
    score_name,
    signed_pts,
)
from meeple.lab.pages.report_extra import add_diagnostics, add_imported, add_watch
from meeple.lab.pages.report_plots import LOSS_CAUSES_PLOT, PLOT_FILES, is_coop, report_plots

__all__ = ["LOSS_CAUSES_PLOT", "PLOT_FILES", "summary_table", "write_ladder", "write_report"]




# --------------------------------------------------------------------------- formatting
def _team_line(summary: Mapping[str, Any]) -> str:
    """``team win rate 41.0% (95% CI 36.7–45.4%), 205/500 games``."""
    team = summary["team_win_rate"]
    return (f"team win rate {pct(team['rate'])} (95% CI {ci_range(team['ci_low'], team['ci_high'])}"
            f"), {team['wins']}/{team['games']} games")


def _run_line(summary: Mapping[str, Any]) -> str:
    """``variant · 4 players · 1000 games · seed 7 · bots heuristic, random``, and for games
    from a position ``· from position.json (at turns 12; lengths count from it)``."""
    imported = summary.get("imported")
    origin = (f"imported from {', '.join(imported.get('sources') or ['records'])}"
              if imported else f"seed {summary['seed']}")
    line = (f"variant {summary['variant']} · {summary['players']} players · "
            f"{summary['games']} games · {origin} · "
            f"bots {', '.join(map(str, summary['bots']))}")
    start = summary.get("start")
    if start:
        unit = summary.get("length", {}).get("unit", "length")
        line += (f" · from {start['file']} (at {unit} {start['length']}; lengths count "
                 "from it)")
    return line


# ------------------------------------------------------------------------------ terminal
def summary_table(summary: Mapping[str, Any]) -> Table:
    """The run's key numbers as one rich table for the terminal.

    Args:
        summary: a dict from :func:`meeple.lab.analysis.stats.summarize`.
    Returns:
        A :class:`rich.table.Table` with columns *metric, value, 95% CI, detail* and sections
        for seats (sole-win rate with Wilson CI), bots (win rate, CI, edge over the fair share
        in percentage points, binomial p), outcomes (seat-balance chi-square p, draw and
        truncated rates, game length mean, median, p90, the spread of the game's score with
        the winners' mean and lead) and speed (games per second); the
        skill-vs-luck verdict is the caption. For a cooperative game the table opens with the
        team win rate (with its CI) and one row per loss cause that occurred, and the seat and
        bot rows give survival (the share of games ended with a positive return) instead of
        sole wins; the seat balance is tested on survival and there is no draw-rate row.
    """
    table = Table(title=f"{summary['game']}: {_run_line(summary)}",
                  caption=summary["skill_vs_luck"]["verdict"], caption_justify="left",
                  title_justify="left")
    table.add_column("metric", style="bold")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("detail")

    if is_coop(summary):
        _team_rows(table, summary)
    else:
        for e in summary["seat_win_rate"]:
            table.add_row(f"{seat_phrase(e['name'])} win rate", pct(e["rate"]),
                          ci_range(e["ci_low"], e["ci_high"]),
                          f"{e['wins']}/{e['games']} sole wins")
        table.add_section()
        for name, e in summary["bot_win_rate"].items():
            detail = (f"edge {signed_pts(e['edge'])}, p {p_value(e['p_value'])}, "
                      f"{e['wins']}/{e['pairs']} seats")
            table.add_row(f"bot {name} win rate", pct(e["rate"]),
                          ci_range(e["ci_low"], e["ci_high"]), detail)
        table.add_section()
        balance = summary["seat_balance"]
        table.add_row("seat balance", f"p {p_value(balance['p_value'])}", "",
                      balance.get("note") or f"chi² {num(balance['chi2'])} vs equal seats")
        table.add_row("draw rate", pct(summary["draw_rate"]), "",
                      "no sole winner")
    table.add_row("truncated rate", pct(summary["truncated_rate"]), "",
                  "hit the length cap")
    length = summary["length"]
    table.add_row(f"length ({length['unit']})", num(length["mean"], 1), "",
                  f"mean; median {num(length['median'], 1)}, p90 {num(length['p90'], 1)}")
    score = summary["score"]
    spread = (f"mean; spread: sd {num(score['std'], 1)}, p10 {num(score['p10'], 1)} .. p90 "
              f"{num(score['p90'], 1)}")
    if not is_coop(summary):  # a team has no sole winners to compare
        spread += (f"; sole winners' mean {num(score['winner_mean'], 1)}, winning margin "
                   f"{num(score['margin_mean'], 1)}")
    table.add_row(f"final {score_name(summary)}", num(score["mean"], 1), "", spread)
    table.add_section()
    gps, secs = summary["games_per_second"], summary["game_seconds"]
    if summary.get("imported"):  # played elsewhere: no lab speed, the games' own time
        table.add_row("game time", f"{num(secs['mean'], 1)} s", "",
                      f"mean wall time per game; median {num(secs['median'], 1)} s")
    else:
        table.add_row("speed", "–" if gps is None else f"{gps:,.1f} games/s", "",
                      f"{summary['jobs']} job{'s' if summary['jobs'] != 1 else ''}, "
                      f"{summary['elapsed_seconds']:.2f} s")
    return table


def _team_rows(table: Table, summary: Mapping[str, Any]) -> None:
    """A cooperative game's rows: team win rate, loss causes, survival by seat and by bot,
    seat balance of survival."""
    team = summary["team_win_rate"]
    table.add_row("team win rate", pct(team["rate"]), ci_range(team["ci_low"], team["ci_high"]),
                  f"{team['wins']}/{team['games']} games won together")
    for cause, e in summary["loss_causes"].items():
        if e["count"]:
            table.add_row(f"lost to {cause}", pct(e["rate"]), "",
                          f"{e['count']}/{team['games']} games")
    table.add_section()
    survival = summary["survival"]
    for e in survival["seats"]:
        table.add_row(f"{seat_phrase(e['name'])} survival", pct(e["rate"]),
                      ci_range(e["ci_low"], e["ci_high"]), f"{e['survived']}/{e['games']} games")
    table.add_section()
    for name, e in survival["bots"].items():
        table.add_row(f"bot {name} survival", pct(e["rate"]), ci_range(e["ci_low"], e["ci_high"]),
                      f"{e['survived']}/{e['pairs']} seats")
    table.add_section()
    balance = survival["seat_balance"]
    table.add_row("seat balance", f"p {p_value(balance['p_value'])}", "",
                  balance.get("note") or f"chi² {num(balance['chi2'])}, survival by seat")


# ---------------------------------------------------------------------------------- html
def _html(summary: Mapping[str, Any], images: Mapping[str, bytes]) -> str:
    """The whole report page as one string (plots inline as base64 PNG)."""
    e = html.escape
    game = str(summary["game"])
    svl = summary["skill_vs_luck"]
    length = summary["length"]
    score = summary["score"]
    balance = summary["seat_balance"]
    gps = summary["games_per_second"]

    run_rows = [
        ("game", game), ("variant", summary["variant"]), ("players", summary["players"]),
        ("games", summary["games"]), ("seed", summary["seed"]),
        ("bots", ", ".join(map(str, summary["bots"]))),
        ("parameters", json.dumps(summary["params"], sort_keys=True, default=str)),
        ("jobs", summary["jobs"]), ("wall time", f"{summary['elapsed_seconds']:.2f} s"),
        ("games per second", "–" if gps is None else f"{gps:,.1f}"),
    ]
    if summary.get("imported"):  # played elsewhere: where from, and the games' own time
        run_rows[4] = ("imported from", ", ".join(summary["imported"].get("sources") or []))
        run_rows[-3:] = [("mean game time", f"{num(summary['game_seconds']['mean'], 1)} s")]
    seat_rows = [(e_["name"], e_["seat"], e_["wins"], e_["games"], pct(e_["rate"]),
                  ci_range(e_["ci_low"], e_["ci_high"])) for e_ in summary["seat_win_rate"]]
    bot_rows = [(name, b["pairs"], b["wins"], pct(b["rate"]), ci_range(b["ci_low"], b["ci_high"]),
                 pct(b["fair_share"]), signed_pts(b["edge"]), p_value(b["p_value"]),
                 num(b["mean_return"], 3)) for name, b in summary["bot_win_rate"].items()]
    outcome_rows = [
        ("draw rate (games without a sole winner)", pct(summary["draw_rate"])),
        ("truncated rate (games that hit the length cap)", pct(summary["truncated_rate"])),
    ]
    length_rows = [(length["unit"], num(length["mean"]), num(length["median"]),
                    num(length["p90"]), length["min"], length["max"], num(length["std"]))]
    score_rows = [(num(score["mean"]), num(score["std"]), num(score["p10"]),
                   num(score["median"]), num(score["p90"]), num(score["winner_mean"]),
                   num(score["margin_mean"]))]
    if balance.get("note"):
        balance_text = f"Seat balance: {balance['note']}."
    else:
        fair = "consistent with" if balance["p_value"] >= 0.05 else "unlikely under"
        balance_text = (f"Seat balance ({balance['test']}): χ² = {num(balance['chi2'])}, "
                        f"p = {p_value(balance['p_value'])} — the sole wins are {fair} equal seats "
                        "at the 5% level" + (
                            f", but {balance['too_few_games']['text']}"
                            if balance.get("too_few_games") else "") + "." + (
                            " One test at 5% flags about 1 balanced game in 20: confirm with "
                            "more games or another --seed before redesigning."
                            if balance["p_value"] < 0.05 else ""))
    coop = is_coop(summary)
    between = svl.get("between_bots", {})
    if coop:
        between = svl["team"]["between_lineups"]
    between_text = ""
    if between.get("p_value") is not None:
        between_text = (f"{'Line-ups' if coop else 'Bots'} against one another "
                        f"({between['test']}): χ² = {num(between['chi2'])}, "
                        f"p = {p_value(between['p_value'])}.")

    captions = {
        "seat_win_rate.png": "Sole-win rate per seat with 95% Wilson intervals; the dashed "
                             "line is the fair share, (1 - draw rate) / players: what every "
                             "seat would win if all were equal, given the draws.",
        "bot_win_rate.png": "Sole-win rate per (game, seat) a bot played, with 95% Wilson "
                            "intervals; the dashed line is the fair share.",
        "length.png": f"Game length in {length['unit']} of the games that finished (truncated "
                      "games are counted in the legend); dashed: mean, dotted: median, both "
                      "over all games.",
        "scores.png": "Final score of sole winners against all other seats, each as a share "
                      "of its group.",
    }
    if coop:
        captions.update({
            LOSS_CAUSES_PLOT: "Share of all games the team lost to each cause (truncation: "
                              "games that hit the length cap, in grey).",
            "seat_win_rate.png": "Survival rate per seat (games it ended with a positive "
                                 "return) with 95% Wilson intervals; the dashed line is the "
                                 "survival rate of all seats together.",
            "bot_win_rate.png": "Survival rate per (game, seat) a bot played, with 95% Wilson "
                                "intervals; the dashed line is the survival rate of all seats.",
            "scores.png": "Final score per seat in games the team won against games it lost, "
                          "each as a share of its group.",
        })
    figures = "".join(
        f'<figure><img alt="{e(name)}" src="data:image/png;base64,'
        f'{base64.b64encode(data).decode("ascii")}"><figcaption>{e(captions[name])}'
        "</figcaption></figure>"
        for name, data in images.items()
    )
    verdict_class = "verdict" if svl.get("skill_matters") else "verdict no"
    title = f"{game} playtest — {_run_line(summary)}"
    if coop:
        head, middle, scores, footer = _team_sections(summary, verdict_class)
    else:
        head = f"""<h2>Skill vs luck</h2>
<p class="{verdict_class}">{e(svl["verdict"])}</p>"""
        middle = f"""<h2>Win rate by seat</h2>
{html_table(("seat", "#", "sole wins", "games", "win rate", "95% CI"), seat_rows)}
<p class="note">{e(balance_text)}</p>
<h2>Win rate by bot</h2>
{html_table(("bot", "seats played", "sole wins", "win rate", "95% CI", "fair share", "edge",
         "p-value", "mean return"), bot_rows)}
<p class="note">p-value: two-sided exact binomial test of the sole wins against the fair
share. Edge: win rate minus fair share, in percentage points.</p>
<h2>Outcomes</h2>
{html_table(("", "share"), outcome_rows)}"""
        scores = f"""<h2>Scores</h2>
{html_table(("mean", "sd (spread)", "p10", "median", "p90", "sole winner mean",
             "winning margin mean"),
        score_rows)}
<p class="note">Over every (game, seat); sd: standard deviation, p10 and p90: the 10th and 90th
percentiles. Winning margin: the sole winner's score minus the best score of the seats still in
the game when it was decided (never negative).</p>"""
        footer = ("<p class=\"note\">Win rates count sole wins only; a game with several "
                  "winners or none is a draw.\nIntervals are 95% Wilson score intervals.</p>")
    return f"""{page_head(title, CSS)}
<h1>Playtest report: {e(game)}</h1>
<p class="run">{e(_run_line(summary))}</p>
{head}
<p class="note">{e(between_text)}</p>
<h2>Run</h2>
{html_table(("", "value"), run_rows)}
{middle}
<h2>Game length</h2>
{html_table(("unit", "mean", "median", "p90", "min", "max", "sd (spread)"), length_rows)}
{scores}
<h2>Plots</h2>
{figures}
{footer}
</body>
</html>
"""


def _team_sections(summary: Mapping[str, Any], verdict_class: str
                   ) -> tuple[str, str, str, str]:
    """A cooperative game's page parts: the team verdict with the team win rate and the loss
    causes; survival by seat and by bot and the outcomes; the scores; the closing note."""
    e = html.escape
    team = summary["team_win_rate"]
    svl = summary["skill_vs_luck"]
    survival = summary["survival"]
    score = summary["score"]
    n = team["games"]
    cause_rows = [(cause, c["count"], pct(c["rate"])) for cause, c in
                  summary["loss_causes"].items()]
    lineup_rows = [(label, x["games"], x["wins"], pct(x["rate"]),
                    ci_range(x["ci_low"], x["ci_high"]))
                   for label, x in svl["team"]["lineups"].items()]
    seat_rows = [(x["name"], x["seat"], x["survived"], x["games"], pct(x["rate"]),
                  ci_range(x["ci_low"], x["ci_high"])) for x in survival["seats"]]
    bot_rows = [(name, x["pairs"], x["survived"], pct(x["rate"]),
                 ci_range(x["ci_low"], x["ci_high"]))
                for name, x in survival["bots"].items()]
    outcome_rows = [
        ("team win rate", pct(team["rate"])),
        *((f"lost to {cause}", pct(c["rate"])) for cause, c in summary["loss_causes"].items()
          if c["count"]),
        ("truncated rate (games that hit the length cap)", pct(summary["truncated_rate"])),
    ]
    score_rows = [(num(score["mean"]), num(score["std"]), num(score["p10"]),
                   num(score["median"]), num(score["p90"]))]

    def test_text(what: str, test: Mapping[str, Any]) -> str:
        if test.get("note"):
            return f"{what}: {test['note']}."
        verdict = "differ" if test["significant"] else "do not differ"
        return (f"{what} ({test['test']}): χ² = {num(test['chi2'])}, p = {p_value(test['p_value'])}"
                f" — they {verdict} at the 5% level.")

    line = _team_line(summary)
    head = f"""<p class="run"><strong>{e(line[0].upper() + line[1:])}</strong></p>
<h2>Team</h2>
<p class="{verdict_class}">{e(svl["verdict"])}</p>
<h3>Loss causes</h3>
{html_table(("cause", "games lost", f"share of {n} games"), cause_rows)}
<h3>Team win rate by line-up</h3>
{html_table(("line-up", "games", "team wins", "win rate", "95% CI"), lineup_rows)}"""
    middle = f"""<h2>Survival by seat</h2>
{html_table(("seat", "#", "survived", "games", "survival rate", "95% CI"), seat_rows)}
<p class="note">{e(test_text("Seats", survival["seat_balance"]))}</p>
<h2>Survival by bot</h2>
{html_table(("bot", "seats played", "survived", "survival rate", "95% CI"), bot_rows)}
<p class="note">{e(test_text("Bots", survival["between_bots"]))}</p>
<h2>Outcomes</h2>
{html_table(("", "share"), outcome_rows)}"""
    scores = f"""<h2>Scores</h2>
{html_table(("mean", "sd (spread)", "p10", "median", "p90"), score_rows)}
<p class="note">Over every (game, seat).</p>"""
    footer = """<p class="note">A cooperative game: the team wins or loses together; a seat
survives a game when it ends it with a positive return. Intervals are 95% Wilson score
intervals.</p>"""
    return head, middle, scores, footer


def write_report(summary: dict, results: list[dict], out_dir: Path) -> Path:
    """Write ``report.html`` and the four plots into ``out_dir`` (created if missing).

    Args:
        summary: a dict from :func:`meeple.lab.analysis.stats.summarize`.
        results: the per-game result dicts the summary was made from (for the length and score
            distributions).
        out_dir: the directory to write into; existing files of the same names are replaced.
    Returns:
        The path of ``report.html``: a self-contained page (inline CSS, plots embedded as
        base64 PNG) with the run, seat and bot win-rate tables, the skill-vs-luck verdict, the
        outcome, length and score tables and the plots. The plots are also saved as
        ``seat_win_rate.png``, ``bot_win_rate.png``, ``length.png`` and ``scores.png``. A
        cooperative game's page gives the team win rate in its header, the team verdict, the
        loss causes, the team win rate by line-up and survival by seat and bot; its plots come
        with ``loss_causes.png`` (first), and the seat and bot plots show survival. When
        ``out_dir`` holds the same game's ``ladder.json`` (``meeple ladder``), the page also
        has the skill-ladder section and ``ladder.png``. A summary with ``diagnostics`` adds
        the designer's section (:func:`meeple.lab.pages.report_extra.add_diagnostics`) and its
        plots; an imported run's (``meeple import``) lists its games and where each came from
        (:func:`meeple.lab.pages.report_extra.add_imported`); one with ``people`` (``meeple report
        --people``) the People section (:mod:`meeple.lab.pages.people_page`). Every report names its
        games worth watching (longest, shortest, closest and widest win, biggest upset) with
        the command that replays each in a browser
        (:func:`meeple.lab.pages.report_extra.add_watch`).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    images = report_plots(summary, results)
    for name, blob in images.items():
        (out_dir / name).write_bytes(blob)
    page = _html(summary, images)
    ladder = read_ladder(out_dir)
    if ladder is not None and ladder.get("game") == summary["game"]:
        plot = ladder_plot(ladder)
        (out_dir / LADDER_PLOT).write_bytes(plot)
        page = page.replace("<h2>Run</h2>", ladder_section(ladder, plot) + "\n<h2>Run</h2>", 1)
    page = add_diagnostics(page, summary, results, out_dir)
    page = add_people(add_imported(page, summary, results), summary)
    page = add_watch(page, results, out_dir)
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def write_ladder(ladder: dict[str, Any], out_dir: Path) -> Path:
    """Write ``ladder.json``, ``ladder.png`` and ``report.html`` into ``out_dir``.

    The report is the playtest report of that directory with the ladder section added when a
    playtest was written there before (``summary.json`` and ``results.jsonl``), else a page
    with the ladder alone. Returns the report's path.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / LADDER_JSON).write_text(json.dumps(ladder, indent=2) + "\n")
    summary_path, results_path = out_dir / "summary.json", out_dir / "results.jsonl"
    if summary_path.exists() and results_path.exists():
        summary = json.loads(summary_path.read_text())
        if summary.get("game") == ladder["game"]:
            results = [json.loads(line) for line in results_path.read_text().splitlines()
                       if line.strip()]
            return write_report(summary, results, out_dir)
    png = ladder_plot(ladder)
    (out_dir / LADDER_PLOT).write_bytes(png)
    title = html.escape(f"{ladder['game']} skill ladder")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{CSS}</style></head>
<body><h1>{title}</h1>
<p class="run">{html.escape(f"{ladder['variant']}, {ladder['players']} players, tiers: "
                            + ', '.join(ladder['tiers']))}</p>
{ladder_section(ladder, png)}
</body></html>
"""
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
