"""Generate the Epoch Ellipse reference content: ``cards.json`` (rules-questions 5.4).

The seed names a few cards and locations but lists no decks, so this script authors them. Its
output is checked in; games shuffle the frozen decks and never regenerate them. Running it
again rewrites the file byte for byte (no randomness)::

    python src/meeple/games/epoch_ellipse/data/make_content.py          # rewrite cards.json
    python src/meeple/games/epoch_ellipse/data/make_content.py --check  # exit 1 if it differs

Locations (rules-questions 5.4, exactly): the GRAVEYARD and the APARTMENT BUILDING are fixed
(GAME START); the Location deck holds 10 locations worth 20 VP (catastrophes 59, salvage 41,
survivors 10), so the 10 VP team win (EPE-27) needs about half of them Recovered at once.

Cards, at the "seed" difficulty (rules-questions 5.4): every card the seed names, with exactly
its printed abilities; CATASTROPHE 80 (COMBAT 32 = difficulty 1 x12, 2 x10, 3 x7, 4 x3;
COLLAPSE 34; CURSE 14), SALVAGE 60 (FOOD 20, WEAPON 16, MEDICAL 12, ALLY 6, CHARM 6),
SURVIVOR 14, NIGHT 12. The starter supply (EPE-2) is separate: 4 BULLET, 4 TINNED HAM and 1
MILD INJURY per player; MILD INJURY is starter-only (no copies in the shared deck).

"easy" has fewer hard catastrophes (fewer curses and difficulty 3 and 4 combats), a little
more food and medical care and one more quiet night; "hard" the opposite. At every difficulty
the catastrophe and salvage decks stay above what the 12 locations draw (62 and 45; 3A).

Card texts are printed from the data (``Trash -> 1 Weapon``), except where the seed prints
its own (JUSTICE LIN, AND THEY TOOK MY STUFF, TOO) or a card has flavour (survivors without
an ability). The file is validated by :mod:`meeple.games.epoch_ellipse.content` before
writing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a file: import meeple from this checkout, not another
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from meeple.engine.content import write_or_check  # noqa: E402
from meeple.games.epoch_ellipse.cards import (  # noqa: E402
    ALLY,
    CATASTROPHE,
    CHARM,
    COLLAPSE,
    COMBAT,
    CURSE,
    EFFECTS,
    FOOD,
    KINDS,
    MEDICAL,
    NIGHT,
    SALVAGE,
    SUBTYPES,
    SURVIVOR,
    WEAPON,
)
from meeple.games.epoch_ellipse.content import (  # noqa: E402
    DIFFICULTIES,
    FORMAT,
    validate_cards_data,
)

OUT = Path(__file__).with_name("cards.json")

#: Copies: one number for every difficulty, or (easy, seed, hard).
Copies = int | tuple[int, int, int]

#: The locations: (name, catastrophes, salvage, survivors, VP, fixed, text).
LOCATIONS: tuple[tuple[str, int, int, int, int, bool, str], ...] = (
    ("GRAVEYARD", 0, 0, 0, 0, True,
     "Trashed cards and the dead are laid here. Recovered, it is worth 0 VP. Survivors found "
     "here are dead: draw and resolve the top Catastrophe card instead."),
    ("APARTMENT BUILDING", 3, 4, 1, 1, True,
     "Home, such as it is. In play from the start."),
    ("WAREHOUSE", 4, 5, 1, 1, False, "Pallets of somebody else's stuff, and somebody else."),
    ("MALL", 7, 4, 1, 1, False, "The food court fell first."),
    ("EMPTY SKYSCRAPER", 6, 3, 2, 2, False, "Forty floors of stairs and nobody home. Mostly."),
    ("HOSPITAL", 5, 5, 1, 2, False, "The pharmacy is on the third floor. So is the smell."),
    ("POLICE STATION", 6, 4, 1, 2, False, "The evidence locker was the first thing looted."),
    ("SUPERMARKET", 5, 6, 0, 2, False, "Aisle seven is still standing. Aisle eight is not."),
    ("WATER WORKS", 6, 4, 1, 2, False, "Clean water, if you can hold the pumps."),
    ("RADIO TOWER", 5, 3, 1, 2, False, "Somebody is still broadcasting. Somebody is listening."),
    ("SUBWAY TUNNELS", 7, 3, 1, 3, False, "Dark, wet, and full of things that like both."),
    ("POWER PLANT", 8, 4, 1, 3, False, "Turn the lights back on and the whole city notices."),
)

# Abilities are "mode:point:amount ..." (mode d = Discard, t = Trash), e.g. "d:avoid_collapse:1
# t:trash_catastrophe:1". Effects are (effect, who or None, n or None); None is the default.

#: SALVAGE: (name, subtype, copies, starter, abilities or effect).
SALVAGE_CARDS: tuple[tuple[str, str, Copies, int, Any], ...] = (
    ("TINNED HAM", FOOD, (14, 12, 8), 4, "t:food:1"),
    ("HARDTACK", FOOD, (5, 4, 3), 0, "d:food:1"),
    ("SACK OF RICE", FOOD, (4, 4, 3), 0, "t:food:2"),
    ("BULLET", WEAPON, (6, 6, 5), 4, "t:weapon:1"),
    ("BASEBALL BAT", WEAPON, 4, 0, "d:weapon:1"),
    ("PIPE BOMB", WEAPON, 3, 0, "t:weapon:3"),
    ("SAWED-OFF SHOTGUN", WEAPON, 2, 0, "d:weapon:1 t:weapon:2"),
    ("CROSSBOW", WEAPON, 1, 0, "d:weapon:2"),
    ("FIRST AID", MEDICAL, (7, 6, 3), 0, "d:avoid_collapse:1 t:trash_catastrophe:1"),
    ("BANDAGES", MEDICAL, (5, 4, 2), 0, "t:medical:1"),
    ("ANTIBIOTICS", MEDICAL, (2, 2, 1), 0, "t:medical:2"),
    ("SCOUT", ALLY, 2, 0, "d:draw:2"),
    ("LOYAL MUTT", ALLY, 2, 0, "d:weapon:1 t:food:2"),
    ("WANDERING TRADER", ALLY, 1, 0, "d:food:1 t:draw:2"),
    ("FIELD MEDIC", ALLY, 1, 0, "d:medical:1 t:trash_catastrophe:2"),
    ("SUPPLY DROP", CHARM, 2, 0, ("draw_salvage", None, 2)),
    ("LUCKY COIN", CHARM, 2, 0, ("heal", None, None)),
    ("SIGNAL FLARE", CHARM, 2, 0, ("clear_location", None, None)),
)

#: SURVIVOR: (name, abilities, text or "" to print the abilities). One copy each.
SURVIVORS: tuple[tuple[str, str, str], ...] = (
    ("ADAM NATHAN", "d:medical:1", ""),
    ("JUSTICE LIN", "d:redraw:1",
     "Discard -> Put all exploration cards back, reshuffle Event deck, draw again."),
    ("GIDEON PRICE", "d:food:1", ""),
    ("ROSA DELGADO", "d:food:1", ""),
    ("MARISOL REYES", "d:weapon:1", ""),
    ("OKONKWO ADEYEMI", "d:weapon:1", ""),
    ("HECTOR MALONE", "d:weapon:1", ""),
    ("DOC HOLLOWAY", "d:medical:1", ""),
    ("ELEANOR QUICK", "d:avoid_collapse:1", ""),
    ("SISTER PERPETUA", "d:trash_catastrophe:1", ""),
    ("TOMMY TWO-SHOES", "d:draw:1", ""),
    ("YUKI TANAKA", "d:draw:2", ""),
    ("WEI CHEN", "d:draw:1", ""),
    ("LITTLE PIP", "", "No ability. Nine years old, and glad to be here."),
)

#: CATASTROPHE: (name, subtype, difficulty, copies, starter, effect or None).
CATASTROPHES: tuple[tuple[str, str, int, Copies, int, Any], ...] = (
    ("WILD DOGS", COMBAT, 1, (5, 5, 4), 0, None),
    ("SCAVENGERS", COMBAT, 1, (4, 4, 3), 0, None),
    ("RAT SWARM", COMBAT, 1, 3, 0, None),
    ("RAIDERS", COMBAT, 2, (5, 5, 6), 0, None),
    ("BONE COLLECTORS", COMBAT, 2, (3, 3, 4), 0, None),
    ("STARVING MOB", COMBAT, 2, 2, 0, None),
    ("MUSTARD GAS ANGELS", COMBAT, 3, (3, 4, 7), 0, None),
    ("THE TOLL KEEPERS", COMBAT, 3, (2, 3, 6), 0, None),
    ("WAR RIG", COMBAT, 4, (1, 2, 5), 0, None),
    ("THE BUTCHER OF ELM STREET", COMBAT, 4, (0, 1, 3), 0, None),
    ("MILD INJURY", COLLAPSE, 0, 0, 1, None),
    ("CRACKED RIB", COLLAPSE, 0, 7, 0, None),
    ("SHOULDER INJURY", COLLAPSE, 0, 7, 0, None),
    ("BROKEN FOOT", COLLAPSE, 0, 7, 0, None),
    ("DEEP GASH", COLLAPSE, 0, 5, 0, None),
    ("CONCUSSION", COLLAPSE, 0, 4, 0, None),
    ("SMOKE LUNG", COLLAPSE, 0, 4, 0, None),
    ("BUTTERFINGERS", CURSE, 0, (2, 3, 4), 0, ("discard_random_hand", "self", None)),
    ("PANIC", CURSE, 0, 1, 0, ("discard_random_hand", "self", 2)),
    ("PICKPOCKET", CURSE, 0, (2, 3, 5), 0, ("trash_random_hand", "self", None)),
    ("RATS IN THE PACK", CURSE, 0, (1, 1, 3), 0, ("trash_random_hand", "self", 2)),
    ("BAD WATER", CURSE, 0, (1, 2, 5), 0, ("catastrophe_to_discard", "self", None)),
    ("BLACK RAIN", CURSE, 0, (0, 1, 3), 0, ("catastrophe_to_discard", "all", None)),
    ("AFTERSHOCK", CURSE, 0, (1, 2, 4), 0, ("reinforce_location", None, None)),
    ("SIRENS IN THE DARK", CURSE, 0, (1, 1, 2), 0, ("reinforce_location", None, 2)),
)

#: NIGHT: (name, copies, effect, text or "" to print the effect).
NIGHTS: tuple[tuple[str, Copies, Any, str], ...] = (
    ("AND THEY TOOK MY STUFF, TOO", 1, ("trash_random_hand", "combat_in_discard", None),
     "Any player with a CATASTROPHE - COMBAT card in his discard pile must trash a card at "
     "random from his hand."),
    ("FEVER DREAMS", 1, ("catastrophe_to_discard", "collapse_in_discard", None), ""),
    ("THE RAT KING'S TITHE", 1, ("trash_random_hand", "collapse_in_discard", None), ""),
    ("NIGHT RAID", 1, ("trash_random_hand", "all", None), ""),
    ("RUST AND ROT", 1, ("trash_random_hand", "self", 2), ""),
    ("COLD SNAP", (1, 1, 3), ("catastrophe_to_discard", "self", None), ""),
    ("THE DEAD WALK", 1, ("reinforce_location", None, 2), ""),
    ("SETTLING RUBBLE", 1, ("reinforce_location", None, None), ""),
    ("A QUIET FIRE", 1, ("heal", "all", None), ""),
    ("CARE PACKAGE", 1, ("draw_salvage", "all", None), ""),
    ("DAWN PATROL", 1, ("clear_location", None, None), ""),
    ("ALL QUIET", (2, 1, 0), ("nothing", None, None), ""),
)

#: How a point is printed, by amount.
POINT_TEXT = {
    "weapon": "{n} Weapon", "food": "{n} Food", "medical": "{n} Medical",
    "avoid_collapse": "Avoid {n} COLLAPSE", "trash_catastrophe": "Trash {n} Catastrophe{s}",
    "redraw": "Redraw the exploration", "draw": "Draw {n}",
}
#: Who an effect hits, printed: (subject, possessive, verb takes an "s").
WHO_TEXT = {
    "self": ("You", "your", False),
    "all": ("Every player", "their", True),
    "combat_in_discard": ("Every player with a CATASTROPHE - COMBAT card in the discard pile",
                          "their", True),
    "collapse_in_discard": ("Every player with a CATASTROPHE - COLLAPSE card in the discard "
                            "pile", "their", True),
}


def _some(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _copies(copies: Copies) -> int | dict[str, int]:
    if isinstance(copies, int):
        return copies
    return dict(zip(DIFFICULTIES, copies, strict=True))


def _abilities(notation: str) -> dict[str, dict[str, int]]:
    """``"d:weapon:1 t:food:2"`` -> ``{"discard": {"weapon": 1}, "trash": {"food": 2}}``."""
    out: dict[str, dict[str, int]] = {}
    for part in notation.split():
        mode, point, amount = part.split(":")
        out.setdefault({"d": "discard", "t": "trash"}[mode], {})[point] = int(amount)
    return out


def ability_text(abilities: dict[str, dict[str, int]]) -> str:
    """The printed text of abilities: ``Discard -> Avoid 1 COLLAPSE, Trash -> Trash 1
    Catastrophe`` (the seed's notation)."""
    return ", ".join(
        f"{mode.capitalize()} -> "
        + ", ".join(POINT_TEXT[point].format(n=n, s="" if n == 1 else "s")
                    for point, n in points.items())
        for mode, points in abilities.items())


def _params(effect: str, who: str | None, n: int | None) -> dict[str, Any]:
    """Every parameter of ``effect``, spelled out (the defaults where None)."""
    given = {"who": who, "n": n}
    return {name: default if given[name] is None else given[name]
            for name, default in EFFECTS[effect].items()}


def effect_text(effect: str, params: dict[str, Any]) -> str:
    """The printed text of an effect with all its parameters."""
    n = params.get("n", 1)
    subject, their, s = WHO_TEXT[params.get("who", "self")]

    def verb(word: str) -> str:
        return word + ("es" if word.endswith("sh") else "s") if s else word

    top = "the top Catastrophe card" if n == 1 else f"the top {n} Catastrophe cards"
    texts = {
        "trash_random_hand": f"{subject} {verb('trash')} {_some(n, 'card')} at random from "
                             f"{their} hand.",
        "discard_random_hand": f"{subject} {verb('discard')} {_some(n, 'card')} at random "
                               f"from {their} hand.",
        "catastrophe_to_discard": f"{subject} {verb('put')} {top} into {their} discard pile.",
        "reinforce_location": f"Put {top} into the Event Deck of a random explored location "
                              f"and add {'a Catastrophe Token' if n == 1 else 'their tokens'}.",
        "draw_salvage": f"{subject} {verb('draw')} {_some(n, 'card')} from the Salvage Deck.",
        "heal": f"{subject} {verb('move')} up to {_some(n, 'Catastrophe card')} from {their} "
                "discard pile to the Graveyard.",
        "clear_location": f"Remove {_some(n, 'Catastrophe card')} and {_some(n, 'token')} from "
                          "the explored location with the fewest tokens.",
        "nothing": "Nothing happens. Sleep while you can.",
    }
    return texts[effect]


def _effect(spec: tuple[str, str | None, int | None]) -> dict[str, Any]:
    effect, who, n = spec
    params = _params(effect, who, n)
    return {"effect": effect, "params": params, "text": effect_text(effect, params)}


def location_dicts() -> list[dict[str, Any]]:
    """The locations in the file format."""
    return [{"name": name, "catastrophes": c, "salvage": s, "survivors": sv, "vp": vp,
             **({"fixed": True} if fixed else {}), "text": text}
            for name, c, s, sv, vp, fixed, text in LOCATIONS]


def card_dicts() -> list[dict[str, Any]]:
    """The cards in the file format: salvage, survivors, catastrophes, then night cards."""
    cards: list[dict[str, Any]] = []
    for name, subtype, copies, starter, spec in SALVAGE_CARDS:
        card: dict[str, Any] = {"name": name, "kind": SALVAGE, "subtype": subtype,
                                "copies": _copies(copies)}
        if starter:
            card["starter"] = starter
        if isinstance(spec, str):
            abilities = _abilities(spec)
            card |= abilities | {"text": ability_text(abilities)}
        else:
            card |= _effect(spec)
        cards.append(card)
    for name, notation, text in SURVIVORS:
        abilities = _abilities(notation)
        cards.append({"name": name, "kind": SURVIVOR, "copies": 1, **abilities,
                      "text": text or ability_text(abilities)})
    for name, subtype, difficulty, copies, starter, spec in CATASTROPHES:
        card = {"name": name, "kind": CATASTROPHE, "subtype": subtype}
        if difficulty:
            card["difficulty"] = difficulty
        card["copies"] = _copies(copies)
        if starter:
            card["starter"] = starter
        if spec is not None:
            card |= _effect(spec)
        elif subtype == COMBAT:
            card["text"] = f"Difficulty {difficulty}: win with {difficulty} Weapon."
        else:
            card["text"] = "Avoid with 1 Medical (or Avoid 1 COLLAPSE)."
        cards.append(card)
    for name, copies, spec, text in NIGHTS:
        card = {"name": name, "kind": NIGHT, "copies": _copies(copies), **_effect(spec)}
        if text:
            card["text"] = text
        cards.append(card)
    return cards


def _per_difficulty(cards: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]
                    ) -> str:
    """``easy/seed/hard`` copies of the cards ``keep`` selects, e.g. ``"65/60/54"``."""
    def total(difficulty: str) -> int:
        return sum(c["copies"] if isinstance(c["copies"], int) else c["copies"][difficulty]
                   for c in cards if keep(c))
    return "/".join(str(total(d)) for d in DIFFICULTIES)


