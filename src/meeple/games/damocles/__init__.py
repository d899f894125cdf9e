"""Damocles: 2-6 players swap tokens in a circle of seven and play pattern-matching codices.

Rules as implemented, every decision (DAM-n), the variants and modules, the action notation and
the deck composition: docs/rules/damocles.md. Modules: ``codex`` (gods, codex types, the Codex
value), ``content`` (the deck file, validated on load), ``matching`` (patterns against the
circle), ``actions`` (moves and their notation), ``moves`` (legal moves per sub-decision),
``rules`` (spec and state), ``bot`` (the heuristic bot), ``render`` (terminal text),
``determinize`` and ``evaluate`` (search support).
"""

from meeple.games.damocles import board, bot, decisions, encoding, evaluate, render
from meeple.games.damocles.rules import Damocles, DamoclesState

__all__ = ["Damocles", "DamoclesState"]

Damocles.define(
    bots={"heuristic": bot.HeuristicBot},
    renderer=render.render_view,
    board=board.content,
    evaluator=evaluate.evaluate,
    decisions=decisions.decision_help,
    encoding=encoding,
)
