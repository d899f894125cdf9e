"""Every position in docs/scenarios/ loads, validates and plays to the end under random bots
from a reseeded copy, as ``meeple playtest --from`` plays it (issue 18, section 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple import load_game
from meeple.bots.random_bot import RandomBot
from meeple.engine.episode import play_episode
from meeple.engine.record import replay
from meeple.engine.scenario import read_position

FILES = sorted((Path(__file__).parent.parent / "docs" / "scenarios").glob("*.json"))
GAMES = ("damocles", "battle-of-the-four-gods", "ozymandias-market", "ozymandias-campaign",
         "epoch-ellipse")


def test_every_game_has_scenarios() -> None:
    names = {json.loads(f.read_text())["game"] for f in FILES}
    assert names == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_file_loads_and_plays_to_the_end(path: Path) -> None:
    data = json.loads(path.read_text())
    game = load_game(data["game"], data["variant"], data["players"], **data["params"])
    state = game.state_from_json(data)  # validates
    assert not state.is_terminal() and state.to_json() == data
    start = read_position(path)
    agents = [RandomBot(game, s, 1) for s in range(game.players)]
    final, record = play_episode(game, 1, agents, start=start)
    assert final.is_terminal()
    assert final.winners() or game.capabilities.cooperative  # a team may lose together
    assert replay(record).digest() == final.digest()
