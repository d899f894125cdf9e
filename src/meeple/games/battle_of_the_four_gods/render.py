"""Terminal text for a Four Gods view (rich markup). Never imported by the rules modules.

Shows what the designer's playtesters asked for: everyone's energy at a glance, colours with
good contrast, and a clear log of the last round (who attacked whom, defended or not, the
energy each seat lost or gained).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.engine.game import Game
from meeple.games.battle_of_the_four_gods.actions import COLOURS, selection_text

STYLES = {"RED": "bold bright_red", "BLUE": "bold bright_cyan", "GREEN": "bold bright_green",
          "ORANGE": "bold dark_orange"}


def colour(seat: int, width: int = 0) -> str:
    """The seat's colour name in its rich style, padded to ``width`` visible characters."""
    name = COLOURS[seat]
    return f"[{STYLES[name]}]{name:<{width}}[/]"


def render_round(game: Game, entry: Any) -> list[str]:
    """Lines describing one history entry: each seat's revealed selection, then each attack's
    outcome, then the energy changes (and the stall drain, if any)."""
    rnd, publics, delta, drain = entry
    lines = [f"[bold]Round {rnd} revealed[/]"]
    for seat, pub in enumerate(publics):
        if pub is not None:
            lines.append(f"  {colour(seat)}: {selection_text(*pub)}")
    p = game.params
    for seat, pub in enumerate(publics):
        if pub is None:
            continue
        for target in pub[0]:
            defended = seat in publics[target][1]
            outcome = (f"defended (+{p['defend_refund']})" if defended
                       else f"hit (-{p['damage']})")
            lines.append(f"  {colour(seat)} attacks {colour(target)}: {outcome}")
    changes = ", ".join(
        f"{colour(s)} {d:+d}" for s, d in enumerate(delta) if publics[s] is not None
    )
    lines.append(f"  energy change: {changes}")
    if drain:
        lines.append(f"  stall: every seat still in loses {drain}")
    return lines


def render_view(game: Game, view: Mapping[str, Any]) -> str:
    """The whole view as text: round, energy table, last round's log, winner if over."""
    lines = []
    history = view["history"]
    if history:
        lines.extend(render_round(game, history[-1]))
        lines.append("")
    start = game.params["start_energy"]
    lines.append(f"[bold]Round {view['round']}[/]  (you are "
                 f"{colour(view['seat']) if view['seat'] is not None else 'a spectator'})")
    for seat, energy in enumerate(view["energy"]):
        alive = view["alive"][seat]
        width = 20
        filled = max(0, min(width, round(width * energy / max(start, 1)))) if alive else 0
        bar = "\u2588" * filled + "\u00b7" * (width - filled)
        status = "" if alive else f"  eliminated in round {view['eliminated_round'][seat]}"
        mark = " <- you" if seat == view["seat"] else ""
        lines.append(f"  {colour(seat, 7)} {energy:>5}  {bar}{status}{mark}")
    if view.get("revealed"):
        for seat, text in view["revealed"].items():
            lines.append(f"  {colour(int(seat))} has revealed: {text}")
    if view.get("stall"):
        limit = game.params["stall_rounds"]
        if limit:
            lines.append(f"  rounds without energy change: {view['stall']} (drain after {limit})")
    if view.get("winners") is not None:
        winners = view["winners"]
        if len(winners) == 1:
            lines.append(f"[bold]{colour(winners[0])} wins[/]"
                         + (" (round cap reached)" if view.get("truncated") else ""))
        else:
            lines.append("[bold]Draw between " + ", ".join(colour(w) for w in winners) + "[/]")
    return "\n".join(lines)
