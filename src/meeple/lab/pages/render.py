"""Shared pieces of the lab's pages: the palette, number formatting, figure helpers, the HTML
table and the page style sheet.

Used by the playtest report (:mod:`meeple.lab.pages.report`), its diagnostics sections, the compare,
sweep and ladder pages, so that every page draws and formats the same way. Plots are drawn on
:class:`matplotlib.figure.Figure` objects directly (no pyplot, so no GUI backend and no global
figure registry) and rendered to PNG with the Agg renderer.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

__all__ = ["BLUE", "BOT_COLOURS", "CSS", "GREEN", "GREY", "INK", "ORANGE", "PURPLE",
           "SEAT_COLOURS", "SKY", "VERMILLION", "bins", "ci_range", "html_table", "new_figure",
           "no_data", "num", "p_value", "pct", "png", "signed_pts"]

# Okabe-Ito colour-blind-safe palette; text and reference lines in near-black.
INK = "#1a1a1a"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
GREEN = "#009E73"
ORANGE = "#E69F00"
SKY = "#56B4E9"
PURPLE = "#CC79A7"
GREY = "#7f7f7f"
SEAT_COLOURS = {"red": VERMILLION, "blue": BLUE, "green": GREEN, "orange": ORANGE,
                 "yellow": "#F0E442", "purple": PURPLE, "pink": PURPLE, "black": "#3b3b3b",
                 "white": "#d9d9d9", "sky": SKY, "cyan": SKY}
BOT_COLOURS = (BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION)


# -------------------------------------------------------------------------- formatting
def pct(share: float | None, digits: int = 1) -> str:
    """``0.271`` -> ``"27.1%"``; ``None`` -> ``"–"``."""
    return "–" if share is None else f"{100.0 * share:.{digits}f}%"


def signed_pts(share: float | None) -> str:
    """An edge in percentage points with its sign: ``0.17`` -> ``"+17.0 pts"``."""
    return "–" if share is None else f"{100.0 * share:+.1f} pts"


def ci_range(low: float | None, high: float | None) -> str:
    """``(0.244, 0.3)`` -> ``"24.4–30.0%"``."""
    if low is None or high is None:
        return "–"
    return f"{100.0 * low:.1f}–{100.0 * high:.1f}%"


def p_value(p: float | None) -> str:
    """A p-value: three significant digits, scientific below 0.001."""
    if p is None:
        return "–"
    return f"{p:.3g}" if p >= 1e-3 else f"{p:.1e}"


def num(x: float | None, digits: int = 2) -> str:
    """A number with at most ``digits`` decimals (integers stay bare)."""
    if x is None:
        return "–"
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.{digits}f}"


# ----------------------------------------------------------------------------- figures
def new_figure() -> tuple[Figure, Any]:
    """A white 7.5 x 4.2 inch figure with one axes styled for reading."""
    fig = Figure(figsize=(7.5, 4.2), dpi=110, facecolor="white")
    ax = fig.add_subplot()
    ax.set_facecolor("white")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.tick_params(colors=INK, labelsize=10)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    return fig, ax


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (Agg renderer); the figure is cleared afterwards."""
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", facecolor="white")
    fig.clear()
    return buffer.getvalue()


def bins(values: np.ndarray, max_bins: int = 60) -> np.ndarray:
    """Histogram edges: one bin per integer for small integer ranges, else numpy's "auto"
    (at most ``max_bins`` bins)."""
    lo, hi = float(values.min()), float(values.max())
    if np.all(values == np.round(values)) and hi - lo <= max_bins:
        return np.arange(lo - 0.5, hi + 1.5, 1.0)
    edges = np.histogram_bin_edges(values, bins="auto")
    if len(edges) - 1 > max_bins:
        edges = np.histogram_bin_edges(values, bins=max_bins)
    return edges


def no_data(ax: Any, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color=INK)


# -------------------------------------------------------------------------------- html
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       background: #ffffff; max-width: 980px; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 2px solid #0072B2; }
.run { color: #333333; margin-top: 0; }
.verdict { border-left: 6px solid #0072B2; background: #eef5fb; padding: 0.8rem 1rem;
           font-size: 1.05rem; }
.verdict.no { border-left-color: #7f7f7f; background: #f3f3f3; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid #c8c8c8; padding: 0.3rem 0.7rem; text-align: right; }
td.short { white-space: nowrap; }
td.token { overflow-wrap: anywhere; }
th { background: #f0f0f0; }
td:first-child, th:first-child { text-align: left; }
.note { color: #333333; font-size: 0.92rem; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #e0e0e0; }
figcaption { color: #333333; font-size: 0.92rem; }
code { background: #f3f3f3; padding: 0 0.2rem; }
"""


#: Cells of at most this many characters never wrap (numbers, intervals: "0.9" must not
#: break into "0." and "9" when a wide table squeezes its columns).
SHORT_CELL = 16
#: A cell holding a run of more characters than this without a space may break anywhere (a
#: long bot name must not push the table off the page).
LONG_TOKEN = 30


def html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """An HTML table; every cell is escaped; a cell of at most :data:`SHORT_CELL` characters
    does not wrap, one with a token longer than :data:`LONG_TOKEN` may break anywhere (it
    must not push the table off the page)."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)

    def cell(c: Any) -> str:
        text = str(c)
        if len(text) <= SHORT_CELL:
            kind = ' class="short"'
        elif max(map(len, text.split()), default=0) > LONG_TOKEN:
            kind = ' class="token"'
        else:
            kind = ""
        return f"<td{kind}>{html.escape(text)}</td>"

    body = "".join("<tr>" + "".join(cell(c) for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def bare_score_name(name: str) -> str:
    """A score's name without a leading "final" (the labels add their own: "final energy",
    not "final final energy")."""
    words = name.split(" ", 1)
    return words[1] if len(words) == 2 and words[0].lower() == "final" else name


def score_name(summary: Any) -> str:
    """The summary's score name without a leading "final" (:func:`bare_score_name`)."""
    return bare_score_name(summary["score"].get("name", "score"))


def page_head(title: str, css: str) -> str:
    """The start of a lab page up to and including ``<body>``: doctype, UTF-8, a phone-ready
    viewport, the escaped ``title`` and ``css`` inline (the pages are self-contained)."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{css}</style>
</head>
<body>"""
