"""``meeple replay FILE --at N --save position.json`` (issue 18, section 2)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from meeple import load_game
from meeple.cli import app
from meeple.engine.agent import Bot
from meeple.engine.episode import play_episode

runner = CliRunner()


def _record(tmp_path):
    from meeple.bots.random_bot import RandomBot

    game = load_game("damocles", players=3)
    agents = [RandomBot(game, s, 5) for s in range(3)]
    assert all(isinstance(a, Bot) for a in agents)
    state, record = play_episode(game, 5, agents)
    path = tmp_path / "game.json"
    record.save(path)
    return game, record, path


def test_replay_at_saves_the_position_after_that_step(tmp_path) -> None:
    game, record, path = _record(tmp_path)
    out = tmp_path / "position.json"
    result = runner.invoke(app, ["replay", str(path), "--at", "12", "--save", str(out)])
    assert result.exit_code == 0, result.output
    assert "after step 12" in result.output
    state = game.state_from_json(out.read_text())
    expected = game.new_initial_state(record.seed)
    for step in record.steps[:12]:
        expected.apply_actions({int(s): game.parse_action(t, int(s)) for s, t in step.items()})
    assert state.digest() == expected.digest()
    assert json.loads(out.read_text())["game"] == "damocles"


def test_replay_at_out_of_range_is_refused(tmp_path) -> None:
    _, record, path = _record(tmp_path)
    out = tmp_path / "position.json"
    result = runner.invoke(app, ["replay", str(path), "--at", str(len(record.steps) + 1),
                                 "--save", str(out)])
    assert result.exit_code != 0
    assert "outside" in result.output
    assert not out.exists()
