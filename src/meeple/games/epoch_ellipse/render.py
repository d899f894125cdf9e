"""Terminal text for an Epoch Ellipse view (rich markup). Never imported by the rules modules.

Draws, top to bottom: a header (day, phase, who acts, what the step asks for with the notation
to type and the cards that can pay it, a combat's difficulty and the weapon points paid, a
trade offer, the rescue pile, the result at the end); the locations in play numbered from 1 as
``explore L K`` counts them (VP, catastrophe tokens, event deck size, Recovered) with the
Recovered VP against the target, the Location deck and the shared decks; each seat (status,
danger: catastrophes in the discard pile out of the deadly 3, deck size, the public hand and
discard pile, a Mournful Sacrifice's card); the survivor pool numbered as ``pick N`` counts it
and the death queue; the exploration in progress; the last events; what the viewer's cards do;
and the step again as the last line, next to the prompt.

Hands, discard piles and survivor piles are public in this game (EPE-4), so every seat's cards
are shown to every viewer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.markup import escape

from meeple.engine.game import Game
from meeple.games.epoch_ellipse.actions import slug
from meeple.games.epoch_ellipse.cards import (
    CATASTROPHE,
    CHARM,
    COMBAT,
    NIGHT,
    SALVAGE,
    SURVIVOR,
    Card,
)

#: Catastrophes in a discard pile that kill its survivor (DEATH).
DEADLY = 3
#: How many of the view's latest events are shown.
EVENTS_SHOWN = 10
#: Card colours by subtype (salvage, catastrophes) or kind (survivors, night cards).
STYLES = {"FOOD": "green", "WEAPON": "yellow", "MEDICAL": "cyan", "ALLY": "blue",
          "CHARM": "magenta", "COMBAT": "bold red", "COLLAPSE": "red", "CURSE": "bright_magenta",
          SURVIVOR: "bold", NIGHT: "dim"}
PHASES = {"wake": "WAKE UP", "plan": "PLAN", "explore": "EXPLORE", "hunger": "HUNGER",
          "over": "game over"}
#: Steps of one's own exploration, where emergency stabilization is open (3G; EPE-30).
EXPLORING = ("choose", "flip", "combat", "collapse", "rescue", "limit")
#: Steps whose seat may also play a charm from hand (3E; EPE-25).
CHARM_STEPS = ("plan", "choose", "flip", "combat", "collapse", "hunger")
#: A death's cause as a phrase ("the last survivor died of ...").
CAUSES = {"combat": "a lost combat", "collapse": "injuries (a collapse)", "curse": "a curse",
          "starvation": "starvation"}


def _cards(game: Game) -> dict[str, Card]:
    return {c.name: c for c in game.content.cards}


def card_text(info: Card | None, name: str) -> str:
    """A card name in the colour of its subtype (or kind)."""
    style = None if info is None else STYLES.get(info.subtype or info.kind)
    return f"[{style}]{escape(name)}[/]" if style else escape(name)


def cards_text(cards: Mapping[str, Card], names: Sequence[str], empty: str = "empty") -> str:
    """``TINNED HAM x2, BULLET``: copies grouped, in the order they first appear."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(card_text(cards.get(n), n) + (f" x{k}" if k > 1 else "")
                     for n, k in counts.items()) or empty


def _seat(game: Game, seat: int) -> str:
    return game.seat_names()[seat]


def _seats(game: Game, seats: Iterable[int]) -> str:
    return ", ".join(_seat(game, s) for s in seats) or "none"


def _quote(options: Sequence[str], limit: int = 16) -> str:
    """Actions in quotes, a note in brackets after one kept outside: ``'use bullet trash'
    (+1)``."""
    shown = []
    for option in options[:limit]:
        action, _, note = option.partition(" (")
        shown.append(f"'{escape(action)}'" + (f" ({escape(note)}" if note else ""))
    if len(options) > limit:
        shown.append(f"... ({len(options) - limit} more)")
    return ", ".join(shown)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _location_number(view: Mapping[str, Any], name: str | None) -> str:
    """``4. POLICE STATION`` for a location name of the view (names are unique)."""
    for i, loc in enumerate(view["locations"]):
        if loc["name"] == name:
            return f"{i + 1}. {escape(loc['name'])}"
    return escape(name or "?")


