"""Epoch Ellipse: the view keys the components compute (``EpochState.COMPONENTS``'s
``Shown`` keys and ``Value.show``): a card is shown by its name, a location by its name and
VP, a seat's draw pile by its contents sorted (its order is hidden; EPE-4). Every seat's view
is the same, the spectator's too: hands, discard piles and piles are public; so are the
contents of each player's deck (``deck_cards``), the night discard pile, removed survivors,
today's passes, trades and the hunger and exploration order (what determinization needs,
rules page section 11)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


# -------------------------------------------------------------------------- read back
# What a determinization reads back from a view (``EpochState.COMPONENTS``'s
# ``Zone.contents`` and ``Value.restore``): every seat's view is the same and shows all but
# the deck orders and the event decks' contents (EPE-4; rules page section 11).

#: The exploration's fields when none is in progress (``ExploreSteps._reset_exploration``).
NO_EXPLORATION = {"explorer": -1, "expl_pos": -1, "expl_k": 0, "expl_new": False,
                  "current": None, "paid": 0, "rescue": None}


def seat_key(key: str) -> Callable[[Mapping[str, Any]], list[Any]]:
    """The view's ``players[s][key]`` for every seat (a pile's card names, a status)."""
    return lambda view: [p[key] for p in view["players"]]


def explored(key: str) -> Callable[[Mapping[str, Any]], list[str] | None]:
    """The cards the exploration in progress shows under ``key`` (none outside one); None
    at the end, where a win may have cut an exploration short: its flipped cards are no
    longer shown (the deal puts there the unseen cards the event decks do not take)."""
    def read(view: Mapping[str, Any]) -> list[str] | None:
        ex = view["exploration"]
        if ex is not None:
            return ex[key]  # type: ignore[no-any-return]
        return [] if view["result"] is None else None
    return read


def exploration_value(name: str) -> Callable[..., Any]:
    """The ``Value.restore`` of the exploration's field ``name`` (card names taken as
    instances with ``take``, for ``current`` and ``rescue``: ``Value.takes``), or its value
    outside an exploration."""
    def restore(view: Mapping[str, Any], state: EpochState,
                take: Callable[[str], int] | None = None) -> Any:
        ex = view["exploration"]
        if ex is None:
            return NO_EXPLORATION[name]
        if name == "explorer":
            return ex["seat"]
        if name == "expl_pos":
            return -1 if ex["location"] is None else next(
                pos for pos, loc in enumerate(view["locations"]) if loc["name"] == ex["location"])
        if name == "expl_k":
            return ex["k"]
        if name == "current":
            return None if ex["current"] is None else take(ex["current"])  # type: ignore
        if name == "rescue":
            return None if ex["rescue"] is None else [take(c) for c in ex["rescue"]]  # type: ignore
        return ex[name] if name in ex else NO_EXPLORATION[name]
    return restore


def turn(view: Mapping[str, Any], state: EpochState) -> int:
    """Who acts in PLAN, EXPLORE and HUNGER: the offer's maker while it is answered; at a pick
    the turn is unused (WAKE UP sets it afterwards): today's first player."""
    if view["step"] == "answer":
        return view["offer"]["from"]  # type: ignore[no-any-return]
    acting = view["acting"]
    return acting[0] if acting and view["step"] != "pick" else view["first"]  # type: ignore


def offer_back(view: Mapping[str, Any], state: EpochState) -> tuple[int, int, int, int] | None:
    """The open trade offer as ``(from, to, given type, received type)``."""
    offer = view["offer"]
    if offer is None:
        return None
    index = {name: t for t, name in enumerate(state.game.names)}
    return offer["from"], offer["to"], index[offer["give"]], index[offer["receive"]]
