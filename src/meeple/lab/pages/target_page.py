"""The target search's page (``meeple study --target``): the confirmed settings with every
clause's value, 95% interval and verdict, the closest trials, and a plot of each trial's
distance to the target (``target_trials.png``, written next to the page).

Renders :func:`meeple.lab.experiments.target.search_target`'s dict; plays nothing.
:func:`target_section_html` is the section alone (for a study page), :func:`target_page_html`
a whole page, :func:`write_target` writes ``target.json``, the plot and ``target.html``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.ticker import MaxNLocator

from meeple.lab.analysis.target_metrics import METRICS
from meeple.lab.pages.render import (
    BLUE,
    CSS,
    GREEN,
    GREY,
    INK,
    html_table,
    new_figure,
    page_head,
    png,
)

__all__ = ["TARGET_HTML", "TARGET_JSON", "TRIALS_PNG", "target_page_html",
           "target_section_html", "trials_plot", "write_target"]

TARGET_JSON = "target.json"
TARGET_HTML = "target.html"
TRIALS_PNG = "target_trials.png"
#: Trials listed in the page's table (the closest first).
TRIAL_ROWS = 10


def trials_plot(section: Mapping[str, Any]) -> bytes:
    """PNG: each scored trial's distance to the target against its number (green: met the
    target; grey: cut short), with the best distance so far as a line; symmetric-log y axis
    (linear below 0.1), since a stalled setting can be a hundred times further than the rest."""
    fig, ax = new_figure()
    trials = [t for t in section["trials"] if t.get("distance") is not None]
    if not trials:
        ax.text(0.5, 0.5, "no scored trial", ha="center", va="center", transform=ax.transAxes,
                color=INK)
        return png(fig)
    colours = [GREEN if t["met"] else GREY if t.get("cut") else BLUE for t in trials]
    ax.scatter([t["number"] for t in trials], [t["distance"] for t in trials], c=colours,
               s=22, zorder=3)
    best, line = float("inf"), []
    for t in trials:
        best = min(best, t["distance"])
        line.append(best)
    ax.step([t["number"] for t in trials], line, where="post", color=INK, linewidth=1.2,
            label="best so far")
    ax.set_yscale("symlog", linthresh=0.1)
    ax.set_ylim(bottom=-0.005)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("trial", color=INK)
    ax.set_ylabel("distance to the target (0 = met)", color=INK)
    ax.set_title(f"{section['game']}: {section['target']}", color=INK, fontsize=11)
    ax.legend(frameon=False, fontsize=8)
    return png(fig)


def _value(c: Mapping[str, Any], share: bool) -> str:
    if c.get("value") is None:
        return "–"

    def f(x: float) -> str:
        return f"{x:.3f}" if share else f"{x:.1f}"

    ci = c.get("interval")
    return f(c["value"]) + (f" ({f(ci[0])} to {f(ci[1])})" if ci else "")


def _is_share(metric: str) -> bool:
    return bool(METRICS.get(metric, {}).get("share"))


def _space_text(d: Mapping[str, Any]) -> str:
    if d["kind"] == "int":
        return f"{d['name']} {d['low']}..{d['high']}"
    values = "true/false" if d["kind"] == "bool" else "/".join(map(str, d["choices"]))
    return f"{d['name']} {values}"


def _dir_cell(key: str, out_dir: Path | None) -> str:
    if out_dir is not None and (out_dir / key / "report.html").is_file():
        return f'<a href="{html.escape(key)}/report.html">{html.escape(key)}</a>'
    where = str(out_dir / key) if out_dir is not None else key
    return f"<code>meeple report {html.escape(where)}</code>"


def target_section_html(section: Mapping[str, Any], image: str | None = None,
                        out_dir: Path | None = None) -> str:
    """The section's HTML (no page head): the verdicts, the confirmed settings' table (one
    column per clause: value, 95% interval, verdict), the closest trials and, when ``image``
    (a file name next to the page) is given, the trials plot. ``out_dir``: the folder the run
    folders are in (a link to a run's ``report.html`` where one was written)."""
    e = html.escape
    clauses = section["clauses"]
    out = []
    verdicts = "".join(f'<p class="verdict{"" if x["met"] else " no"}">{e(x["verdict"])}</p>'
                       for x in section["entries"])
    out.append(verdicts or '<p class="verdict no">No setting was confirmed.</p>')
    default = section.get("default")
    if default:
        values = ", ".join(f"{m} {_value({'value': default['metrics'].get(m)}, _is_share(m))}"
                           for m in dict.fromkeys(c["metric"] for c in clauses))
        verdict = "meets the target" if default["met"] else \
            f"distance {default['distance']:.3f}" if default["distance"] is not None else ""
        out.append(f'<p class="note">The {e(section["variant"])} rules as they are (trial 0, '
                   f'{default["games"]} games): {e(values)}; {e(verdict)}.</p>')
    if section["confirmed"]:
        head = ["setting", "games",
                *(c["text"] + (" (guard)" if c["guard"] else "") for c in clauses), "run"]
        rows = []
        for item in section["confirmed"]:
            cells = [f"{_value(c, _is_share(c['metric']))}: {c['verdict']}"
                     for c in item["clauses"]]
            rows.append([item["label"], f"{item['games']:,}", *cells, item["dir"]])
        out.append(html_table(head, rows))
        links = ", ".join(_dir_cell(item["dir"], out_dir) for item in section["confirmed"])
        out.append(f'<p class="note">runs: {links}</p>')
        methods = {c["metric"]: c.get("method") for item in section["confirmed"]
                   for c in item["clauses"] if c.get("method")}
        out.append('<p class="note">Values with their 95% intervals (' + "; ".join(
            f"{e(m)}: {e(k)}" for m, k in methods.items()) + "). A clause is met when its "
            "interval lies inside its range, not met when it lies outside, else there are "
            "too few games to tell. A guard (added unless the target names its metric: no "
            "more than 5% of games hit the length cap; with a seat metric, no more than half "
            "the games without a sole winner) only rules out settings shown to break it.</p>")
    scored = sorted((t for t in section["trials"] if t.get("distance") is not None),
                    key=lambda t: (t["distance"], t["number"]))
    metrics = list(dict.fromkeys(c["metric"] for c in clauses))
    rows = [[t["number"], t["label"], f"{t['distance']:.3f}",
             *(_value({"value": t["metrics"].get(m)}, _is_share(m)) for m in metrics),
             f"{t['games']}{' (cut short)' if t.get('cut') else ''}"]
            for t in scored[:TRIAL_ROWS]]
    met = sum(1 for t in scored if t["met"])
    out.append(f"<h3>Closest trials ({met} of {len(section['trials'])} trials met the target, "
               f"{section['trial_games']} games each, same seeds)</h3>")
    out.append(html_table(["trial", "setting", "distance", *metrics, "games"], rows))
    space = ", ".join(_space_text(d) for d in section["space"])
    out.append(f'<p class="note">Searched (optuna TPE, seed {section["seed"]}): {e(space)}. '
               "Distance: per clause, how far outside its range the value is, over the "
               "range's width (or its bound's size); summed over the clauses.</p>")
    if image:
        out.append(f'<figure><img alt="distance per trial" src="{e(image)}"><figcaption>'
                   "Each trial's distance to the target (green: met; grey: cut short), and "
                   "the best so far.</figcaption></figure>")
    notes = "".join(f"<li>{e(n)}</li>" for n in section.get("notes", []))
    if notes:
        out.append(f'<ul class="note">{notes}</ul>')
    return "\n".join(out)


def target_page_html(section: Mapping[str, Any], image: str | None = None,
                     out_dir: Path | None = None) -> str:
    """A whole self-contained page for the section (see :func:`target_section_html`)."""
    e = html.escape
    head = page_head(f"Target: {section['game']}",
                     CSS + " td { text-align: left; } h3 { font-size: 1.05rem; }")
    return f"""{head}
<h1>Toward a target: {e(section['game'])} ({e(section['variant'])})</h1>
<p class="run">target <code>{e(section['target'])}</code> · {section['players']} players ·
bots {e(', '.join(section['bots']))} · {len(section['trials'])} trials in
{section['search_seconds']:.0f} s · budget {section['budget']:.0f} s · seed {section['seed']}</p>
{target_section_html(section, image, out_dir)}
</body>
</html>
"""


def write_target(section: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``target.json``, ``target_trials.png`` and ``target.html`` into ``out_dir``
    (created; the confirmation runs' folders are expected in it). Returns the page's path.
    Raises: OSError when the folder cannot be written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / TARGET_JSON).write_text(json.dumps(section, indent=2) + "\n")
    (out / TRIALS_PNG).write_bytes(trials_plot(section))
    path = out / TARGET_HTML
    path.write_text(target_page_html(section, TRIALS_PNG, out), encoding="utf-8")
    return path
