"""The study's answers: from the runs a study played to its JSON summary (``study.json``), one
entry per question with its interval and one-line verdict (issue 21, ``meeple study``).

:func:`answer_study` reads the runs :func:`meeple.lab.experiments.study.run_study` played and
answers, in the page's order:

1. ``fairness``: every seat count; the chi-square p-values of the counts are Holm-adjusted
   together (:func:`meeple.lab.analysis.diagnostics.holm`), so that testing five counts does
   not call a 1-in-20 fluke an advantage;
2. ``length``: the same runs' length and pace;
3. ``skill``: the ladder steps (team win rates per tier in a co-op);
4. ``variants``: every named variant against the studied one on the same seeds;
5. ``content``: card (else action) power from the default seat count's fairness run
   (:func:`~meeple.lab.analysis.verdicts.card_power_answer`, Holm over the table);
6. ``strategies``: the degenerate-strategy search, played by the study and passed in;
7. ``endings``: elimination, kingmaking and late swings (competitive), or loss causes (co-op),
   from the default seat count's fairness run;
8. ``target``: the search toward ``--target``, when asked, passed in.

Plays nothing: it loads nothing but the game spec (for its length cap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.engine.registry import load_game
from meeple.lab.analysis.coop_stats import team_result
from meeple.lab.analysis.diagnostics import holm
from meeple.lab.analysis.stats import summarize, winning_margin
from meeple.lab.analysis.verdicts import (
    UNDECIDED,
    card_power_answer,
    elimination_answer,
    fairness_answer,
    length_answer,
    loss_causes_answer,
    pct,
    share_range,
    skill_answer,
    variants_answer,
)
from meeple.lab.experiments.compare import align_causes, arm_metrics, compare_arms
from meeple.lab.experiments.ladder import competitive_step, team_entry, team_step

if TYPE_CHECKING:
    from pathlib import Path

    from meeple.lab.experiments.study import StudyPlan

__all__ = ["SECTIONS", "answer_study", "pooled"]

#: The study's sections in page order (the issue's numbering).
SECTIONS = ("fairness", "length", "skill", "variants", "content", "strategies", "endings",
            "target")

Played = dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]

#: The ``format`` of a study's saved plan and answer (``study.json``).
STUDY_FORMAT = "meeple-study/1"


def pooled(plan: StudyPlan, played: Played, key: str
           ) -> tuple[list[dict[str, Any]], dict[str, Any], list[str]]:
    """Run ``key``'s results pooled with its round-2 run's (``key + "-more"``), re-summarised
    when pooled: ``(results, summary, run keys)``."""
    results, summary = played[key]
    more = played.get(key + "-more")
    if more is None:
        return results, summary, [key]
    both = [*results, *more[0]]
    run = next(r for r in plan.runs if r.key == key)
    game = load_game(plan.game, variant=run.variant, players=run.players)
    summary = summarize(both, game=game.name, variant=game.variant, players=game.players,
                        params=dict(game.params), seed=run.seed, bots=list(run.bots),
                        seat_names=list(game.seat_names()),
                        length_unit=game.capabilities.length_unit,
                        elapsed_seconds=summary["elapsed_seconds"] + more[1]["elapsed_seconds"],
                        jobs=summary["jobs"], cooperative=game.capabilities.cooperative)
    return both, summary, [key, key + "-more"]


def _fairness(plan: StudyPlan, played: Played, out: Path, sections: dict[str, list[Any]]
              ) -> tuple[dict[str, Any] | None, tuple[list[dict[str, Any]], dict[str, Any],
                                                      list[str]] | None]:
    """Sections 1 and 2; returns the longest game of the default count and that count's
    pooled run (sections 5 and 7 read it)."""
    cap = load_game(plan.game, variant=plan.variant).capabilities.max_length
    runs = [r for r in plan.sections().get("fairness", []) if r.round == 1]
    pooled_runs = [pooled(plan, played, run.key) for run in runs]
    p_values = [s["seat_balance"].get("p_value") if "seat_balance" in s else None
                for _, s, _ in pooled_runs]
    tested = sum(1 for p in p_values if p is not None)
    adjusted = holm(p_values)
    longest, default = None, None
    for run, (results, summary, keys), p_holm in zip(runs, pooled_runs, adjusted, strict=True):
        ans = fairness_answer(summary, run.players, p_holm if tested > 1 else None, tested)
        ans["dirs"] = keys
        sections["fairness"].append(ans)
        length = length_answer(summary, results, run.players, cap)
        length["dirs"] = keys
        sections["length"].append(length)
        if run.players == plan.default_players:
            default = (results, summary, keys)
            best = max(((k, r) for k in keys for r in played[k][0]),
                       key=lambda kr: kr[1]["length"])
            longest = {"dir": best[0], "index": best[1]["index"], "length": best[1]["length"],
                       "command": f"meeple replay {out / best[0]} --index {best[1]['index']} "
                                  "--web"}
    return longest, default


def _skill(plan: StudyPlan, played: Played) -> list[dict[str, Any]]:
    """Section 3."""
    out: list[dict[str, Any]] = []
    runs = [r for r in plan.sections().get("skill", []) if r.round == 1]
    if not plan.cooperative:
        for run in runs:
            results, _, keys = pooled(plan, played, run.key)
            upper, lower = run.label.split(" vs ")
            step = competitive_step(results, upper, lower, run.players)
            out.append({**skill_answer(step, False, run.players), "dirs": keys})
        return out
    team: dict[str, dict[str, Any]] = {}
    for run in runs:
        results, _, keys = pooled(plan, played, run.key)
        team[run.label] = {**team_entry(results), "dirs": keys}
    tiers = list(team)
    for tier in tiers:
        e = team[tier]
        out.append({
            "question": f"Skill: team of {tier}", "answer": f"wins {pct(e['rate'])}",
            "interval": e["ci"], "interval_of": "team win rate", "decided": True,
            "verdict": f"a team of {tier} wins {pct(e['rate'])} ({share_range(e['ci'])}) "
                       f"({e['games']:,} games)", "tier": tier, "team": e, "dirs": e["dirs"]})
    for lo, up in zip(tiers, tiers[1:], strict=False):
        ans = skill_answer(team_step(team, lo, up), True, plan.default_players)
        out.append({**ans, "dirs": team[up]["dirs"] + team[lo]["dirs"]})
    return out


def _upset(plan: StudyPlan, played: Played, out: Path) -> dict[str, Any] | None:
    """The biggest upset of the skill runs, a game worth watching: competitive, a game of the
    highest step (the strongest tier against the one below) won alone by a lower-tier seat,
    the one with the largest winning margin (:func:`~meeple.lab.analysis.stats.
    winning_margin`; the longest on a tie); co-operative, the strongest tier's team's shortest
    lost game. None when no such game was played."""
    runs = [r for r in plan.sections().get("skill", []) if r.round == 1]
    if not runs:
        return None
    top = runs[-1]
    keys = [k for k in (top.key, top.key + "-more") if k in played]
    games = [(k, r) for k in keys for r in played[k][0]]
    if plan.cooperative:
        lost = [(k, r) for k, r in games if not team_result(r)[0]]
        if not lost:
            return None
        key, game = min(lost, key=lambda kr: (kr[1]["length"], kr[1]["index"]))
        what = f"the team of {top.label} lost in {game['length']}"
    else:
        upper, lower = top.label.split(" vs ")
        won = []
        for k, r in games:
            winners = list(r["winners"])
            if len(winners) == 1 and r["bots"][winners[0]] == lower:
                won.append((winning_margin(r, winners[0]), r["length"], k, r))
        if not won:
            return None
        margin, _, key, game = max(won, key=lambda m: (m[0], m[1], -m[3]["index"]))
        what = (f"a {lower} seat won against the {upper} seat, {margin:g} ahead of the "
                f"next seat, in {game['length']}")
    return {"dir": key, "index": game["index"], "length": game["length"], "what": what,
            "command": f"meeple replay {out / key} --index {game['index']} --web"}


def _variants(plan: StudyPlan, played: Played) -> list[dict[str, Any]]:
    """Section 4."""
    arms = list(plan.sections().get("variants", []))
    if len(arms) < 2:
        return []
    metric_sets = [arm_metrics(played[r.key][1], played[r.key][0]) for r in arms]
    align_causes(metric_sets)
    rows = compare_arms(metric_sets, plan.seed)
    answers = variants_answer([r.label for r in arms], rows, arms[0].games)
    for ans, run in zip(answers, arms[1:], strict=True):
        ans["dirs"] = [arms[0].key, run.key]
    return answers


def _finding(entry: dict[str, Any]) -> str:
    """The finding (the verdict's conclusion without numbers, which ``--against`` compares) of
    an entry of sections 6 and 8, which their searches do not name themselves."""
    if not entry.get("decided", True):
        return UNDECIDED
    if "beats" in entry:
        return "beats" if entry["beats"] else "does not beat"
    if "met" in entry:
        return "met" if entry["met"] else "not met"
    return str(entry["answer"])


def answer_study(plan: StudyPlan, out: Path, played: Played, elapsed: float,
                 extra: dict[str, list[dict[str, Any]]] | None = None,
                 not_yet: list[str] | None = None) -> dict[str, Any]:
    """The study summary (``study.json``) from every played run.

    Args:
        plan: the study's plan (with its round-2 runs).
        out: the study's folder (run folders are named relative to it in the commands).
        played: run key -> ``(results, summary)`` for every run of the plan.
        elapsed: seconds the study took (this call of ``run_study``).
        extra: entries of sections the study played itself: ``strategies`` (section 6) and
            ``target`` (section 8), each a list of entries with ``question``, ``answer``,
            ``interval``, ``verdict``.
        not_yet: the issue's parts this study did not answer (listed on the page).
    Returns:
        ``format``, ``game``, ``variant``, ``seed``, ``budget``, ``elapsed_seconds``,
        ``cooperative``, ``tiers``, ``notes``, ``plan``, ``rows`` (the summary table:
        section, question, answer, interval, verdict, and the ``finding``: the verdict's
        conclusion without its numbers, which ``--against`` compares; None when the
        interval alone says it), ``sections`` (every name of
        :data:`SECTIONS`, a list of entries each), ``longest`` (the default seat count's
        longest fairness game: ``dir``, ``index``, ``length``, ``command``), ``upset`` (the
        skill runs' biggest upset, :func:`_upset`: ``dir``, ``index``, ``length``, ``what``,
        ``command``; or None), ``not_yet``, ``games`` and ``play_seconds``.
    """
    sections: dict[str, list[dict[str, Any]]] = {name: [] for name in SECTIONS}
    longest, default = _fairness(plan, played, out, sections)
    sections["skill"] = _skill(plan, played)
    sections["variants"] = _variants(plan, played)
    if default is not None:
        results, summary, keys = default
        content = card_power_answer(summary.get("diagnostics") or {}, len(results),
                                    plan.default_players, summary["bots"])
        endings = (loss_causes_answer(summary, plan.default_players) if plan.cooperative
                   else elimination_answer(summary.get("diagnostics") or {}, results,
                                           plan.default_players, summary["length"]["unit"]))
        for entry in (*content, *endings):
            entry["dirs"] = keys
        sections["content"], sections["endings"] = content, endings
    for name, entries in (extra or {}).items():
        sections[name] = [{**e, "finding": e.get("finding", _finding(e))} for e in entries]
    rows = [{"section": name, "question": e["question"], "answer": e["answer"],
             "interval": e.get("interval"), "interval_label": e.get("interval_label"),
             "verdict": e["verdict"], "finding": e.get("finding")}
            for name in SECTIONS for e in sections[name]]
    return {
        "format": STUDY_FORMAT, "game": plan.game, "variant": plan.variant, "seed": plan.seed,
        "params": dict(plan.params),
        "budget": plan.budget, "elapsed_seconds": elapsed, "cooperative": plan.cooperative,
        "tiers": plan.tiers, "notes": plan.notes, "plan": plan.to_json(), "rows": rows,
        "sections": sections, "longest": longest, "upset": _upset(plan, played, out),
        "not_yet": list(not_yet or []),
        "games": sum(len(v[0]) for v in played.values()),
        "play_seconds": sum(float(v[1]["elapsed_seconds"]) for v in played.values()),
    }
