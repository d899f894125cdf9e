"""The report's "People" section: human playtests from the web server beside the run's bot
games (:func:`meeple.lab.analysis.people.people_summary`; ``meeple report DIR --people DB_URL``)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from meeple.lab.pages.render import html_table

#: Free-text answers quoted on the page per question, at most (the JSON summary keeps all).
MAX_QUOTES = 20


def _pct(entry: Mapping[str, Any]) -> str:
    if entry.get("rate") is None:
        return "–"
    low, high = 100 * entry["ci_low"], 100 * entry["ci_high"]
    return (f"{100 * entry['rate']:.0f}% ({low:.0f}–{high:.0f}%, "
            f"{entry['k']}/{entry['n']})")


def _mean(entry: Mapping[str, Any], digits: int = 1) -> str:
    if entry.get("mean") is None:
        return "–"
    text = f"{entry['mean']:.{digits}f}"
    if entry.get("low") is not None:
        text += f" ({entry['low']:.{digits}f}–{entry['high']:.{digits}f})"
    return f"{text}, n = {entry['n']}"


def _secs(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f} s" if value < 10 else f"{value:.0f} s"


def people_section(summary: Mapping[str, Any]) -> str:
    """The section's HTML (every text escaped) for ``summary["people"]``; "" without it."""
    people = summary.get("people")
    if not people:
        return ""
    e = html.escape
    names = list(summary.get("seat_names") or [])
    seat = (lambda s: str(names[s]) if s < len(names) else f"seat {s}")  # noqa: E731
    games = people["games"]
    parts = [f"""<h2 id="people">People</h2>
<p class="note">{games['human']} finished game(s) with people at the web server's tables
(read from its database){f", and {games['server_bots']} all-bot table(s) there, not counted"
if games['server_bots'] else ""}, beside this run's bot games. Intervals are 95%.</p>"""]
    if not games["human"]:
        parts.append("<p>No game with a person seated is in the database yet.</p>")
        return "\n".join(parts)
    length = people["length"]
    parts.append("<h3>Length</h3>" + html_table(
        ("games", "mean length (interval), games"),
        [("people's tables", _mean(length["human"])),
         ("this run's bots", _mean(length["bots"]))]))
    fair = people["fair_share"]
    parts.append(f"<h3>Seat balance at people's tables</h3><p class=\"note\">Fair share "
                 f"{100 * fair:.0f}%; with few games the intervals are wide.</p>" + html_table(
                     ("seat", "wins"), [(seat(s), _pct(w))
                                        for s, w in enumerate(people["seat_wins"])]))
    pvb = people["people_vs_bots"]
    if pvb["seat_share"] is not None:
        parts.append(f"<h3>People against bots</h3><p>At tables with both, people won "
                     f"{e(_pct(pvb['winner_share']))} of the wins; they held "
                     f"{100 * pvb['seat_share']:.0f}% of the seats, the share they would win "
                     "if people and bots played alike.</p>")
    rows = [(d["kind"], d["who"], d["n"], _secs(d["median"]), _secs(d["p90"]), _secs(d["mean"]))
            for d in people["decision_seconds"]]
    if rows:
        parts.append("<h3>Decision time</h3><p class=\"note\">Seconds from a decision opening "
                     "to the action, by kind of decision (the action's kind); bots' times "
                     "are their thinking at the table.</p>"
                     + html_table(("decision", "who", "decisions", "median", "90th pct",
                                   "mean"), rows))
    parts.append("<h3>Timeouts</h3>" + html_table(
        ("seat", "people's decisions that timed out"),
        [(seat(s), _pct(t)) for s, t in enumerate(people["timeouts"]) if t["n"]]))
    talk = people["talk"]
    parts.append(f"<h3>Table talk</h3><p>Messages per person per game: "
                 f"{e(_mean(talk['per_person_game']))}; private: "
                 f"{e(_pct(talk['private_share']))}.</p>")
    parts.append(_survey(people["survey"]))
    tables = [(t["table"], ", ".join(f"{n} ({k})" for n, k in zip(t["seats"], t["kinds"],
                                                                   strict=False)),
               ", ".join(seat(w) for w in t["winners"]) or "none", t["length"],
               "–" if t["minutes"] is None else t["minutes"])
              for t in people["tables"]]
    parts.append("<h3>Games</h3>" + html_table(("table", "seats", "winners", "length",
                                                 "minutes"), tables))
    return "\n".join(parts)


def _survey(survey: Mapping[str, Any]) -> str:
    e = html.escape
    if not survey["answered"]:
        return "<h3>Survey</h3><p>No survey answers yet.</p>"
    counts = ", ".join(f"{v}: {c}" for v, c in zip(range(1, 6), survey["fun_counts"],
                                                   strict=True))
    rows = [("fun (1 dull – 5 great)", f"{_mean(survey['fun'])}; answers {counts}")]
    for key, label in (("length", "the game felt"), ("again", "would play again")):
        rows += [(f"{label}: {option}", _pct(entry)) for option, entry in survey[key].items()]
    out = [f"<h3>Survey</h3><p class=\"note\">{survey['answered']} answer(s).</p>",
           html_table(("question", "answer"), rows)]
    for key, label in (("confusing", "What was confusing"), ("comments", "Comments")):
        quotes = survey[key][:MAX_QUOTES]
        if quotes:
            more = len(survey[key]) - len(quotes)
            items = "".join(f"<li>“{e(q['text'])}” <span class=\"note\">({e(q['name'] or '')}"
                            f")</span></li>" for q in quotes)
            out.append(f"<h4>{label}</h4><ul>{items}</ul>"
                       + (f"<p class=\"note\">and {more} more in the JSON summary</p>"
                          if more > 0 else ""))
    return "\n".join(out)


def add_people(page: str, summary: Mapping[str, Any]) -> str:
    """``page`` with the People section before ``</body>`` (unchanged without people)."""
    section = people_section(summary)
    return page.replace("</body>", section + "\n</body>", 1) if section else page
