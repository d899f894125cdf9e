"""Per-game traces for the designer's diagnostics: lead changes, eliminations, what was played.

The playtest runner plays each game with :func:`meeple.engine.episode.play_episode`; a
:class:`Trace` made for that game watches every step through ``play_episode``'s ``on_step``
hook and, at the end, gives a few JSON-ready fields that the runner merges into the game's
result dict (``result.update(trace.finish(state))``). :mod:`meeple.lab.analysis.diagnostics` turns
those fields, over many games, into first-seat advantage, lead changes, per-card and per-action win
rates and elimination statistics.

What an action counts as (its *key*), by a generic rule with a small per-game table:

* an action with a ``kind`` (``meeple.engine.action.KindAction``; every card game here) counts
  under its kind (``"trade"``, ``"end"``); a kind listed in :data:`CARD_PLAYS` for the game
  (``"play"`` by default) plays cards, and the card ids that follow the kind in the action's
  canonical text (``str(action)``; ``play HAS-04`` -> ``HAS-04``, a trailing ``*`` dropped)
  are also counted as cards played;
* an action without a kind counts under a game's keyer from :data:`ACTION_KEYERS` when there
  is one (Battle of the Four Gods: the shape of the selection, ``"2 atk + 1 def"``), else under
  its canonical text.

Cost per step: a list append, one ``state.length()`` call, ``state.is_eliminated`` of the seats
still in (only for games that override it) and, once per tick of the length (a new round or
turn), one ``state.scores()`` call; the actions are counted once, at the end
(``benchmarks/bench_trace.py`` measures the overhead on whole bot games).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain
from operator import methodcaller
from typing import Any

from meeple.engine.action import Action
from meeple.engine.game import Game
from meeple.engine.state import State

__all__ = ["ACTION_KEYERS", "CARD_PLAYS", "TRACE_FIELDS", "Trace", "action_key"]

#: The result fields :meth:`Trace.finish` returns (the names diagnostics look for).
TRACE_FIELDS = ("lead_changes", "leader_before_final", "eliminations", "actions", "cards")

#: Per game: the action kinds that play cards, each with how many card ids follow the kind in
#: the action's canonical text (rules pages, "Action notation"). Games not listed: ``play``
#: with one card id.
CARD_PLAYS: dict[str, dict[str, int]] = {
    "damocles": {"play": 1, "pair": 2, "haste": 1},
    "ozymandias-market": {"plan": 1},
    "ozymandias-campaign": {"play": 1, "fight": 1},
    "epoch-ellipse": {"use": 1, "eat": 1, "charm": 1, "treat": 1, "stabilize": 1},
}
_DEFAULT_CARD_PLAYS = {"play": 1}
_ITEMS = methodcaller("items")


def _selection_shape(action: Action) -> str:
    """Battle of the Four Gods: a selection as its shape, ``"pass"``, ``"1 atk"``,
    ``"2 atk + 1 def"`` (``" (revealed)"`` appended for a face-up one)."""
    attacks = len(getattr(action, "attacks", ()))
    defends = len(getattr(action, "defends", ()))
    parts = [f"{n} {word}" for n, word in ((attacks, "atk"), (defends, "def")) if n]
    text = " + ".join(parts) or "pass"
    return text + (" (revealed)" if getattr(action, "reveal", False) else "")


#: Per game: a function from an action without a ``kind`` to its key.
ACTION_KEYERS: dict[str, Callable[[Action], str]] = {
    "battle-of-the-four-gods": _selection_shape,
}

#: Per game name: action -> (key, cards), filled as actions are met.
_CACHE: dict[str, dict[Action, tuple[str, tuple[str, ...]]]] = {}
_CACHE_LIMIT = 200_000


def action_key(game_name: str, action: Action) -> tuple[str, tuple[str, ...]]:
    """The key ``action`` counts under and the card ids it plays (rule in the module
    docstring).

    Args:
        game_name: the game's registered name (selects :data:`CARD_PLAYS` and
            :data:`ACTION_KEYERS` entries).
        action: any action of that game.
    Returns:
        ``(key, cards)``: e.g. ``("play", ("HAS-04",))``, ``("end", ())``,
        ``("2 atk + 1 def", ())``. Memoised per (game, action).
    """
    cache = _CACHE.setdefault(game_name, {})
    found = cache.get(action)
    if found is not None:
        return found
    kind = getattr(action, "kind", None)
    cards: tuple[str, ...] = ()
    if kind is None:
        keyer = ACTION_KEYERS.get(game_name)
        key = keyer(action) if keyer is not None else str(action)
    else:
        key = str(kind)
        n_cards = CARD_PLAYS.get(game_name, _DEFAULT_CARD_PLAYS).get(key, 0)
        if n_cards:
            words = str(action).split()
            cards = tuple(w.rstrip("*") for w in words[1:1 + n_cards])
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[action] = (key, cards)
    return key, cards


class Trace:
    """Watches one game and reports what the diagnostics need; make one per game.

    Use::

        trace = Trace(game)
        state, record = play_episode(game, seed, agents, on_step=trace.on_step)
        result.update(trace.finish(state))   # what play_one does

    The leader is the seat with the strictly highest ``state.scores()``; it is sampled at every
    *tick* (a step after which ``state.length()`` differs from the step before, i.e. a new
    round or turn) and at the end. A tie has no leader and does not end a lead: A, tie, B is one
    change; A, tie, A none. In a cooperative game every seat has the same score, so there is
    never a leader.
    """

    __slots__ = ("_name", "_joints", "_tick", "_sampled", "_leader", "_previous", "_holder",
                 "_changes", "_eliminations", "_alive", "_is_eliminated")

    def __init__(self, game: Game) -> None:
        """Args: game: the game spec that will be played (its ``name`` and ``players``)."""
        self._name = game.name
        self._joints: list[Mapping[int, Action]] = []  # counted in finish()
        self._tick: int | None = None
        self._sampled = -1  # the step count at the latest sample
        self._leader: int | None = None  # at the latest sample
        self._previous: int | None = None  # at the sample before it
        self._holder: int | None = None  # the latest leader that was not a tie
        self._changes = 0
        self._eliminations: list[list[int]] = []
        self._alive = list(range(game.players))
        self._is_eliminated: bool | None = None  # does the state override is_eliminated?

    def on_step(self, state: State, joint: Mapping[int, Action]) -> None:
        """Keep the joint action (counted at the end; ``play_episode`` makes a new dict every
        step and never changes it) and sample eliminations and, at a tick, the leader.
        ``play_episode``'s ``on_step``: called after every step with the new state; it never
        mutates the state."""
        self._joints.append(joint)
        length = state.length()
        check = self._is_eliminated
        if check is None:
            check = self._is_eliminated = type(state).is_eliminated is not State.is_eliminated
        if check:
            self._check_eliminations(state, length)
        if length != self._tick:
            self._tick = length
            self._sample(state)

    def _check_eliminations(self, state: State, length: int) -> None:
        is_eliminated = state.is_eliminated
        for seat in self._alive:
            if is_eliminated(seat):
                fallen = [s for s in self._alive if is_eliminated(s)]
                for s in fallen:
                    self._alive.remove(s)
                    self._eliminations.append([s, length])
                return

    def _sample(self, state: State) -> None:
        self._sampled = len(self._joints)
        scores = state.scores()
        best = max(scores)
        leader = scores.index(best) if scores.count(best) == 1 else None
        self._previous, self._leader = self._leader, leader
        if leader is not None:
            if self._holder is not None and leader != self._holder:
                self._changes += 1
            self._holder = leader

    def _counts(self, players: int) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
        """Per seat: ``{key: times}`` and ``{card: times}`` over the kept joint actions."""
        tally = Counter(chain.from_iterable(map(_ITEMS, self._joints)))  # C-speed count
        actions: list[dict[str, int]] = [{} for _ in range(players)]
        cards: list[dict[str, int]] = [{} for _ in range(players)]
        name = self._name
        known = _CACHE.setdefault(name, {})
        for (seat, action), times in tally.items():
            found = known.get(action)
            key, played = found if found is not None else action_key(name, action)
            counts = actions[seat]
            counts[key] = counts.get(key, 0) + times
            if played:
                mine = cards[seat]
                for card in played:
                    mine[card] = mine.get(card, 0) + times
        return actions, cards

    def finish(self, state: State) -> dict[str, Any]:
        """The trace fields of the finished game (``state`` is its final state).

        Returns:
            A JSON-ready dict with exactly the keys of :data:`TRACE_FIELDS`:

            * ``lead_changes`` (int >= 0): how often the leader changed (class docstring);
            * ``leader_before_final`` (seat or ``None``): the leader at the sample before the
              final one, i.e. going into the last round or turn (``None``: a tie, or a game of
              a single step);
            * ``eliminations``: ``[[seat, length], ...]`` in the order the seats were first
              seen eliminated (``state.is_eliminated``), with ``state.length()`` at that step
              (seats falling at the same step in seat order); ``[]`` for games without
              elimination;
            * ``actions``: per seat, ``{key: times}`` over the seat's actions (module
              docstring);
            * ``cards``: per seat, ``{card id: times played}``.
        """
        if self._sampled != len(self._joints) or not self._joints:
            if type(state).is_eliminated is not State.is_eliminated:
                self._check_eliminations(state, state.length())
            self._sample(state)
        actions, cards = self._counts(state.game.players)
        return {
            "lead_changes": self._changes,
            "leader_before_final": self._previous,
            "eliminations": [list(e) for e in self._eliminations],
            "actions": actions,
            "cards": cards,
        }
