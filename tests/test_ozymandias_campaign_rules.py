"""Ozymandias (campaign edition): the rule document's scenarios (T-OZW-1..8) and the decisions
OZW-n, the variants' switches, hidden information and the action notation.

Scenario ids T-OZW-n and decision ids OZW-n refer to /work/shared/notes/rules-questions.md
section 4 (seed: seeds/ozymandias-campaign.md). Scenarios are built by setting the fields of a
fresh state (cards are moved between zones, never invented; workers not placed stay in the bag)
and reading the result back through ``game.state_from_json``, so every scenario is a state the
engine can save; moves are typed in the canonical notation and applied through the public API,
so legality is always the engine's own.

The reference tile used for the map scenarios, GOLD-1 (suit GOLD), is a ring
i1-i2-i3-i4-i5-i6-i1 with colonies c1 (on i1) and c2 (on i4), hazards h1 (on i3) and h2 (on
i6); its open ports leave from i2 (a), c1 (b), i4 (c), i5 (d) and h2 (e).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from meeple import load_game
from meeple.engine.errors import (
    ActionParseError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from meeple.games.ozymandias_campaign.board import SectorMap
from meeple.games.ozymandias_campaign.scoring import (
    attacker_wins,
    collapse_points,
    level_points,
    war_strength,
)

GAME = "ozymandias-campaign"
G, R, B = range(3)  # suit indexes (OZW-1)
SUIT_OF = {"G": G, "R": R, "B": B}
CUBE_OF = "GRB"
#: Tableau row fields (moves.py): card, cubes G/R/B, tapped, laid, harvest.
CARD, TAPPED, LAID, HARVEST = 0, 4, 5, 6


# ------------------------------------------------------------------------------ helpers
def make(players: int = 2, variant: str | None = None, **params: Any):
    return load_game(GAME, variant=variant, players=players, **params)


class Pool:
    """The game's cards, handed out once each by name (``"G5"``: a GOLD rank-5 copy)."""

    def __init__(self, game) -> None:
        self.free = list(range(len(game.cards)))
        self.by_name = {}
        for i, c in enumerate(game.cards):
            self.by_name.setdefault(f"{CUBE_OF[c.suit]}{c.rank}", []).append(i)

    def take(self, name: str) -> int:
        for i in self.by_name[name]:
            if i in self.free:
                self.free.remove(i)
                return i
        raise AssertionError(f"no copy of {name} left")

    def any(self) -> int:
        return self.free.pop(0)


def cubes(text: str) -> list[int]:
    """``"GGR"`` -> [2, 1, 0]."""
    return [text.count(c) for c in CUBE_OF]


def row(pool: Pool, name: str, cube_text: str = "", tapped: int = 0, laid: int = 0,
        harvest: int = 0) -> list[int]:
    return [pool.take(name), *cubes(cube_text), tapped, laid, harvest]


def scenario(game, *, active: int = 0, step: str = "mode", tile: str = "GOLD-1",
             next_tile: str | None = None, empty_tile_deck: bool = False,
             hands: Mapping[int, Sequence[str]] | None = None,
             tableaus: Mapping[int, Sequence[tuple]] | None = None,
             incoming: Mapping[int, str] | None = None,
             unrest: Mapping[int, int] | None = None, vp: Mapping[int, int] | None = None,
             standing: Mapping[str, int] | None = None,
             stacks: Mapping[str, Sequence[int]] | None = None,
             supply: Mapping[int, int] | None = None,
             deck_top: Sequence[str] = (), deck: str = "rest", seed: int = 0, **fields: Any):
    """A state of ``game`` with the map a single ``tile`` (points named without the tile:
    ``standing={"i1": 1}``, ``stacks={"c1": [1, 0]}``, bottom to top).

    ``hands`` {seat: ["G5", ...]} (other seats get filler cards up to the hand size);
    ``tableaus`` {seat: [("G5", "GGR", tapped, laid, harvest), ...]} left to right;
    ``incoming`` {seat: "GR"} (default: nothing incoming); ``supply`` {seat: workers}
    (default 3); every worker not placed is in the bag. Every other card is in the deck
    (``deck_top`` drawn first), or with ``deck="discard"`` in the discard pile. ``fields``
    set any other state field (``trigger``, ``turns``...).
    """
    n, p = game.players, game.params
    state = game.new_initial_state(seed)
    pool = Pool(game)
    index = {t.id: i for i, t in enumerate(game.tiles)}
    state.map = SectorMap.opening([game.tiles[index[tile]]])
    rest = [i for i in range(len(game.tiles)) if i != index[tile]]
    if next_tile is not None:
        rest.remove(index[next_tile])
        rest.append(index[next_tile])  # the top of the tile deck is the last
    state.tile_deck = [] if empty_tile_deck else rest
    name = f"{tile}:"
    state.tableaus = [[row(pool, *r) for r in (tableaus or {}).get(s, ())] for s in range(n)]
    state.hands = [[pool.take(c) for c in (hands or {}).get(s, ())] for s in range(n)]
    top = [pool.take(c) for c in deck_top]
    for s in range(n):
        if s not in (hands or {}):
            state.hands[s] = [pool.any() for _ in range(p["hand_size"])]
    leftover = pool.free
    state.deck = leftover + top[::-1] if deck == "rest" else top[::-1]
    state.discard = [] if deck == "rest" else leftover
    state.incoming = [cubes((incoming or {}).get(s, "")) for s in range(n)]
    state.unrest = [(unrest or {}).get(s, 0) for s in range(n)]
    state.vp = [(vp or {}).get(s, 0) for s in range(n)]
    state.standing = {name + q: s for q, s in (standing or {}).items()}
    state.stacks = {name + q: list(st) for q, st in (stacks or {}).items()}
    state.supply = [(supply or {}).get(s, p["start_workers"]) for s in range(n)]
    state.bag = []
    for s in range(n):
        placed = (state.supply[s] + list(state.standing.values()).count(s)
                  + sum(st.count(s) for st in state.stacks.values())
                  + sum(r[LAID] + r[HARVEST] for r in state.tableaus[s]))
        assert placed <= p["workers"], f"seat {s} has more than {p['workers']} workers"
        state.bag.append(p["workers"] - placed)
    state.cubes_in = [sum(i[k] for i in state.incoming)
                      + sum(r[1 + k] for t in state.tableaus for r in t) for k in range(3)]
    state.cubes_out = [0, 0, 0]
    state.active, state.step = active, step
    for key, value in fields.items():
        setattr(state, key, value)
    state.events = []
    state._refresh_acting()
    state._legal = None
    # read back through the saved form: the scenario is a state the engine can hold
    out = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert_conserved(out)
    return out


def assert_conserved(state) -> None:
    """Workers, cubes and cards are all accounted for (Components; OZW-39)."""
    game = state.game
    n, p = game.players, game.params
    for s in range(n):
        laid = sum(r[LAID] + r[HARVEST] for r in state.tableaus[s])
        total = (state.bag[s] + state.supply[s] + list(state.standing.values()).count(s)
                 + sum(st.count(s) for st in state.stacks.values()) + laid)
        assert total == p["workers"], (s, total)
    for k in range(3):
        held = (sum(i[k] for i in state.incoming)
                + sum(r[1 + k] for t in state.tableaus for r in t))
        assert held == state.cubes_in[k] - state.cubes_out[k], k
    cards = (state.deck + state.discard + [c for h in state.hands for c in h]
             + [r[CARD] for t in state.tableaus for r in t])
    assert sorted(cards) == list(range(len(game.cards)))


