"""Ozymandias (market edition): property tests over random legal play, and the heuristic bot.

Every step of a playthrough (random seats, heuristic seats or a mix; 2-4 seats; every named
variant with extra parameter switches) is checked against invariants restated from the seed
and rules-questions section 2: disk conservation (OZD-2, OZD-3, OZD-23), card conservation,
hands back to size at every plan phase (OZD-26), the market size (OZD-29), VP that only grow
and only by the trade/Tribute formulas (OZD-16, E7), non-empty legal moves with ``pass`` only
when forced (OZD-14), a connected map (OZD-6, OZD-10), no colour twice in a sector (OZD-8),
initiative (OZD-12), hidden information (OZD-31) and the notation round trip.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.bots import make_bot

GAME = "ozymandias-market"
VARIANTS = ["seed", "v2015", "explore", "2017tie"]
LETTERS = "RWBK"
OPENING = {"triangle": ((0, 0), (1, 0), (0, 1)), "line": ((0, 0), (1, 0), (2, 0))}
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

EXTRA = [{}, {"adjacency": "top_only"}, {"allow_self_stack": True}, {"destroyed_to": "dead"},
         {"disks_per_colour": 2}, {"disks_per_colour": 3, "take_from_map": True},
         {"market_size": 2}, {"market_size": 8, "hand_size": 4}, {"hand_size": 2},
         {"sectors": 3}, {"sectors": 40, "explore_on_expand": True}, {"opening": "line"},
         {"target_vp": 8}, {"end": "rounds", "max_rounds": 4},
         {"end": "colour_dead", "destroyed_to": "dead"},
         {"tiebreak": "lowest_rank"}]

#: Whole playthroughs are long examples: report the first failure rather than shrinking it.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def hexes(d) -> dict[tuple[int, int], list[int]]:
    out = {}
    for key, stack in d["stacks"]:
        q, r = (int(x) for x in key.split(","))
        out[(q, r)] = list(stack)
    return out


def values(stacks) -> list[int]:
    v = [0] * 4
    for stack in stacks.values():
        if stack:
            v[stack[-1]] += 1
    return v


def check_invariants(state) -> dict:
    """Everything that must hold at any point; returns the data for step-wise checks."""
    game = state.game
    n, p = game.players, game.params
    d = json.loads(json.dumps(state.to_json()["data"]))
    stacks = hexes(d)

    # disks: supply + map + dead = disks_per_colour, per colour (OZD-2, OZD-23)
    for colour in range(4):
        on_map = sum(s.count(colour) for s in stacks.values())
        assert d["supply"][colour] >= 0 and d["dead"][colour] >= 0
        assert d["supply"][colour] + on_map + d["dead"][colour] == p["disks_per_colour"], (
            colour, d["supply"], d["dead"], stacks)
    if p["destroyed_to"] == "supply":
        assert d["dead"] == [0, 0, 0, 0]

    # cards: every rank in exactly one zone
    cards = d["deck"] + d["discard"] + d["market"] + d["augury_pool"]
    cards += [c for h in d["hands"] for c in h] + [c for c in d["played"] if c is not None]
    everything = Counter(c.rank for c in game.cards)
    assert Counter(cards) == everything, (Counter(cards) - everything, everything - Counter(cards))
    assert sorted(everything) == list(range(1, 41))

    # the market never exceeds its size; hands are full at every plan phase (OZD-26, OZD-29)
    assert len(d["market"]) <= p["market_size"]
    if d["phase"] in ("plan", "over"):
        assert [len(h) for h in d["hands"]] == [p["hand_size"]] * n, d["hands"]
        assert d["played"] == [None] * n and d["augury_pool"] == []
    else:
        assert all(len(h) in (p["hand_size"] - 1, p["hand_size"]) for h in d["hands"])
    if d["step"] != "augury":
        assert d["augury_pool"] == []

    # the map: sectors counted, connected from the opening, no colour twice (OZD-6, 8, 10)
    assert d["sectors_left"] >= 0 and d["sectors_left"] + len(stacks) == p["sectors"]
    opening = OPENING[p["opening"]]
    assert set(opening) <= set(stacks)
    seen, todo = set(opening), list(opening)
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRS:
            h = (q + dq, r + dr)
            if h in stacks and h not in seen:
                seen.add(h)
                todo.append(h)
    assert seen == set(stacks), f"unreachable sectors {set(stacks) - seen}"
    if not p["allow_self_stack"]:
        assert all(len(set(s)) == len(s) for s in stacks.values()), stacks
    assert state.view(None)["values"] == dict(zip(("RED", "WHITE", "BLUE", "BLACK"),
                                                   values(stacks), strict=True))

    # who acts: legal moves exist; 'pass' only when forced (OZD-14); the end (OZD-27)
    acting = state.current_players()
    assert 1 <= d["round"] <= p["max_rounds"]
    if d["phase"] == "over":
        assert acting == () and state.is_terminal()
        best = max(d["vp"])
        assert set(state.winners()) <= {s for s in range(n) if d["vp"][s] == best}
        assert state.winners()
        if p["tiebreak"] == "lowest_rank":
            assert len(state.winners()) == 1
        assert state.is_truncated() == (d["round"] == p["max_rounds"] and not (
            (p["end"] == "vp" and best >= p["target_vp"]) or p["end"] == "rounds"
            or (p["end"] == "colour_dead" and max(d["dead"]) >= p["disks_per_colour"])))
    else:
        assert acting and not state.is_terminal()
        if d["phase"] == "plan":
            assert acting == tuple(range(n))
        else:
            assert acting == (d["turn_order"][d["turn"]],)
            assert sorted(d["turn_order"]) == list(range(n))
        for seat in acting:
            moves = state.legal_actions(seat)
            assert moves
            texts = [str(m) for m in moves]
            assert len(set(texts)) == len(texts)
            if "pass" in texts:
                assert texts == ["pass"]
    return d


def check_step(before: dict, after: dict, actor: int | None, action, game) -> None:
    """VP never decrease, and change only as the acting seat's trade or Tribute says."""
    n = game.players
    gained = [after["vp"][s] - before["vp"][s] for s in range(n)]
    assert min(gained) >= 0, gained
    expected = [0] * n
    if actor is not None:
        v = values(hexes(before))
        suit = game.suit_of
        if action.kind == "trade" and action.args[1] != "deck":
            given, taken = action.args
            expected[actor] = max(0, v[suit[given]] - v[suit[taken]])  # OZD-16
        elif action.kind == "tribute":
            colour = suit[before["played"][actor]]
            expected[actor] = v[colour] - 1  # E7 (the reference deck's minus is 1)
    assert gained == expected, (str(action), gained, expected)
    assert after["round"] - before["round"] in (0, 1)


