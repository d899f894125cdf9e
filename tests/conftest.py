"""Test-wide set-up: register the template games ``examples/pig.py`` (sequential turns, chance)
and ``examples/crazy_eights.py`` (a deck and hidden hands, on the component model) for every
test module, so the suites parametrized over ``game_names()`` always see the same
games, whatever order pytest imports the modules in."""

import examples.crazy_eights  # noqa: F401
import examples.pig  # noqa: F401
