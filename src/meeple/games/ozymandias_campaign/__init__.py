"""Ozymandias, campaign edition: 2-6 players, workers on a graph of sector tiles, faction and
unrest cubes, tableaus, wars.

Rules as implemented, every decision (OZW-n), the variants, the tile format and the action
notation: docs/rules/ozymandias-campaign.md. Modules: ``vocab`` (suits, point kinds, the Tile
and Card values), ``content`` (tile and card files, validated on load), ``board`` (the map as
one graph of joined tiles), ``actions`` (moves and their notation), ``moves`` (legal moves per
step), ``scoring`` (collapse points and war strength), ``rules`` (spec and state), ``view``
(what a seat sees),
``territory`` (what standing, colonies, exploring and wars do to the state), ``bot`` (the
heuristic bot), ``render`` (terminal text).
"""

from meeple.games.ozymandias_campaign import bot, decisions, encoding, evaluate, render, webboard
from meeple.games.ozymandias_campaign.rules import CampaignState, OzymandiasCampaign

__all__ = ["CampaignState", "OzymandiasCampaign"]

OzymandiasCampaign.define(
    bots={"heuristic": bot.HeuristicBot},
    renderer=render.render_view,
    board=webboard.content,
    evaluator=evaluate.evaluate,
    decisions=decisions.decision_help,
    encoding=encoding,
)