def payment_options(game: Game, view: Mapping[str, Any], seat: int, points: Sequence[str],
                    kind: str = "use", mournful: bool = True) -> list[str]:
    """The actions paying any of ``points`` from ``seat``'s hand (and, with ``mournful``, the
    Mournful Sacrifices' cards, EPE-6), each with the points it gives: ``use bullet trash
    (+1)``. The same cards and modes as the legal moves (EPE-8, EPE-9)."""
    cards = _cards(game)
    salvage_only = game.params["medical_salvage_only"]
    out = []
    seen: set[str] = set()
    for name in view["players"][seat]["hand"]:
        info = cards[name]
        if name in seen or (salvage_only and info.kind != SALVAGE):
            continue
        seen.add(name)
        for mode in info.modes():
            got = sum(info.points(mode).get(p, 0) for p in points)
            if got:
                out.append(f"{kind} {slug(name)} {mode} (+{got})")
    if mournful:
        for owner, player in enumerate(view["players"]):
            name = player["mournful_card"]
            if name is None:
                continue
            info = cards[name]
            for mode in info.modes():
                got = sum(info.points(mode).get(p, 0) for p in points)
                if got:
                    out.append(f"{kind} ms {owner} {mode} (+{got}, {name} of "
                               f"{_seat(game, owner)})")
    return out


def _explore_options(game: Game, view: Mapping[str, Any]) -> list[str]:
    params = game.params
    out = []
    for i, loc in enumerate(view["locations"]):
        if not loc["cards"] or (params["no_recovered_explore"] and loc["recovered"]):
            continue
        if params["explore_count"] == "d6":
            out.append(f"explore {i + 1} roll")
        else:
            top = min(params["explore_max"], loc["cards"])
            out.append(f"explore {i + 1} 1" + (f"..{top}" if top > 1 else ""))
    return out


