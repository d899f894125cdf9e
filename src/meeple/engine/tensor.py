"""Building observation tensors: a writer that fills a flat float32 vector block by block.

A game's encoding (``Game.encoding``, see :meth:`meeple.engine.game.Game.observation_tensor`)
turns one seat's view into a fixed-size vector. :class:`TensorWriter` holds that vector and a
write position: every method appends one block of a stated width, left at zero except for what
it writes, so the layout is the sequence of calls and :meth:`TensorWriter.done` checks that the
calls add up to exactly the declared size.

Seat blocks are usually *relative* to the viewer: index 0 is the viewing seat ``me``, then the
next seats in seat order (:func:`relative_seat`, :func:`seats_from`).

**Bounds.** Every block also states the lowest and highest value its numbers can take, from
the game's limits (``low``/``high``, default 0 and 1: hot vectors and shares of a maximum):
:func:`observation_bounds` reads them by encoding one view while recording, so the bounds sit
next to the numbers they bound and the adapters' ``Box(low, high)`` follow the layout. They must
not depend on the view (the same call writes the same bounds whatever it holds).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from meeple.engine.game import Game

#: Writers made while :func:`observation_bounds` records (None: not recording).
_RECORDING: contextvars.ContextVar[list | None] = contextvars.ContextVar("tensor_bounds",
                                                                          default=None)


def observation_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of every number of ``game``'s observation tensor (two
    flat float32 arrays of its size), cached per game instance: the encoding module's
    ``observation_bounds(game)`` where it defines one, else the bounds its
    :class:`TensorWriter` blocks state, read by encoding seat 0's initial view. A number whose
    two limits are equal (a part switched off) gets ``high = low + 1``.

    Raises:
        NotImplementedError: for a game that declares no ``encoding``.
        RuntimeError: if the encoding wrote its tensor without a recording
            :class:`TensorWriter`, or its bounds have another size than the observation.
    """
    found = game._cache.get("observation_bounds")
    if found is not None:
        return found
    own = getattr(game._encoding(), "observation_bounds", None)
    size = int(np.prod(game.observation_shape()))
    if own is not None:
        low, high = (np.asarray(b, dtype=np.float32).reshape(-1) for b in own(game))
    else:
        low, high = recorded_bounds(
            game, size, lambda: game.observation_tensor(game.new_initial_state(0).view(0)))
    if low.shape != (size,) or high.shape != (size,) or np.any(low > high):
        raise RuntimeError(f"{game.name}'s observation bounds do not fit its {size} numbers")
    # A number whose limits coincide is a part a parameter switches off (always 0): widen it
    # to low..low + 1, still a true bound, since Gymnasium's checker warns on equal limits.
    high = np.where(high == low, low + 1, high).astype(np.float32)
    game._cache["observation_bounds"] = found = (low.copy(), high.copy())
    return found