def act(state, *texts: str, seat: int | None = None):
    """Apply each text as the (only) acting seat's move, or ``seat``'s."""
    for text in texts:
        who = seat if seat is not None else state.current_players()[0]
        state.apply_action(state.game.parse_action(text, who), seat=who)
    return state


def fight(state, attacker_card: str, defender_card: str):
    """Both warring seats reveal at once (OZW-30)."""
    kind, point, attacker, defender = state.war
    game = state.game
    state.apply_actions({attacker: game.parse_action(f"fight {attacker_card}", attacker),
                         defender: game.parse_action(f"fight {defender_card}", defender)})
    return state


def legal(state, seat: int | None = None) -> list[str]:
    who = seat if seat is not None else state.current_players()[0]
    return [str(m) for m in state.legal_actions(who)]


def of_kind(state, kind: str, seat: int | None = None) -> list[str]:
    return sorted(t for t in legal(state, seat) if t.split()[0] == kind)


def names(state, seat: int) -> list[str]:
    cards = state.game.cards
    return sorted(f"{CUBE_OF[cards[c].suit]}{cards[c].rank}" for c in state.hands[seat])


def tableau_names(state, seat: int) -> list[str]:
    cards = state.game.cards
    return [f"{CUBE_OF[cards[r[CARD]].suit]}{cards[r[CARD]].rank}" for r in state.tableaus[seat]]


P = "GOLD-1:"  # the reference tile's point prefix


# ----------------------------------------------------------------- T-OZW-1..4: scoring
# T-OZW-1 as written (rank 5, cubes {G, G, G, R}, unrest 0: 6 VP, 10 with a laid worker)
# conflicts with OZW-8 Rec (a) as T-OZW-3 applies it: 4 cubes in all are fewer than rank 5 -
# unrest 0, so the default ``threshold=total`` scores 0. Its levels hold exactly without the
# threshold (``threshold=none``), and under the default once the card has a fifth cube.
def test_t_ozw_1_scoring_function() -> None:
    """Rank-5 GOLD, cubes {G, G, G, R}, unrest 0, harvest: 6 VP; with a laid worker: 10."""
    assert collapse_points(G, 5, cubes("GGGR"), 0, True, False, threshold="none") == 6
    assert collapse_points(G, 5, cubes("GGGR"), 0, True, True, threshold="none") == 10
    # the default threshold: 4 cubes < 5 (the conflict above); one more cube meets it
    assert collapse_points(G, 5, cubes("GGGR"), 0, harvest=True, laid=True) == 0
    assert collapse_points(G, 5, cubes("GGGRB"), 0, harvest=True, laid=False) == 6
    assert collapse_points(G, 5, cubes("GGGRB"), 0, harvest=True, laid=True) == 10
    # without the (standing) harvest worker nothing scores (Collapse; OZW-10)
    assert collapse_points(G, 5, cubes("GGGRB"), 0, harvest=False, laid=True) == 0


@pytest.mark.parametrize(("threshold", "cube_text", "laid", "expected"), [
    ("none", "GGGR", 0, 6), ("none", "GGGR", 1, 10), ("total", "GGGR", 1, 0),
    ("total", "GGGRB", 0, 6), ("total", "GGGRB", 1, 10)])
def test_t_ozw_1_through_a_real_intake(threshold: str, cube_text: str, laid: int,
                                       expected: int) -> None:
    """The cubes arrive at intake (a) onto the tapped card (OZW-5), which then collapses (b):
    it scores, is discarded, and its workers go back to the supply (OZW-19)."""
    game = make(2, threshold=threshold)
    state = scenario(game, tableaus={0: [("G5", "", 1, laid, 1)]}, incoming={0: cube_text})
    card = state.tableaus[0][0][CARD]
    supply = state.supply[0]
    act(state, "intake")
    assert state.step == "distribute"
    for c in cube_text:
        act(state, f"cube {c} 1")
    # nothing is left to distribute, so (a) ends by itself; the card collapses
    assert state.vp[0] == expected
    assert state.tableaus[0] == [] and state.discard[-1] == card
    assert state.supply[0] == supply + 1 + laid
    assert state.cubes_out == cubes(cube_text)  # OZW-7: the cubes go back to the supply
    assert state.current_players() == (1,)
    assert_conserved(state)


def test_t_ozw_2_unrest_lowers_the_cap() -> None:
    """The same card with unrest 3: the cap is 2, so 3 VP (6 with a laid worker); the
    threshold 4 >= 2 holds."""
    assert collapse_points(G, 5, cubes("GGGR"), 3, harvest=True, laid=False) == 3
    assert collapse_points(G, 5, cubes("GGGR"), 3, harvest=True, laid=True) == 6


def test_t_ozw_2_through_a_real_intake() -> None:
    game = make(2)
    state = scenario(game, tableaus={0: [("G5", "GGGR", 1, 1, 1)]}, unrest={0: 3})
    act(state, "intake")
    assert state.vp[0] == 6 and state.unrest[0] == 3


def test_t_ozw_3_threshold() -> None:
    """Rank 5, cubes {G, G, G}, unrest 0: total 3 < 5, so 0 VP under Rec (a), 6 under
    ``threshold=none``."""
    assert collapse_points(G, 5, cubes("GGG"), 0, True, False) == 0
    assert collapse_points(G, 5, cubes("GGG"), 0, True, False, threshold="none") == 6
    assert collapse_points(G, 5, cubes("GGG"), 0, True, False, threshold="matching") == 0


@pytest.mark.parametrize(("threshold", "expected"), [("total", 0), ("none", 6),
                                                      ("matching", 0)])
def test_t_ozw_3_the_card_is_discarded_either_way(threshold: str, expected: int) -> None:
    game = make(2, threshold=threshold)
    state = scenario(game, tableaus={0: [("G5", "GGG", 1, 0, 1)]})
    card = state.tableaus[0][0][CARD]
    act(state, "intake")
    assert state.vp[0] == expected
    assert state.tableaus[0] == [] and card in state.discard


def test_threshold_variants_differ_on_total_and_matching_cubes() -> None:
    """OZW-8: ``total`` counts every cube towards the threshold, ``matching`` only the card's
    suit, ``none`` has no threshold; the points always come from the matching cubes."""
    mixed = cubes("GRRRB")  # 5 cubes, 1 matching, on a rank-5 GOLD card
    assert collapse_points(G, 5, mixed, 0, True, False, threshold="total") == 1
    assert collapse_points(G, 5, mixed, 0, True, False, threshold="matching") == 0
    assert collapse_points(G, 5, mixed, 0, True, False, threshold="none") == 1
    # unrest lowers the threshold too: rank 5 - unrest 4 = 1 matching cube suffices
    assert collapse_points(G, 5, mixed, 4, True, False, threshold="matching") == 1
    # unrest above the rank: the cap is 0, so nothing scores (OZW-15)
    assert collapse_points(G, 3, cubes("GGG"), 5, True, True) == 0


