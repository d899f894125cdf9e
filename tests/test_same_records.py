"""Speed must not change play: many seeded bot games of every game give the committed records.

``tests/golden/records.json`` holds the sha256 of each game's record (``play_one(...,
keep_record=True)["record"]``, canonical JSON) for 30 games of every registered game at its
default seat count and one more, with random, heuristic and mixed line-ups. After an intended
rule or bot change: review, then ``python tests/golden/records.py`` and commit the new file.
"""

from __future__ import annotations

import json

import pytest

from tests.golden.records import GOLDEN, configs, hashes, key

COMMITTED = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.mark.parametrize("config", configs(), ids=lambda c: key(*c))
def test_seeded_games_give_the_committed_records(config):
    name = key(*config)
    assert name in COMMITTED, f"no golden hashes for {name}: run python tests/golden/records.py"
    expected = COMMITTED[name]
    actual = hashes(*config, games=len(expected))
    differ = [i for i, (a, b) in enumerate(zip(actual, expected, strict=True)) if a != b]
    assert not differ, (f"{name}: games {differ} play differently from the committed records; "
                        "if intended, run python tests/golden/records.py")


def test_every_committed_configuration_is_still_played():
    assert set(COMMITTED) == {key(*c) for c in configs()}
