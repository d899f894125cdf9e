"""Ozymandias (market edition) parameters and named variants (rules-questions 2.3 "Var"
switches, 2.6 presets). Decision ids (OZD-n) refer to docs/rules/ozymandias-market.md.
"""

from __future__ import annotations

from meeple.engine.params import Parameter, Variant

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("cards", "", "a card deck JSON file to use instead of the packaged one (a path "
              "on the command line, a content id on a server; validated on load; "
              "OZD-13)", file=True),
    Parameter("disks_per_colour", 6, "faction disks of each colour (OZD-2)", minimum=1,
              maximum=50),
    Parameter("sectors", 12, "sector tiles in all, the opening three included (OZD-10, OZD-11)",
              minimum=3, maximum=200),
    Parameter("opening", "triangle", "layout of the three opening sectors (OZD-6)",
              choices=("triangle", "line")),
    Parameter("hand_size", 3, "cards in hand at the start of a round (Game Setup 3)",
              minimum=2, maximum=10),
    Parameter("market_size", 5, "cards in the market (Game Setup 4, OZD-29)", minimum=1,
              maximum=20),
    Parameter("adjacency", "any_depth", "an expansion must touch a sector holding its colour "
              "anywhere in the stack, or on top (OZD-7)", choices=("any_depth", "top_only")),
    Parameter("allow_self_stack", False, "a disk may go on a sector already holding its colour "
              "(OZD-8)"),
    Parameter("explore_on_expand", False, "an expansion may also attach a new sector and place "
              "on it (OZD-10 c)"),
    Parameter("take_from_map", False, "with an empty supply, an expansion takes a top disk of "
              "its colour from the map (2015 rule; OZD-3)"),
    Parameter("destroyed_to", "supply", "where destroyed disks go: back to the supply, or to a "
              "dead pile out of the game (OZD-23)", choices=("supply", "dead")),
    Parameter("end", "vp", "what ends the game, at the end of a round: a seat at target_vp, a "
              "fixed number of rounds (max_rounds), a market the deck cannot refill, or a "
              "colour with every disk dead (OZD-27)",
              choices=("vp", "rounds", "deck_out", "colour_dead")),
    Parameter("target_vp", 21, "victory points that end the game under end=vp (OZD-27)",
              minimum=1, maximum=1000),
    Parameter("max_rounds", 30, "safety cap: after this many rounds the game ends, truncated "
              "unless end=rounds, and most VP wins (OZD-27, X-5)", minimum=1, maximum=10_000),
    Parameter("tiebreak", "shared", "tied top VP share the win, or the tied seat that played "
              "the lowest rank in the last round wins (OZD-28)",
              choices=("shared", "lowest_rank")),
)

VARIANTS: tuple[Variant, ...] = (
    Variant("seed", "the rule document with the recommended decisions: 6 disks a colour, "
            "events grow the map, 21 VP ends the game at the round's end, 30-round cap",
            {}, source="seeds/ozymandias-market.md (ozd.seed, 666c03b)", aliases=("default",)),
    Variant("v2015", "the 2015 rules: disks taken from the map when the supply is empty, "
            "destroyed disks dead, the game ends when a colour is all dead",
            {"take_from_map": True, "destroyed_to": "dead", "end": "colour_dead"},
            source="ozd.v2015 (2015 af1f59c/7c87823)"),
    Variant("explore", "seed plus exploring on expansion", {"explore_on_expand": True},
            source="ozd.explore (OZD-10 c)"),
    Variant("2017tie", "seed, ties broken by the lowest rank played in the last round",
            {"tiebreak": "lowest_rank"}, source="ozd.2017tie (OZD-28)"),
)