def test_t_ozw_4_the_table() -> None:
    """k = 1..5 gives 1/3/6/10/15; k = 7 gives 15; the bonus at k = 5 gives 21 (OZW-9)."""
    assert [level_points(k) for k in range(0, 8)] == [0, 1, 3, 6, 10, 15, 21, 21]
    for k, points in zip(range(1, 6), (1, 3, 6, 10, 15), strict=True):
        # a rank-7 BLUE card with k BLUE cubes among 7 (the threshold holds)
        assert collapse_points(B, 7, [7 - k, 0, k], 0, True, False) == points
        assert collapse_points(B, 7, [7 - k, 0, k], 0, True, True) == level_points(k + 1)
    assert collapse_points(B, 7, cubes("BBBBBBB"), 0, True, False) == 15
    assert collapse_points(B, 7, cubes("BBBBBBB"), 0, True, True) == 21
    assert collapse_points(B, 7, cubes("GGBBBBB"), 0, True, True) == 21
    assert collapse_points(B, 7, cubes("GGGBBBB"), 0, True, True) == 15


def test_laid_bonus_from_zero_is_a_variant() -> None:
    """OZW-9: with 0 matching cubes the laid worker adds nothing, unless
    ``bonus_from_zero``."""
    assert collapse_points(G, 2, cubes("RR"), 0, True, True) == 0
    assert collapse_points(G, 2, cubes("RR"), 0, True, True, bonus_from_zero=True) == 1
    game = make(2, bonus_from_zero=True)
    state = scenario(game, tableaus={0: [("G2", "RR", 1, 1, 1)]})
    act(state, "intake")
    assert state.vp[0] == 1


# ---------------------------------------------------------------------- T-OZW-5: wars
def test_war_strength_and_ties() -> None:
    assert war_strength(G, 4, G) == 8 and war_strength(R, 7, G) == 7
    assert attacker_wins((G, 4), (R, 7), G)
    assert attacker_wins((R, 6), (G, 3), G)  # 6 = 6: the active player wins ties
    assert not attacker_wins((R, 5), (R, 6), G)
    assert attacker_wins((R, 2), None, G) and not attacker_wins(None, (R, 2), G)


def standing_war(game, attacker_hand, defender_hand, **kw):
    """Seat 0 (active, campaign) has a colony at c1; seat 1 stands on i1 next to it. i1 has
    no open port, so no exploration follows."""
    kw.setdefault("tableaus", {0: [("G3", "")]})  # a 'lay' keeps the campaign going
    state = scenario(game, step="campaign", stacks={"c1": [0]}, standing={"i1": 1},
                     hands={0: attacker_hand, 1: defender_hand}, **kw)
    act(state, f"stand {P}i1")
    return state


def test_t_ozw_5_matching_rank_4_beats_non_matching_7() -> None:
    """On a GOLD tile the attacker's G4 counts 8 and beats a R7; the loser takes back their
    worker (OZW-31); both gain 1 unrest."""
    game = make(2)
    state = standing_war(game, ["G4", "B2"], ["R7", "R3"])
    assert state.step == "war" and state.current_players() == (0, 1)
    assert state.unrest == [1, 1]  # everyone in the location (OZW-29)
    supply0, supply1 = state.supply
    fight(state, "G4", "R7")
    assert state.standing[P + "i1"] == 0
    assert state.supply == [supply0 - 1, supply1 + 1]
    assert names(state, 0) == ["B2"] and names(state, 1) == ["R3"]  # war cards discarded
    assert state.unrest == [1, 1]
    assert state.step == "campaign" and state.current_players() == (0,)
    assert_conserved(state)


def test_t_ozw_5_the_matching_card_also_doubles_for_the_defender() -> None:
    game = make(2)
    state = standing_war(game, ["R7"], ["G4"])
    fight(state, "R7", "G4")
    assert state.standing[P + "i1"] == 1  # the attacker's worker never left its supply
    assert state.supply[0] == 3 and state.unrest == [1, 1]


def test_t_ozw_5_tie_goes_to_the_active_player() -> None:
    game = make(2)
    state = standing_war(game, ["R6"], ["G3"])  # 6 against 3 x 2 = 6
    fight(state, "R6", "G3")
    assert state.standing[P + "i1"] == 0


def test_t_ozw_5_defender_without_cards_loses_and_both_gain_unrest() -> None:
    """The war resolves at once, no card is played, and both still gain 1 unrest."""
    game = make(2)
    state = standing_war(game, ["R2", "B3"], [])
    assert state.step == "campaign"  # no simultaneous decision was needed
    assert state.standing[P + "i1"] == 0 and state.unrest == [1, 1]
    assert names(state, 0) == ["B3", "R2"]  # the winner played no card
    assert state.discard == []


def test_attacker_without_cards_loses() -> None:
    game = make(2)
    state = standing_war(game, [], ["R2"])
    assert state.standing[P + "i1"] == 1 and state.unrest == [1, 1]
    assert names(state, 1) == ["R2"] and state.supply[0] == 3


# ------------------------------------------------------------------ T-OZW-6: migration
def test_t_ozw_6_migration() -> None:
    """Tableau [c1{G}, c2{}, c3{R, G}]: c3's cubes must go to the right neighbour (2 colours,
    2 unrest back); c1's G must go to c2, c3 or the right neighbour; c1 ends empty."""
    game = make(4)
    state = scenario(game, tableaus={0: [("G3", "G"), ("R4", ""), ("B5", "RG")]},
                     unrest={0: 3}, incoming={3: "B"})
    act(state, "migrate")
    assert state.step == "migrate"
    assert sorted(legal(state)) == ["move G out", "move R out"]  # nothing lies right of c3
    act(state, "move R out", "move G out")
    # c2 is empty and skipped; now c1's G
    assert sorted(legal(state)) == ["move G 2", "move G 3", "move G out"]
    act(state, "move G 2")
    assert [r[1:4] for r in state.tableaus[0]] == [[0, 0, 0], [1, 0, 0], [0, 0, 0]]
    assert state.unrest[0] == 1  # 2 colours given right (OZW-13)
    assert state.incoming[3] == [1, 1, 1]  # seat 3 is seat 0's right neighbour (OZW-2)
    assert state.current_players() == (1,)  # nothing to recover: the turn ended
    assert_conserved(state)


def test_migration_cubes_moved_right_are_not_moved_again() -> None:
    game = make(2)
    state = scenario(game, tableaus={0: [("G3", "GG"), ("R4", "")]}, unrest={0: 2})
    act(state, "migrate", "move G 2", "move G 2")
    assert [r[1:4] for r in state.tableaus[0]] == [[0, 0, 0], [2, 0, 0]]
    assert state.unrest[0] == 2 and state.incoming[1] == [0, 0, 0]


def test_unrest_return_per_cube_variant() -> None:
    """OZW-13: one unrest per colour (default) or per cube; never below 0 (OZW-15)."""
    for param, left in (("per_color", 3), ("per_cube", 2)):
        game = make(2, unrest_return=param)
        state = scenario(game, tableaus={0: [("G3", "GGR")]}, unrest={0: 5})
        act(state, "migrate", "move G out", "move G out", "move R out")
        assert state.unrest[0] == left, param
    game = make(2, unrest_return="per_cube")
    state = scenario(game, tableaus={0: [("G3", "GGR")]}, unrest={0: 1})
    act(state, "migrate", "move G out", "move G out", "move R out")
    assert state.unrest[0] == 0


