"""The game's random state (E2, E7, E8, E10): seeded, secret, serialisable as two integers.

SplitMix64: the state is one 64-bit integer, so the random state travels in `to_bytes` and never needs
Python's `random` module state. Tests may queue fixed outcomes that are used before the generator."""

from __future__ import annotations

from .errors import PositionError

MASK = (1 << 64) - 1


class Dice:
    """Draws integers below n from a seeded stream, or from a queue of fixed outcomes first."""

    __slots__ = ("fixed", "state")

    def __init__(self, state: int, fixed: list[int] | None = None) -> None:
        self.state = state & MASK
        self.fixed: list[int] = list(fixed or [])

    def below(self, n: int) -> int:
        """An integer in [0, n)."""
        assert n > 0
        if self.fixed:
            value = self.fixed.pop(0)
            if not 0 <= value < n:
                raise PositionError(f"fixed random outcome {value} is not below {n}")
            return value
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return (z ^ (z >> 31)) % n

    def shuffle(self, items: list[str]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def __repr__(self) -> str:
        return "Dice(<secret>)"
