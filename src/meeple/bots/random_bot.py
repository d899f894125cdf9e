"""The random bot: uniform over the legal actions, from its own seeded stream."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.action import Action
from meeple.engine.agent import Bot


class RandomBot(Bot):
    """Picks each legal action with equal probability (the lab's baseline of no skill)."""

    name = "random"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return legal_actions[int(self.rng.random() * len(legal_actions))]
