"""Terminal text for an Ozymandias (campaign edition) view (rich markup). Never imported by the
rules modules.

Draws, top to bottom: a header (round, whose turn, the step and what it asks for, a war's
fighters and doubled suit, the end trigger, the result); the map tile by tile, one line per
point (short name, kind, who stands there or the colony stack bottom to top, its neighbours,
its open ports); each seat's VP, unrest, incoming cubes, workers, hand size and tableau
numbered from 1 (the numbers of ``cube G 2``, ``lay 2``, ``harvest 2``); the last events; the
viewer's hand; and the step again as the last line, next to the prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.markup import escape

from meeple.engine.game import Game
from meeple.games.ozymandias_campaign.actions import SUIT_INITIALS
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.vocab import INTERSECTION, SUITS

STYLES = {"GOLD": "bold yellow", "RED": "bold bright_red", "BLUE": "bold bright_cyan"}
KIND_NAMES = {"COLONY": "colony", "INTERSECTION": "intersection", "HAZARD": "hazard"}
#: How many of the view's latest events are shown.
EVENTS_SHOWN = 8


def suit(name: str, text: str | None = None) -> str:
    """``text`` (default: the suit's name) in the suit's colour."""
    return f"[{STYLES[name]}]{text or name}[/]"


def card(name: str) -> str:
    """A card name such as ``G5``, in its suit's colour."""
    return suit(SUITS[SUIT_INITIALS.index(name[0])], name)


def cubes_text(cubes: Mapping[str, int]) -> str:
    """``1G 2B`` for a cube count per suit, ``none`` when empty (as the event log writes)."""
    return " ".join(suit(s, f"{k}{s[0]}") for s, k in cubes.items() if k) or "none"


def _seat(game: Game, seat: int) -> str:
    return game.seat_names()[seat]




def _winners_text(game: Game, view: Mapping[str, Any]) -> str:
    winners, vp = view["winners"], [p["vp"] for p in view["players"]]
    if len(winners) == 1:
        text = f"{_seat(game, winners[0])} wins with {vp[winners[0]]} VP"
    else:
        text = ("Shared win: " + ", ".join(_seat(game, w) for w in winners)
                + f" with {vp[winners[0]]} VP each")
    return text + (" (round cap reached: truncated)" if view["truncated"] else "")


def step_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """What the current step asks for, and of whom: one sentence, then any details."""
    step, active = view["step"], view["active"]
    who = _seat(game, active)
    right = _seat(game, view["right_of"][active])
    params = game.params
    if step == "over":
        return ["Game over: " + _winners_text(game, view)]
    if step == "mode":
        return [f"{who} chooses a mode: intake, migrate or campaign"]
    if step == "distribute":
        incoming = view["players"][active]["incoming"]
        return [f"{who} takes intake: place incoming cubes ({cubes_text(incoming)}) with "
                f"'cube G 2'; 'pass' sends the rest to {right}"]
    if step == "recover_colony":
        optional = params["colony_recovery"] == "optional"
        owed = view["owed"]
        return [f"{who} recovers {owed} colony worker{'s' if owed != 1 else ''}, one at a "
                "time ('recover TILE:c1')" + (", or 'done'" if optional else "")]
    if step == "migrate":
        pos = view["migrating"]
        cubes = view["players"][active]["tableau"][pos]["cubes"]
        lines = [f"{who} migrates card {pos + 1}'s cubes ({cubes_text(cubes)}) right-wards: "
                 f"'move G {pos + 2}' onto a card, 'move G out' to {right}"]
        if params["migration"] == "free":
            lines.append("'keep' leaves the rest on the card")
        return lines
    if step == "recover_standing":
        return [f"{who} may recover standing or harvest workers ('recover TILE:i1', "
                "'recover card 2'), then 'done'"]
    if step == "campaign":
        return [f"{who} campaigns: 'stand TILE:i1', 'colony TILE:c1', 'lay N', 'harvest N', "
                "or 'end' the turn"]
    if step == "play":
        return [f"{who} plays a card from hand to the tableau ('play G5')"]
    if step == "war":
        war = view["war"]
        attacker, defender = _seat(game, war["attacker"]), _seat(game, war["defender"])
        doubled = suit(war["sector_suit"])
        chosen = [_seat(game, s) for s in view.get("submitted", [])]
        return [f"War at {war['point']} (a {war['kind']} war in a {doubled} sector): "
                f"{attacker} attacks {defender}",
                f"both pick a card ('fight R5'); {doubled} cards count double; ties go to "
                f"{attacker}" + (f"; chosen so far: {', '.join(chosen)}" if chosen else "")]
    if step == "explore":
        explore = view["explore"]
        here = [port for point, port in view["open_ports"] if point == explore["at"]]
        ports = ", ".join(f"{port}->{point}" + ("" if kind == INTERSECTION
                                                 else " " + KIND_NAMES[kind])
                          for port, (point, kind) in explore["ports"].items())
        return [f"{who} explores from {explore['at']} and draws tile "
                f"{suit(explore['suit'], explore['tile'])}: 'attach PORT TILEPORT' (open ports "
                f"here: {', '.join(here)})",
                f"{explore['tile']}'s ports lead to: {ports} (the others: intersections)"]
    return [f"{who}: step {step}"]


def header(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The title line, the step, the end trigger (and the result at the end)."""
    me = view["seat"]
    you = f"  (you are {_seat(game, me)})" if me is not None else "  (spectator)"
    if view["step"] == "over":
        progress = f"game over in round {view['rounds_played']}"
    else:
        progress = f"round {view['round']}, {_seat(game, view['active'])}'s turn"
    lines = [f"[bold]Ozymandias (campaign)[/] - {progress}{you}"]
    lines.extend("  " + line for line in step_lines(game, view))
    if view.get("my_submission"):
        lines.append(f"  you chose: {escape(view['my_submission'])} (waiting for the reveal)")
    trigger = view["trigger"]
    if trigger is not None and view["step"] != "over":
        last = _seat(game, view["last_seat"])
        lines.append(f"  End triggered: {_seat(game, trigger)} reached "
                     f"{game.params['target_vp']} VP; the game ends after {last}'s turn")
    elif view["step"] != "over":
        lines.append(f"  The end comes when a seat reaches {game.params['target_vp']} VP "
                     "(then every other seat takes one more turn)")
    return lines


def map_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """The map, tile by tile in placement order, one line per point."""
    tiles = {t.id: t for t in game.tiles}
    sector_map = SectorMap.from_json(view["map"], tiles)
    order = {name: i for i, name in enumerate(sector_map.points())}
    ports: dict[str, list[str]] = {}
    for point, port in view["open_ports"]:
        ports.setdefault(point, []).append(port)
    standing, stacks = view["standing"], view["stacks"]

    def occupant(name: str) -> str:
        if name in stacks:
            return "stack " + ",".join(map(str, stacks[name]))
        if name in standing:
            return f"seat {standing[name]}"
        return "-"

    occupants = {name: occupant(name) for name in order}
    occ_width = max(len(o) for o in occupants.values())
    short_width = max(len(name.split(":", 1)[1]) for name in order)
    explore = game.params["explore"]
    if not explore:
        port_note = "an open port (exploring is off in this variant)"
    elif view["tile_deck_size"]:
        port_note = "an open port; standing there explores (draws a tile)"
    else:
        port_note = "an open port (the tile deck is empty: no more exploring)"
    lines = [f"[bold]Map[/]: {len(view['map'])} tiles placed, {view['tile_deck_size']} in the "
             "tile deck; a colony stack lists seats bottom to top;",
             f"  -> the point's neighbours; port: {port_note}"]
    for entry in view["map"]:
        tile = tiles[entry["tile"]]
        colour = SUITS[tile.suit]
        join = entry["join"]
        where = ("opening tile" if join is None
                 else f"its port {join[2]} joins {join[0]} port {join[1]}")
        lines.append(f"  {suit(colour, tile.id)} ({suit(colour)} sector; {where})")
        for point, kind in tile.points:
            name = f"{tile.id}:{point}"
            near = sorted(sector_map.adjacency[name],  # this tile's points first
                          key=lambda n: (not n.startswith(tile.id + ":"), order[n]))
            near_text = " ".join(n.split(":", 1)[1] if n.startswith(tile.id + ":") else n
                                 for n in near)
            line = (f"    {point:<{short_width}}  {KIND_NAMES[kind]:<12}  "
                    f"{occupants[name]:<{occ_width}}  -> {near_text}")
            if name in ports:
                line += "  port " + ",".join(ports[name])
            lines.append(line)
    return lines


def tableau_lines(cards: Sequence[Mapping[str, Any]], migrating: int | None) -> list[str]:
    """A tableau, one line per card, numbered from 1 at the left."""
    if not cards:
        return ["    tableau: empty"]
    lines = []
    for i, c in enumerate(cards):
        workers = [w for w, on in (("laid-down worker", c["laid"]),
                                   ("harvest worker", c["harvest"])) if on]
        cubes = cubes_text(c["cubes"])
        line = (f"    {i + 1:>2}. {card(c['card'])}  {'tapped  ' if c['tapped'] else 'untapped'}"
                f"  cubes: {cubes}")
        if workers:
            line += "  " + ", ".join(workers)
        if migrating == i:
            line += "  <- migrating"
        lines.append(line)
    return lines


def seat_lines(game: Game, view: Mapping[str, Any]) -> list[str]:
    """Per seat: VP, unrest, incoming cubes, workers, hand size, and the tableau."""
    me, lines = view["seat"], []
    for s, p in enumerate(view["players"]):
        tags = [t for t, on in (("you", s == me), ("to act", s in view["to_act"])) if on]
        lines.append(f"[bold]{_seat(game, s)}[/]" + (f" ({', '.join(tags)})" if tags else "")
                     + f": {p['vp']} VP, unrest {p['unrest']}, incoming "
                     f"{cubes_text(p['incoming'])}, workers {p['supply']} supply / {p['bag']} bag, "
                     f"hand {p['hand_size']}")
        migrating = view["migrating"] if s == view["active"] else None
        lines.extend(tableau_lines(p["tableau"], migrating))
    return lines


def render_view(game: Game, view: Mapping[str, Any]) -> str:
    """Draw ``view`` (from ``state.view(seat)``, a seat's or a spectator's) of ``game`` as rich
    markup text, lines joined by newlines, without trailing whitespace.

    The viewer's own seat is marked ``(you)`` and its hand is listed (a spectator's view has
    none); the last line restates what the current step asks for, or the result.
    """
    lines = header(game, view)
    lines.append("")
    lines.extend(map_lines(game, view))
    lines.append("")
    lines.extend(seat_lines(game, view))
    lines.append(f"  deck {view['deck_size']}, discard {len(view['discard'])}")
    events = view["events"][-EVENTS_SHOWN:]
    if events:
        lines.append("")
        for rnd, seat, text in events:
            who = "" if seat < 0 else f"{_seat(game, seat)} "
            lines.append(f"  [dim]round {rnd}[/] {who}{escape(text)}")
    if "hand" in view:
        lines.append("")
        lines.append("Your hand: " + (" ".join(card(c) for c in view["hand"]) or "empty"))
    if view["step"] == "over":
        lines.append(f"[bold]{_winners_text(game, view)}[/]")
    else:
        now = step_lines(game, view)
        lines.append("Now: " + now[0])
        lines.extend("     " + line for line in now[1:])
    return "\n".join(line.rstrip() for line in lines)
