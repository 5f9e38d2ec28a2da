"""A small deterministic RNG whose whole state is one integer kept in a game's state, shared
by the games (they may import `app.games`, never each other).

SplitMix64: fast, good enough for shuffling decks, and trivially serialised,
so a snapshot carries the RNG and a replay from the seed repeats every draw.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, value)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, a uniform integer in [0, n))."""
    limit = _MASK - (_MASK % n)
    while True:
        state, v = next_u64(state)
        if v < limit:
            return state, v % n


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle `items` in place (Fisher-Yates); return the new RNG state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
