"""Four Gods parameters and the designer's named variants (rules-questions 3.6).

Every rule value of the seed document is a parameter, so the lab can sweep it; each named
variant is the set of values one of the designer's documents used. Decision ids (B4G-n) refer
to docs/rules/battle-of-the-four-gods.md.
"""

from __future__ import annotations

from meeple.engine.params import Parameter, Variant

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("start_energy", 100, "ENERGY POINTS each seat starts with (Game Setup 2)",
              minimum=1, maximum=100_000),
    Parameter("attack_cost", 1, "energy an ATTACK indicator costs its owner (Actions; B4G-25)",
              minimum=0, maximum=1000),
    Parameter("defend_cost", 1, "energy a DEFENSE indicator costs its owner (Actions; B4G-25)",
              minimum=0, maximum=1000),
    Parameter("damage", 3, "energy an undefended attack takes from its target (Results 2)",
              minimum=0, maximum=100_000),
    Parameter("defend_refund", 0,
              "energy a defender gains per attack it defended against (B4G-8)",
              minimum=0, maximum=100_000),
    Parameter("max_actions", 3, "most indicators a seat may place in one round (Planning)",
              minimum=0, maximum=6),
    Parameter("limit_mode", "cost",
              "what must fit within a seat's energy: the total cost or the indicator count "
              "(B4G-5)", choices=("cost", "count")),
    Parameter("stall_rounds", 0,
              "rounds without an action-caused energy change before the drain starts; "
              "0 = no stall rule (B4G-14)", minimum=0, maximum=10_000),
    Parameter("stall_drain", 1, "energy every alive seat loses per stalled round (B4G-14)",
              minimum=0, maximum=100_000),
    Parameter("max_rounds", 1000,
              "safety cap: after this many rounds the game ends truncated, highest energy "
              "among the alive wins (B4G-14, X-5)", minimum=1, maximum=1_000_000),
    Parameter("timer_seconds", 30,
              "planning timer for human play (meeple play --timer), seconds; 0 = untimed; "
              "bots are untimed (B4G-17)",
              minimum=0, maximum=3600),
    Parameter("talk", "private",
              "table talk allowed: none, public only, or public and private (B4G-15)",
              choices=("none", "public", "private")),
    Parameter("reveal_lock", False,
              "a seat may submit its selection face up, visible to all at once (B4G-16)"),
)

_STALL = {"stall_rounds": 5, "stall_drain": 1}

VARIANTS: tuple[Variant, ...] = (
    Variant("seed", "the seed rule document as written: 100 energy, every action 1, damage 3",
            {}, source="seeds/battle-of-the-four-gods.md (b4g.seed)", aliases=("default",)),
    Variant("gdd-2018-02", "seed values plus the stall rule (5 rounds, then -1 a round)",
            dict(_STALL), source="6fd3cc7 GDD (b4g.gdd-2018-02); meetings not modelled (B4G-22)"),
    Variant("playtest-r2", "30 starting energy", {"start_energy": 30},
            source="playtest round2.md (b4g.playtest-r2)"),
    Variant("gdd-2018-04a", "40 starting energy and the stall rule",
            {"start_energy": 40, **_STALL}, source="fa3351b GDD, round3.md (b4g.gdd-2018-04a)"),
    Variant("server-2018-04", "45 energy, a defended attack refunds 1, 25 s timer",
            {"start_energy": 45, "defend_refund": 1, "timer_seconds": 25},
            source="src/server/game-config.js without its bugs (b4g.server-2018-04, B4G-24)"),
    Variant("rulebook-2018-04",
            "the later printed rule book's final values: 60 energy; an ATTACK indicator costs "
            "2 energy and a DEFENSE indicator 1 (still at most 3 indicators a round, their "
            "total cost within your energy); an undefended attack takes 5, a defended one "
            "refunds 1; the stall rule; 40 s to plan",
            {"start_energy": 60, "attack_cost": 2, "defend_cost": 1, "damage": 5,
             "defend_refund": 1, "timer_seconds": 40, **_STALL},
            source="HEAD rule-book, GDD, round6.md (b4g.rulebook-2018-04; B4G-25)",
            aliases=("rulebook-2018", "rulebook")),
)
