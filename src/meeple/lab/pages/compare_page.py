"""The comparison's page: ``compare.json`` and a one-page ``compare.html`` with its plots.

Reads the dict made by :func:`meeple.lab.experiments.compare.run_compare`; the page opens with what
changed in length, seat balance and the edge of skill over luck, then the flagged differences, the
plots and the full table.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter
from rich.table import Table

from meeple.lab.pages.render import (
    BLUE,
    CSS,
    GREEN,
    GREY,
    INK,
    ORANGE,
    PURPLE,
    SKY,
    VERMILLION,
    bins,
    html_table,
    new_figure,
    p_value,
    page_head,
    png,
)
from meeple.lab.pages.report_extra import _img

__all__ = ["ARM_COLOURS", "compare_table", "compare_terminal_table", "format_value",
           "write_compare"]

ARM_COLOURS = (BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION)
_PAGE_CSS = CSS + """
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0.6rem; }
.grid figure { margin: 0.3rem 0; }
.flag { font-weight: bold; color: #D55E00; }
td.l, th.l { text-align: left; }
table.key td, table.key th { vertical-align: top; }
table.key td.n { white-space: nowrap; }
table.key tr.hit td:last-child { font-weight: bold; color: #b34700; }
"""


# --------------------------------------------------------------------------- formatting
def _unit(row: Mapping[str, Any]) -> str:
    return f" {row['unit']}" if row.get("unit") else ""


def format_value(row: Mapping[str, Any], entry: Mapping[str, Any] | None) -> str:
    """One arm's value of a table row: ``27.1% (24.4–30.0%)``, ``+3.2 pts (…)``, ``35.24``."""
    if entry is None or entry.get("value") is None:
        return "–"
    v, ci = entry["value"], entry.get("ci")
    if row["kind"] == "share":
        text = f"{100 * v:.1f}%"
        return text + (f" ({100 * ci[0]:.1f}–{100 * ci[1]:.1f}%)" if ci else "")
    if row["kind"] == "edge":
        text = f"{100 * v:+.1f} pts"
        return text + (f" ({100 * ci[0]:+.1f}..{100 * ci[1]:+.1f})" if ci else "")
    return f"{v:.2f}"


def _diff_text(row: Mapping[str, Any], c: Mapping[str, Any]) -> tuple[str, str]:
    """``(difference, its CI)`` cells."""
    d, ci = c.get("difference"), c.get("ci")
    if d is None:
        return "–", "–"
    if row["kind"] in ("share", "edge"):
        return (f"{100 * d:+.1f} pts",
                "–" if ci is None else f"{100 * ci[0]:+.1f} .. {100 * ci[1]:+.1f}")
    return f"{d:+.2f}", "–" if ci is None else f"{ci[0]:+.2f} .. {ci[1]:+.2f}"


def compare_table(data: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the full comparison table (one row per metric)."""
    labels = [a["label"] for a in data["arms"]]
    headers = ["metric", *labels]
    for label in labels[1:]:
        headers += [f"{label} − {labels[0]}", "95% CI", "p", "p (Holm)", "flag"]
    rows = []
    for row in data["rows"]:
        cells = [row["label"], *(format_value(row, v) for v in row["values"])]
        for c in row["comparisons"]:
            d, ci = _diff_text(row, c)
            cells += [d, ci, p_value(c.get("p_value")), p_value(c.get("p_holm")),
                      "yes" if c.get("flag") else ""]
        rows.append(cells)
    return headers, rows


# --------------------------------------------------------------------------------- plots
def _lengths(arm: Mapping[str, Any]) -> np.ndarray:
    """An arm's game lengths, from its ``length_counts``."""
    counts = arm["length_counts"]
    return np.repeat(np.array([float(k) for k in counts]), [int(v) for v in counts.values()])


def _length_plot(data: Mapping[str, Any]) -> bytes:
    lengths = [_lengths(arm) for arm in data["arms"]]
    fig, ax = new_figure()
    fig.set_size_inches(6.0, 3.6)
    everything = np.concatenate([a for a in lengths if a.size]) if lengths else np.array([])
    if everything.size and everything.min() == everything.max():  # a fixed-length game
        ax.text(0.5, 0.5, f"every game of every arm lasts {everything[0]:g} "
                f"{data['arms'][0]['summary']['length']['unit']}", transform=ax.transAxes,
                ha="center", va="center", color=INK, fontsize=11)
        ax.set_xticks([])
        ax.set_yticks([])
    elif everything.size:
        edges = bins(everything)
        for i, (arm, values) in enumerate(zip(data["arms"], lengths, strict=True)):
            colour = ARM_COLOURS[i % len(ARM_COLOURS)]
            weights = np.full(values.size, 1.0 / max(1, values.size))
            ax.hist(values, bins=edges, weights=weights, histtype="stepfilled", alpha=0.3,
                    color=colour)
            ax.hist(values, bins=edges, weights=weights, histtype="step", linewidth=1.8,
                    color=colour, label=f"{arm['label']} (mean {values.mean():.1f})")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.legend(frameon=False, fontsize=8, loc="upper right")
    unit = data["arms"][0]["summary"]["length"]["unit"]
    ax.set_xlabel(f"game length ({unit})", color=INK)
    ax.set_ylabel("share of games", color=INK)
    ax.set_title("Game length", color=INK, fontsize=11)
    return png(fig)


def _seat_plot(data: Mapping[str, Any]) -> bytes:
    """Grouped bars: each seat's sole-win rate (a co-op: survival) per arm, Wilson CIs."""
    fig, ax = new_figure()
    fig.set_size_inches(6.0, 3.6)
    arms = data["arms"]
    names = [str(n) for n in arms[0]["summary"]["seat_names"]]
    width = 0.8 / len(arms)
    for i, arm in enumerate(arms):
        s = arm["summary"]
        listed = s["survival"]["seats"] if "team_win_rate" in s else s["seat_win_rate"]
        entries = {str(e["name"]): e for e in listed}
        xs: list[float] = []
        ys: list[float] = []
        err: list[list[float]] = [[], []]
        for j, name in enumerate(names):
            e = entries.get(name)
            if e is None or e["rate"] is None:
                continue
            xs.append(j - 0.4 + width * (i + 0.5))
            ys.append(e["rate"])
            err[0].append(max(0.0, e["rate"] - e["ci_low"]))
            err[1].append(max(0.0, e["ci_high"] - e["rate"]))
        colour = ARM_COLOURS[i % len(ARM_COLOURS)]
        ax.bar(xs, ys, width=width * 0.95, color=colour, edgecolor=INK, linewidth=0.6,
               yerr=err, capsize=3, error_kw={"ecolor": INK, "elinewidth": 1},
               label=arm["label"])
        if "team_win_rate" not in s:
            ax.hlines(s["fair_share"], -0.45, len(names) - 0.55, colors=colour,
                      linestyles="--", linewidth=1.2)
    ax.set_xticks(range(len(names)), names)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(frameon=False, fontsize=8, ncols=2, loc="upper center")
    top = ax.get_ylim()[1]
    ax.set_ylim(0, top * 1.2)
    coop = "team_win_rate" in arms[0]["summary"]
    ax.set_ylabel("survival rate" if coop else "sole-win rate", color=INK)
    ax.set_title("By seat (95% CI; dashed: fair share)" if not coop else
                 "Survival by seat (95% CI)", color=INK, fontsize=11)
    return png(fig)


def _difference_plot(data: Mapping[str, Any]) -> bytes:
    """Forest plot of every difference against the baseline: shares and edges in percentage
    points (left), means and medians as a change relative to the baseline (right)."""
    fig = Figure(figsize=(12.0, 0.34 * max(6, len(data["rows"])) + 1.4), dpi=100,
                 facecolor="white")
    left, right = fig.subplots(1, 2)
    groups = ((left, ("share", "edge"), "difference (percentage points)"),
              (right, ("mean", "median"), "change relative to the baseline"))
    for ax, kinds, xlabel in groups:
        rows = [r for r in data["rows"] if r["kind"] in kinds]
        labels = []
        for i, row in enumerate(rows):
            labels.append(row["label"])
            base = row["values"][0]
            for j, c in enumerate(row["comparisons"]):
                if c.get("difference") is None:
                    continue
                scale = 100.0
                if row["kind"] in ("mean", "median"):
                    if not base or not base.get("value"):
                        continue
                    scale = 1.0 / abs(base["value"])
                y = i + 0.15 * (j - (len(row["comparisons"]) - 1) / 2)
                d = c["difference"] * scale
                ci = c.get("ci")
                colour = VERMILLION if c.get("flag") else GREY
                marker = "os^Dv"[j % 5]
                if ci is not None:
                    ax.errorbar([d], [y], xerr=[[d - ci[0] * scale], [ci[1] * scale - d]],
                                fmt=marker, color=colour, ecolor=colour, capsize=3,
                                markersize=5)
                else:
                    ax.plot([d], [y], marker, color=colour, markersize=5)
        ax.axvline(0, color=INK, linewidth=1)
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.invert_yaxis()
        ax.grid(axis="x", color="#dddddd", linewidth=0.8)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        if kinds[0] == "mean":
            ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel(xlabel, color=INK, fontsize=9)
    others = ", ".join(a["label"] for a in data["arms"][1:])
    fig.suptitle(f"{others} against {data['arms'][0]['label']}: 95% CIs; vermillion = "
                 "flagged (Holm-adjusted p < 0.05)", color=INK, fontsize=11)
    return png(fig)


# ---------------------------------------------------------------------------------- html
#: The headline's questions and the metrics that answer them, in page order.
HEADLINE = (
    ("Length", ("length", "length_median", "truncated")),
    ("Seat balance", ("first_seat", "draws")),
    ("Skill over luck", ("skill_edge",)),
    ("The team", ("team_win",)),
)


def _short_p(p: float) -> str:
    """A p-value for prose: ``< 1e-6`` below a millionth."""
    return "< 1e-6" if p < 1e-6 else p_value(p)


def _verdict(c: Mapping[str, Any]) -> str:
    if c.get("p_holm") is None:
        return "not tested"
    return (f"real change (Holm p {_short_p(c['p_holm'])})" if c.get("flag") else
            f"no clear change (Holm p {_short_p(c['p_holm'])})")


def _key_rows(data: Mapping[str, Any], j: int) -> list[tuple[str, ...]]:
    """The headline table of arm ``j + 1`` against the baseline: per question its metrics,
    then every other flagged difference."""
    rows = {r["metric"]: r for r in data["rows"]}
    arms = data["arms"]
    out: list[tuple[str, ...]] = []
    shown: set[str] = set()
    for question, metrics in HEADLINE:
        if question == "The team":  # the team win rate, then each loss cause
            metrics = (*metrics, *(m for m in rows if m.startswith("loss:")))
        for metric in metrics:
            row = rows.get(metric)
            if row is None:
                continue
            shown.add(metric)
            c = row["comparisons"][j]
            d, ci = _diff_text(row, c)
            out.append((question, row["label"], format_value(row, row["values"][0]),
                        format_value(row, row["values"][j + 1]), f"{d} ({ci})", _verdict(c)))
        if question == "Seat balance" and "team_win_rate" not in arms[0]["summary"]:
            p0 = arms[0]["summary"]["seat_balance"].get("p_value")
            p1 = arms[j + 1]["summary"]["seat_balance"].get("p_value")
            out.append((question, "seat balance: χ² test of sole wins against equal seats",
                        f"p {p_value(p0)}", f"p {p_value(p1)}", "",
                        "p < 0.05: seats unequal" if min(p for p in (p0, p1) if p is not None)
                        < 0.05 else "both consistent with equal seats"))
            moved = [r["label"].removesuffix(" win rate").removeprefix("seat ")
                     for r in data["rows"] if r["group"] == "seats"
                     and r["metric"].startswith("seat:") and r["comparisons"][j].get("flag")]
            out.append((question, "seats whose win rate really changed", "", "", "",
                        ", ".join(moved) or "none"))
    for row in data["rows"]:
        c = row["comparisons"][j]
        if row["metric"] not in shown and not row["metric"].startswith("seat:") and \
                c.get("flag"):
            d, ci = _diff_text(row, c)
            out.append(("Also changed", row["label"], format_value(row, row["values"][0]),
                        format_value(row, row["values"][j + 1]), f"{d} ({ci})", _verdict(c)))
    return out


def _headline(data: Mapping[str, Any]) -> str:
    e = html.escape
    base_label = data["arms"][0]["label"]
    parts = []
    for j, arm in enumerate(data["arms"][1:]):
        rows = _key_rows(data, j)
        body = []
        previous = None
        for question, *cells in rows:
            head = f'<th class="l">{e(question)}</th>' if question != previous else "<td></td>"
            previous = question
            kinds = ("l", "", "", "n", "l")
            tds = "".join(f'<td class="{kinds[i]}">{e(c)}</td>' if kinds[i] else
                          f"<td>{e(c)}</td>" for i, c in enumerate(cells))
            flag = ' class="hit"' if cells[4].startswith("real") else ""
            body.append(f"<tr{flag}>{head}{tds}</tr>")
        headers = ("", "metric", base_label, arm["label"], "change (95% CI)", "verdict")
        head = "".join(f'<th class="l">{e(h)}</th>' for h in headers)
        parts.append(f"<h2>What {e(arm['label'])} changes against {e(base_label)}</h2>"
                     f'<table class="key"><thead><tr>{head}</tr></thead><tbody>'
                     f"{''.join(body)}</tbody></table>")
    skilled = data.get("skilled_bot")
    note = (f"Skill edge: {skilled}'s sole-win rate per seat it played minus the fair share "
            f"(1 − draw rate) / players; the line-up {', '.join(data['bots'])} rotates over the "
            "seats. A real change: Holm-adjusted p < 0.05 over every test on this page."
            if skilled else "The line-up has a single bot: no skill edge is measured.")
    return "\n".join(parts) + f'\n<p class="note">{e(note)}</p>'


def compare_html(data: Mapping[str, Any], images: Mapping[str, bytes]) -> str:
    """The whole page (plots inline as base64 PNG)."""
    e = html.escape
    arms = data["arms"]
    title = f"{data['game']}: " + " vs ".join(a["label"] for a in arms)
    arm_rows = [(a["label"], a["variant"], a["players"],
                 json.dumps(a["overrides"], sort_keys=True) if a["overrides"] else "–",
                 a["summary"]["games"], f"{a['summary']['elapsed_seconds']:.1f} s")
                for a in arms]
    headers, rows = compare_table(data)
    captions = {
        "compare_length.png": "Game length per arm, each as a share of its games.",
        "compare_seats.png": ("Each seat's survival rate per arm with 95% Wilson intervals."
                              if "team_win_rate" in arms[0]["summary"] else
                              "Each seat's sole-win rate per arm with 95% Wilson intervals; "
                              "dashed lines: each arm's fair share."),
        "compare_differences.png": "Every difference against the baseline with its 95% "
                                   "interval: shares in percentage points, means relative to "
                                   "the baseline's value.",
    }
    grid = "".join(_img(name, images[name], captions[name])
                   for name in ("compare_length.png", "compare_seats.png") if name in images)
    wide = _img("compare_differences.png", images["compare_differences.png"],
                captions["compare_differences.png"]) if "compare_differences.png" in images \
        else ""
    return f"""{page_head(title, _PAGE_CSS)}
<h1>Variant comparison: {e(data['game'])}</h1>
<p class="run">{e(" vs ".join(a["label"] for a in arms))} · bots {e(", ".join(data["bots"]))} ·
{data['games']} games per arm · seed {data['seed']} (the same game seeds in every arm)</p>
{_headline(data)}
<div class="grid">{grid}</div>
{wide}
<h2>Every metric</h2>
{html_table(headers, rows)}
<p class="note">Shares: Newcombe interval of the difference, Fisher exact test. Edges over the
fair share: Newcombe interval shifted by the change in the fair share, Wald z-test. Means: Welch
t-test and interval. Median length: bootstrap interval, Mood's median test.
{e(data['multiple_comparisons'])}; the intervals are unadjusted 95% intervals.</p>
<h2>Arms</h2>
{html_table(("arm", "variant", "players", "overrides", "games", "wall time"), arm_rows)}
</body>
</html>
"""


def write_compare(data: Mapping[str, Any], out_dir: Path) -> Path:
    """Write ``compare.json``, ``compare.html`` and its plots (``compare_length.png``,
    ``compare_seats.png``, ``compare_differences.png``) into ``out_dir`` (created if missing).

    Args:
        data: from :func:`meeple.lab.experiments.compare.run_compare`.
        out_dir: the folder; files of the same names are replaced.
    Returns:
        The path of ``compare.html``.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compare.json").write_text(json.dumps(data, indent=2) + "\n")
    images = {
        "compare_length.png": _length_plot(data),
        "compare_seats.png": _seat_plot(data),
        "compare_differences.png": _difference_plot(data),
    }
    for name, blob in images.items():
        (out_dir / name).write_bytes(blob)
    path = out_dir / "compare.html"
    path.write_text(compare_html(data, images), encoding="utf-8")
    return path


def compare_terminal_table(data: Mapping[str, Any]) -> Table:
    """The comparison for the terminal: per metric each arm's value and, per other arm, the
    change with its 95% interval, marked ``*`` when flagged (Holm-adjusted p < 0.05)."""
    arms = [a["label"] for a in data["arms"]]
    table = Table(title=f"{data['game']}: {' vs '.join(arms)} ({data['games']} games per arm, "
                        f"bots {', '.join(data['bots'])})",
                  caption="* a real change: Holm-adjusted p < 0.05 over every test in the table",
                  title_justify="left", caption_justify="left")
    table.add_column("metric")
    for label in arms:
        table.add_column(label, justify="right")
    for label in arms[1:]:
        table.add_column(f"change ({label}) [95% CI]", justify="right")
    for row in data["rows"]:
        cells = [format_value(row, {"value": v["value"]} if v else None) for v in row["values"]]
        for c in row["comparisons"]:
            d, ci = _diff_text(row, c)
            cells.append(f"{d} [{ci}]{' *' if c.get('flag') else ''}")
        table.add_row(row["label"], *cells)
    return table
