"""Epoch Ellipse: the view a seat gets of a state (``EpochState._view``; one job: what is
public and how it is written for clients and the determinization)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochState


def seat_view(state: EpochState, seat: int | None) -> dict[str, Any]:
    """``EpochState._view``: a seat's view (every seat's the same), as JSON-compatible data.
    Everything but deck orders (EPE-4): hands, discard piles and piles are public; so
    are the contents of each player's deck (``deck_cards``, sorted: its order is hidden),
    the night discard pile, removed survivors, today's passes, trades and the hunger and
    exploration order (what determinization needs, rules page section 11)."""
    content = state.game.content
    names = state.name
    gnames = state.game.names
    ctype = state.game.ctype
    return {
        "day": state.day, "phase": state.phase, "step": state.step, "first": state.first,
        "acting": list(state._acting),
        "locations": [{
            "name": content.locations[i].name, "vp": content.locations[i].vp,
            "tokens": state.tokens[pos], "cards": len(state.event_decks[pos]),
            "recovered": state.tokens[pos] == 0} for pos, i in enumerate(state.locations)],
        "recovered_vp": state.recovered_vp(),
        "target_vp": state.game.params["target_vp"],
        "location_deck": len(state.location_deck),
        "decks": {kind: len(deck) for kind, deck in state.decks.items()},
        "players": [{
            "status": state.status[s], "hand": [names(c) for c in state.hands[s]],
            "deck": len(state.draws[s]), "discard": [names(c) for c in state.discards[s]],
            "catastrophes_in_discard": state.catastrophes_in(state.discards[s]),
            "mournful_card": None if state.ms_card[s] is None else names(state.ms_card[s]),
            "deck_cards": sorted(gnames[ctype[c]] for c in state.draws[s]),
            "death_cause": state.death_cause[s],
        } for s in range(state.game.players)],
        "night_discard": [names(c) for c in state.night_discard],
        "removed": [names(c) for c in state.removed],
        "passes": state.passes,
        "traded": sorted([a, b] for a, b in state.traded),
        "hungry": list(state.hungry),
        "pool": [[names(c) for c in pile] for pile in state.pool],
        "queue": list(state.queue),
        "offer": None if state.offer is None else {
            "from": state.offer[0], "to": state.offer[1],
            "give": state.game.names[state.offer[2]],
            "receive": state.game.names[state.offer[3]]},
        "exploration": None if state.explorer < 0 or state.phase != "explore" else {
            "seat": state.explorer,
            "location": state.location_name(state.expl_pos) if state.expl_pos >= 0 else None,
            "k": state.expl_k, "waiting": list(state.explore_queue),
            "current": None if state.current is None else names(state.current),
            "difficulty": 0 if state.current is None else state.card(state.current).difficulty,
            "paid": state.paid,
            "catastrophes": [names(c) for c in state.expl_cats],
            "survivors": [names(c) for c in state.expl_survivors],
            "salvage": [names(c) for c in state.expl_salvage],
            "rescue": None if state.rescue is None else [names(c) for c in state.rescue]},
        "credits": state.credits,
        "events": [list(e) for e in state.events[-12:]],
        "result": state.result, "cause": state.cause,
    }
