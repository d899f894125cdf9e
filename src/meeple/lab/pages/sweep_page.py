"""The sweep's page: ``sweep.json``, ``sweep.html`` and one plot per metric.

Reads the dict made by :func:`meeple.lab.experiments.sweep.run_sweep`. Each plot puts the first
swept parameter's values on the x axis and draws one line per combination of the others, with the
95% intervals as error bars.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.ticker import PercentFormatter

from meeple.lab.pages.compare_page import _PAGE_CSS, ARM_COLOURS
from meeple.lab.pages.render import INK, html_table, new_figure, p_value, page_head, png
from meeple.lab.pages.report_extra import _img

__all__ = ["metric_names", "write_sweep"]


def metric_names(data: Mapping[str, Any]) -> list[str]:
    """The metrics shown (every point's, in first-seen order), without the per-seat rates."""
    names: dict[str, None] = {}
    for point in data["points"]:
        for name in point["metrics"]:
            if not name.startswith("seat:"):
                names.setdefault(name)
    return list(names)


def _fmt(m: Mapping[str, Any] | None, with_ci: bool = True) -> str:
    if m is None or m["value"] is None:
        return "–"
    v, ci = m["value"], m.get("ci")
    if m["kind"] == "share":
        text = f"{100 * v:.1f}%"
        return text + (f" ({100 * ci[0]:.1f}–{100 * ci[1]:.1f})" if ci and with_ci else "")
    if m["kind"] == "edge":
        text = f"{100 * v:+.1f} pts"
        return text + (f" ({100 * ci[0]:+.1f}..{100 * ci[1]:+.1f})" if ci and with_ci else "")
    return f"{v:.2f}" + (f" ({ci[0]:.2f} .. {ci[1]:.2f})" if ci and with_ci else "")


def _file(name: str) -> str:
    return "sweep_" + re.sub(r"[^A-Za-z0-9_-]+", "_", name) + ".png"


def _series(data: Mapping[str, Any]) -> tuple[list[str], dict[str, list[tuple[int, int]]]]:
    """x labels (the first parameter's values) and, per combination of the other parameters,
    ``[(x position, point index), ...]``."""
    first = data["grid"][0]
    xs = list(first["values"])
    lines: dict[str, list[tuple[int, int]]] = {}
    for i, point in enumerate(data["points"]):
        rest = ", ".join(f"{k}={v}" for k, v in point["settings"].items() if k != first["name"])
        lines.setdefault(rest, []).append((xs.index(point["settings"][first["name"]]), i))
    return xs, lines


def _metric_plot(data: Mapping[str, Any], name: str) -> bytes:
    fig, ax = new_figure()
    fig.set_size_inches(5.6, 3.4)
    xs, lines = _series(data)
    label, kind = name, "mean"
    for j, (rest, where) in enumerate(lines.items()):
        px, py, lo, hi = [], [], [], []
        for x, i in where:
            m = data["points"][i]["metrics"].get(name)
            if m is None or m["value"] is None:
                continue
            label, kind = m["label"], m["kind"]
            px.append(x + 0.04 * (j - (len(lines) - 1) / 2))
            py.append(m["value"])
            ci = m.get("ci") or [m["value"], m["value"]]
            lo.append(max(0.0, m["value"] - ci[0]))
            hi.append(max(0.0, ci[1] - m["value"]))
        colour = ARM_COLOURS[j % len(ARM_COLOURS)]
        ax.errorbar(px, py, yerr=[lo, hi], fmt="-o", color=colour, ecolor=colour, capsize=4,
                    markersize=5, linewidth=1.6, label=rest or None)
    for metric, target in data["targets"].items():
        if metric == name:
            ax.axhline(target, color=INK, linestyle="--", linewidth=1.2,
                       label=f"target {target:g}")
    if kind in ("share", "edge"):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    if kind == "edge":
        ax.axhline(0, color=INK, linewidth=0.8)
    ax.set_xticks(range(len(xs)), xs)
    ax.set_xlabel(data["grid"][0]["name"], color=INK)
    ax.set_title(label, color=INK, fontsize=11)
    if any(lines) or data["targets"].get(name) is not None:
        ax.legend(frameon=False, fontsize=8)
    return png(fig)


def _seat_plot(data: Mapping[str, Any]) -> bytes:
    """Every seat's rate per point (x: the points in order), 95% intervals."""
    fig, ax = new_figure()
    fig.set_size_inches(5.6, 3.4)
    points = data["points"]
    seats: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for i, p in enumerate(points):
        for e in p["seat_win_rate"]:
            seats.setdefault(str(e["name"]), []).append((i, e))
    for j, (seat, entries) in enumerate(seats.items()):
        entries = [(i, e) for i, e in entries if e["rate"] is not None]
        colour = ARM_COLOURS[j % len(ARM_COLOURS)]
        ax.errorbar([i + 0.05 * (j - (len(seats) - 1) / 2) for i, _ in entries],
                    [e["rate"] for _, e in entries],
                    yerr=[[max(0.0, e["rate"] - e["ci_low"]) for _, e in entries],
                          [max(0.0, e["ci_high"] - e["rate"]) for _, e in entries]],
                    fmt="o", color=colour, ecolor=colour, capsize=3, markersize=5, label=seat)
    ax.set_xticks(range(len(points)), [p["label"] for p in points], rotation=20, ha="right",
                  fontsize=8)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(frameon=False, fontsize=8, ncols=2)
    coop = any("survived" in e for p in points for e in p["seat_win_rate"])
    ax.set_title("Survival by seat" if coop else "Sole-win rate by seat (95% CI)", color=INK,
                 fontsize=11)
    return png(fig)


def _ranking_html(data: Mapping[str, Any]) -> str:
    if not data["ranking"]:
        return ""
    e = html.escape
    targets = data["targets"]
    headers = ["rank", "point", "distance",
               *(f"{m} (target {t:g})" for m, t in targets.items())]
    rows = []
    for entry in data["ranking"]:
        point = data["points"][entry["index"]]
        rows.append([entry["rank"], entry["label"],
                     "–" if entry["distance"] is None else f"{entry['distance']:.3f}",
                     *(_fmt(point["metrics"].get(m)) for m in targets)])
    best = data["ranking"][0]
    return f"""<h2>Closest to the targets</h2>
<p class="verdict">Best: {e(best['label'])} (distance {e(rows[0][2])}).</p>
{html_table(headers, rows)}
<p class="note">Distance: the sum over the targets of |value − target| / |target| (for a target
of 0: |value| over the largest |value| of the points). Check the intervals before preferring one
point to the next: close points may not really differ.</p>"""


def sweep_html(data: Mapping[str, Any], images: Mapping[str, bytes],
               captions: Mapping[str, str]) -> str:
    """The whole page (plots inline)."""
    e = html.escape
    names = metric_names(data)
    labels: dict[str, str] = {}
    for p in data["points"]:
        for n in names:
            if n in p["metrics"]:
                labels.setdefault(n, p["metrics"][n]["label"])
    metric_rows = [[p["label"], *(_fmt(p["metrics"].get(n)) for n in names)]
                   for p in data["points"]]
    seat_rows = [[p["label"], " · ".join(
        f"{s['name']} {100 * s['rate']:.1f}% ({100 * s['ci_low']:.1f}–{100 * s['ci_high']:.1f})"
        for s in p["seat_win_rate"] if s["rate"] is not None),
        p_value(p["seat_balance"].get("p_value"))] for p in data["points"]]
    grid = " × ".join(f"{g['name']} ∈ {{{', '.join(g['values'])}}}" for g in data["grid"])
    figures = "".join(_img(name, blob, captions[name]) for name, blob in images.items())
    head = page_head(f"{data['game']} sweep",
                     _PAGE_CSS + "\n.wide { overflow-x: auto; font-size: 0.85rem; }")
    return f"""{head}
<h1>Parameter sweep: {e(data['game'])}</h1>
<p class="run">{e(grid)} · {len(data['points'])} points · bots {e(', '.join(data['bots']))} ·
{data['games']} games per point · seed {data['seed']}</p>
{_ranking_html(data)}
<h2>Metrics per point</h2>
<div class="wide">{html_table(["point", *(labels[n] for n in names)], metric_rows)}</div>
<p class="note">Values with 95% intervals: Wilson for shares, shifted by the fair share for
edges (first-seat advantage, skill edge), Student's t for means; none for the median.</p>
<h2>Seats per point</h2>
{html_table(["point", "rate by seat (95% CI)", "seat balance p"], seat_rows)}
<h2>Plots</h2>
<div class="grid">{figures}</div>
</body>
</html>
"""


def write_sweep(data: Mapping[str, Any], out_dir: Path) -> Path:
    """Write ``sweep.json``, ``sweep.html``, ``sweep_seats.png`` and one ``sweep_METRIC.png``
    per metric into ``out_dir`` (created if missing); returns the page's path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "sweep.json").write_text(json.dumps(data, indent=2) + "\n")
    images: dict[str, bytes] = {"sweep_seats.png": _seat_plot(data)}
    captions = {"sweep_seats.png": "Each seat's rate at every point, with 95% intervals."}
    for name in metric_names(data):
        images[_file(name)] = _metric_plot(data, name)
        captions[_file(name)] = (f"{name} against {data['grid'][0]['name']}; one line per "
                                 "setting of the other parameters; 95% intervals.")
    for name, blob in images.items():
        (out_dir / name).write_bytes(blob)
    path = out_dir / "sweep.html"
    path.write_text(sweep_html(data, images, captions), encoding="utf-8")
    return path
