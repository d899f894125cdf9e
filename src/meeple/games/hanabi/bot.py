"""Placeholder replaced below."""
from meeple.engine import Bot


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, view, legal_actions):
        return legal_actions[0]
