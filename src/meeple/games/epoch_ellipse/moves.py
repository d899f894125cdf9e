"""Legal moves of Epoch Ellipse, per step (the one place legality is defined).

Rules: seeds/epoch-ellipse.txt; decisions EPE-n in docs/rules/epoch-ellipse.md. Copies of a
card are interchangeable, so moves name card types; a card pays with one printed mode
(EPE-9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.engine.action import interning
from meeple.games.epoch_ellipse.actions import Move, make_move
from meeple.games.epoch_ellipse.cards import CATASTROPHE, CHARM, SALVAGE

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochState

#: Steps of one's own exploration, where emergency stabilization is open (EPE-30).
EXPLORING = ("choose", "flip", "combat", "collapse", "rescue", "limit")


def legal_moves(state: EpochState, seat: int) -> list[Move]:
    """Every legal action of ``seat`` now, in a deterministic order."""
    game = state.game
    interned = game.moves
    names = game.names

    mv = interning(interned, seat, lambda kind, args: make_move(seat, kind, names, args))

    step = state.step
    hand = state.hands[seat]
    cards = game.content.cards
    ctype = game.ctype
    types = sorted({ctype[c] for c in hand})
    if step == "pick":  # a survivor pile, in death order (EPE-38)
        return [mv("pick", i) for i in range(len(state.pool))]
    if step == "answer":
        return [mv("accept"), mv("decline")]
    if step == "treat":  # trash a catastrophe from hand per medical point (2. PLAN)
        out = [mv("treat", t) for t in types if cards[t].kind == CATASTROPHE]
        return out + [mv("done")]
    if step == "limit":
        return [mv("return", t) for t in types]
    if step == "rescue":  # salvage from the hand or the exploration (3D; EPE-22)
        out = [mv("give", t, False) for t in types if cards[t].kind == SALVAGE]
        out += [mv("give", t, True) for t in sorted({ctype[c] for c in state.expl_salvage})]
        return out + [mv("done")]
    out: list[Move] = []
    if step == "plan":
        out += _trades(state, seat, mv)
        wanted = ("draw", "medical", "trash_catastrophe") if any(
            cards[t].kind == CATASTROPHE for t in types) else ("draw",)
        out += _payments(state, seat, mv, wanted)  # treatment (2. PLAN) and card draw
    elif step == "choose":
        out += _explore_options(state, mv)
    elif step == "flip":
        out += [mv("redraw", t) for t in types if cards[t].discard.get("redraw")]
        out.append(mv("resolve"))
    elif step == "combat":
        out += _payments(state, seat, mv, ("weapon",))
    elif step == "collapse":
        out += _payments(state, seat, mv, ("medical", "avoid_collapse"))
    elif step == "hunger":
        out += _payments(state, seat, mv, ("food",), kind="eat")
    out += [mv("charm", t) for t in types if cards[t].subtype == CHARM]
    if step in ("plan", "choose", "combat", "collapse", "hunger"):  # a Mournful charm (EPE-6)
        out += [mv("charm", "ms", owner) for owner, ms in enumerate(state.ms_card)
                if ms is not None and cards[ctype[ms]].subtype == CHARM]
    window = state.game.params["stabilize_window"] == "anytime" or (
        step in EXPLORING and state.explorer == seat)
    if window and any(cards[ctype[c]].kind == CATASTROPHE for c in state.discards[seat]):
        out += _payments(state, seat, mv, ("medical",), kind="stabilize", mournful=False)
    if step == "plan":
        out.append(mv("pass"))
    elif step == "combat" or step == "collapse":
        out.append(mv("suffer"))
    elif step == "hunger":
        out.append(mv("starve"))
    elif step == "choose" and not any(m.kind in ("new", "explore") for m in out):
        out.append(mv("skip"))  # nowhere to explore (EPE-12)
    return out


def _payments(state: EpochState, seat: int, mv, points: tuple[str, ...], kind: str = "use",
              mournful: bool = True) -> list[Move]:
    """Cards of the hand (and Mournful cards, EPE-6) with a mode giving any of ``points``."""
    game = state.game
    cards, ctype = game.content.cards, game.ctype
    salvage_only = game.params["medical_salvage_only"]
    out = []
    for t in sorted({ctype[c] for c in state.hands[seat]}):
        card = cards[t]
        if salvage_only and card.kind != SALVAGE:
            continue
        for mode in card.modes():
            if any(card.points(mode).get(p, 0) > 0 for p in points):
                out.append(mv(kind, t, mode))
    if mournful:
        for owner, ms in enumerate(state.ms_card):
            if ms is None:
                continue
            card = cards[ctype[ms]]
            for mode in card.modes():
                if any(card.points(mode).get(p, 0) > 0 for p in points):
                    out.append(mv(kind, "ms", owner, mode))
    return out


def _trades(state: EpochState, seat: int, mv) -> list[Move]:
    """1-for-1 salvage offers, one per pair of players a day (2. PLAN; EPE-7)."""
    game = state.game
    cards, ctype = game.content.cards, game.ctype
    mine = sorted({ctype[c] for c in state.hands[seat] if cards[ctype[c]].kind == SALVAGE})
    out = []
    for partner, status in enumerate(state.status):
        if partner == seat or status != "alive":
            continue
        if (min(seat, partner), max(seat, partner)) in state.traded:
            continue
        theirs = sorted({ctype[c] for c in state.hands[partner]
                         if cards[ctype[c]].kind == SALVAGE})
        out += [mv("trade", partner, g, r) for g in mine for r in theirs if g != r]
    return out


def _explore_options(state: EpochState, mv) -> list[Move]:
    """A NEW LOCATION while the Location deck lasts, or any location in play with cards in
    its event deck (3A, 3B; EPE-13, EPE-41, EPE-42)."""
    p = state.game.params
    out = [mv("new")] if state.location_deck else []
    for pos, deck in enumerate(state.event_decks):
        if not deck or (p["no_recovered_explore"] and state.tokens[pos] == 0):
            continue
        if p["explore_count"] == "d6":
            out.append(mv("explore", pos, 0))
        else:
            out += [mv("explore", pos, k) for k in range(1, min(p["explore_max"], len(deck)) + 1)]
    return out