def recorded_bounds(game: Game, size: int, encode: Callable[[], Any]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The bounds the blocks state when ``encode()`` writes a tensor of ``size`` numbers
    with a :class:`TensorWriter` (two float32 arrays of ``size``; the last such writer's),
    recorded while it runs; ``game`` names the game in the error.

    Raises:
        RuntimeError: if ``encode`` made no :class:`TensorWriter` of ``size`` numbers.
    """
    writers: list[TensorWriter] = []
    token = _RECORDING.set(writers)
    try:
        encode()
    finally:
        _RECORDING.reset(token)
    sized = [w for w in writers if w.size == size]
    if not sized:
        raise RuntimeError(f"{game.name}'s encoding wrote no TensorWriter of {size} "
                           "numbers; define observation_bounds(game) in it")
    return sized[-1]._lo, sized[-1]._hi


def relative_seat(seat: int, me: int, n: int) -> int:
    """``seat`` as seen from seat ``me`` among ``n`` seats: ``(seat - me) % n`` (0 = ``me``)."""
    return (seat - me) % n


def seats_from(me: int, n: int) -> list[int]:
    """The ``n`` absolute seats in viewer-first order: ``me, me + 1, ...`` modulo ``n``."""
    return [(me + k) % n for k in range(n)]


class TensorWriter:
    """Appends blocks to a zeroed float32 vector of ``size`` numbers.

    Every method writes the next ``width`` numbers and moves the position on by ``width``
    (what it does not set stays 0). A block that would run past the end raises
    ``RuntimeError``; an index outside its block raises ``IndexError``; :meth:`done` raises
    ``RuntimeError`` unless exactly ``size`` numbers were written.
    """

    __slots__ = ("_i", "_v", "_lo", "_hi")

    def __init__(self, size: int) -> None:
        """``size``: the vector's length (``observation_shape`` of the game, flattened)."""
        self._v = np.zeros(int(size), dtype=np.float32)
        self._i = 0
        recording = _RECORDING.get()
        if recording is None:
            self._lo: Any = None
            self._hi: Any = None
        else:
            self._lo = np.zeros(int(size), dtype=np.float32)
            self._hi = np.zeros(int(size), dtype=np.float32)
            recording.append(self)

    @property
    def size(self) -> int:
        """The vector's length."""
        return len(self._v)

    @property
    def written(self) -> int:
        """Numbers written (or skipped) so far, the position of the next block."""
        return self._i

    def block(self, width: int, low: Any = 0.0, high: Any = 1.0) -> np.ndarray:
        """The next ``width`` numbers as a writable float32 view (shape ``(width,)``, zeros);
        reshape it for a table of rows. ``low``/``high``: the bounds of its numbers (one
        value, or one per number).

        Raises:
            RuntimeError: if the block would run past the end of the vector.
        """
        start = self._i
        end = start + width
        if width < 0 or end > len(self._v):
            raise RuntimeError(f"a block of {width} numbers at position {start} overruns "
                               f"the tensor of {len(self._v)} numbers")
        if self._lo is not None:
            self._lo[start:end] = low
            self._hi[start:end] = high
        self._i = end
        return self._v[start:end]

    def skip(self, width: int, low: Any = 0.0, high: Any = 1.0) -> None:
        """Leaves the next ``width`` numbers at 0 (an absent part; the bounds of the part
        when present)."""
        self.block(width, low, high)

    def value(self, x: float, low: float = 0.0, high: float = 1.0) -> None:
        """One number ``x`` (a bool gives 1.0 or 0.0) in ``low..high``."""
        self.block(1, low, high)[0] = x

    def values(self, xs: Sequence[float], low: Any = 0.0, high: Any = 1.0) -> None:
        """``len(xs)`` numbers, in order, in ``low..high``."""
        self.block(len(xs), low, high)[:] = xs

    def one_hot(self, width: int, index: int | None) -> None:
        """``width`` numbers, 1.0 at ``index`` (``0..width-1``); ``None`` leaves all 0.

        Raises:
            IndexError: if ``index`` is outside ``0..width-1``.
        """
        b = self.block(width)
        if index is not None:
            if not 0 <= index < width:
                raise IndexError(f"one-hot index {index} outside 0..{width - 1}")
            b[index] = 1.0

    def multi_hot(self, width: int, indices: Iterable[int | None]) -> None:
        """``width`` numbers, 1.0 at every index in ``indices`` (``None`` entries skipped).

        Raises:
            IndexError: if an index is outside ``0..width-1``.
        """
        b = self.block(width)
        for i in indices:
            if i is not None:
                if not 0 <= i < width:
                    raise IndexError(f"multi-hot index {i} outside 0..{width - 1}")
                b[i] = 1.0

    def counts(self, width: int, indices: Iterable[int],
               weight: float | Sequence[float] = 1.0, high: Any = 1.0) -> None:
        """``width`` numbers, adding ``weight`` at each index per occurrence (a count of each
        kind, scaled). ``weight`` is one number, or a sequence read at the index (``weight[i]``
        for index ``i``, e.g. ``1 / copies``); ``high`` the largest scaled count.

        Raises:
            IndexError: if an index is outside ``0..width-1``.
        """
        b = self.block(width, 0.0, high)
        per_index = not isinstance(weight, (int, float))
        for i in indices:
            if not 0 <= i < width:
                raise IndexError(f"count index {i} outside 0..{width - 1}")
            b[i] += weight[i] if per_index else weight  # type: ignore[index]

    def seat_hot(self, seat: int | None, me: int, n: int) -> None:
        """``n`` numbers: 1.0 at ``seat`` relative to the viewer ``me`` (:func:`relative_seat`);
        ``None`` (no seat) leaves all 0."""
        b = self.block(n)
        if seat is not None:
            b[(seat - me) % n] = 1.0

    def seats_hot(self, seats: Iterable[int], me: int, n: int) -> None:
        """``n`` numbers: 1.0 at each of ``seats`` relative to the viewer ``me``."""
        b = self.block(n)
        for seat in seats:
            b[(seat - me) % n] = 1.0

    def per_seat(self, values: Sequence[float | None], me: int, n: int,
                 scale: float = 1.0, low: float = 0.0, high: float = 1.0) -> None:
        """``n`` numbers: ``values[s] / scale`` for absolute seat ``s`` (``values`` has one entry
        per seat), rotated so the viewer ``me`` comes first; ``None`` entries stay 0; each in
        ``low..high``."""
        b = self.block(n, low, high)
        for s, v in enumerate(values):
            if v is not None:
                b[(s - me) % n] = v / scale

    def done(self) -> np.ndarray:
        """The finished vector (float32, shape ``(size,)``).

        Raises:
            RuntimeError: if the blocks written do not add up to exactly ``size`` numbers
                (naming both), i.e. the layout and the declared shape disagree.
        """
        if self._i != len(self._v):
            raise RuntimeError(f"tensor incomplete: expected {len(self._v)} numbers, "
                               f"{self._i} written")
        return self._v