def describe(locations: list[dict[str, Any]], cards: list[dict[str, Any]]) -> str:
    """The file's description: how it was made and the deck composition per difficulty."""
    def of(kind: str, subtype: str | None = None, difficulty: int | None = None) -> str:
        return _per_difficulty(cards, lambda c: c["kind"] == kind
                               and (subtype is None or c.get("subtype") == subtype)
                               and (difficulty is None or c.get("difficulty") == difficulty))

    deck = [loc for loc in locations if not loc.get("fixed")]
    fixed = [loc["name"] for loc in locations if loc.get("fixed")]
    totals = {key: sum(loc[key] for loc in deck)
              for key in ("catastrophes", "salvage", "survivors", "vp")}
    need = {key: sum(loc[key] for loc in locations) for key in ("catastrophes", "salvage")}
    combats = sorted({c["difficulty"] for c in cards if c.get("subtype") == COMBAT})
    kinds = []
    for kind in KINDS:
        parts = []
        for subtype in SUBTYPES[kind]:
            part = f"{subtype} {of(kind, subtype)}"
            if subtype == COMBAT:
                part += " [" + ", ".join(f"difficulty {d}: {of(kind, subtype, d)}"
                                         for d in combats) + "]"
            parts.append(part)
        kinds.append(f"{kind} {of(kind)}" + (f" ({', '.join(parts)})" if parts else ""))
    starter = ", ".join(f"{c['starter']} {c['name']}" for c in cards if c.get("starter"))
    return (
        "Reference content for Epoch Ellipse (seed: DECKS, GAME START, the example turn; "
        "rules-questions section 5.4). Generated by data/make_content.py (hand-authored, no "
        "randomness) and checked in; games shuffle the decks but never regenerate them. "
        f"Locations: {', '.join(fixed)} fixed (GAME START); a Location deck of {len(deck)} "
        f"worth {totals['vp']} VP in all (catastrophes {totals['catastrophes']}, salvage "
        f"{totals['salvage']}, survivors {totals['survivors']}); every location together "
        f"draws {need['catastrophes']} catastrophes and {need['salvage']} salvage. "
        f"Shared decks per difficulty (easy/seed/hard): {'; '.join(kinds)}. "
        f"Each player's starting deck (a separate starter supply, EPE-2): {starter}, plus a "
        "survivor dealt from the Survivor deck; MILD INJURY is starter-only. Every card the "
        "seed names has exactly its printed abilities; the rest are authored. easy: fewer "
        "curses and difficulty 3-4 combats, more food and medical care, one more quiet night; "
        "hard: the opposite."
    )


