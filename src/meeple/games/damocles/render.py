"""Terminal text for a Damocles view (rich markup). Never imported by the rules modules.

Shows the circle as a ring of coloured gods, the bank, scores and tableaus, the seat's hand
with every codex's pattern drawn on seven slots, and the latest events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.engine.game import Game
from meeple.games.damocles.codex import CIRCLE, GODS, Codex

STYLES = {"HADES": "bold bright_red", "POSEIDON": "bold bright_blue",
          "ARTEMIS": "bold bright_green", "DEMETER": "bold yellow", "NYX": "bold white on grey23"}


#: The phases and turn steps in the rules page's words (section 2), not their internal names.
PHASE_WORDS = {"discard": "setup discard", "place": "placement", "turn": "playing"}
STEP_WORDS = {"pre": "before the swap", "swap2": "second swap", "play": "play window",
              "keep": "Oracle keep", "destroy": "choosing what to destroy"}


def god(name: str | None, width: int = 1) -> str:
    """A god as its coloured initial (or full name when ``width`` > 1); ``.`` for empty."""
    if name is None:
        return "." * min(width, 1) if width == 1 else "(empty)".ljust(width)
    text = name[0] if width == 1 else name.title().ljust(width)
    return f"[{STYLES[name]}]{text}[/]"


def pattern_strip(codex: Codex) -> str:
    """The codex drawn on seven slots from its first pip: ``H.N...`` style, coloured."""
    slots: list[str | None] = [None] * CIRCLE
    for offset, g in codex.pattern:
        slots[offset] = GODS[g]
    return "".join(god(s) if s else "[dim]·[/]" for s in slots)


def ring(circle: list[str | None]) -> list[str]:
    """The circle of seven as a small ring, slot numbers 1-7 clockwise from the top."""
    c = [god(g) for g in circle]
    return [
        f"          1:{c[0]}",
        f"     7:{c[6]}         2:{c[1]}",
        f"   6:{c[5]}             3:{c[2]}",
        f"      5:{c[4]}       4:{c[3]}",
    ]


def render_view(game: Game, view: Mapping[str, Any]) -> str:
    """The whole view: events, circle and bank, scores and tableaus, the seat's hand."""
    deck = game.codex_by_id
    lines = []
    for turn, seat, text in view["events"][-6:]:
        lines.append(f"  [dim]turn {turn + 1}[/] seat {seat}: {text}")
    if lines:
        lines.append("")
    me = view["seat"]
    if view["phase"] == "over":
        progress = f"game over after {view['turns_taken']} turns"
    else:
        progress = (f"{PHASE_WORDS.get(view['phase'], view['phase'])}, cycle {view['cycle']} "
                    f"of {game.params['cycles']}, turn {view['turns_taken'] + 1} of "
                    f"{view['turns_total']}")
    lines.append(f"[bold]Damocles[/] - {progress}"
                 + (f"  (you are seat {me})" if me is not None else ""))
    lines.extend(ring(view["circle"]))
    if view["bank"] is not None:
        lines.append("  bank: " + "  ".join(f"{god(g)} {n}" for g, n in view["bank"].items()))
    turn = view["turn"]
    if view["phase"] == "turn":
        step = STEP_WORDS.get(turn["step"], turn["step"])
        lines.append(f"  seat {view['active']} to act: {step}, swaps "
                     f"{turn['swaps_done']}/{turn['swaps_allowed']}, Reflex tokens "
                     f"{turn['relax_tokens']}"
                     + (", Annex ready" if turn["annex_available"] else ""))
    for seat, score in enumerate(view["scores"]):
        mark = " <- you" if seat == me else ""
        tableau = " ".join(view["tableaus"][seat]) or "-"
        lines.append(f"  seat {seat}: {score:>3} points, {view['hand_sizes'][seat]} in hand, "
                     f"played: {tableau}{mark}")
    if "hand" in view:
        lines.append("  your hand:")
        for cid in view["hand"]:
            codex = deck[cid]
            lines.append(f"    {cid:<7} {pattern_strip(codex)}  {codex.type.title():<10} "
                         f"{codex.pips} pips  {codex.pattern_text()}")
    if view.get("keep_pool"):
        lines.append(f"  Oracle: keep {view['keep_count']} of: " + " ".join(view["keep_pool"]))
    if view.get("winners") is not None:
        winners = view["winners"]
        lines.append("[bold]" + ("Seat " + str(winners[0]) + " wins" if len(winners) == 1
                                 else "Shared win: seats " + ", ".join(map(str, winners))) + "[/]")
    return "\n".join(lines)
