"""What each game prints: its content turned into :class:`~meeple.printing.layout.CardFace` and
:class:`~meeple.printing.layout.TileFace` values.

Every builder reads the game spec it is given (so the variant, the players and the parameters,
a custom deck or card file included, are exactly those of the game the lab ran) through the
game's public board content (``Game.board_content()``) and the deck the spec holds, never by
importing a game's modules: this package sees games only through the registry.

Every builder takes a loaded game of its kind (``load_game(NAME, ...)``) and returns a
:class:`~meeple.printing.layout.PrintSpec` (cover facts, cards in print order, tiles,
reference); it raises nothing of its own (a game of another kind gives a ``KeyError`` or
``AttributeError``: :data:`BUILDERS` picks the builder by the game's name).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.engine.game import Game
from meeple.printing.layout import CardFace, PrintSpec, TileFace

#: Colour words (as the games name them) -> printed hex colour.
HEX = {"red": "#c0392b", "blue": "#2e6fb7", "green": "#2e8b57", "gold": "#d4a017",
       "black": "#222222", "white": "#f4f1e8", "orange": "#e67e22", "purple": "#7d3c98",
       "brown": "#8b5a2b", "grey": "#7f8c8d", "teal": "#16a085", "navy": "#2c3e6b"}


def _typed(value: Any) -> str:
    """A parameter value as ``--param`` takes it (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _params(game: Game) -> list[tuple[str, str, bool]]:
    defaults = {p.name: p.default for p in type(game).parameters}
    return [(name, _typed(value) if value != "" else "(the packaged file)",
             name in defaults and value != defaults[name])
            for name, value in game.params.items()]


def _spec(game: Game) -> PrintSpec:
    return PrintSpec(game=game.name, title=game.title, variant=game.variant or "(none)",
                     players=game.players, params=_params(game))


# ---------------------------------------------------------------- Battle of the Four Gods
def four_gods(game: Game) -> PrintSpec:
    """The god cards of the seated colours and a one-page reference of the parameters."""
    spec = _spec(game)
    p = game.params
    docs = {q.name: q.doc for q in type(game).parameters}
    for seat, colour in enumerate(game.seat_names()):
        others = [c for c in game.seat_names() if c != colour]
        spec.cards.append(CardFace(
            group="God", title=f"The {colour.title()} God", colour=HEX.get(colour.lower(),
                                                                            "#888888"),
            colour_name=colour.title(), subtitle=f"Seat {seat + 1} of {game.players}",
            corner=colour[0],
            text=(f"Start: {p['start_energy']} energy.\n"
                  f"Each round pick up to {p['max_actions']} indicators, in secret: "
                  f"ATTACK or DEFEND against {', '.join(o.title() for o in others)}.\n"
                  f"Attack costs {p['attack_cost']}, defend costs {p['defend_cost']}; "
                  f"an undefended attack deals {p['damage']}."),
            ident=f"god {colour}"))
    spec.reference_title = "Battle of the Four Gods: this game's numbers"
    names = ("start_energy", "attack_cost", "defend_cost", "damage", "defend_refund",
             "max_actions", "limit_mode", "stall_rounds", "stall_drain", "max_rounds")
    spec.reference = [(n, _typed(p[n]), docs.get(n, "")) for n in names if n in p]
    spec.reference_notes = [
        "A round: every god still standing picks its indicators in secret; all are revealed "
        "at once. Each pays its costs; each attack on a god that did not defend against the "
        "attacker costs that god the damage (a defended attack refunds the defender "
        "defend_refund). A god at 0 energy or less is out. The last god standing wins.",
    ]
    return spec


# ---------------------------------------------------------------- Damocles
#: Damocles codex classes -> card colour (the class is also written on the card).
DAMOCLES_CLASS = {"Production": "green", "Number": "blue", "Manipulation": "purple",
                  "Destruction": "red"}


def damocles(game: Game) -> PrintSpec:
    """One card per codex of the game's deck (its pattern on the seven positions)."""
    spec = _spec(game)
    content = game.board_content()
    gods = {g["name"]: g for g in content["gods"]}
    types = content["types"]
    for ident, codex in content["codices"].items():
        info = types[codex["type"]]
        colour = DAMOCLES_CLASS.get(info["class"], "grey")
        boxes: list[tuple[str, str]] = [("", "")] * content["circle"]
        for position, god in codex["pattern"]:
            boxes[position - 1] = (gods[god]["letter"], HEX.get(gods[god]["colour"], "#888888"))
        life = "permanent" if info["permanent"] else "consumed"
        effect = types[codex["type"]].get("effect", "")
        spec.cards.append(CardFace(
            group=f"Codex: {info['name']}", title=info["name"], colour=HEX[colour],
            colour_name=f"{colour} ({info['class']})",
            subtitle=f"{info['class']} codex, {life}", corner=info["letter"],
            text=f"{effect}\nPattern: {codex['text']}".strip(),
            points=f"{info['points']} pts", ident=ident,
            slots=tuple(boxes)))
    return spec


# ---------------------------------------------------------------- Ozymandias (market)
def ozymandias_market(game: Game) -> PrintSpec:
    """One card per card of the game's card file: colour, rank, event and its text."""
    spec = _spec(game)
    content = game.board_content()
    for ident, card in content["cards"].items():
        colour = card["colour"].lower()
        spec.cards.append(CardFace(
            group=f"{card['colour'].title()} card", title=f"{card['event']}",
            colour=HEX.get(colour, "#888888"), colour_name=card["colour"].title(),
            subtitle=f"{card['colour'].title()} {card['rank']}", corner=str(card["rank"]),
            text=card["text"], ident=ident))
    return spec


# ---------------------------------------------------------------- Ozymandias (campaign)
CAMPAIGN_POINTS = {"COLONY": "#f1c40f", "INTERSECTION": "#ffffff", "HAZARD": "#c0392b"}


def ozymandias_campaign(game: Game) -> PrintSpec:
    """Every card of the deck (copies included) and every sector tile as a drawing."""
    spec = _spec(game)
    content = game.board_content()
    suits = list(content["suits"])
    cap = ""
    if game.params.get("card_cap") == "rank":
        cap = " Holds at most as many cubes as its rank."
    for card in game.cards:  # type: ignore[attr-defined]
        suit = suits[card.suit]
        faction = content["suits"][suit]["faction"]
        spec.cards.append(CardFace(
            group=f"{suit.title()} card", title=f"{suit.title()} {card.rank}",
            colour=HEX.get(suit.lower(), "#888888"), colour_name=suit.title(),
            subtitle=f"{faction} ({suit.title()}), rank {card.rank}",
            corner=str(card.rank), text=(f"War strength {card.rank}, doubled on a "
                                         f"{suit.title()} tile.{cap}\n{card.text}").strip(),
            ident=card.id))
    for ident, tile in content["tiles"].items():
        suit = tile["suit"]
        spec.tiles.append(TileFace(
            title=ident, colour=HEX.get(suit.lower(), "#888888"), colour_name=suit.title(),
            points={p: (v["kind"], v["x"], v["y"]) for p, v in tile["points"].items()},
            lines=tuple(tuple(line) for line in tile["lines"]),  # type: ignore[misc]
            ports=dict(tile["ports"]), note=f"{tile['colonies']} "
                 + ("colony" if tile["colonies"] == 1 else "colonies")))
    spec.tile_legend = dict(CAMPAIGN_POINTS)
    spec.tile_legend_words = {"COLONY": "large yellow (c)", "INTERSECTION": "white (i)",
                              "HAZARD": "red (h)"}
    return spec


# ---------------------------------------------------------------- Epoch Ellipse
EPOCH_KINDS = {"SALVAGE": "green", "SURVIVOR": "blue", "CATASTROPHE": "red",
               "NIGHT": "navy", "LOCATION": "brown"}


_SMALL = {"a", "an", "and", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
          "to", "too", "with"}


def _title(name: str) -> str:
    """``THE BUTCHER OF ELM STREET`` -> ``The Butcher of Elm Street``."""
    words = name.title().split(" ")
    return " ".join(w.lower() if 0 < i < len(words) - 1 and w.lower().strip(",") in _SMALL else w
                    for i, w in enumerate(words))


def _epoch_card(card: dict[str, Any], name: str, group: str, starter: bool = False) -> CardFace:
    kind = card["kind"]
    colour = EPOCH_KINDS.get(kind, "grey")
    sub = kind.title() + (f" - {card['subtype'].title()}" if card["subtype"] else "")
    corner = str(card["difficulty"]) if card["difficulty"] else ""
    if corner:
        sub += f", difficulty {corner}"
    if starter:
        sub += " (starting deck)"
    return CardFace(group=group, title=_title(name), colour=HEX[colour],
                    colour_name=colour, subtitle=sub, corner=corner, text=card["text"],
                    ident=card["slug"])


def epoch_ellipse(game: Game) -> PrintSpec:
    """The shared decks at the game's difficulty, one starting deck per player (copies
    included) and the locations."""
    spec = _spec(game)
    content = game.board_content()
    data = game.content  # type: ignore[attr-defined]
    names = [card.name for card in data.cards]
    for kind, deck in data.decks.items():
        for index in deck:
            spec.cards.append(_epoch_card(content["cards"][names[index]], names[index],
                                          kind.title()))
    for _ in range(game.players):
        for index in data.starter:
            spec.cards.append(_epoch_card(content["cards"][names[index]], names[index],
                                          "Starter (one deck per player)", starter=True))
    for name, loc in content["locations"].items():
        text = (f"Build: {loc['catastrophes']} catastrophes, {loc['salvage']} salvage, "
                f"{loc['survivors']} survivors.\n{loc['text']}")
        spec.cards.append(CardFace(
            group="Location", title=_title(name), colour=HEX["brown"], colour_name="brown",
            subtitle="Location" + (", in play from the start" if loc["fixed"] else ""),
            text=text.strip(), points=f"{loc['vp']} VP", ident="location"))
    return spec


#: Game name -> its print builder.
# ---------------------------------------------------------------- Hanabi
def hanabi(game: Game) -> PrintSpec:
    """One card per card of the game's card file (``R3``: red 3), in the file's order, with
    the number of copies of its rank; the tokens are any 8 and 3 counters."""
    spec = _spec(game)
    names = {letter: name for name, letter in game.colour_of.items()}
    for ident, card in enumerate(game.card_names):
        colour = names[card[0]]
        copies = game.card_names.count(card)
        spec.cards.append(CardFace(
            group=f"{colour.title()} card", title=f"{colour.title()} {card[1:]}",
            colour=HEX.get(colour, "#c9a800" if colour == "yellow" else "#888888"),
            colour_name=colour.title(), subtitle=f"{copies} of this card in the deck",
            corner=card[1:], ident=str(ident),
            text="Hold it facing the others. Play it on its firework when the firework shows "
                 f"{int(card[1:]) - 1 or 'nothing'}."))
    return spec


BUILDERS: dict[str, Callable[[Game], PrintSpec]] = {
    "hanabi": hanabi,
    "battle-of-the-four-gods": four_gods,
    "damocles": damocles,
    "ozymandias-market": ozymandias_market,
    "ozymandias-campaign": ozymandias_campaign,
    "epoch-ellipse": epoch_ellipse,
}
