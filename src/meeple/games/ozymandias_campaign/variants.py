"""Ozymandias (campaign edition) parameters and named variants (rules-questions 4.3 "Var"
switches, 4.6 presets). Decision ids (OZW-n) refer to docs/rules/ozymandias-campaign.md.
"""

from __future__ import annotations

from meeple.engine.params import Parameter, Variant

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("tiles", "", "a sector tile JSON file to use instead of the packaged one (a path "
              "on the command line, a content id on a server; validated on load; "
              "OZW-33)", file=True),
    Parameter("cards", "", "a card deck JSON file to use instead of the packaged one (a path "
              "on the command line, a content id on a server; validated on load; "
              "rules-questions 4.4)", file=True),
    Parameter("workers", 12, "workers per player (Components)", minimum=1, maximum=40),
    Parameter("start_workers", 3, "workers in the supply at setup, the rest in the bag "
              "(Game Setup 3)", minimum=1, maximum=40),
    Parameter("hand_size", 5, "cards dealt at setup and drawn up to at intake (Game Setup 4, "
              "Intake; OZW-37)", minimum=1, maximum=20),
    Parameter("target_vp", 21, "victory points that trigger the last round (Victory; OZW-38)",
              minimum=1, maximum=1000),
    Parameter("setup_tiles", "one", "sector tiles on the table at setup: one, or two with four "
              "or more players (18ad11a; OZW-32)", choices=("one", "two_if_4plus")),
    Parameter("explore", True, "standing a worker on a point whose line leaves the map draws a "
              "tile and joins it there (OZW-32)"),
    Parameter("migration", "forced", "migration moves every cube on every card right-wards "
              "(seed), or any number of them (e935810) (OZW-13)", choices=("forced", "free")),
    Parameter("unrest_return", "per_color", "unrest returned after migration: one per colour "
              "given to the right neighbour, or one per cube (OZW-13)",
              choices=("per_color", "per_cube")),
    Parameter("laydown_source", "bag", "a worker laid down on a card comes from the bag "
              "(recruitment; the supply when the bag is empty), or from the supply (OZW-17)",
              choices=("bag", "supply")),
    Parameter("colony_recovery", "mandatory", "per card discarded at intake, recover one of "
              "your colony workers (mandatory or optional), or take a worker from the bag "
              "(OZW-18)", choices=("mandatory", "optional", "bag")),
    Parameter("card_cap", "none", "cubes a tableau card may hold: no limit, or its rank "
              "(cfa0da0; OZW-4)", choices=("none", "rank")),
    Parameter("collapse_cubes", "supply", "where the cubes of a collapsed card go: the supply, "
              "or the right neighbour's incoming area (OZW-7)", choices=("supply", "pass_right")),
    Parameter("threshold", "total", "a collapsing card scores only with at least rank - unrest "
              "cubes: counting all its cubes, only the matching ones, or no threshold (OZW-8)",
              choices=("total", "matching", "none")),
    Parameter("bonus_from_zero", False, "a laid-down worker lifts a 0-cube score to the first "
              "level (1 VP) too (OZW-9)"),
    Parameter("tableau_insert", "right", "where a newly played card enters the tableau (OZW-12)",
              choices=("right", "left")),
    Parameter("colony_ref", "any_depth", "'adjacent to an existing colony of yours': your "
              "worker anywhere in the colony's stack, or on its top (OZW-23)",
              choices=("any_depth", "top")),
    Parameter("failed_colony", "beneath", "an attacker who loses a colony war: its worker goes "
              "beneath the top and it still plays a card, or the worker returns and no card is "
              "played (OZW-27)", choices=("beneath", "return_worker")),
    Parameter("lay_requires_card", False, "laying a colony worker needs a card in hand "
              "(OZW-28)"),
    Parameter("hazard_unrest", False, "a worker standing on a hazard gives its player 1 unrest "
              "(OZW-34)"),
    Parameter("tiebreak", "shared", "tied top VP share the win, or the first tied seat in turn "
              "order after the one that reached the target wins (cfa0da0; OZW-38)",
              choices=("shared", "turn_order")),
    Parameter("max_rounds", 100, "safety cap: after this many rounds (each seat one turn) the "
              "game ends, truncated, and most VP wins (X-5)", minimum=1, maximum=10_000),
)

VARIANTS: tuple[Variant, ...] = (
    Variant("seed", "the rule document with the recommended decisions: forced migration, "
            "recruitment from the bag, map growth by exploration, 21 VP",
            {}, source="seeds/ozymandias-campaign.md (ozw.seed, ab14a37)",
            aliases=("default",)),
    Variant("e935810", "free migration: move any number of cubes as far right as you like",
            {"migration": "free"}, source="ozw.e935810 (rules-questions 4.6)",
            aliases=("free-migration",)),
    Variant("18ad11a", "two sector tiles at setup with four or more players",
            {"setup_tiles": "two_if_4plus"}, source="ozw.18ad11a (rules-questions 4.6)",
            aliases=("setup-tiles",)),
    Variant("literal", "the strict seed reading: the map never grows and laid-down workers "
            "come from the supply, so the bag is never used",
            {"explore": False, "laydown_source": "supply"},
            source="ozw.literal (rules-questions 4.6)"),
    Variant("cfa0da0", "cards hold at most their rank in cubes; ties go to the first seat in "
            "turn order after the trigger", {"card_cap": "rank", "tiebreak": "turn_order"},
            source="cfa0da0 (OZW-4, OZW-38)"),
)