def test_free_migration_may_keep_cubes() -> None:
    """e935810: ``keep`` leaves the current card's other cubes; forced migration has no
    ``keep``."""
    game = make(2, variant="e935810")
    state = scenario(game, tableaus={0: [("G3", "G"), ("R4", "R")]}, unrest={0: 2})
    act(state, "migrate")
    assert sorted(legal(state)) == ["keep", "move R out"]
    act(state, "keep")  # R stays on card 2
    assert sorted(legal(state)) == ["keep", "move G 2", "move G out"]
    act(state, "move G 2")
    assert [r[1:4] for r in state.tableaus[0]] == [[0, 0, 0], [1, 1, 0]]
    assert state.unrest[0] == 2  # nothing went right
    forced = scenario(make(2), tableaus={0: [("G3", "G"), ("R4", "R")]})
    act(forced, "migrate")
    assert "keep" not in legal(forced)


def test_empty_migration_recovers_standing_workers() -> None:
    """OZW-14, OZW-16: migration with no cubes is legal, then standing map workers and harvest
    workers may be recovered, but not colonies or laid workers."""
    game = make(2)
    state = scenario(game, tableaus={0: [("G3", "", 1, 0, 1), ("R4", "", 0, 1, 0)]},
                     standing={"i1": 0, "i3": 0}, stacks={"c1": [0]}, supply={0: 0})
    act(state, "migrate")
    assert state.step == "recover_standing"
    assert legal(state) == [f"recover {P}i1", f"recover {P}i3", "recover card 1", "done"]
    act(state, f"recover {P}i3", "recover card 1")
    assert state.supply[0] == 2 and state.tableaus[0][0][HARVEST] == 0
    assert state.tableaus[0][1][LAID] == 1 and state.stacks[P + "c1"] == [0]
    act(state, "done")
    assert state.standing == {P + "i1": 0} and state.current_players() == (1,)


def test_recovering_everything_ends_the_turn() -> None:
    game = make(2)
    state = scenario(game, standing={"i1": 0})
    act(state, "migrate", f"recover {P}i1")
    assert state.current_players() == (1,) and state.standing == {}


# --------------------------------------------------------------------- T-OZW-7: intake
def test_t_ozw_7_intake() -> None:
    """Undistributed cubes go to the right neighbour's incoming; empty cards are tapped after
    the collapse; the hand refills to 5."""
    game = make(4)
    state = scenario(game, tableaus={0: [("G3", ""), ("R4", ""), ("B5", "B", 1, 0, 0)]},
                     incoming={0: "GGR", 3: "B"}, hands={0: ["G2", "R2"]})
    act(state, "intake")
    assert of_kind(state, "cube") == sorted(f"cube {c} {i}" for c in "GR" for i in (1, 2, 3))
    act(state, "cube G 1", "pass")
    assert state.incoming[0] == [0, 0, 0]
    assert state.incoming[3] == [1, 1, 1]  # G and R passed on to seat 3 (OZW-2)
    # the tapped B5 collapsed (no harvest worker: no points); card 2 was empty: tapped now
    assert tableau_names(state, 0) == ["G3", "R4"]
    assert [r[TAPPED] for r in state.tableaus[0]] == [0, 1]
    assert len(state.hands[0]) == 5 and state.vp[0] == 0
    assert state.cubes_out == [0, 0, 1]
    assert state.current_players() == (1,)
    assert_conserved(state)


def test_intake_taps_only_after_collapse() -> None:
    """A card tapped at this intake collapses at the next one, not now (OZW-11)."""
    game = make(2)
    state = scenario(game, tableaus={0: [("G3", "")]})
    act(state, "intake")
    assert tableau_names(state, 0) == ["G3"] and state.tableaus[0][0][TAPPED] == 1
    act(state, "migrate")  # seat 1
    act(state, "intake")  # seat 0 again
    assert state.tableaus[0] == []


def test_intake_may_place_cubes_on_tapped_cards() -> None:
    """OZW-5, and collapsing cubes may be passed right under ``collapse_cubes=pass_right``
    (OZW-7)."""
    game = make(2, collapse_cubes="pass_right")
    state = scenario(game, tableaus={0: [("G2", "", 1, 0, 1)]}, incoming={0: "GG"},
                     unrest={0: 0})
    act(state, "intake", "cube G 1", "cube G 1")
    assert state.vp[0] == 3 and state.incoming[1] == [2, 0, 0]
    assert state.cubes_out == [0, 0, 0]
    assert_conserved(state)


def test_card_cap_rank_limits_cubes() -> None:
    """OZW-4 ``card_cap=rank``: a card holds at most its rank in cubes, at intake and in
    migration; the default has no cap."""
    tableaus = {0: [("G2", "GR"), ("G3", "")]}
    capped = scenario(make(2, card_cap="rank"), tableaus=tableaus, incoming={0: "G"})
    act(capped, "intake")
    assert legal(capped) == ["cube G 2", "pass"]
    free = scenario(make(2), tableaus=tableaus, incoming={0: "G"})
    act(free, "intake")
    assert legal(free) == ["cube G 1", "cube G 2", "pass"]
    # migration: card 2's cubes fill card 3, so card 1's cube may not join them
    tableaus = {0: [("G3", "G"), ("G3", "GG"), ("G2", "")]}
    capped = scenario(make(2, card_cap="rank"), tableaus=tableaus)
    act(capped, "migrate", "move G 3", "move G 3")
    assert legal(capped) == ["move G 2", "move G out"]
    free = scenario(make(2), tableaus=tableaus)
    act(free, "migrate", "move G 3", "move G 3")
    assert legal(free) == ["move G 2", "move G 3", "move G out"]


# -------------------------------------------------------------------- T-OZW-8: the end
def test_t_ozw_8_the_end() -> None:
    """A (seat 0) reaches 21 at intake; B, C and D each take exactly one more turn; A takes
    none (OZW-38)."""
    game = make(4)
    state = scenario(game, tableaus={0: [("G2", "GG", 1, 0, 1)]}, vp={0: 20, 1: 15})
    act(state, "intake")
    assert state.vp[0] == 23 and state.trigger == 0
    order = []
    while not state.is_terminal():
        (seat,) = state.current_players()
        order.append(seat)
        act(state, "migrate")  # an empty migration: a whole turn
    assert order == [1, 2, 3]
    assert state.winners() == (0,) and state.returns() == (1.0, 0.0, 0.0, 0.0)
    assert state.scores() == (23.0, 15.0, 0.0, 0.0) and not state.is_truncated()
    with pytest.raises(GameOverError):
        state.apply_action(game.parse_action("intake", 0), seat=0)


def test_the_end_with_the_last_seat_triggering_in_a_two_player_game() -> None:
    game = make(2)
    state = scenario(game, active=1, tableaus={1: [("G2", "GG", 1, 0, 1)]}, vp={1: 20})
    act(state, "intake")
    assert state.current_players() == (0,)
    act(state, "campaign", "end")
    assert state.is_terminal() and state.winners() == (1,)


