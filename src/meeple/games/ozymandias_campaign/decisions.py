"""What each Ozymandias (campaign edition) decision is, in one paragraph from the rules page
(``help`` in the terminal), and why a move is refused (naming the rule and the legal moves
nearest to it). The wording of the refusals is shared with every game
(:mod:`meeple.engine.explain`).
"""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import acting_legal, decision_paragraph, refuse_in_table

PAGE = "docs/rules/ozymandias-campaign.md"

#: step -> (rule reference, reminder), one per step of the step machine (section 2).
DECISIONS: dict[str, tuple[str, str]] = {
    "mode": ("OZW-40; section 2 'A turn is one mode'",
             "Your turn is one mode: 'intake' (place incoming cubes, collapse and score tapped "
             "cards, tap empty cards, draw), 'migrate' (move cubes right and recover workers) "
             "or 'campaign' (stand, colonise, lay down and harvest with workers)."),
    "distribute": ("OZW-4, OZW-5; section 2 'Intake' (a)",
                   "Intake, distribute: put incoming cubes one at a time on tableau cards "
                   "('cube G 2': a GOLD cube on card 2, up to the card's rank under "
                   "card_cap=rank); 'pass' sends the rest to your right neighbour."),
    "recover_colony": ("OZW-18; section 2 'Intake' (b)",
                       "Intake, recover a colony worker for each collapsed card "
                       "('recover GOLD-1:c1' takes your lowest worker in that stack back; "
                       "'done' stops when recovery is optional)."),
    "migrate": ("OZW-13..16; section 2 'Migration'",
                "Migration: from the right-most card leftwards, move each card's cubes one at a "
                "time to a card to its right ('move G 4') or out to your right neighbour "
                "('move G out'); under migration=free 'keep' leaves the rest."),
    "recover_standing": ("OZW-16; section 2 'Migration'",
                         "Migration, recover: take back a standing worker ('recover "
                         "GOLD-1:i3') or a harvest worker ('recover card 2'), one per move; "
                         "'done' ends the turn."),
    "campaign": ("OZW-17, OZW-20..28, OZW-54; section 2 'Campaign'",
                 "Campaign: any number of actions, then 'end'. 'stand GOLD-1:i4' (next to a "
                 "colony of yours; war if an enemy stands there), 'colony GOLD-1:c2' (next to a "
                 "worker of yours; war if an enemy is on top; then you play a card), 'lay 2' (a "
                 "worker on untapped card 2) or 'harvest 3' (a worker on tapped card 3, so it "
                 "scores when it collapses). A war lost without a card is not fought again at that "
                 "point this turn."),
    "war": ("OZW-29..31; section 2 'War'",
            "War: attacker and defender each reveal a hand card at once ('fight R5'); the "
            "stronger card wins the point."),
    "play": ("OZW-28; section 2 'Campaign' item 2",
             "Colony taken: play a card from your hand to your tableau ('play B4'); a cube of "
             "its suit goes to your own incoming area."),
    "explore": ("OZW-32, OZW-33, OZW-43; section 2 'How the map grows'",
                "Exploration: join the drawn tile to the map: 'attach a c' joins the new "
                "tile's port c to this point's open port a."),
}


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces in ``state``, with its rule and page."""
    if state.is_terminal() or state.step not in DECISIONS:
        return f"The game is over (OZW-38; section 2 'Victory and the end'). [{PAGE}]"
    return decision_paragraph(DECISIONS, state.step, PAGE)


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused for ``seat``: what is wrong, the rule, the legal kinds and the
    legal moves nearest to it."""
    return refuse_in_table(DECISIONS, state.step, acting_legal(state, seat), action,
                           notation="section 5 'Action notation'",
                           not_a_move="it is not an Ozymandias (campaign) move",
                           fallback="section 5")
