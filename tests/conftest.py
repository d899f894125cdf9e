"""Test-wide set-up: register the template game ``examples/pig.py`` (sequential turns, chance)
for every test module, so the suites parametrized over ``game_names()`` always see the same
games, whatever order pytest imports the modules in."""

import examples.pig  # noqa: F401
