"""A plain ``random.Random`` whose next outputs are chosen: for tests of draws that must
equal their reference draws on rare events (equal keys, rejected draws)."""

from __future__ import annotations

import random


def _untemper(y: int) -> int:
    """The Mersenne Twister state word that the generator's output tempering turns into
    ``y`` (each of the four steps inverted, the last first)."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    x = y
    for _ in range(5):
        x = y ^ ((x << 7) & 0x9D2C5680)
    y = x
    for _ in range(3):
        x = y ^ (x >> 11)
    return x


def generator_with_outputs(outputs: list[int]) -> random.Random:
    """A plain ``random.Random`` whose next 32-bit outputs are ``outputs`` (at most 624)."""
    words = [_untemper(y) for y in outputs] + [1] * (624 - len(outputs))
    rng = random.Random()
    rng.setstate((3, (*words, 0), None))  # position 0: the words are read before a twist
    check = random.Random()
    check.setstate(rng.getstate())
    assert [check.getrandbits(32) for _ in outputs] == outputs
    return rng
