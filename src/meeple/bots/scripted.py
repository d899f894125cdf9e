"""Scripted policies: a simple, readable bot family for any game (issue 21, degenerate
strategies).

A scripted policy gives each *tag* (``Game.action_tags``: the action's kind, plus a few words
per game such as Four Gods' ``attack:left`` or Damocles' ``play:haste``) a weight, scores every
legal action by the sum of the weights of its tags (a tag counted as often as it appears, a
tag without a weight counting 0) and plays the best, ties broken with its own seeded stream.
So ``attack:left`` +2 with ``defend`` -1 "always attacks the left neighbour and never
defends", and all weights 0 is the random bot.

Name (what ``--bots`` and the lab's workers build it from; no commas): ``script`` then one
``-<tag>=<weight>`` per weighted tag, e.g. ``script-attack:left=2-defend=-1`` or
``script-play:haste=1.5-end=-0.5``. Tags are lower-case words of letters, digits, ``_`` and
``:``; weights are decimal numbers (``2``, ``-1``, ``0.25``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from meeple.engine.action import Action
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game

__all__ = ["SCRIPT_PREFIX", "ScriptedBot", "describe_policy", "parse_script_name",
           "script_from_name", "script_name"]

#: The family's first name part (``GENERIC_FAMILIES`` key).
SCRIPT_PREFIX = "script"
_TAG = r"[a-z][a-z0-9_:]*"
_NUMBER = r"-?\d+(?:\.\d+)?"
_PART = re.compile(rf"-({_TAG})=({_NUMBER})")


class ScriptedBot(Bot):
    """Plays the legal action whose tags weigh most (module docstring).

    Args:
        game, seat, seed: as every :class:`~meeple.engine.agent.Bot`.
        weights: tag -> weight; tags the game never gives are allowed (they never count).
        label: the name it was built from (for reports); default :func:`script_name`.
    """

    name = SCRIPT_PREFIX

    def __init__(self, game: Game, seat: int, seed: int = 0,
                 weights: Mapping[str, float] | None = None, label: str | None = None) -> None:
        super().__init__(game, seat, seed)
        self.weights = {t: float(w) for t, w in (weights or {}).items() if w}
        self.label = label or script_name(self.weights)
        self._tags = game.action_tags
        self._scores: dict[Action, float] = {}

    def _score(self, action: Action) -> float:
        found = self._scores.get(action)
        if found is None:
            weights = self.weights
            found = self._scores[action] = sum(weights.get(t, 0.0) for t in self._tags(action))
        return found

    def action_values(self, view: Mapping[str, Any],
                      legal_actions: Sequence[Action]) -> list[float]:
        """Each action's weight sum (same order as ``legal_actions``)."""
        return [self._score(a) for a in legal_actions]

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.choose_best(legal_actions, self.action_values(view, legal_actions))


def _number(weight: float) -> str:
    """A weight as short text: ``2``, ``-1``, ``0.25`` (at most 3 decimals)."""
    text = f"{weight:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def script_name(weights: Mapping[str, float]) -> str:
    """The bot name of a policy: ``script`` and ``-<tag>=<weight>`` per non-zero weight, tags
    sorted, weights rounded to 3 decimals (``{"defend": -1, "attack:left": 2}`` ->
    ``script-attack:left=2-defend=-1``).

    Raises:
        ParameterError: a tag that is not a lower-case word of letters, digits, ``_``, ``:``.
    """
    parts = []
    for tag in sorted(weights):
        if not re.fullmatch(_TAG, tag):
            raise ParameterError(f"tag {tag!r} cannot be part of a bot name: use lower-case "
                                 "letters, digits, '_' and ':'")
        number = _number(float(weights[tag]))
        if number != "0":
            parts.append(f"-{tag}={number}")
    return SCRIPT_PREFIX + "".join(parts)


def parse_script_name(name: str) -> dict[str, float]:
    """The weights of a scripted-policy name (inverse of :func:`script_name`).

    Raises:
        ParameterError: naming what cannot be read, with the name's form.
    """
    if not name.startswith(SCRIPT_PREFIX):
        raise ParameterError(f"{name!r} is not a scripted policy (script-TAG=WEIGHT-...)")
    rest = name[len(SCRIPT_PREFIX):]
    weights: dict[str, float] = {}
    pos = 0
    while pos < len(rest):
        found = _PART.match(rest, pos)
        if found is None:
            raise ParameterError(f"cannot read {rest[pos:]!r} in bot {name!r}: write "
                                 "script-TAG=WEIGHT-TAG=WEIGHT..., e.g. "
                                 "script-attack:left=2-defend=-1")
        tag, value = found.groups()
        if tag in weights:
            raise ParameterError(f"bot {name!r} weighs tag {tag!r} twice")
        weights[tag] = float(value)
        pos = found.end()
    return weights


def script_from_name(name: str, game: Game, seat: int, seed: int = 0) -> ScriptedBot:
    """Build a :class:`ScriptedBot` from its name (module docstring; ``GENERIC_FAMILIES``).

    Raises:
        ParameterError: a name that cannot be read.
    """
    return ScriptedBot(game, seat, seed, parse_script_name(name), label=name)


def describe_policy(weights: Mapping[str, float], most: int = 4) -> str:
    """A policy in plain words from its weights: the tags it prefers (positive weights, the
    largest first) and avoids (negative), at most ``most`` of each, e.g. ``prefers actions
    tagged attack:left (+2), pass (+0.5); avoids defend (-1)``; ``plays at random`` with no
    weight. A tag is a word of ``Game.action_tags`` (the action's kind, or a feature such as
    ``indicators:1``, one indicator placed)."""
    ranked = sorted(((w, t) for t, w in weights.items() if w), reverse=True)
    likes = [f"{t} (+{_number(w)})" for w, t in ranked if w > 0][:most]
    dislikes = [f"{t} ({_number(w)})" for w, t in reversed(ranked) if w < 0][:most]
    parts = []
    if likes:
        parts.append("prefers actions tagged " + ", ".join(likes))
    if dislikes:
        parts.append(("avoids " if likes else "avoids actions tagged ") + ", ".join(dislikes))
    return "; ".join(parts) if parts else "plays at random"
