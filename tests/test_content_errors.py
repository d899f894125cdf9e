"""A content file in the wrong format (issue 18, section 5): the error shows the first few
problems, "... and N more", and the expected format from the file's models, for every game's
content parameter; the full list stays on the error."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.content import PROBLEMS_SHOWN, ContentError, problems_error
from meeple.engine.errors import MeepleError
from meeple.engine.registry import load_game

DATA = Path(__file__).resolve().parent.parent / "src" / "meeple" / "games"
#: game, parameter, packaged file, its item list, its format
CONTENT = [
    ("damocles", "deck", "damocles/data/codices.json", "codices", "meeple-damocles-deck/1"),
    ("ozymandias-market", "cards", "ozymandias_market/data/cards.json", "cards",
     "meeple-ozymandias-market-cards/1"),
    ("ozymandias-campaign", "cards", "ozymandias_campaign/data/cards.json", "cards",
     "meeple-ozymandias-campaign-cards/1"),
    ("ozymandias-campaign", "tiles", "ozymandias_campaign/data/tiles.json", "tiles",
     "meeple-ozymandias-campaign-tiles/1"),
    ("epoch-ellipse", "cards", "epoch_ellipse/data/cards.json", "cards",
     "meeple-epoch-ellipse-cards/1"),
]


def _broken(tmp_path: Path, packaged: str, items: str) -> tuple[Path, int]:
    """A copy of the packaged file with an unknown key in each of its first 12 entries."""
    data = json.loads((DATA / packaged).read_text())
    for entry in data[items][:12]:
        entry["colour"] = "teal"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path, min(12, len(data[items]))


@pytest.mark.parametrize(("game", "param", "packaged", "items", "fmt"), CONTENT,
                         ids=[f"{c[0]}-{c[1]}" for c in CONTENT])
def test_a_wrong_format_file_shows_a_few_problems_and_the_expected_format(
        tmp_path: Path, game: str, param: str, packaged: str, items: str, fmt: str) -> None:
    path, broken = _broken(tmp_path, packaged, items)
    with pytest.raises(ContentError) as caught:
        load_game(game, **{param: str(path)}).new_initial_state(0)
    error = caught.value
    assert len(error.problems) >= broken  # every problem is kept...
    message = str(error)
    listed = [line for line in message.splitlines() if line.startswith("  - ")]
    assert len(listed) == PROBLEMS_SHOWN  # ...but only the first few are printed
    assert f"  ... and {len(error.problems) - PROBLEMS_SHOWN} more" in message
    assert "unknown key 'colour'" in listed[0]
    hint = message.split("\nexpected format: ")[1]
    assert hint.startswith(f'{{"format": "{fmt}", "description": TEXT, ')
    assert f'"{items}": [' in hint and "; each " in hint
    result = CliRunner().invoke(app, ["play", game, "--param", f"{param}={path}"], input="quit\n")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.splitlines()) <= PROBLEMS_SHOWN + 4  # not hundreds of lines
    assert "expected format: " in result.output


def test_a_rule_breaking_file_of_the_right_shape_gets_no_format_hint() -> None:
    error = problems_error(ContentError, "deck x", ["codex A-1: DAM-26 says no"], hint="{...}")
    assert str(error) == "invalid deck x: codex A-1: DAM-26 says no"
    shape = problems_error(ContentError, "deck x", ["file: missing key 'codices'"], hint="{H}")
    assert str(shape).endswith("\nexpected format: {H}")


# ----------------------------------------------------------------- files that are not files
def test_content_files_are_read_with_bounds(tmp_path) -> None:
    """A content path names something other than a small regular JSON file: refused at once,
    never read to its end (``/dev/zero`` never ends; a named pipe never opens for reading
    without a writer)."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for path, words in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                        (tmp_path, "Is a directory"), (huge, "larger than 4 MiB"),
                        (deep, "nested too deeply")):
        for game, param in (("damocles", "deck"), ("ozymandias-market", "cards"),
                            ("ozymandias-campaign", "tiles"), ("epoch-ellipse", "cards")):
            began = time.monotonic()
            with pytest.raises(MeepleError, match=words):
                load_game(game, **{param: str(path)})
            assert time.monotonic() - began < 2
