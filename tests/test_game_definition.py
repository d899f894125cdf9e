"""A game's definition holds typed references to its parts (``Game.define``, issue 35): no
part is a string found at run time, ``define`` refuses what is not a part, and a declared
function stays a plain function on the class."""

from __future__ import annotations

import types

import pytest

from meeple.engine.game import ENCODING_FUNCTIONS, Game
from meeple.engine.registry import game_class, game_names, load_game


@pytest.mark.parametrize("name", game_names())
def test_every_part_of_every_game_is_a_typed_reference(name: str) -> None:
    cls = game_class(name)
    for bot_name, factory in cls.bots.items():
        assert callable(factory), f"{name}: bot {bot_name!r} is {factory!r}"
    for part in ("renderer", "board", "evaluator", "decisions", "scenario"):
        value = getattr(cls, part)
        assert value is None or callable(value), f"{name}.{part} is {value!r}"
    if cls.encoding is not None:
        assert all(callable(getattr(cls.encoding, f)) for f in ENCODING_FUNCTIONS)
    game = load_game(name)
    renderer = game.text_renderer()
    if renderer is not None:  # a plain function: called with the game, not bound to it
        state = game.new_initial_state(0)
        assert isinstance(renderer(game, state.view(state.current_players()[0])), str)


def _bare() -> type[Game]:
    class Bare(Game):  # a fresh class each time: define changes the class it is called on
        name = "bare-definition"
        title = "Bare"

        @property
        def capabilities(self):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def new_initial_state(self, seed: int = 0):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def parse_action(self, text: str, seat: int):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    return Bare


def test_define_refuses_what_is_not_a_part() -> None:
    with pytest.raises(TypeError, match="unknown parts colour"):
        _bare().define(colour="red")
    with pytest.raises(TypeError, match="renderer must be a function"):
        _bare().define(renderer="examples.pig:render")
    with pytest.raises(TypeError, match="bot 'heuristic' is not callable"):
        _bare().define(bots={"heuristic": "module:HeuristicBot"})
    with pytest.raises(TypeError, match="the encoding lacks observation_shape, "
                                        "observation_tensor"):
        _bare().define(encoding=types.SimpleNamespace(action_texts=lambda game: ()))


def test_a_defined_function_is_called_as_declared() -> None:
    def render(game: Game, view: object) -> str:
        return f"{game.name}: {view}"

    bare = _bare().define(renderer=render, decisions=lambda state, seat: f"seat {seat}")
    game = object.__new__(bare)
    assert game.renderer(game, "v") == "bare-definition: v"  # not bound as a method
    assert bare.decisions(None, 2) == "seat 2"
    assert bare.bots == {} and bare.encoding is None
