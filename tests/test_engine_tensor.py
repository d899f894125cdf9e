"""Unit tests of :class:`meeple.engine.tensor.TensorWriter`, the shared observation writer."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.engine import TensorWriter, relative_seat, seats_from


def test_blocks_are_laid_out_in_call_order() -> None:
    w = TensorWriter(12)
    w.value(0.5)
    w.one_hot(3, 2)
    w.one_hot(2, None)
    w.multi_hot(3, [0, None, 2])
    w.values([0.25, True])
    w.skip(1)
    out = w.done()
    assert out.dtype == np.float32 and out.shape == (12,)
    assert out.tolist() == [0.5, 0, 0, 1, 0, 0, 1, 0, 1, 0.25, 1, 0]


def test_block_is_a_writable_view() -> None:
    w = TensorWriter(4)
    w.value(1.0)
    w.block(3).reshape(3, 1)[1, 0] = 7.0
    assert w.done().tolist() == [1, 0, 7, 0]


def test_counts_accumulate_with_one_or_per_index_weight() -> None:
    w = TensorWriter(6)
    w.counts(3, [1, 1, 2], 0.5)
    w.counts(3, [0, 2, 2], [0.25, 9.0, 0.125])
    assert w.done().tolist() == [0, 1.0, 0.5, 0.25, 0, 0.25]


def test_seat_blocks_are_relative_to_the_viewer() -> None:
    # viewer 2 of 4: seat 2 -> 0, seat 3 -> 1, seat 0 -> 2, seat 1 -> 3
    assert [relative_seat(s, 2, 4) for s in range(4)] == [2, 3, 0, 1]
    assert seats_from(2, 4) == [2, 3, 0, 1]
    w = TensorWriter(16)
    w.seat_hot(0, 2, 4)
    w.seat_hot(None, 2, 4)
    w.seats_hot([1, 2], 2, 4)
    w.per_seat([10, 20, None, 40], 2, 4, scale=10)
    out = w.done().reshape(4, 4)
    assert out[0].tolist() == [0, 0, 1, 0]
    assert out[1].tolist() == [0, 0, 0, 0]
    assert out[2].tolist() == [1, 0, 0, 1]
    assert out[3].tolist() == [0, 4, 1, 2]  # seat 2 (viewer) is None -> stays 0


def test_done_raises_when_the_vector_is_not_written_exactly() -> None:
    w = TensorWriter(5)
    w.one_hot(3, 0)
    assert w.written == 3 and w.size == 5
    with pytest.raises(RuntimeError, match="expected 5 numbers, 3 written"):
        w.done()


def test_overrunning_block_raises_at_once() -> None:
    w = TensorWriter(3)
    w.value(1.0)
    with pytest.raises(RuntimeError, match="overruns the tensor of 3"):
        w.block(3)
    assert w.written == 1  # the refused block moved nothing


@pytest.mark.parametrize("call", [
    lambda w: w.one_hot(3, 3),
    lambda w: w.one_hot(3, -1),
    lambda w: w.multi_hot(3, [0, 5]),
    lambda w: w.counts(3, [-1]),
])
def test_index_outside_the_block_raises(call) -> None:
    with pytest.raises(IndexError):
        call(TensorWriter(3))
