"""Epoch Ellipse parameters and named variants (rules-questions 5.3 "Var" switches, 5.6
presets). Decision ids (EPE-n) refer to docs/rules/epoch-ellipse.md.
"""

from __future__ import annotations

from meeple.engine.params import Parameter, Variant

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("cards", "", "a card and location JSON file to use instead of the packaged one (a "
              "path on the command line, a content id on a server; validated on load)", file=True),
    Parameter("difficulty", "seed", "deck composition: fewer hard catastrophes (easy), the "
              "reference decks (seed), or more (hard)", choices=("easy", "seed", "hard")),
    Parameter("hand_size", 5, "cards drawn at WAKE UP and the hand limit (1. WAKE UP, 3E)",
              minimum=1, maximum=10),
    Parameter("target_vp", 10, "VP of locations Recovered at once that win the game (3F; "
              "EPE-27)", minimum=1, maximum=100),
    Parameter("explore_max", 6, "most cards drawn when exploring an explored location (3B; "
              "EPE-15)", minimum=1, maximum=12),
    Parameter("explore_count", "choice", "how many cards an exploration of an explored "
              "location draws: the explorer's choice of 1..explore_max, or a die roll "
              "(EPE-15)", choices=("choice", "d6")),
    Parameter("medical_salvage_only", False, "only SALVAGE cards may pay Medical, Weapon and "
              "Food points, not survivor cards (EPE-8)"),
    Parameter("curse_after", "discard", "where a resolved curse goes: the explorer's discard "
              "pile, where it counts toward death, or the Graveyard (EPE-20)",
              choices=("discard", "trash")),
    Parameter("no_recovered_explore", False, "a Recovered location may not be explored "
              "(EPE-41)"),
    Parameter("stabilize_window", "explore", "when emergency stabilization may be used: "
              "during your own exploration, or at any of your decisions (EPE-30)",
              choices=("explore", "anytime")),
    Parameter("dead_survivor", "back", "a survivor found in the Graveyard goes back into its "
              "event deck, or is removed from the game (EPE-23)", choices=("back", "removed")),
    Parameter("max_days", 40, "safety cap: after this many days the game ends, truncated, and "
              "counts as a loss (EPE-46, X-5)", minimum=1, maximum=1000),
)

VARIANTS: tuple[Variant, ...] = (
    Variant("seed", "the rule document with the recommended decisions and the reference decks",
            {}, source="seeds/epoch-ellipse.txt (epe.seed)", aliases=("default",)),
    Variant("easy", "the seed rules with the easy decks: fewer hard catastrophes, more food",
            {"difficulty": "easy"}, source="meeple difficulty axis"),
    Variant("hard", "the seed rules with the hard decks: more and harder catastrophes",
            {"difficulty": "hard"}, source="meeple difficulty axis"),
    Variant("d6", "explored locations draw a die roll of cards", {"explore_count": "d6"},
            source="epe.d6 (EPE-15)"),
    Variant("strict", "only salvage pays points, curses go to the discard pile, Recovered "
            "locations cannot be explored",
            {"medical_salvage_only": True, "no_recovered_explore": True},
            source="epe.strict (rules-questions 5.6)"),
    Variant("forgiving", "stabilization at any decision, curses trashed after resolving",
            {"stabilize_window": "anytime", "curse_after": "trash"},
            source="epe.forgiving (rules-questions 5.6)"),
)