def step_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """What the current step asks for, and of whom: one sentence, then any details (the
    notation, the cards that can pay, the charms and stabilization open to the seat)."""
    step = view["step"]
    if step == "over":
        return result_lines(game, view)
    cards = _cards(game)
    seat = view["acting"][0] if view["acting"] else None
    if seat is None:
        return [f"step {step}"]
    who = _seat(game, seat)
    me = view["players"][seat]
    hand = me["hand"]
    expl = view["exploration"]
    where = _location_number(view, expl["location"]) if expl else ""
    lines: list[str]
    if step == "pick":
        queue = view["queue"]
        lines = [f"{who} takes over a survivor: 'pick N' (pile N of the Survivor pool, +2 "
                 "Salvage cards)"]
        if len(queue) > 1:
            lines.append(f"then, in death order: {_seats(game, queue[1:])}")
    elif step == "plan":
        lines = [f"{who} plans: 'trade SEAT GIVE GET' offers a 1-for-1 salvage trade, or 'pass'",
                 "e.g. 'trade 1 bullet tinned-ham'; one offer per pair a day; PLAN ends when "
                 "all alive pass in a row"]
        treat = payment_options(game, view, seat, ("medical", "trash_catastrophe"))
        if any(cards[n].kind == CATASTROPHE for n in hand) and treat:
            lines.append("medical care for catastrophes in hand (then 'treat CARD'): "
                         + _quote(treat))
        draw = [m for m in payment_options(game, view, seat, ("draw",)) if m not in treat]
        if draw:
            lines.append("cards that draw from your deck (EPE-71): " + _quote(draw))
    elif step == "answer":
        offer = view["offer"]
        lines = [f"{who} answers {_seat(game, offer['from'])}'s trade offer: 'accept' or "
                 "'decline'",
                 f"{_seat(game, offer['from'])} gives "
                 f"{card_text(cards.get(offer['give']), offer['give'])} for {who}'s "
                 f"{card_text(cards.get(offer['receive']), offer['receive'])}"]
    elif step == "treat":
        held = sorted({n for n in hand if cards[n].kind == CATASTROPHE})
        lines = [f"{who} treats ({_plural(view['credits'], 'medical point')} left): 'treat CARD' "
                 "trashes a catastrophe in hand; 'done' stops",
                 "in hand: " + _quote([f"treat {slug(n)}" for n in held])]
    elif step == "choose":
        options = (["new"] if view["location_deck"] else []) + _explore_options(game, view)
        count = ("'explore L roll' (a die roll of location L's cards)"
                 if game.params["explore_count"] == "d6"
                 else "'explore L K' (K cards of location L)")
        lines = [f"{who} explores: 'new' (a NEW LOCATION) or {count}"
                 + ("" if options else ", 'skip' when nothing can be explored"),
                 "open now: " + (_quote(options) if options else "nothing: 'skip'")]
    elif step == "flip":
        redraw = sorted({n for n in hand if cards[n].discard.get("redraw")})
        lines = [f"{who} has flipped the exploration of {where}: 'resolve' it, or redraw",
                 " / ".join(f"'redraw {slug(n)}'" for n in redraw)
                 + " puts it back, reshuffles the event deck and draws again"]
    elif step == "combat":
        current = expl["current"]
        diff, paid = expl["difficulty"], expl["paid"]
        lines = [f"{who} fights {card_text(cards.get(current), current)} at {where}: "
                 f"difficulty {diff}, {paid} weapon paid",
                 "'use CARD MODE' pays weapon points; 'suffer' takes it into the discard pile"]
        pay = payment_options(game, view, seat, ("weapon",))
        lines.append("can pay: " + (_quote(pay) if pay else "nothing: 'suffer'"))
    elif step == "collapse":
        current = expl["current"]
        lines = [f"{who} collapses at {where}: {card_text(cards.get(current), current)}",
                 "'use CARD MODE' avoids it with medical care; 'suffer' takes it into the "
                 "discard pile"]
        pay = payment_options(game, view, seat, ("medical", "avoid_collapse"))
        lines.append("can pay: " + (_quote(pay) if pay else "nothing: 'suffer'"))
    elif step == "rescue":
        pile = expl["rescue"] or ["?"]
        found = card_text(cards.get(pile[0]), pile[0])
        lines = [f"{who} rescues {found} at {where}; 'done' sets the pile aside",
                 "'give CARD' adds a salvage card from the hand, 'give x CARD' one from the "
                 "exploration",
                 f"the pile so far: {found} with {cards_text(cards, pile[1:], 'nothing yet')}"]
        give = [f"give {slug(n)}" for n in dict.fromkeys(hand) if cards[n].kind == SALVAGE]
        give += [f"give x {slug(n)}" for n in dict.fromkeys(expl["salvage"])]
        lines.append("can give: " + _quote(give))
    elif step == "limit":
        size = game.params["hand_size"]
        lines = [f"{who} holds {len(hand)} cards, {len(hand) - size} over the hand limit of "
                 f"{size}: 'return CARD' puts one back into {escape(expl['location'] or '?')}"]
    elif step == "hunger":
        lines = [f"{who} is hungry: 'eat CARD MODE' pays 1 food; 'starve' takes the top "
                 "Catastrophe card instead"]
        pay = payment_options(game, view, seat, ("food",), kind="eat")
        lines.append("can eat: " + (_quote(pay) if pay else "nothing: 'starve'"))
    else:
        lines = [f"{who}: step {step}"]
    if step in CHARM_STEPS:
        charms = sorted({n for n in hand if cards[n].subtype == CHARM})
        if charms:
            lines.append("charms in hand: " + _quote([f"charm {slug(n)}" for n in charms]))
    window = game.params["stabilize_window"] == "anytime" or (
        step in EXPLORING and expl is not None and expl["seat"] == seat)
    if window and step not in ("pick", "answer", "treat", "limit", "rescue") \
            and me["catastrophes_in_discard"]:
        heal = payment_options(game, view, seat, ("medical",), kind="stabilize", mournful=False)
        if heal:
            lines.append("stabilize (discard pile catastrophes back into the deck): "
                         + _quote(heal))
    return lines


def result_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The end: the team's win or loss, its cause, and who survived."""
    players = view["players"]
    alive = [s for s, p in enumerate(players) if p["status"] == "alive"]
    result, day = view["result"], view["day"]
    vp, target = view["recovered_vp"], view["target_vp"]
    if result == "won":
        return [f"The team wins on day {day}: {vp} VP of locations Recovered (target {target})",
                f"survivors alive (they win): {_seats(game, alive)}"
                + (f"; without a survivor: {_seats(game, set(range(len(players))) - set(alive))}"
                   if len(alive) < len(players) else "")]
    if result == "truncated":
        return [f"The team loses: the day cap of {game.params['max_days']} is reached "
                f"(truncated) with {vp} of {target} VP Recovered",
                f"survivors alive: {_seats(game, alive)}"]
    cause = CAUSES.get(view["cause"] or "", view["cause"] or "unknown")
    return [f"The team loses on day {day}: no survivor is left alive (the last died of "
            f"{escape(cause)}); {vp} of {target} VP Recovered"]