def tie_at_the_end(tiebreak: str):
    """Seat 0 reaches exactly 21 at intake; seat 2 reaches 21 in its last turn."""
    game = make(4, tiebreak=tiebreak)
    state = scenario(game, tableaus={0: [("G2", "GG", 1, 0, 1)],
                                     2: [("R2", "RR", 1, 0, 1)]}, vp={0: 18, 2: 18})
    act(state, "intake")
    act(state, "migrate")  # seat 1
    act(state, "intake")  # seat 2: 21 too
    act(state, "migrate")  # seat 3
    assert state.is_terminal() and state.vp == [21, 0, 21, 0]
    return state


def test_ties_share_the_win_by_default() -> None:
    state = tie_at_the_end("shared")
    assert state.winners() == (0, 2) and state.returns() == (0.5, 0.0, 0.5, 0.0)


def test_tiebreak_turn_order_prefers_the_first_seat_after_the_trigger() -> None:
    """cfa0da0 (OZW-38): "ties broken in turn order", read as the earliest seat after the one
    that reached the target, so the triggering seat itself comes last."""
    state = tie_at_the_end("turn_order")
    assert state.winners() == (2,) and state.returns() == (0.0, 0.0, 1.0, 0.0)


def test_round_cap_truncates() -> None:
    game = make(2, max_rounds=1)
    state = scenario(game)
    act(state, "migrate", "migrate")
    assert state.is_terminal() and state.is_truncated() and state.winners() == (0, 1)


# ------------------------------------------------------------------- modes and steps
def test_each_mode_is_always_legal() -> None:
    """OZW-40: at the mode step the three modes are the whole choice, even with nothing to
    do; a mode with nothing to choose ends the turn at once."""
    game = make(3)
    state = scenario(game, supply={0: 0})
    assert legal(state) == ["intake", "migrate", "campaign"]
    act(state, "campaign")  # no worker in supply: only 'end', taken at once
    assert state.current_players() == (1,) and state.step == "mode"
    act(state, "intake")  # no cubes, no tableau: the hand is full already
    assert state.current_players() == (2,)
    act(state, "migrate")
    assert state.current_players() == (0,) and state.turns == 3


def test_intake_steps() -> None:
    """Intake: distribute, collapse, recover colony workers, tap, draw (OZW-6)."""
    game = make(2)
    state = scenario(game, tableaus={0: [("G2", "GG", 1, 0, 1), ("R3", "")]},
                     stacks={"c1": [0]}, incoming={0: "B"}, hands={0: ["B2"]})
    act(state, "intake")
    assert state.step == "distribute"
    assert legal(state) == ["cube B 1", "cube B 2", "pass"]
    act(state, "pass")
    assert state.step == "recover_colony" and state.vp[0] == 3
    assert legal(state) == [f"recover {P}c1"]  # mandatory: no 'done' (OZW-18)
    act(state, f"recover {P}c1")
    assert state.stacks == {} and state.supply[0] == 3 + 1 + 1  # harvest + colony
    assert state.tableaus[0][0][TAPPED] == 1 and len(state.hands[0]) == 5
    assert state.current_players() == (1,)


def test_campaign_steps() -> None:
    """Campaign: any number of placements, each fully resolved, then ``end`` (OZW-21)."""
    game = make(2, explore=False)
    state = scenario(game, tableaus={0: [("G3", "", 1), ("R3", "")]}, hands={0: ["B4", "B5"]},
                     supply={0: 5})
    act(state, "campaign")
    assert state.step == "campaign"
    assert legal(state) == [f"colony {P}c1", f"colony {P}c2", "lay 2", "harvest 1", "end"]
    act(state, f"colony {P}c2")
    assert state.step == "play" and legal(state) == ["play B4", "play B5"]
    act(state, "play B5")
    assert tableau_names(state, 0) == ["G3", "R3", "B5"] and state.incoming[0] == [0, 0, 1]
    act(state, f"stand {P}i4", "lay 2", "harvest 1")
    # the colony, the stand and the harvest from the supply; the laid worker from the bag
    assert state.supply[0] == 2 and state.bag[0] == 6
    assert state.step == "campaign"
    act(state, "end")
    assert state.current_players() == (1,)
    assert_conserved(state)


# ---------------------------------------------------------------- stand and colony
def test_stand_adjacent_to_own_colony_not_on_colonies() -> None:
    """OZW-22, OZW-23: a stand is next to a colony of yours, on an intersection or hazard."""
    game = make(3)
    state = scenario(game, step="campaign", stacks={"c1": [0], "c2": [1]})
    assert of_kind(state, "stand") == [f"stand {P}i1"]
    state = scenario(game, step="campaign", stacks={"c1": [0], "c2": [1, 0]})
    assert of_kind(state, "stand") == [f"stand {P}i1", f"stand {P}i4"]


def test_stand_next_to_a_buried_colony_depends_on_colony_ref() -> None:
    """OZW-23: a colony where you are buried counts (any depth), or not (``colony_ref=top``)."""
    stacks = {"c1": [2], "c2": [0, 1]}
    state = scenario(make(3), step="campaign", stacks=stacks)
    assert of_kind(state, "stand") == [f"stand {P}i4"]
    state = scenario(make(3, colony_ref="top"), step="campaign", stacks=stacks)
    assert of_kind(state, "stand") == []


def test_no_stand_where_you_already_stand_but_war_where_an_enemy_does() -> None:
    game = make(3)
    state = scenario(game, step="campaign", stacks={"c1": [0], "c2": [0]},
                     standing={"i1": 0, "i4": 1})
    assert of_kind(state, "stand") == [f"stand {P}i4"]
    act(state, f"stand {P}i4")
    assert state.step == "war" and state.war == ["stand", P + "i4", 0, 1]


def test_no_stand_or_colony_without_a_worker_in_supply() -> None:
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c1": [0]}, supply={0: 0},
                     tableaus={0: [("G3", ""), ("R3", "", 1)]})
    assert legal(state) == ["lay 1", "end"]  # the bag still recruits (OZW-17)
    game = make(2, laydown_source="supply")
    state = scenario(game, step="mode", stacks={"c1": [0]}, supply={0: 0},
                     tableaus={0: [("G3", ""), ("R3", "", 1)]})
    act(state, "campaign")  # only 'end' would be legal: the turn ends by itself
    assert state.current_players() == (1,)


def test_colony_anywhere_without_map_workers() -> None:
    """OZW-24: with no worker on the map, any colony; otherwise next to any map worker of
    yours, standing or lying."""
    game = make(3)
    state = scenario(game, step="campaign")
    assert of_kind(state, "colony") == [f"colony {P}c1", f"colony {P}c2"]
    state = scenario(game, step="campaign", standing={"i4": 0})
    assert of_kind(state, "colony") == [f"colony {P}c2"]
    state = scenario(game, step="campaign", standing={"i3": 0})
    assert of_kind(state, "colony") == []
    # a harvest worker is not on the map: still any colony
    state = scenario(game, step="campaign", tableaus={0: [("G3", "", 1, 0, 1)]})
    assert of_kind(state, "colony") == [f"colony {P}c1", f"colony {P}c2"]
    # BLUE-1: colonies c2 and c3 are joined by a line, so a lying worker is an anchor
    state = scenario(game, tile="BLUE-1", step="campaign", stacks={"c2": [0]})
    assert of_kind(state, "colony") == ["colony BLUE-1:c3"]
    # buried counts as a worker on the map too; c2 itself is not next to c2
    state = scenario(game, tile="BLUE-1", step="campaign", stacks={"c2": [0, 1]})
    assert of_kind(state, "colony") == ["colony BLUE-1:c3"]


