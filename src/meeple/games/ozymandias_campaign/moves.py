"""Legal moves of Ozymandias (campaign edition), per step (the one place legality is defined).

Rules: seeds/ozymandias-campaign.md, Game Sequence; decisions OZW-n in
docs/rules/ozymandias-campaign.md. A tableau card is a row ``[card index, gold cubes, red
cubes, blue cubes, tapped, laid, harvest]`` (the field indexes below), left to right.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from meeple.engine.action import interning
from meeple.games.ozymandias_campaign.actions import Move, card_name
from meeple.games.ozymandias_campaign.vocab import Card

if TYPE_CHECKING:
    from meeple.games.ozymandias_campaign.rules import CampaignState

#: Most hands whose ``fight``/``play`` moves are remembered per game spec.
HAND_MEMO_SIZE = 1 << 16

#: Fields of a tableau row: the card (index into the game's cards), cubes of suit s at
#: ``CUBES + s``, then the tapped flag and the laid-down and harvest workers (0 or 1 each).
CARD, CUBES, TAPPED, LAID, HARVEST = 0, 1, 4, 5, 6


def spec_tables(players: int, cards: Sequence[Card]) -> dict[str, Any]:
    """The tables a game spec builds once (``OzymandiasCampaign`` slots of the same names),
    since the legal-move generator, the transitions and the views ask for them at every step.

    Returns:
        ``moves``: the memo of the legal-move generator, one Move per value; per seat,
        ``makers``: the interning maker of its moves (``engine.action.interning``),
        ``mode_moves``: its three mode moves (always legal, OZW-40), ``mode_tables``: their
        legal table (shared by every state, so searches see one sequence), ``end_moves``: its
        ``end`` move, ``arg_moves``: its stand/colony/lay/harvest moves by argument (four dicts,
        filled as they are met: the same interned moves, one dict look-up each),
        ``card_moves``: its fight and play moves by ``(suit, rank)`` (two dicts, the same);
        per card
        index, ``card_keys``: its ``(suit, rank)``, ``card_texts``: its text (``G5``).
    """
    moves: dict[tuple, Move] = {}
    makers = tuple(interning(moves, s, partial(_new_move, s)) for s in range(players))
    mode = tuple((mv("intake"), mv("migrate"), mv("campaign")) for mv in makers)
    return {"moves": moves, "makers": makers, "mode_moves": mode,
            "mode_tables": tuple({s: (m, frozenset(m))} for s, m in enumerate(mode)),
            "end_moves": tuple(mv("end") for mv in makers),
            "arg_moves": tuple(({}, {}, {}, {}) for _ in makers),
            "card_moves": tuple({"fight": {}, "play": {}} for _ in makers),
            "card_keys": tuple((c.suit, c.rank) for c in cards),
            "card_texts": tuple(card_name(c.suit, c.rank) for c in cards)}


def _new_move(seat: int, kind: str, args: tuple) -> Move:
    """A new Move (for the interning makers)."""
    return Move(seat, kind, args)


def new_row(card: int) -> list[int]:
    """A card entering a tableau: untapped, no cubes, no workers (OZW-11)."""
    return [card, 0, 0, 0, 0, 0, 0]


def cube_count(row: list[int]) -> int:
    return row[1] + row[2] + row[3]


def has_room(state: CampaignState, row: list[int]) -> bool:
    """Whether a card may take one more cube (OZW-4: unlimited, or at most its rank)."""
    if state.game.params["card_cap"] == "none":
        return True
    return cube_count(row) < state.game.cards[row[CARD]].rank


def colony_points(state: CampaignState, seat: int, top_only: bool = False) -> list[str]:
    """Colonies holding a worker of ``seat`` (anywhere in the stack, or on top)."""
    out = []  # plain loops: a comprehension costs a frame in 3.11
    if top_only:
        for p, stack in state.stacks.items():
            if stack[-1] == seat:
                out.append(p)
    else:
        for p, stack in state.stacks.items():
            if seat in stack:
                out.append(p)
    return out


def standing_points(state: CampaignState, seat: int) -> list[str]:
    """Points where a worker of ``seat`` stands."""
    out = []
    for p, s in state.standing.items():
        if s == seat:
            out.append(p)
    return out


def hand_cards(state: CampaignState, seat: int) -> list[tuple[int, int]]:
    """Distinct ``(suit, rank)`` in ``seat``'s hand, sorted (copies are interchangeable)."""
    keys = state.game.card_keys  # card index -> (suit, rank)
    return sorted({keys[c] for c in state.hands[seat]})


