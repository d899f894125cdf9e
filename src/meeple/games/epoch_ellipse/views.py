"""Epoch Ellipse: the view keys the components compute (``EpochState.COMPONENTS``'s
``Shown`` keys and ``Value.show``): a card is shown by its name, a location by its name and
VP, a seat's draw pile by its contents sorted (its order is hidden; EPE-4). Every seat's view
is the same, the spectator's too: hands, discard piles and piles are public; so are the
contents of each player's deck (``deck_cards``), the night discard pile, removed survivors,
today's passes, trades and the hunger and exploration order (what determinization needs,
rules page section 11)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochState


def acting(state: EpochState, seat: int | None) -> list[int]:
    return list(state._acting)


def locations(state: EpochState, seat: int | None) -> list[dict[str, Any]]:
    """Per position: name, VP, tokens, how many cards its event deck holds (not which)."""
    content_locations, tokens, decks = state.game.content.locations, state.tokens, \
        state.event_decks
    out = []
    for pos, i in enumerate(state.locations):
        loc = content_locations[i]
        out.append({"name": loc.name, "vp": loc.vp, "tokens": tokens[pos],
                    "cards": len(decks[pos]), "recovered": tokens[pos] == 0})
    return out


def recovered_vp(state: EpochState, seat: int | None) -> int:
    return state.recovered_vp()


def target_vp(state: EpochState, seat: int | None) -> int:
    return state.game.params["target_vp"]  # type: ignore[no-any-return]


def deck_sizes(state: EpochState) -> dict[str, int]:
    return {kind: len(deck) for kind, deck in state.decks.items()}


def players(state: EpochState, seat: int | None) -> list[dict[str, Any]]:
    """Per seat: status, hand and discard pile (names, in order), the draw pile's size and
    contents (sorted), the catastrophes in the discard pile, the Mournful card, the cause of
    death."""
    labels = state.game.labels
    ms_card = state.ms_card
    out = []
    for s in range(state.game.players):
        discard = state.discards[s]
        out.append({
            "status": state.status[s], "hand": [labels[c] for c in state.hands[s]],
            "deck": len(state.draws[s]), "discard": [labels[c] for c in discard],
            "catastrophes_in_discard": state.catastrophes_in(discard),
            "mournful_card": None if ms_card[s] is None else labels[ms_card[s]],
            "deck_cards": sorted([labels[c] for c in state.draws[s]]),
            "death_cause": state.death_cause[s]})
    return out


def night_discard(state: EpochState, seat: int | None) -> list[str]:
    labels = state.game.labels
    return [labels[c] for c in state.night_discard]


def removed(state: EpochState, seat: int | None) -> list[str]:
    labels = state.game.labels
    return [labels[c] for c in state.removed]


def traded(state: EpochState) -> list[list[int]]:
    return sorted([a, b] for a, b in state.traded)


def pool(state: EpochState) -> list[list[str]]:
    labels = state.game.labels
    return [[labels[c] for c in pile] for pile in state.pool]


def offer(state: EpochState) -> dict[str, Any] | None:
    if state.offer is None:
        return None
    names = state.game.names
    return {"from": state.offer[0], "to": state.offer[1], "give": names[state.offer[2]],
            "receive": names[state.offer[3]]}


def exploration(state: EpochState, seat: int | None) -> dict[str, Any] | None:
    """The exploration in progress (None outside one): who, where, the flipped cards."""
    if state.explorer < 0 or state.phase != "explore":
        return None
    labels = state.game.labels
    current = state.current
    return {
        "seat": state.explorer,
        "location": state.location_name(state.expl_pos) if state.expl_pos >= 0 else None,
        "k": state.expl_k, "waiting": list(state.explore_queue),
        "current": None if current is None else labels[current],
        "difficulty": 0 if current is None else state.card(current).difficulty,
        "paid": state.paid,
        "catastrophes": [labels[c] for c in state.expl_cats],
        "survivors": [labels[c] for c in state.expl_survivors],
        "salvage": [labels[c] for c in state.expl_salvage],
        "rescue": None if state.rescue is None else [labels[c] for c in state.rescue]}


def events(state: EpochState) -> list[list[Any]]:
    return [list(e) for e in state.events[-12:]]
