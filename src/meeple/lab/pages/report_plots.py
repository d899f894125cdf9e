"""The playtest report's plots: seat and bot win rates, game length, scores, a co-op's loss causes.

Split from :mod:`meeple.lab.pages.report`, which embeds them in ``report.html`` and saves them
next to it. Each plot reads the summary made by :func:`meeple.lab.analysis.stats.summarize` (the
length and score plots also the per-game results) and returns PNG bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.ticker import PercentFormatter

from meeple.lab.analysis.coop_stats import team_result
from meeple.lab.pages.render import (
    BLUE,
    BOT_COLOURS,
    GREY,
    INK,
    SEAT_COLOURS,
    SKY,
    VERMILLION,
    bare_score_name,
    bins,
    new_figure,
    no_data,
    num,
    pct,
    png,
)

#: The PNG files :func:`meeple.lab.pages.report.write_report` saves next to ``report.html``, in
#: page order.
PLOT_FILES = ("seat_win_rate.png", "bot_win_rate.png", "length.png", "scores.png")
#: The extra PNG a cooperative game's report has (placed first on the page).
LOSS_CAUSES_PLOT = "loss_causes.png"


def is_coop(summary: Mapping[str, Any]) -> bool:
    """Whether ``summary`` is a cooperative game's (it has the team statistics)."""
    return "team_win_rate" in summary


def report_plots(summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
                 ) -> dict[str, bytes]:
    """Every plot of the report by file name, in page order (a co-op's loss causes first)."""
    images = {LOSS_CAUSES_PLOT: _loss_causes_plot(summary)} if is_coop(summary) else {}
    images |= {
        "seat_win_rate.png": _seat_plot(summary),
        "bot_win_rate.png": _bot_plot(summary),
        "length.png": _length_plot(summary, results),
        "scores.png": _scores_plot(results, summary["score"].get("name", "score"),
                                   coop=is_coop(summary)),
    }
    return images


# --------------------------------------------------------------------------------- plots
def _rate_bars(ax: Any, labels: Sequence[str], entries: Sequence[Mapping[str, Any]],
               colours: Sequence[str], fair: float, what: str = "sole-win rate",
               reference: str = "fair share") -> None:
    """Bars of ``rate`` (``what``) with Wilson CI error bars, value labels and a dashed line at
    ``fair`` (named ``reference``)."""
    x = np.arange(len(labels))
    rates = np.array([e["rate"] or 0.0 for e in entries])
    lows = np.array([e["ci_low"] if e["ci_low"] is not None else r
                     for e, r in zip(entries, rates, strict=True)])
    highs = np.array([e["ci_high"] if e["ci_high"] is not None else r
                      for e, r in zip(entries, rates, strict=True)])
    yerr = np.clip(np.vstack([rates - lows, highs - rates]), 0.0, None)
    ax.bar(x, rates, color=colours, edgecolor=INK, linewidth=0.8, width=0.6,
           yerr=yerr, capsize=6, error_kw={"ecolor": INK, "elinewidth": 1.4},
           label=f"{what} (95% Wilson CI)")
    ax.axhline(fair, color=INK, linestyle="--", linewidth=1.4,
               label=f"{reference} {pct(fair)}")
    top = max([fair, *highs.tolist()]) if len(highs) else fair
    for xi, high, e in zip(x, highs, entries, strict=True):
        ax.text(xi, high + 0.02 * max(top, 0.05), pct(e["rate"]), ha="center", va="bottom",
                color=INK, fontsize=10, fontweight="bold")
    ax.set_xticks(x, labels)
    ax.set_ylim(0, min(1.0, top) * 1.3 + 0.03)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(loc="upper center", ncols=2, frameon=False, fontsize=9)


def _mean_survival(summary: Mapping[str, Any]) -> float:
    """The share of all (game, seat) pairs that survived: the reference line of the co-op
    seat and bot plots."""
    seats = summary["survival"]["seats"]
    return sum(e["survived"] for e in seats) / max(1, sum(e["games"] for e in seats))


def _seat_plot(summary: Mapping[str, Any]) -> bytes:
    """``seat_win_rate.png``: one bar per seat, CI error bars, fair-share line (a co-op: the
    survival rate per seat against all seats' survival)."""
    fig, ax = new_figure()
    coop = is_coop(summary)
    seats = summary["survival"]["seats"] if coop else summary["seat_win_rate"]
    colours = [SEAT_COLOURS.get(str(e["name"]).lower(), BLUE) for e in seats]
    if coop:
        _rate_bars(ax, [str(e["name"]) for e in seats], seats, colours,
                   _mean_survival(summary), "survival rate", "all seats")
        ax.set_ylabel("survival rate", color=INK)
        ax.set_title(f"Survival by seat — {summary['game']} ({summary['games']} games)",
                     color=INK, fontsize=12)
        return png(fig)
    _rate_bars(ax, [str(e["name"]) for e in seats], seats, colours, summary["fair_share"])
    ax.set_ylabel("sole-win rate", color=INK)
    ax.set_title(f"Win rate by seat — {summary['game']} ({summary['games']} games)",
                 color=INK, fontsize=12)
    return png(fig)