def test_colony_not_where_on_top_but_allowed_when_buried() -> None:
    """OZW-25: laying where you are on top is illegal; buried, it is a war with the top."""
    game = make(3)
    state = scenario(game, step="campaign", standing={"i1": 0, "i4": 0},
                     stacks={"c1": [1, 0], "c2": [0, 2, 1]}, hands={0: ["G5"], 1: ["R2"]})
    assert of_kind(state, "colony") == [f"colony {P}c2"]
    act(state, f"colony {P}c2")
    assert state.war == ["colony", P + "c2", 0, 1]  # against the top owner only
    assert state.current_players() == (0, 1)


def test_lay_colony_without_a_card_still_lays() -> None:
    """OZW-28: no card in hand: the worker still lies, with no card and no cube; under
    ``lay_requires_card`` the colony is not offered."""
    game = make(2)
    state = scenario(game, step="campaign", hands={0: []})
    act(state, f"colony {P}c1")
    assert state.stacks == {P + "c1": [0]} and state.step == "campaign"
    assert state.tableaus[0] == [] and state.incoming[0] == [0, 0, 0]
    game = make(2, lay_requires_card=True)
    state = scenario(game, step="campaign", hands={0: []}, standing={"i1": 1})
    assert of_kind(state, "colony") == []


def test_conquest_gives_unrest_to_every_other_seat_beneath() -> None:
    """The Sectors, OZW-29: the war gives 1 unrest to every seat at the point (attacker
    included), then the conqueror on top gives 1 more to every other seat beneath."""
    game = make(4)
    state = scenario(game, step="campaign", stacks={"c1": [1, 2, 1, 3]},
                     hands={0: ["G7", "B2"], 3: ["R2"]})
    act(state, f"colony {P}c1")
    assert state.war == ["colony", P + "c1", 0, 3]
    assert state.unrest == [1, 1, 1, 1]  # once per seat, not per worker
    fight(state, "G7", "R2")
    assert state.stacks[P + "c1"] == [1, 2, 1, 3, 0]
    assert state.unrest == [1, 2, 2, 2]
    assert state.step == "play" and legal(state) == ["play B2"]
    act(state, "play B2")
    assert tableau_names(state, 0) == ["B2"] and state.incoming[0] == [0, 0, 1]
    assert_conserved(state)


def test_peaceful_colony_gives_no_unrest() -> None:
    game = make(2)
    state = scenario(game, step="campaign", hands={0: ["R4"]})
    act(state, f"colony {P}c2", "play R4")
    assert state.stacks == {P + "c2": [0]} and state.unrest == [0, 0]
    assert state.incoming[0] == [0, 1, 0] and state.cubes_in == [0, 1, 0]  # OZW-3


def test_failed_colony_war_goes_beneath_and_still_plays() -> None:
    """OZW-27: the losing attacker lies directly beneath the top, deals no conquest unrest
    and still plays a card."""
    game = make(3)
    state = scenario(game, step="campaign", stacks={"c1": [2, 1]},
                     hands={0: ["R2", "B6"], 1: ["G7"]})
    act(state, f"colony {P}c1")
    fight(state, "R2", "G7")
    assert state.stacks[P + "c1"] == [2, 0, 1]
    assert state.unrest == [1, 1, 1]
    assert state.supply[0] == 2
    assert state.step == "play" and legal(state) == ["play B6"]
    act(state, "play B6")
    assert tableau_names(state, 0) == ["B6"]
    assert_conserved(state)


def test_failed_colony_return_worker_variant() -> None:
    game = make(3, failed_colony="return_worker")
    state = scenario(game, step="campaign", stacks={"c1": [2, 1]},
                     hands={0: ["R2", "B6"], 1: ["G7"]})
    act(state, f"colony {P}c1")
    fight(state, "R2", "G7")
    assert state.stacks[P + "c1"] == [2, 1] and state.supply[0] == 3
    assert state.step == "campaign" and names(state, 0) == ["B6"]
    assert state.tableaus[0] == [] and state.unrest == [1, 1, 1]
    assert_conserved(state)


def test_standing_war_lost_by_the_defender_returns_its_worker() -> None:
    """OZW-31 with hazard_unrest: the winner stands on the point, and a hazard gives it 1
    unrest (OZW-34)."""
    game = make(2, hazard_unrest=True)
    state = scenario(game, step="campaign", stacks={"c2": [0]}, standing={"i3": 0, "h1": 1},
                     hands={0: ["G5"], 1: ["G2"]})
    # h1 is next to i3 only, not to a colony: no stand there
    assert f"stand {P}h1" not in legal(state)
    # RED-1: hazard h1 is next to colony c2
    state = scenario(game, tile="RED-1", step="campaign", stacks={"c2": [0]},
                     standing={"h1": 1}, hands={0: ["G5"], 1: ["G2"]}, empty_tile_deck=True)
    act(state, "stand RED-1:h1")
    fight(state, "G5", "G2")
    assert state.standing == {"RED-1:h1": 0} and state.supply == [2, 4]
    assert state.unrest == [2, 1]  # the war, then the hazard


# ----------------------------------------------------------------------- exploration
def test_standing_on_an_open_port_explores() -> None:
    """OZW-32: a stand on a point with an open port draws the top tile; ``attach`` joins it
    there, the joined points become adjacent, and the new colony can be laid on."""
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c2": [0]}, next_tile="RED-3",
                     hands={0: ["B3"]})
    tiles_left = len(state.tile_deck)
    act(state, f"stand {P}i4")
    assert state.step == "explore" and state.current_players() == (0,)
    assert len(state.tile_deck) == tiles_left - 1
    assert game.tiles[state.drawn_tile].id == "RED-3"
    assert legal(state) == [f"attach c {port}" for port in "abcdef"]  # i4's port is c
    view = state.view(1)
    assert view["explore"]["at"] == P + "i4" and view["explore"]["tile"] == "RED-3"
    assert view["explore"]["ports"]["f"] == ["c1", "COLONY"]  # where each new port leads
    act(state, "attach c f")  # RED-3's port f leaves from its colony c1
    assert state.step == "campaign" and len(state.map.placements) == 2
    assert "RED-3:c1" in state.map.neighbours(P + "i4")
    assert P + "i4" in state.map.neighbours("RED-3:c1")
    assert (P + "i4", "c") not in state.map.open_ports
    assert state.map.suits["RED-3:c1"] == R
    assert "colony RED-3:c1" in legal(state)
    act(state, "colony RED-3:c1", "play B3")
    assert state.stacks["RED-3:c1"] == [0] and len(state.tile_deck) == tiles_left - 1


