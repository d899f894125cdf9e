"""What each Damocles decision is, in one paragraph from the rules page (``help`` in the
terminal), and why a move is refused (naming the rule and the legal moves nearest to it)."""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import decision_paragraph, refusal, refuse_move

PAGE = "docs/rules/damocles.md"

#: decision key -> (rule reference, reminder). Keys: the setup phases, then the turn's steps.
DECISIONS: dict[str, tuple[str, str]] = {
    "discard": ("SETUP 1, DAM-25; section 2 'Setup' item 3",
                "Setup discard: every seat at once, face down, chooses {n} codices of its hand "
                "to discard ('discard ID ID', ids from your hand); the game goes on when all "
                "seats have chosen. Keep the codices whose patterns you can make in the circle."),
    "place": ("DAM-10; section 2 'Setup' item 4",
              "Placement: clockwise from the first placer, each seat puts one god token on an "
              "empty slot of the circle ('place GOD SLOT', e.g. 'place HADES 3') until all 7 "
              "slots are filled. Under rotational matching only the pattern around the circle "
              "counts, so the first token always goes to slot 1."),
    "pre": ("TURN 1-2, DAM-11, DAM-13; section 2 'The turn' items 1-2",
            "Start of your turn: you may first play Hastes whose god is in the circle ('haste "
            "ID': 1 point, and the turn allows two swaps), then you must swap: two slots trade "
            "gods ('swap 2 5') or a slot's token is exchanged with the bank ('swap 3 NYX')."),
    "swap2": ("TURN 2, DAM-12; section 2 'The turn' item 2",
              "Second swap (after a Haste): swap again ('swap 2 5', 'swap 3 NYX') or 'stop' to "
              "go on to playing codices."),
    "play": ("TURN 3-4, DAM-14..16, DAM-22; section 2 'The turn' item 3",
             "Play window: play codices whose pattern is in the circle now. 'play ID' for a "
             "Manipulation (Reflex, Annex, late Haste) or Destruction codex; 'pair P N' for a "
             "Production codex with a Number codex (draws N codices; a codex scores its pips "
             "the first time it is played). 'end' ends the turn."),
    "keep": ("DAM-21; section 2 'The turn' item 3",
             "Oracle: of the codices just drawn, keep the number the pair allows ('keep ID ID'); "
             "the rest go to the discard pile."),
    "destroy": ("DAM-32; section 2 'The turn' item 3",
                "Destruction: choose the codex of the current target's tableau to destroy "
                "('destroy ID')."),
}


def decision_key(state: Any) -> str:
    """The key in :data:`DECISIONS` of the decision open in ``state``."""
    return state.phase if state.phase in ("discard", "place") else state.step


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces, with its rule."""
    if state.is_terminal():
        return "The game is over (DAM-28, DAM-29: ten cycles, the highest score wins)."
    return decision_paragraph(DECISIONS, decision_key(state), PAGE,
                              n=state.game.params["setup_discard"])


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused: the rule, what is wrong, and the legal moves nearest it."""
    legal = list(state._legal_actions(seat)) if seat in state._acting else []
    kind = getattr(action, "kind", None)
    if kind is None:
        return refusal("section 5 'Action notation'", "it is not a Damocles move", legal)
    key = decision_key(state)
    rule = DECISIONS[key][0].split(";")[0]
    where = f"the {key} decision"
    if kind not in {m.kind for m in legal}:
        return refuse_move(rule, where, legal, action)
    hand = state.hands[seat]
    if kind == "discard":
        n = state.game.params["setup_discard"]
        if len(action.args) != n:
            return refuse_move(rule, where, legal, action,
                               f"you must discard {n} codices, you chose {len(action.args)}")
    ids = [str(a).rstrip("*") for a in action.args if isinstance(a, str) and "-" in str(a)]
    missing = [i for i in ids if i not in hand and kind in ("discard", "haste", "play", "pair")]
    if missing:
        return refuse_move(rule, where, legal, action,
                           f"{', '.join(missing)} is not in your hand")
    return refuse_move(rule, where, legal, action,
                       f"'{action}' is not legal at {where} (its codex must be yours and match "
                       "the circle, or the swap must change it)")
