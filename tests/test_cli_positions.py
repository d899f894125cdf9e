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


# ------------------------------------------------------- meeple playtest GAME --from position
def _position(tmp_path, at: int = 20):
    game, record, path = _record(tmp_path)
    out = tmp_path / "position.json"
    result = runner.invoke(app, ["replay", str(path), "--at", str(at), "--save", str(out)])
    assert result.exit_code == 0, result.output
    return game, out


def test_playtest_from_a_position_plays_reports_and_replays(tmp_path) -> None:
    """replay --at --save, then playtest --from with 8 games: every game starts from the
    position (its hands and scores), games differ in their future draws, the summary and
    report name the position, lengths count from it, and each stored record replays."""
    from meeple.engine.record import Record, replay

    game, position = _position(tmp_path)
    start = game.state_from_json(position.read_text())
    out = tmp_path / "run"
    result = runner.invoke(app, ["playtest", "damocles", "--from", str(position), "-n", "8",
                                 "--jobs", "1", "--out", str(out), "--records", "--quiet"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 8 and summary["players"] == 3
    assert summary["start"]["file"] == "position.json"
    assert summary["start"]["length"] == start.length()
    assert "from position.json" in (out / "report.html").read_text()
    records = [Record.from_json(json.loads(line))
               for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(records) == 8
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    firsts = set()
    for rec, res in zip(records, results, strict=True):
        assert rec.start is not None and rec.start["file"] == "position.json"
        final = replay(rec)  # checks the recorded digest
        assert res["length"] == final.length() - start.length()
        from meeple.engine.record import initial_state

        first = initial_state(game, rec)
        assert first.hands == start.hands and first.points == start.points
        assert first.seed == rec.seed != start.seed
        firsts.add(tuple(first.deck))
    assert len(firsts) > 1, "each game gets its own future draws"
    stored = runner.invoke(app, ["replay", str(out), "--index", "5"])
    assert stored.exit_code == 0, stored.output
    assert "from the position position.json" in stored.output


def test_playtest_from_keep_order_keeps_the_next_draws(tmp_path) -> None:
    from meeple.engine.record import Record, initial_state

    game, position = _position(tmp_path)
    deck = game.state_from_json(position.read_text()).deck
    out = tmp_path / "run"
    result = runner.invoke(app, ["playtest", "damocles", "--from", str(position), "-n", "3",
                                 "--jobs", "1", "--out", str(out), "--records", "--quiet",
                                 "--keep-order"])
    assert result.exit_code == 0, result.output
    for line in (out / "records.jsonl").read_text().splitlines():
        assert initial_state(game, Record.from_json(json.loads(line))).deck == deck


def test_playtest_from_refuses_contradicting_options(tmp_path) -> None:
    _, position = _position(tmp_path)
    for args, words in ((["damocles", "--players", "4"], "players = 3"),
                        (["battle-of-the-four-gods"], "game 'damocles'"),
                        (["damocles", "--variant", "future"], "variant")):
        result = runner.invoke(app, ["playtest", *args, "--from", str(position), "-n", "2",
                                     "--out", str(tmp_path / "x"), "--quiet"])
        assert result.exit_code == 2, result.output  # meeple's error code (cli.common.fail)
        assert words in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
    missing = runner.invoke(app, ["playtest", "damocles", "--from", str(tmp_path / "no.json"),
                                  "--out", str(tmp_path / "x"), "--quiet"])
    assert missing.exit_code == 2 and "no such file" in missing.output
