"""How many games a verdict needs: "too few games to tell" instead of a negative conclusion.

A verdict such as "these bots cannot show skill over luck" is a conclusion only when the data
could have shown an edge that matters. The width that matters here is the **half-width of a
bot's (or a line-up's) 95% Wilson interval on its win rate**, and the edge that matters is
:data:`EDGE_THAT_MATTERS`, 5 percentage points: the verdict compares each rate with the fair
share, and a designer acts on an edge of about one game in twenty, not on less. While an
interval is wider than +/- 5 points, "no bot differs from the fair share" cannot rule out an
edge of that size, so the honest answer is "too few games to tell". The number of games needed
is the smallest count at which the Wilson half-width, at the rate being tested (the fair share,
or the pooled team win rate), is at most 5 points, given how many (game, seat) pairs the bot
gets per game.
"""

from __future__ import annotations

import math

from scipy import stats as sps

__all__ = ["EDGE_THAT_MATTERS", "games_needed", "too_few", "wilson_half_width"]

#: The smallest edge in win rate a verdict must be able to see (5 percentage points).
EDGE_THAT_MATTERS = 0.05


def wilson_half_width(p: float, n: int, confidence: float = 0.95) -> float:
    """Half the width of the 95% Wilson score interval of a rate ``p`` (in ``[0, 1]``) seen
    over ``n`` (> 0) trials."""
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    return z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))


def games_needed(p: float, per_game: float, half_width: float = EDGE_THAT_MATTERS) -> int:
    """The fewest games for a Wilson half-width of at most ``half_width`` on a rate near ``p``.

    Args:
        p: the rate being tested (e.g. the fair share), in ``[0, 1]``.
        per_game: trials one game gives (a bot's (game, seat) pairs per game; 1 for a team),
            > 0.
        half_width: the interval half-width that matters (default 5 points).
    Returns:
        The number of games (>= 1).
    """
    trials = 1
    while wilson_half_width(p, trials) > half_width:  # doubling, then bisection
        trials *= 2
    low, high = trials // 2, trials
    while high - low > 1:
        mid = (low + high) // 2
        if wilson_half_width(p, mid) > half_width:
            low = mid
        else:
            high = mid
    return max(1, math.ceil(high / per_game))


def too_few(groups: list[tuple[int, float, float]], n_games: int, p: float,
            what: str) -> dict[str, object] | None:
    """Whether a run is too short for a negative verdict, and how many games it would need.

    Args:
        groups: per compared group (bot or line-up), ``(trials, ci_low, ci_high)``: its trials
            over the run (pairs or games) and its 95% Wilson interval.
        n_games: games in the run (> 0).
        p: the rate being tested (fair share, pooled team win rate).
        what: what the groups are, for the text ("bot", "line-up").
    Returns:
        ``None`` when every group's interval half-width is already at most
        :data:`EDGE_THAT_MATTERS`; else ``{"games", "games_needed", "half_width",
        "edge_that_matters", "text"}``: the widest half-width now and the games at which every
        group's would be 5 points, with a sentence saying so.
    """
    widest = max((high - low) / 2 for _, low, high in groups)
    if widest <= EDGE_THAT_MATTERS:
        return None
    needed = max(games_needed(p, trials / n_games) for trials, _, _ in groups if trials)
    needed = max(needed, n_games + 1)
    text = (f"too few games to tell: with {n_games} games each {what}'s 95% interval is up to "
            f"+/- {widest * 100:.0f} points wide; about {needed:,} games would narrow it to "
            f"+/- {EDGE_THAT_MATTERS * 100:.0f} points, enough to see an edge of "
            f"{EDGE_THAT_MATTERS * 100:.0f} points")
    return {"games": n_games, "games_needed": needed, "half_width": widest,
            "edge_that_matters": EDGE_THAT_MATTERS, "text": text}