def check_views(state, d: dict) -> None:
    """No view shows another seat's hand, the deck or, to anyone but the looker, an Augury's
    cards (the event log, which names cards traded in the open, is left out)."""
    n = state.game.players
    name = {c.rank: f"{LETTERS[c.suit]}{c.rank}" for c in state.game.cards}
    for seat in (None, *range(n)):
        view = state.view(seat)
        text = json.dumps({k: v for k, v in view.items() if k != "events"})
        hidden = set(d["deck"])
        for other in range(n):
            if other != seat:
                hidden |= set(d["hands"][other])
        looker = d["turn_order"][d["turn"]] if d["step"] == "augury" else None
        if seat != looker:
            hidden |= set(d["augury_pool"])
        shown = [name[c] for c in hidden if f'"{name[c]}"' in text]
        assert not shown, (seat, shown)
        if seat is not None:
            assert view["hand"] == [name[c] for c in sorted(d["hands"][seat])]
            assert ("augury" in view) == (seat == looker)
        assert view["hand_sizes"] == [len(h) for h in d["hands"]]
        assert view["vp"] == d["vp"]


def play(game, seed: int, heuristic, rng: random.Random, every_view: int = 5) -> object:
    state = game.new_initial_state(seed)
    bots = {s: make_bot("heuristic", game, s, seed) for s in range(game.players)
            if heuristic[s]}
    d = check_invariants(state)
    ranks: list[int] | None = None
    steps = 0
    while not state.is_terminal():
        joint = {}
        for seat in state.current_players():
            moves = state.legal_actions(seat)
            if seat in bots:
                joint[seat] = bots[seat].act(state.view(seat), moves)
                assert joint[seat] in moves  # the bot only plays legal actions
            else:
                joint[seat] = rng.choice(moves)
            if steps % 3 == 0:  # every legal action's text reads back to it
                for move in moves:
                    assert game.parse_action(str(move), seat) == move
        actor = None if len(joint) > 1 else next(iter(joint))
        action = None if actor is None else joint[actor]
        state.apply_actions(joint)
        after = check_invariants(state)
        check_step(d, after, actor, action, game)
        # initiative: the raise in ascending rank, the trades in descending rank (OZD-12)
        if d["phase"] == "plan" and after["phase"] == "raise":
            ranks = after["played"]
            assert after["turn_order"] == sorted(range(game.players), key=lambda s: ranks[s])
            assert state.view(None)["played"] == [
                f"{LETTERS[game.suit_of[r]]}{r}" for r in ranks]
        if d["phase"] == "raise" and after["phase"] == "trade":
            assert ranks is not None
            assert after["turn_order"] == sorted(range(game.players), key=lambda s: -ranks[s])
        d = after
        steps += 1
        if steps % every_view == 0 and not state.is_terminal():
            check_views(state, d)
        if steps % 40 == 0:  # the JSON form is the whole state
            again = game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert again.digest() == state.digest()
            assert [list(again.legal_actions(s)) for s in again.current_players()] == [
                list(state.legal_actions(s)) for s in state.current_players()]
    return state


