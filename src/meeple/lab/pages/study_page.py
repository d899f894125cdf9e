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

from meeple.lab.pages.exploit_page import exploit_page_html
from meeple.lab.pages.render import CSS, html_table, page_head
from meeple.lab.pages.target_page import TRIALS_PNG, target_section_html, trials_plot

__all__ = ["STUDY_HTML", "STUDY_JSON", "against_terminal_table", "interval_text", "study_html",
           "study_terminal_table", "write_study"]

STUDY_JSON = "study.json"
STUDY_HTML = "study.html"


def _given(data: Mapping[str, Any]) -> str:
    """``", deck=my-deck.json"``: the study's parameter overrides (``--param``), or ``""``."""
    return "".join(f", {k}={v}" for k, v in (data.get("params") or {}).items())


def _labelled(entry: Mapping[str, Any]) -> str:
    """An answer's interval, with what it is of when that is not the answer's own quantity
    (``"0-0.13% hit the cap"`` beside a length in rounds)."""
    text = interval_text(entry.get("interval"))
    label = entry.get("interval_label")
    return f"{text} {label}" if label and entry.get("interval") else text


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
            rows = [(s["seat"], s["name"], s["wins"], f"{100 * s['rate']:.1f}%",
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


def _upset(data: Mapping[str, Any]) -> str:
    u = data.get("upset")
    if not u:
        return ""
    return (f"<p>The biggest upset ({html.escape(u['what'])} "
            f"{html.escape(data['sections']['length'][0]['unit'])}), in a browser: "
            f"<code>{html.escape(u['command'])}</code></p>")


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


def _verdicts(entries: Sequence[Mapping[str, Any]], out_dir: Path) -> str:
    return "".join(f"<h3>{html.escape(e['question'])}</h3>"
                   f"<p class=\"verdict\">{html.escape(e['verdict'])}</p>"
                   for e in entries)


def _content(data: Mapping[str, Any], out_dir: Path) -> str:
    entries = data["sections"].get("content") or []
    if not entries:
        return "<p>Nothing was traced: no card or action table.</p>"
    first = entries[0]
    what = first["what"]
    rows = []
    for k in first["keys"]:
        diff, ci = k["difference"], k["difference_ci"]
        rows.append((k["key"], f"{100 * (k['play_rate'] or 0):.1f}%",
                     "–" if k["win_rate"] is None else f"{100 * k['win_rate']:.1f}%",
                     interval_text([k["ci_low"], k["ci_high"]])
                     if k["ci_low"] is not None else "–",
                     "–" if diff is None else f"{100 * diff:+.1f} pts",
                     "–" if not ci else f"{100 * ci[0]:+.0f} to {100 * ci[1]:+.0f} pts",
                     "–" if k["p_holm"] is None else f"{k['p_holm']:.2g}",
                     k["outlier"] or ""))
    typical = first.get("typical_difference")
    return (_verdicts(entries, out_dir)
            + html_table((what, f"played by (share of {first['unit']}s)", "win rate when played",
                          "95% CI", "difference vs not played", "95% CI", "Holm p",
                          "against the typical " + what), rows)
            + f'<p class="note">{html.escape(first["method"])}. Typical difference: '
              f'{"–" if typical is None else f"{100 * typical:+.1f} pts"}. The {first["games"]:,}'
              f" games of the {first['players']}-player fairness run (the most played "
              f"{len(first['keys'])} {what}s). Associations, not effects: a seat that plays a "
              f"{what} when already ahead makes it look strong.</p>" + _dirs(first, out_dir))


def _endings(data: Mapping[str, Any], out_dir: Path) -> str:
    entries = data["sections"].get("endings") or []
    if not entries:
        return "<p>Nothing was traced.</p>"
    out = [_verdicts(entries, out_dir)]
    for e in entries:
        if e.get("causes"):
            out.append(html_table(("lost to", "games", "share of all games", "95% CI"),
                                  [(c["cause"], c["count"], f"{100 * c['rate']:.1f}%",
                                    interval_text(c["ci"])) for c in e["causes"]]))
        elim = e.get("eliminations")
        if elim:
            out.append(html_table(
                ("seat", "knocked out", "95% CI", "first out",
                 f"mean {data['sections']['length'][0]['unit'].rstrip('s')} when out"),
                [(s["name"], f"{100 * s['eliminated']['rate']:.1f}%",
                  interval_text([s["eliminated"]["ci_low"], s["eliminated"]["ci_high"]]),
                  f"{100 * s['first_out']['rate']:.1f}%",
                  "–" if s["mean_length"] is None else f"{s['mean_length']:.1f}")
                 for s in elim["seats"]]))
            ended = ", ".join(f"{how} {100 * v['rate']:.0f}%"
                              for how, v in elim["ended_by"].items())
            out.append(f'<p class="note">How games ended: {html.escape(ended)}. '
                       f'{html.escape(elim["ties"])}.</p>')
        if e.get("swing"):
            out.append(f'<p class="note">{html.escape(e["swing"]["meaning"])}.</p>')
    out.append(_dirs(entries[0], out_dir))
    return "".join(out)


def _strategies(data: Mapping[str, Any]) -> str:
    detail = data.get("strategies_detail")
    if not detail:
        return "<p>Not searched in this study.</p>"
    return exploit_page_html(detail, title=None)


def _target(data: Mapping[str, Any], out_dir: Path) -> str:
    detail = data.get("target_detail")
    if not detail:
        return "<p>No <code>--target</code> was given.</p>"
    (out_dir / TRIALS_PNG).write_bytes(trials_plot(detail))
    return (f'<p class="run">target <code>{html.escape(detail["target"])}</code> · '
            f'{len(detail["trials"])} trials in {detail["search_seconds"]:.0f} s</p>'
            + target_section_html(detail, TRIALS_PNG, out_dir))


def _against(data: Mapping[str, Any]) -> str:
    a = data.get("against")
    if not a:
        return ""
    e = html.escape
    order = {"moved": 0, "new": 1, "gone": 2, "undecided": 3, "same": 4}
    rows = [(r["status"], r["question"], r["before"] or "–",
             interval_text(r["before_interval"]), r["now"] or "–",
             interval_text(r["now_interval"]), r["why"])
            for r in sorted(a["rows"], key=lambda r: order[r["status"]])]
    b = a["before"]
    return (f"<h2>What changed against {e(a['baseline'])}</h2>"
            f"<p class=\"verdict\">{a['moved']} answer{'s' if a['moved'] != 1 else ''} moved, "
            f"{a['new']} new, {a['gone']} gone (baseline: variant {e(str(b['variant']))}, "
            f"seed {b['seed']}, {b['games'] or 0:,} games)</p>"
            + html_table(("", "question", "before", "95% CI", "now", "95% CI", "why"), rows)
            + '<p class="note">Moved: the two 95% intervals do not overlap, or the finding (the '
              "verdict's conclusion without its numbers) changed. Undecided: too few games to "
              "tell in one of the two studies.</p>")


def study_html(data: Mapping[str, Any], out_dir: Path) -> str:
    """The whole page for the study ``data`` written in ``out_dir`` (links are relative)."""
    e = html.escape
    rows = [(r["question"], r["answer"], _labelled(r), r["verdict"])
            for r in data["rows"]]
    plan = data["plan"]
    longest = data.get("longest")
    replay = (f"<p>The longest game of the fairness run ({longest['length']} "
              f"{e(data['sections']['length'][0]['unit'])}), in a browser: "
              f"<code>{e(longest['command'])}</code></p>" if longest else "")
    notes = "".join(f"<li>{e(n)}</li>" for n in data.get("notes", []))
    not_yet = "".join(f"<li>{e(n)}</li>" for n in data["not_yet"])
    head = page_head(f"Study: {data['game']}",
                     CSS + " td { text-align: left; overflow-wrap: anywhere; }"
                     " h3 { font-size: 1.05rem; }")
    return f"""{head}
<h1>Study: {e(data['game'])} ({e(data['variant'])}{e(_given(data))})</h1>
<p class="run">budget {data['budget']:.0f} s · games played in
{data.get('play_seconds', data['elapsed_seconds']):.0f} s ·
{data['games']:,} games · {plan['workers']} worker{'s' if plan['workers'] != 1 else ''} ·
seed {data['seed']} · skill tiers {e(', '.join(data['tiers']))}</p>
<h2>Summary</h2>
{html_table(("question", "answer", "95% interval", "verdict"), rows)}
{f'<ul class="note">{notes}</ul>' if notes else ''}
{_against(data)}
<h2>1. Seat fairness at every seat count</h2>
{_fairness(data, out_dir)}
{replay}
<h2>2. Length and pace</h2>
{_length(data, out_dir)}
<h2>3. Skill depth</h2>
{_skill(data, out_dir)}
{_upset(data)}
<h2>4. Variants against {e(data['variant'])}</h2>
{_variants(data, out_dir)}
<h2>5. {'Card' if (data['sections'].get('content') or [{}])[0].get('what') != 'action'
        else 'Action'} power</h2>
{_content(data, out_dir)}
<h2>6. Degenerate strategies</h2>
{_strategies(data)}
<h2>7. {'Loss causes' if data['cooperative'] else 'Elimination and kingmaking'}</h2>
{_endings(data, out_dir)}
<h2>8. Toward a target</h2>
{_target(data, out_dir)}
{f'<h2>Not yet studied</h2><ul>{not_yet}</ul>' if not_yet else ''}
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
    played = data.get("play_seconds", data["elapsed_seconds"])
    table = Table(title=f"{data['game']} ({data['variant']}{_given(data)}): study, "
                        f"{data['games']:,} games played in {played:.0f} s",
                  title_justify="left")
    for name in ("question", "answer", "95% interval", "verdict"):
        table.add_column(name, overflow="fold")
    for r in data["rows"]:
        table.add_row(r["question"], r["answer"], _labelled(r),
                      r["verdict"])
    return table



def against_terminal_table(against: Mapping[str, Any]) -> Table:
    """The answers that moved against the baseline study (new and gone ones too)."""
    table = Table(title=f"against {against['baseline']}: {against['moved']} moved, "
                        f"{against['new']} new, {against['gone']} gone", title_justify="left")
    for name in ("", "question", "before", "now", "why"):
        table.add_column(name, overflow="fold")
    for r in against["rows"]:
        if r["status"] not in ("same", "undecided"):
            table.add_row(r["status"], r["question"], r["before"] or "–", r["now"] or "–",
                          r["why"])
    return table
