"""Ozymandias, market edition: 2-4 players, secret plans, faction disks on hex sectors, a card
market.

Rules as implemented, every decision (OZD-n), the event list, the variants and the action
notation: docs/rules/ozymandias-market.md. Modules: ``cards`` (colours, the event vocabulary,
the Card value), ``content`` (the card file, validated on load), ``hexes`` (axial hex
geometry), ``actions`` (orders and their notation), ``moves`` (legal moves), ``rules`` (spec
and state), ``bot`` (the heuristic bot), ``render`` (terminal text).
"""

from meeple.games.ozymandias_market import board, bot, decisions, encoding, evaluate, render
from meeple.games.ozymandias_market.rules import MarketState, OzymandiasMarket

__all__ = ["MarketState", "OzymandiasMarket"]

OzymandiasMarket.define(
    bots={"heuristic": bot.HeuristicBot},
    renderer=render.render_view,
    board=board.content,
    evaluator=evaluate.evaluate,
    decisions=decisions.decision_help,
    encoding=encoding,
)
