"""Differential test: meeple's Hanabi against OpenSpiel's ``hanabi`` (the HLE's default game;
docs/rules/hanabi.md). The same deck is dealt in both (OpenSpiel's chance nodes are given the
card meeple dealt), the same random actions are played, and at every step the legal actions
(mapped by meaning), fireworks, tokens, deck size, score, whose turn and the end must agree."""

from __future__ import annotations

import random
import re

import pytest

from meeple.engine import load_game

pyspiel = pytest.importorskip("pyspiel")

GAMES = {2: 300, 3: 300, 4: 300, 5: 300}
COVERED: dict[str, int] = {}


def openspiel_text(game, move, seat: int) -> str:
    """The OpenSpiel action text of a meeple move of ``seat``."""
    if move.kind in ("play", "discard"):
        return f"({move.kind.capitalize()} {move.args[0]})"
    other, word = move.args
    offset = (other - seat) % game.players
    if word in game.colour_of:
        return f"(Reveal player +{offset} color {game.colour_of[word]})"
    return f"(Reveal player +{offset} rank {word})"


def deal(os_state, game, name: str) -> None:
    """Give OpenSpiel's chance node the card ``name`` (outcome: colour * ranks + rank - 1)."""
    outcome = game.colours.index(name[0]) * len(game.ranks) + int(name[1:]) - 1
    assert outcome in dict(os_state.chance_outcomes())
    os_state.apply_action(outcome)


def openspiel_numbers(os_state) -> dict[str, object]:
    text = str(os_state)
    return {"lives": int(re.search(r"Life tokens: (\d+)", text).group(1)),
            "info": int(re.search(r"Info tokens: (\d+)", text).group(1)),
            "fireworks": dict(re.findall(r"([RYGWB])(\d)", text.split("Fireworks: ")[1]
                                         .split("\n")[0])),
            "deck": int(re.search(r"Deck size: (\d+)", text).group(1)),
            "knowledge": [re.findall(r"\|(\w+)$", hand, re.M) for hand in
                          text.split("Hands:\n")[1].split("Deck size")[0].split("-----")]}


def safe(state, move) -> bool:
    """Not a play that would burn a fuse (the informed half of the games avoids those, so
    that games reach the deck's end, fives and perfect scores)."""
    if move.kind != "play":
        return True
    name = state.game.card_names[state.hands[move.seat][move.args[0]]]
    return state.heights()[name[0]] == int(name[1:]) - 1


def play_both(players: int, seed: int) -> int:
    """One game in both, random moves (every other seed avoiding fuse-burning plays, and
    preferring good plays); returns its number of moves."""
    game = load_game("hanabi", players=players)
    state = game.new_initial_state(seed)
    os_state = pyspiel.load_game("hanabi", {"players": players}).new_initial_state()
    for hand in state.hands:
        for card in hand:
            deal(os_state, game, game.card_names[card])
    rng, steps = random.Random(seed), 0
    while True:
        assert not os_state.is_chance_node()
        assert state.is_terminal() == os_state.is_terminal(), (seed, steps)
        numbers = openspiel_numbers(os_state)
        top = state.heights()
        assert numbers == {"lives": state.lives, "info": state.info, "deck": len(state.deck),
                           "knowledge": state.knowledge,
                           "fireworks": {c: str(top[c]) for c in game.colours}}, (seed, steps)
        assert state.score() == os_state.returns()[0], (seed, steps)
        if state.is_terminal():
            assert state.returns() == tuple(os_state.returns())
            cause = state.outcome()["cause"]
            COVERED[cause] = COVERED.get(cause, 0) + 1
            return steps
        seat = state.to_move
        assert os_state.current_player() == seat
        legal = state.legal_actions()
        texts = {openspiel_text(game, m, seat) for m in legal}
        assert len(texts) == len(legal)
        assert texts == {os_state.action_to_string(a) for a in os_state.legal_actions()}
        if seed % 2:
            plays = [m for m in legal if m.kind == "play" and safe(state, m)]
            legal = plays if plays and rng.random() < 0.7 else [
                m for m in legal if safe(state, m)] or legal
        move = rng.choice(legal)
        by_text = {os_state.action_to_string(a): a for a in os_state.legal_actions()}
        os_state.apply_action(by_text[openspiel_text(game, move, seat)])
        state.apply_action(move)
        steps += 1
        if os_state.is_chance_node():
            deal(os_state, game, game.card_names[state.hands[seat][-1]])


@pytest.mark.parametrize("players", sorted(GAMES))
def test_meeple_and_openspiel_play_the_same_games(players: int) -> None:
    steps = [play_both(players, seed) for seed in range(GAMES[players])]
    assert sum(steps) > 0
    print(f"{players} players: {len(steps)} games, {sum(steps)} steps; ends so far {COVERED}")
