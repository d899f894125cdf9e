"""Golden playthroughs: every registered game's seeded transcript must match the committed one.

A failure after an intended rule change: review the diff, then regenerate with
``python tests/golden/playthrough.py`` and commit the new transcripts.
"""

from __future__ import annotations

import difflib

import pytest

from meeple.engine.registry import game_names
from tests.golden.playthrough import golden_path, transcript


@pytest.mark.parametrize("name", game_names())
def test_transcript_matches_the_committed_golden_file(name):
    path = golden_path(name)
    assert path.exists(), f"no golden file for {name}: run python tests/golden/playthrough.py"
    expected = path.read_text()
    actual = transcript(name)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "committed", "now", n=1))[:60])
        pytest.fail(f"{name} plays differently from its golden transcript:\n{diff}\n"
                    "If the change is intended, run python tests/golden/playthrough.py")
