"""Damocles as fixed-size numbers for learning adapters: the action table and the observation.

**Action table** (:func:`action_texts`): every move text of :mod:`.actions` any seat can ever
take in a game instance, built from the deck (``game.deck``) and the argument domains in
:mod:`.moves`, never by sampling play. It does not depend on the seat count. In order, with
``D`` codices in the deck, ``k = setup_discard``, ``H``/``M``/``M*`` the Haste codices, the
Manipulation and Destruction codices, and those among them a Reflex can relax (an interior gap
in the pattern, :func:`~.matching.relaxed_variants`), ``P x N`` the Production x Number pairs:

=========================== ================================================================
block                       size
=========================== ================================================================
``end``, ``stop``           2
``place GOD s``             5 x 7 = 35 (god-major; slots 1-7)
``swap a b``                21 (a < b)
``swap s GOD``              7 x 5 = 35 (external swaps)
``haste X``                 H
``play X`` / ``play X*``    M + M* (the ``*`` only with Reflex codices in the deck)
``pair P N`` (+ ``*``)      P x N x (1 + [P relaxable] + [N relaxable] + both), stars only
                            with Reflex codices in the deck
``destroy X``               permanent codices, only with Destruction codices in the deck
``discard ...``             C(D, k) (ids sorted, as the rules print them); none if k = 0
``keep ...``                with an Oracle in the deck: ``keep`` alone (an empty pool), then
                            C(D, j) for j = 1..the largest Number value in the deck
=========================== ================================================================

Sizes for the packaged deck (``k = 2``): ``seed``, ``absolute`` and ``strict`` 91,039 codes
(D = 80: keep 85,401, discard 3,160, pair 2,340, the rest 138), ``annex`` 112,225 (D = 86),
``destruction`` 116,100 (D = 87), ``future`` 140,961 (D = 93). The Oracle keep (any 3 of the
deck) dominates: the table is as small as the current notation allows, which names the kept
codices in one move. A table over :data:`MAX_ACTIONS` (e.g. ``setup_discard`` >= 4) raises
``ParameterError``.

**Observation** (:func:`observation_tensor`): one seat's view (``state.view(seat)``) as a flat
float32 vector. Seat blocks are relative to the viewer (block 0 = the viewer, then the next
seats in turn order). With ``n`` seats, in order:

- the viewer's seat, one-hot (n); the phase (discard, place, turn, over) (4); the turn step
  (pre, swap2, play, keep, destroy; zeros outside the turn phase) (5); the active seat (n);
  the first placer (n); turns taken / turns in the game (1);
- the circle: per slot 1-7, its god one-hot or empty (7 x 6); the bank per god / 20 and a
  1 when the bank is limited (6);
- per seat: points / 100 clipped at :data:`SCORE_CAP` (n), hand size / deal (n); deck and
  discard size / D (2);
- the viewer's hand, one multi-hot over the deck (D); every seat's tableau (n x D);
- the turn context: swaps allowed / 2, swaps done / 2, Reflex tokens / 2, Annex available,
  Annex played, granted count / deal, keep pool size / 5, keep count / 3 (8); codices in pairs
  used this turn, consumed this turn, granted to the viewer, in the viewer's Oracle pool (4 x D);
- the seat whose tableau a Destruction targets (n), its remaining count / 2 and the queue's
  length / n (2); the winners (n).

Length ``7n + 70 + (n + 5) x D``: 818 for 4 seats and the packaged 80-codex deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.errors import ParameterError
from meeple.engine.tensor import TensorWriter, seats_from
from meeple.games.damocles.actions import Move
from meeple.games.damocles.codex import (
    CIRCLE,
    DESTRUCTION,
    GODS,
    MANIPULATION,
    NUMBER,
    PRODUCTION,
    Codex,
)
from meeple.games.damocles.matching import relaxed_variants

if TYPE_CHECKING:
    from meeple.games.damocles.rules import Damocles

#: Largest action table this module builds; bigger ones raise ``ParameterError``.
MAX_ACTIONS = 1_000_000

#: A seat's points are encoded as points / 100, clipped at this, to keep a finite bound.
SCORE_CAP = 2.0

PHASES = ("discard", "place", "turn", "over")
STEPS = ("pre", "swap2", "play", "keep", "destroy")


def _text(kind: str, args: tuple[Any, ...]) -> str:
    return str(Move(0, kind, args))  # the rules' own canonical text


def _relaxable(codex: Codex) -> bool:
    """Whether a Reflex can change how ``codex`` matches (an interior gap, DAM-5 b)."""
    return len(relaxed_variants(codex.pattern)) > 1


def _keep_sizes(deck: Sequence[Codex]) -> range:
    """Sizes of an Oracle keep (DAM-21): up to the largest Number value; none without Oracle."""
    if not any(c.type == "ORACLE" for c in deck):
        return range(0)
    top = max((c.info.number for c in deck if c.info.cls == NUMBER), default=0)
    return range(top + 1)


def table_size(deck: Sequence[Codex], setup_discard: int) -> int:
    """The length :func:`action_texts` returns for ``deck`` and ``setup_discard`` (computed
    without building the table)."""
    d = len(deck)
    discards = comb(d, setup_discard) if setup_discard else 0
    return len(_small_block(tuple(deck))) + discards + sum(comb(d, j) for j in _keep_sizes(deck))


@cache
def _small_block(deck: tuple[Codex, ...]) -> tuple[str, ...]:
    """Every table text but the discard and keep blocks."""
    ordered = sorted(deck, key=lambda c: c.id)
    types = {c.type for c in deck}
    reflex = "REFLEX" in types
    out = [_text("end", ()), _text("stop", ())]
    out += [_text("place", (g, s)) for g in range(len(GODS)) for s in range(CIRCLE)]
    out += [_text("swap", (a, b)) for a in range(CIRCLE) for b in range(a + 1, CIRCLE)]
    out += [_text("trade", (s, g)) for s in range(CIRCLE) for g in range(len(GODS))]
    out += [_text("haste", (c.id,)) for c in ordered if c.type == "HASTE"]
    for c in ordered:
        if c.info.cls in (MANIPULATION, DESTRUCTION):
            out.append(_text("play", (c.id, False)))
            if reflex and _relaxable(c):
                out.append(_text("play", (c.id, True)))
    productions = [c for c in ordered if c.info.cls == PRODUCTION]
    numbers = [c for c in ordered if c.info.cls == NUMBER]
    for p in productions:
        for n in numbers:
            for rp in (False, True):
                for rn in (False, True):
                    if (rp or rn) and not reflex:
                        continue
                    if (rp and not _relaxable(p)) or (rn and not _relaxable(n)):
                        continue
                    out.append(_text("pair", (p.id, n.id, rp, rn)))
    if types & {"LYSE", "SACRIFICE", "EVISCERATE"}:
        out += [_text("destroy", (c.id,)) for c in ordered if c.info.permanent]
    return tuple(out)


@cache
def _table(deck: tuple[Codex, ...], setup_discard: int) -> tuple[str, ...]:
    size = table_size(deck, setup_discard)
    if size > MAX_ACTIONS:
        raise ParameterError(
            f"damocles has {size:,} distinct actions with this deck and setup_discard = "
            f"{setup_discard}; the adapters' table is capped at {MAX_ACTIONS:,}")
    ids = sorted(c.id for c in deck)
    out = list(_small_block(deck))
    if setup_discard:
        out += ["discard " + " ".join(c) for c in combinations(ids, setup_discard)]
    for j in _keep_sizes(deck):
        out += ["keep " + " ".join(c) if c else "keep" for c in combinations(ids, j)]
    return tuple(out)


def action_texts(game: Damocles) -> tuple[str, ...]:
    """Every action text of ``game`` in the order of the module docstring (cached per deck
    and ``setup_discard``; the same for every seat count).

    Raises:
        ParameterError: if the table would exceed :data:`MAX_ACTIONS` texts.
    """
    return _table(tuple(game.deck), game.params["setup_discard"])


def action_steps(game: Damocles, text: str) -> list[str]:
    """The sub-decisions of an action text for the step-wise codes
    (:mod:`meeple.engine.stepwise`): its words, a codex a Reflex relaxes as two steps, the
    codex then ``*`` (``pair GEN-02 ONE-05*`` -> ``pair``, ``GEN-02``, ``ONE-05``, ``*``), so
    the vocabulary names each codex once: 93 codes for ``seed`` at 4 seats instead of 149.
    """
    out = []
    for word in text.split():
        if word.endswith("*"):
            out += [word[:-1], "*"]
        else:
            out.append(word)
    return out


def observation_shape(game: Damocles) -> tuple[int]:
    """``(7n + 70 + (n + 5) * D,)`` for ``n`` seats and a deck of ``D`` codices."""
    n, d = game.players, len(game.deck)
    return (7 * n + 70 + (n + 5) * d,)


@cache
def _codex_index(deck: tuple[Codex, ...]) -> dict[str, int]:
    return {c.id: i for i, c in enumerate(deck)}


def observation_tensor(game: Damocles, view: Mapping[str, Any]) -> np.ndarray:
    """``view`` (one seat's ``state.view(seat)``) as the float32 vector of the module docstring.

    Reads only the view and the game's static content (deck, parameters).
    """
    n, deck = game.players, tuple(game.deck)
    d, deal = len(deck), max(1, game.params["deal"])
    index = _codex_index(deck)
    me = view["seat"]
    turn = view["turn"]
    w = TensorWriter(observation_shape(game)[0])

    def codices(ids: Sequence[str]) -> None:
        w.multi_hot(d, [index[cid] for cid in ids])

    w.one_hot(n, me)
    w.one_hot(len(PHASES), PHASES.index(view["phase"]))
    w.one_hot(len(STEPS), STEPS.index(turn["step"]) if view["phase"] == "turn" else None)
    w.seat_hot(view["active"], me, n)
    w.seat_hot(view["placer"], me, n)
    w.value(view["turns_taken"] / max(1, view["turns_total"]))
    for god in view["circle"]:
        w.one_hot(6, 5 if god is None else GODS.index(god))
    bank = view["bank"]
    bank_high = [(20 + CIRCLE) / 20] * len(GODS) + [1.0]  # every token of a god, in the bank
    if bank is not None:
        w.values([*(bank[g] / 20 for g in GODS), 1.0], 0.0, bank_high)
    else:
        w.skip(len(GODS) + 1, 0.0, bank_high)
    w.per_seat([min(x, SCORE_CAP * 100) for x in view["scores"]], me, n, 100, 0.0, SCORE_CAP)
    w.per_seat(view["hand_sizes"], me, n, deal, 0.0, d / deal)
    w.values([view["deck_size"] / d, view["discard_size"] / d])
    codices(view.get("hand", ()))
    for seat in seats_from(me, n):
        codices(view["tableaus"][seat])
    reflexes = sum(1 for c in deck if c.type == "REFLEX")
    keeps = max(_keep_sizes(deck), default=0)
    w.values([turn["swaps_allowed"] / 2, turn["swaps_done"] / 2, turn["relax_tokens"] / 2,
              float(turn["annex_available"]), float(turn["annex_played"]),
              turn["granted_count"] / deal, turn["keep_size"] / 5, turn["keep_count"] / 3],
             0.0, [1, 1, max(2, reflexes) / 2, 1, 1, d / deal, d / 5, max(3, keeps) / 3])
    codices(sorted({cid for pair in turn["pairs_used"] for cid in pair}))
    codices(turn["consumed"])
    codices(view.get("granted", ()))
    codices(view.get("keep_pool", ()))
    queue = turn["destroy_queue"]
    w.seat_hot(queue[0][0] if queue else None, me, n)
    w.values([queue[0][1] / 2 if queue else 0.0, len(queue) / n], 0.0, [d / 2, d])
    w.seats_hot(view["winners"] or (), me, n)
    return w.done()
