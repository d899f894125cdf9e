"""The playtest report's designer sections: the summary's ``diagnostics`` as HTML and plots.

:func:`add_diagnostics` is called by :func:`meeple.lab.pages.report.write_report`; it reads
``summary["diagnostics"]`` (made by :func:`meeple.lab.analysis.diagnostics.diagnose`) and, for the
margin histogram, the per-game results. Nothing is recomputed that the summary states.
"""

from __future__ import annotations

import base64
import html
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.ticker import MaxNLocator, PercentFormatter

from meeple.lab.analysis.diagnostics import margins
from meeple.lab.pages.render import (
    BLUE,
    GREY,
    INK,
    ORANGE,
    SKY,
    VERMILLION,
    bins,
    ci_range,
    html_table,
    new_figure,
    no_data,
    num,
    p_value,
    pct,
    png,
    score_name,
    signed_pts,
)

__all__ = ["DIAGNOSTIC_PLOTS", "IMPORTED_ROWS", "KEY_ROWS", "add_diagnostics", "add_imported",
           "diagnostics_html", "diagnostics_plots"]

#: The PNG files :func:`add_diagnostics` may save (only those with data are made).
DIAGNOSTIC_PLOTS = ("margin.png", "lead_changes.png", "eliminations.png", "cards.png",
                    "actions.png")
#: Most rows of a card or action table (every flagged key is listed in addition).
KEY_ROWS = 25
#: Most games listed in an imported run's "Imported games" table (run.json lists them all).
IMPORTED_ROWS = 100
_SECTION_CSS = """
.diag td:last-child { text-align: left; }
.diag.keys table { font-size: 0.85rem; }
.diag.keys td { white-space: nowrap; }
"""


def _rate_text(entry: Mapping[str, Any] | None) -> tuple[str, str, str]:
    """``(rate, CI, k/n)`` cells of a :func:`meeple.lab.analysis.diagnostics.rate` dict."""
    if not entry or entry.get("rate") is None:
        return "–", "–", "–"
    return (pct(entry["rate"]), ci_range(entry["ci_low"], entry["ci_high"]),
            f"{entry['k']}/{entry['n']}")


def _img(name: str, data: bytes, caption: str) -> str:
    return (f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,'
            f'{base64.b64encode(data).decode("ascii")}"><figcaption>{html.escape(caption)}'
            "</figcaption></figure>")


# --------------------------------------------------------------------------------- plots
def _margin_plot(results: Sequence[Mapping[str, Any]], score_name: str) -> bytes:
    fig, ax = new_figure()
    values = np.array(margins(results))
    if values.size:
        ax.hist(values, bins=bins(values), color=SKY, edgecolor=INK, linewidth=0.6)
        ax.axvline(float(np.mean(values)), color=VERMILLION, linestyle="--", linewidth=2,
                   label=f"mean {num(float(np.mean(values)), 1)}")
        ax.axvline(float(np.median(values)), color=INK, linestyle=":", linewidth=2,
                   label=f"median {num(float(np.median(values)), 1)}")
        ax.legend(loc="upper right", frameon=False, fontsize=9)
    else:
        no_data(ax, "no game had a sole winner")
    ax.set_xlabel(f"winner's {score_name} minus the best other seat's (never negative)",
                  color=INK)
    ax.set_ylabel("games", color=INK)
    ax.set_title(f"Winning margin ({values.size} sole-win games)", color=INK, fontsize=12)
    return png(fig)


def _lead_plot(lead: Mapping[str, Any]) -> bytes:
    fig, ax = new_figure()
    dist = {int(k): v for k, v in lead["distribution"].items()}
    xs = np.arange(0, max(dist) + 1)
    total = sum(dist.values())
    ax.bar(xs, [dist.get(int(x), 0) / total for x in xs], color=BLUE, edgecolor=INK,
           linewidth=0.6, width=0.8)
    ax.axvline(lead["mean"], color=VERMILLION, linestyle="--", linewidth=2,
               label=f"mean {num(lead['mean'], 2)}")
    ax.legend(loc="upper right", frameon=False, fontsize=9)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no tick at 2.5
    ax.set_xlabel("lead changes in a game", color=INK)
    ax.set_ylabel("share of games", color=INK)
    ax.set_title("Lead changes per game (leader by score, sampled every round or turn)",
                 color=INK, fontsize=12)
    return png(fig)


