"""Human playtests beside bot playtests: what people did at the web server's tables, summarised
for a designer (issue 20; ``meeple report DIR --people DB_URL``).

Input is plain data (this module reads no database): the server's finished games of one game
spec, each as its meeple record (whose ``meta`` holds each step's ``sources`` ``person``,
``bot`` or ``timeout``, each step's ``think_seconds`` and the ``seats``) with the survey
answers of its people; and, to compare with, the result dicts of the bot games of the same
spec (a playtest's store). Intervals are 95%: Wilson for shares, Student's t for means.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.stats as sps

from meeple.engine.game import Game
from meeple.lab.analysis.stats import CONFIDENCE, rate_entry

#: The survey's fixed-choice answers, in display order (as ``meeple.server.protocol``).
LENGTH_ANSWERS = ("too short", "about right", "too long")
AGAIN_ANSWERS = ("yes", "maybe", "no")


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE,
                  bounds: tuple[float, float] = (-math.inf, math.inf)) -> dict[str, Any]:
    """``{"n", "mean", "low", "high"}``: the mean of ``values`` with Student's t interval,
    clipped to ``bounds`` (the values' possible range: a count is never negative) (``low`` and
    ``high`` None below two values; all None for none)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None}
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean())
    if n < 2:
        return {"n": n, "mean": mean, "low": None, "high": None}
    sem = float(arr.std(ddof=1)) / math.sqrt(n)
    half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sem
    return {"n": n, "mean": mean, "low": max(bounds[0], mean - half),
            "high": min(bounds[1], mean + half)}


def _quantiles(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "median": None, "p90": None, "mean": None}
    arr = np.asarray(values, dtype=float)
    return {"n": len(values), "median": float(np.median(arr)),
            "p90": float(np.quantile(arr, 0.9)), "mean": float(arr.mean())}


def is_human_game(record: Mapping[str, Any]) -> bool:
    """Whether a server record had at least one person seated."""
    return any(s.get("kind") == "person" for s in (record.get("meta") or {}).get("seats", ()))


def _action_kind(game: Game, seat: int, text: str) -> str:
    """The kind of decision an action answers: its ``kind`` (``swap``, ``expand``...), else
    its class's name (Four Gods: ``selection``, its one decision)."""
    try:
        action = game.parse_action(text, seat)
    except Exception:  # a record's texts replayed once already; this only labels
        return "?"
    kind = getattr(action, "kind", None)
    return str(kind) if kind else type(action).__name__.lower()


