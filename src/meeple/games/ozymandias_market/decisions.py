"""What each Ozymandias (market edition) decision is, in one paragraph from the rules page
(``help`` in the terminal), and why an order is refused (naming the rule and the legal orders
nearest to it). The wording of the refusals is shared with every game
(:mod:`meeple.engine.explain`).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import acting_legal, decision_paragraph, refuse_in_table

PAGE = "docs/rules/ozymandias-market.md"

#: decision key -> (rule reference, reminder). Keys: ``plan``, then the raise and trade steps.
DECISIONS: dict[str, tuple[str, str]] = {
    "plan": ("OZD-15; section 2 'The round' item 1",
             "Secret plans: every seat at once plays a card of its hand face down ('plan W17'). "
             "When all have chosen the cards are revealed; the lowest rank raises first and "
             "trades last. The card's colour is the empire you raise and its event is yours "
             "to use this round."),
    "main": ("OZD-7..14; section 2 'The round' item 2",
             "Raise: with your played card's colour, either expand ('expand 1,-1': a disk next "
             "to a sector of that colour if it is in play, anywhere else if not, never on a "
             "sector already holding it) or use the card's event (section 4, e.g. 'raze 1,0'). "
             "'pass' only when neither is legal."),
    "surge": ("event E5; section 4 'The event vocabulary'",
              "Surge: place a further disk of the colour ('surge 1,0'), or 'done' to stop."),
    "augury": ("event E9; section 4 'The event vocabulary'",
               "Augury: put the cards you looked at back on the deck, top first "
               "('order B3 W17 K2')."),
    "trade_hand": ("OZD-16..20; section 2 'The round' item 3",
                   "Hand trade (mandatory): give a hand card for a market card or the deck top "
                   "('trade W17 B3', 'trade W17 deck'). A market trade scores max(0, value of "
                   "the colour given - value of the colour taken); a deck trade scores 0."),
    "trade_played": ("OZD-18; section 2 'The round' item 3",
                     "Played-card trade (optional): trade the card you played this round the "
                     "same way ('trade W17 B3') or keep it ('done'); a sold card does not "
                     "come back to your hand."),
}


def decision_key(state: Any) -> str:
    """The key in :data:`DECISIONS` of the decision open in ``state``."""
    return "plan" if state.phase == "plan" else state.step


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces in ``state``, with its rule and page."""
    if state.is_terminal():
        return ("The game is over: the most VP wins (OZD-27, OZD-28; section 2 'End and "
                f"winners'). [{PAGE}]")
    return decision_paragraph(DECISIONS, decision_key(state), PAGE)


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused for ``seat``: what is wrong, the rule, the legal kinds and the
    legal orders nearest to it."""
    legal = acting_legal(state, seat)
    key = decision_key(state)
    why = ""
    kind = getattr(action, "kind", None)
    if kind in ("plan", "trade", "bazaar") and kind in {m.kind for m in legal}:
        card = action.args[0]
        if key != "trade_played" and card not in state.hands[seat]:
            why = f"{str(action).split(' ')[1]} is not in your hand"
    return refuse_in_table(DECISIONS, key, legal, action, notation="section 6 'Action notation'",
                           not_a_move="it is not an Ozymandias order", fallback="section 6",
                           why=why)