def build() -> dict[str, Any]:
    """The card file as a JSON-ready dict, validated by the content rules."""
    locations, cards = location_dicts(), card_dicts()
    manifest = {"format": FORMAT, "description": describe(locations, cards),
                "locations": locations, "cards": cards}
    validate_cards_data(manifest, "make_content cards")
    return manifest


def cards_text(manifest: dict[str, Any] | None = None) -> str:
    """The file as the checked-in text: the other keys first, then one location and one card
    per line, ending with a newline (a content change is a one-line diff)."""
    manifest = build() if manifest is None else manifest
    lists = ("locations", "cards")
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in manifest.items()
                     if k not in lists]
    for n, key in enumerate(lists):
        entries = manifest[key]
        lines.append(f"  {json.dumps(key)}: [")
        lines += [f"    {json.dumps(e)}{',' if i < len(entries) - 1 else ''}"
                  for i, e in enumerate(entries)]
        lines.append("  ]" + ("," if n < len(lists) - 1 else ""))
    return "\n".join([*lines, "}"]) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the file (or, with ``--check``, report whether it is up to date).

    Returns the exit status: 0 written or up to date, 1 it differs, 2 bad arguments.
    """
    manifest = build()
    return write_or_check(OUT, cards_text(manifest), argv, "make_content.py",
                          "cards and locations",
                          len(manifest["cards"]) + len(manifest["locations"]))


if __name__ == "__main__":
    raise SystemExit(main())