def test_explore_off_never_draws() -> None:
    for params in ({"explore": False}, {"variant": "literal"}):
        game = make(2, **params)
        state = scenario(game, step="campaign", stacks={"c2": [0]},
                         tableaus={0: [("G3", "")]})
        tiles = list(state.tile_deck)
        act(state, f"stand {P}i4")
        assert state.step == "campaign" and state.tile_deck == tiles
        assert len(state.map.placements) == 1


def test_no_tile_left_no_exploration() -> None:
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c2": [0]}, empty_tile_deck=True,
                     tableaus={0: [("G3", "")]})
    act(state, f"stand {P}i4")
    assert state.step == "campaign" and len(state.map.placements) == 1


def test_a_stand_won_in_war_on_a_port_still_explores() -> None:
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c2": [0]}, standing={"i4": 1},
                     hands={0: ["G7"], 1: ["R2"]}, next_tile="BLUE-2")
    act(state, f"stand {P}i4")
    fight(state, "G7", "R2")
    assert state.standing[P + "i4"] == 0
    assert state.step == "explore" and game.tiles[state.drawn_tile].id == "BLUE-2"
    act(state, "attach c a")  # BLUE-2's port a leaves from its colony c2
    assert "BLUE-2:c2" in state.map.neighbours(P + "i4")
    assert_conserved(state)


def test_two_setup_tiles_with_four_players_under_18ad11a() -> None:
    assert len(make(4, variant="18ad11a").new_initial_state(3).map.placements) == 2
    assert len(make(3, variant="18ad11a").new_initial_state(3).map.placements) == 1
    assert len(make(4).new_initial_state(3).map.placements) == 1


# ------------------------------------------------------------------ lay and harvest
def test_lay_down_takes_from_the_bag_then_the_supply() -> None:
    """OZW-17 R2: a laid worker is recruited from the bag, from the supply once the bag is
    empty; at collapse it joins the supply."""
    game = make(2)
    state = scenario(game, step="campaign", supply={0: 10},
                     tableaus={0: [("G3", ""), ("R3", ""), ("B3", "")]})
    assert state.bag[0] == 2
    act(state, "lay 1", "lay 2")
    assert state.bag[0] == 0 and state.supply[0] == 10
    act(state, "lay 3")
    assert state.supply[0] == 9
    assert [r[LAID] for r in state.tableaus[0]] == [1, 1, 1]
    assert_conserved(state)


def test_lay_down_from_the_supply_variant() -> None:
    game = make(2, laydown_source="supply")
    state = scenario(game, step="campaign", tableaus={0: [("G3", "")]})
    act(state, "lay 1")
    assert state.bag[0] == 9 and state.supply[0] == 2


def test_lay_on_untapped_and_harvest_on_tapped_only() -> None:
    """OZW-20: lay on an untapped card without a laid worker; harvest on a tapped card
    without a harvest worker (a laid worker does not block it)."""
    game = make(2)
    state = scenario(game, step="campaign", tableaus={0: [
        ("G3", ""), ("G4", "", 0, 1), ("R3", "", 1), ("R4", "", 1, 1), ("B3", "", 1, 0, 1)]},
        stacks={"c1": [1]}, standing={"i1": 1})
    assert of_kind(state, "lay") == ["lay 1"]
    assert of_kind(state, "harvest") == ["harvest 3", "harvest 4"]


def test_collapse_returns_workers_and_cubes() -> None:
    """Collapse (OZW-7, OZW-19): laid and harvest workers back to supply, cubes back to the
    supply, the card to the discard pile, even when it scores nothing."""
    game = make(2)
    state = scenario(game, tableaus={0: [("R6", "RB", 1, 1, 1), ("G3", "G")]})
    supply, card = state.supply[0], state.tableaus[0][0][CARD]
    act(state, "intake")
    assert state.vp[0] == 0  # 2 cubes < rank 6
    assert state.supply[0] == supply + 2 and state.discard == [card]
    assert state.cubes_out == [0, 1, 1] and tableau_names(state, 0) == ["G3"]
    assert_conserved(state)


@pytest.mark.parametrize("recovery", ["mandatory", "optional", "bag"])
def test_colony_recovery_variants(recovery: str) -> None:
    """OZW-18: per discarded card one colony worker (mandatory; optional), or one worker from
    the bag. Buried colonies may be chosen; the lowest worker of the seat there leaves."""
    game = make(3, colony_recovery=recovery)
    state = scenario(game, tableaus={0: [("G3", "", 1), ("R3", "", 1), ("B3", "", 1)]},
                     stacks={"c1": [0], "c2": [0, 1, 0, 2]}, supply={0: 1})
    bag = state.bag[0]
    act(state, "intake")
    if recovery == "bag":
        assert state.current_players() == (1,)
        assert state.supply[0] == 4 and state.bag[0] == bag - 3
        assert state.stacks == {P + "c1": [0], P + "c2": [0, 1, 0, 2]}
        return
    assert state.step == "recover_colony" and state.owed == 3
    expected = [f"recover {P}c1", f"recover {P}c2"]
    assert legal(state) == (expected + ["done"] if recovery == "optional" else expected)
    act(state, f"recover {P}c2")
    assert state.stacks[P + "c2"] == [1, 0, 2]
    if recovery == "optional":
        act(state, "done")
        assert state.current_players() == (1,) and state.supply[0] == 2
        return
    act(state, f"recover {P}c2", f"recover {P}c1")
    assert state.stacks == {P + "c2": [1, 2]} and state.supply[0] == 4
    assert state.current_players() == (1,)
    assert_conserved(state)


def test_colony_recovery_stops_when_no_colony_is_left() -> None:
    game = make(2)
    state = scenario(game, tableaus={0: [("G3", "", 1), ("R3", "", 1)]}, stacks={"c1": [0]})
    act(state, "intake", f"recover {P}c1")
    assert state.current_players() == (1,) and state.stacks == {}


def test_tableau_insert_left() -> None:
    """OZW-12: new cards enter at the right end, or the left under ``tableau_insert=left``."""
    for insert, expected in (("right", ["G3", "B4"]), ("left", ["B4", "G3"])):
        game = make(2, tableau_insert=insert)
        state = scenario(game, step="campaign", tableaus={0: [("G3", "")]}, hands={0: ["B4"]})
        act(state, f"colony {P}c1", "play B4")
        assert tableau_names(state, 0) == expected, insert


# ----------------------------------------------------------------------- the deck
def test_deck_reshuffles_when_empty() -> None:
    """OZW-36: drawing from an empty deck shuffles the discard pile in."""
    game = make(2)
    state = scenario(game, hands={0: []}, deck="discard")
    assert state.deck == [] and len(state.discard) == 49
    act(state, "intake")
    assert len(state.hands[0]) == 5 and state.discard == [] and len(state.deck) == 44
    assert any("shuffled" in e[2] for e in state.events)
    assert_conserved(state)


def test_deck_and_discard_empty_draws_fewer() -> None:
    """Only the two cards collapsing at this intake are left to draw."""
    game = make(2)
    everything = Counter(f"{s}{r}" for s in CUBE_OF for r in range(2, 8) for _ in range(3))
    hand1 = ["G2", "G2", "G2", "R2", "R2"]
    rest = everything - Counter(["G7", "B7", *hand1])
    theirs = [(c, "") for c in sorted(rest.elements())]
    assert len(theirs) == 47
    state = scenario(game, hands={0: [], 1: hand1},
                     tableaus={0: [("G7", "", 1), ("B7", "", 1)], 1: theirs}, deck="discard")
    assert state.deck == [] and state.discard == []
    act(state, "intake")
    assert names(state, 0) == ["B7", "G7"] and state.tableaus[0] == []
    assert_conserved(state)


