"""Ozymandias (campaign edition) arithmetic: collapse scoring and war strength, as pure
functions (the rules state calls them; the scenario tests T-OZW-1..5 check them directly).

Rules: seeds/ozymandias-campaign.md, Collapse and War; decisions OZW-8, OZW-9, OZW-10, OZW-30
in docs/rules/ozymandias-campaign.md.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Points per level k = 1..5 (Collapse: "score 1/3/6/10/15 points for 1/2/3/4/5+ matching
#: cubes"), extended by one level for the laid-down worker bonus: level 6 is 21 (OZW-9).
LEVEL_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)


def level_points(level: int) -> int:
    """Points of scoring ``level`` (0..6): k(k+1)/2, so 0/1/3/6/10/15/21 (OZW-9)."""
    return LEVEL_POINTS[max(0, min(level, 6))]


def collapse_points(suit: int, rank: int, cubes: Sequence[int], unrest: int, harvest: bool,
                    laid: bool, threshold: str = "total", bonus_from_zero: bool = False) -> int:
    """Victory points a collapsing tableau card scores (Collapse; OZW-8, OZW-9, OZW-10).

    Args:
        suit: the card's suit index (0..2); rank: its rank (2..7).
        cubes: faction cubes on the card, one count per suit (length 3, each >= 0).
        unrest: the owner's unrest (>= 0); the card counts as rank - unrest (never below 0).
        harvest: whether a (standing) harvest worker is on the card: without one it scores 0.
        laid: whether a laid-down worker is on the card: the score is one level higher.
        threshold: ``total`` (default): at least rank - unrest cubes of any suit are needed;
            ``matching``: that many matching cubes; ``none``: no threshold, only the cap.
        bonus_from_zero: whether the laid-down bonus lifts 0 matching cubes to level 1.
    Returns:
        0, 1, 3, 6, 10, 15 or 21: level k = min(matching cubes, rank - unrest, 5), plus one
        level with a laid worker.
    """
    if not harvest:
        return 0
    cap = max(0, rank - unrest)
    matching = cubes[suit]
    if threshold == "total" and sum(cubes) < cap:
        return 0
    if threshold == "matching" and matching < cap:
        return 0
    level = min(matching, cap, 5)
    if laid and (level > 0 or bonus_from_zero):
        level += 1
    return LEVEL_POINTS[level] if level >= 0 else 0  # level_points(level): level <= 6 here


def war_strength(card_suit: int, rank: int, sector_suit: int) -> int:
    """A war card's strength: its rank, doubled when its suit matches the suit of the sector
    holding the contested point (War; OZW-30)."""
    return rank * 2 if card_suit == sector_suit else rank


def attacker_wins(attacker: tuple[int, int] | None, defender: tuple[int, int] | None,
                  sector_suit: int) -> bool:
    """Whether the active (attacking) player wins a war (War; OZW-30).

    Args:
        attacker, defender: the revealed ``(suit, rank)``, or None for a player with no cards.
        sector_suit: the suit of the tile holding the contested point.
    Returns:
        True when the attacker's strength is at least the defender's (the active player wins
        ties), or the defender has no card; False when only the attacker has none.
    """
    if defender is None:
        return True
    if attacker is None:
        return False
    return war_strength(*attacker, sector_suit) >= war_strength(*defender, sector_suit)
