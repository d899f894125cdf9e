"""The adapters' encoding (docs/engine.md, "Derived encodings"): the tensor is derived from
``HanabiState.COMPONENTS``; the game gives its action table and step bound."""

from __future__ import annotations

from typing import Any

from meeple.engine.encoding import Feature, derived_encoding
from meeple.games.hanabi.rules import HanabiState, knowledge_of


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


def write_knowledge(game: Any, view: Any, out: Any) -> None:
    """What each seat knows of its cards (``notes``, read back), the viewer's hand first: per seat,
    per hand position (``hand_size`` of them, empty positions all 0), the colours then the
    ranks still possible (multi-hot); then the final round's turns left / seats (0 before)."""
    me, n, letters = view.get("seat") or 0, game.players, game.colours + game.ranks
    for k in range(n):
        known = [knowledge_of(x, game.colours, game.ranks)
                 for x in view["notes"][(me + k) % n]]
        for i in range(game.hand_size):
            out.multi_hot(len(letters), [letters.index(x) for x in known[i]]
                          if i < len(known) else ())
    out.value((view["final_turns"] or 0) / n)


KNOWLEDGE = Feature("knowledge", lambda game: game.players * game.hand_size *
                    (len(game.colours) + len(game.ranks)) + 1, write_knowledge,
                    "per seat (viewer first) and hand position: the colours and ranks still "
                    "possible; then the final round's turns left / seats")

#: The tensor: the derived blocks (``ENCODING.describe(game)``) and the knowledge block above.
ENCODING = derived_encoding(HanabiState, action_texts, max_steps=max_steps,
                            features=[KNOWLEDGE], leave_out=("final_turns",))
