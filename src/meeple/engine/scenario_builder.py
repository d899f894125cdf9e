"""Scenarios from a component declaration (docs/engine.md, "Components"; ``Game.build_scenario``):
from a new game dealt with a seed, named pieces moved into named zones, values set, the state
class's ``scenario_setup``, then the next draws on top of the draw pile, the result checked like
a loaded state (:func:`meeple.engine.scenario.validated`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine.compiled import (
    MISSING,
)
from meeple.engine.declarations import (
    Mark,
    Value,
    Zone,
    piles_in,
)
from meeple.engine.errors import ParameterError
from meeple.engine.scenario import seat_values, stack_on_top, validated

if TYPE_CHECKING:
    from meeple.engine.components import Components
    from meeple.engine.game import Game


def build_scenario(comp: Components, game: Game, seed: int = 0, **description: Any) -> Any:
    """A position from a short description, starting from a new game dealt with ``seed``:
    the pieces named for a zone moved there (``hands={1: ["ONE-03"]}``; a per-seat zone
    takes a list per seat or ``{seat: list}``; what the zone held goes to the bottom of
    the draw pile of its kind), values set (``points=[4, 7, 2]``), the state class's
    :meth:`~ComponentState.scenario_setup` with the game's own words, then
    ``next_draws`` put on top of the draw pile in that order; checked like a loaded
    state.

    Raises:
        ParameterError: an unknown word (naming the words there are), an unknown or
            repeated piece, a piece that cannot be drawn next, a seat out of range, or a
            state that breaks an invariant (``StateError``).
    """
    cls = comp.cls
    extra_words = dict(cls.scenario_keys())  # the game's own: before a component's
    words = {c.name: c for c in comp.fields if c.name not in extra_words}
    unknown = [k for k in description if k not in words and k not in extra_words
               and k != "next_draws"]
    if unknown:
        known = sorted([*words, *extra_words, "next_draws"])
        raise ParameterError(f"unknown scenario word {unknown[0]!r}; {game.name} "
                             f"scenarios take: {', '.join(known)}")
    state = game.new_initial_state(seed)
    n = game.players
    taken: dict[str, set[Any]] = {k: set() for k in cls.PIECES}  # copies given so far

    def take(kind: str, word: Any, what: str) -> Any:
        """The id a piece word names (``Pieces.parse``): of interchangeable copies (a
        tuple), the first not named yet."""
        parse = cls.PIECES[kind].parse
        found = word if parse is None else parse(game, word, what)
        if isinstance(found, tuple):
            found = next((p for p in found if p not in taken[kind]), MISSING)
            if found is MISSING:
                raise ParameterError(f"{what}: no {kind} {word!r} left (every copy is "
                                     "named already)")
        taken[kind].add(found)
        return found

    named: dict[str, Any] = {}  # a slot's pieces as a list of one (or None) per seat
    held: dict[str, Any] = {}  # the values of ``Value.takes`` with ``describe``
    for c in comp.fields:  # in declaration order: which copy a word gets
        if c.name not in description or c.name not in words:
            continue
        name, given = c.name, description[c.name]
        if isinstance(c, Value) and c.takes is not None and c.describe is not None:
            held[name] = c.describe(  # type: ignore[call-arg]
                seat_values(given, n, None, name) if c.per_seat else given,
                lambda w, what, k=c.takes: take(k, w, what))
        elif isinstance(c, Zone):
            def ids(ws: Any, what: str, kind: str = c.pieces) -> list[Any]:
                return [take(kind, w, what) for w in ws]
            if c.slot:
                named[name] = [None if w is None else ids([w], f"{name}[{s}]")
                               for s, w in enumerate(seat_values(given, n, None, name))]
            elif c.per_seat:
                named[name] = [None if ws is None else ids(ws, f"{name}[{s}]")
                               for s, ws in enumerate(seat_values(given, n, None, name))]
            else:
                named[name] = ids(given, name)
    named_ids: dict[str, set[Any]] = {}  # by kind: every piece the description names
    for kind, pieces_of in cls.PIECES.items():
        known_ids = set(pieces_of.ids(game))
        seen = named_ids[kind] = set()
        lists = [pieces for name, value in named.items()
                 if words[name].pieces == kind  # type: ignore[union-attr]
                 for pieces in (value if words[name].per_seat else [value])]  # type: ignore
        for name, value in held.items():
            c = words[name]
            if c.pieces == kind:  # type: ignore[union-attr]
                lists.append(list(c.holds(game, value)) if callable(c.holds)  # type: ignore
                             else [p for _, pile in piles_in(value, "") for p in pile])
        for pieces in lists:
            for pid in pieces or ():
                if pid not in known_ids:
                    raise ParameterError(f"unknown {kind} {pid!r}")
                if pid in seen:
                    raise ParameterError(f"{kind} {pid!r} is named twice")
                seen.add(pid)
        for zone in comp.zones:  # the named pieces leave wherever the deal put them
            if zone.pieces != kind:
                continue
            current = getattr(state, zone.name)
            if zone.slot:
                current[:] = [None if p in seen else p for p in current]
                continue
            for pieces in (current if zone.per_seat else [current]):
                pieces[:] = [p for p in pieces if p not in seen]
    displaced: dict[str, list[Any]] = {}  # what a named zone held: to its draw pile
    for name, value in named.items():
        zone = words[name]
        current = getattr(state, name)
        if zone.slot:  # type: ignore[union-attr]
            for s, pieces in enumerate(value):
                if pieces is not None:
                    if current[s] is not None:
                        displaced.setdefault(zone.pieces, []).append(current[s])
                    current[s] = pieces[0]
        elif zone.per_seat:  # type: ignore[union-attr]
            for s, pieces in enumerate(value):
                if pieces is not None:
                    displaced.setdefault(zone.pieces, []).extend(current[s])  # type: ignore
                    current[s] = list(pieces)
        else:
            displaced.setdefault(zone.pieces, []).extend(current)  # type: ignore
            setattr(state, name, list(value))
    for kind, pieces in displaced.items():
        if not pieces:
            continue
        pile = next((z for z in comp.draw_piles if z.pieces == kind), None)
        if pile is None:
            raise ParameterError(f"{game.name} has no draw pile of {kind} pieces for what "
                                 "the description moves aside")
        getattr(state, pile.name)[:0] = pieces  # at the bottom
    for name, given in description.items():
        c = words.get(name)
        if name in held:
            setattr(state, name, held[name])
        elif isinstance(c, Value):
            value = seat_values(given, n, 0, name) if c.per_seat else given
            setattr(state, name, value if c.describe is None else c.describe(value))
        elif isinstance(c, Mark):
            setattr(state, name, list(given))
    state.scenario_setup({k: v for k, v in description.items() if k in words},
                         {k: v for k, v in description.items() if k in extra_words})
    draws = [] if "next_draws" in extra_words else list(description.get("next_draws", ()))
    if draws:
        if not comp.draw_piles:
            raise ParameterError(f"{game.name} has no draw pile for next_draws")
        pile = comp.draw_piles[0]
        parse = cls.PIECES[pile.pieces].parse
        if parse is not None:
            draws = [parse(game, w, "next_draws") for w in draws]
        named_here = named_ids[pile.pieces]
        for i, found in enumerate(draws):  # copies: the first not named elsewhere
            if isinstance(found, tuple):
                draws[i] = next((p for p in found if p not in named_here
                                 and p not in draws), found[0] if found else None)
        free_for_next_draws(comp, state, pile, draws, named_here)
        stack_on_top(getattr(state, pile.name), draws, pile.pieces)
    state._legal = None
    state._refresh_acting()
    return validated(state)


def free_for_next_draws(comp: Components, state: Any, pile: Zone, draws: Sequence[Any],
                         named: set[Any]) -> None:
    """A next draw the description did not place but the deal did (in a hand, say)
    changes places with the draw pile's top piece that is no next draw, so that every
    zone keeps its size."""
    stack = getattr(state, pile.name)
    wanted = set(draws)
    for pid in draws:
        if pid in stack or pid in named:
            continue  # in the pile already, or named elsewhere: stack_on_top says so
        for zone in comp.zones:
            if zone.pieces != pile.pieces or zone is pile or zone.slot:
                continue
            current = getattr(state, zone.name)
            for pieces in (current if zone.per_seat else [current]):
                if pid in pieces:
                    spare = next((i for i in range(len(stack) - 1, -1, -1)
                                  if stack[i] not in wanted), None)
                    if spare is None:
                        return
                    at = pieces.index(pid)
                    pieces[at], stack[spare] = stack[spare], pid
