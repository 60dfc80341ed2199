"""A tiny, fully specified pseudo-random generator whose whole state is one Python int.

Why not ``random.Random``: its state is 625 words, which would make every immutable game state heavy to
copy and to serialise, and its algorithms for ranges and shuffles are CPython implementation details.
SplitMix64 (Steele, Lea and Flood, 2014) is tiny, fast, has a 64-bit state and passes BigCrush; the
algorithm below is frozen as part of the rules version of every game, so a recorded game replays exactly
on any Python.

All functions are pure: they take a state and return ``(value, new_state)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["MASK64", "Rng", "below", "next_u64", "seed_state", "shuffled"]

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


def seed_state(seed: int, stream: int = 0) -> int:
    """The generator state for a user seed (any int) and an optional stream number.

    Different streams of one seed are independent enough for our uses (for example: setup vs. deal).
    """
    s = (seed * 0x2545F4914F6CDD1D + stream * _GOLDEN + 0x632BE59BD9B4E019) & MASK64
    value, _ = next_u64(s)
    return value


def next_u64(state: int) -> tuple[int, int]:
    """Next 64-bit value and the new state."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` (n >= 1), without modulo bias, and the new state."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    if n == 1:
        return 0, state
    # Rejection sampling on the top bits: the expected number of draws is below 2.
    bits = (n - 1).bit_length()
    while True:
        value, state = next_u64(state)
        r = value >> (64 - bits) if bits <= 64 else value
        if r < n:
            return r, state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """A Fisher-Yates shuffle of ``items`` and the new state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state


class Rng:
    """A mutable convenience wrapper for code that is not rules code (AI, simulations, tests).

    Rules code keeps the int state inside the immutable game state and uses the pure functions.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, stream: int = 0) -> None:
        self.state = seed_state(seed, stream)

    def u64(self) -> int:
        value, self.state = next_u64(self.state)
        return value

    def below(self, n: int) -> int:
        value, self.state = below(self.state, n)
        return value

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        out, self.state = shuffled(self.state, items)
        return out
