"""The study's page: ``study.json`` and ``study.html`` (self-contained, no plots yet), and the
summary table for the terminal.

The page leads with the summary table (question, answer, interval, verdict), then has a
section per question with its numbers and the run folders it rests on (a link to a run's
``report.html`` where one was written, else the ``meeple report DIR`` command that writes it),
the command that replays the longest game of the fairness run in a browser, and the sections
of issue 21 that are not done yet. Renders :func:`meeple.lab.experiments.study.run_study`'s
dict; plays nothing.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from meeple.lab.pages.render import CSS, html_table, page_head

__all__ = ["STUDY_HTML", "STUDY_JSON", "interval_text", "study_html", "study_terminal_table",
           "write_study"]

STUDY_JSON = "study.json"
STUDY_HTML = "study.html"


def interval_text(interval: Sequence[float] | None) -> str:
    """``"28-34%"`` for an interval of shares (a difference may go below zero:
    ``"-3 to +8 pts"``); ``"–"`` for none."""
    if not interval:
        return "–"
    low, high = interval
    if low < 0:
        return f"{100 * low:+.0f} to {100 * high:+.0f} pts"

    def share(x: float) -> str:  # whole percent from 10%, finer below (0.04% is not 0%)
        digits = 0 if x >= 0.095 or x == 0 else 1 if x >= 0.0095 else 2
        return f"{100 * x:.{digits}f}"

    return f"{share(low)}-{share(high)}%"


def _dirs(entry: Mapping[str, Any], out_dir: Path) -> str:
    """Links to the entry's run folders' report.html, or the command that writes it."""
    parts = []
    for key in entry.get("dirs", []):
        if (out_dir / key / "report.html").is_file():
            parts.append(f'<a href="{html.escape(key)}/report.html">{html.escape(key)}</a>')
        else:
            parts.append(f"<code>meeple report {html.escape(str(out_dir / key))}</code>")
    return f'<p class="note">runs: {", ".join(parts)}</p>' if parts else ""


def _fairness(data: Mapping[str, Any], out_dir: Path) -> str:
    out = []
    for e in data["sections"]["fairness"]:
        out.append(f"<h3>{html.escape(e['question'])}</h3>"
                   f"<p class=\"verdict\">{html.escape(e['verdict'])}</p>")
        if e.get("kind") == "seats":
            rows = [(s["seat"] + 1, s["name"], s["wins"], f"{100 * s['rate']:.1f}%",
                     interval_text([s["ci_low"], s["ci_high"]])) for s in e["seats"]]
            p = e.get("p_value")
            out.append(html_table(("seat", "name", "sole wins", "win rate", "95% CI"), rows))
            out.append(f"<p class=\"note\">fair share {100 * e['fair_share']:.1f}% (sole wins,"
                       f" draws excluded); chi-square p = "
                       f"{'–' if p is None else f'{p:.3g}'}; {e['games']} games</p>")
        elif e.get("loss_causes"):
            rows = [(cause, c["count"], f"{100 * c['rate']:.1f}%")
                    for cause, c in e["loss_causes"].items()]
            out.append(html_table(("lost to", "games", "share of all games"), rows))
        out.append(_dirs(e, out_dir))
    return "".join(out)


def _length(data: Mapping[str, Any], out_dir: Path) -> str:
    rows = []
    for e in data["sections"]["length"]:
        n = e["length"]
        rows.append((e["players"], e["games"], f"{n['mean']:.1f}", f"{n['std']:.1f}",
                     f"{n['median']:.0f}", f"{n['p90']:.0f}", f"{n['min']}-{n['max']}",
                     f"{e['decisions']['mean']:.0f}", e["decisions"]["p90"],
                     f"{100 * e['truncated']['rate']:.1f}% ({interval_text(e['truncated']['ci'])})"
                     ))
    unit = data["sections"]["length"][0]["unit"] if data["sections"]["length"] else "rounds"
    verdicts = "".join(f"<li>{e['players']} players: {html.escape(e['verdict'])}</li>"
                       for e in data["sections"]["length"])
    return (f"<ul>{verdicts}</ul>"
            + html_table(("players", "games", f"mean {unit}", "sd", "median", "p90", "range",
                          "decisions", "decisions p90", "hit the cap (95% CI)"), rows)
            + '<p class="note">Decisions: every seat\'s actions in a game. Same runs as the '
              "seat fairness section.</p>")


def _skill(data: Mapping[str, Any], out_dir: Path) -> str:
    out = []
    for e in data["sections"]["skill"]:
        out.append(f"<h3>{html.escape(e['question'])}</h3>"
                   f"<p class=\"verdict\">{html.escape(e['verdict'])}</p>"
                   f"<p class=\"note\">{html.escape(e['answer'])}; 95% interval of the "
                   f"{html.escape(e.get('interval_of', 'rate'))}: "
                   f"{interval_text(e.get('interval'))}</p>" + _dirs(e, out_dir))
    if not data["sections"]["skill"]:
        out.append("<p>No skill step was played.</p>")
    return "".join(out)


def _variants(data: Mapping[str, Any], out_dir: Path) -> str:
    entries = data["sections"]["variants"]
    if not entries:
        return "<p>The game has no other named variant.</p>"
    out = []
    for e in entries:
        rows = [(f["label"], "–" if f["difference"] is None else
                 (f"{100 * f['difference']:+.1f} pts" if f["kind"] in ("share", "edge")
                  else f"{f['difference']:+.2f}"),
                 "–" if not f["ci"] else
                 (f"{100 * f['ci'][0]:+.1f} to {100 * f['ci'][1]:+.1f} pts"
                  if f["kind"] in ("share", "edge") else f"{f['ci'][0]:+.2f} to {f['ci'][1]:+.2f}"),
                 f"{f['p_holm']:.2g}") for f in e["flagged"]]
        out.append(f"<h3>{html.escape(e['question'])}</h3>"
                   f"<p class=\"verdict\">{html.escape(e['verdict'])}</p>")
        if rows:
            out.append(html_table(("metric", "difference", "95% CI", "Holm p"), rows))
        out.append(_dirs(e, out_dir))
    out.append('<p class="note">Same seeds in every arm; a metric is flagged when its '
               "Holm-adjusted p (over every test of every variant) is below 0.05 "
               "(<code>meeple compare</code>'s tests).</p>")
    return "".join(out)


def study_html(data: Mapping[str, Any], out_dir: Path) -> str:
    """The whole page for the study ``data`` written in ``out_dir`` (links are relative)."""
    e = html.escape
    rows = [(r["question"], r["answer"], interval_text(r.get("interval")), r["verdict"])
            for r in data["rows"]]
    plan = data["plan"]
    longest = data.get("longest")
    replay = (f"<p>The longest game of the fairness run ({longest['length']} "
              f"{e(data['sections']['length'][0]['unit'])}), in a browser: "
              f"<code>{e(longest['command'])}</code></p>" if longest else "")
    notes = "".join(f"<li>{e(n)}</li>" for n in data.get("notes", []))
    not_yet = "".join(f"<li>{e(n)}</li>" for n in data["not_yet"])
    head = page_head(f"Study: {data['game']}",
                     CSS + " td { text-align: left; } h3 { font-size: 1.05rem; }")
    return f"""{head}
