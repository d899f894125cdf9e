"""Ozymandias (campaign edition): claiming points of the map, as state transitions. One job:
what a Campaign action on the map does (standing workers, colonies, exploring by a port) and
the wars they open.

Rules: seeds/ozymandias-campaign.md, The Sectors, Campaign (stand; lay a worker down on a
colony) and War; decisions OZW-22..OZW-34 in docs/rules/ozymandias-campaign.md. The
``rules`` state calls these functions from its ``stand``/``colony``/``attach`` actions and its
``war`` step; legality is decided beforehand (:mod:`.moves`), the arithmetic of war strength
in :mod:`.scoring`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.ozymandias_campaign.actions import card_name
from meeple.games.ozymandias_campaign.scoring import attacker_wins
from meeple.games.ozymandias_campaign.vocab import HAZARD

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import CampaignState


def stand(state: CampaignState, seat: int, point: str) -> None:
    """``seat`` stands a worker on ``point``: a war with the enemy standing there, else the
    worker is placed (Campaign; OZW-22, OZW-23). Changes ``state``, returns nothing."""
    enemy = state.standing.get(point)
    if enemy is not None:
        open_war(state, "stand", point, seat, enemy)
    else:
        place_standing(state, seat, point)


def place_standing(state: CampaignState, seat: int, point: str) -> None:
    """A worker of ``seat`` from the supply stands on the free ``point``; on a hazard it may
    give unrest (OZW-34 variant), and by a port with tiles left a tile is drawn and the
    ``explore`` step opens (OZW-32). Changes ``state``, returns nothing."""
    state.supply[seat] -= 1
    state.standing[point] = seat
    if state.narrate:
        state._log(seat, f"stands a worker on {point}")
    if state.game.params["hazard_unrest"] and state.map.kinds[point] == HAZARD:
        state.unrest[seat] += 1  # OZW-34 variant
    if state.game.params["explore"] and state.tile_deck and state.map.ports_of(point):
        state.drawn_tile = state.tile_deck.pop()  # OZW-32
        state.explore_at = point
        state.step = "explore"
        if state.narrate:
            state._log(seat, f"explores: draws tile {state.game.tiles[state.drawn_tile].id}")


def attach(state: CampaignState, seat: int, port: str, tile_port: str) -> None:
    """The drawn tile joins the map: the open ``port`` at the explored point meets the tile's
    ``tile_port`` (OZW-32, OZW-33); back to the campaign step. Changes ``state``."""
    tile = state.game.tiles[state.drawn_tile]
    state.map = state.map.attach(state.explore_at, port, tile, tile_port)
    if state.narrate:
        state._log(seat, f"joins {tile.id} (port {tile_port}) to {state.explore_at} (port "
                         f"{port})")
    state.drawn_tile = state.explore_at = None
    state.step = "campaign"


def colony(state: CampaignState, seat: int, point: str) -> None:
    """``seat`` lays a worker down on the colony ``point``: a war with the seat on top of
    another's stack (OZW-26), else it conquers the point. Changes ``state``."""
    stack = state.stacks.get(point)
    if stack and stack[-1] != seat:
        open_war(state, "colony", point, seat, stack[-1])
    else:
        conquer(state, seat, point)


def conquer(state: CampaignState, seat: int, point: str) -> None:
    """The worker lies on top; every other seat beneath gains 1 unrest (The Sectors;
    OZW-26, OZW-29); then a card is played to the tableau (the ``play`` step). Changes
    ``state``, returns nothing."""
    state.supply[seat] -= 1
    stack = state.stacks.setdefault(point, [])
    for other in sorted(set(stack) - {seat}):
        state.unrest[other] += 1
    state.stacks[point] = stack + [seat]  # a new list (see CampaignState)
    if state.narrate:
        state._log(seat, f"lays a colony worker on {point}")
    state.step = "play"


def open_war(state: CampaignState, kind: str, point: str, attacker: int,
             defender: int) -> None:
    """Everyone at the point gains 1 unrest (OZW-29); the two seats then choose cards.

    ``kind`` is ``"stand"`` or ``"colony"``; the state's ``war`` becomes ``[kind, point,
    attacker, defender]`` and its step ``war``. Returns nothing."""
    present = {attacker, defender}
    if kind == "colony":
        present.update(state.stacks[point])
    for seat in sorted(present):
        state.unrest[seat] += 1
    state.war = [kind, point, attacker, defender]
    state.step = "war"
    if state.narrate:
        state._log(attacker, f"makes war on Seat {defender} at {point}")


def resolve_war(state: CampaignState, attacker_card: tuple | None,
                defender_card: tuple | None, won: bool | None = None) -> None:
    """Reveal, compare (War; OZW-30, OZW-31) and settle the point of ``state.war``.

    The cards are ``(suit, rank)`` from each seat's hand (discarded), or None when that seat
    plays none; ``won`` decides a war in which a seat has no card, so none is played (None:
    compare the cards). An attacker that loses without a card and keeps its worker (a stand,
    or a colony under ``failed_colony=return_worker``) may not make war at that point again
    this turn: the point joins ``state.lost_wars`` (OZW-54). Changes ``state``, returns
    nothing."""
    kind, point, attacker, defender = state.war
    shown = []
    for seat, card in ((attacker, attacker_card), (defender, defender_card)):
        if card is not None:
            state.discard.append(state._take(seat, *card))
            shown.append(f"Seat {seat} {card_name(*card)}")
        else:
            shown.append(f"Seat {seat} no card")
    if won is None:
        won = attacker_wins(attacker_card, defender_card, state.map.suits[point])
    if state.narrate:
        state._log(-1, f"war at {point}: {', '.join(shown)}; Seat "
                       f"{attacker if won else defender} wins")
    state.war = None
    state.step = "campaign"
    if not won and attacker_card is None and (
            kind == "stand" or state.game.params["failed_colony"] == "return_worker"):
        # lost at no cost (no card played, the worker back in the supply): not again at this
        # point this turn, or the same war could repeat forever (OZW-54)
        state.lost_wars.append(point)
    if kind == "stand":
        if won:  # the loser takes back their worker (OZW-31)
            state.supply[defender] += 1
            del state.standing[point]
            place_standing(state, attacker, point)
    elif won:
        conquer(state, attacker, point)
    elif state.game.params["failed_colony"] == "beneath":  # OZW-27
        state.supply[attacker] -= 1
        stack = state.stacks[point]  # beneath the top, on a new list (see CampaignState)
        state.stacks[point] = stack[:-1] + [attacker] + stack[-1:]
        state.step = "play"
