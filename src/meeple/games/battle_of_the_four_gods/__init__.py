"""Battle of the Four Gods: 2-4 seats attack and defend in secret; the last one standing wins.

Rules as implemented, with every decision (B4G-n), the variants and the action notation:
docs/rules/battle-of-the-four-gods.md. Modules: ``actions`` (the Selection value and its
notation), ``variants`` (parameters and the designer's presets), ``rules`` (spec and state),
``bot`` (the heuristic bot), ``render`` (terminal text; never imported by the rules).
"""

from meeple.games.battle_of_the_four_gods import bot, decisions, encoding, evaluate, render
from meeple.games.battle_of_the_four_gods.rules import FourGods, FourGodsState

__all__ = ["FourGods", "FourGodsState"]

FourGods.define(
    bots={"heuristic": bot.HeuristicBot},
    renderer=render.render_view,
    evaluator=evaluate.evaluate,
    decisions=decisions.decision_help,
    encoding=encoding,
)
