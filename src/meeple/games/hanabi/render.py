"""A seat's view as terminal text (``Game.define(renderer=...)``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(game: Any, view: Mapping[str, Any]) -> str:
    """Tokens, fireworks (each colour's top), discards, then every hand by position: the
    cards a seat sees (``?`` for its own) with what their holder knows in brackets."""
    top = dict.fromkeys(game.colours, "0")
    for name in view["fireworks"]:
        top[name[0]] = name[1:]
    lines = [f"info {view['info']}   lives {view['lives']}   deck {view['deck_size']}   "
             f"score {view['score']}   final turns left {view['final_turns'] or '-'}",
             "fireworks " + " ".join(c + top[c] for c in game.colours),
             "discard   " + (" ".join(sorted(view["discard"])) or "-")]
    for seat, notes in enumerate(view["notes"]):
        hand = view["hands"][seat] or ["?"] * len(notes)
        cards = [f"{i}:{c}" + (f"[{n}]" if n else "") for i, (c, n) in
                 enumerate(zip(hand, notes, strict=True))]
        you = " (you)" if seat == view.get("seat") else ""
        lines.append(f"seat {seat}{you}: " + "  ".join(cards))
    return "\n".join(lines)
