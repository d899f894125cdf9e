"""One-line verdicts in plain words for the study's questions (issue 21), from the summaries
and results the lab already computes: each function returns the question, a short answer, the
95% interval it rests on, the verdict ("seat 1 wins 31% (28-34%), fair is 25%: first-seat
advantage") and whether the data decide it (``decided`` False: "too few games to tell", by
:mod:`meeple.lab.analysis.precision`). Used by :mod:`meeple.lab.experiments.study`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.lab.analysis.precision import EDGE_THAT_MATTERS, games_needed
from meeple.lab.analysis.stats import ALPHA, wilson_interval
from meeple.lab.analysis.target_metrics import METRICS

#: The ``finding`` of an answer the data do not decide yet (``decided`` False).
UNDECIDED = "too few games to tell"

__all__ = ["UNDECIDED", "card_power_answer", "elimination_answer", "fairness_answer",
           "length_answer", "loss_causes_answer", "pct", "share_range", "skill_answer",
           "target_answer", "variants_answer", "weights_answer"]


def pct(x: float) -> str:
    """A share as a whole percentage (finer below 10%): ``31%``, ``4.5%``, ``0.02%``."""
    if abs(x) >= 0.095 or x == 0:
        return f"{100 * x:.0f}%"
    return f"{100 * x:.1f}%" if abs(x) >= 0.0095 else f"{100 * x:.2f}%"


def share_range(ci: Sequence[float]) -> str:
    """An interval of shares as ``28-34%``."""
    return f"{pct(ci[0]).rstrip('%')}-{pct(ci[1])}"


# ---------------------------------------------------------------------------- sections
def fairness_answer(summary: dict[str, Any], players: int, p_holm: float | None = None,
                    family: int = 1) -> dict[str, Any]:
    """Section 1 for one seat count from its run's summary: ``{"players", "games",
    "question", "answer", "interval", "verdict", "decided", ...}``. Competitive: the
    most-winning seat's share and Wilson interval against the fair share and the chi-square
    p; cooperative: the team win rate.

    Args:
        summary: :func:`meeple.lab.analysis.stats.summarize`'s dict of the run.
        players: its seat count.
        p_holm: the chi-square p Holm-adjusted over the ``family`` seat counts the study
            tests (None: the run's own p and its ``significant`` flag decide); an advantage
            is only called when the adjusted p is below 5%.
        family: how many seat counts were tested together (said in the verdict when > 1).
    """
    n = summary["games"]
    out: dict[str, Any] = {"players": players, "games": n,
                           "question": f"Seat fairness, {players} player"
                                       f"{'s' if players != 1 else ''}"}
    if "team_win_rate" in summary:
        t = summary["team_win_rate"]
        ci = [t["ci_low"], t["ci_high"]]
        wide = (ci[1] - ci[0]) / 2 > EDGE_THAT_MATTERS
        return {**out, "question": f"Team win rate, {players} player"
                                   f"{'s' if players != 1 else ''}",
                "kind": "team", "rate": t["rate"], "interval": ci, "decided": not wide,
                "finding": UNDECIDED if wide else None,
                "answer": f"the team wins {pct(t['rate'])}",
                "verdict": f"the team of {'/'.join(summary['bots'])} wins {pct(t['rate'])} "
                           f"({share_range(ci)}) with {players} player{'s' if players != 1 else ''}"
                           f" ({n:,} games)",
                "loss_causes": summary.get("loss_causes")}
    seats = summary["seat_win_rate"]
    top = max(seats, key=lambda e: e["rate"])
    fair = summary["fair_share"]
    balance = summary["seat_balance"]
    ci = [top["ci_low"], top["ci_high"]]
    seat_text = f"seat {top['seat']} ({top['name']}) wins {pct(top['rate'])} " \
                f"({share_range(ci)}), fair is {pct(fair)}"
    few = balance.get("too_few_games")
    significant = balance.get("significant") if p_holm is None else p_holm < ALPHA
    adjusted = (f"; Holm-adjusted over {family} seat counts, p = {p_holm:.2g}"
                if p_holm is not None and family > 1 else "")
    if significant:
        if ci[0] > fair:
            what = "first-seat advantage" if top["seat"] == 0 else \
                f"seat {top['seat']} advantage"
        else:
            low = min(seats, key=lambda e: e["rate"])
            what = f"seats differ (seat {low['seat']} wins least, {pct(low['rate'])})"
        verdict, decided = f"{seat_text}: {what}{adjusted}", True
        finding = what.split(" (")[0]
    elif balance.get("significant") and p_holm is not None:
        verdict = (f"{seat_text}: not an advantage once the {family} seat counts are "
                   f"corrected for together (chi-square p = {balance['p_value']:.2g}, Holm "
                   f"p = {p_holm:.2g}); more games would tell")
        decided, finding = True, "no seat advantage"
    elif few:
        verdict = (f"too few games to tell ({n:,} games; about {few['games_needed']:,} would "
                   f"show an edge of 5 points)")
        decided, finding = False, UNDECIDED
    else:
        p = balance.get("p_value")
        verdict = (f"no seat advantage detected ({n:,} games"
                   + (f", chi-square p = {p:.2f})" if p is not None else ")"))
        decided, finding = True, "no seat advantage"
    return {**out, "kind": "seats", "rate": top["rate"], "interval": ci, "fair_share": fair,
            "seat": top["seat"], "p_value": balance.get("p_value"), "p_holm": p_holm,
            "decided": decided, "finding": finding,
            "answer": seat_text.replace(f" ({share_range(ci)})", ""), "verdict": verdict,
            "seats": [{k: e[k] for k in ("seat", "name", "wins", "rate", "ci_low", "ci_high")}
                      for e in seats],
            "games_needed": few["games_needed"] if few else None}


def length_answer(summary: dict[str, Any], results: Sequence[dict[str, Any]],
                  players: int, cap: int) -> dict[str, Any]:
    """Section 2 for one seat count: length in the game's unit (mean, sd, median, p90, min,
    max), decisions per game (every seat's actions, from the trace), and the share of games
    that hit the length cap with its Wilson interval."""
    length = summary["length"]
    unit = length["unit"]
    n = len(results)
    decisions = [sum(sum(seat.values()) for seat in (r.get("actions") or [])) for r in results]
    dec = sorted(decisions)
    trunc = sum(1 for r in results if r["truncated"])
    ci = list(wilson_interval(trunc, n))
    verdict = (f"{length['mean']:.1f} {unit} a game (sd {length['std']:.1f}, p90 "
               f"{length['p90']:.0f}), {sum(decisions) / n:.0f} decisions")
    if trunc / n > 0.05:
        verdict += (f"; {pct(trunc / n)} ({share_range(ci)}) hit the cap of {cap} {unit}: "
                    "games stall")
    elif trunc:
        verdict += f"; {trunc} of {n} hit the cap of {cap} {unit}"
    else:
        verdict += f"; none of {n:,} hit the cap"
    plural = "s" if players != 1 else ""
    return {"players": players, "games": n,
            "question": f"Length and pace, {players} player{plural}",
            "answer": f"{length['mean']:.1f} {unit} (p90 {length['p90']:.0f})",
            "interval": ci, "interval_of": "share that hit the cap",
            "interval_label": "hit the cap", "verdict": verdict,
            "finding": "games stall" if trunc / n > 0.05 else None, "unit": unit, "length": length,
            "decisions": {"mean": sum(decisions) / n, "p90": dec[min(n - 1, int(0.9 * n))],
                          "max": dec[-1]},
            "truncated": {"games": trunc, "rate": trunc / n, "ci": ci}, "cap": cap}


def skill_answer(step: dict[str, Any], coop: bool, players: int) -> dict[str, Any]:
    """Section 3 for one ladder step (:func:`~meeple.lab.experiments.ladder.competitive_step`
    or :func:`~meeple.lab.experiments.ladder.team_step`): the question, answer, interval and
    verdict; ``decided`` False when the step does not pay and the interval is wider than
    +/- 5 points."""
    up, lo, n = step["upper"], step["lower"], step["games"]
    ci = step["ci"]
    wide = (ci[1] - ci[0]) / 2 > EDGE_THAT_MATTERS
    if coop:
        diff = step["difference"]
        answer = f"team of {up} {pct(step['upper_rate'])}, of {lo} {pct(step['lower_rate'])}"
        if step["pays"]:
            verdict = f"{up} wins {100 * diff:.0f} points more as a team than {lo}: " \
                      "playing better pays"
        elif ci[1] < 0:
            verdict = f"{up} wins {100 * -diff:.0f} points less than {lo}"
        else:
            verdict = f"no clear difference between {up} and {lo} ({n:,} games each)"
        decided = step["pays"] or ci[1] < 0 or not wide
        finding = "pays" if step["pays"] else "pays less" if ci[1] < 0 else "no edge"
        if not decided:
            verdict = f"too few games to tell {up} from {lo} ({n:,} games each)"
            finding = UNDECIDED
        return {"question": f"Skill: {up} vs {lo} (team)", "answer": answer, "interval": ci,
                "interval_of": "difference of team win rates", "verdict": verdict,
                "decided": decided, "finding": finding, "step": step}
    share, fair = step["upper_share"], step["fair_share"]
    answer = f"one {up} among {players - 1} {lo} wins {pct(share)}"
    if step["pays"]:
        verdict = (f"{up} wins {pct(share)} ({share_range(ci)}) against {lo}, fair is {pct(fair)}"
                   f": playing better pays (+{100 * (share - fair):.0f} points)")
        decided, finding = True, "pays"
    elif ci[1] < fair:
        verdict = f"{up} wins less than its fair share against {lo} ({pct(share)}, " \
                  f"{share_range(ci)}; fair {pct(fair)})"
        decided, finding = True, "pays less"
    elif wide:
        need = max(games_needed(share, 1.0), n + 1)
        verdict = f"too few games to tell ({n:,} games; about {need:,} would show 5 points)"
        decided, finding = False, UNDECIDED
    else:
        verdict = f"{up} does not win more than {lo} ({pct(share)}, {share_range(ci)}; " \
                  f"fair {pct(fair)}): no edge from this step"
        decided, finding = True, "no edge"
    return {"question": f"Skill: {up} vs {lo}", "answer": answer, "interval": ci,
            "interval_of": "upper tier's win share", "fair_share": fair, "verdict": verdict,
            "decided": decided, "finding": finding,
            "games_needed": None if decided else need, "step": step}


def variants_answer(labels: Sequence[str], rows: Sequence[dict[str, Any]],
                    games: int) -> list[dict[str, Any]]:
    """Section 4: per variant (``labels[1:]``, against ``labels[0]``), the metrics flagged as
    different (:func:`~meeple.lab.experiments.compare.compare_arms`' rows)."""
    out = []
    for j, label in enumerate(labels[1:]):
        flagged = []
        for row in rows:
            c = row["comparisons"][j]
            if c.get("flag"):
                flagged.append({"metric": row["metric"], "label": row["label"],
                                "kind": row["kind"], "difference": c["difference"],
                                "ci": c["ci"], "p_holm": c["p_holm"]})
        names = ", ".join(f["label"] + _diff(f) for f in flagged[:4])
        more = f" and {len(flagged) - 4} more" if len(flagged) > 4 else ""
        verdict = (f"differs from {labels[0]} in {len(flagged)} metric"
                   f"{'s' if len(flagged) != 1 else ''}: {names}{more}" if flagged
                   else f"no difference from {labels[0]} detected ({games:,} games each)")
        out.append({"question": f"Variant {label} vs {labels[0]}", "variant": label,
                    "answer": f"{len(flagged)} of {len(rows)} metrics differ",
                    "interval": None, "verdict": verdict, "flagged": flagged,
                    "finding": "differs in " + ", ".join(sorted(f["label"] for f in flagged))
                    if flagged else "no difference"})
    return out


def _diff(f: dict[str, Any]) -> str:
    d = f["difference"]
    if d is None:
        return ""
    return f" ({100 * d:+.0f} pts)" if f["kind"] in ("share", "edge") else f" ({d:+.1f})"


# ------------------------------------------------------------- 5: card and tile power
#: A card played by fewer units than this share is "rarely played" (section 5).
RARE_PLAY = 0.01
#: Rows of a key table the study keeps for its page (most played first).
KEY_ROWS = 60


def _key_row(row: dict[str, Any]) -> dict[str, Any]:
    keep = ("key", "times", "units", "play_rate", "win_rate", "ci_low", "ci_high",
            "difference", "difference_ci", "p_holm", "flag", "outlier", "p_outlier_holm")
    return {k: row.get(k) for k in keep}


def card_power_answer(diagnostics: dict[str, Any], games: int, players: int,
                      bots: Sequence[str]) -> list[dict[str, Any]]:
    """Section 5 from a run's :func:`~meeple.lab.analysis.diagnostics.diagnose` dict (the
    ``cards`` table, else the ``actions`` table for a game that plays no cards): two entries,
    the cards that are *stronger than most* (a unit that played one wins more than the typical
    card's units, Holm-adjusted over every card of the table) and the cards *too weak* (weaker
    than most, each said to win more or less when played than when not, since a card weaker
    than the typical one may still beat not playing it; or played by under :data:`RARE_PLAY`
    of the units: ``losing`` lists the weak ones whose units won less). Each is
    ``{"question", "answer", "interval", "interval_of", "verdict", "decided", "what",
    "keys", "method", ...}``; ``keys`` the table's first :data:`KEY_ROWS` rows (play rate,
    win rate with its Wilson interval, difference from the units that did not play it with its
    interval, Holm p, outlier). An empty list when the run was not traced. Associations, not
    effects: a seat that plays a card when already ahead makes it look strong."""
    table, what = diagnostics.get("cards"), "card"
    if not table:
        table, what = diagnostics.get("actions"), "action"
    if not table:
        return []
    rows = [r for r in table["keys"] if r["units"]]
    who = "/".join(bots)
    base = {"what": what, "keys": [_key_row(r) for r in rows[:KEY_ROWS]],
            "method": table["method"], "unit": table["unit"],
            "typical_difference": table.get("typical_difference"), "games": games,
            "players": players}
    strong = sorted((r for r in rows if r.get("outlier") == "stronger than most"),
                    key=lambda r: -(r["difference"] or 0))
    if strong:
        top = strong[0]
        names = ", ".join(r["key"] for r in strong[:5]) + (
            f" and {len(strong) - 5} more" if len(strong) > 5 else "")
        verdict = (f"{len(strong)} of {len(rows)} {what}s stronger than most: {names}; "
                   f"{top['key']} wins {pct(top['win_rate'])} when played "
                   f"({share_range([top['ci_low'], top['ci_high']])}), "
                   f"{100 * (top['difference'] - (table.get('typical_difference') or 0)):+.0f}"
                   f" points over the typical {what} (Holm p = {top['p_outlier_holm']:.2g})")
        first = {"question": f"{what.capitalize()} power: too strong?",
                 "answer": f"{len(strong)} {what}{'s' if len(strong) != 1 else ''} stronger "
                           "than most", "interval": [top["ci_low"], top["ci_high"]],
                 "interval_of": f"{top['key']}: win rate when played",
                 "verdict": verdict, "decided": True, "strong": [r["key"] for r in strong],
                 "finding": "stronger than most: " + ", ".join(sorted(r["key"] for r in strong))}
    else:
        first = {"question": f"{what.capitalize()} power: too strong?",
                 "answer": f"none of {len(rows)} stands out", "interval": None,
                 "interval_of": None, "decided": True, "strong": [], "finding": "none",
                 "verdict": f"no {what} stands out from the typical one once {len(rows)} "
                            f"{what}s are corrected for together (Holm; {games:,} games, "
                            f"{who} in every seat)"}
    weak = sorted((r for r in rows if r.get("outlier") == "weaker than most"),
                  key=lambda r: r["difference"] or 0)
    rare = [r for r in rows if (r["play_rate"] or 0) < RARE_PLAY and r not in weak]
    question = f"{what.capitalize()} power: too weak?"
    if weak or rare:
        parts = []
        if weak:  # weaker than the typical key; say whether playing it still beats not
            named = [f"{r['key']} ({_against_rest(r)})" for r in weak[:5]]
            parts.append(f"weaker than most: {', '.join(named)}"
                         + (f" and {len(weak) - 5} more" if len(weak) > 5 else ""))
        if rare:
            parts.append(f"played by under {pct(RARE_PLAY)} of the {table['unit']}s: "
                         f"{', '.join(r['key'] for r in rare[:5])}"
                         + (f" and {len(rare) - 5} more" if len(rare) > 5 else ""))
        answer = " and ".join(
            ([f"{len(weak)} weaker than most"] if weak else [])
            + ([f"{len(rare)} rarely played"] if rare else []))
        second = {"question": question, "answer": answer,
                  "interval": [weak[0]["ci_low"], weak[0]["ci_high"]] if weak else None,
                  "interval_of": f"{weak[0]['key']}: win rate when played" if weak else None,
                  "verdict": "; ".join(parts), "decided": True,
                  "finding": "weaker than most: " + ", ".join(sorted(r["key"] for r in weak)),
                  "weak": [r["key"] for r in weak], "rare": [r["key"] for r in rare],
                  "losing": [r["key"] for r in weak if (r["difference"] or 0) < 0]}
    else:
        second = {"question": question,
                  "answer": "none", "interval": None, "interval_of": None, "decided": True,
                  "weak": [], "rare": [], "losing": [],
                  "verdict": f"every {what} seen is played by at least {pct(RARE_PLAY)} of "
                             f"the {table['unit']}s and none is weaker than most"}
    return [{**base, **first}, {**base, **second}]


def _against_rest(row: dict[str, Any]) -> str:
    """How a key's units did against those that did not play it, in words."""
    diff = row["difference"] or 0.0
    if diff > 0:
        return f"its players still win more than the rest, {100 * diff:+.0f} pts"
    return f"its players win less than the rest, {100 * diff:+.0f} pts"


def weights_answer(wbest: dict[str, Any], wentries: list[dict[str, Any]], against: str,
                   n: int) -> dict[str, Any]:
    """Section 6's heuristic-weights entry from the search's best setting ``wbest`` (its
    ``weights``, ``name``, search ``value`` and ``recheck`` shares) and its confirmation
    ``wentries`` against ``against`` over ``n`` settings searched: a tuning hint when the
    tuned heuristic beats ``against``, else "none found", saying that the search's own shares
    were on the games it was chosen on."""
    e = wentries[0]
    settings = ", ".join(f"{k} {v:.3g}" for k, v in sorted(wbest["weights"].items()))
    searched = [f"{pct(wbest[k])} {what}" for k, what in (("value", "in the search"),
                                                          ("recheck", "on its re-check"))
                if wbest.get(k) is not None]
    # the search keeps its luckiest setting, so its own games flatter it: fresh games decide
    chosen = (f"it won {' and '.join(searched)}, the games it was chosen on; on fresh games "
              if searched else "")
    if e["beats"]:
        verdict = f"heuristic weights that play better: {settings} ({chosen}" \
                  f"{e['verdict']}; a tuning hint for the bot, not a degenerate strategy)"
    else:
        verdict = f"no heuristic weights found that clearly play better than {against} " \
                  f"({n} settings searched; the best: {chosen}{e['verdict']})"
    return {**e, "question": f"Heuristic weights vs {against}", "verdict": verdict,
            "weights": wbest["weights"], "name": wbest["name"]}


# ------------------------------------------- 7: elimination, kingmaking, loss causes
def elimination_answer(diagnostics: dict[str, Any], results: Sequence[dict[str, Any]],
                       players: int, unit: str) -> list[dict[str, Any]]:
    """Section 7 for a competitive game from one run: how often a seat is knocked out, how
    early, and how much of the game a knocked-out seat sits out (``(length - length when
    knocked out) / length``, per knocked-out seat: the waiting the designer worries about);
    and the late swing (:func:`~meeple.lab.analysis.diagnostics.diagnose`'s
    ``last_elimination_decided``: the share of games won by a seat that was not leading going
    into the final round, the kingmaking signal). One entry ("nobody is knocked out") when no
    game eliminated anybody, none for an untraced run."""
    if not results or not all("eliminations" in r for r in results):
        return []
    n = len(results)
    elim = diagnostics.get("eliminations")
    if not elim:
        return [{"question": f"Elimination, {players} players", "answer": "nobody is "
                 "knocked out", "interval": None, "decided": True, "eliminations": None,
                 "verdict": f"no seat was knocked out in {n:,} games: everybody plays to "
                            "the end"}]
    idle = [(r["length"] - at) / r["length"] for r in results if r["length"]
            for _, at in r["eliminations"]]
    idle_mean = sum(idle) / len(idle) if idle else 0.0
    idle_p90 = sorted(idle)[min(len(idle) - 1, int(0.9 * len(idle)))] if idle else 0.0
    some = elim["games_with_elimination"]
    first = elim["order"][0]["length"] if elim["order"] else None
    ci = [some["ci_low"], some["ci_high"]]
    verdict = (f"a seat is knocked out in {pct(some['rate'])} ({share_range(ci)}) of games"
               + (f", the first in {unit.rstrip('s')} {first['median']:.0f} (median)"
                  if first else "")
               + f"; a knocked-out seat sits out {pct(idle_mean)} of the game on average "
                 f"(p90 {pct(idle_p90)})")
    out = [{"question": f"Elimination, {players} players",
            "answer": f"{pct(some['rate'])} of games; out for {pct(idle_mean)} of the game",
            "interval": ci, "interval_of": "share of games with a seat knocked out",
            "verdict": verdict, "decided": True, "eliminations": elim,
            "sit_out": {"mean": idle_mean, "p90": idle_p90, "seats": len(idle)}}]
    swing = elim["last_elimination_decided"]
    if swing["n"]:
        sci = [swing["ci_low"], swing["ci_high"]]
        out.append({"question": f"Kingmaking: late swings, {players} players",
                    "answer": f"{pct(swing['rate'])} of {swing['n']:,} games",
                    "interval": sci, "interval_of": "share won by a seat not leading into "
                    "the final round", "decided": True, "swing": swing,
                    "verdict": f"in {pct(swing['rate'])} ({share_range(sci)}) of games the "
                               f"seat leading into the final {unit.rstrip('s')} did not win: "
                               "the last elimination decided the winner"})
    return out


def loss_causes_answer(summary: dict[str, Any], players: int) -> list[dict[str, Any]]:
    """Section 7 for a cooperative game from one run's summary (``loss_causes``): what the
    team loses to, each cause's share of all games with its Wilson interval, commonest
    first."""
    causes = summary.get("loss_causes") or {}
    n = summary["games"]
    if not causes:
        return [{"question": f"Loss causes, {players} player{'s' if players != 1 else ''}",
                 "answer": "never lost", "interval": None, "decided": True, "causes": [],
                 "finding": "never lost",
                 "verdict": f"the team never lost in {n:,} games"}]
    rows = []
    for cause, c in causes.items():
        lo, hi = wilson_interval(c["count"], n)
        rows.append({"cause": cause, "count": c["count"], "rate": c["rate"],
                     "ci": [lo, hi]})
    top = rows[0]
    rest = ", ".join(f"{r['cause']} {pct(r['rate'])}" for r in rows[1:4])
    return [{"question": f"Loss causes, {players} player{'s' if players != 1 else ''}",
             "answer": f"{top['cause']} {pct(top['rate'])}" + (f"; {rest}" if rest else ""),
             "interval": top["ci"], "interval_of": f"share of games lost to {top['cause']}",
             "decided": True, "causes": rows, "finding": f"commonest loss: {top['cause']}",
             "verdict": f"the commonest loss is {top['cause']}: {pct(top['rate'])} "
                        f"({share_range(top['ci'])}) of {n:,} games"
                        + (f", then {rest}" if rest else "")}]


def _number_text(metric: str, x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if METRICS[metric]["share"] else f"{x:.1f}"


def _evidence(c: Mapping[str, Any]) -> str:
    """``"mean_rounds=20..30 (24.1, 23.5-24.8)"``."""
    if c["value"] is None:
        return f"{c['text']} (no value: {c.get('why', 'not measured')})"
    value = _number_text(c["metric"], c["value"])
    if not c["interval"]:
        return f"{c['text']} ({value})"
    low, high = (_number_text(c["metric"], x) for x in c["interval"])
    return f"{c['text']} ({value}, {low} to {high})" if c["interval"][0] < 0 else \
        f"{c['text']} ({value}, {low}-{high})"


def target_answer(item: Mapping[str, Any], target_text: str, unit: str) -> dict[str, Any]:
    """Section 8 for one confirmed setting (an item of
    :func:`~meeple.lab.experiments.target.search_target`'s ``confirmed``): the question, the
    answer (clauses met, missed, undecided), the interval of the first share clause (None when
    the target has none: the study table shows intervals as shares), the verdict ("start_energy=50
    meets mean_rounds=20..30 (25.4, 24.9-25.9); misses ..."; a guard appears only when not
    met), ``decided`` (no clause left undecided), ``met``, ``dirs``, ``settings``, ``clauses``
    and the length ``unit``."""
    clauses = item["clauses"]
    met = [c for c in clauses if c["verdict"] == "met" and not c["guard"]]
    missed = [c for c in clauses if c["verdict"] == "not met"]
    open_ = [c for c in clauses if c["verdict"] == "too few games to tell"]
    parts = []
    if met:
        parts.append("meets " + " and ".join(_evidence(c) for c in met))
    if missed:
        parts.append("misses " + " and ".join(_evidence(c) for c in missed))
    if open_:
        parts.append("too few games to tell " + " and ".join(_evidence(c) for c in open_))
    aimed = [c for c in clauses if not c["guard"]]
    done = sum(1 for c in aimed if c["verdict"] == "met")
    verdict = f"{item['label']} " + "; ".join(parts) + f" ({item['games']:,} games)"
    if not parts:
        verdict = f"{item['label']}: every clause met ({item['games']:,} games)"
    shared = next((c for c in aimed if METRICS[c["metric"]]["share"] and c["interval"]), None)
    answer = f"meets {done} of {len(aimed)} clause{'s' if len(aimed) != 1 else ''}"
    if missed:
        answer += f", misses {len(missed)}"
    if open_:
        answer += f", {len(open_)} undecided"
    return {"question": f"Toward {target_text}: {item['label']}", "answer": answer,
            "interval": shared["interval"] if shared else None,
            "interval_of": shared["metric"] if shared else None,
            "verdict": verdict, "decided": not open_, "met": item["met"],
            "dirs": [item["dir"]], "settings": item["settings"], "clauses": clauses,
            "unit": unit}
