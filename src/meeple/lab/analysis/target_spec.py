"""A target for a design (issue 21, ``meeple study --target``): its text, parsed and checked.

``"mean_rounds=20..30,seat_spread<0.05"`` is comma-separated clauses ``METRIC=LO..HI``,
``METRIC<X``, ``METRIC<=X``, ``METRIC>X``, ``METRIC>=X`` or ``METRIC=X`` (within
:data:`SHARE_TOLERANCE` of X for a share, :data:`COUNT_TOLERANCE` of X, at least 0.5, for a
count); a share may be written ``5%``. The metrics are those of
:mod:`meeple.lab.analysis.target_metrics` (``METRICS``), with the :data:`ALIASES`. A
:class:`Target` measures how far a setting's metrics are from it (:meth:`Target.distance`) and
says, from a metric's 95% interval, whether a clause is met (:meth:`Clause.verdict`). The search
that uses it is :mod:`meeple.lab.experiments.target`. Plays nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from meeple.engine.errors import ParameterError
from meeple.lab.analysis.target_metrics import METRICS

__all__ = ["ALIASES", "COUNT_TOLERANCE", "GUARDS", "SHARE_TOLERANCE", "Clause", "Target",
           "parse_target"]

#: Other names accepted for the metrics (``meeple sweep --target``'s among them, for the same
#: metrics).
ALIASES = {"mean_length": "mean_rounds", "p90_length": "p90_rounds", "length": "mean_rounds",
           "length_mean": "mean_rounds", "truncated": "truncated_rate",
           "truncation": "truncated_rate", "draws": "draw_rate",
           "first_seat": "first_seat_edge", "team_win": "team_win_rate"}
#: ``METRIC=X`` for a share: within X +/- this.
SHARE_TOLERANCE = 0.02
#: ``METRIC=X`` for a count (rounds, decisions): within X +/- this share of X (at least 0.5).
COUNT_TOLERANCE = 0.05
#: The guards added to a target that does not name their metric, with the metrics one needs
#: in the target to be added (none: always).
GUARDS = {"truncated_rate<=0.05": (), "draw_rate<=0.5": ("seat_spread", "first_seat_edge")}
_CLAUSE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(<=|>=|<|>|=)\s*(.*?)\s*$")


# ------------------------------------------------------------------------------ target
@dataclass(frozen=True)
class Clause:
    """One clause of a target: ``metric`` (a :data:`METRICS` name) must lie in ``low..high``
    (``-inf``/``inf`` when open; ``strict`` ends exclude their bound); ``text`` as written."""

    metric: str
    low: float
    high: float
    text: str
    strict_low: bool = False
    strict_high: bool = False
    guard: bool = False

    def contains(self, value: float) -> bool:
        """Whether ``value`` meets the clause."""
        above = value > self.low if self.strict_low else value >= self.low
        below = value < self.high if self.strict_high else value <= self.high
        return above and below

    def scale(self) -> float:
        """What a distance of 1 is: the range's width when it is closed and wider than 0,
        else the size of its finite bound, else the metric's unit (1 for counts, 0.1 for
        shares)."""
        if math.isfinite(self.low) and math.isfinite(self.high) and self.high > self.low:
            return self.high - self.low
        bound = self.low if math.isfinite(self.low) else self.high
        unit = 0.1 if METRICS[self.metric]["share"] else 1.0
        return abs(bound) if bound else unit

    def distance(self, value: float | None) -> float:
        """0 when ``value`` meets the clause, else how far outside it is over :meth:`scale`;
        ``inf`` for a missing value."""
        if value is None or not math.isfinite(value):
            return math.inf
        if self.contains(value):
            return 0.0
        gap = self.low - value if value <= self.low else value - self.high
        return max(gap, 1e-9) / self.scale()

    def verdict(self, interval: Sequence[float] | None) -> str:
        """``met`` when the 95% ``interval`` lies inside the clause, ``not met`` when it lies
        outside, else ``too few games to tell`` (also without an interval). A guard clause
        is ``met`` unless its interval lies outside: it only rules out settings shown to
        break it."""
        if not interval:
            return "met" if self.guard else "too few games to tell"
        low, high = interval
        if self.contains(low) and self.contains(high):
            return "met"
        if high < self.low or low > self.high or (self.strict_low and high <= self.low) or (
                self.strict_high and low >= self.high):
            return "not met"
        return "met" if self.guard else "too few games to tell"


@dataclass(frozen=True)
class Target:
    """A parsed target: its ``clauses`` in order and the ``text`` it came from."""

    clauses: tuple[Clause, ...]
    text: str

    def metrics(self) -> list[str]:
        """The metrics the clauses name, in order, without repeats."""
        return list(dict.fromkeys(c.metric for c in self.clauses))

    def distance(self, values: Mapping[str, float | None]) -> float:
        """The sum over the clauses of :meth:`Clause.distance` (0: every clause met)."""
        return sum(c.distance(values.get(c.metric)) for c in self.clauses)

    def with_guard(self) -> Target:
        """The target plus the :data:`GUARDS` clauses it does not name a metric of itself
        (the draw guard only with ``seat_spread`` or ``first_seat_edge``)."""
        named = self.metrics()
        added = []
        for text, needs in GUARDS.items():
            guard = _parse_clause(text)
            if guard.metric in named or (needs and not set(needs) & set(named)):
                continue
            added.append(Clause(**{**asdict(guard), "guard": True}))
        return Target((*self.clauses, *added), self.text)


def _number(text: str, clause: str) -> float:
    value = text.strip()
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        raise ParameterError(f"target clause {clause!r}: {value!r} is not a number") from None


def _names() -> str:
    return ", ".join([*METRICS, *(f"{a} (= {m})" for a, m in ALIASES.items())])


def _parse_clause(text: str) -> Clause:
    match = _CLAUSE.match(text)
    if match is None or not match.group(3):
        raise ParameterError(f"target clause {text.strip()!r} must look like METRIC=LO..HI, "
                             f"METRIC<X, METRIC<=X, METRIC>X, METRIC>=X or METRIC=X; "
                             f"metrics: {_names()}")
    raw, op, value = match.groups()
    name = raw.lower().replace("-", "_")
    metric = ALIASES.get(name, name)
    if metric not in METRICS:
        raise ParameterError(f"target clause {text.strip()!r}: unknown metric {raw!r}; "
                             f"metrics: {_names()}")
    clause = text.strip()
    inf = math.inf
    if op == "=" and ".." in value:
        lo_text, _, hi_text = value.partition("..")
        low, high = _number(lo_text, clause), _number(hi_text, clause)
        if low > high:
            raise ParameterError(f"target clause {clause!r}: {low:g} is above {high:g}")
        return Clause(metric, low, high, clause)
    x = _number(value, clause)
    if op == "=":
        tol = SHARE_TOLERANCE if METRICS[metric]["share"] else max(0.5, COUNT_TOLERANCE * abs(x))
        return Clause(metric, x - tol, x + tol, clause)
    if op in ("<", "<="):
        return Clause(metric, -inf, x, clause, strict_high=op == "<")
    return Clause(metric, x, inf, clause, strict_low=op == ">")


def parse_target(text: str) -> Target:
    """``"mean_rounds=20..30,seat_spread<0.05"`` -> a :class:`Target` (rules in the module
    docstring).

    Raises:
        ParameterError: an empty target, a clause of another form, an unknown metric (the
            message names the clause and lists the metrics), a value that is not a number or
            a range whose low end is above its high end.
    """
    parts = [p for p in text.split(",") if p.strip()]
    if not parts:
        raise ParameterError(f"--target {text!r} is empty; write clauses such as "
                             f"mean_rounds=20..30,seat_spread<0.05 with metrics: {_names()}")
    return Target(tuple(_parse_clause(p) for p in parts), text.strip())


