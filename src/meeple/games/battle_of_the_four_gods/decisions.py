"""What the Four Gods decision is, in one paragraph from the rules page (``help`` in the
terminal), and why a selection is refused (naming the rule and the legal selections nearest
to it). The wording of the refusals is shared with every game (:mod:`meeple.engine.explain`).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import decision_paragraph, refuse_move
from meeple.games.battle_of_the_four_gods.actions import COLOURS, Selection

PAGE = "docs/rules/battle-of-the-four-gods.md"

#: decision key -> (rule reference, reminder). The game has one decision, the round's plan.
DECISIONS: dict[str, tuple[str, str]] = {
    "plan": ("Planning Phase, B4G-3..6, B4G-11; section 2 'The round'",
             "Planning: every alive seat secretly chooses one selection at once. Attack an "
             "opponent ('atk:B', {attack_cost} energy each; {damage} damage unless it defends "
             "against you) and/or defend against one ('def:R', {defend_cost} energy each), at "
             "most {max_actions} indicators, each at most once, against opponents still alive; "
             "e.g. 'atk:BG def:R' or 'pass'. The total must not exceed your energy "
             "(limit_mode={limit_mode}). A seat at 0 energy or less after the round is out."),
}


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces in ``state``, with its rule and page."""
    if state.is_terminal():
        return ("The game is over: the last seat alive wins, or the highest energy among "
                f"those who fell together (B4G-13, B4G-21). [{PAGE}]")
    return decision_paragraph(DECISIONS, "plan", PAGE, **state.game.params)


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused for ``seat``: what is wrong, the rule (B4G-...), the legal
    kinds and the legal selections nearest to it."""
    legal = list(state._legal_actions(seat)) if seat in state._acting else []
    where = "the planning decision"
    if not isinstance(action, Selection) or action.players != state.game.players:
        return refuse_move("section 5 'Action notation'", where, legal, None,
                           "it is not a Four Gods selection of this game")
    if action.seat != seat:
        return refuse_move("B4G-2", where, legal, action,
                           f"it is {COLOURS[action.seat]}'s selection")
    p = state.game.params
    dead = [COLOURS[t] for t in action.attacks + action.defends if state.eliminated_round[t]]
    if dead:
        return refuse_move("B4G-11", where, legal, action,
                           f"{', '.join(dead)} is eliminated; its colour cannot be chosen")
    if action.size > p["max_actions"]:
        return refuse_move("max_actions, B4G-5", where, legal, action,
                           f"at most {p['max_actions']} indicators may be placed, you chose "
                           f"{action.size}")
    if action.reveal and not p["reveal_lock"]:
        return refuse_move("B4G-16", where, legal, action, "revealing needs reveal_lock=true")
    if p["limit_mode"] == "count":
        return refuse_move("B4G-5, limit_mode=count", where, legal, action,
                           f"{action.size} indicators exceed the seat's {state.energy[seat]} "
                           "energy")
    cost = action.cost(p["attack_cost"], p["defend_cost"])
    return refuse_move("B4G-5", where, legal, action,
                       f"it costs {cost} energy but the seat has {state.energy[seat]}")
