"""Epoch Ellipse: cooperative deck-building survival in a ruined city, 1-5 players.

Rules as implemented, every decision (EPE-n), the card lists, the variants and the action
notation: docs/rules/epoch-ellipse.md. Modules: ``cards`` (kinds, points, effects, the Card and
Location values), ``content`` (the card file, validated on load), ``entries`` (one card or
location of the file and its own rules), ``actions`` (moves and their notation), ``moves``
(legal moves per step), ``rules`` (spec, state, the day's phases),
``explore`` (exploration, payments, hunger), ``night`` (REST and WAKE UP: from one day to the
next), ``effects`` (curses, charms, night cards), ``variants``, ``bot`` (the heuristic team
bot), ``render`` (terminal text).
"""

from meeple.games.epoch_ellipse import board, bot, decisions, encoding, evaluate, render, scenario
from meeple.games.epoch_ellipse.rules import EpochEllipse, EpochState

__all__ = ["EpochEllipse", "EpochState"]

EpochEllipse.define(
    bots={"heuristic": bot.HeuristicBot},
    renderer=render.render_view,
    board=board.content,
    evaluator=evaluate.evaluate,
    decisions=decisions.decision_help,
    scenario=scenario.build,
    encoding=encoding,
)
