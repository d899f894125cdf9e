"""What each Epoch Ellipse decision is, in one paragraph from the rules page (``help`` in the
terminal), and why a move is refused (naming the rule and the legal moves nearest to it). The
wording of the refusals is shared with every game (:mod:`meeple.engine.explain`).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import acting_legal, decision_paragraph, refuse_in_table

PAGE = "docs/rules/epoch-ellipse.md"

#: step -> (rule reference, reminder), one per step of the day's step machine (section 2).
DECISIONS: dict[str, tuple[str, str]] = {
    "pick": ("EPE-38; section 2 '1. WAKE UP'",
             "Wake up: take a survivor pile from the pool ('pick 2'); the first seat in the "
             "death queue chooses first."),
    "plan": ("EPE-7, EPE-8, EPE-53, EPE-54; section 2 '2. PLAN'",
             "Plan, in turn: offer a trade ('trade 1 bullet tinned-ham': seat 1 gets your "
             "BULLET for its TINNED HAM), use a draw or medical card ('use first-aid trash'), "
             "play a charm, or 'pass'. PLAN ends when every alive player has passed in a row."),
    "answer": ("EPE-7; section 2 '2. PLAN'",
               "A trade is offered to you: 'accept' or 'decline'."),
    "treat": ("EPE-53; section 2 '2. PLAN'",
              "Medical credits: trash a catastrophe from your hand ('treat cracked-rib'), or "
              "'done' to drop the remaining credits."),
    "choose": ("3A, 3B, EPE-12, EPE-15; section 2 '3. EXPLORE'",
               "Explore: open a NEW LOCATION ('new') or draw K cards of location L ('explore "
               "3 6'; 'explore 3 roll' under d6); 'skip' only when nothing can be explored."),
    "flip": ("EPE-43; section 2 '3. EXPLORE'",
             "The cards are flipped: 'resolve' them, or 'redraw justice-lin' to put the "
             "exploration back and draw again."),
    "combat": ("EPE-18; section 2 '3. EXPLORE'",
               "Combat: pay with a Weapon ('use bullet trash'), play a charm, or 'suffer' the "
               "catastrophe."),
    "collapse": ("EPE-18; section 2 '3. EXPLORE'",
                 "Collapse: pay with a Medical card that avoids COLLAPSE ('use first-aid "
                 "trash'), play a charm, or 'suffer' it."),
    "rescue": ("EPE-22; section 2 '3. EXPLORE'",
               "Rescue: give salvage to the survivor you found ('give bullet' from your hand, "
               "'give x tinned-ham' from the exploration), or 'done' to set it aside."),
    "limit": ("EPE-24; section 2 '3. EXPLORE'",
              "Hand limit: return a card over the limit to the location ('return bullet')."),
    "hunger": ("EPE-31; section 2 '4. HUNGER'",
               "Hunger: pay 1 Food ('eat tinned-ham trash') or 'starve' and take a catastrophe "
               "instead."),
}


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces in ``state``, with its rule and page."""
    if state.is_terminal() or state.step not in DECISIONS:
        return f"The game is over (EPE-27..29; section 2 'The result'). [{PAGE}]"
    return decision_paragraph(DECISIONS, state.step, PAGE)


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused for ``seat``: what is wrong, the rule, the legal kinds and the
    legal moves nearest to it."""
    return refuse_in_table(DECISIONS, state.step, acting_legal(state, seat), action,
                           notation="section 5 'Action notation'",
                           not_a_move="it is not an Epoch Ellipse move", fallback="section 5")
