"""Winners and returns of competitive games: the mixin :class:`RecordedWinners` and the
win-share convention (rules-questions X-6: ties share)."""

from __future__ import annotations

from collections.abc import Sequence


class RecordedWinners:
    """Mixin for competitive game states that record their winners when the game ends.

    The state sets ``self.winners_`` (a slot of its own): None while the game goes on, then
    the tuple of winning seats. ``returns`` are then win shares (:func:`win_shares`, X-6) and
    ``winners`` that tuple. List it before :class:`State`: ``class S(RecordedWinners, State)``.
    """

    __slots__ = ()

    def returns(self) -> tuple[float, ...]:
        """Win share: 1/k to each of k tied winners, 0 to the others; zeros mid-game."""
        return win_shares(self.game.players, self.winners_)  # type: ignore[attr-defined]

    def winners(self) -> tuple[int, ...]:
        """The winning seats at the end; ``()`` before."""
        return self.winners_ or ()  # type: ignore[attr-defined]


def win_shares(players: int, winners: Sequence[int] | None) -> tuple[float, ...]:
    """Returns as win shares: 1/k to each of k tied ``winners``, 0 to the others; all zeros
    while ``winners`` is None (the game goes on). The convention of every competitive game
    here (rules-questions X-6: ties share)."""
    if winners is None:
        return (0.0,) * players
    share = 1.0 / len(winners)
    return tuple(share if s in winners else 0.0 for s in range(players))
