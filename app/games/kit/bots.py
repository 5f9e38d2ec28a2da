"""Bots every game can seat, the loop that lets them play, and whole-game simulation.

A bot is anything with `decide(state, seat, actions) -> command`, choosing among the
commands `legal_actions` listed. `RandomBot` is generic; a game writes its own greedy
bot (its sense of value is the game's) and names its kinds in a table for `make`.
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from app.games.base import Events

from .commands import Command
from .rules import Rules

T = TypeVar("T")
OnCommand = Callable[[Any, int, Any, Events], None]


class Bot(Protocol):
    def decide(self, s: Any, seat: int, actions: Sequence[Any]) -> Any: ...


EASY_RANDOM = 0.5  # how often the "easy" level plays at random


def easy_choice(rng: random.Random, actions: Sequence[T], greedy: Callable[[], T]) -> T:
    """The "easy" level's choice: at random `EASY_RANDOM` of the time (never ending its
    turn early when it may act), else `greedy()`: beatable, but not absurd."""
    if rng.random() < EASY_RANDOM:
        return pick(actions, lambda a: a.type, rng, skip_end=1.0)  # type: ignore[attr-defined]
    return greedy()


def levels(
    bots: Mapping[str, Callable[..., Any]],
    easy: Callable[..., Any],
    normal: Callable[..., Any],
    hard: Callable[..., Any],
) -> dict[str, Callable[..., Any]]:
    """Every kind `simulate` seats and every level a room's bot plays (the first kind of
    `bots`: the default)."""
    return {**bots, "easy": easy, "normal": normal, "hard": hard}


def pick(
    actions: Sequence[T], kind: Callable[[T], str], rng: random.Random, skip_end: float = 0.8
) -> T:
    """The random player's policy: uniform over command types first, then over the
    commands of that type, so that a hundred move destinations don't drown the other
    actions; `end_turn` dropped `skip_end` of the time when something else is possible.
    `kind` reads a command's type (a command value, or its JSON form for clients).

    The draws are exactly `rng.choice` of the types, then of the chosen type's commands
    (`Random.choice(seq)` is `seq[rng._randbelow(len(seq))]`, called here directly: a
    choice among one still draws); `tests/games/test_kit.py` holds the reference."""
    if not actions:
        raise IndexError("no action to pick")
    below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]
    if len(actions) == 1:
        below(1)  # the one type
        below(1)  # its one command
        return actions[0]
    types = list(map(kind, actions))
    distinct = set(types)
    if len(distinct) == 1:
        below(1)
        return actions[below(len(actions))]
    kinds = sorted(distinct)
    if "end_turn" in distinct and rng.random() < skip_end:
        kinds.remove("end_turn")
    k = kinds[below(len(kinds))]
    first, count = types.index(k), types.count(k)
    if types[first : first + count].count(k) == count:  # listings come grouped by type
        return actions[first + below(count)]
    same = [a for a, t in zip(actions, types, strict=True) if t == k]
    return same[below(count)]


_TYPE = operator.attrgetter("type")


class RandomBot:
    """Plays `pick`: ends its turn early only now and then."""

    SKIP_END = 0.8

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, s: Any, seat: int, actions: Sequence[Command]) -> Command:
        return pick(actions, _TYPE, self.rng, self.SKIP_END)


def make(table: Mapping[str, Callable[[int], T]], kind: str, seed: int = 0) -> T:
    """A bot of `kind` from a game's table. :raises ValueError: an unknown kind."""
    try:
        return table[kind](seed)
    except KeyError:
        raise ValueError(f"no bot {kind!r} (known: {', '.join(table)})") from None


def play(
    rules: Rules[Any, Any],
    s: Any,
    players: Sequence[Bot],
    *,
    max_commands: int = 20_000,
    over: Callable[[Any], bool] | None = None,
    on_command: OnCommand | None = None,
    after: Callable[[Any, Sequence[Bot], OnCommand | None], int] | None = None,
) -> int:
    """Play `s` to its end with one bot per seat; returns the commands applied.

    `over(s)`: the game's end or an earlier stop (a round limit); by default
    `rules.is_over`. `after(s, players, on_command)` runs after each command and returns
    the commands it applied itself (off-turn plays)."""
    n = 0
    to_act, legal, apply, listed = (
        rules.to_act, rules.legal_actions, rules.apply, rules.apply_listed
    )  # fmt: skip
    is_over = rules.is_over if over is None else over
    while not is_over(s) and n < max_commands:
        seat = to_act(s)[0]
        actions = legal(s, seat)
        cmd = players[seat].decide(s, seat, actions)
        # a command of the list, by identity, was checked by listing it
        if any(map(operator.is_, actions, itertools.repeat(cmd))):
            events = listed(s, seat, cmd)
        else:
            events = apply(s, seat, cmd)
        n += 1
        if on_command is not None:
            on_command(s, seat, cmd, events)
        if after is not None:
            n += after(s, players, on_command)
    return n


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """A win share with its Wilson score interval (95% by default): (share, low, high)."""
    if n <= 0:
        return (0.0, 0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(p, 3), round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def percentiles(seconds: Sequence[float]) -> dict[str, float]:
    """Decision times in milliseconds: p50, p95, max and how many."""
    xs = sorted(seconds)

    def at(q: float) -> float:
        return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 1)

    return {"p50": at(0.5), "p95": at(0.95), "max": at(1.0), "n": len(xs)}
