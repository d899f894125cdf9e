"""Random one-leaf mutations of a state's JSON, shared by the validation property test and
``benchmarks/bench_state_validation.py`` (the before/after count of accepted broken states).

A mutation picks one place in the ``to_json()`` tree (a leaf or a container) and changes it
the way a hand edit or a damaged file would: another number, another type, a value copied from
another leaf (so the same card appears twice), a deleted key or list element, a duplicated list
element. :func:`outcome` then classifies what ``state_from_json`` and random play make of it.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from meeple.engine.errors import MeepleError

Path = tuple[Any, ...]

#: What a mutation may put in a leaf's place, besides values copied from elsewhere.
ODD_VALUES: tuple[Any, ...] = (None, True, -1, 0, 1, 2, 7, 10**9, 2.5, "", "x", "ZZZ-99",
                               [], {}, [0], {"a": 1})


def places(node: Any, path: Path = ()) -> list[Path]:
    """Every path (keys and indices from the root) in ``node``, containers included."""
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(places(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.extend(places(value, (*path, index)))
    return out


def _get(node: Any, path: Path) -> Any:
    for key in path:
        node = node[key]
    return node


def mutate(data: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """A mutated deep copy of ``data`` (never the root or the chance stream) and a note of
    what changed, for failure messages."""
    data = copy.deepcopy(data)
    candidates = [p for p in places(data) if p and p[0] != "rng"]
    path = rng.choice(candidates)
    parent, key = _get(data, path[:-1]), path[-1]
    old = parent[key]
    kind = rng.choice(("odd", "copy", "delete", "number", "duplicate"))
    if kind == "delete":
        del parent[key]
        return data, f"delete {path}"
    if kind == "duplicate" and isinstance(old, list) and old:
        old.append(copy.deepcopy(rng.choice(old)))
        return data, f"duplicate an element of {path}"
    if kind == "number" and type(old) is int:
        parent[key] = old + rng.choice((-3, -2, -1, 1, 2, 3, 50))
        return data, f"{path}: {old} -> {parent[key]}"
    if kind == "copy":
        leaves = [p for p in candidates if not isinstance(_get(data, p), (dict, list))]
        if leaves:
            parent[key] = copy.deepcopy(_get(data, rng.choice(leaves)))
            return data, f"{path}: {old!r} -> copied {parent[key]!r}"
    parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return data, f"{path}: {old!r} -> {parent[key]!r}"


def outcome(game: Any, data: dict[str, Any], rng: random.Random, max_steps: int = 3000) -> str:
    """``"refused"`` (a meeple error on loading), ``"plays"`` (loads and random legal play
    ends or reaches ``max_steps`` cleanly) or ``"crash: ..."`` (any other exception on loading,
    or any exception during play)."""
    try:
        state = game.state_from_json(data)
    except MeepleError:
        return "refused"
    except Exception as exc:  # noqa: BLE001 - the point is to classify every failure
        return f"crash on load: {type(exc).__name__}: {exc}"
    try:
        steps = 0
        while not state.is_terminal() and steps < max_steps:
            joint = {}
            for seat in state.current_players():
                joint[seat] = rng.choice(state.legal_actions(seat))
            state.apply_actions(joint)
            steps += 1
        state.returns()
        state.scores()
        for seat in (None, *range(game.players)):
            state.view(seat)
    except Exception as exc:  # noqa: BLE001
        return f"crash in play: {type(exc).__name__}: {exc}"
    return "plays"
