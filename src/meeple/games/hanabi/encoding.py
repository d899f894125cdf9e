"""The adapters' encoding (docs/engine.md, "Derived encodings"): the tensor is derived from
``HanabiState.COMPONENTS``; the game gives its action table and step bound."""

from __future__ import annotations

from typing import Any

from meeple.engine.encoding import derived_encoding
from meeple.games.hanabi.rules import HanabiState


def action_texts(game: Any) -> tuple[str, ...]:
    """``play i`` and ``discard i`` for each hand position, then ``hint SEAT WORD`` for each
    seat and each colour name, then each rank (a seat never hints itself: that text is
    never legal for it)."""
    hand = range(game.hand_size)
    return (*(f"play {i}" for i in hand), *(f"discard {i}" for i in hand),
            *(f"hint {s} {w}" for s in range(game.players) for w in game.hint_words))


def max_steps(game: Any) -> int:
    """One step a turn, at most ``max_turns`` turns."""
    return game.params["max_turns"]


ENCODING = derived_encoding(HanabiState, action_texts, max_steps=max_steps)
