"""Epoch Ellipse determinization and evaluator (rules page section 11): what is copied, what is
drawn, and what the search's cut-off estimate says."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from meeple import load_game
from meeple.engine.errors import ParameterError
from meeple.games.epoch_ellipse.bot import HeuristicBot
from meeple.games.epoch_ellipse.cards import CATASTROPHE, NIGHT, SALVAGE, SURVIVOR
from meeple.games.epoch_ellipse.evaluate import evaluate, team_chance


def _play(game, seed: int, steps: int | None, eps: float = 0.0):
    """A state after ``steps`` moves of a heuristic team (choosing at random ``eps`` of the
    time), or at the end when ``steps`` is None."""
    state = game.new_initial_state(seed)
    bots = [HeuristicBot(game, s, 0) for s in range(game.players)]
    walk = random.Random(seed)
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        (seat,) = state.current_players()
        legal = state.legal_actions(seat)
        move = walk.choice(legal) if walk.random() < eps else bots[seat].act(
            state.view(seat), legal)
        state.apply_action(move, seat)
        done += 1
    return state


def _all_cards(state) -> list[int]:
    out = [c for deck in state.decks.values() for c in deck] + state.night_discard
    out += [c for deck in state.event_decks for c in deck]
    out += [c for pile in state.pool for c in pile] + state.removed
    for s in range(state.game.players):
        out += state.draws[s] + state.hands[s] + state.discards[s]
        if state.ms_card[s] is not None:
            out.append(state.ms_card[s])
    out += state.expl_cats + state.expl_survivors + state.expl_salvage + (state.rescue or [])
    if state.current is not None:
        out.append(state.current)
    return out


def _types(state, cards) -> list[str]:
    return [state.name(c) for c in cards]


@pytest.fixture(scope="module")
def midgame():
    """Three seats on day 3 or later, with trashed cards in the Graveyard."""
    game = load_game("epoch-ellipse", players=3)
    state = _play(game, 4, 90)
    assert not state.is_terminal() and state.day >= 3
    assert state.event_decks[0], "the Graveyard should hold trashed cards by now"
    return game, state


def test_every_card_is_somewhere_exactly_once_and_public_parts_are_copied(midgame) -> None:
    game, state = midgame
    sampled = game.determinize(state.view(1), random.Random(3))
    assert sorted(_all_cards(sampled)) == list(range(len(game.ctype)))
    assert Counter(_types(sampled, _all_cards(sampled))) == Counter(
        _types(state, _all_cards(state)))
    for s in range(game.players):  # public piles, in order
        assert _types(sampled, sampled.hands[s]) == _types(state, state.hands[s])
        assert _types(sampled, sampled.discards[s]) == _types(state, state.discards[s])
        # a deck's contents are public, its order hidden
        assert Counter(_types(sampled, sampled.draws[s])) == Counter(
            _types(state, state.draws[s]))
    assert [_types(sampled, p) for p in sampled.pool] == [_types(state, p) for p in state.pool]
    assert _types(sampled, sampled.night_discard) == _types(state, state.night_discard)
    assert sampled.locations == state.locations and sampled.tokens == state.tokens
    assert sorted(sampled.location_deck) == sorted(state.location_deck)
    for field in ("day", "phase", "step", "first", "turn", "queue", "passes", "traded",
                  "status", "death_cause", "hungry", "credits", "offer", "result"):
        assert getattr(sampled, field) == getattr(state, field), field
    assert sampled.view(1) == state.view(1)


def test_hidden_parts_have_the_right_sizes_and_kinds(midgame) -> None:
    game, state = midgame
    sampled = game.determinize(state.view(0), random.Random(5))
    for kind in (SALVAGE, SURVIVOR, CATASTROPHE, NIGHT):
        assert len(sampled.decks[kind]) == len(state.decks[kind])
        # only the shared supply of that kind can be in a shared deck
        assert set(sampled.decks[kind]) <= set(game.shared[kind])
    for pos, deck in enumerate(sampled.event_decks):
        assert len(deck) == len(state.event_decks[pos])
        assert sampled.catastrophes_in(deck) == sampled.tokens[pos]
    night = Counter(_types(state, state.decks[NIGHT]))
    assert Counter(_types(sampled, sampled.decks[NIGHT])) == night  # known: not discarded


def test_deck_orders_and_event_contents_are_drawn(midgame) -> None:
    game, state = midgame
    view = state.view(2)
    samples = [game.determinize(view, random.Random(k)) for k in range(6)]
    assert len({tuple(s.decks[CATASTROPHE]) for s in samples}) > 1
    assert len({tuple(s.decks[SALVAGE]) for s in samples}) > 1
    assert len({tuple(sorted(_types(s, s.event_decks[0]))) for s in samples}) > 1
    seat = max(range(game.players), key=lambda s: len(state.draws[s]))
    assert len(state.draws[seat]) > 1
    assert len({tuple(_types(s, s.draws[seat])) for s in samples}) > 1
    for s in samples:  # the same contents every time, in another order
        assert sorted(_types(s, s.draws[seat])) == sorted(_types(state, state.draws[seat]))


class _OwnRandom(random.Random):
    """A generator type of its own: the determinizer orders cards one by one with it."""


def test_a_draw_is_the_same_with_cards_ordered_at_once_or_one_by_one(midgame) -> None:
    """The determinizer's draws from a plain ``random.Random`` (every deck ordered at once)
    and from a generator type of its own (one by one) are the same states, and leave the
    stream at the same point."""
    game, state = midgame
    for seat in range(game.players):
        draw = game.determinizer(state.view(seat))
        for k in range(5):
            plain, own = random.Random(k), _OwnRandom(k)
            assert draw(plain).digest() == draw(own).digest()
            assert plain.random() == own.random()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draws_at_once_equal_draws_one_by_one_at_many_positions(players) -> None:
    """At positions through whole games (starter catastrophes among the unseen cards, an
    exploration in progress, the end): the determinizer's later draws from a plain
    ``random.Random`` (orders at once, starter catastrophes placed with ``randrange``'s own
    draws) equal the one-by-one draws of a generator type of its own, leave the stream at
    the same point, and give every seat the true view."""
    game = load_game("epoch-ellipse", players=players)
    starter_cats = {c for seat in game.starters for c in seat if game.kinds[c] == CATASTROPHE}
    met = Counter()
    for seed in range(3):
        for steps in (10, 40, 70, 100, 130, None):
            state = _play(game, seed, steps, eps=0.2)
            met["starter"] += any(c in starter_cats for d in state.event_decks for c in d)
            met["exploring"] += state.explorer >= 0
            met["ended"] += state.is_terminal()
            draw = game.determinizer(state.view(seed % players))
            draw(random.Random(99))  # the first draw: one by one
            for k in range(3):
                plain, own = random.Random(k), _OwnRandom(k)
                sampled = draw(plain)
                assert sampled.digest() == draw(own).digest()
                assert plain.random() == own.random()
                for seat in range(players):
                    assert sampled.view(seat) == state.view(seat)
    assert met["starter"] and met["exploring"] and met["ended"], met


def test_the_view_is_the_same_for_every_seat_and_nothing_is_pending(midgame) -> None:
    """No simultaneous decisions (X-2): no submission to keep or hide; every seat's sample
    gives every seat the true view."""
    game, state = midgame
    assert not game.capabilities.simultaneous
    for seat in range(game.players):
        view = state.view(seat)
        assert view["submitted"] == [] and "my_submission" not in view
        sampled = game.determinize(view, random.Random(seat))
        assert sampled._pending == {}
        assert sampled.current_players() == state.current_players()
        for other in range(game.players):
            assert sampled.view(other) == state.view(other)


def test_a_win_during_an_exploration_keeps_the_unshown_cards() -> None:
    """The game won in the middle of an exploration: the view no longer shows the flipped
    cards still to resolve, yet the sample holds every card."""
    game = load_game("epoch-ellipse", players=2)
    state = _play(game, 0, None)
    assert state.result == "won" and state.expl_cats + state.expl_salvage
    sampled = game.determinize(state.view(0), random.Random(1))
    assert sampled.is_terminal() and sampled.view(0) == state.view(0)
    assert sorted(_all_cards(sampled)) == list(range(len(game.ctype)))


def test_a_view_whose_cards_do_not_add_up_is_refused(midgame) -> None:
    game, state = midgame
    view = state.view(0)
    view["players"][0]["deck_cards"] = view["players"][0]["deck_cards"] + ["SIRENS IN THE DARK"]
    with pytest.raises(ParameterError):
        game.determinize(view, random.Random(0))


# ------------------------------------------------------------------------------ evaluator
def test_evaluator_values_per_seat_in_range(midgame) -> None:
    game, _ = midgame
    state = game.new_initial_state(2)
    walk = random.Random(2)
    for _ in range(150):
        if state.is_terminal():
            break
        values = evaluate(state)
        assert len(values) == game.players
        assert all(0.0 <= v <= 1.0 for v in values)
        alive = {v for v, st in zip(values, state.status, strict=True) if st == "alive"}
        assert len(alive) <= 1  # the team's chance, the same for every alive seat
        (seat,) = state.current_players()
        state.apply_action(walk.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluator_at_the_end_is_the_returns(seed) -> None:
    game = load_game("epoch-ellipse", players=2)
    state = _play(game, seed, None, eps=0.3)
    assert state.is_terminal()
    assert evaluate(state) == state.returns()


def test_a_team_ahead_evaluates_higher(midgame) -> None:
    game, state = midgame
    base = evaluate(state)
    assert 0.0 < base[0] < 1.0
    ahead = state.clone()
    held = [pos for pos in range(1, len(ahead.locations)) if ahead.tokens[pos]]
    ahead.remove_catastrophes(held[0], ahead.tokens[held[0]])  # one more location Recovered
    assert ahead.recovered_vp() > state.recovered_vp() or ahead.is_terminal()
    assert evaluate(ahead)[0] > base[0]
    behind = state.clone()
    # not the explorer: its death would set its rescue pile aside in the pool
    seat = next(s for s in range(game.players)
                if behind.status[s] == "alive" and s != behind.explorer)
    others = [s for s in range(game.players) if s != seat and behind.status[s] == "alive"]
    assert others
    behind.die(seat, "combat")  # a survivor lost
    assert len(behind.pool) == len(state.pool)
    worse = evaluate(behind)
    assert worse[others[0]] < base[others[0]]
    assert worse[seat] < worse[others[0]]  # no survivor: a share of the team's chance


def test_danger_and_a_polluted_deck_lower_the_chance(midgame) -> None:
    game, state = midgame
    base = team_chance(state)
    worse = state.clone()
    seat = next(s for s in range(game.players) if worse.status[s] == "alive")
    cats = [c for c in worse.decks[CATASTROPHE][-2:]]
    del worse.decks[CATASTROPHE][-2:]
    worse.discards[seat].extend(cats)  # two catastrophes in the discard pile: one from death
    worse.recount_packs()  # the piles edited outside the rules: the derived counts recounted
    assert team_chance(worse) < base


def test_the_exploration_read_back_outside_one_is_the_reset() -> None:
    """Outside an exploration a drawn state's exploration fields are ``views.NO_EXPLORATION``
    and its flipped cards none: exactly what ``_reset_exploration`` sets, or a field it gains
    would keep no value in a drawn state."""
    from meeple.games.epoch_ellipse.rules import EpochState
    from meeple.games.epoch_ellipse.views import NO_EXPLORATION

    probe = EpochState.__new__(EpochState)
    probe._reset_exploration()
    slots = {name for cls in EpochState.__mro__ for name in getattr(cls, "__slots__", ())}
    lists = {"expl_cats", "expl_survivors", "expl_salvage"}
    assert {name for name in slots if hasattr(probe, name)} == set(NO_EXPLORATION) | lists
    assert {name: getattr(probe, name) for name in NO_EXPLORATION} == NO_EXPLORATION
