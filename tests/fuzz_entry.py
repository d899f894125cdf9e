"""The entry-point fuzz harness (issue 18, section 3): bad arguments at every public entry
point of the engine's ``Game`` and ``State``, for every registered game.

:func:`call` runs one entry point on a clone of a position and classifies what happened:
``"ok"`` (it returned), ``"meeple"`` (it raised a :class:`MeepleError`) or ``"raw"`` (any other
exception: the bug class this fuzz hunts), and whether the clone's digest changed after a
refusal. ``tests/test_fuzz_entry_points.py`` drives it with hypothesis and replays
``tests/fuzz_corpus.json``; ``python -m tests.fuzz_entry`` counts raw exceptions per entry
point and game over the fixed bad values (the "before/after" survey of the issue).
``state_from_json`` is left out: its validation is rewritten elsewhere.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

from meeple.engine import Action, MeepleError, load_game
from meeple.engine.registry import game_class, game_names
from meeple.engine.state import State


class Foreign(Action):
    """An action value of no game (a well-typed action that no game accepts)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "foreign"

    def __eq__(self, other: object) -> bool:
        return type(other) is Foreign

    def __hash__(self) -> int:
        return 7


class Pairs(Mapping):
    """A mapping of (key, value) pairs that takes unhashable keys, so ``apply_actions`` can be
    given a ``[]`` or ``{}`` as a seat (a dict could not even be built)."""

    def __init__(self, *pairs: tuple[Any, Any]) -> None:
        self.pairs = pairs

    def __getitem__(self, key: Any) -> Any:
        for k, v in self.pairs:
            if k is key or k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return (k for k, _ in self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


#: Named argument shapes: the values the corpus names (``tests/fuzz_corpus.json``) by key.
SHAPES: dict[str, Callable[[], Any]] = {
    "none": lambda: None,
    "int": lambda: 1,
    "zero": lambda: 0,
    "neg": lambda: -1,
    "huge": lambda: 10 ** 30,
    "true": lambda: True,
    "false": lambda: False,
    "float": lambda: 1.5,
    "nan": lambda: float("nan"),
    "str": lambda: "x",
    "empty_str": lambda: "",
    "blank_str": lambda: "   ",
    "bytes": lambda: b"pass",
    "list": lambda: [],
    "dict": lambda: {},
    "tuple": lambda: (0,),
    "set": lambda: {1},
    "object": lambda: object(),
    "foreign_action": lambda: Foreign(),
    "seat_list": lambda: [0],
    "dict_none": lambda: {0: None},
    "dict_str_key": lambda: {"0": None},
    "dict_list_key": lambda: {(0,): 1},
    "view_other_game": lambda: {"game": "no-such-game", "seat": 0},
    "view_bad_seat": lambda: {"game": None, "seat": 99},
}


@cache
def positions(name: str) -> tuple[State, ...]:
    """A few positions of game ``name`` at its default set-up: the start, after a few and after
    many random steps (two seeds), part-submitted at a simultaneous decision, and the end."""
    game = load_game(name)
    out = []
    for seed in (0, 1):
        for steps in (0, 4, 15):
            state = game.new_initial_state(seed)
            state.playout(random.Random(seed), max_steps=steps)
            out.append(state)
    for state in list(out):
        acting = state.current_players()
        if len(acting) > 1:
            part = state.clone()
            part.apply_action(part.legal_actions(acting[0])[0], acting[0])
            out.append(part)
            break
    end = game.new_initial_state(2)
    end.playout(random.Random(2), max_steps=5000)
    out.append(end)
    return tuple(out)


def legal_action(state: State) -> Action | None:
    """The first legal action of the first seat to act, or None at the end."""
    acting = state.current_players()
    return state.legal_actions(acting[0])[0] if acting else None


def _view(state: State) -> dict:
    acting = state.current_players()
    return state.view(acting[0] if acting else 0)


# Each entry: (state, a, b) -> result. ``a`` and ``b`` are the fuzzed arguments; entries that
# take one argument ignore ``b``. They run on a clone, so a mutation can be detected.
ENTRY_POINTS: dict[str, Callable[[State, Any, Any], Any]] = {
    "State.apply_action": lambda s, a, b: s.apply_action(a),
    "State.apply_action(seat)": lambda s, a, b: s.apply_action(legal_action(s), a),
    "State.apply_action(action,seat)": lambda s, a, b: s.apply_action(a, b),
    "State.apply_actions": lambda s, a, b: s.apply_actions(a),
    "State.apply_actions({seat: a})": lambda s, a, b: s.apply_actions(
        {seat: a for seat in s.current_players()}),
    "State.apply_actions({a: legal})": lambda s, a, b: s.apply_actions(
        Pairs((a, legal_action(s)))),
    "State.legal_actions": lambda s, a, b: s.legal_actions(a),
    "State.view": lambda s, a, b: s.view(a),
    "State.is_eliminated": lambda s, a, b: s.is_eliminated(a),
    "State.playout": lambda s, a, b: s.playout(a, b),
    "State.playout(max_steps)": lambda s, a, b: s.playout(random.Random(0), a),
    "Game.parse_action": lambda s, a, b: s.game.parse_action(a, b),
    "Game.parse_action(text)": lambda s, a, b: s.game.parse_action(a, 0),
    "Game.parse_action(seat)": lambda s, a, b: s.game.parse_action(
        str(legal_action(s) or "x"), a),
    "Game.action_from_code": lambda s, a, b: s.game.action_from_code(a, 0),
    "Game.action_from_code(seat)": lambda s, a, b: s.game.action_from_code(0, a),
    "Game.action_code": lambda s, a, b: s.game.action_code(a),
    "Game.observation_tensor": lambda s, a, b: s.game.observation_tensor(a),
    "Game.observation_tensor(view)": lambda s, a, b: s.game.observation_tensor(
        {**_view(s), "seat": a}),
    "Game.determinize": lambda s, a, b: s.game.determinize(a, random.Random(0)),
    "Game.determinize(rng)": lambda s, a, b: s.game.determinize(_view(s), a),
    "Game.timeout_action": lambda s, a, b: s.game.timeout_action(a, b),
    "Game.new_initial_state": lambda s, a, b: s.game.new_initial_state(a),
    "Game.find_variant": lambda s, a, b: s.game.find_variant(a),
    "Game(variant)": lambda s, a, b: type(s.game)(variant=a),
    "Game(players)": lambda s, a, b: type(s.game)(players=a),
    "load_game(name)": lambda s, a, b: load_game(a),
    "load_game(variant)": lambda s, a, b: load_game(s.game.name, variant=a),
    "load_game(players)": lambda s, a, b: load_game(s.game.name, players=a),
    "load_game(param)": lambda s, a, b: load_game(
        s.game.name, **{p.name: a for p in game_class(s.game.name).parameters[:1]}),
}


def call(entry: str, state: State, a: Any, b: Any = None) -> tuple[str, bool, BaseException | None]:
    """Run ``entry`` on a clone of ``state`` with arguments ``a`` and ``b``.

    Returns:
        (``"ok"``, ``"meeple"`` or ``"raw"``; whether the clone's digest changed although the
        call raised; the exception or None).
    """
    clone = state.clone()
    before = clone.digest()
    try:
        ENTRY_POINTS[entry](clone, a, b)
    except MeepleError as exc:
        return "meeple", clone.digest() != before, exc
    except Exception as exc:  # noqa: BLE001 - classifying is the point
        return "raw", clone.digest() != before, exc
    return "ok", False, None


def survey(names: list[str] | None = None) -> Counter:
    """Raw exceptions per (entry point, game) over every shape x every position, with the
    second argument a shape too for two-argument entries (``b`` from a short list)."""
    raw: Counter = Counter()
    seconds = [None, 0, "x", True, -1]
    for name in names or game_names():
        for state in positions(name):
            for entry in ENTRY_POINTS:
                for shape in SHAPES.values():
                    for b in seconds:
                        kind, changed, _ = call(entry, state, shape(), b)
                        raw[(entry, name, "calls")] += 1
                        if kind == "raw":
                            raw[(entry, name, "raw")] += 1
                        if changed:
                            raw[(entry, name, "changed")] += 1
    return raw


def main() -> None:
    """Print the survey: raw exceptions per entry point (and per game), then the totals."""
    import examples.crazy_eights  # noqa: F401
    import examples.pig  # noqa: F401 - the template game, as in the test suite

    counts = survey()
    names = game_names()
    entries = list(ENTRY_POINTS)
    print(f"{'entry point':36} " + " ".join(f"{n[:10]:>10}" for n in names) + "      raw")
    total = calls = changed = 0
    for entry in entries:
        row = [counts[(entry, n, "raw")] for n in names]
        total += sum(row)
        calls += sum(counts[(entry, n, "calls")] for n in names)
        changed += sum(counts[(entry, n, "changed")] for n in names)
        print(f"{entry:36} " + " ".join(f"{v:>10}" for v in row) + f" {sum(row):>8}")
    print(f"total: {total} raw exceptions in {calls} calls; state changed by a refusal: "
          f"{changed}")
    sys.exit(0)


if __name__ == "__main__":
    main()