def _bot_plot(summary: Mapping[str, Any]) -> bytes:
    """``bot_win_rate.png``: one bar per bot that played, CI error bars, fair-share line (a
    co-op: the survival rate per bot against all seats' survival)."""
    fig, ax = new_figure()
    coop = is_coop(summary)
    source = summary["survival"]["bots"] if coop else summary["bot_win_rate"]
    played = [(name, e) for name, e in source.items() if e["pairs"] > 0]
    labels = [f"{name}\n({e['pairs']} seats)" for name, e in played]
    colours = [BOT_COLOURS[i % len(BOT_COLOURS)] for i in range(len(played))]
    if coop:
        _rate_bars(ax, labels, [e for _, e in played], colours, _mean_survival(summary),
                   "survival rate", "all seats")
        ax.set_ylabel("survival rate per seat played", color=INK)
        ax.set_title("Survival by bot", color=INK, fontsize=12)
        return png(fig)
    _rate_bars(ax, labels, [e for _, e in played], colours, summary["fair_share"])
    ax.set_ylabel("sole-win rate per seat played", color=INK)
    ax.set_title("Win rate by bot", color=INK, fontsize=12)
    return png(fig)


def _loss_causes_plot(summary: Mapping[str, Any]) -> bytes:
    """``loss_causes.png``: one bar per loss cause that occurred, as a share of all games,
    labelled with the share and the count; truncation in grey."""
    fig, ax = new_figure()
    lost = [(cause, e) for cause, e in summary["loss_causes"].items() if e["count"]]
    if lost:
        x = np.arange(len(lost))
        rates = [e["rate"] for _, e in lost]
        colours = [GREY if cause == "truncation" else VERMILLION for cause, _ in lost]
        ax.bar(x, rates, color=colours, edgecolor=INK, linewidth=0.8, width=0.6)
        top = max(rates)
        for xi, (_, e) in zip(x, lost, strict=True):
            ax.text(xi, e["rate"] + 0.02 * max(top, 0.05), f"{pct(e['rate'])} ({e['count']})",
                    ha="center", va="bottom", color=INK, fontsize=10, fontweight="bold")
        ax.set_xticks(x, [cause for cause, _ in lost])
        ax.set_ylim(0, min(1.0, top) * 1.25 + 0.03)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        no_data(ax, "the team never lost")
    ax.set_ylabel("share of all games", color=INK)
    team = summary["team_win_rate"]
    ax.set_title(f"Loss causes — team wins {pct(team['rate'])} of {team['games']} games",
                 color=INK, fontsize=12)
    return png(fig)


def _length_plot(summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> bytes:
    """``length.png``: histogram of game length with the mean and median (over all games)
    marked. Truncated games sit at the length cap, often far from the rest, so when some games
    finished they are left out of the bars and counted in the legend instead."""
    fig, ax = new_figure()
    unit = summary["length"]["unit"]
    finished = np.array([float(r["length"]) for r in results if not r["truncated"]])
    n_truncated = sum(1 for r in results if r["truncated"])
    shown = finished if finished.size else np.array([float(r["length"]) for r in results])
    if shown.size:
        label = "finished games" if finished.size else "games (all truncated)"
        ax.hist(shown, bins=bins(shown), color=SKY, edgecolor=INK, linewidth=0.6,
                label=label)
        mean, median = summary["length"]["mean"], summary["length"]["median"]
        ax.axvline(mean, color=VERMILLION, linestyle="--", linewidth=2,
                   label=f"mean {num(mean, 1)} (all games)")
        ax.axvline(median, color=INK, linestyle=":", linewidth=2,
                   label=f"median {num(median, 1)} (all games)")
        if n_truncated and finished.size:
            cap = max(int(r["length"]) for r in results if r["truncated"])
            ax.plot([], [], " ", label=f"{n_truncated} truncated at {cap} {unit}: not shown")
        ax.legend(loc="upper right", frameon=False, fontsize=9)
    else:
        no_data(ax, "no games")
    ax.set_xlabel(f"game length ({unit})", color=INK)
    ax.set_ylabel("games", color=INK)
    truncated = summary["truncated_rate"]
    ax.set_title(f"Game length ({pct(truncated)} truncated at the cap)", color=INK,
                 fontsize=12)
    return png(fig)


def _scores_plot(results: Sequence[Mapping[str, Any]], name: str = "score",
                 coop: bool = False) -> bytes:
    """``scores.png``: final score distribution of sole winners vs all other seats (a co-op:
    seats of games the team won vs lost), each as a share of its own group so the two shapes
    compare."""
    fig, ax = new_figure()
    winners: list[float] = []
    others: list[float] = []
    for r in results:
        if coop:
            won = team_result(r)[0]
            (winners if won else others).extend(float(score) for score in r["scores"])
            continue
        sole = r["winners"][0] if len(r["winners"]) == 1 else None
        for seat, score in enumerate(r["scores"]):
            (winners if seat == sole else others).append(float(score))
    everything = np.array(winners + others)
    if everything.size:
        edges = bins(everything)
        groups = ([(others, GREY, "team lost"), (winners, BLUE, "team won")] if coop else
                  [(others, GREY, "other seats"), (winners, BLUE, "sole winners")])
        for values, colour, label in groups:
            if values:
                weights = np.full(len(values), 1.0 / len(values))
                ax.hist(values, bins=edges, weights=weights, color=colour, alpha=0.55,
                        edgecolor=colour, linewidth=0.8, label=f"{label} (n={len(values)})")
                ax.hist(values, bins=edges, weights=weights, histtype="step", color=colour,
                        linewidth=1.6)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.legend(loc="upper right", frameon=False, fontsize=9)
    else:
        no_data(ax, "no scores")
    ax.set_xlabel(f"final {bare_score_name(name)}", color=INK)
    ax.set_ylabel("share of the group", color=INK)
    ax.set_title("Final scores: team won vs lost" if coop else
                 "Final scores: winners vs others", color=INK, fontsize=12)
    return png(fig)
