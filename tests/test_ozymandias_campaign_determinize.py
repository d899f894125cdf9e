"""Ozymandias (campaign edition): determinization and the search evaluator.

The generic checks (a sampled state gives the seat the same view and legal actions, plays to
the end) are in tests/test_determinization.py; here: the sampled state holds exactly the
content of a real state (every card and tile once, workers and cubes conserved), copies every
public part, keeps the seat's own hand, draws the hidden parts (other hands, deck and tile deck
orders), keeps a pending war card from the other seats, and the evaluator's estimates.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from meeple import load_game
from meeple.games.ozymandias_campaign.bot import HeuristicBot
from meeple.games.ozymandias_campaign.evaluate import evaluate, expected_vp
from meeple.games.ozymandias_campaign.moves import HARVEST, LAID, TAPPED

GAME = "ozymandias-campaign"

#: Fields copied from the view: equal in the sampled and the true state.
PUBLIC = ("map", "discard_names", "tableaus_named", "incoming", "unrest", "vp", "bag", "supply",
          "standing", "stacks", "active", "step", "turns", "owed", "mig_pos", "mig_out", "war",
          "explore_at", "drawn_tile", "trigger", "last_seat", "cubes_in", "cubes_out",
          "winners_", "truncated", "_acting")


def name(state, card: int) -> str:
    return state.card_text(card)


def public(state, field: str):
    if field == "discard_names":
        return [name(state, c) for c in state.discard]
    if field == "tableaus_named":
        return [[[name(state, r[0]), *r[1:]] for r in t] for t in state.tableaus]
    if field == "standing":
        return dict(state.standing)
    return getattr(state, field)


def workers(state, seat: int) -> int:
    return (state.bag[seat] + state.supply[seat] + list(state.standing.values()).count(seat)
            + sum(s.count(seat) for s in state.stacks.values())
            + sum(r[LAID] + r[HARVEST] for r in state.tableaus[seat]))


def cubes_held(state, suit: int) -> int:
    return (sum(i[suit] for i in state.incoming)
            + sum(r[1 + suit] for t in state.tableaus for r in t))


def all_cards(state) -> list[int]:
    return sorted([*state.deck, *state.discard, *(c for h in state.hands for c in h),
                   *(r[0] for t in state.tableaus for r in t)])


def all_tiles(state) -> list[int]:
    index = state.game.tile_index
    placed = [index[p.tile.id] for p in state.map.placements]
    drawn = [] if state.drawn_tile is None else [state.drawn_tile]
    return sorted([*placed, *drawn, *state.tile_deck])


def heuristic_states(game, seed: int, every: int = 9):
    """States along a heuristic-bot playthrough (every ``every`` steps, and the last)."""
    state = game.new_initial_state(seed)
    bots = [HeuristicBot(game, s, seed + s) for s in range(game.players)]
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        for s in state.current_players():
            state.apply_action(bots[s].act(state.view(s), state.legal_actions(s)), s)
        step += 1
    yield state


def state_at_war(players: int = 3):
    """A state at a war decision (heuristic play; the first seed from 5 that has one)."""
    game = load_game(GAME, players=players)
    for seed in range(5, 60):
        for state in heuristic_states(game, seed, every=1):
            if state.step == "war":
                return game, state
    pytest.fail("no war in 55 heuristic games")


@pytest.mark.parametrize("variant,players", [("seed", 2), ("seed", 4), ("18ad11a", 5),
                                             ("literal", 3), ("cfa0da0", 6)])
def test_sampled_state_holds_the_true_content_and_public_parts(variant, players) -> None:
    game = load_game(GAME, variant, players)
    rng = random.Random(1)
    checked = 0
    for state in heuristic_states(game, 3):
        for seat in range(players):
            sample = game.determinize(state.view(seat), rng)
            assert all_cards(sample) == list(range(len(game.cards)))
            assert all_tiles(sample) == list(range(len(game.tiles)))
            assert all_cards(state) == all_cards(sample)
            for s in range(players):
                assert workers(sample, s) == workers(state, s) == game.params["workers"]
            for suit in range(3):
                assert cubes_held(sample, suit) == cubes_held(state, suit)
                assert cubes_held(sample, suit) == sample.cubes_in[suit] - sample.cubes_out[suit]
            for field in PUBLIC:
                assert public(sample, field) == public(state, field), field
            assert len(sample.deck) == len(state.deck)
            assert sorted(sample.tile_deck) == sorted(state.tile_deck)
            # the unseen cards are the same multiset of names, wherever they were dealt
            unseen = [c for s in range(players) if s != seat for c in state.hands[s]]
            unseen_sample = [c for s in range(players) if s != seat for c in sample.hands[s]]
            assert Counter(name(state, c) for c in unseen + state.deck) == \
                Counter(name(sample, c) for c in unseen_sample + sample.deck)
            checked += 1
    assert checked > 20


def test_own_hand_is_exact_and_hidden_parts_are_redrawn() -> None:
    game = load_game(GAME, players=4)
    state = next(s for i, s in enumerate(heuristic_states(game, 8)) if i == 3)
    seat = 2
    view = state.view(seat)
    samples = [game.determinize(view, random.Random(k)) for k in range(8)]
    others = [s for s in range(4) if s != seat]
    for sample in samples:
        assert sorted(name(sample, c) for c in sample.hands[seat]) == \
            sorted(name(state, c) for c in state.hands[seat]) == view["hand"]
        for s in others:
            assert len(sample.hands[s]) == len(state.hands[s])
        assert len(sample.deck) == len(state.deck) == view["deck_size"]
        assert len(sample.tile_deck) == len(state.tile_deck)
    assert len(state.tile_deck) >= 2 and len(state.deck) >= 2
    hands = {tuple(sorted(name(x, c) for s in others for c in x.hands[s])) for x in samples}
    decks = {tuple(x.deck) for x in samples}
    tiles = {tuple(x.tile_deck) for x in samples}
    assert len(hands) > 1 and len(decks) > 1 and len(tiles) > 1
    # and the true state was not touched
    assert state.view(seat) == view


def test_a_pending_war_card_stays_with_its_seat() -> None:
    game, state = state_at_war(3)
    attacker, defender = state.war[2], state.war[3]
    bystander = ({0, 1, 2} - {attacker, defender}).pop()
    card = state.legal_actions(attacker)[-1]
    state.apply_action(card, attacker)

    own = state.view(attacker)
    assert own["my_submission"] == str(card) and own["submitted"] == [attacker]
    for k in range(5):
        sample = game.determinize(own, random.Random(k))
        assert sample._pending == {attacker: card}
        assert sample.view(attacker) == own
    for seat in (defender, bystander):
        view = state.view(seat)
        assert "my_submission" not in view and view["submitted"] == [attacker]
        assert str(card) not in str(view["events"])
        drawn = set()
        for k in range(12):
            sample = game.determinize(view, random.Random(k))
            assert sample.view(seat) == view
            assert sorted(sample._pending) == [attacker]
            pending = sample._pending[attacker]
            assert pending.kind == "fight"  # a card of the attacker's sampled hand
            assert name(sample, sample._take(attacker, *pending.args)) == str(pending)[6:]
            drawn.add(str(pending))
        assert len(drawn) > 1  # the attacker's card is guessed, not known


def test_the_view_carries_the_public_counters() -> None:
    """Turns, cubes in and out of the supply and the cubes given right so far in a migration
    (which decide the unrest returned at its end) are public and survive sampling."""
    game = load_game(GAME, players=3)
    state = game.new_initial_state(4)
    walk = random.Random(0)
    for _ in range(3000):
        view = state.view(0)
        assert view["turns"] == state.turns
        assert list(view["migrated_out"].values()) == state.mig_out
        assert list(view["cubes_in"].values()) == state.cubes_in
        assert list(view["cubes_out"].values()) == state.cubes_out
        if state.step == "migrate" and any(state.mig_out):
            sample = game.determinize(view, random.Random(1))
            assert sample.mig_out == state.mig_out and sample.turns == state.turns
            while state.step == "migrate":  # both finish the migration alike
                move = state.legal_actions()[-1]
                state.apply_action(move)
                sample.apply_action(move)
            assert sample.unrest == state.unrest and sample.incoming == state.incoming
            return
        state.apply_action(walk.choice(state.legal_actions(state.current_players()[0])),
                           state.current_players()[0])
    pytest.fail("no migration gave cubes out in 3000 random steps")


def test_evaluator_values_are_win_shares_and_terminal_returns() -> None:
    for players in (2, 4, 6):
        game = load_game(GAME, players=players)
        assert game.state_evaluator() is evaluate
        last = None
        for state in heuristic_states(game, 11):
            values = evaluate(state)
            assert len(values) == players
            assert all(0.0 <= v <= 1.0 for v in values)
            if not state.is_terminal():
                assert sum(values) == pytest.approx(1.0)
            last = state
        assert last.is_terminal()
        assert evaluate(last) == last.returns()
        assert max(last.returns()) > 0


def test_a_seat_ahead_evaluates_higher() -> None:
    game = load_game(GAME, players=3)
    state = next(s for i, s in enumerate(heuristic_states(game, 2)) if i == 4)
    assert not state.is_terminal()
    ahead, middle, behind = state.clone(), state.clone(), state.clone()
    ahead.vp = [4, 15, 4]
    middle.vp = [4, 5, 4]
    behind.vp = [4, 0, 4]
    assert evaluate(ahead)[1] > evaluate(middle)[1] > evaluate(behind)[1]
    assert evaluate(ahead)[1] == max(evaluate(ahead))
    assert evaluate(ahead)[0] < evaluate(behind)[0]
    # the last VP before the target weigh more than the first ones (cooler softmax)
    near = state.clone()
    near.vp = [19, 14, 14]
    far = state.clone()
    far.vp = [5, 0, 0]
    for s in (near, far):
        s.tableaus = [[], [], []]
        s.incoming = [[0, 0, 0]] * 3
        s.unrest = [0, 0, 0]
        s.hands = [[], [], []]
    assert evaluate(near)[0] > evaluate(far)[0] > 1 / 3


def test_progress_in_the_tableau_counts() -> None:
    """A harvested tapped card with its cubes, and a laid-down worker on it, raise the
    seat's expected VP and its share; unrest lowers them."""
    game = load_game(GAME, players=2)
    state = game.new_initial_state(0)
    card = next(i for i, c in enumerate(game.cards) if c.suit == 0 and c.rank == 4)
    state.tableaus = [[], []]
    state.incoming = [[0, 0, 0], [0, 0, 0]]
    state.hands = [[], []]
    base = expected_vp(state, 0)
    row = [card, 4, 0, 0, 1, 0, 1]  # four gold cubes, tapped, harvest worker: 10 VP at intake
    state.tableaus[0] = [row]
    harvested = expected_vp(state, 0)
    assert harvested >= base + 10
    row[LAID] = 1
    assert expected_vp(state, 0) > harvested
    assert evaluate(state)[0] > 0.5 > evaluate(state)[1]
    row[TAPPED] = 0
    row[1] = 0
    row[HARVEST] = 0
    fresh = expected_vp(state, 0)
    assert base < fresh < harvested
    state.unrest[0] = 2
    assert expected_vp(state, 0) < fresh


