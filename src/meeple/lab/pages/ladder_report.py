"""The ladder's part of the report: a terminal table, a plot and an HTML section.

Everything reads the dict made by :func:`meeple.lab.experiments.ladder.run_ladder`
(``ladder.json``). ``meeple ladder`` writes the ladder's own page; a playtest report written into a
directory that holds a ``ladder.json`` carries the same section (see
:func:`meeple.lab.pages.report.write_report`).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.ticker import PercentFormatter
from rich.table import Table

from meeple.lab.pages.render import BLUE, GREY, INK, html_table, new_figure, pct, png

LADDER_JSON = "ladder.json"
LADDER_PLOT = "ladder.png"


def _rows(ladder: Mapping[str, Any]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Column headers and one row per step, shared by the terminal and the HTML table."""
    if ladder["cooperative"]:
        headers = ("step", "team win (upper)", "team win (lower)", "difference", "95% CI",
                   "pays")
        rows = [(f"{s['upper']} vs {s['lower']}", pct(s["upper_rate"]), pct(s["lower_rate"]),
                 f"{100 * s['difference']:+.1f} pts",
                 f"{100 * s['ci'][0]:+.1f} .. {100 * s['ci'][1]:+.1f}",
                 _pays(s)) for s in ladder["steps"]]
    else:
        headers = ("step", "upper's win share", "95% CI", "fair share", "pays", "truncated")
        rows = [(f"1 × {s['upper']} vs {ladder['players'] - 1} × {s['lower']}",
                 pct(s["upper_share"]), f"{pct(s['ci'][0])} .. {pct(s['ci'][1])}",
                 pct(s["fair_share"]), _pays(s), pct(s["truncated"]))
                for s in ladder["steps"]]
    return headers, rows


def _pays(step: Mapping[str, Any]) -> str:
    """A step's verdict (``yes``, ``no``, ``too few games to tell``; a ladder saved before the
    verdicts has only ``pays``)."""
    return step.get("verdict") or ("yes" if step["pays"] else "no")


def ladder_table(ladder: Mapping[str, Any]) -> Table:
    """The ladder as a rich table, one row per step, with the depth summary as caption."""
    headers, rows = _rows(ladder)
    table = Table(title=f"{ladder['game']} ({ladder['variant']}, {ladder['players']} players): "
                        f"skill ladder, {ladder['games']} games per step",
                  caption=ladder["depth"]["text"])
    for h in headers:
        table.add_column(h)
    for row in rows:
        table.add_row(*row)
    return table


def ladder_plot(ladder: Mapping[str, Any]) -> bytes:
    """PNG: competitive, each step's upper win share with its 95% interval against the fair
    share; cooperative, each tier's team win rate with its interval."""

    fig, ax = new_figure()
    if ladder["cooperative"]:
        labels = list(ladder["team"])
        rates = np.array([ladder["team"][t]["rate"] for t in labels])
        lows = np.array([ladder["team"][t]["ci"][0] for t in labels])
        highs = np.array([ladder["team"][t]["ci"][1] for t in labels])
        colours = [BLUE] * len(labels)
        ax.set_ylabel("team win rate")
    else:
        steps = ladder["steps"]
        labels = [f"{s['upper']}\nvs {s['lower']}" for s in steps]
        rates = np.array([s["upper_share"] for s in steps])
        lows = np.array([s["ci"][0] for s in steps])
        highs = np.array([s["ci"][1] for s in steps])
        colours = [BLUE if s["pays"] else GREY for s in steps]
        fair = steps[0]["fair_share"]
        ax.axhline(fair, color=INK, linestyle="--", linewidth=1.4,
                   label=f"fair share {pct(fair)}")
        ax.set_ylabel("win share of the upper tier's seat")
    x = np.arange(len(labels))
    yerr = np.clip(np.vstack([rates - lows, highs - rates]), 0.0, None)
    ax.bar(x, rates, color=colours, edgecolor=INK, linewidth=0.8, width=0.6, yerr=yerr,
           capsize=6, error_kw={"ecolor": INK, "elinewidth": 1.4}, label="95% Wilson CI")
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(loc="upper left", frameon=False, fontsize=9)
    return png(fig)


def ladder_section(ladder: Mapping[str, Any], png: bytes) -> str:
    """The ladder as an HTML section (heading, depth summary, table, plot)."""

    e = html.escape
    headers, rows = _rows(ladder)
    if ladder["cooperative"]:
        how = ("Each tier plays as the whole team on the same seeds; a step pays when the 95% "
               "interval (Newcombe) of the difference in team win rate lies above zero.")
    else:
        how = ("One seat of the upper tier plays the others of the tier below, rotated over "
               "every seat on the same seeds; a step pays when the lower end of the 95% Wilson "
               "interval of its win share (ties shared) is above the fair share.")
    return f"""<h2>Skill ladder</h2>
<p class="verdict">{e(ladder['depth']['text'])}</p>
{html_table(headers, rows)}
<p class="note">{e(how)} {ladder['games']} games per step, seed {ladder['seed']}.</p>
<figure><img alt="{LADDER_PLOT}" src="data:image/png;base64,{base64.b64encode(png).decode()}">
<figcaption>{e('Win share of each step (blue: pays) with 95% intervals.' if not
              ladder['cooperative'] else 'Team win rate of each tier with 95% intervals.')}
</figcaption></figure>"""


def read_ladder(out_dir: Path) -> dict[str, Any] | None:
    """The ``ladder.json`` in ``out_dir``, or None when there is none."""
    path = Path(out_dir) / LADDER_JSON
    return json.loads(path.read_text()) if path.exists() else None
