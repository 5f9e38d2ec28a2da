"""`new_game` written once: every game's is `new_game(options, seed, players, content)`,
which adopts the content pack, fills in and checks the options, checks the seat count and
hands the rest to the game's own `deal`, the rules' "Setting up the Game"."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from .content import Packs
from .options import GameOptions, normalise
from .rules import err

C = TypeVar("C")
S = TypeVar("S")

# deal(content, options filled in, seed, players' names, the options as given)
Deal = Callable[[C, dict[str, Any], int, list[str], Mapping[str, Any] | None], S]


class GameSetup(Generic[C, S]):
    """A game's `new_game`: `GameSetup(packs, Options, (1, 4), deal)`, called as
    `new_game(options, seed, players, content="base")`.

    :raises RuleError: `bad_options` for options or a player count the rules refuse.
    """

    def __init__(
        self, packs: Packs[C], options: type[GameOptions], seats: tuple[int, int], deal: Deal[C, S]
    ) -> None:
        self.packs = packs
        self.options = options
        self.seats = seats
        self.deal = deal
        self.__doc__ = deal.__doc__

    def __call__(
        self,
        options: Mapping[str, Any] | None,
        seed: int,
        players: Sequence[str],
        content: C | str = "base",
    ) -> S:
        c = self.packs.adopt(content)
        opts = normalise(self.options, options)
        n = len(players)
        low, high = self.seats
        if not low <= n <= high:
            raise err("bad_options", f"{n} players: the game takes {low} to {high}")
        return self.deal(c, opts, seed, list(players), options)