@settings(max_examples=300, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA),
       heuristic=st.lists(st.booleans(), min_size=4, max_size=4),
       max_rounds=st.sampled_from([6, 30]))
def test_invariants_after_every_step(seed, players, variant, extra, heuristic, max_rounds):
    extra = {"max_rounds": max_rounds, **extra}
    game = load_game(GAME, variant=variant, players=players, **extra)
    state = play(game, seed, heuristic, random.Random(seed))
    assert state.is_terminal() and 1 <= state.length() <= game.params["max_rounds"]


@settings(max_examples=120, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA))
def test_random_playouts_and_clones(seed, players, variant, extra):
    """Uniform random playouts (state.playout) keep the invariants; a clone is independent."""
    game = load_game(GAME, variant=variant, players=players, **extra)
    state = game.new_initial_state(seed)
    state.playout(random.Random(seed), max_steps=60)
    check_invariants(state)
    copy = state.clone()
    digest = state.digest()
    copy.playout(random.Random(seed + 1))
    assert state.digest() == digest
    check_invariants(copy)
    assert copy.is_terminal()


@settings(max_examples=80, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       variant=st.sampled_from(VARIANTS), extra=st.sampled_from(EXTRA))
def test_heuristic_bots_only_play_legal_actions(seed, players, variant, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    state = play(game, seed, [True] * 4, random.Random(seed), every_view=25)
    assert state.is_terminal()


def test_heuristic_beats_random_clearly() -> None:
    """60 three-seat games, one heuristic seat (rotating) against two random bots."""
    game = load_game(GAME, players=3)
    heuristic_vp, random_vp, wins, games = [], [], 0.0, 60
    for i in range(games):
        seed, hseat = 7000 + i, i % 3
        state = game.new_initial_state(seed)
        bots = {s: make_bot("heuristic" if s == hseat else "random", game, s, seed)
                for s in range(3)}
        while not state.is_terminal():
            joint = {}
            for seat in state.current_players():
                moves = state.legal_actions(seat)
                joint[seat] = bots[seat].act(state.view(seat), moves)
                assert joint[seat] in moves
            state.apply_actions(joint)
        vp = state.scores()
        heuristic_vp.append(vp[hseat])
        random_vp.extend(v for s, v in enumerate(vp) if s != hseat)
        wins += state.returns()[hseat]
    mean_h = sum(heuristic_vp) / len(heuristic_vp)
    mean_r = sum(random_vp) / len(random_vp)
    assert mean_h >= 2 * mean_r, (mean_h, mean_r)
    assert wins >= 0.75 * games, wins  # a fair share would be 20