def _elimination_plot(elim: Mapping[str, Any], unit: str) -> bytes:
    fig, ax = new_figure()
    order = elim["order"]
    colours = (VERMILLION, ORANGE, BLUE, SKY, GREY)
    for i, entry in enumerate(order):
        d = entry["length"]
        ax.errorbar([d["median"]], [i], xerr=[[d["median"] - d["p10"]], [d["p90"] - d["median"]]],
                    fmt="o", color=colours[i % len(colours)], ecolor=colours[i % len(colours)],
                    capsize=6, markersize=8, linewidth=2)
        ax.text(d["median"], i + 0.18, f"mean {num(d['mean'], 1)} ({entry['games']} games)",
                color=INK, fontsize=9, va="bottom", ha="center")  # inside the axes
    ax.set_yticks(range(len(order)),
                  [f"{_ordinal(e['position'])} elimination" for e in order])
    ax.set_ylim(len(order) - 0.4, -0.6)  # room for each label below its point, top first
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_xlabel(f"{unit.rstrip('s')} of the elimination: median, whiskers p10-p90",
                  color=INK)
    ax.set_title("When seats are eliminated", color=INK, fontsize=12)
    return png(fig)


def _ordinal(n: int) -> str:
    return f"{n}{'tsnrhtdd'[(n // 10 % 10 != 1) * (n % 10 < 4) * n % 10::4]}"


def _key_plot(section: Mapping[str, Any], what: str) -> bytes:
    """Forest plot of the difference in win rate (played minus not) with its CI, for the most
    played keys that have one and every outlier; the typical difference dashed, outliers in
    vermillion (stronger) or sky blue (weaker)."""
    fig, ax = new_figure()
    rows = [r for r in section["keys"] if r["difference"] is not None][:20]
    rows += [r for r in section["keys"] if r["outlier"] and r not in rows][:15]
    if rows:
        fig.set_size_inches(7.5, max(3.0, 0.28 * len(rows) + 1.2))
        colours = {"stronger than most": VERMILLION, "weaker than most": SKY}
        for i, r in enumerate(rows):
            low, high = r["difference_ci"]
            colour = colours.get(r["outlier"] or "", GREY)
            ax.errorbar([r["difference"]], [i], xerr=[[r["difference"] - low],
                                                      [high - r["difference"]]],
                        fmt="o", color=colour, ecolor=colour, capsize=3, markersize=5)
        ax.axvline(0, color=INK, linewidth=1)
        typical = section.get("typical_difference")
        if typical is not None:
            ax.axvline(typical, color=BLUE, linestyle="--", linewidth=1.2,
                       label=f"typical {what} {signed_pts(typical)}")
            ax.legend(loc="lower right", frameon=False, fontsize=8)
        ax.set_yticks(range(len(rows)), [str(r["key"]) for r in rows], fontsize=8)
        ax.invert_yaxis()
        ax.grid(axis="x", color="#dddddd", linewidth=0.8)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        no_data(ax, f"every unit played every {what}: nothing to compare")
    ax.set_xlabel("win rate when played minus when not (95% CI); vermillion: stronger than "
                  "most, sky: weaker", color=INK)
    ax.set_title(f"Win rate by {what} played", color=INK, fontsize=12)
    return png(fig)


def diagnostics_plots(summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
                      ) -> dict[str, bytes]:
    """The diagnostics' PNG plots by file name (a subset of :data:`DIAGNOSTIC_PLOTS`, in that
    order: only those with data)."""
    d = summary.get("diagnostics") or {}
    images: dict[str, bytes] = {}
    if d.get("margin"):
        images["margin.png"] = _margin_plot(results, summary["score"].get("name", "score"))
    if d.get("lead_changes"):
        images["lead_changes.png"] = _lead_plot(d["lead_changes"])
    if d.get("eliminations"):
        images["eliminations.png"] = _elimination_plot(d["eliminations"],
                                                       summary["length"]["unit"])
    for field, what in (("cards", "card"), ("actions", "action")):
        if d.get(field):
            images[f"{field}.png"] = _key_plot(d[field], what)
    return images


