"""Determinization from a component declaration (docs/engine.md, "Components"): a state
consistent with one seat's view, for a search that must not peek. :func:`determinizer` reads the
view once into a template, and each draw copies it and deals the pieces the view hides: per kind,
one shuffle of the unseen pieces dealt to the hidden places in declaration order (the other
seats' lists in seat order), each sized by its count; by class where the places have quotas
(:func:`dealer`); an ``ORDER_HIDDEN`` zone's own pieces reshuffled; hidden marks rebuilt by the
state class's ``rebuild_mark``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meeple.engine.compiled import (
    fast_copier,
    get_at,
    shown_pieces,
)
from meeple.engine.declarations import (
    ORDER_HIDDEN,
    OTHERS,
    OWNER,
    PUBLIC,
    Mark,
    Value,
    Zone,
    piles_in,
)
from meeple.engine.errors import ParameterError
from meeple.engine.persist import copied
from meeple.engine.rng import shuffle

if TYPE_CHECKING:
    from meeple.engine.components import Components
    from meeple.engine.game import Game


def determinizer(comp: Components, game: Game,
                 view: Mapping[str, Any]) -> Callable[[random.Random], Any]:
    """``draw(rng)``: a state consistent with ``view`` (one seat's), before the engine's
    part (seed, pending choices): what the view shows copied, the pieces it hides dealt
    (see the module docstring; with ``Zone.quota`` / ``Value.deal``, by class:
    :func:`dealer`), each ``ORDER_HIDDEN`` zone's own pieces reshuffled, hidden marks
    rebuilt (:meth:`ComponentState.rebuild_mark`). The view is read once here; a draw
    copies that template (each value by the cheapest copy its type needs) and deals.

    Raises:
        ParameterError: the view's counts do not add up to the unseen pieces, or its
            quotas cannot be met (a view that does not account for every piece).
    """
    cls = comp.cls
    seat = view["seat"]
    n = game.players
    probe = object.__new__(cls)
    probe.game = game
    assigned: list[tuple[str, Any]] = []  # values never changed in place: shared
    copies: list[tuple[str, Callable[[Any], Any], Any]] = []
    deals: dict[str, list[Place]] = {k: [] for k in cls.PIECES}
    reshuffled: list[tuple[str, int | None]] = []  # order-hidden zones' own pieces
    known: dict[str, set[Any]] = {k: set() for k in cls.PIECES}
    later: list[Mark] = []
    takers = {k: comp.taker(game, k) for k, p in cls.PIECES.items() if p.copies}
    private: list[tuple[str, list[Any]]] = []  # copies only the viewer sees: taken last
    for c in comp.fields:
        if type(c) is Value:
            if c.takes is not None:
                value = c.restore(view, probe, takers[c.takes])  # type: ignore[misc,call-arg]
            elif c.restore is not None:
                value = c.restore(view, probe)
            elif c.view is None:
                raise TypeError(f"{cls.__name__}.{c.name} is in no view: it needs restore")
            else:
                value = copied(get_at(view, c.view or c.name))
            setattr(probe, c.name, value)
            if c.deal is not None:
                deals[c.pieces] += [  # type: ignore[index]
                    (c.name, key, None, tuple((frozenset(cl), k) for cl, k in quota))
                    for key, quota in c.deal(view)]
            if c.pieces is not None and callable(c.holds):
                known[c.pieces].update(c.holds(game, value))
            elif c.pieces is not None and c.holds:
                known[c.pieces].update(p for _, pile in piles_in(value, "") for p in pile)
            copy = None if c.shared else (c.draw_copy or c.copy or fast_copier(value))
        elif type(c) is Zone:
            value, hidden = read_zone(c, view, seat, n, comp.names_back(game, c.pieces))
            setattr(probe, c.name, value)
            if c.visibility is ORDER_HIDDEN:
                reshuffled += ([(c.name, s) for s, p in enumerate(value) if p is not None]
                               if c.per_seat else [(c.name, None)])
            take = takers.get(c.pieces)
            if c.slot:
                known[c.pieces].update(p for p in value if p is not None)
            else:
                for pieces in (value if c.per_seat else (value,)):
                    if pieces is None:
                        continue
                    if take is not None and c.visibility not in (PUBLIC, ORDER_HIDDEN):
                        private.append((c.pieces, pieces))
                        continue
                    if take is not None:
                        pieces[:] = [take(x) for x in pieces]
                    known[c.pieces].update(pieces)
            deals[c.pieces] += hidden
            copy = fast_copier(value)
        else:  # a mark
            value = shown_pieces(c, view,  # type: ignore[arg-type]
                                  comp.names_back(game, c.pieces))
            if value is None:
                later.append(c)  # type: ignore[arg-type]
                value = []
            copy = list.copy
        if copy is None:
            assigned.append((c.name, value))
        else:
            copies.append((c.name, copy, value))
    for kind, pieces in private:  # after those everyone sees
        take = takers[kind]
        pieces[:] = [take(x) for x in pieces]
        known[kind].update(pieces)
    unseen = {k: [p for p in comp.piece_ids(game, k) if p not in known[k]]
              for k in cls.PIECES}
    plans = []
    for kind, plan in deals.items():
        if not plan:
            continue
        classes = cls.PIECES[kind].classes
        class_of = None if classes is None else comp.class_of(game, kind)
        plans.append((dealer(kind, unseen[kind], class_of, plan, game.name),
                      tuple((name, where) for name, where, *_ in plan)))
    acting: list[tuple[int, ...]] = []
    fill = filler(comp, (*((name, None) for name, _ in assigned),
                         *((name, copy) for name, copy, _ in copies)))
    values = (*(v for _, v in assigned), *(v for _, _, v in copies))

    def draw(rng: random.Random) -> Any:
        state = object.__new__(cls)
        state.game = game
        fill(state, values)  # every field, copied as it needs; the caches None
        for deal, places in plans:  # the quotas hold (checked by dealer)
            for (name, where), dealt in zip(places, deal(rng), strict=True):
                if where is None:
                    setattr(state, name, dealt)
                else:
                    getattr(state, name)[where] = dealt
        for name, where in reshuffled:
            shuffle(rng, getattr(state, name) if where is None
                    else getattr(state, name)[where])
        for mark in later:
            setattr(state, mark.name, state.rebuild_mark(mark, view))
        if acting:
            state._acting = acting[0]
        else:
            state._refresh_acting()
            acting.append(state._acting)
        state.after_deal(view)
        return state

    return draw


def filler(comp: Components, plan: tuple[tuple[str, Callable[[Any], Any] | None], ...]
            ) -> Callable[[Any, tuple[Any, ...]], None]:
    """``fill(state, values)``: each field of ``plan`` (name, copy or None: assigned) set
    from ``values`` in that order, and the caches (the class's other slots) None; written
    as source code once per plan (a draw sets every field, a search draws thousands of
    states per decision)."""
    fillers = comp.__dict__.setdefault("_fillers", {})
    found = fillers.get(plan)
    if found is None:
        lines = ["def fill(state, V):"]
        funcs: list[Callable[[Any], Any]] = []
        for i, (name, copy) in enumerate(plan):
            if copy is None:
                expr = f"V[{i}]"
            elif copy is list.copy or copy is dict.copy or copy is set.copy:
                expr = f"V[{i}].copy()"
            else:
                funcs.append(copy)
                expr = f"F[{len(funcs) - 1}](V[{i}])"
            lines.append(f"    state.{name} = {expr}")
        lines += [f"    state.{name} = None" for name in comp.extra]
        if len(lines) == 1:
            lines.append("    pass")
        scope: dict[str, Any] = {"F": tuple(funcs)}
        exec(compile("\n".join(lines), "<meeple.engine.components fill>", "exec"),  # noqa: S102
             scope)
        found = fillers[plan] = scope["fill"]
    return found  # type: ignore[no-any-return]


def read_zone(c: Zone, view: Mapping[str, Any], seat: int, n: int,
               back: Mapping[Any, Any] | None = None) -> tuple[Any, list[Place]]:
    """A zone's value in a determinization's template (None where dealt) and its hidden
    places ``(name, seat or None, size, quota entries or None)``, in deal order (``back``:
    name -> id, if the view names the pieces)."""
    if c.sizes is not None:
        counts = c.sizes(view)
    elif c.count is None:
        counts = None
    else:
        counts = get_at(view, c.count, 0) if c.count_when else get_at(view, c.count)
    quota = None if c.quota is None else c.quota(view)
    ids = list if back is None else (lambda found: [back[x] for x in found])

    def place(where: int | None, size: Any, entries: Any) -> Place:
        if entries is not None:
            entries = tuple((frozenset(classes), k) for classes, k in entries)
            if all(k is not None for _, k in entries):
                size = sum(k for _, k in entries)
        elif size is None:
            raise TypeError(f"zone {c.name}: hidden from the view and no count to deal by")
        return (c.name, where, size, entries)

    if c.contents is not None:
        found = c.contents(view)
        if not c.per_seat:
            return ([], [place(None, counts, quota)]) if found is None else (ids(found), [])
        value: list[Any] = [None] * n
        hidden = []
        for s in range(n):
            if found[s] is not None:
                value[s] = ids(found[s])
            else:
                hidden.append(place(s, None if counts is None else counts[s],
                                    None if quota is None else quota[s]))
        return value, hidden
    if not c.per_seat:
        shown = shown_pieces(c, view, back)
        if shown is not None:
            return shown, []
        return [], [place(None, counts, quota)]
    if c.visibility is PUBLIC or c.visibility is ORDER_HIDDEN:
        shown = get_at(view, c.show if c.show is not None else c.show_sorted)
        if c.slot:
            return [None if p is None else (p if back is None else back[p]) for p in shown], []
        return [ids(p) for p in shown], []
    value = [None] * n
    hidden = []
    own = shown_pieces(c, view, back)
    for s in range(n):
        if c.visibility is OWNER and s == seat and own is not None:
            value[s] = own
        elif c.visibility is OTHERS and s != seat:
            key = c.show if c.show is not None else c.show_sorted
            value[s] = ids(get_at(view, key)[s])
        else:
            hidden.append(place(s, None if counts is None else counts[s],
                                None if quota is None else quota[s]))
    return value, hidden


#: A determinization's hidden place: the component's name, where in it (None: the whole
#: field; a seat, or a key of a value's piles), its size, and its quota entries (``(classes,
#: count or None)``; None: any unseen piece of the kind).
Place = tuple[str, Any, Any, Any]


def dealer(kind: str, unseen: list[Any], class_of: Any, plan: Sequence[Place],
            game_name: str) -> Callable[[random.Random], list[list[Any]]]:
    """``deal(rng)``: the pieces of each place of ``plan`` (in order) dealt from the
    ``unseen`` pieces of ``kind`` (in ``ids`` order), ``class_of`` (id -> class, or None: one
    class) by the places' quotas, checked here (``ParameterError`` naming ``game_name``).

    The deal, uniform over the deals the quotas allow: each class that a counted
    single-class entry takes from is shuffled once (classes in ``ids`` order of their first
    piece) and those entries take its first pieces, in place order; the classes the other
    entries name are joined where they overlap, and each such group's pieces left over
    (class by class) are shuffled once: its counted entries, which must name the whole
    group, take its first pieces in place order, then its ``None`` entries, in place order,
    every piece left of their classes. With no class and no quota, this is one shuffle of
    the unseen pieces, dealt to the places in order.
    """
    entries: list[tuple[int, frozenset[Any] | None, int | None]] = []
    for i, (_name, _where, size, quota) in enumerate(plan):
        if quota is None:
            entries.append((i, None, size))
        else:
            entries += [(i, classes, k) for classes, k in quota]
    if class_of is None and all(q is None for *_, q in plan):
        sizes = [size for *_, size, _q in plan]
        if sum(sizes) != len(unseen):
            raise ParameterError(f"{game_name} view does not account for the {kind} pieces: "
                                 f"{len(unseen)} unseen for {sum(sizes)} hidden places")
        bounds = []
        at = 0
        for size in sizes:
            bounds.append(slice(at, at + size))
            at += size

        def deal_all(rng: random.Random) -> list[list[Any]]:
            cards = unseen.copy()
            shuffle(rng, cards)
            return [cards[b] for b in bounds]

        return deal_all
    label = (lambda p: None) if class_of is None else class_of.__getitem__
    pools: dict[Any, list[Any]] = {}
    for p in unseen:
        pools.setdefault(label(p), []).append(p)
    order = list(pools)  # classes in ids order of their first unseen piece
    everything = frozenset(order)
    entries = [(i, everything if cl is None else cl, k) for i, cl, k in entries]

    def refuse(why: str) -> ParameterError:
        return ParameterError(f"{game_name} view does not account for the {kind} pieces: "
                              f"{why}")

    # the counted single-class entries
    first = [e for e, (_, cl, k) in enumerate(entries) if len(cl) == 1 and k is not None]
    used = dict.fromkeys(order, 0)
    for e in first:
        (c,) = entries[e][1]
        used[c] = used.get(c, 0) + entries[e][2]  # type: ignore[operator]
        if used[c] > len(pools.get(c, ())):
            raise refuse(f"{used[c]} of class {c!r} wanted, {len(pools.get(c, ()))} unseen")
    shuffled = [c for c in order if any(entries[e][1] == {c} for e in first)]
    # the groups: classes of the other entries, joined where they overlap
    groups: list[set[Any]] = []
    for _, cl, k in entries:
        if len(cl) == 1 and k is not None:
            continue
        joined = set(cl)
        for g in [g for g in groups if g & joined]:
            joined |= g
            groups.remove(g)
        groups.append(joined)
    stages = []
    for g in groups:
        members = [c for c in order if c in g]
        size = sum(len(pools.get(c, ())) - used.get(c, 0) for c in members)
        counted = [e for e, (_, cl, k) in enumerate(entries) if k is not None and cl & g
                   and not (len(cl) == 1 and k is not None)]
        rest = [e for e, (_, cl, k) in enumerate(entries) if k is None and cl & g]
        if any(entries[e][1] != g for e in counted):
            raise refuse("counted quotas of several classes overlap but differ")
        wanted = sum(entries[e][2] for e in counted)  # type: ignore[misc]
        if wanted > size or (wanted < size and not rest):
            raise refuse(f"{size} unseen for {wanted} hidden places of classes {sorted(g)}")
        if wanted < size:
            left = {c for c in members if len(pools.get(c, ())) > used.get(c, 0)}
            if not left <= set().union(*(entries[e][1] for e in rest)):
                raise refuse("pieces left over that no place takes")
        stages.append((members, counted, [(e, entries[e][1]) for e in rest]))
    placed = {c for g in groups for c in g}
    for c in order:
        if c not in placed and used.get(c, 0) != len(pools[c]):
            raise refuse(f"{len(pools[c]) - used.get(c, 0)} of class {c!r} in no place")
    by_place = [[e for e, (i, _, _) in enumerate(entries) if i == j] for j in range(len(plan))]
    count = len(entries)

    def deal(rng: random.Random) -> list[list[Any]]:
        taken: list[Any] = [None] * count
        left: dict[Any, list[Any]] = {}
        for c in shuffled:
            cards = pools[c].copy()
            shuffle(rng, cards)
            left[c] = cards
        at = dict.fromkeys(shuffled, 0)
        for e in first:
            (c,) = entries[e][1]
            k = entries[e][2]
            if not k:
                taken[e] = []
                continue
            taken[e] = left[c][at[c]:at[c] + k]  # type: ignore[operator]
            at[c] += k  # type: ignore[operator]
        for members, counted, rest in stages:
            cards = []
            for c in members:
                cards += left[c][at[c]:] if c in left else pools[c]
            shuffle(rng, cards)
            k = 0
            for e in counted:
                size = entries[e][2]
                taken[e] = cards[k:k + size]  # type: ignore[operator]
                k += size  # type: ignore[operator]
            cards = cards[k:]
            for e, classes in rest:
                taken[e] = [p for p in cards if label(p) in classes]
                cards = [p for p in cards if label(p) not in classes]
        out = []
        for es in by_place:
            if len(es) == 1:
                out.append(taken[es[0]])
            else:
                pieces = []
                for e in es:
                    pieces += taken[e]
                out.append(pieces)
        return out

    return deal