# ------------------------------------------------------------------ illegal actions
@pytest.mark.parametrize(("text", "needle"), [
    (f"stand {P}c1", "not legal at the campaign step"),  # a colony (OZW-22)
    (f"stand {P}i3", "not legal at the campaign step"),  # not next to a colony of seat 0
    (f"colony {P}c1", "not legal at the campaign step"),  # seat 0 is on top there
    ("lay 2", "legal kinds now: end, harvest, lay, stand"),  # a tapped card
    ("harvest 1", "not legal at the campaign step"),  # untapped card
    ("harvest 3", "not legal"),  # no such card
    ("intake", "not legal at the campaign step"),
    ("fight G7", "not legal at the campaign step"),
])
def test_illegal_actions_are_refused_and_change_nothing(text: str, needle: str) -> None:
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c1": [0]},
                     tableaus={0: [("G3", ""), ("R3", "", 1)]})
    digest = state.digest()
    with pytest.raises(IllegalActionError, match=needle) as err:
        state.apply_action(game.parse_action(text, 0), seat=0)
    assert f"seat 0 cannot play {text}" in str(err.value)
    assert state.digest() == digest
    act(state, "end")  # the state still plays on


def test_a_refused_play_move_reads_play_once() -> None:
    """The engine's refusal names the move after "seat N cannot play"; a move whose text
    starts with "play" is not doubled ("cannot play play R3")."""
    game = make(2)
    state = scenario(game, step="campaign", stacks={"c1": [0]},
                     tableaus={0: [("G3", ""), ("R3", "", 1)]})
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(game.parse_action("play R3", 0), seat=0)
    assert str(err.value).startswith("seat 0 cannot play R3: 'play' moves are not legal")


def test_a_war_card_not_in_hand_is_refused() -> None:
    game = make(2)
    state = standing_war(game, ["G4"], ["R7"])
    digest = state.digest()
    with pytest.raises(IllegalActionError, match="not legal at the war step"):
        state.apply_action(game.parse_action("fight G5", 0), seat=0)
    with pytest.raises(IllegalActionError):
        state.apply_actions({0: game.parse_action("fight G4", 0),
                             1: game.parse_action("fight R6", 1)})
    assert state.digest() == digest


def test_the_wrong_seat_and_unreadable_text_are_refused() -> None:
    game = make(3)
    state = scenario(game)
    digest = state.digest()
    with pytest.raises(NotYourTurnError, match="seat 1 is not to act now"):
        state.apply_action(game.parse_action("intake", 1), seat=1)
    with pytest.raises(IllegalActionError, match="belongs to seat 1"):
        state.apply_action(game.parse_action("intake", 1), seat=0)
    for bad in ("stand nowhere:x1", "cube Q 1", "lay 0", "fight 5", "", "dance"):
        with pytest.raises(ActionParseError):
            game.parse_action(bad, 0)
    with pytest.raises(ActionParseError):
        game.parse_action("intake", 7)
    assert state.digest() == digest


# --------------------------------------------------------------- hidden information
def test_views_show_only_the_own_hand() -> None:
    """OZW-41: a seat sees its own hand only; a spectator sees none; tableaus, cubes,
    workers, unrest and VP are public."""
    game = make(3)
    state = scenario(game, hands={0: ["G7", "G6"], 1: ["R7", "R6"], 2: ["B7", "B6"]},
                     tableaus={1: [("R2", "GR", 1, 0, 1)]}, unrest={2: 4})
    for seat, own in ((0, ["G6", "G7"]), (1, ["R6", "R7"]), (2, ["B6", "B7"])):
        view = state.view(seat)
        assert view["hand"] == own
        text = json.dumps(view)
        for card in ("G7", "G6", "R7", "R6", "B7", "B6"):
            assert (f'"{card}"' in text) == (card in own), (seat, card)
    spectator = state.view(None)
    assert "hand" not in spectator
    assert [p["hand_size"] for p in spectator["players"]] == [2, 2, 2]
    assert spectator["players"][1]["tableau"][0] == {
        "card": "R2", "suit": "RED", "rank": 2, "cubes": {"GOLD": 1, "RED": 1, "BLUE": 0},
        "tapped": True, "laid": False, "harvest": True}
    assert spectator["players"][2]["unrest"] == 4
    assert "deck" not in spectator and spectator["deck_size"] == len(state.deck)


def test_war_cards_are_hidden_until_both_submit() -> None:
    game = make(2)
    state = standing_war(game, ["G4", "B3"], ["R7", "R5"])
    state.apply_action(game.parse_action("fight G4", 0), seat=0)
    assert state.current_players() == (1,) and state.step == "war"
    other = state.view(1)
    assert "my_submission" not in other and other["submitted"] == [0]
    assert '"G4"' not in json.dumps(other) and "G4" not in json.dumps(state.view(None))
    assert state.view(0)["my_submission"] == "fight G4"
    with pytest.raises(NotYourTurnError, match="already submitted"):
        state.apply_action(game.parse_action("fight B3", 0), seat=0)
    state.apply_action(game.parse_action("fight R5", 1), seat=1)
    assert state.standing[P + "i1"] == 0
    assert "Seat 0 G4, Seat 1 R5" in json.dumps(state.view(None)["events"])


# ------------------------------------------------------------------------ notation
@pytest.mark.parametrize(("variant", "players", "seed"), [
    (None, 2, 1), ("e935810", 3, 2), ("literal", 4, 3), ("cfa0da0", 6, 4), ("18ad11a", 5, 5),
    (None, 4, 6)])
def test_notation_round_trip_over_random_playouts(variant, players, seed) -> None:
    """Every legal action's text reads back to the same action (actions.py)."""
    game = make(players, variant=variant)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(600):
        if state.is_terminal():
            break
        joint = {}
        for seat in state.current_players():
            moves = state.legal_actions(seat)
            for move in moves:
                assert game.parse_action(str(move), seat) == move, str(move)
                if move.kind != "attach":  # port names are case-sensitive
                    assert game.parse_action(str(move).upper(), seat) == move, str(move)
                kinds.add(move.kind)
            joint[seat] = rng.choice(moves)
        state.apply_actions(joint)
    assert {"intake", "migrate", "campaign", "end"} <= kinds


def test_notation_of_every_kind() -> None:
    game = make(2)
    for text in ("intake", "migrate", "campaign", "cube G 2", "pass", "recover GOLD-1:c1",
                 "recover card 3", "done", "move G 4", "move B out", "keep",
                 "stand GOLD-1:i3", "colony RED-2:c1", "lay 2", "harvest 3", "end",
                 "fight R5", "play B4", "attach a c"):
        move = game.parse_action(text, 1)
        assert str(move) == text and move.seat == 1
    assert game.parse_action("  STAND   gold-1:I3 ", 0) == game.parse_action(
        "stand GOLD-1:i3", 0)