# ---------------------------------------------------------------------------------- html
def _key_rows(section: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    rows = section["keys"][:KEY_ROWS]
    rows += [r for r in section["keys"][KEY_ROWS:] if r["flag"]]
    rows += [r for r in section["keys"][KEY_ROWS:] if r["outlier"] and r not in rows]
    out = []
    for r in rows:
        diff = r["difference"]
        ci = r["difference_ci"]
        out.append((r["key"], r["times"], r["games"], pct(r["play_rate"]), pct(r["win_rate"]),
                    ci_range(r["ci_low"], r["ci_high"]), pct(r["rest_win_rate"]),
                    signed_pts(diff),
                    "–" if ci is None else f"{100 * ci[0]:+.1f} .. {100 * ci[1]:+.1f}",
                    p_value(r["p_holm"]),
                    r["flag"] or ("" if r.get("comparable", True) else "no comparison"),
                    r["outlier"] or ""))
    return out


def _key_section(section: Mapping[str, Any], what: str, plural: str) -> str:
    e = html.escape
    flagged, outliers = section["flagged"], section["outliers"]
    unit = "game" if section["unit"] == "game" else "seat in a game"
    shown = min(len(section["keys"]), KEY_ROWS)
    rows = {r["key"]: r for r in section["keys"]}
    typical = section.get("typical_difference")
    parts = []
    for label in ("stronger than most", "weaker than most"):
        keys = [k for k in outliers if rows[k]["outlier"] == label]
        if keys:
            parts.append(f"{label}: " + ", ".join(
                f"{k} ({signed_pts(rows[k]['difference'])})" for k in keys))
    lead = (f"{len(flagged)} of {len(rows)} {plural} go with winning or losing at the 5% level "
            "(Holm-adjusted). ")
    if typical is None:
        lead += f"Too few {plural} to tell a typical one."
    else:
        lead += (f"Against the typical {what} ({signed_pts(typical)}): "
                 + ("; ".join(parts) if parts else f"no {what} stands out") + ".")
    stratified = "Mantel-Haenszel" in section["method"]
    return f"""<h3>Per {what}</h3>
<p class="verdict{'' if outliers else ' no'}">{e(lead)}</p>
<div class="diag keys">{html_table((what, "times", "games", "play rate", "win rate when played",
                                "95% CI", "win rate when not",
                                "difference" + (" within bots" if stratified else ""),
                                "95% CI (pts)", "p (Holm)", "flag", "stands out"),
                               _key_rows(section))}</div>
<p class="note">{len(section['keys'])} {plural}; the {shown} most played are listed (and any other
flagged or standing out). "Flag": the difference is not zero at the 5% level (p Holm-adjusted
over the table below 5%); "wins more": the units that played it won more often than the
rest, "wins less": less often; "no comparison": played by over 95% or under 5% of the units
(or by fewer than 10 on one side), where the few on one side are another kind of game (a seat
out at once, a very short game) rather than a test of the {e(what)}. "Stands out": the
difference differs from the typical {e(what)}'s (Holm-adjusted z-test at 5%). A unit is one
{e(unit)}; it played the {e(what)} if it did so at least once. Method:
{e(section['method'])}. An association, not an effect: {e(_article(what))} played by seats already
ahead, or one that scores, looks strong.</p>"""


def diagnostics_html(summary: Mapping[str, Any], images: Mapping[str, bytes]) -> str:
    """The "Designer's diagnostics" section of the report page (an HTML fragment, plots
    inline); ``""`` when the summary has no diagnostics."""
    d = summary.get("diagnostics")
    if not d:
        return ""
    unit = summary["length"]["unit"]
    rows: list[tuple[Any, ...]] = []
    fs = d.get("first_seat")
    if fs:
        rows.append((f"first-seat ({fs['name']}) sole-win rate", pct(fs["rate"]),
                     ci_range(fs["ci_low"], fs["ci_high"]),
                     f"fair share {pct(fs['fair_share'])}; advantage "
                     f"{signed_pts(fs['advantage'])} (95% CI {signed_pts(fs['advantage_ci'][0])}"
                     f" .. {signed_pts(fs['advantage_ci'][1])}), "
                     f"binomial p {p_value(fs['p_value'])}"))
    if d.get("draws"):
        r, ci, kn = _rate_text(d["draws"])
        rows.append(("draw rate (no sole winner)", r, ci, f"{kn} games"))
    r, ci, kn = _rate_text(d["truncation"])
    rows.append(("truncation rate (hit the length cap)", r, ci, f"{kn} games"))
    m = d.get("margin")
    if m:
        rows.append((f"winning margin ({summary['score'].get('name', 'score')})",
                     num(m["mean"], 2), "",
                     f"mean; median {num(m['median'], 1)}, p10 {num(m['p10'], 1)}, p90 "
                     f"{num(m['p90'], 1)}, over {m['n']} sole-win games"))
    lead = d.get("lead_changes")
    if lead:
        r, ci, kn = _rate_text(lead["share_with_change"])
        rows.append(("lead changes per game", num(lead["mean"], 2), "",
                     f"mean; median {num(lead['median'], 1)}, p90 {num(lead['p90'], 1)}; "
                     f"{r} of games (95% CI {ci}) have at least one"))
    parts = [f"""<style>{_SECTION_CSS}</style>
<h2>Designer's diagnostics</h2>
<div class="diag">{html_table(("", "value", "95% CI", "detail"), rows)}</div>"""]
    if not d["traced"]:
        parts.append('<p class="note">These results carry no per-game trace (lead changes, '
                     "eliminations, cards and actions played): re-run the playtest to get "
                     "them.</p>")
    elim = d.get("eliminations")
    if elim:
        parts.append(_elimination_html(elim, summary, unit))
    if d.get("cards"):
        parts.append(_key_section(d["cards"], "card", "cards"))
    if d.get("actions"):
        parts.append(_key_section(d["actions"], "action", "action keys"))
    captions = {
        "margin.png": "Winning margin of every game with a sole winner: the winner's score "
                      "minus the best score of the seats still in the game when it was "
                      "decided (0 when the rules ranked the winner by something else).",
        "lead_changes.png": "Lead changes per game: the leader is the seat with the strictly "
                            "highest score, sampled after every round or turn; ties do not "
                            "end a lead.",
        "eliminations.png": f"The {unit.rstrip('s')} of the first, second... elimination (seats "
                            "knocked out together count once, as one elimination).",
        "cards.png": "Difference in win rate between units that played a card and those that "
                     "did not, with 95% intervals; dashed: the typical card's; cards that "
                     "stand out from it in colour.",
        "actions.png": "The same for every action key (an action kind, or a card game's card "
                       "play).",
    }
    figures = "".join(_img(name, data, captions[name]) for name, data in images.items())
    parts.append(figures)
    return "\n".join(parts)


def _elimination_html(elim: Mapping[str, Any], summary: Mapping[str, Any], unit: str) -> str:
    e = html.escape
    names = list(summary["seat_names"])
    order_rows = [(f"{_ordinal(o['position'])} elimination", o["games"], o.get("tied", 0),
                   num(o["length"]["mean"], 1), num(o["length"]["median"], 1),
                   ", ".join(f"{name} {o['by_seat'][name]}" for name in names))
                  for o in elim["order"]]
    seat_rows = []
    for s in elim["seats"]:
        r1, ci1, _ = _rate_text(s["eliminated"])
        r2, ci2, _ = _rate_text(s["first_out"])
        seat_rows.append((s["name"], r1, ci1, r2, ci2, s.get("first_out_tied", 0),
                          num(s["mean_length"], 1)))
    ended = [(how, x["count"], pct(x["rate"])) for how, x in elim["ended_by"].items()]
    decided = elim["last_elimination_decided"]
    r, ci, kn = _rate_text(decided)
    text = ("No game qualified for the last-elimination question." if decided["rate"] is None
            else f"In {r} of the games that qualified (95% CI {ci}; {kn}), the winner was not "
                 f"the {score_name(summary)} leader going into the final "
                 f"{unit.rstrip('s')}: the last elimination "
                 "decided the winner. In the rest the leader held on.")
    return f"""<h3>Eliminations</h3>
<p class="verdict no">{e(text)}</p>
{html_table(("order", "games", "of which tied", f"mean {unit}", f"median {unit}",
             "who (tied seats each counted)"), order_rows)}
{html_table(("seat", "eliminated", "95% CI", "first out (alone or tied)", "95% CI",
             "of which tied", f"mean {unit} out"), seat_rows)}
<p class="note">The order counts resolutions that knocked someone out: seats knocked out in
the same {e(unit.rstrip("s"))} are tied and share their place, so a "who" row can add up to
more than its games.</p>
{html_table(("how the game ended", "games", "share"), ended)}
<p class="note">{e(decided['meaning'])}.</p>"""


def add_diagnostics(page: str, summary: Mapping[str, Any], results: Sequence[Mapping[str, Any]],
                    out_dir: Path) -> str:
    """``page`` with the diagnostics section inserted before its "Plots" heading (or before
    ``</body>``), and the section's plots saved into ``out_dir``; ``page`` unchanged when the
    summary has no ``diagnostics``."""
    if not summary.get("diagnostics"):
        return page
    images = diagnostics_plots(summary, results)
    for name, data in images.items():
        (Path(out_dir) / name).write_bytes(data)
    section = diagnostics_html(summary, images)
    marker = "<h2>Plots</h2>" if "<h2>Plots</h2>" in page else "</body>"
    return page.replace(marker, section + "\n" + marker, 1)


def add_imported(page: str, summary: Mapping[str, Any],
                 results: Sequence[Mapping[str, Any]]) -> str:
    """``page`` with an "Imported games" section before ``</body>``: for an imported run
    (``summary["imported"]``, :mod:`meeple.lab.run.imports`), the sources and the first
    :data:`IMPORTED_ROWS` games, each with its index (``meeple replay DIR --index N``), where
    it came from (a server table, a record file), when it finished, its seats' labels, its
    winners and length. ``page`` unchanged for a run played by the lab."""
    imported = summary.get("imported")
    if not imported:
        return page
    e = html.escape
    games = imported.get("games") or []
    names = list(summary.get("seat_names") or [])
    rows = []
    for r in list(results)[:IMPORTED_ROWS]:
        index = int(r["index"])
        entry = games[index] if index < len(games) else {}
        at = entry.get("finished_at")
        when = (time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))
                if isinstance(at, int | float) else "–")
        winners = ", ".join(str(names[w]) if w < len(names) else str(w)
                            for w in r["winners"]) or "none"
        rows.append((index, entry.get("origin", "–"), when, ", ".join(map(str, r["bots"])),
                     winners, r["length"]))
    more = len(results) - len(rows)
    note = (f"{len(results)} games imported from {', '.join(imported.get('sources') or [])}"
            + (f"; {imported['duplicates']} duplicates left out" if imported.get("duplicates")
               else "")
            + (f"; the first {len(rows)} are listed, run.json lists all" if more > 0 else "")
            + ". Each was replayed to its recorded final state; replay one with "
            "meeple replay DIR --index N.")
    section = f"""<h2>Imported games</h2>
<p class="note">{e(note)}</p>
{html_table(("#", "from", "finished", "seats", "winners", "length"), rows)}"""
    return page.replace("</body>", section + "\n</body>", 1)


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def worth_watching(results: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, str]]:
    """The run's extreme games, as ``(what, game index, why)``: the longest and the shortest,
    the closest and the widest sole win (by :func:`meeple.lab.analysis.stats.winning_margin`), and,
    when the seats were played by different bots, the biggest upset: the sole win whose
    winner's bot had the lowest win rate over the run compared with its opponents' bots (the
    largest gap). A game is named once per entry; ``[]`` without results."""
    from meeple.lab.analysis.stats import winning_margin

    rs = [r for r in results if "index" in r]
    if not rs:
        return []
    out: list[tuple[str, int, str]] = []
    longest = max(rs, key=lambda r: (float(r["length"]), -int(r["index"])))
    shortest = min(rs, key=lambda r: (float(r["length"]), int(r["index"])))
    out.append(("longest", int(longest["index"]), f"length {longest['length']}"))
    if shortest is not longest:
        out.append(("shortest", int(shortest["index"]), f"length {shortest['length']}"))
    sole = [(r, r["winners"][0]) for r in rs
            if len(r.get("winners") or ()) == 1 and len(r.get("scores") or ()) > 1]
    if sole:
        margin = {int(r["index"]): winning_margin(r, w) for r, w in sole}
        close = min(sole, key=lambda rw: (margin[int(rw[0]["index"])], int(rw[0]["index"])))
        wide = max(sole, key=lambda rw: (margin[int(rw[0]["index"])], -int(rw[0]["index"])))
        out.append(("closest win", int(close[0]["index"]),
                    f"margin {margin[int(close[0]['index'])]:g}"))
        if wide is not close:
            out.append(("widest win", int(wide[0]["index"]),
                        f"margin {margin[int(wide[0]['index'])]:g}"))
    bots = {str(b) for r in rs for b in r.get("bots") or ()}
    if sole and len(bots) > 1:
        wins: dict[str, float] = dict.fromkeys(bots, 0.0)
        seats: dict[str, int] = dict.fromkeys(bots, 0)
        for r in rs:
            for seat, bot in enumerate(r.get("bots") or ()):
                seats[str(bot)] += 1
                wins[str(bot)] += 1.0 if list(r.get("winners") or ()) == [seat] else 0.0
        rate = {b: wins[b] / seats[b] for b in bots if seats[b]}
        best: tuple[float, int, str] | None = None
        for r, w in sole:
            labels = [str(b) for b in r.get("bots") or ()]
            if w >= len(labels):
                continue
            others = [rate[b] for i, b in enumerate(labels) if i != w]
            gap = (sum(others) / len(others) if others else 0.0) - rate[labels[w]]
            if gap > 0 and (best is None or gap > best[0]):
                best = (gap, int(r["index"]), f"{labels[w]} (wins {rate[labels[w]]:.0%} of "
                        f"its seats) beat bots that win {gap + rate[labels[w]]:.0%}")
        if best is not None:
            out.append(("biggest upset", best[1], best[2]))
    return out


def add_watch(page: str, results: Sequence[Mapping[str, Any]], out_dir: Path) -> str:
    """``page`` with a "Games worth watching" section before its "Plots" heading (or
    ``</body>``): each of :func:`worth_watching`'s games with the command that opens it in a
    browser, ``meeple replay DIR --index N --web`` (a static page cannot link to a server that
    may not be running). ``page`` unchanged when there are no results."""
    games = worth_watching(results)
    if not games:
        return page
    e = html.escape
    where = str(out_dir)
    rows = "".join(
        f"<tr><td>{e(what)}</td><td>{index}</td><td>{e(why)}</td>"
        f"<td><code>meeple replay {e(where)} --index {index} --web</code></td></tr>"
        for what, index, why in games)
    section = f"""<h2>Games worth watching</h2>
<p class="note">Step through one in the browser, from any seat's perspective: run its command
(it serves the replay on a local port and prints the address; add --open to open it).</p>
<table><thead><tr><th>game</th><th>#</th><th>why</th><th>watch it</th></tr></thead>
<tbody>{rows}</tbody></table>"""
    marker = "<h2>Plots</h2>" if "<h2>Plots</h2>" in page else "</body>"
    return page.replace(marker, section + "\n" + marker, 1)
