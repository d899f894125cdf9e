"""What changed against an earlier study (issue 21, ``meeple study --against BASELINE_DIR``).

A designer changes a content file or a parameter and studies the design again; this module
puts the two studies' answers side by side and flags the ones that *moved*. Questions are
matched by section and question text (``Seat fairness, 3 players``). An answer moved when

* both have a 95% interval and the two intervals do not overlap (a conservative test: two
  95% intervals that do not overlap differ at well under the 5% level), or
* its *finding* changed: the conclusion each answer states without its numbers
  (``no seat advantage``, ``first-seat advantage``, ``pays``, ``no edge``, a variant's set of
  differing metrics, the cards stronger than most, the commonest loss cause...; the
  ``finding`` of :mod:`meeple.lab.analysis.verdicts`' answers).

An answer that is "too few games to tell" in either study is *undecided*, not moved: more
games would tell. A question only one study asked is listed as new or gone. Plays nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.lab.analysis.verdicts import UNDECIDED

__all__ = ["compare_studies", "load_study"]


def load_study(folder: str | Path) -> dict[str, Any]:
    """The ``study.json`` of a study folder.

    Raises:
        ParameterError: no such file, or not a study (no ``rows``).
    """
    path = Path(folder) / "study.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ParameterError(f"--against: {folder} holds no study.json (a `meeple study` "
                             "--out folder is needed)") from None
    except (OSError, ValueError) as exc:
        raise ParameterError(f"--against: cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or "rows" not in data:
        raise ParameterError(f"--against: {path} is not a study summary")
    return data


def _overlap(a: Sequence[float] | None, b: Sequence[float] | None) -> bool | None:
    if not a or not b:
        return None
    return a[0] <= b[1] and b[0] <= a[1]


#: Findings that end in a list of names (metrics, cards): a change is said item by item.
LISTS = ("differs in ", "stronger than most: ", "weaker than most: ")


def _changed(had: str | None, found: str | None) -> str:
    """``the finding changed (before -> now)``, or for two lists of the same kind the items
    that came and went (``now also: X; no longer: Y``)."""
    for head in LISTS:
        if had and found and had.startswith(head) and found.startswith(head):
            old = {x for x in had[len(head):].split(", ") if x}
            new = {x for x in found[len(head):].split(", ") if x}
            parts = ([f"now also: {', '.join(sorted(new - old))}"] if new - old else []) + (
                [f"no longer: {', '.join(sorted(old - new))}"] if old - new else [])
            return f"{head.rstrip(': ')}: {'; '.join(parts)}"
    return f"the finding changed ({had or '–'} -> {found or '–'})"


def compare_studies(now: Mapping[str, Any], before: Mapping[str, Any],
                    baseline: str = "") -> dict[str, Any]:
    """Each question of two studies of the same game side by side, the moved ones flagged.

    Args:
        now, before: two ``study.json`` dicts (:func:`meeple.lab.experiments.study.run_study`).
        baseline: where ``before`` came from (shown on the page).
    Returns:
        ``{"baseline", "game", "before": {"variant", "seed", "budget", "games"}, "rows",
        "moved", "new", "gone"}``; each row ``{"section", "question", "before", "now" (the
        answers), "before_interval", "now_interval", "before_verdict", "now_verdict",
        "status": "moved" | "same" | "undecided" | "new" | "gone", "why"}``; ``moved``,
        ``new`` and ``gone`` count those rows.
    Raises:
        ParameterError: the studies are of different games.
    """
    if now.get("game") != before.get("game"):
        raise ParameterError(f"--against: the baseline is a study of {before.get('game')}, "
                             f"not of {now.get('game')}")
    old = {(r["section"], r["question"]): r for r in before["rows"]}
    rows: list[dict[str, Any]] = []
    seen = set()
    for r in now["rows"]:
        key = (r["section"], r["question"])
        seen.add(key)
        b = old.get(key)
        row = {"section": r["section"], "question": r["question"], "now": r["answer"],
               "now_interval": r.get("interval"), "now_verdict": r["verdict"],
               "before": None, "before_interval": None, "before_verdict": None}
        if b is None:
            rows.append({**row, "status": "new", "why": "not asked by the baseline"})
            continue
        row.update(before=b["answer"], before_interval=b.get("interval"),
                   before_verdict=b["verdict"])
        why = []
        found, had = r.get("finding"), b.get("finding")
        if UNDECIDED in (found, had):
            rows.append({**row, "status": "undecided",
                         "why": f"{UNDECIDED} in the {'baseline' if had == UNDECIDED else 'new'}"
                                " study"})
            continue
        if _overlap(r.get("interval"), b.get("interval")) is False:
            why.append("the 95% intervals do not overlap")
        if found != had:
            why.append(_changed(had, found))
        rows.append({**row, "status": "moved" if why else "same",
                     "why": " and ".join(why) if why else "no change detected"})
    for key, b in old.items():
        if key not in seen:
            rows.append({"section": key[0], "question": key[1], "now": None,
                         "now_interval": None, "now_verdict": None, "before": b["answer"],
                         "before_interval": b.get("interval"), "before_verdict": b["verdict"],
                         "status": "gone", "why": "not asked by this study"})
    return {"baseline": baseline, "game": now.get("game"),
            "before": {k: before.get(k) for k in ("variant", "seed", "budget", "games")},
            "rows": rows, "moved": sum(1 for r in rows if r["status"] == "moved"),
            "new": sum(1 for r in rows if r["status"] == "new"),
            "gone": sum(1 for r in rows if r["status"] == "gone")}
