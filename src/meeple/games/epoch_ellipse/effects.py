"""Epoch Ellipse card effects: curses, charms and night cards (EFFECTS in :mod:`.cards`).

Rules: seeds/epoch-ellipse.txt 3C (CURSE), 3E (CHARM), 5. REST (Night Deck); decisions
EPE-20, EPE-24, EPE-25, EPE-32 in docs/rules/epoch-ellipse.md. Random picks use the state's
own chance stream (EPE-32: "Alice pulls TINNED HAM" is a seeded draw).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.epoch_ellipse.cards import CATASTROPHE, COLLAPSE, COMBAT

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochState


def targets(state: EpochState, who: str, seat: int) -> list[int]:
    """The alive seats an effect with ``who`` applies to, ``seat`` being the resolver."""
    alive = state.alive_in_order()
    if who == "self":
        return [seat] if state.status[seat] == "alive" else []
    if who == "all":
        return alive
    subtype = COMBAT if who == "combat_in_discard" else COLLAPSE
    cards = state.game.content.cards
    return [s for s in alive
            if any(cards[state.ctype[c]].subtype == subtype for c in state.discards[s])]


def apply_effect(state: EpochState, effect: str, params, seat: int, cause: str) -> None:
    """Resolve ``effect`` with ``params`` for resolver ``seat``; ``cause`` names a death it
    brings (``curse``)."""
    n = params.get("n", 1)
    rng = state.rng
    packs = state.packs  # None in a playthrough (EpochState.recount_packs)
    held = None if packs is None else state.game.counts.held
    if effect == "trash_random_hand":
        for s in targets(state, params["who"], seat):
            for _ in range(min(n, len(state.hands[s]))):
                card = state.hands[s].pop(rng.randrange(len(state.hands[s])))
                if packs is not None:
                    packs[s] -= held[card]
                state.trash(card)
                if state.narrate:
                    state.log(s, f"loses {state.name(card)} (trashed at random)")
    elif effect == "discard_random_hand":
        for s in targets(state, params["who"], seat):
            for _ in range(min(n, len(state.hands[s]))):
                card = state.hands[s].pop(rng.randrange(len(state.hands[s])))
                if state.narrate:
                    state.log(s, f"drops {state.name(card)} (discarded at random)")
                if state.to_discard(s, card, cause, True):  # from its own hand
                    break
    elif effect == "catastrophe_to_discard":
        for s in targets(state, params["who"], seat):
            for _ in range(n):
                card = state.draw_shared(CATASTROPHE)
                if card is None:
                    break
                if state.narrate:
                    state.log(s, f"suffers {state.name(card)}")
                if state.to_discard(s, card, cause):
                    break
    elif effect == "reinforce_location":
        places = [i for i in range(1, len(state.locations))]
        if places:
            pos = places[rng.randrange(len(places))]
            for _ in range(n):
                card = state.draw_shared(CATASTROPHE)
                if card is None:
                    break
                state.add_to_location(pos, card)
            if state.narrate:
                state.log(-1, f"{state.location_name(pos)} is reinforced")
    elif effect == "draw_salvage":
        for s in targets(state, params["who"], seat):
            for _ in range(n):
                card = state.draw_shared("SALVAGE")
                if card is None:
                    break
                state.hands[s].append(card)
                if packs is not None:
                    packs[s] += held[card]
                if state.narrate:
                    state.log(s, f"finds {state.name(card)}")
            state.enforce_limit_outside(s)
    elif effect == "heal":
        cards = state.game.content.cards
        for s in targets(state, params["who"], seat):
            pile = state.discards[s]
            healed = [c for c in pile if cards[state.ctype[c]].kind == CATASTROPHE][:n]
            for card in healed:
                pile.remove(card)
                if packs is not None:
                    packs[s] -= held[card]
                state.trash(card)
            if healed:
                if state.narrate:
                    state.log(s, f"heals {len(healed)} catastrophe(s)")
    elif effect == "clear_location":
        held = [i for i in range(1, len(state.locations)) if state.tokens[i]]
        if held:
            pos = min(held, key=lambda i: (state.tokens[i], i))
            removed = state.remove_catastrophes(pos, n)
            if state.narrate:
                state.log(-1, f"{removed} catastrophe(s) leave {state.location_name(pos)}")
