"""Rates and their intervals, the building blocks every summary of the lab shares
(:mod:`meeple.lab.analysis.stats`, :mod:`~meeple.lab.analysis.coop_stats`,
:mod:`~meeple.lab.analysis.diagnostics`): Wilson score intervals of a proportion
(``scipy.stats.binomtest(...).proportion_ci(method="wilson")``, and a closed form for fractional
successes), Newcombe's interval of a difference, a sole winner's margin, and the confidence and
significance levels of every verdict (95%, 5%)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from scipy import stats as sps

#: Confidence level of every interval in the summary.
CONFIDENCE = 0.95
#: Significance level of every test verdict in the summary.
ALPHA = 0.05


def wilson_interval(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion ``k / n``.

    Args:
        k: successes, ``0 <= k <= n``.
        n: trials, ``n >= 1``.
        confidence: the interval's confidence level in (0, 1).
    Returns:
        ``(low, high)`` with ``0 <= low <= k / n <= high <= 1``, as plain floats.
    Raises:
        ValueError: if ``n < 1`` or ``k`` is outside ``[0, n]``.
    """
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"a proportion needs 0 <= k <= n and n >= 1, got k = {k}, n = {n}")
    ci = sps.binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence,
                                                      method="wilson")
    return float(ci.low), float(ci.high)


def wilson(successes: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of ``successes / n``; ``successes`` may be fractional (shared
    wins count as fractions of a win).

    Raises:
        ValueError: if ``n < 1`` or ``successes`` is outside ``[0, n]``.
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}, {n}")
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at the ends the bound is exactly 0 or 1 (centre == half), whatever the float rounding
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def difference_interval(k1: float, n1: int, k2: float, n2: int,
                        confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k1/n1 - k2/n2`` (from the two Wilson
    intervals; Newcombe 1998, method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, confidence)
    l2, u2 = wilson(k2, n2, confidence)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def rate_entry(k: int, n: int) -> dict[str, Any]:
    """``{"k", "n", "rate", "ci_low", "ci_high"}`` with a Wilson interval; rate fields are
    ``None`` when ``n == 0``."""
    if n == 0:
        return {"k": k, "n": n, "rate": None, "ci_low": None, "ci_high": None}
    low, high = wilson_interval(k, n)
    return {"k": k, "n": n, "rate": k / n, "ci_low": low, "ci_high": high}


def winning_margin(result: Mapping[str, Any], winner: int) -> float:
    """The sole ``winner``'s score minus the best score of the seats still in the game when
    the winner won or fell: seats eliminated earlier (the trace's ``eliminations``) are left
    out unless nobody else is left, so in Four Gods a seat knocked out at 0 energy rounds
    before does not make the winner of a final fall at -1 look beaten. Never negative: a
    winner that is not the best of those (the rules ranked by something else) counts 0."""
    scores = [float(x) for x in result["scores"]]
    out_at = {int(seat): length for seat, length in result.get("eliminations") or ()}
    fell = out_at.get(winner)
    others = [s for s in range(len(scores)) if s != winner
              and (s not in out_at or (fell is not None and out_at[s] >= fell))]
    others = others or [s for s in range(len(scores)) if s != winner]
    return max(0.0, scores[winner] - max(scores[s] for s in others))


def _num(share: float) -> str:
    """A share as a percentage number without the sign: whole percent from 10%, else one
    decimal."""
    pct = 100.0 * share
    return f"{pct:.0f}" if pct >= 9.95 or pct == 0 else f"{pct:.1f}"