def header(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The title line (day, phase, who acts, the viewer) and the step."""
    me = view["seat"]
    you = f"  (you are {_seat(game, me)})" if me is not None else "  (spectator)"
    if view["step"] == "over":
        progress = f"game over on day {view['day']}"
    else:
        acting = view["acting"]
        progress = (f"day {view['day']}, {PHASES.get(view['phase'], view['phase'])}"
                    + (f", {_seat(game, acting[0])} to act" if acting else ""))
    lines = [f"[bold]Epoch Ellipse[/] - {progress}{you}"]
    lines.extend("  " + line for line in step_lines(game, view))
    if view["step"] != "over":
        lines.append(f"  Team: {view['recovered_vp']} of {view['target_vp']} VP Recovered (the "
                     f"team wins at {view['target_vp']}); first player today: "
                     f"{_seat(game, view['first'])}")
    return lines


def location_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The locations in play, numbered from 1 as ``explore L K`` counts them."""
    locations = view["locations"]
    expl = view["exploration"]
    width = max(len(loc["name"]) for loc in locations)
    tokens = max(len(_plural(loc["tokens"], "token")) for loc in locations)
    sizes = max(len(_plural(loc["cards"], "card")) for loc in locations)
    lines = [f"[bold]Locations[/] (L of 'explore L K'; Recovered {view['recovered_vp']} of "
             f"{view['target_vp']} VP; tokens: the catastrophes in the event deck)"]
    for i, loc in enumerate(locations):
        line = (f"  {i + 1:>2}. {escape(loc['name']):<{width}}  {loc['vp']} VP  "
                f"{_plural(loc['tokens'], 'token'):>{tokens}}  "
                f"{_plural(loc['cards'], 'card'):>{sizes}}")
        if loc["recovered"]:
            line += "  [bold green]Recovered[/]"
        if i == 0:
            line += "  [dim](trashed cards and the dead)[/]"
        if expl and expl["location"] == loc["name"]:
            line += f"  <- {_seat(game, expl['seat'])} explores"
        lines.append(line)
    decks = view["decks"]
    lines.append(f"  Decks: Location {view['location_deck']} ('new'), Salvage "
                 f"{decks.get(SALVAGE, 0)}, Survivor {decks.get(SURVIVOR, 0)}, Catastrophe "
                 f"{decks.get(CATASTROPHE, 0)}, Night {decks.get(NIGHT, 0)}")
    return lines


def seat_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """Per seat: status, danger, deck, hand, discard pile, a Mournful card."""
    cards = _cards(game)
    me, queue, lines = view["seat"], view["queue"], []
    expl = view["exploration"]
    for s, p in enumerate(view["players"]):
        tags = [t for t, on in (("you", s == me), ("to act", s in view["acting"]),
                                ("exploring", expl is not None and expl["seat"] == s)) if on]
        name = f"[bold]{_seat(game, s)}[/]" + (f" ({', '.join(tags)})" if tags else "")
        status = p["status"]
        if status == "alive":
            danger = p["catastrophes_in_discard"]
            in_hand = sum(1 for n in p["hand"] if cards[n].kind == CATASTROPHE)
            text = f"danger {danger}/{DEADLY}"
            if danger >= DEADLY - 1:
                text = f"[bold red]{text}: one more catastrophe kills[/]"
            if in_hand:
                text += f" (+{in_hand} in hand, discarded at REST" + (
                    ": [bold red]deadly[/])" if danger + in_hand >= DEADLY else ")")
            lines.append(f"{name}: [green]alive[/], deck {p['deck']}, {text}")
            lines.append(f"    hand ({len(p['hand'])}): {cards_text(cards, p['hand'])}")
            lines.append(f"    discard ({len(p['discard'])}): "
                         f"{cards_text(cards, p['discard'])}")
            continue
        waiting = (f"; {_ordinal(queue.index(s) + 1)} in the death queue" if s in queue
                   else "")
        if status == "mournful":
            held = p["mournful_card"]
            modes = cards[held].modes() if held else ()
            card = ("its card is spent" if not held else f"holds {card_text(cards[held], held)}"
                    + (f" (anyone's: 'use ms {s} {'/'.join(modes)}')" if modes
                       else " (no mode to use)"))
            lines.append(f"{name}: [yellow]Mournful Sacrifice[/], {card}{waiting}")
        else:
            lines.append(f"{name}: [red]dead[/] (no survivor){waiting}")
    return lines


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def pool_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The survivor pool, numbered from 1 as ``pick N`` counts it, and the death queue."""
    cards = _cards(game)
    pool = view["pool"]
    lines = ["[bold]Survivor pool[/] ('pick N' at WAKE UP, in death order): "
             + ("empty" if not pool else "")]
    for i, pile in enumerate(pool):
        lines.append(f"  {i + 1:>2}. {card_text(cards.get(pile[0]), pile[0])} with "
                     f"{cards_text(cards, pile[1:], 'no cards')}")
    queue = view["queue"]
    lines.append("[bold]Death queue[/]: " + (_seats(game, queue) + " (picks in this order)"
                                             if queue else "empty"))
    return lines


def exploration_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The exploration in progress: the flipped cards still to resolve."""
    expl = view["exploration"]
    if expl is None or expl["location"] is None:  # none, or the explorer is still choosing
        return []
    cards = _cards(game)
    lines = [f"[bold]Exploration[/]: {_seat(game, expl['seat'])} at "
             f"{_location_number(view, expl['location'])}"]
    current = expl["current"]
    if current is not None:
        info = cards.get(current)
        what = (f"combat, difficulty {expl['difficulty']}, weapon paid {expl['paid']}"
                if info is not None and info.subtype == COMBAT else "collapse")
        lines.append(f"    resolving: {card_text(info, current)} ({what})")
    if expl["rescue"]:
        pile = expl["rescue"]
        lines.append(f"    rescuing: {card_text(cards.get(pile[0]), pile[0])} with "
                     f"{cards_text(cards, pile[1:], 'nothing yet')}")
    lines.append(f"    catastrophes to resolve: {cards_text(cards, expl['catastrophes'], '-')}")
    lines.append(f"    survivors to rescue: {cards_text(cards, expl['survivors'], '-')}")
    lines.append(f"    salvage for the hand: {cards_text(cards, expl['salvage'], '-')}")
    return lines


def event_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    events = view["events"][-EVENTS_SHOWN:]
    lines = []
    for day, seat, text in events:
        who = "" if seat < 0 else f"{_seat(game, seat)} "
        lines.append(f"  [dim]day {day}[/] {who}{escape(text)}")
    if lines:
        lines.insert(0, "[bold]Last events[/]:")
    return lines


def own_card_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """What the viewer's cards do (their printed abilities), typed names first."""
    me = view["seat"]
    if me is None:
        return []
    cards = _cards(game)
    player = view["players"][me]
    names = list(player["hand"]) + ([player["mournful_card"]] if player["mournful_card"]
                                    else [])
    if not names:
        return ["Your hand: empty"]
    lines = ["[bold]Your cards[/] (typed as quoted):"]
    for name in dict.fromkeys(names):
        info = cards[name]
        kind = info.kind.lower() + (f" - {info.subtype.lower()}" if info.subtype else "")
        if info.kind == CATASTROPHE:
            what = "into your discard pile at REST unless treated in PLAN"
        elif info.subtype == CHARM:
            what = escape(info.text) + " ('charm')"
        else:
            what = escape(info.text) or "no ability"
        count = names.count(name)
        lines.append(f"  '{slug(name)}'{f' x{count}' if count > 1 else ''}  {kind}: {what}")
    return lines


def render_view(game: Game, view: Mapping[str, Any]) -> str:
    """Draw ``view`` (from ``state.view(seat)``: a seat's, or a spectator's with ``None``) of
    ``game`` as rich markup text, lines joined by newlines, without trailing whitespace.

    Every seat's hand is shown (hands are public, EPE-4); the viewer's seat is marked
    ``(you)`` and what its cards do is listed at the bottom. The first lines say what the
    current step asks of whom, with the notation to type; the last line restates it (or the
    result at the end).
    """
    lines = header(game, view)
    lines.append("")
    lines.extend(location_lines(game, view))
    lines.append("")
    lines.extend(seat_lines(game, view))
    lines.append("")
    lines.extend(pool_lines(game, view))
    explore = exploration_lines(game, view)
    if explore:
        lines.append("")
        lines.extend(explore)
    events = event_lines(game, view)
    if events:
        lines.append("")
        lines.extend(events)
    own = own_card_lines(game, view)
    if own:
        lines.append("")
        lines.extend(own)
    now = step_lines(game, view)
    if view["step"] == "over":
        lines.append("[bold]" + now[0] + "[/]")
        lines.extend("  " + line for line in now[1:])
    else:
        lines.append("Now: " + now[0])
    return "\n".join(line.rstrip() for line in lines)
