"""What the Four Gods decision is, in one paragraph from the rules page (``help`` in the
terminal), and why a selection is refused (naming the rule and the legal selections nearest
to it). The wording of the refusals is shared with every game (:mod:`meeple.engine.explain`).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import acting_legal, decision_paragraph, refuse_move
from meeple.games.battle_of_the_four_gods.actions import COLOURS, Selection

PAGE = "docs/rules/battle-of-the-four-gods.md"

#: decision key -> (rule reference, reminder). The game has one decision, the round's plan.
DECISIONS: dict[str, tuple[str, str]] = {
    "plan": ("Planning Phase, B4G-3..6, B4G-11; section 2 'The round'",
             "Planning: every alive seat secretly chooses one selection at once. Attack an "
             "opponent ('{attack}', {attack_cost} energy each; {damage} damage unless it "
             "defends against you) and/or defend against one ('{defend}', {defend_cost} energy "
             "each), at most {max_actions} indicators, each at most once, against opponents "
             "still alive; e.g. '{both}' or 'pass'. The total must not exceed your energy "
             "(limit_mode={limit_mode}). A seat at 0 energy or less after the round is out."),
}


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces in ``state``, with its rule and page."""
    if state.is_terminal():
        return ("The game is over: the last seat alive wins, or the highest energy among "
                f"those who fell together (B4G-13, B4G-21). [{PAGE}]")
    return decision_paragraph(DECISIONS, "plan", PAGE, **state.game.params,
                              **examples(state, seat))


def examples(state: Any, seat: int) -> dict[str, str]:
    """The help paragraph's example selections for ``seat``, taken from its legal selections
    now so that each names only opponents still alive (never the seat's own colour).

    Returns ``{"attack": ..., "defend": ..., "both": ...}``: a one-attack selection, a
    one-defend selection against another opponent where there is one, and the legal selection
    with both kinds of indicator naming the most opponents, each once where it can (else the
    largest one). A kind
    with no legal selection (too little energy) is written in the notation with the first
    opponent alive; with no opponent at all, every example is ``pass``.
    """
    legal = acting_legal(state, seat)
    alive = [t for t in range(state.game.players)
             if t != seat and not state.eliminated_round[t]]
    if not alive:
        return {"attack": "pass", "defend": "pass", "both": "pass"}
    first = COLOURS[alive[0]][0]

    def one(kind: str, avoid: tuple[int, ...] = ()) -> Selection | None:
        found = [a for a in legal if a.size == 1 and not a.reveal and
                 bool(a.attacks if kind == "atk" else a.defends)]
        return next((a for a in found if a.attacks + a.defends != avoid), None) or (
            found[0] if found else None)

    attack = one("atk")
    defend = one("def", attack.attacks if attack is not None else ())
    plain = [a for a in legal if a.size and not a.reveal]
    both = max(plain, default=None, key=lambda a: (
        bool(a.attacks and a.defends), len(set(a.attacks + a.defends)),
        len(set(a.attacks + a.defends)) == a.size, a.size))
    return {"attack": str(attack) if attack else f"atk:{first}",
            "defend": str(defend) if defend else f"def:{first}",
            "both": str(both) if both else f"atk:{first}"}


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
