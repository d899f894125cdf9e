"""Damocles parameters and named variants (rules-questions 1.3 "Var" switches, 1.6 presets).

Decision ids (DAM-n) refer to docs/rules/damocles.md.
"""

from __future__ import annotations

from meeple.engine.params import Parameter, Variant

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("deck", "", "a codex deck JSON file to use instead of the packaged one (a path "
              "on the command line, a content id on a server; validated on load; "
              "DAM-26)", file=True),
    Parameter("cycles", 10, "complete cycles of turns; each seat takes one turn per cycle "
              "(SETUP 2, DAM-28)", minimum=1, maximum=100),
    Parameter("deal", 8, "codices dealt to each seat (SETUP 1)", minimum=1, maximum=20),
    Parameter("setup_discard", 2, "codices each seat discards at setup (SETUP 1, DAM-25)",
              minimum=0, maximum=19),
    Parameter("match", "rotational", "a pattern matches at any rotation of the circle, or only "
              "as printed from slot 1 (DAM-1)", choices=("rotational", "absolute")),
    Parameter("mirror", False, "patterns may also match read counter-clockwise (DAM-2)"),
    Parameter("pair_anchor", "independent", "a Production and its Number each match at their "
              "own rotation, or both at one shared rotation (DAM-14)",
              choices=("independent", "joint")),
    Parameter("bank", "separate4", "token supply: a bank of 4 of each god besides the setup "
              "tokens, one shared supply of 4 x 5 tokens, or an unlimited bank (DAM-9)",
              choices=("separate4", "shared20", "infinite")),
    Parameter("swap_optional", False, "a turn may skip its swap (DAM-12)"),
    Parameter("strict_steps", False, "Manipulation codices only before the first pair "
              "(TURN MECHANICS 3 before 4, read strictly; DAM-22)"),
    Parameter("grants_playable_same_turn", True, "codices granted this turn may be played in "
              "the same turn (DAM-20)"),
    Parameter("reshuffle", True, "an empty deck is refilled by shuffling the discard pile "
              "(DAM-19)"),
    Parameter("first_placer", "random", "who places the first token: a random seat or seat 0 "
              "(DAM-10)", choices=("random", "seat0")),
    Parameter("tiebreak", "shared", "tied top scores share the win, or the larger tableau "
              "breaks the tie (DAM-29)", choices=("shared", "most_tableau")),
    Parameter("annex", False, "the Annex module: Annex codices in the deck and playable "
              "(DAM-31)"),
    Parameter("destruction", False, "the Destruction module: Lyse, Sacrifice and Eviscerate in "
              "the deck and playable (DAM-32)"),
)

VARIANTS: tuple[Variant, ...] = (
    Variant("seed", "the rule document as recommended: rotational clockwise matching, a bank "
            "of 4 of each, mandatory swap, one play window, no modules",
            {}, source="seeds/damocles.txt (dam.seed)", aliases=("default",)),
    Variant("annex", "seed plus the 'unused' Annex module", {"annex": True},
            source="dam.annex (DAM-31)"),
    Variant("destruction", "seed plus the 'future' Lyse, Sacrifice and Eviscerate",
            {"destruction": True}, source="DAM-32"),
    Variant("future", "seed plus Annex and Destruction", {"annex": True, "destruction": True},
            source="dam.future"),
    Variant("absolute", "patterns match only as printed from slot 1", {"match": "absolute"},
            source="dam.absolute (DAM-1 a)"),
    Variant("strict", "strict turn steps, granted codices wait a turn, 20 shared tokens",
            {"strict_steps": True, "grants_playable_same_turn": False, "bank": "shared20"},
            source="dam.strict (DAM-22, DAM-20, DAM-9 b)"),
)
