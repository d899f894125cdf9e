"""Records: everything needed to replay a playthrough exactly, and replay itself.

A record holds the game spec (name, variant, players, parameters), the seed, every step (the
actions applied together, by seat, in canonical text), the table talk, and the result with the
final state's digest. Since all chance derives from the seed, replaying the steps on a new
initial state must reach a state with the same digest; :func:`replay` checks it. A game played
from a position (``meeple playtest --from``) also keeps its ``start``
(:mod:`meeple.engine.scenario`): replay begins at ``start_state(game, start, seed)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.engine.action import Action
from meeple.engine.errors import MeepleError, RecordError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.engine.state import State

RECORD_FORMAT = "meeple-record/1"


@dataclass
class Record:
    """One playthrough. ``steps[i]`` maps a seat (as text, for JSON) to its action's text."""

    game: str
    variant: str
    players: int
    params: dict[str, Any]
    seed: int
    steps: list[dict[str, str]] = field(default_factory=list)
    talk: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: None for a game from the deal; else the start it was played from (a position, see
    #: :mod:`meeple.engine.scenario`), written to JSON only when set.
    start: dict[str, Any] | None = None

    def finish(self, state: State) -> None:
        """Store the terminal (or final) state's result and digest."""
        self.result = {
            "returns": list(state.returns()),
            "winners": list(state.winners()),
            "scores": list(state.scores()),
            "length": state.length(),
            "truncated": state.is_truncated(),
            "terminal": state.is_terminal(),
            "digest": state.digest(),
        }

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible form (``format`` is ``meeple-record/1``; ``start`` only when set)."""
        out = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "params": self.params,
            "seed": self.seed,
            "steps": self.steps,
            "talk": self.talk,
            "result": self.result,
            "meta": self.meta,
        }
        if self.start is not None:
            out["start"] = self.start
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """Inverse of :meth:`to_json`.

        Raises:
            RecordError: if the data is not a meeple record.
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError("not a meeple record (expected format meeple-record/1)")
        try:
            record = cls(
                game=data["game"], variant=data["variant"], players=int(data["players"]),
                params=dict(data["params"]), seed=int(data["seed"]), steps=list(data["steps"]),
                talk=list(data.get("talk", [])), result=data.get("result"),
                meta=dict(data.get("meta", {})), start=data.get("start"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed record: {exc}") from None
        if record.start is not None and not (isinstance(record.start, dict)
                                             and isinstance(record.start.get("position"), dict)):
            raise RecordError("malformed record: start must be {\"position\": a state, ...}")
        for index, step in enumerate(record.steps):
            if not isinstance(step, dict) or not step or not all(
                isinstance(k, str) and k.isdigit() and isinstance(v, str)
                for k, v in step.items()
            ):
                raise RecordError(
                    f"malformed record: step {index} must map seat numbers to action texts, "
                    f"got {step!r}"
                )
        return record

    def save(self, path: str | Path) -> None:
        """Write the record as indented JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record written by :meth:`save` (or one JSON object of a ``.jsonl`` line).

        Raises:
            RecordError: the file is not valid JSON or not a record.
        """
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: not JSON ({exc})") from None


def initial_state(game: Game, record: Record) -> State:
    """The state ``record`` starts from: ``game``'s deal for its seed, or, for a game played
    from a position, that position reseeded (:func:`meeple.engine.scenario.start_state`).

    Raises:
        RecordError: the record's start position is not a valid state of ``game``.
    """
    if record.start is None:
        return game.new_initial_state(record.seed)
    from meeple.engine.scenario import start_state

    try:
        return start_state(game, record.start, record.seed)
    except MeepleError as exc:
        raise RecordError(f"the record's start position is invalid: {exc}") from None


def replay(record: Record, verify: bool = True,
           on_step: Callable[[State, dict[int, Action]], None] | None = None) -> State:
    """Replay ``record`` from its seed and return the final state.

    Args:
        record: the playthrough to replay.
        verify: check the final state's digest against ``record.result["digest"]``.
        on_step: called after every step with the new state and the step's actions by seat,
            as :func:`meeple.engine.episode.play_episode` calls it (e.g.
            :meth:`meeple.lab.analysis.trace.Trace.on_step`); it must not mutate the state.
    Raises:
        RecordError: a step does not parse or is illegal (naming the step), or the final state
            differs from the recorded one.
    """
    try:
        game = load_game(record.game, record.variant, record.players, **record.params)
    except MeepleError as exc:
        raise RecordError(f"record names a game that cannot be loaded: {exc}") from None
    state = initial_state(game, record)
    for index, step in enumerate(record.steps):
        try:
            joint = {int(s): game.parse_action(text, int(s)) for s, text in step.items()}
            if len(joint) == 1:
                ((seat, action),) = joint.items()
                state.apply_action(action, seat)
            else:
                state.apply_actions(joint)
        except MeepleError as exc:
            raise RecordError(f"step {index} {step}: {exc}") from None
        except (AttributeError, TypeError, ValueError, KeyError) as exc:
            raise RecordError(f"step {index} {step} is malformed: {exc}") from None
        if on_step is not None:
            on_step(state, joint)
    if verify and record.result is not None:
        if state.digest() != record.result.get("digest"):
            raise RecordError(
                "replay does not reach the recorded final state "
                f"(digest {state.digest()[:12]} != {str(record.result.get('digest'))[:12]})"
            )
    return state
