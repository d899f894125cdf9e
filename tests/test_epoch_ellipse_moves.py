"""Epoch Ellipse: the fast paths of the rules code against the general ones.

The legal tables are remembered on the game spec under ``moves.legal_key``; these tests play
many games (random and heuristic seats, every named variant and the parameter switches the
generator reads, and determinizations) with one spec each, so the memo is asked about many
states that share a key, and check every table it hands out against a fresh run of the
generator: the same moves, in the same order. The per-type payment tables are checked against
the payment rule (``paying_modes``) applied card by card. The evaluator's packed counts and
its remembered work are checked against plain per-card sums and a fresh computation, its
chance against the model's inputs computed one at a time.
"""

from __future__ import annotations

import math
import random

import pytest

from meeple import load_game
from meeple.games.epoch_ellipse import evaluate
from meeple.games.epoch_ellipse.actions import slug
from meeple.games.epoch_ellipse.cards import CATASTROPHE, SALVAGE
from meeple.games.epoch_ellipse.moves import (
    legal_key,
    legal_moves,
    legal_tables,
    paying_modes,
)
from tests.playthrough import check_remembered_tables, playthrough, states_and_draws

GAME = "epoch-ellipse"
CONFIGS = [("seed", 3, {}), ("seed", 1, {}), ("hard", 5, {}), ("d6", 2, {}),
           ("strict", 3, {}), ("forgiving", 4, {}),
           ("seed", 4, {"hand_size": 3, "explore_max": 2, "dead_survivor": "removed"})]


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_remembered_legal_tables_are_the_generators(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    remembered = sum(check_remembered_tables(state, legal_key, legal_tables, legal_moves)
                     for state in states_and_draws(game, 6, 2, 9))
    # Many tables came from the memo (hundreds in every configuration), so they were checked.
    assert remembered >= 100


def test_a_determinizations_states_share_the_searchers_own_table():
    """(The shared contract: tests/test_determinization.py.) Two draws hand the searching seat
    the same table object; two playthroughs generate theirs afresh."""
    game = load_game(GAME)
    state = game.new_initial_state(seed=3)
    again = game.new_initial_state(seed=3)
    assert state.tables is None
    (seat,) = state.current_players()
    assert state.legal_actions(seat) == again.legal_actions(seat)
    assert state.legal_actions(seat) is not again.legal_actions(seat)  # generated afresh
    draw = game.determinizer(state.view(seat))
    first, second = draw(random.Random(1)), draw(random.Random(2))
    assert first.legal_actions(seat) is second.legal_actions(seat)
    assert state.legal_actions(seat) == first.legal_actions(seat)


def _perturbed(state):
    """Copies of ``state`` with one field the generator may read changed each (not always a
    reachable state: the generator only reads them)."""
    seat = state._acting[0]
    game = state.game
    kinds = game.kinds
    other = (seat + 1) % game.players
    cats = [c for c in range(len(kinds)) if kinds[c] == CATASTROPHE]
    salvage = [c for c in range(len(kinds)) if kinds[c] == SALVAGE]
    changes = [
        lambda s: s.hands[seat][:] and s.hands[seat].pop(0),
        lambda s: s.hands[seat][:] and s.hands[seat].pop(),
        lambda s: s.hands[seat].append(cats[0]),
        lambda s: s.hands[seat].append(salvage[-1]),
        lambda s: s.hands[other].append(salvage[0]),
        lambda s: s.hands[other].clear(),
        lambda s: s.discards[seat].append(cats[1]),
        lambda s: s.discards[seat].clear(),
        lambda s: s.status.__setitem__(other, "dead"),
        lambda s: s.status.__setitem__(other, "alive"),
        lambda s: s.traded.add((min(seat, other), max(seat, other))),
        lambda s: s.traded.clear(),
        lambda s: s.ms_card.__setitem__(other, salvage[1]),
        lambda s: s.ms_card.__setitem__(other, None),
        lambda s: setattr(s, "explorer", other),
        lambda s: setattr(s, "explorer", seat),
        lambda s: s.expl_salvage.append(salvage[2]),
        lambda s: s.expl_salvage.clear(),
        lambda s: s.pool.append([salvage[3]]),
        lambda s: s.pool[:] and s.pool.pop(),
        lambda s: s.location_deck.clear(),
        lambda s: s.event_decks[-1][:] and s.event_decks[-1].pop(),
        lambda s: s.event_decks[-1].clear(),
        lambda s: s.event_decks[0].append(cats[2]),
        lambda s: s.tokens.__setitem__(-1, 0),
        lambda s: s.tokens.__setitem__(-1, s.tokens[-1] + 1),
    ]
    for change in changes:
        copy = state.clone()
        change(copy)
        yield copy


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS + [
    ("seed", 3, {"stabilize_window": "anytime", "no_recovered_explore": True})])
