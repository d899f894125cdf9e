"""Ozymandias (market edition): the rule document's scenarios (T-OZD-1..5), the decisions OZD-n,
every event E1..E10, the variants' switches and the action notation, one test each.

Scenario ids T-OZD-n and decision ids OZD-n refer to /work/shared/notes/rules-questions.md
section 2 (seed: seeds/ozymandias-market.md). Scenarios are built by editing
``state.to_json()["data"]`` of a fresh game (cards are moved between zones, never invented;
disks on the map are taken from the supply) and reading it back with ``game.state_from_json``;
moves are typed in the canonical notation and applied through the public API, so legality is
always the engine's own.

Reference deck (rules-questions 2.4), by event: Explore R1 W15 B25 K39; Raze K4 R8 W18 B32;
March K7 R11 W21 B35; Coup K10 R14 W28 B38; Surge B3 K13 R17 W31; Diaspora B6 K20 R24 W34;
Tribute B9 K23 R27 W37; Bazaar W2 B16 K26 R30; Augury W5 B19 K29 R33; Embargo W12 B22 K36 R40.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from meeple import load_game
from meeple.engine.errors import ActionParseError, IllegalActionError, ParameterError
from meeple.games.ozymandias_market.content import DEFAULT_CARDS_PATH, CardsError

GAME = "ozymandias-market"
LETTERS = "RWBK"  # colour initials, index = colour id (OZD-1)
R, W, B, K = range(4)
TRIANGLE = ((0, 0), (1, 0), (0, 1))  # the opening sectors (OZD-6)
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: The reference deck's events, written out independently of the implementation (2.4).
EVENT_OF = {name: event for event, cards in {
    "EXPLORE": "R1 W15 B25 K39", "RAZE": "K4 R8 W18 B32", "MARCH": "K7 R11 W21 B35",
    "COUP": "K10 R14 W28 B38", "SURGE": "B3 K13 R17 W31", "DIASPORA": "B6 K20 R24 W34",
    "TRIBUTE": "B9 K23 R27 W37", "BAZAAR": "W2 B16 K26 R30", "AUGURY": "W5 B19 K29 R33",
    "EMBARGO": "W12 B22 K36 R40",
}.items() for name in cards.split()}
assert len(EVENT_OF) == 40


# ------------------------------------------------------------------------------ helpers
def make(players: int = 2, variant: str | None = None, **params: Any):
    return load_game(GAME, variant=variant, players=players, **params)


def rank(name: str) -> int:
    """``"W17"`` -> 17, checking the colour against the reference deck."""
    assert name in EVENT_OF, f"{name} is not a card of the reference deck"
    return int(name[1:])


def name_of(game, r: int) -> str:
    return f"{LETTERS[game.suit_of[r]]}{r}"


def neighbours(h):
    return {(h[0] + dq, h[1] + dr) for dq, dr in DIRS}


def scenario(game, stacks=None, *, hands=None, market=None, played=None, deck_top=(),
             discard=(), phase="raise", turn=0, step=None, turn_order=None, vp=None,
             dead=None, rest_to="deck", seed=0, **extra: Any):
    """A state of ``game``.

    ``stacks``: {(q, r): "WR"} colours bottom to top (default: the empty opening triangle);
    ``hands`` {seat: [names]}, ``market`` [names], ``played`` {seat: name}; seats or zones
    left out are filled with unused cards (hands to hand_size, minus one for a seat that has
    played); ``deck_top`` is drawn first to last; every other card goes to the deck (or, with
    ``rest_to="discard"``, to the discard pile after ``discard``). The supply is what the map
    and ``dead`` leave of ``disks_per_colour``. ``turn_order`` defaults to the played ranks,
    ascending in the raise phase and descending in the trade phase.
    """
    p = game.params
    n = game.players
    state = game.new_initial_state(seed)
    d = json.loads(json.dumps(state.to_json()))
    data = d["data"]
    stacks = {h: [LETTERS.index(c) for c in s] for h, s in
              (stacks if stacks is not None else {h: "" for h in TRIANGLE}).items()}
    played_r = [None] * n
    for seat, nm in (played or {}).items():
        played_r[seat] = rank(nm)
    hands_r = {seat: [rank(c) for c in cards] for seat, cards in (hands or {}).items()}
    market_r = None if market is None else [rank(c) for c in market]
    fixed = ([c for h in hands_r.values() for c in h] + (market_r or [])
             + [r for r in played_r if r is not None] + [rank(c) for c in deck_top]
             + [rank(c) for c in discard])
    assert len(fixed) == len(set(fixed)), "a card placed twice"
    free = [c.rank for c in game.cards if c.rank not in set(fixed)]
    free.sort(reverse=True)  # fillers come from the high ranks
    for seat in range(n):
        if seat not in hands_r:
            size = p["hand_size"] - (played_r[seat] is not None)
            hands_r[seat] = [free.pop(0) for _ in range(size)]
    if market_r is None:
        market_r = [free.pop(0) for _ in range(p["market_size"])]
    discard_r = [rank(c) for c in discard]
    if rest_to == "deck":
        deck = free + [rank(c) for c in reversed(deck_top)]
    else:
        deck = [rank(c) for c in reversed(deck_top)]
        discard_r += free
    dead = list(dead or [0] * 4)
    supply = [p["disks_per_colour"] - sum(s.count(c) for s in stacks.values()) - dead[c]
              for c in range(4)]
    assert min(supply) >= 0, "more disks on the map than the game has"
    if turn_order is None:
        seats = [s for s in range(n) if played_r[s] is not None]
        turn_order = sorted(seats, key=lambda s: played_r[s] * (-1 if phase == "trade" else 1))
    if step is None:
        step = "trade_hand" if phase == "trade" else "main"
    data.update(
        stacks=[[f"{q},{r}", s] for (q, r), s in sorted(stacks.items())],
        supply=supply, dead=dead, sectors_left=p["sectors"] - len(stacks), deck=deck,
        discard=discard_r, market=market_r, hands=[hands_r[s] for s in range(n)],
        played=played_r, last_ranks=list(played_r),  # as revealed at this round's plans
        vp=list(vp or [0] * n), phase=phase, turn_order=turn_order,
        turn=turn, step=step, surge_left=0, augury_pool=[], events=[], winners_=None,
        truncated=False,
    )
    data.update(extra)
    out = game.state_from_json(d)
    assert_conserved(out)
    return out


def data(state) -> dict[str, Any]:
    """A snapshot of the state's fields (a deep copy: ``to_json`` shares the state's lists,
    see test_to_json_is_a_snapshot_not_a_live_alias)."""
    return json.loads(json.dumps(state.to_json()["data"]))


def stacks_of(state) -> dict[tuple[int, int], str]:
    """The map as {(q, r): "WR"} (bottom to top)."""
    out = {}
    for key, stack in data(state)["stacks"]:
        q, r = (int(x) for x in key.split(","))
        out[(q, r)] = "".join(LETTERS[c] for c in stack)
    return out


def assert_conserved(state) -> None:
    """Every card in exactly one zone; every disk in the supply, on the map or dead."""
    d = data(state)
    cards = d["deck"] + d["discard"] + d["market"] + d["augury_pool"]
    cards += [c for h in d["hands"] for c in h] + [c for c in d["played"] if c is not None]
    assert Counter(cards) == Counter(c.rank for c in state.game.cards)
    per = state.game.params["disks_per_colour"]
    for colour in range(4):
        on_map = sum(stack.count(colour) for _, stack in d["stacks"])
        assert d["supply"][colour] + on_map + d["dead"][colour] == per, colour
        assert d["supply"][colour] >= 0


def act(state, text: str, seat: int | None = None) -> None:
    """Parse ``text`` for ``seat`` (default: the only acting seat) and apply it."""
    if seat is None:
        (seat,) = state.current_players()
    state.apply_action(state.game.parse_action(text, seat), seat)
    assert_conserved(state)


def legal(state, seat: int | None = None) -> set[str]:
    if seat is None:
        (seat,) = state.current_players()
    return {str(m) for m in state.legal_actions(seat)}


def of_kind(moves: set[str], kind: str) -> set[str]:
    return {m for m in moves if m.split()[0] == kind}


def hand(state, seat: int) -> list[str]:
    return sorted(name_of(state.game, r) for r in data(state)["hands"][seat])


def names(state, zone: str) -> list[str]:
    return [name_of(state.game, r) for r in data(state)[zone]]


def finish_round(state) -> None:
    """Play the rest of the round: any expansion or event, then the first trade and 'done'."""
    start = data(state)["round"]
    while not state.is_terminal() and data(state)["round"] == start:
        acting = state.current_players()
        if len(acting) > 1:  # a plan phase: everyone plays their lowest card
            state.apply_actions({s: state.legal_actions(s)[0] for s in acting})
            continue
        moves = state.legal_actions(acting[0])
        pick = next((m for m in moves if m.kind == "done"), moves[0])
        state.apply_action(pick)
        assert_conserved(state)


# A map where red controls three sectors and blue one (the seed's trade example, T-OZD-1).
RED3_BLUE1 = {(0, 0): "R", (1, 0): "R", (0, 1): "R", (1, -1): "B"}


def trade_example(**kw):
    """Two seats in the trade phase: seat 0 (K39) trades first, then seat 1 (K4)."""
    g = make(2)
    kw.setdefault("market", ["B3", "R11", "W2", "K7", "W5"])
    return scenario(g, RED3_BLUE1, phase="trade", played={0: "K39", 1: "K4"},
                    hands={0: ["R8", "B6"], 1: ["W12", "K10"]}, **kw)


# ------------------------------------------------------------------------------ T-OZD-1
def test_t_ozd_1_give_red_take_blue_scores_the_difference() -> None:
    s = trade_example()
    assert s.current_players() == (0,)
    assert s.view(0)["values"] == {"RED": 3, "WHITE": 0, "BLUE": 1, "BLACK": 0}
    act(s, "trade R8 B3")
    assert data(s)["vp"] == [2, 0]  # value(given) 3 - value(taken) 1 (OZD-16)
    assert names(s, "market") == ["R8", "R11", "W2", "K7", "W5"]  # the given card replaces it
    assert hand(s, 0) == ["B3", "B6"]
    assert data(s)["step"] == "trade_played"  # then the optional played-card trade (OZD-18)
    assert "done" in legal(s)


def test_t_ozd_1_give_blue_take_red_scores_nothing_and_never_loses() -> None:
    s = trade_example(vp=[5, 0])
    act(s, "trade B6 R11")
    assert data(s)["vp"] == [5, 0]  # max(0, 1 - 3): never negative
    act(s, "trade K39 B3")  # black (value 0) for blue (1) with the played card: still 0
    assert data(s)["vp"] == [5, 0]


def test_same_suit_trade_scores_nothing() -> None:  # OZD-21
    s = trade_example(market=["R11", "B3", "W2", "K7", "W5"])
    act(s, "trade R8 R11")
    assert data(s)["vp"] == [0, 0]


def test_a_card_just_given_may_be_taken_back_with_the_played_card() -> None:  # OZD-20
    s = trade_example()
    act(s, "trade R8 B3")
    assert "trade K39 R8" in legal(s)
    act(s, "trade K39 R8")  # black (0) for red (3): +0
    assert data(s)["vp"] == [2, 0] and hand(s, 0) == ["B3", "B6", "R8"]
    assert "K39" in names(s, "market") and data(s)["played"][0] is None


@pytest.mark.parametrize("which", ["hand", "played"])
def test_t_ozd_1_deck_top_trade_scores_nothing_and_is_hidden(which: str) -> None:
    s = trade_example(deck_top=["W15", "B25"])
    market_before = names(s, "market")
    if which == "played":
        act(s, "trade R8 W2")  # the mandatory hand trade first (+3: red 3, white 0)
        assert data(s)["vp"] == [3, 0]
        market_before = names(s, "market")
        act(s, "trade K39 deck")
        assert data(s)["played"][0] is None  # sold: not recovered (OZD-26)
        given, vp = "K39", [3, 0]
    else:
        act(s, "trade R8 deck")
        given, vp = "R8", [0, 0]
    d = data(s)
    assert d["vp"] == vp  # a deck-top trade scores 0 even though red is worth 3 (OZD-19)
    assert names(s, "discard")[-1] == given  # the given card goes to the discard pile
    assert names(s, "market") == market_before and len(d["market"]) == 5  # market unchanged
    assert "W15" in hand(s, 0)  # the deck's top card
    assert s.view(0)["hand"].count("W15") == 1
    for seat in (1, None):  # hidden from every other seat and from spectators (OZD-31)
        assert "W15" not in json.dumps(s.view(seat))
    assert s.view(1)["hand_sizes"] == [len(h) for h in d["hands"]]


def test_deck_top_trade_gains_cards_in_deck_order() -> None:
    s = trade_example(deck_top=["W15", "B25", "K13"])
    act(s, "trade R8 deck")
    act(s, "trade K39 deck")
    assert {"W15", "B25"} <= set(hand(s, 0))
    assert names(s, "discard")[-2:] == ["R8", "K39"]


# ------------------------------------------------------------------------------ T-OZD-2
def end_of_round(market, stacks, game=None, **kw):
    """Two seats; seat 1 (K4) is last to trade and has only the optional trade left, so
    'done' ends the round with ``market`` as the market after all trades."""
    g = game or make(2)
    return scenario(g, stacks, phase="trade", turn=1, step="trade_played",
                    played={0: "K39", 1: "K4"}, market=market,
                    deck_top=["W12", "B16", "K20", "R24", "W28"], **kw)


@pytest.mark.parametrize("destroyed_to", ["supply", "dead"])
def test_t_ozd_2_unique_maximum_destroys_every_top_disk_of_that_colour(destroyed_to: str
                                                                        ) -> None:
    g = make(2, destroyed_to=destroyed_to)
    stacks = {(0, 0): "WR", (1, 0): "R", (0, 1): "RB", (1, -1): "K"}
    s = end_of_round(["R8", "R11", "B3", "W2", "K7"], stacks, game=g)  # 2-1-1-1
    supply_before = list(data(s)["supply"])
    act(s, "done")
    after = stacks_of(s)
    assert after[(0, 0)] == "W"  # the white disk under the red top stays, now on top
    assert after[(1, 0)] == ""
    assert after[(0, 1)] == "RB"  # a red disk under another colour is unharmed
    assert after[(1, -1)] == "K"
    d = data(s)
    if destroyed_to == "supply":  # OZD-23
        assert d["supply"][R] == supply_before[R] + 2 and d["dead"][R] == 0
    else:
        assert d["supply"][R] == supply_before[R] and d["dead"][R] == 2
    assert s.view(None)["values"]["WHITE"] == 1
    # the market is then refreshed from the deck and the old one discarded (Refresh)
    assert names(s, "market") == ["W12", "B16", "K20", "R24", "W28"]
    assert names(s, "discard")[-5:] == ["R8", "R11", "B3", "W2", "K7"]


@pytest.mark.parametrize("market", [
    ["R8", "R11", "B3", "B6", "W2"],  # 2-2-1 (the seed's tie)
    ["K7", "K10", "W2", "W5", "R8"],
    ["R8", "W2", "B3", "K7", "W5"],  # 2-1-1-1 in white: white collapses, not red
])
def test_t_ozd_2_only_a_unique_maximum_collapses(market) -> None:
    stacks = {(0, 0): "WR", (1, 0): "B", (0, 1): "K", (1, -1): "W"}
    s = end_of_round(market, stacks)
    act(s, "done")
    after = stacks_of(s)
    counts = Counter(c[0] for c in market).most_common()
    if counts[0][1] == counts[1][1]:
        assert after == stacks  # a tie for the most: neither is destroyed (OZD-22)
    else:
        assert counts[0][0] == "W"
        assert after == {(0, 0): "WR", (1, 0): "B", (0, 1): "K", (1, -1): ""}


def test_collapse_reads_the_market_after_all_trades() -> None:
    """Red leads the market until the last trade, which makes black the unique leader."""
    stacks = {(0, 0): "R", (1, 0): "B", (0, 1): "K"}
    s = end_of_round(["R8", "R11", "B3", "W2", "K7"], stacks, hands={1: ["B6", "R14"]})
    act(s, "trade K4 R8")  # the played black card for a red one (OZD-17: values read now)
    assert data(s)["phase"] == "plan"
    after = stacks_of(s)
    assert after[(0, 0)] == "R" and after[(1, 0)] == "B"  # red no longer leads
    assert after[(0, 1)] == ""  # K4 K7 R11 B3 W2: black collapses


# ------------------------------------------------------------------------------ T-OZD-3
def test_t_ozd_3_initiative_ascending_raise_descending_trade() -> None:
    g = make(3)
    s = scenario(g, phase="plan", hands={0: ["B22", "W2", "K26"], 1: ["K7", "W5", "R30"],
                                        2: ["W15", "B16", "R33"]})
    s.apply_actions({0: g.parse_action("plan B22", 0), 1: g.parse_action("plan K7", 1),
                     2: g.parse_action("plan W15", 2)})
    assert data(s)["turn_order"] == [1, 2, 0]  # ranks 7, 15, 22
    assert s.view(2)["played"] == ["B22", "K7", "W15"]  # revealed together (OZD-15)
    raised = []
    while data(s)["phase"] == "raise":
        (seat,) = s.current_players()
        raised.append(seat)
        expand = sorted(m for m in legal(s) if m.startswith("expand"))
        act(s, expand[0])
    assert raised == [1, 2, 0]
    traded = []
    while data(s)["phase"] == "trade":
        (seat,) = s.current_players()
        traded.append(seat)
        act(s, sorted(m for m in legal(s) if m.startswith("trade"))[0])
        act(s, "done")
    assert traded == [0, 2, 1]  # ranks 22, 15, 7
    assert data(s)["phase"] == "plan" and data(s)["round"] == 2


# ------------------------------------------------------------------------------ T-OZD-4
@pytest.mark.parametrize("sold", ["kept", "market", "deck"])
def test_t_ozd_4_every_hand_is_back_to_three_after_refresh(sold: str) -> None:
    s = trade_example()
    act(s, "trade R8 W2")
    if sold == "kept":
        act(s, "done")
    else:
        act(s, f"trade K39 {'W5' if sold == 'market' else 'deck'}")
    act(s, "trade W12 B3")
    act(s, "done")  # seat 1 keeps K4: the round ends
    d = data(s)
    assert d["phase"] == "plan" and d["round"] == 2
    assert [len(h) for h in d["hands"]] == [3, 3]
    assert ("K39" in hand(s, 0)) == (sold == "kept")  # recovered unless sold (OZD-26)
    assert "K4" in hand(s, 1)
    assert d["played"] == [None, None]
    assert sorted(m.split()[1] for m in legal(s, 0)) == sorted(hand(s, 0))


# ------------------------------------------------------------------------------ T-OZD-5
def raise_with(card: str, stacks, players: int = 2, game=None, **kw):
    """Seat 0 raises first with ``card``; seat 1 has played K39 (raises after)."""
    g = game or make(players)
    played = {0: card, 1: "K39" if card != "K39" else "R40"}
    return scenario(g, stacks, played=played, **kw)


def test_t_ozd_5_white_absent_may_go_anywhere_even_on_other_colours() -> None:
    s = raise_with("W21", {(0, 0): "", (1, 0): "R", (0, 1): "BK"})
    assert of_kind(legal(s), "expand") == {"expand 0,0", "expand 1,0", "expand 0,1"}
    act(s, "expand 0,1")
    assert stacks_of(s)[(0, 1)] == "BKW"  # on top: white takes control (OZD-9)
    v = s.view(None)["values"]
    assert v["WHITE"] == 1 and v["BLACK"] == 0 and v["RED"] == 1
    assert data(s)["supply"][W] == 5


def test_t_ozd_5_white_present_only_next_to_white_and_never_on_white() -> None:
    stacks = {(0, 0): "W", (1, 0): "R", (0, 1): "", (2, 0): "B", (2, -1): "KW", (3, 0): ""}
    s = raise_with("W21", stacks)
    # (1,0) and (0,1) touch (0,0); (1,0) and (2,0) touch (2,-1); (3,0) touches no white;
    # (0,0) and (2,-1) already hold white (OZD-8)
    assert of_kind(legal(s), "expand") == {"expand 1,0", "expand 0,1", "expand 2,0"}
    with pytest.raises(IllegalActionError):
        act(s, "expand 3,0")
    with pytest.raises(IllegalActionError):
        act(s, "expand 0,0")


def test_adjacency_counts_buried_disks_by_default_and_only_tops_under_top_only() -> None:
    stacks = {(0, 0): "WR", (1, 0): "", (2, 0): "", (3, 0): "W"}
    any_depth = raise_with("W21", stacks)
    assert of_kind(legal(any_depth), "expand") == {"expand 1,0", "expand 2,0"}
    top_only = raise_with("W21", stacks, game=make(2, adjacency="top_only"))
    assert of_kind(legal(top_only), "expand") == {"expand 2,0"}  # (0,0)'s white is buried
    with pytest.raises(IllegalActionError):
        act(top_only, "expand 1,0")


def test_allow_self_stack_lets_a_colour_stack_on_itself() -> None:
    stacks = {(0, 0): "W", (1, 0): "WR", (0, 1): ""}
    s = raise_with("W21", stacks)
    assert of_kind(legal(s), "expand") == {"expand 0,1"}
    s = raise_with("W21", stacks, game=make(2, allow_self_stack=True))
    assert of_kind(legal(s), "expand") == {"expand 0,0", "expand 1,0", "expand 0,1"}
    act(s, "expand 1,0")
    assert stacks_of(s)[(1, 0)] == "WRW"


@pytest.mark.parametrize("white", [True, False])
def test_explore_on_expand_offers_frontier_spots(white: bool) -> None:
    stacks = {(0, 0): "W" if white else "", (1, 0): "", (0, 1): ""}
    plain = raise_with("W21", stacks)
    assert all(h in ("0,0", "1,0", "0,1") for h in
               (m.split()[1] for m in of_kind(legal(plain), "expand")))
    s = raise_with("W21", stacks, game=make(2, "explore"))
    frontier = set().union(*(neighbours(h) for h in stacks)) - set(stacks)
    if white:  # only frontier spots next to white
        frontier = {h for h in frontier if h in neighbours((0, 0))}
        assert frontier == {(1, -1), (0, -1), (-1, 0), (-1, 1)}
    expected = {f"expand {q},{r}" for q, r in frontier}
    expected |= {"expand 1,0", "expand 0,1"} if white else {
        "expand 0,0", "expand 1,0", "expand 0,1"}
    assert of_kind(legal(s), "expand") == expected
    act(s, "expand -1,1")
    assert stacks_of(s)[(-1, 1)] == "W"
    assert data(s)["sectors_left"] == 12 - 4
    # with every sector already out, no spot is offered
    full = raise_with("W21", stacks, game=make(2, "explore", sectors=3))
    assert of_kind(legal(full), "expand") == of_kind(legal(plain), "expand")


# ------------------------------------------------------------------------------ events
def test_reference_deck_events_are_the_documented_ones() -> None:
    g = make(2)
    assert {name_of(g, c.rank): c.event for c in g.cards} == EVENT_OF


def test_e1_explore_attaches_a_sector_anywhere_on_the_frontier() -> None:
    stacks = {(0, 0): "R", (1, 0): "", (0, 1): ""}
    s = raise_with("R1", stacks)
    frontier = set().union(*(neighbours(h) for h in stacks)) - set(stacks)
    assert of_kind(legal(s), "explore") == {f"explore {q},{r}" for q, r in frontier}
    assert "explore 2,0" in legal(s)  # not next to red: adjacency is ignored
    act(s, "explore 2,0")
    assert stacks_of(s)[(2, 0)] == "R"
    d = data(s)
    assert d["sectors_left"] == 12 - 4 and d["supply"][R] == 4
    assert s.current_players() == (1,)
    # no sector left, or no red disk left: not offered
    assert not of_kind(legal(raise_with("R1", stacks, game=make(2, sectors=3))), "explore")
    assert not of_kind(legal(raise_with("R1", stacks, game=make(2, disks_per_colour=1))),
                       "explore")


@pytest.mark.parametrize("destroyed_to", ["supply", "dead"])
def test_e2_raze_destroys_one_top_disk(destroyed_to: str) -> None:
    g = make(2, destroyed_to=destroyed_to)
    s = raise_with("K4", {(0, 0): "WR", (1, 0): "B", (0, 1): ""}, game=g)
    assert of_kind(legal(s), "raze") == {"raze 0,0", "raze 1,0"}  # never an empty sector
    act(s, "raze 0,0")
    assert stacks_of(s)[(0, 0)] == "W"
    d = data(s)
    if destroyed_to == "supply":
        assert d["supply"][R] == 6 and d["dead"][R] == 0
    else:
        assert d["supply"][R] == 5 and d["dead"][R] == 1
    empty = raise_with("K4", {h: "" for h in TRIANGLE})
    assert not of_kind(legal(empty), "raze") and "pass" not in legal(empty)


def test_e3_march_moves_a_top_disk_to_a_neighbour_without_its_colour() -> None:
    stacks = {(0, 0): "WK", (1, 0): "R", (0, 1): "KB", (1, -1): ""}
    s = raise_with("K7", stacks)
    # (0,1) holds black (buried): not a destination, and not a source either
    assert of_kind(legal(s), "march") == {"march 0,0 1,0", "march 0,0 1,-1"}
    act(s, "march 0,0 1,0")
    after = stacks_of(s)
    assert after[(0, 0)] == "W" and after[(1, 0)] == "RK"
    assert data(s)["supply"][K] == 6 - 2
    buried = raise_with("K7", {(0, 0): "KW", (1, 0): "", (0, 1): ""})
    assert not of_kind(legal(buried), "march")


def test_e4_coup_swaps_the_top_two_disks() -> None:
    s = raise_with("K10", {(0, 0): "BWR", (1, 0): "B", (0, 1): ""})
    assert of_kind(legal(s), "coup") == {"coup 0,0"}
    act(s, "coup 0,0")
    assert stacks_of(s)[(0, 0)] == "BRW"
    assert s.view(None)["values"]["WHITE"] == 1 and s.view(None)["values"]["RED"] == 0
    flat = raise_with("K10", {(0, 0): "R", (1, 0): "B", (0, 1): "W"})
    assert not of_kind(legal(flat), "coup")


def test_e5_surge_places_up_to_two_disks() -> None:
    stacks = {(0, 0): "B", (1, 0): "", (0, 1): "R", (2, 0): ""}
    s = raise_with("B3", stacks)
    first = of_kind(legal(s), "surge")
    near = {(1, -1), (0, -1), (-1, 0), (-1, 1)}  # frontier spots next to blue (explore=1)
    assert first == {"surge 1,0", "surge 0,1"} | {f"surge {q},{r}" for q, r in near}
    act(s, "surge 1,0")
    assert data(s)["step"] == "surge" and s.current_players() == (0,)
    second = legal(s)
    assert "done" in second and "surge 2,0" in second  # now next to blue at (1,0)
    assert "expand 2,0" not in second and "pass" not in second
    act(s, "surge 2,0")
    assert stacks_of(s)[(2, 0)] == "B" and stacks_of(s)[(1, 0)] == "B"
    assert data(s)["supply"][B] == 3
    assert s.current_players() == (1,) and data(s)["step"] == "main"  # two and no more


def test_e5_surge_may_stop_after_one_and_stops_when_the_supply_is_out() -> None:
    stacks = {(0, 0): "B", (1, 0): "", (0, 1): "R", (2, 0): ""}
    s = raise_with("B3", stacks)
    act(s, "surge 1,0")
    act(s, "done")
    assert s.current_players() == (1,) and data(s)["supply"][B] == 4
    short = raise_with("B3", stacks, game=make(2, disks_per_colour=2))
    act(short, "surge 1,0")  # the last blue disk: the Surge ends
    assert short.current_players() == (1,) and data(short)["supply"][B] == 0
    empty = raise_with("B3", stacks, game=make(2, disks_per_colour=1))
    assert not of_kind(legal(empty), "surge")


def test_e6_diaspora_ignores_adjacency_but_not_its_own_colour() -> None:
    stacks = {(0, 0): "B", (1, 0): "", (0, 1): "R", (2, 0): ""}
    s = raise_with("B6", stacks)
    frontier = set().union(*(neighbours(h) for h in stacks)) - set(stacks)
    assert of_kind(legal(s), "diaspora") == {"diaspora 1,0", "diaspora 0,1", "diaspora 2,0"} | {
        f"diaspora {q},{r}" for q, r in frontier}
    assert "expand 2,0" not in legal(s)  # an expansion could not go there
    act(s, "diaspora 2,0")
    assert stacks_of(s)[(2, 0)] == "B" and data(s)["supply"][B] == 4
    none_left = raise_with("B6", stacks, game=make(2, disks_per_colour=1))
    assert not of_kind(legal(none_left), "diaspora")


def test_e7_tribute_gains_value_minus_one() -> None:
    stacks = {(0, 0): "B", (1, 0): "RB", (0, 1): "B", (1, -1): "BR"}
    s = raise_with("B9", stacks, vp=[4, 0])
    assert "tribute" in legal(s)
    act(s, "tribute")
    assert data(s)["vp"] == [4 + 3 - 1, 0]
    assert stacks_of(s) == stacks  # nothing else changes
    one = raise_with("B9", {(0, 0): "B", (1, 0): "", (0, 1): ""})
    assert "tribute" not in legal(one)  # 1 - 1 = 0 cannot change the state


def test_e8_bazaar_swaps_with_the_market_and_scores_nothing() -> None:
    s = raise_with("W2", RED3_BLUE1, hands={0: ["R8", "B6"]},
                   market=["K7", "W5", "B3", "K10", "R11"])
    assert of_kind(legal(s), "bazaar") == {f"bazaar {h} {m}" for h in ("R8", "B6")
                                           for m in ("K7", "W5", "B3", "K10", "R11")}
    act(s, "bazaar R8 K7")  # a trade would score 3 - 0 here
    assert data(s)["vp"] == [0, 0]
    assert hand(s, 0) == ["B6", "K7"]
    assert names(s, "market") == ["R8", "W5", "B3", "K10", "R11"]
    with pytest.raises(ActionParseError):
        s.game.parse_action("bazaar R8 deck", 0)


def test_e9_augury_shows_the_looker_only_and_puts_the_cards_back_top_first() -> None:
    s = raise_with("W5", {h: "" for h in TRIANGLE}, deck_top=["B3", "K4", "R8", "W12"])
    assert "augury" in legal(s)
    act(s, "augury")
    assert data(s)["step"] == "augury" and s.current_players() == (0,)
    assert s.view(0)["augury"] == ["B3", "K4", "R8"]
    for seat in (1, None):
        view = s.view(seat)
        assert "augury" not in view
        assert not {"B3", "K4", "R8"} & set(json.dumps(view).replace('"', " ").split())
    assert legal(s) == {f"order {a} {b} {c}" for a, b, c in (
        ("B3", "K4", "R8"), ("B3", "R8", "K4"), ("K4", "B3", "R8"), ("K4", "R8", "B3"),
        ("R8", "B3", "K4"), ("R8", "K4", "B3"))}
    act(s, "order R8 B3 K4")
    assert "augury" not in s.view(0)
    assert names(s, "deck")[-4:] == ["W12", "K4", "B3", "R8"]  # R8 now on top
    act(s, sorted(of_kind(legal(s), "expand"))[0])  # seat 1 raises
    # the next draws come in the chosen order: seat 1 (K39) trades first
    act(s, f"trade {hand(s, 1)[0]} deck")
    act(s, "trade K39 deck")
    act(s, f"trade {hand(s, 0)[0]} deck")
    assert {"R8", "B3"} <= set(hand(s, 1)) and "K4" in hand(s, 0)


def test_e9_augury_needs_a_deck() -> None:
    s = raise_with("W5", {h: "" for h in TRIANGLE}, rest_to="discard")
    assert data(s)["deck"] == []
    assert "augury" not in legal(s)


def test_e10_embargo_moves_a_market_card_to_the_discard_pile() -> None:
    g = make(2, market_size=1)
    s = scenario(g, played={0: "W12", 1: "K36"}, market=["B3"])  # two Embargoes
    assert of_kind(legal(s), "embargo") == {"embargo B3"}
    act(s, "embargo B3")
    assert data(s)["market"] == [] and names(s, "discard")[-1] == "B3"
    assert not of_kind(legal(s), "embargo")  # nothing left to embargo
    act(s, sorted(of_kind(legal(s), "expand"))[0])
    # trading goes on with the deck top only
    assert all(m.endswith(" deck") for m in legal(s))


def test_embargo_leaves_the_market_short_until_the_refresh() -> None:
    s = raise_with("W12", {h: "" for h in TRIANGLE}, market=["B3", "R8", "W2", "K7", "W5"])
    act(s, "embargo W5")
    assert names(s, "market") == ["B3", "R8", "W2", "K7"]
    finish_round(s)
    assert len(data(s)["market"]) == 5


def test_forced_pass_only_when_nothing_else_is_legal() -> None:
    g = make(2, disks_per_colour=1)
    stacks = {(0, 0): "BR", (1, 0): "", (0, 1): ""}  # no blue disk left; blue worth 0
    s = raise_with("B9", stacks, game=g)
    assert legal(s) == {"pass"}
    act(s, "pass")
    assert s.current_players() == (1,) and stacks_of(s) == stacks
    normal = raise_with("B9", stacks)
    assert "pass" not in legal(normal) and of_kind(legal(normal), "expand")


# ------------------------------------------------------------------------------ variants
def test_take_from_map_moves_a_top_disk_when_the_supply_is_empty() -> None:
    stacks = {(0, 0): "W", (1, 0): "R", (0, 1): "", (2, -1): "KW"}
    g = make(2, "v2015", disks_per_colour=2)
    s = raise_with("W21", stacks, game=g)
    assert data(s)["supply"][W] == 0
    assert of_kind(legal(s), "expand") == {"expand 1,0 from 0,0", "expand 1,0 from 2,-1",
                                           "expand 0,1 from 0,0", "expand 0,1 from 2,-1"}
    act(s, "expand 0,1 from 2,-1")
    after = stacks_of(s)
    assert after[(2, -1)] == "K" and after[(0, 1)] == "W"
    assert data(s)["supply"][W] == 0 and data(s)["dead"][W] == 0
    seed = raise_with("W21", stacks, game=make(2, disks_per_colour=2))
    assert not of_kind(legal(seed), "expand")  # OZD-3: an empty supply forbids expanding


def test_deck_exhaustion_reshuffles_the_discard_pile_for_a_deck_top_trade() -> None:
    s = trade_example(rest_to="discard")
    before = data(s)
    assert before["deck"] == [] and len(before["discard"]) > 5
    assert "trade R8 deck" in legal(s)
    act(s, "trade R8 deck")
    d = data(s)
    gained = (set(d["hands"][0]) - set(before["hands"][0])).pop()
    assert gained in before["discard"]
    assert d["discard"] == [rank("R8")]  # the old pile became the deck
    assert sorted(d["deck"]) == sorted(set(before["discard"]) - {gained})
    assert any("shuffled" in e[2] for e in d["events"])


def test_deck_exhaustion_reshuffles_at_the_market_refresh() -> None:
    s = scenario(make(2), {h: "" for h in TRIANGLE}, phase="trade", turn=1,
                 step="trade_played", played={0: "K39", 1: "K4"},
                 market=["R8", "R11", "B3", "B6", "W2"], deck_top=["W12", "B16"],
                 rest_to="discard")
    act(s, "done")
    d = data(s)
    assert len(d["market"]) == 5  # two from the deck, three from the reshuffled pile
    assert names(s, "market")[:2] == ["W12", "B16"]
    assert any("shuffled" in e[2] for e in d["events"])


def test_no_deck_and_no_discard_means_no_deck_top_trade() -> None:
    g = make(2, hand_size=10, market_size=20)  # 2 x 10 + 20 = all 40 cards
    s = g.new_initial_state(3)
    assert data(s)["deck"] == []
    s.apply_actions({seat: s.legal_actions(seat)[0] for seat in (0, 1)})
    while data(s)["phase"] == "raise":  # anything but an Embargo (it would feed the pile)
        act(s, next(m for m in sorted(legal(s)) if not m.startswith("embargo")))
    assert data(s)["discard"] == []
    assert data(s)["phase"] == "trade"
    assert not any(m.endswith(" deck") for m in legal(s))


# ------------------------------------------------------------------------------ the end
def test_target_vp_ends_the_game_at_the_end_of_the_round_not_mid_round() -> None:
    s = trade_example(vp=[20, 0])
    act(s, "trade R8 B3")
    assert data(s)["vp"] == [22, 0]
    assert not s.is_terminal()
    act(s, "done")
    assert s.current_players() == (1,)  # seat 1 still trades
    act(s, "trade W12 R11")
    act(s, "done")
    assert s.is_terminal() and data(s)["phase"] == "over"
    assert s.winners() == (0,) and s.returns() == (1.0, 0.0)
    assert not s.is_truncated() and s.length() == 1
    assert len(data(s)["market"]) == 5  # the round finished: collapse and refresh ran


def test_tribute_reaching_the_target_mid_raise_does_not_end_the_raise() -> None:
    stacks = {(0, 0): "B", (1, 0): "B", (0, 1): "B"}
    s = raise_with("B9", stacks, vp=[20, 0])
    act(s, "tribute")
    assert data(s)["vp"] == [22, 0] and not s.is_terminal()
    assert s.current_players() == (1,) and data(s)["phase"] == "raise"
    finish_round(s)
    assert s.is_terminal() and s.winners() == (0,)


def test_thirty_round_cap_is_truncated_and_most_vp_wins() -> None:
    g = make(3, target_vp=1000)
    for seed in range(3):
        s = g.new_initial_state(seed)
        s.playout(random.Random(seed))
        d = data(s)
        assert s.is_terminal() and d["round"] == 30 and s.length() == 30
        assert s.is_truncated()
        best = max(d["vp"])
        assert set(s.winners()) == {i for i, v in enumerate(d["vp"]) if v == best}


def test_end_rounds_is_not_truncated() -> None:
    g = make(2, end="rounds", max_rounds=3)
    s = g.new_initial_state(5)
    finish_round(s)
    assert not s.is_terminal() and data(s)["round"] == 2
    finish_round(s)
    finish_round(s)
    assert s.is_terminal() and s.length() == 3 and not s.is_truncated()


def test_end_colour_dead_needs_a_dead_pile() -> None:
    with pytest.raises(ParameterError, match="needs destroyed_to=dead"):
        make(2, end="colour_dead")


@pytest.mark.parametrize("dead_before, ends", [(5, True), (4, False)])
def test_end_colour_dead(dead_before: int, ends: bool) -> None:
    g = make(2, "v2015")  # end=colour_dead with destroyed_to=dead
    stacks = {(0, 0): "W", (1, 0): "R", (0, 1): ""}
    dead = [0, dead_before, 0, 0]
    s = end_of_round(["W2", "W5", "R8", "B3", "K7"], stacks, game=g, dead=dead,
                     vp=[3, 7])
    act(s, "done")  # white collapses: its last disk on the map dies
    d = data(s)
    assert d["dead"][W] == dead_before + 1
    assert s.is_terminal() == ends
    if ends:
        assert s.winners() == (1,) and not s.is_truncated()


def tie_at_the_end(sell: bool, variant: str | None):
    s = end_of_round(["R8", "R11", "B3", "B6", "W2"], {h: "" for h in TRIANGLE},
                     game=make(2, variant), vp=[21, 21])
    act(s, "trade K4 W2" if sell else "done")  # black (0) for white (0): +0 either way
    assert data(s)["vp"] == [21, 21] and s.is_terminal()
    return s


def test_tiebreak_shared_by_default() -> None:
    s = tie_at_the_end(False, None)
    assert s.winners() == (0, 1) and s.returns() == (0.5, 0.5)


def test_tiebreak_lowest_rank_played_last_round() -> None:
    s = tie_at_the_end(False, "2017tie")
    assert s.winners() == (1,)  # seat 1 played K4, seat 0 K39 (OZD-28)
    assert s.returns() == (0.0, 1.0)


def test_tiebreak_lowest_rank_counts_a_played_card_that_was_sold() -> None:
    """Seat 1 played K4 and then traded it away: it still played the lowest rank."""
    s = tie_at_the_end(True, "2017tie")
    assert s.winners() == (1,)


def test_end_deck_out_can_end_a_game_before_the_cap() -> None:
    """end=deck_out ("the deck cannot refill the market", OZD-27 c): with 40 cards and at
    least 5 drawn a round, the deck runs out within a few rounds, so some game must end by
    it rather than by the 30-round cap."""
    g = make(2, end="deck_out")
    ended = []
    for seed in range(6):
        s = g.new_initial_state(seed)
        s.playout(random.Random(seed))
        ended.append(not s.is_truncated())
    assert any(ended)


# ------------------------------------------------------------------------------ hidden plans
def test_plans_are_hidden_until_everyone_has_submitted() -> None:
    g = make(3)
    base = g.new_initial_state(11)
    seen = []
    for move in base.legal_actions(0):
        s = base.clone()
        s.apply_action(move, 0)
        assert s.current_players() == (1, 2)
        assert s.view(0)["my_submission"] == str(move)
        seen.append(json.dumps([s.view(1), s.view(2), s.view(None)], sort_keys=True))
        assert data(s)["played"] == [None, None, None]
    assert len(seen) == 3 and len(set(seen)) == 1  # other views identical whatever it was
    s = base.clone()
    s.apply_action(base.legal_actions(0)[0], 0)
    s.apply_action(s.legal_actions(1)[2], 1)
    s.apply_action(s.legal_actions(2)[1], 2)
    played = data(s)["played"]
    assert None not in played and s.view(1)["played"] == [name_of(g, r) for r in played]
    assert data(s)["turn_order"] == sorted(range(3), key=lambda i: played[i])
    with pytest.raises(IllegalActionError):  # a pending plan cannot be changed
        t = base.clone()
        t.apply_action(base.legal_actions(0)[0], 0)
        t.apply_action(base.legal_actions(0)[1], 0)


@pytest.mark.parametrize("seed", range(4))
def test_raise_and_trade_follow_the_revealed_ranks(seed: int) -> None:
    g = make(4)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    s.apply_actions({p: rng.choice(s.legal_actions(p)) for p in range(4)})
    played = data(s)["played"]
    seen: dict[str, list[int]] = {"raise": [], "trade": []}
    while data(s)["phase"] in ("raise", "trade"):
        d = data(s)
        (seat,) = s.current_players()
        if d["step"] in ("main", "trade_hand"):
            seen[d["phase"]].append(seat)
        s.apply_action(rng.choice(s.legal_actions(seat)))
    assert seen["raise"] == sorted(range(4), key=lambda i: played[i])
    assert seen["trade"] == sorted(range(4), key=lambda i: -played[i])


# ------------------------------------------------------------------------------ notation
CANONICAL = ["plan R17", "expand 1,-1", "expand 1,-1 from 0,0", "raze 1,0", "march 0,0 1,0",
             "coup 1,0", "surge 1,0", "diaspora -1,2", "explore 2,-1", "tribute",
             "bazaar R17 B3", "augury", "order B3 R17 K4", "embargo B3", "pass",
             "trade R17 B3", "trade R17 deck", "done"]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    g = make(2)
    order = g.parse_action(text, 1)
    assert str(order) == text and order.seat == 1
    assert g.parse_action(str(order), 1) == order


@pytest.mark.parametrize("text, canonical", [
    ("PLAN r17", "plan R17"), ("plan 17", "plan R17"), ("trade 17 DECK", "trade R17 deck"),
    ("  expand   1,-1  ", "expand 1,-1"), ("Order 3 17 4", "order B3 R17 K4"),
    ("expand 1, -1 from 0 , 0", "expand 1,-1 from 0,0"),  # spaces around a sector's comma
])
def test_lenient_input_reads_to_the_canonical_text(text: str, canonical) -> None:
    g = make(2)
    assert str(g.parse_action(text, 0)) == canonical


@pytest.mark.parametrize("text", [
    "", "   ", "fly 1,0", "plan", "plan W17", "plan R99", "plan X1", "plan R0", "expand",
    "expand 1", "expand a,b", "expand 1,0 to 0,0", "expand 1,0,0", "march 0,0",
    "trade R17", "bazaar R17 deck", "order", "tribute now", "pass 1,0", "done done",
    "coup 1.5,0", "embargo deck",
])
def test_parse_errors(text: str) -> None:
    with pytest.raises(ActionParseError):
        make(2).parse_action(text, 0)


def test_parse_refuses_a_seat_outside_the_game() -> None:
    with pytest.raises(ActionParseError):
        make(2).parse_action("pass", 2)


def test_illegal_action_is_refused_and_leaves_the_state_unchanged() -> None:
    s = trade_example()
    digest = s.digest()
    for text in ("trade R8 B25", "trade K39 B3", "expand 0,0", "done"):
        with pytest.raises(IllegalActionError):
            act(s, text)
    with pytest.raises(IllegalActionError):
        act(s, "trade W12 B3", 1)  # not seat 1's turn
    assert s.digest() == digest


def test_to_json_is_a_snapshot_not_a_live_alias() -> None:
    """``to_json`` is documented as the state's data; editing it (the way scenarios are
    built) or playing on must not change the other."""
    s = make(2).new_initial_state(0)
    d = s.to_json()
    hand_before = list(d["data"]["hands"][0])
    d["data"]["vp"][0] = 99
    d["data"]["hands"][0].clear()
    assert s.scores() == (0.0, 0.0)
    assert len(s.view(0)["hand"]) == 3
    t = make(2).new_initial_state(0)
    snap = t.to_json()
    t.apply_actions({seat: t.legal_actions(seat)[0] for seat in (0, 1)})
    assert snap["data"]["hands"][0] == hand_before and snap["data"]["phase"] == "plan"


def test_json_round_trip_mid_augury() -> None:
    s = raise_with("W5", {h: "" for h in TRIANGLE}, deck_top=["B3", "K4", "R8"])
    act(s, "augury")
    again = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.digest() == s.digest()
    assert legal(again) == legal(s)


# ------------------------------------------------------------------------------ content
def _write_deck(tmp_path: Path, edit) -> str:
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    edit(raw["cards"])
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return str(path)


def _card(cards, r: int) -> dict:
    return next(c for c in cards if c["rank"] == r)


@pytest.mark.parametrize("edit, named", [
    (lambda cs: _card(cs, 17).update(event="TELEPORT"), "card R17"),
    (lambda cs: _card(cs, 17).update(params={"times": -1}), "card R17"),
    (lambda cs: _card(cs, 17).update(params={"depth": 2}), "card R17"),
    (lambda cs: _card(cs, 18).update(rank=17), "card W17"),
    (lambda cs: _card(cs, 5).update(colour="WHITE"), "card W5"),
])
def test_broken_cards_file_raises_cards_error_naming_the_card(tmp_path: Path, edit,
                                                                named: str) -> None:
    path = _write_deck(tmp_path, edit)
    with pytest.raises(CardsError) as info:
        load_game(GAME, players=2, cards=path)
    assert named in str(info.value)


def test_a_deck_too_small_for_the_table_is_refused(tmp_path: Path) -> None:
    path = _write_deck(tmp_path, lambda cs: cs.__delitem__(slice(12, None)))
    assert len(json.loads(Path(path).read_text())["cards"]) == 12
    load_game(GAME, players=2, cards=path)  # 2 x 3 + 5 = 11 cards: enough
    with pytest.raises(ParameterError):
        load_game(GAME, players=3, cards=path)  # 3 x 3 + 5 = 14


def test_event_parameters_from_the_card_file(tmp_path: Path) -> None:
    def edit(cards):
        _card(cards, 3).update(params={"times": 1})  # B3: Surge once, no new sectors
        _card(cards, 3)["params"]["explore"] = 0
        _card(cards, 5).update(params={"depth": 2})  # W5: Augury of two cards
        _card(cards, 9).update(params={"minus": 0})  # B9: Tribute of the full value

    g = load_game(GAME, players=2, cards=_write_deck(tmp_path, edit))
    stacks = {(0, 0): "B", (1, 0): "", (0, 1): "R"}
    s = raise_with("B3", stacks, game=g)
    assert of_kind(legal(s), "surge") == {"surge 1,0", "surge 0,1"}  # no frontier spots
    act(s, "surge 1,0")
    assert s.current_players() == (1,)  # one expansion only
    s = raise_with("W5", stacks, game=g, deck_top=["B6", "K7", "R8"])
    act(s, "augury")
    assert s.view(0)["augury"] == ["B6", "K7"]
    s = raise_with("B9", stacks, game=g, vp=[1, 0])
    act(s, "tribute")
    assert data(s)["vp"] == [2, 0]


def test_zero_parameter_events_are_not_offered(tmp_path: Path) -> None:
    """A Surge of 0 expansions or an Augury of 0 cards cannot change the state (OZD-14), so
    neither is offered; today both are, and the Augury's follow-up 'order' (no cards) is a
    legal action whose text does not parse back."""
    def edit(cards):
        _card(cards, 3).update(params={"times": 0})
        _card(cards, 5).update(params={"depth": 0})

    g = load_game(GAME, players=2, cards=_write_deck(tmp_path, edit))
    stacks = {(0, 0): "B", (1, 0): "", (0, 1): "R"}
    surge = raise_with("B3", stacks, game=g)
    augury = raise_with("W5", stacks, game=g)
    problems = []
    if of_kind(legal(surge), "surge"):
        problems.append("a Surge of 0 is offered")
    if "augury" in legal(augury):
        problems.append("an Augury of 0 is offered")
        act(augury, "augury")
        for move in augury.legal_actions(0):
            try:
                assert g.parse_action(str(move), 0) == move
            except ActionParseError:
                problems.append(f"the legal action {str(move)!r} does not parse back")
    assert not problems
