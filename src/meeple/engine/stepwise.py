"""Step-wise action codes: one action chosen as a short sequence of small sub-decisions.

A game's action table (``Game.action_table``) gives every action one integer code. Where that
table is huge (Damocles: 91,039 codes, the Ozymandias market: 67,447; an Oracle keep or an
Augury order names several cards in one move), no learning agent can use it. The step-wise
encoding chooses the same action in *steps*: the action's canonical text is split into words
(its **steps**: ``"pair GEN-02 ONE-05"`` -> ``pair``, ``GEN-02``, ``ONE-05``) and every step
is one sub-decision over a fixed vocabulary of words, so a decision never offers more codes
than the vocabulary holds (a few hundred at most for the packaged games).

The rule, the same for every game:

* **Steps.** ``action_steps(game, text) -> Sequence[str]`` in the game's encoding module says
  how an action text splits (default: ``text.split()``, the words of its canonical text). A
  game declares its own to factor further (Damocles: a codex, then its Reflex mark ``*``).
* **Vocabulary.** Every step word of every text of the action table, in first-seen table order,
  then :data:`END`: the codes ``0..K-1`` of every sub-decision (:class:`StepCodes`).
* **End of action.** An action whose steps are a proper prefix of another table action's steps
  (``keep`` before ``keep ORA-01``) ends with the extra step :data:`END`, so every action's
  code sequence is fixed (never depends on the state) and no sequence begins another.
* **Composing.** At a decision, a seat's legal actions are the candidates; a sub-decision's
  legal codes are the next codes of the candidates that agree with the codes chosen so far
  (:class:`StepChoice`). The action is composed when the chosen codes are exactly one
  candidate's whole sequence. So every legal action is reachable and no illegal one is.

The adapters (``meeple.adapters``) offer it to learners as ``Discrete(K)`` with a mask of the
sub-decision's legal codes and the pending prefix in the observation (:meth:`StepCodes.pending`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine.errors import IllegalActionError, NotAnActionError

if TYPE_CHECKING:
    from meeple.engine.action import Action
    from meeple.engine.game import Game

#: The step that ends an action whose steps begin a longer one (it has spaces, so no word of a
#: split text can equal it; a game's own ``action_steps`` must not return it).
END = "<end of action>"

#: Memo entries (action -> codes) one :class:`StepCodes` keeps before it is emptied.
MEMO_LIMIT = 1 << 15


def default_steps(game: Game, text: str) -> list[str]:
    """The steps of ``text`` when a game declares no ``action_steps``: its words."""
    return text.split()


def step_codes(game: Game) -> StepCodes:
    """The step-wise encoding of ``game`` (built once per game instance, then cached).

    Raises:
        NotImplementedError: for a game that declares no ``encoding``.
        RuntimeError: if the game's ``action_steps`` gives two table texts the same steps, an
            empty split, or the word :data:`END`.
    """
    found = game._cache.get("step_codes")
    if found is None:
        found = game._cache["step_codes"] = StepCodes(game)
    return found


class StepCodes:
    """The step-wise codes of one game instance (module docstring).

    Attributes:
        game: the game.
        words: the vocabulary; a step's code is its index; the last is :data:`END`.
        size: ``len(words)``, the ``K`` of ``Discrete(K)``.
        depth: the most steps any action takes (``END`` included).
        end: the code of :data:`END`.
    """

    __slots__ = ("game", "words", "size", "depth", "end", "_index", "_ended", "_split", "_memo")

    def __init__(self, game: Game) -> None:
        """Build the vocabulary from ``game.action_table()`` and the game's ``action_steps``.

        Raises:
            NotImplementedError, RuntimeError: as :func:`step_codes`.
        """
        split = getattr(game._encoding(), "action_steps", default_steps)
        table = game.action_table()
        index: dict[str, int] = {}
        sequences = []
        for text in table:
            steps = tuple(split(game, text))
            if not steps or END in steps:
                raise RuntimeError(f"{game.name}: action_steps of {text!r} gave {steps!r}; "
                                   f"expected one or more words, none of them {END!r}")
            for word in steps:
                if word not in index:
                    index[word] = len(index)
            sequences.append(steps)
        order = sorted(range(len(table)), key=sequences.__getitem__)
        ended = set()
        for here, after in zip(order, order[1:], strict=False):
            a, b = sequences[here], sequences[after]
            if a == b:
                raise RuntimeError(f"{game.name}: {table[here]!r} and {table[after]!r} split "
                                   f"into the same steps {a!r}")
            if b[:len(a)] == a:  # sorted: a longer sequence starting with a follows a
                ended.add(table[here])
        self.end = index[END] = len(index)
        self.game = game
        self.words = tuple(index)
        self.size = len(self.words)
        self.depth = max(len(s) + (t in ended) for s, t in zip(sequences, table, strict=True))
        self._index = index
        self._ended = frozenset(ended)
        self._split = split
        self._memo: dict[Any, tuple[int, ...]] = {}

    def codes(self, action: Action) -> tuple[int, ...]:
        """The step codes of ``action``, one per sub-decision (``END`` last where needed).

        Raises:
            NotAnActionError: if a step of the action's text is not in the vocabulary (not an
                action of this game's table); also a ``ValueError``.
        """
        found = self._memo.get(action)
        if found is not None:
            return found
        text = str(action)
        try:
            codes = tuple(self._index[w] for w in self._split(self.game, text))
        except KeyError:
            raise NotAnActionError(f"{self.game.name}: action {text!r} is not in the action "
                                   "table") from None
        if text in self._ended:
            codes += (self.end,)
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[action] = codes
        return codes

    def steps(self, action: Action) -> tuple[str, ...]:
        """The step words of ``action`` (:meth:`codes` as words)."""
        return tuple(self.words[c] for c in self.codes(action))

    def choice(self, legal: Sequence[Action]) -> StepChoice:
        """A new composition of one action among ``legal`` (a seat's legal actions now).

        Raises:
            NotAnActionError: as :meth:`codes`, for a legal action outside the table.
            IllegalActionError: if ``legal`` is empty (nothing to compose).
        """
        return StepChoice(self, legal)

    @property
    def pending_size(self) -> int:
        """The length of :meth:`pending`: ``(depth - 1) * size + depth``."""
        return (self.depth - 1) * self.size + self.depth

    def pending(self, prefix: Sequence[int]) -> np.ndarray:
        """Which sub-decision is pending, as float32 numbers in 0..1 for an observation: per
        step already chosen (``depth - 1`` blocks of ``size``) a one-hot of its code, then a
        one-hot of the number of steps chosen (``depth``). All zeros but the count for an
        empty prefix.

        Raises:
            ValueError: for a prefix of ``depth`` codes or more, or a code out of range.
        """
        k, depth = self.size, self.depth
        if len(prefix) >= depth:
            raise ValueError(f"a pending prefix has at most {depth - 1} codes; got {prefix!r}")
        out = np.zeros(self.pending_size, dtype=np.float32)
        for i, code in enumerate(prefix):
            if not 0 <= code < k:
                raise ValueError(f"step code {code!r} outside 0..{k - 1}")
            out[i * k + code] = 1.0
        out[(depth - 1) * k + len(prefix)] = 1.0
        return out


class StepChoice:
    """One seat's action being composed step by step among its legal actions.

    Attributes:
        prefix: the codes chosen so far (a list; read it, do not change it).
    """

    __slots__ = ("codec", "prefix", "_candidates")

    def __init__(self, codec: StepCodes, legal: Sequence[Action]) -> None:
        """``legal``: the seat's legal actions (see :meth:`StepCodes.choice` for errors)."""
        if not legal:
            raise IllegalActionError("no legal action to compose")
        codes = codec.codes
        self.codec = codec
        self.prefix: list[int] = []
        self._candidates = [(codes(a), a) for a in legal]

    def legal_codes(self) -> list[int]:
        """The codes legal at the pending sub-decision, ascending."""
        d = len(self.prefix)
        return sorted({c[d] for c, _ in self._candidates})

    def mask(self, size: int | None = None) -> np.ndarray:
        """An int8 vector of ``size`` (default the vocabulary's), 1 at :meth:`legal_codes`."""
        out = np.zeros(self.codec.size if size is None else size, dtype=np.int8)
        d = len(self.prefix)
        for c, _ in self._candidates:
            out[c[d]] = 1
        return out

    def choose(self, code: int) -> Action | None:
        """Take ``code`` at the pending sub-decision: the composed action when it is the last
        step of one, else None (another sub-decision is pending).

        Raises:
            IllegalActionError: if ``code`` is not legal at this sub-decision (nothing changes).
        """
        d = len(self.prefix)
        kept = [entry for entry in self._candidates if entry[0][d] == code]
        if not kept:
            raise IllegalActionError(f"step code {code!r} is not legal at sub-decision {d + 1}; "
                                     f"legal codes: {self.legal_codes()}")
        self.prefix.append(int(code))
        self._candidates = kept
        done = d + 1
        for codes, action in kept:
            if len(codes) == done:  # sequences are prefix-free: it is the only candidate
                return action
        return None

    def remaining(self) -> list[Action]:
        """The legal actions that still agree with the codes chosen so far."""
        return [a for _, a in self._candidates]