<h1>Study: {e(data['game'])} ({e(data['variant'])})</h1>
<p class="run">budget {data['budget']:.0f} s · games played in
{data.get('play_seconds', data['elapsed_seconds']):.0f} s ·
{data['games']:,} games · {plan['workers']} worker{'s' if plan['workers'] != 1 else ''} ·
seed {data['seed']} · skill tiers {e(', '.join(data['tiers']))}</p>
<h2>Summary</h2>
{html_table(("question", "answer", "95% interval", "verdict"), rows)}
{f'<ul class="note">{notes}</ul>' if notes else ''}
<h2>1. Seat fairness at every seat count</h2>
{_fairness(data, out_dir)}
{replay}
<h2>2. Length and pace</h2>
{_length(data, out_dir)}
<h2>3. Skill depth</h2>
{_skill(data, out_dir)}
<h2>4. Variants against {e(data['variant'])}</h2>
{_variants(data, out_dir)}
<h2>Not yet studied</h2>
<ul>{not_yet}</ul>
</body>
</html>
"""


def write_study(data: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``study.json`` and ``study.html`` into ``out_dir`` (created if missing).

    Args:
        data: from :func:`meeple.lab.experiments.study.run_study`.
        out_dir: the study's folder (the run folders the page links to are inside it).
    Returns:
        The path of ``study.html``.
    Raises:
        OSError: the folder cannot be written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / STUDY_JSON).write_text(json.dumps(data, indent=2) + "\n")
    path = out / STUDY_HTML
    path.write_text(study_html(data, out), encoding="utf-8")
    return path


def study_terminal_table(data: Mapping[str, Any]) -> Table:
    """The summary table for the terminal: question, answer, interval, verdict."""
    table = Table(title=f"{data['game']} ({data['variant']}): study, {data['games']:,} games "
                        f"played in {data.get('play_seconds', data['elapsed_seconds']):.0f} s",
                  title_justify="left")
    for name in ("question", "answer", "95% interval", "verdict"):
        table.add_column(name, overflow="fold")
    for r in data["rows"]:
        table.add_row(r["question"], r["answer"], interval_text(r.get("interval")),
                      r["verdict"])
    return table

