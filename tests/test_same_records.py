"""Speed must not change play: many seeded bot games of every game give the committed records.

``tests/golden/records.json`` holds the sha256 of each game's record (``play_one(...,
keep_record=True)["record"]``, canonical JSON) for 30 games of every registered game at its
default seat count and one more, with random, heuristic and mixed line-ups;
``tests/golden/records_variants.json`` 5 games of every variant at every seat count. After an
intended rule or bot change: review, then ``python tests/golden/records.py`` and commit the new
file.
"""

from __future__ import annotations

import json

import pytest

from tests.golden.records import (
    GOLDEN,
    VARIANTS_GOLDEN,
    configs,
    hashes,
    key,
    variant_configs,
    variant_hashes,
    variant_key,
)

COMMITTED = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
VARIANTS = json.loads(VARIANTS_GOLDEN.read_text()) if VARIANTS_GOLDEN.exists() else {}


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


@pytest.mark.parametrize("config", variant_configs(), ids=lambda c: variant_key(*c))
def test_every_variant_and_seat_count_gives_the_committed_records(config):
    name = variant_key(*config)
    assert name in VARIANTS, f"no golden hashes for {name}: run python tests/golden/records.py"
    expected = VARIANTS[name]
    actual = variant_hashes(*config, games=len(expected))
    differ = [i for i, (a, b) in enumerate(zip(actual, expected, strict=True)) if a != b]
    assert not differ, (f"{name}: games {differ} play differently from the committed records; "
                        "if intended, run python tests/golden/records.py")


def test_every_committed_variant_configuration_is_still_played():
    assert set(VARIANTS) == {variant_key(*c) for c in variant_configs()}