def test_mid_intake_values_what_the_cubes_make() -> None:
    """While a seat distributes its cubes, a harvested tapped card counts the points its
    cubes and the incoming ones make (it collapses at the end of the intake): taking the
    intake shows the gain at once, the right cubes keep it, and the collapse realises it."""
    game = load_game(GAME, players=2)
    state = game.new_initial_state(0)
    card = next(i for i, c in enumerate(game.cards) if c.suit == 0 and c.rank == 4)
    seat = state.active
    state.tableaus[seat] = [[card, 0, 0, 0, 1, 0, 1]]  # G4, tapped, harvest worker
    state.incoming[seat] = [4, 0, 0]
    state._legal = None
    holding = expected_vp(state, seat)
    early = state.clone()
    state.apply_action(game.parse_action("intake", seat))
    distributing = expected_vp(state, seat)
    assert distributing > holding + 3
    for _ in range(3):
        state.apply_action(game.parse_action("cube G 1", seat))
        assert expected_vp(state, seat) == pytest.approx(distributing, abs=0.25)
    state.apply_action(game.parse_action("cube G 1", seat))  # the last cube: it collapses
    assert state.vp[seat] == 10 and not state.tableaus[seat]  # four gold cubes, cap 4
    assert expected_vp(state, seat) == pytest.approx(distributing, abs=0.5)
    early.apply_action(game.parse_action("intake", seat))
    early.apply_action(game.parse_action("pass", seat))  # collapses with no cube: 0 VP
    assert early.vp[seat] == 0
    assert expected_vp(early, seat) < distributing - 9
