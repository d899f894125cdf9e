"""Epoch Ellipse encoding for the learning adapters: a fixed action table and a fixed-size
observation vector (the ``encoding`` hooks of :class:`meeple.engine.game.Game`).

**Action table** (:func:`action_texts`): every canonical action text (:mod:`.actions`) any seat
can ever take in one game instance, built from the content and the action kinds' argument
domains (:mod:`.moves`), never from play. Card arguments range over the *present* card types
(a starter card or a card of the Salvage, Survivor or Catastrophe deck at this difficulty;
night cards never reach a hand), each restricted to where the rules can use it. In order:

=========================== ==================================================================
block                        texts (argument domain)
=========================== ==================================================================
bare                         ``accept decline done pass new skip resolve suffer starve``
pick                         ``pick 1`` .. ``pick S``; S = survivor cards in the Survivor deck
                             (a pool pile starts with a distinct survivor, EPE-38)
trade (2+ seats)             ``trade P G R``: P a seat, G != R salvage types (EPE-7)
use                          ``use T M``: a mode M of type T giving weapon, medical,
                             avoid_collapse, trash_catastrophe or draw points (plan, combat,
                             collapse; salvage only under ``medical_salvage_only``, EPE-8)
use ms (2+ seats)            ``use ms P M``: a mode some Salvage-deck card pays those points
                             with (a Mournful card, EPE-6)
stabilize                    ``stabilize T M``: modes giving medical points (EPE-30)
eat, eat ms                  ``eat T M`` / ``eat ms P M``: modes giving food points
treat                        ``treat T``: catastrophe types (2. PLAN)
give                         ``give T`` then ``give x T``: salvage types (3D, EPE-22)
return                       ``return T``: every present type (EPE-24)
charm, charm ms              ``charm T``: CHARM types; ``charm ms P`` (2+ seats) (EPE-25)
redraw                       ``redraw T``: types whose discard mode redraws (EPE-43)
explore                      ``explore L K``: L = 1..locations in the file, K = 1..explore_max
                             (``explore L roll`` under ``explore_count=d6``) (3B, EPE-15)
=========================== ==================================================================

Types run in file order, seats from 0. With the reference cards (18 salvage, 14 survivor and
25 catastrophe types present in ``seed``, 12 locations, 14 survivors) the table holds **254
texts at 1 seat and 254 + 311 n at n = 2..5 seats** (876, 1187, 1498, 1809) in ``seed``,
``hard`` and ``forgiving``; ``easy`` has 4 fewer (two catastrophe types are absent), ``strict``
14 fewer (only salvage pays) and ``d6`` 60 fewer (one ``explore L roll`` per location). Trades
are ordered (the offered card, then the asked one) and make up most of the table (306 per
partner seat); no text stands for the same choice as another.

**Observation** (:func:`observation_tensor`): a flat float32 vector of
:func:`observation_shape`, made from one seat's view alone; seats are *relative* (index 0 is
the viewing seat, then the next seats in seat order). Card counts are per card type (T types
in file order) divided by :data:`COUNT_SCALE`; other numbers are scaled to about 0..1. The
layout, block by block (n seats, T types, L locations, S survivor piles):

1. global: phase one-hot (5), step one-hot (14), day / max_days, result one-hot (won, lost,
   truncated), recovered VP / target, target / VP of all locations, location deck / non-fixed
   locations, the four shared deck sizes / their full sizes, passes / n, credits / 4, the
   night discard (T counts), removed survivors (T counts), today's trades (n x n flags);
2. per relative seat: status one-hot (alive, mournful, dead), to act, acting, first player,
   hungry, waiting for a survivor, waiting to explore, draw deck size (squashed, x / (x +
   10)), catastrophes in the discard / 3, hand size / hand_size (up to about 2 over the limit
   in an exploration), has died; its hand, discard pile and deck contents (3 x T counts), its
   Mournful card (T one-hot);
3. per location position (L): in play, which location (L one-hot), VP / 5, tokens and event
   deck cards (squashed, x / (x + 10): the Graveyard grows without a useful bound), Recovered;
4. per survivor pile (S): present, its cards (T counts);
5. the trade offer: present, from and to (2 x n one-hot), given and asked type (2 x T one-hot);
6. the exploration: present, explorer (n one-hot), location position (L one-hot), K /
   explore_max, current catastrophe (T one-hot), difficulty / 5, paid / 5, the flipped
   catastrophes, survivors and salvage still to resolve (3 x T counts), the gift pile present
   and its cards (1 + T), seats waiting to explore (n flags).

Size: 32 + 2T + n^2 + n (13 + 4T) + L (L + 5) + S (T + 1) + (1 + 2n + 2T) + (5 + 2n + L + 5T)
floats, with the reference cards (T = 69, L = 12, S = 14) 1855 + 293 n + n^2: 2149 at 1 seat,
2743 at 3, 3345 at 5. Values lie in 0..1 except a few counts (a per-type count reaches 2 when
a pile holds 10 copies; measured maximum over 400 random and heuristic games: 2.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.tensor import TensorWriter, relative_seat, seats_from
from meeple.games.epoch_ellipse.actions import BARE, make_move
from meeple.games.epoch_ellipse.cards import CATASTROPHE, CHARM, KINDS, SALVAGE, SURVIVOR

if TYPE_CHECKING:
    from meeple.games.epoch_ellipse.rules import EpochEllipse

#: Points a ``use`` pays: plan (draw, medical, trash_catastrophe), combat, collapse.
USE_POINTS = ("draw", "medical", "trash_catastrophe", "weapon", "avoid_collapse")
PHASES = ("wake", "plan", "explore", "hunger", "over")
STEPS = ("wake", "pick", "plan", "answer", "treat", "choose", "flip", "combat", "collapse",
         "rescue", "limit", "next", "hunger", "over")
RESULTS = ("won", "lost", "truncated")
STATUSES = ("alive", "mournful", "dead")
#: Divisor of every per-type card count (a pile seldom holds more of one type).
COUNT_SCALE = 5.0


def _present(game: EpochEllipse) -> list[int]:
    """Card types that can ever be in a hand: starter cards and the non-night decks."""
    content = game.content
    types = set(content.starter)
    for kind in (SALVAGE, SURVIVOR, CATASTROPHE):
        types.update(content.decks[kind])
    return sorted(types)


def _modes(card, points: Sequence[str]) -> list[str]:
    return [m for m in card.modes() if any(card.points(m).get(p, 0) > 0 for p in points)]


def action_texts(game: EpochEllipse) -> list[str]:
    """The action table of ``game`` (layout and size in the module docstring)."""
    cards, names, p = game.content.cards, game.names, game.params
    n = game.players
    present = _present(game)
    salvage = [t for t in present if cards[t].kind == SALVAGE]
    payers = salvage if p["medical_salvage_only"] else present
    ms_cards = sorted(set(game.content.decks[SALVAGE]))
    owners = range(n) if n > 1 else ()  # a Mournful card helps another alive seat

    def ms_modes(points: Sequence[str]) -> list[str]:
        found = {m for t in ms_cards for m in _modes(cards[t], points)}
        return [m for m in ("discard", "trash") if m in found]

    out: list[tuple[str, tuple]] = [(kind, ()) for kind in BARE]
    out += [("pick", (i,)) for i in range(len(game.shared[SURVIVOR]))]
    if n > 1:
        out += [("trade", (q, g, r)) for q in range(n) for g in salvage for r in salvage
                if g != r]
    for kind, points in (("use", USE_POINTS), ("stabilize", ("medical",)), ("eat", ("food",))):
        out += [(kind, (t, m)) for t in payers for m in _modes(cards[t], points)]
        if kind != "stabilize":
            out += [(kind, ("ms", q, m)) for q in owners for m in ms_modes(points)]
    out += [("treat", (t,)) for t in present if cards[t].kind == CATASTROPHE]
    out += [("give", (t, False)) for t in salvage] + [("give", (t, True)) for t in salvage]
    out += [("return", (t,)) for t in present]
    out += [("charm", (t,)) for t in present if cards[t].subtype == CHARM]
    if any(cards[t].subtype == CHARM for t in ms_cards):
        out += [("charm", ("ms", q)) for q in owners]
    out += [("redraw", (t,)) for t in present if cards[t].discard.get("redraw")]
    counts = [0] if p["explore_count"] == "d6" else range(1, p["explore_max"] + 1)
    out += [("explore", (pos, k)) for pos in range(len(game.content.locations))
            for k in counts]
    return [str(make_move(0, kind, names, args)) for kind, args in out]


def _sizes(game: EpochEllipse) -> tuple[int, int, int, int]:
    content = game.content
    return (game.players, len(content.cards), len(content.locations),
            len(game.shared[SURVIVOR]))


def observation_shape(game: EpochEllipse) -> tuple[int]:
    """``(size,)``, the length of the flat vector (formula in the module docstring)."""
    n, t, loc, s = _sizes(game)
    size = (len(PHASES) + len(STEPS) + 1 + len(RESULTS) + 2 + 1 + len(KINDS) + 2 + 2 * t + n * n
            + n * (len(STATUSES) + 10 + 4 * t)
            + loc * (loc + 5)
            + s * (t + 1)
            + 1 + 2 * n + 2 * t
            + 1 + n + loc + 1 + t + 2 + 3 * t + 1 + t + n)
    return (size,)


def observation_tensor(game: EpochEllipse, view: Mapping[str, Any]) -> np.ndarray:
    """One seat's ``view`` (``state.view(seat)``; a spectator's view reads as seat 0's, without
    anything seat-specific) as a float32 vector of :func:`observation_shape`; layout in the
    module docstring. Reads only ``view`` and the game's content."""
    n, t, loc, s = _sizes(game)
    content, p = game.content, game.params
    by_name = content.by_name
    location_index = _location_index(game)
    w = TensorWriter(observation_shape(game)[0])
    me = view.get("seat") if isinstance(view.get("seat"), int) else 0

    lim = _limits(game)

    def counts(names: Sequence[str]) -> None:
        w.counts(t, [by_name[name] for name in names], 1.0 / COUNT_SCALE,
                 lim["copies"] / COUNT_SCALE)

    def index(options: Sequence[str], value: Any) -> int | None:
        return options.index(value) if value in options else None

    # 1. global
    w.one_hot(len(PHASES), index(PHASES, view["phase"]))
    w.one_hot(len(STEPS), index(STEPS, view["step"]))
    w.value(view["day"] / p["max_days"])
    w.one_hot(len(RESULTS), index(RESULTS, view["result"]))
    total_vp = max(1, sum(x.vp for x in content.locations))
    w.value(view["recovered_vp"] / max(1, view["target_vp"]), 0.0,
            total_vp / max(1, p["target_vp"]))
    w.value(view["target_vp"] / total_vp, 0.0, max(1.0, p["target_vp"] / total_vp))
    w.value(view["location_deck"] / max(1, len(content.location_deck)))
    for kind in KINDS:
        w.value(view["decks"].get(kind, 0) / max(1, len(content.decks[kind])))
    w.value(view["passes"] / n)
    w.value(view["credits"] / 4.0, 0.0, lim["points"] / 4.0)
    counts(view["night_discard"])
    counts(view["removed"])
    traded = w.block(n * n)
    for a, b in view["traded"]:
        ra, rb = relative_seat(a, me, n), relative_seat(b, me, n)
        traded[ra * n + rb] = traded[rb * n + ra] = 1.0
    # 2. seats, the viewer first
    players = view["players"]
    explo = view["exploration"]
    waiting = set(explo["waiting"]) if explo else set()
    for seat in seats_from(me, n):
        pl = players[seat]
        w.one_hot(len(STATUSES), index(STATUSES, pl["status"]))
        w.value(seat in view["to_act"])
        w.value(seat in view["acting"])
        w.value(seat == view["first"])
        w.value(seat in view["hungry"])
        w.value(seat in view["queue"])
        w.value(seat in waiting)
        w.value(_squash(pl["deck"]))
        w.value(pl["catastrophes_in_discard"] / 3.0, 0.0, lim["catastrophes"] / 3.0)
        w.value(len(pl["hand"]) / p["hand_size"], 0.0, lim["cards"] / p["hand_size"])
        w.value(pl["death_cause"] is not None)
        counts(pl["hand"])
        counts(pl["discard"])
        counts(pl["deck_cards"])
        w.one_hot(t, by_name.get(pl["mournful_card"]))
    # 3. locations by position
    position = {}
    for pos in range(loc):
        b = w.block(loc + 5, 0.0, lim["location_row"])
        if pos < len(view["locations"]):
            place = view["locations"][pos]
            position[place["name"]] = pos
            b[0] = 1.0
            b[1 + location_index[place["name"]]] = 1.0
            b[loc + 1:] = (place["vp"] / 5.0, _squash(place["tokens"]), _squash(place["cards"]),
                           float(place["recovered"]))
    # 4. survivor piles
    pool = view["pool"]
    for i in range(s):
        w.value(i < len(pool))
        counts(pool[i] if i < len(pool) else ())
    # 5. the offer
    offer = view["offer"]
    w.value(offer is not None)
    w.seat_hot(offer["from"] if offer else None, me, n)
    w.seat_hot(offer["to"] if offer else None, me, n)
    w.one_hot(t, by_name[offer["give"]] if offer else None)
    w.one_hot(t, by_name[offer["receive"]] if offer else None)
    # 6. the exploration
    w.value(explo is not None)
    explo = explo or {}
    w.seat_hot(explo.get("seat"), me, n)
    w.one_hot(loc, position.get(explo.get("location")))
    w.value(explo.get("k", 0) / p["explore_max"], 0.0, max(6, p["explore_max"])
            / p["explore_max"])
    w.one_hot(t, by_name.get(explo.get("current")))
    w.value(explo.get("difficulty", 0) / 5.0, 0.0, lim["difficulty"] / 5.0)
    w.value(explo.get("paid", 0) / 5.0, 0.0, (lim["difficulty"] + lim["points"]) / 5.0)
    counts(explo.get("catastrophes", ()))
    counts(explo.get("survivors", ()))
    counts(explo.get("salvage", ()))
    w.value(explo.get("rescue") is not None)
    counts(explo.get("rescue") or ())
    w.seats_hot(explo.get("waiting", ()), me, n)
    return w.done()


