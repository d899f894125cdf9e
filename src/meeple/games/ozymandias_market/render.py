"""Terminal text for an Ozymandias (market edition) view (rich markup). Never imported by the
rules modules.

Draws the hex map row by row (axial ``r`` rows, shifted half a cell per row), each sector as
its coordinates and its stack with the top disk first; then faction values, supply, the market,
VP, played cards and the seat's hand with each card's event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.engine.game import Game
from meeple.games.ozymandias_market.cards import COLOUR_INITIALS, COLOURS

STYLES = {"RED": "bold bright_red", "WHITE": "bold bright_white", "BLUE": "bold bright_cyan",
          "BLACK": "bold black on grey70"}


def colour(name: str, text: str | None = None) -> str:
    return f"[{STYLES[name]}]{text or name.title()}[/]"


def card(game: Game, card_id: str) -> str:
    """A card as its coloured name, e.g. ``W17``."""
    return colour(COLOURS["RWBK".index(card_id[0])], card_id)


def hex_map(view: Mapping[str, Any]) -> list[str]:
    """The map, one text row per axial row ``r``; a sector at column ``2q + r`` (half-cell
    steps), shown as ``q,r:T+n`` with T the top disk's colour and n the disks below it."""
    cells = {(q, r): stack for q, r, stack in view["map"]}
    if not cells:
        return ["  (no sectors)"]
    half = 6  # half a cell, in characters
    first = min(2 * q + r for q, r in cells)
    lines = []
    for r in range(min(r for _, r in cells), max(r for _, r in cells) + 1):
        row, used = "  ", 0
        for q, _ in sorted(h for h in cells if h[1] == r):
            stack = cells[(q, r)]
            label = f"{q},{r}:"
            top = colour(stack[-1], COLOUR_INITIALS[COLOURS.index(stack[-1])]) if stack else "."
            below = f"+{len(stack) - 1}" if len(stack) > 1 else ""
            column = (2 * q + r - first) * half
            row += " " * max(0, column - used) + label + top + below
            used = max(used, column) + len(label) + 1 + len(below)
        lines.append(row)
    return lines


def render_view(game: Game, view: Mapping[str, Any]) -> str:
    """The whole view as text."""
    lines = []
    for rnd, seat, text in view["events"][-8:]:
        who = "" if seat < 0 else f"seat {seat}: "
        lines.append(f"  [dim]round {rnd}[/] {who}{text}")
    if lines:
        lines.append("")
    me = view["seat"]
    lines.append(f"[bold]Ozymandias[/] - round {view['round']}, {view['phase']}"
                 + (f" ({view['step']})" if view["phase"] in ("raise", "trade") else "")
                 + (f", seat {view['acting']} to act" if view["acting"] is not None else "")
                 + (f"  (you are seat {me})" if me is not None else ""))
    lines.extend(hex_map(view))
    lines.append("  values: " + "  ".join(colour(c, f"{c.title()} {v}")
                                          for c, v in view["values"].items())
                 + f"   sectors left: {view['sectors_left']}")
    lines.append("  supply: " + "  ".join(f"{colour(c, c.title())} {n}" for c, n in
                                          view["supply"].items())
                 + ("   dead: " + "  ".join(f"{c.title()} {n}" for c, n in view["dead"].items())
                    if any(view["dead"].values()) else ""))
    lines.append("  market: " + " ".join(card(game, c) for c in view["market"])
                 + f"   deck {view['deck_size']}, discard {len(view['discard'])}")
    for seat, vp in enumerate(view["vp"]):
        played = view["played"][seat]
        mark = " <- you" if seat == me else ""
        lines.append(f"  seat {seat}: {vp:>3} VP, {view['hand_sizes'][seat]} in hand"
                     + (f", played {card(game, played)}" if played else "") + mark)
    if "hand" in view:
        lines.append("  your hand:")
        for cid in view["hand"]:
            rank = int(cid[1:])
            lines.append(f"    {card(game, cid):<4} {game.card_by_rank[rank].event_text()}")
    if view.get("augury"):
        lines.append("  deck top (Augury): " + " ".join(card(game, c) for c in view["augury"]))
    if view.get("winners") is not None:
        w = view["winners"]
        lines.append("[bold]" + (f"Seat {w[0]} wins" if len(w) == 1 else
                                 "Shared win: seats " + ", ".join(map(str, w)))
                     + (" (round cap reached)" if view.get("truncated") else "") + "[/]")
    return "\n".join(lines)