def test_the_key_changes_whenever_the_legal_list_does(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    differing = 0
    for g in range(3):
        for state in playthrough(game, 100 + g, random.Random(g)):
            for seat in state.current_players():
                key, legal = legal_key(state, seat), legal_moves(state, seat)
                for other in _perturbed(state):
                    if legal_moves(other, seat) != legal:
                        differing += 1
                        assert legal_key(other, seat) != key, (state.phase, state.step)
    assert differing >= 100  # the changes did reach the generator


def test_payment_tables_follow_the_payment_rule():
    """The moves a type pays with (listed once per seat, kind and points) are exactly the
    rule's: each paying mode of each hand type, salvage only under medical_salvage_only."""
    for extra in ({}, {"medical_salvage_only": True}):
        game = load_game(GAME, players=2, **extra)
        cards = game.content.cards
        checked = 0
        for state in playthrough(game, 7, random.Random(7)):
            (seat,) = state.current_players()
            wanted = {"combat": ("weapon",), "collapse": ("medical", "avoid_collapse"),
                      "hunger": ("food",)}.get(state.step)
            if wanted is None:
                continue
            legal = [str(m) for m in legal_moves(state, seat)]
            types = sorted({game.ctype[c] for c in state.hands[seat]})
            kind = "eat" if state.step == "hunger" else "use"
            expected = [str(game.parse_action(f"{kind} {slug(cards[t].name)} {mode}", seat))
                        for t in types
                        if not extra or cards[t].kind == SALVAGE
                        for mode in paying_modes(cards[t], wanted)]
            assert legal[:len(expected)] == expected
            checked += len(expected)
        assert checked >= 5


def test_the_memo_stays_within_its_bound(monkeypatch):
    from meeple.games.epoch_ellipse import moves

    monkeypatch.setattr(moves, "TABLES_MEMO", 50)
    game = load_game(GAME)
    state = game.new_initial_state(seed=1)
    walk = random.Random(1)
    draw = game.determinizer(state.view(state.current_players()[0]))
    sizes = []
    for k in range(100):
        drawn = draw(random.Random(k))
        while not drawn.is_terminal() and walk.random() < 0.95:
            drawn.apply_actions({s: walk.choice(drawn.legal_actions(s))
                                 for s in drawn.current_players()})
            sizes.append(len(game.legal_memo))
    assert max(sizes) == 50  # filled up, emptied, never more


def _plain_raw(state, tab) -> tuple[int, ...]:
    """``evaluate._raw`` as plain sums over the per-instance tables, its work fresh (no
    packing, no memo)."""
    counts = state.game.packed_counts()
    cat, food, medical = counts.cat, counts.food, counts.medical
    vp = state.recovered_vp()
    work = evaluate._work(state, tab, tab.target - vp)
    alive = critical = danger = cats = size = foods = medicals = 0
    explorer = state.explorer if state.phase == "explore" else -1
    for seat, status in enumerate(state.status):
        if status != "alive":
            continue
        alive += 1
        hand, discard = state.hands[seat], state.discards[seat]
        near = sum(cat[c] for c in discard) + sum(cat[c] for c in hand)
        if seat == explorer:
            near += len(state.expl_cats) + (state.current is not None)
        danger += near
        critical += near >= 2
        cards = state.draws[seat] + hand + discard
        size += len(cards)
        cats += sum(cat[c] for c in cards)
        foods += sum(food[c] for c in cards)
        medicals += sum(medical[c] for c in cards)
    return vp, work, alive, len(state.pool), danger, critical, cats, size, foods, medicals


def _plain_chance(state, tab) -> float:
    """``evaluate.team_chance`` one input at a time (a list of features, ``min``, then the
    weighted sum in a loop): the same float operations in the same order."""
    vp, work, alive, pool, danger, critical, cats, _, foods, medicals = _plain_raw(state, tab)
    target, seats = state.game.params["target_vp"], state.game.players
    features = [min(vp, target) / target, min(work, 40) / 20.0, alive / 5.0,
                min(pool, 3) / 3.0, danger / seats / 3.0, critical / seats,
                cats / seats / 10.0, foods / seats / 10.0, medicals / seats / 5.0]
    z = evaluate.BIAS
    for weight, x in zip(evaluate.WEIGHTS, features, strict=True):
        z += weight * x
    return 0.0 if z < -30.0 else 1.0 / (1.0 + math.exp(-z))


@pytest.mark.parametrize(("variant", "players"), [("seed", 3), ("hard", 5), ("easy", 1)])
def test_the_evaluators_fast_counts_are_the_plain_ones(variant, players):
    game = load_game(GAME, variant=variant, players=players)
    tab = evaluate._tables(game)
    checked = remembered = 0
    for g in range(4):
        for step, state in enumerate(playthrough(game, g, random.Random(g))):
            states = [state]
            if step % 6 == 0:
                draw = game.determinizer(state.view(state.current_players()[0]))
                states += [draw(random.Random(k)) for k in range(3)]
            for s in states:
                key = (tuple(s.locations), tuple(s.tokens), frozenset(s.location_deck))
                remembered += key in tab.works
                assert evaluate._raw(s) == _plain_raw(s, tab)
                if not s.is_terminal():  # bit for bit, not approximately
                    assert evaluate.team_chance(s) == _plain_chance(s, tab)
                checked += 1
    assert checked >= 100 and remembered >= 20


def _plain_trades(state, seat) -> list[str]:
    """The trade offers by the rule (2. PLAN; EPE-7), enumerated directly."""
    game = state.game
    cards, ctype = game.content.cards, game.ctype

    def salvage(s):
        return sorted({ctype[c] for c in state.hands[s] if cards[ctype[c]].kind == SALVAGE})

    out = []
    for partner, status in enumerate(state.status):
        if partner == seat or status != "alive" or (min(seat, partner),
                                                     max(seat, partner)) in state.traded:
            continue
        out += [f"trade {partner} {slug(cards[g].name)} {slug(cards[r].name)}"
                for g in salvage(seat) for r in salvage(partner) if g != r]
    return out


def _plain_explores(state) -> list[str]:
    """The explore moves by the rule (3A, 3B; EPE-15, EPE-41), enumerated directly."""
    p = state.game.params
    out = ["new"] if state.location_deck else []
    for pos, deck in enumerate(state.event_decks):
        if not deck or (p["no_recovered_explore"] and state.tokens[pos] == 0):
            continue
        counts = ["roll"] if p["explore_count"] == "d6" else range(
            1, min(p["explore_max"], len(deck)) + 1)
        out += [f"explore {pos + 1} {k}" for k in counts]
    return out


@pytest.mark.parametrize(("variant", "players", "extra"), CONFIGS)
def test_trade_and_explore_tables_follow_the_rules(variant, players, extra):
    game = load_game(GAME, variant=variant, players=players, **extra)
    trades = explores = 0
    for g in range(4):
        for state in playthrough(game, 200 + g, random.Random(g)):
            (seat,) = state.current_players()
            texts = [str(m) for m in legal_moves(state, seat)]
            if state.step == "plan":
                expected = _plain_trades(state, seat)
                assert [t for t in texts if t.startswith("trade ")] == expected
                trades += len(expected)
            elif state.step == "choose":
                expected = _plain_explores(state)
                assert [t for t in texts if t == "new" or t.startswith("explore ")] == expected
                explores += len(expected)
    assert explores >= 20 and (trades >= 20 or players == 1)