def legal_moves(state: CampaignState, seat: int) -> Sequence[Move]:
    """Every legal action of ``seat`` now, in a deterministic order (never empty while the
    seat acts). A new list, except at the ``war`` and ``play`` steps: there the moves are a
    function of the hand alone, remembered per game spec (at most ``HAND_MEMO_SIZE`` hands)
    as one shared tuple, so equal hands give the same sequence."""
    game = state.game
    mv = game.makers[seat]  # one Move object per value, per game spec (interning)
    step = state.step
    tableau = state.tableaus[seat]
    if step == "mode":  # every mode is always legal (OZW-40): intake, migrate, campaign
        return list(game.mode_moves[seat])
    if step == "distribute":  # Intake (a): any card, tapped ones included (OZW-5)
        incoming = state.incoming[seat]
        room = [i for i, row in enumerate(tableau) if has_room(state, row)]
        out = [mv("cube", s, i) for s in range(3) if incoming[s] for i in room]
        out.append(mv("pass"))
        return out
    if step == "recover_colony":  # Intake (b): one colony worker per discarded card (OZW-18)
        out = [mv("recover", p) for p in sorted(colony_points(state, seat))]
        if state.game.params["colony_recovery"] == "optional":
            out.append(mv("done"))
        return out
    if step == "migrate":  # Migration, the current card's cubes go right-wards (OZW-13)
        pos = state.mig_pos
        row = tableau[pos]
        dests = [j for j in range(pos + 1, len(tableau)) if has_room(state, tableau[j])]
        dests.append(-1)
        out = [mv("move", s, d) for s in range(3) if row[CUBES + s] for d in dests]
        if state.game.params["migration"] == "free":
            out.append(mv("keep"))
        return out
    if step == "recover_standing":  # Migration: standing and harvest workers (OZW-16)
        out = [mv("recover", p) for p in sorted(standing_points(state, seat))]
        out += [mv("recover", "card", i) for i, row in enumerate(tableau) if row[HARVEST]]
        out.append(mv("done"))
        return out
    if step == "campaign":
        out = _campaign_moves(state, seat, mv)
        out.append(game.end_moves[seat])  # mv("end")
        return out
    if step in ("war", "play"):  # a card from hand (OZW-30; Campaign, lay a colony)
        kind = "fight" if step == "war" else "play"
        hand = state.hands[seat]
        memo = game._cache.get("ozw-hand-moves")
        if memo is None:
            memo = game._cache["ozw-hand-moves"] = {}
        key = (seat, kind, tuple(hand))
        found = memo.get(key)
        if found is None:  # a pure function of the hand: remembered, bounded
            if len(memo) >= HAND_MEMO_SIZE:
                memo.clear()
            made = game.card_moves[seat][kind]  # (suit, rank) -> the interned move
            moves = []
            for card in hand_cards(state, seat):  # a plain loop: no comprehension's frame
                move = made.get(card)
                if move is None:
                    move = made[card] = mv(kind, *card)
                moves.append(move)
            found = memo[key] = tuple(moves)
        return found
    if step == "explore":  # join the drawn tile at one of this point's open ports (OZW-32)
        tile = state.game.tiles[state.drawn_tile]
        return [mv("attach", port, tile_port)
                for port in state.map.ports_of(state.explore_at)
                for tile_port, _ in tile.ports]
    return []


def _campaign_moves(state: CampaignState, seat: int, mv) -> list[Move]:
    """Stand, colony, lay and harvest moves (Campaign; OZW-21..28); none at a point of
    ``state.lost_wars`` (OZW-54)."""
    game = state.game
    p = game.params
    sector_map = state.map
    tableau = state.tableaus[seat]
    out: list[Move] = []
    supply = state.supply[seat]
    # mv(kind, arg) for these kinds, remembered per seat as arg -> Move (one dict look-up)
    stands, colonies, lays, harvests = game.arg_moves[seat]
    if supply:
        lost = state.lost_wars
        stacks = state.stacks
        # Stand: adjacent to a colony of yours, on an intersection or hazard not already
        # yours (OZW-22, OZW-23); an enemy there means war.
        # A war lost at no cost is not fought again at that point this turn (OZW-54).
        top_only = p["colony_ref"] == "top"
        mine = colony_points(state, seat, top_only=top_only)
        standing = state.standing
        others = sector_map.other_neighbours  # the non-colony points next to each point
        near: set[str] = set()
        for c in mine:
            near |= others[c]
        for q in sorted(near):  # plain loops here: a comprehension costs a frame in 3.11
            if standing.get(q) != seat and q not in lost:
                out.append(stands.get(q) or _remember(stands, mv, "stand", q))
        # Colony: adjacent to any worker of yours, or any colony with none on the map
        # (OZW-24); not where you are on top (OZW-25).
        if state.hands[seat] or not p["lay_requires_card"]:
            anchors = ((colony_points(state, seat) if top_only else mine)
                       + standing_points(state, seat))
            if anchors:
                next_to = sector_map.colony_neighbours  # the colonies next to each point
                near = set()
                for a in anchors:
                    near |= next_to[a]
                targets = sorted(near)
            else:
                targets = sector_map.colonies  # every colony, sorted
            for q in targets:
                if not (stacks.get(q) and stacks[q][-1] == seat) and q not in lost:
                    out.append(colonies.get(q) or _remember(colonies, mv, "colony", q))
    if supply or (p["laydown_source"] == "bag" and state.bag[seat]):
        for i, row in enumerate(tableau):
            if not row[TAPPED] and not row[LAID]:  # unworked, untapped (OZW-20)
                out.append(lays.get(i) or _remember(lays, mv, "lay", i))
    if supply:
        for i, row in enumerate(tableau):
            if row[TAPPED] and not row[HARVEST]:  # unworked, tapped (OZW-20)
                out.append(harvests.get(i) or _remember(harvests, mv, "harvest", i))
    return out


def has_lay_or_harvest(state: CampaignState, seat: int) -> bool:
    """Whether ``seat`` may lay a worker down or harvest now (a ``lay`` or ``harvest`` move
    among :func:`_campaign_moves`, under the same conditions): then the campaign step has a
    choice besides ``end`` without listing its moves (``CampaignState._settle``).
    ``tests/test_ozymandias_campaign_speed.py`` checks it against the listed moves."""
    supply = state.supply[seat]
    tableau = state.tableaus[seat]
    if supply or (state.game.params["laydown_source"] == "bag" and state.bag[seat]):
        for row in tableau:
            if not row[TAPPED] and not row[LAID]:
                return True
    if supply:
        for row in tableau:
            if row[TAPPED] and not row[HARVEST]:
                return True
    return False


def _remember(table: dict, mv, kind: str, arg) -> Move:
    """``mv(kind, arg)`` (the interned move), kept in ``table`` under ``arg`` for the next
    listing (``OzymandiasCampaign.arg_moves``)."""
    move = table[arg] = mv(kind, arg)
    return move