def people_summary(game: Game, games: Sequence[Mapping[str, Any]],
                   bot_results: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Summarise human games for the report's "People" section.

    Args:
        game: the game spec every record is of.
        games: the server's finished games: ``{"table": id, "record": record JSON,
            "surveys": [{"seat", "name", "answers"}...]}``; games without a person seated
            count as the server's bot games.
        bot_results: result dicts of bot games of the same spec (``RunStore.read_results``),
            for the comparison of length and seat balance.
    Returns:
        A JSON-compatible dict:

        * ``games``: human games and the server's all-bot games;
        * ``length``: human and bot games, mean with interval;
        * ``seat_wins``: per seat, in human games, a Wilson share (``fair_share`` beside);
        * ``people_vs_bots``: in games with both, the share of winners who were people, and
          people's share of the seats (what it would be if people and bots played alike);
        * ``decision_seconds``: per decision kind, people and bots: n, median, p90, mean;
        * ``timeouts``: per seat, the share of people's decisions that timed out;
        * ``talk``: messages per person per game, and the share that was private;
        * ``survey``: fun (mean with interval, counts 1..5); length and again (shares with
          intervals); ``confusing`` and ``comments`` (every free-text answer);
        * ``tables``: each human game: id, seat names and kinds, winners, length, minutes.
    """
    human = [g for g in games if is_human_game(g["record"])]
    players = game.players
    out: dict[str, Any] = {"games": {"human": len(human), "server_bots": len(games) - len(human)}}
    lengths = [g["record"]["result"]["length"] for g in human]
    out["length"] = {"human": mean_interval(lengths, bounds=(0, math.inf)),
                     "bots": mean_interval([r["length"] for r in bot_results],
                                           bounds=(0, math.inf))}
    seat_wins = [0] * players
    person_wins = person_seats = mixed_seats = mixed_winners = 0
    think: dict[tuple[str, str], list[float]] = defaultdict(list)
    timeouts = [[0, 0] for _ in range(players)]   # per seat: (timed out, person decisions)
    talk_per_person: list[float] = []
    private = total_talk = 0
    tables = []
    for g in human:
        record = g["record"]
        meta = record.get("meta") or {}
        seats = meta.get("seats") or []
        winners = record["result"]["winners"]
        for w in winners:
            seat_wins[w] += 1
        kinds = [s.get("kind") for s in seats]
        if "bot" in kinds:  # people and bots at one table: who wins?
            mixed_seats += players
            person_seats += kinds.count("person")
            person_wins += sum(1 for w in winners if kinds[w] == "person")
            mixed_winners += len(winners)
        sources = meta.get("sources") or []
        seconds = meta.get("think_seconds") or []
        for i, step in enumerate(record["steps"]):
            (seat_text, text), = step.items()
            seat = int(seat_text)
            source = sources[i] if i < len(sources) else None
            if kinds[seat] == "person" and source in ("person", "timeout"):
                timeouts[seat][1] += 1
                timeouts[seat][0] += source == "timeout"
            took = seconds[i] if i < len(seconds) else None
            if took is not None and source in ("person", "bot"):
                think[(_action_kind(game, seat, text), source)].append(float(took))
        talk = Counter(m["sender"] for m in record.get("talk") or ())
        for seat, kind in enumerate(kinds):
            if kind == "person":
                talk_per_person.append(talk.get(seat, 0))
        total_talk += len(record.get("talk") or ())
        private += sum(1 for m in record.get("talk") or () if m.get("recipients") is not None)
        started, finished = meta.get("started_at"), meta.get("finished_at")
        tables.append({"table": g.get("table"), "length": record["result"]["length"],
                       "winners": winners, "seats": [s.get("name") for s in seats],
                       "kinds": kinds,
                       "minutes": None if started is None or finished is None
                       else round((finished - started) / 60, 1)})
    n_human = len(human)
    out["seat_wins"] = [rate_entry(seat_wins[s], n_human) for s in range(players)]
    out["fair_share"] = 1 / players
    out["people_vs_bots"] = {"winner_share": rate_entry(person_wins, mixed_winners),
                             "seat_share": (person_seats / mixed_seats) if mixed_seats else None}
    out["decision_seconds"] = [{"kind": kind, "who": who, **_quantiles(values)}
                               for (kind, who), values in sorted(think.items())]
    out["timeouts"] = [rate_entry(k, n) for k, n in timeouts]
    out["talk"] = {"per_person_game": mean_interval(talk_per_person, bounds=(0, math.inf)),
                   "private_share": rate_entry(private, total_talk)}
    out["survey"] = _survey([a for g in human for a in g.get("surveys") or ()])
    out["tables"] = tables
    return out


def _survey(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    answers = [r["answers"] for r in rows]
    fun = [a["fun"] for a in answers if a.get("fun") is not None]
    out: dict[str, Any] = {"answered": len(answers), "fun": mean_interval(fun, bounds=(1, 5)),
                           "fun_counts": [fun.count(v) for v in range(1, 6)]}
    for key, options in (("length", LENGTH_ANSWERS), ("again", AGAIN_ANSWERS)):
        given = [a.get(key) for a in answers if a.get(key) in options]
        out[key] = {option: rate_entry(given.count(option), len(given)) for option in options}
    for key, name in (("confusing", "confusing"), ("comment", "comments")):
        quotes = [{"seat": r["seat"], "name": r.get("name", ""), "text": r["answers"][key]}
                  for r in rows if r["answers"].get(key)]
        out[name] = quotes
    return out
