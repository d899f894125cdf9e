"""Building observation tensors: a writer that fills a flat float32 vector block by block.

A game's encoding (``Game.encoding``, see :meth:`meeple.engine.game.Game.observation_tensor`)
turns one seat's view into a fixed-size vector. :class:`TensorWriter` holds that vector and a
write position: every method appends one block of a stated width, left at zero except for what
it writes, so the layout is the sequence of calls and :meth:`TensorWriter.done` checks that the
calls add up to exactly the declared size.

Seat blocks are usually *relative* to the viewer: index 0 is the viewing seat ``me``, then the
next seats in seat order (:func:`relative_seat`, :func:`seats_from`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


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

    __slots__ = ("_i", "_v")

    def __init__(self, size: int) -> None:
        """``size``: the vector's length (``observation_shape`` of the game, flattened)."""
        self._v = np.zeros(int(size), dtype=np.float32)
        self._i = 0

    @property
    def size(self) -> int:
        """The vector's length."""
        return len(self._v)

    @property
    def written(self) -> int:
        """Numbers written (or skipped) so far, the position of the next block."""
        return self._i

    def block(self, width: int) -> np.ndarray:
        """The next ``width`` numbers as a writable float32 view (shape ``(width,)``, zeros);
        reshape it for a table of rows.

        Raises:
            RuntimeError: if the block would run past the end of the vector.
        """
        end = self._i + width
        if width < 0 or end > len(self._v):
            raise RuntimeError(f"a block of {width} numbers at position {self._i} overruns "
                               f"the tensor of {len(self._v)} numbers")
        out = self._v[self._i:end]
        self._i = end
        return out

    def skip(self, width: int) -> None:
        """Leaves the next ``width`` numbers at 0 (an absent part)."""
        self.block(width)

    def value(self, x: float) -> None:
        """One number ``x`` (a bool gives 1.0 or 0.0)."""
        self.block(1)[0] = x

    def values(self, xs: Sequence[float]) -> None:
        """``len(xs)`` numbers, in order."""
        self.block(len(xs))[:] = xs

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
               weight: float | Sequence[float] = 1.0) -> None:
        """``width`` numbers, adding ``weight`` at each index per occurrence (a count of each
        kind, scaled). ``weight`` is one number, or a sequence read at the index (``weight[i]``
        for index ``i``, e.g. ``1 / copies``).

        Raises:
            IndexError: if an index is outside ``0..width-1``.
        """
        b = self.block(width)
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
                 scale: float = 1.0) -> None:
        """``n`` numbers: ``values[s] / scale`` for absolute seat ``s`` (``values`` has one entry
        per seat), rotated so the viewer ``me`` comes first; ``None`` entries stay 0."""
        b = self.block(n)
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
