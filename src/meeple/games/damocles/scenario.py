"""Damocles scenarios: a turn-phase position from a short description (issue 18).

Example (three seats, seat 1 to play, the next two draws fixed)::

    from meeple import load_game
    game = load_game("damocles", players=3)
    state = game.build_scenario(
        circle="HADES NYX ARTEMIS DEMETER POSEIDON HADES NYX",
        hands={1: ["ONE-03", "ORA-01", "GEN-04"]},
        points=[4, 7, 2], active=1, turns_taken=7,
        next_draws=["HAS-02", "TWO-05"],
    )
    assert state.deck[-1] == "HAS-02"  # the top of the deck: drawn first

Seats whose hand is not given get the usual hand size (``deal`` minus ``setup_discard``) from
the top of the seeded deck; everything not named stays in the deck (shuffled by ``seed``), the
discard pile and ``removed`` start empty unless given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from meeple.engine.errors import ParameterError
from meeple.engine.rng import shuffle
from meeple.engine.scenario import seat_values, stack_on_top, validated
from meeple.games.damocles.codex import CIRCLE, GOD_INITIALS, GODS

if TYPE_CHECKING:
    from meeple.games.damocles.rules import Damocles, DamoclesState

DEFAULT_CIRCLE = "HADES POSEIDON ARTEMIS DEMETER NYX HADES POSEIDON"


def parse_circle(text: str | Sequence[str]) -> list[int]:
    """Seven gods, by name or initial (``"HADES NYX A D P H N"``), as god indices.

    Raises:
        ParameterError: not seven words, or a word that is not a god.
    """
    words = text.split() if isinstance(text, str) else list(text)
    if len(words) != CIRCLE:
        raise ParameterError(f"circle: expected {CIRCLE} gods, got {len(words)}: {words}")
    out = []
    for word in words:
        w = str(word).upper()
        if w in GODS:
            out.append(GODS.index(w))
        elif w in GOD_INITIALS:
            out.append(GOD_INITIALS.index(w))
        else:
            raise ParameterError(f"circle: {word!r} is not a god ({', '.join(GODS)})")
    return out


def build(game: Damocles, *, seed: int = 0,
          circle: str | Sequence[str] = DEFAULT_CIRCLE,
          hands: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
          tableaus: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
          points: Mapping[int, int] | Sequence[int] | None = None,
          active: int = 0, turns_taken: int = 0,
          discard: Sequence[str] = (), removed: Sequence[str] = (),
          next_draws: Sequence[str] = ()) -> DamoclesState:
    """A Damocles position at the start of ``active``'s turn (phase ``turn``, step ``pre``).

    Args:
        game: the game spec (its players and parameters apply).
        seed: shuffles the cards not named and seeds the state's chance stream.
        circle: the seven slots, god names or initials, slot 1 first.
        hands, tableaus, points: per seat (a list, or ``{seat: value}`` for some seats).
            Hands not given: the usual hand size from the deck. Tableaus: none. Points: 0.
        active: whose turn it is; ``turns_taken``: turns already played (of cycles x seats).
        discard, removed: codices in the discard pile / out of the game (DAM-38).
        next_draws: codices put on top of the deck in this order (``next_draws[0]`` is the
            next one drawn, by an Oracle, Generate or Combust).
    Returns:
        The state, checked like a loaded one (``Game.state_from_json``).
    Raises:
        ParameterError: an unknown or repeated codex, a bad circle or seat, or a state that
            breaks an invariant (a :class:`~meeple.engine.errors.StateError`).
    """
    n, p = game.players, game.params
    state = game.new_initial_state(seed)
    given_hands = seat_values(hands, n, None, "hands")
    tabs = [list(t) for t in seat_values(tableaus, n, [], "tableaus")]
    named: list[str] = [c for h in given_hands if h is not None for c in h]
    named += [c for t in tabs for c in t] + list(discard) + list(removed)
    for cid in [*named, *next_draws]:
        if cid not in game.codex_by_id:
            raise ParameterError(f"unknown codex {cid!r}")
    seen: set[str] = set()
    for cid in named:
        if cid in seen:
            raise ParameterError(f"codex {cid!r} is named twice")
        seen.add(cid)
    deck = [c.id for c in game.deck]
    shuffle(state.rng, deck)
    deck = [c for c in deck if c not in seen]
    size = max(0, p["deal"] - p["setup_discard"])
    reserved = set(next_draws)
    free = [c for c in deck if c not in reserved]
    out_hands = []
    for hand in given_hands:
        if hand is None:
            hand, free = free[-size:] if size else [], free[:-size] if size else free
        out_hands.append(list(hand))
    dealt = {c for h in out_hands for c in h}
    state.deck = [c for c in deck if c not in dealt]
    stack_on_top(state.deck, list(next_draws), "codex")
    state.hands, state.tableaus = out_hands, tabs
    state.discard, state.removed = list(discard), list(removed)
    state.points = [int(x) for x in seat_values(points, n, 0, "points")]
    state.circle = parse_circle(circle)
    if state.bank is not None and p["bank"] == "shared20":
        state.bank = [4 - state.circle.count(g) for g in range(len(GODS))]
    if not (isinstance(active, int) and 0 <= active < n):
        raise ParameterError(f"active: {active!r} is not a seat (0..{n - 1})")
    state.placed, state.active, state.turns_taken = CIRCLE, active, int(turns_taken)
    state.phase, state.events, state.winners_ = "turn", [], None
    state._reset_turn()
    state._refresh_acting()
    return validated(state)  # type: ignore[return-value]
