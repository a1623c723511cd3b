"""The game's one source of randomness: a seeded PCG32 generator whose state is two integers.

Python's ``random`` is not used because its shuffle and integer algorithms may change
between Python versions, and its state is 625 numbers; a game must replay event for event
anywhere, and clone and save cheaply.  PCG32 (O'Neill, pcg-random.org; the XSH RR 64/32
variant) is small, well studied and easy to keep exact with Python integers.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_MASK64 = (1 << 64) - 1
_MULTIPLIER = 6364136223846793005


class Rng:
    """A PCG32 stream.  ``to_json()``/``from_json()`` save and restore it exactly."""

    __slots__ = ("_inc", "_state")

    def __init__(self, seed: int, stream: int = 54) -> None:
        self._inc = ((stream << 1) | 1) & _MASK64
        self._state = 0
        self._step()
        self._state = (self._state + (seed & _MASK64)) & _MASK64
        self._step()

    def _step(self) -> None:
        self._state = (self._state * _MULTIPLIER + self._inc) & _MASK64

    def next_u32(self) -> int:
        """The next 32 random bits."""
        old = self._state
        self._step()
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound-1``, without modulo bias (Lemire's method)."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, not {bound}")
        if bound > 1 << 32:
            raise ValueError("bound must fit in 32 bits")
        threshold = (1 << 32) % bound
        while True:
            product = self.next_u32() * bound
            if (product & 0xFFFFFFFF) >= threshold:
                return product >> 32

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates), the same way on every machine and Python.

        Position ``i`` swaps with ``below(i + 1)``, from the last down; ``below`` and the
        generator's step are written out inline because a search shuffles the hidden
        cards of every world it draws, and two calls per card were most of the cost."""
        state, inc = self._state, self._inc
        if len(items) > 1 << 32:
            raise ValueError("bound must fit in 32 bits")
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            threshold = 0x100000000 % bound
            while True:
                old = state
                state = (old * _MULTIPLIER + inc) & _MASK64
                bits = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
                rot = old >> 59
                product = (((bits >> rot) | (bits << ((-rot) & 31))) & 0xFFFFFFFF) * bound
                if (product & 0xFFFFFFFF) >= threshold:
                    break
            j = product >> 32
            items[i], items[j] = items[j], items[i]
        self._state = state

    def clone(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin._state, twin._inc = self._state, self._inc
        return twin

    def to_json(self) -> list[int]:
        return [self._state, self._inc]

    @classmethod
    def from_json(cls, data: list[int]) -> Rng:
        rng = cls.__new__(cls)
        rng._state, rng._inc = int(data[0]) & _MASK64, int(data[1]) & _MASK64
        return rng