@lru_cache(maxsize=64)
def _limits(game: EpochEllipse) -> dict[str, Any]:
    """The content's limits that bound the observation (``observation_bounds``): ``cards``, the
    cards in play (every deck and each seat's starter deck); ``copies``, the most copies of one
    type among them; ``catastrophes``, the CATASTROPHE cards among them; ``points``, the most
    points one card's mode gives; ``difficulty``, the highest COMBAT difficulty;
    ``location_row``, the bounds of a location's row (flags, VP / 5, squashed counts)."""
    content, n = game.content, game.players
    copies = [0] * len(content.cards)
    for deck in content.decks.values():
        for c in deck:
            copies[c] += 1
    for c in content.starter:
        copies[c] += n
    cards = content.cards
    loc = len(content.locations)
    row = np.ones(loc + 5, dtype=np.float32)
    row[loc + 1] = max((x.vp for x in content.locations), default=0) / 5.0
    return {
        "cards": sum(copies),
        "copies": max(copies, default=0),
        "catastrophes": sum(k for c, k in zip(cards, copies, strict=True)
                            if c.kind == CATASTROPHE),
        "points": max((sum(c.points(m).values()) for c in cards for m in c.modes()), default=0),
        "difficulty": max((c.difficulty for c in cards), default=0),
        "location_row": row,
    }


def _squash(x: float, half: float = 10.0) -> float:
    """``x / (x + half)``: a count without a useful bound, mapped monotonically into 0..1."""
    return x / (x + half)


@lru_cache(maxsize=64)
def _location_index(game: EpochEllipse) -> dict[str, int]:
    """Location name -> its index in the file, per game spec (specs are hashable)."""
    return {place.name: i for i, place in enumerate(game.content.locations)}
