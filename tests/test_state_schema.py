"""The JSON Schema of saved states (``Game.state_schema()``, src/meeple/engine/schema.py), checked
with an independent validator (jsonschema): a valid draft 2020-12 schema for every game; every
state of seeded random play passes it; a piece this game does not have, a per-seat list of the
wrong length, an unknown key or a wrong type fail it."""

from __future__ import annotations

import copy
import json
import random

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from meeple.cli import app
from meeple.engine.components import Mark, Value, Zone
from meeple.engine.registry import game_names, load_game


@pytest.mark.parametrize("name", game_names())
def test_every_state_of_random_play_passes_its_game_schema(name: str) -> None:
    game = load_game(name)
    schema = game.state_schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    json.dumps(schema)  # JSON-compatible
    rng = random.Random(3)
    for seed in (1, 2):
        state = game.new_initial_state(seed)
        for step in range(300):
            if step % 5 == 0 or state.is_terminal():
                errors = [e.message for e in validator.iter_errors(state.to_json())]
                assert not errors, (name, step, errors[:3])
            if state.is_terminal():
                break
            state.apply_actions({p: rng.choice(list(state.legal_actions(p)))
                                 for p in state.current_players()})


def _first(game, kind_of):  # type: ignore[no-untyped-def]
    return next((c for c in game.state_class.components().fields if kind_of(c)), None)


@pytest.mark.parametrize("name", [n for n in game_names()
                                  if load_game(n).state_class is not None])
def test_the_schema_refuses_what_no_state_of_this_game_holds(name: str) -> None:
    game = load_game(name)
    validator = Draft202012Validator(game.state_schema())
    good = game.new_initial_state(4).to_json()
    assert validator.is_valid(good)

    def fails(change) -> None:  # type: ignore[no-untyped-def]
        bad = copy.deepcopy(good)
        change(bad["data"])
        assert not validator.is_valid(bad)

    fails(lambda d: d.update(not_a_component=1))
    zone = _first(game, lambda c: isinstance(c, (Zone, Mark)) and not getattr(c, "slot", False))
    if zone is not None:
        key = zone.data_key
        if getattr(zone, "per_seat", False):
            fails(lambda d: d[key][0].append("no such piece"))
            fails(lambda d: d[key].append([]))  # one list too many
        else:
            fails(lambda d: d[key].append("no such piece"))
    per_seat = _first(game, lambda c: isinstance(c, Value) and c.per_seat)
    if per_seat is not None:
        fails(lambda d: d[per_seat.data_key].pop())
    bad_envelope = dict(good, players=game.players + 1)
    assert not validator.is_valid(bad_envelope)


def test_a_game_without_components_gets_the_envelope() -> None:
    game = load_game("pig")
    schema = game.state_schema()
    assert schema["properties"]["data"] == {"type": "object"}
    assert Draft202012Validator(schema).is_valid(game.new_initial_state(0).to_json())


def test_meeple_games_prints_the_schema_and_refuses_it_without_a_game() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["games", "damocles", "--schema", "--players", "3"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed == load_game("damocles", players=3).state_schema()
    assert printed["properties"]["players"] == {"const": 3}
    refused = runner.invoke(app, ["games", "--schema"])
    assert refused.exit_code == 2 and "--schema needs a GAME" in refused.output
