"""The Python side of an OpenSpiel adapter state (:mod:`meeple.adapters.openspiel`): the meeple
state, the move log it came by, and each seat's perfect-recall information state.

No pyspiel import here: this is plain meeple code, kept apart so the adapter module stays small.
The information-state string of a seat is its current view (canonical JSON), a newline, and
``recall:`` with a SHA-256 digest of what it saw before: each change of its view and each of its
own actions, in order (docs/adapters/openspiel.md).
"""

from __future__ import annotations

import functools
import hashlib
import random
from typing import Any

from meeple.adapters._common import action_from_code, view_text
from meeple.engine.errors import IllegalActionError
from meeple.engine.game import Game
from meeple.engine.registry import load_game


class Log:
    """One applied step in an immutable, shared linked list: ``joint`` is ((seat, action),
    ...) applied at once (one pair: ``apply_action``; several: ``apply_actions``)."""

    __slots__ = ("parent", "joint")

    def __init__(self, parent: Log | None, joint: tuple) -> None:
        self.parent = parent
        self.joint = joint


def apply_joint(state: Any, joint: tuple) -> None:
    if len(joint) == 1:
        seat, action = joint[0]
        state.apply_action(action, seat)
    else:
        state.apply_actions(dict(joint))


def _digest(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


@functools.cache
def _base_digests(players: int) -> dict[int, bytes]:
    return {s: _digest(b"meeple-recall/1", bytes([s])) for s in range(players)}


class Core:
    """The Python side of a :class:`MeepleState`: the meeple seed (None until the opening
    chance node deals it), the meeple state (built from the seed on first use), the state the
    move log starts from (``root``), the log, and per seat a cache of its information-state
    digest (``recall``: seat -> (log node, digest, meeple state at that node, view text
    there)). ``base`` holds each seat's starting digest. Read-only once shared: a clone gets
    its own meeple state and shares the rest."""

    __slots__ = ("game", "simultaneous", "wait", "seed", "state", "root", "log", "recall",
                 "base")

    def __init__(self, game: Game, simultaneous: bool, wait: int | None,
                 seed: int | None = None, state: Any = None) -> None:
        self.game = game
        self.simultaneous = simultaneous
        self.wait = wait
        self.seed = seed if state is None else state.seed
        self.state = state
        self.root = None if state is None else state.clone()
        self.log: Log | None = None
        self.recall: dict[int, tuple] = {}
        self.base = _base_digests(game.players)

    @property
    def dealt(self) -> bool:
        """Whether the meeple seed is known (always, for a game without chance)."""
        return self.seed is not None

    def deal(self, seed: int) -> None:
        """Resolve the opening chance node: the playthrough's meeple seed is ``seed``."""
        if self.seed is not None:
            raise RuntimeError("the seed is already dealt")
        self.seed = seed

    def get(self) -> Any:
        """The meeple state (built from the seed on first use).

        Raises:
            RuntimeError: before the opening chance node is resolved.
        """
        state = self.state
        if state is None:
            if self.seed is None:
                raise RuntimeError("no meeple state before the opening chance node")
            state = self.state = self.game.new_initial_state(self.seed)
            self.root = state.clone()
        return state

    def action(self, seat: int, code: int) -> Any:
        """The legal action of ``seat`` with ``code``.

        Raises:
            IllegalActionError: naming the code when it is not legal now.
        """
        state = self.get()
        legal = state.legal_actions(seat)
        try:
            action = action_from_code(self.game, int(code), seat)
        except Exception as exc:  # an unreadable code: say which
            raise IllegalActionError(f"player {seat}: code {code} is not an action ({exc})") \
                from None
        if action not in legal:
            raise IllegalActionError(f"player {seat} cannot play {code} ({action}) now")
        return action

    def apply(self, joint: tuple) -> None:
        apply_joint(self.get(), joint)
        self.log = Log(self.log, joint)

    def information_state(self, seat: int) -> str:
        """The seat's current view (JSON) and the digest of what it saw before (module
        docstring), extended lazily from the last point computed for this lineage."""
        state = self.get()
        entry = self.recall.get(seat)
        pending: list[Log] = []
        node = self.log
        while node is not None and (entry is None or node is not entry[0]):
            pending.append(node)
            node = node.parent
        if entry is not None and node is not entry[0]:
            entry = None  # not an ancestor (cannot happen within a lineage): start over
        if entry is None:
            pending = []
            node = self.log
            while node is not None:
                pending.append(node)
                node = node.parent
            entry = (None, self.base[seat], self.root, view_text(self.root.view(seat)))
        _, digest, cursor, last = entry
        if pending:
            cursor = cursor.clone()
            for node in reversed(pending):
                for s, action in node.joint:
                    if s == seat:
                        digest = _digest(digest, b"A", str(action).encode())
                apply_joint(cursor, node.joint)
                text = view_text(cursor.view(seat))
                if text != last:
                    digest = _digest(digest, b"V", last.encode())
                    last = text
        self.recall[seat] = (self.log, digest, cursor, last)
        current = view_text(state.view(seat))
        if current != last:  # cannot differ: the cursor replays this very history
            raise RuntimeError(f"{self.game.name}: replayed view differs from the state's")
        return f"{current}\nrecall:{digest.hex()}"

    def resampled(self, seat: int, rng: random.Random) -> Core:
        """A core for a state drawn with ``Game.determinize`` from ``seat``'s view: same
        information state for ``seat``; the other seats' histories are unknown to ``seat``,
        so their digests restart from a value derived from ``seat``'s."""
        self.information_state(seat)
        _, digest, _, last = self.recall[seat]
        state = self.game.determinize(self.get().view(seat), rng)
        new = Core(self.game, self.simultaneous, self.wait, state=state)
        new.base = {s: _digest(b"resampled", digest, bytes([s])) for s in range(
            self.game.players)}
        new.recall = {seat: (None, digest, new.root, last)}
        return new

    def __deepcopy__(self, memo: dict) -> Core:
        new = Core.__new__(Core)
        new.game, new.simultaneous, new.wait = self.game, self.simultaneous, self.wait
        new.seed = self.seed
        new.state = None if self.state is None else self.state.clone()
        new.root, new.log = self.root, self.log
        new.recall, new.base = dict(self.recall), self.base
        return new

    def __reduce__(self) -> tuple:
        if not self.dealt:
            return (core_from_data, (self.game.spec(), self.simultaneous, self.wait,
                                      None, [], None, {}))
        self.get()
        steps = []
        node = self.log
        while node is not None:
            steps.append([[s, str(a)] for s, a in node.joint])
            node = node.parent
        steps.reverse()
        return (core_from_data, (self.game.spec(), self.simultaneous, self.wait,
                                  self.root.to_json(), steps, self.state.to_json(),
                                  {s: d.hex() for s, d in self.base.items()}))


def core_from_data(spec: dict, simultaneous: bool, wait: int | None, root: dict,
                    steps: list, current: dict, base: dict) -> Core:
    """Rebuild a pickled :class:`Core` (OpenSpiel deserialization)."""
    game = load_game(spec["game"], spec["variant"], spec["players"], **spec["params"])
    if root is None:
        return Core(game, simultaneous, wait)
    core = Core(game, simultaneous, wait, state=game.state_from_json(root))
    node = None
    for joint in steps:
        node = Log(node, tuple((int(s), game.parse_action(t, int(s))) for s, t in joint))
    core.log = node
    core.state = game.state_from_json(current)
    core.base = {int(s): bytes.fromhex(d) for s, d in base.items()}
    return core
