"""A game written before the kit (it has the `Playable` members only) made a full
`Game`: `simulate` plays it through the platform's own calls (`bot_move` for every
seat), and it has no content count. A plug-in's old game object keeps working."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from app.games.base import Playable

from .content import ContentError


class Tooled:
    """`game` with the tools of `Game` added; every other member is the game's own."""

    def __init__(self, game: Playable) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        return ("default",)

    def content_counts(self, pack: str) -> dict[str, int]:
        raise ContentError(f"{pack}: {self._game.id} does not count its content")

    def simulate(
        self,
        games: int,
        players: int,
        *,
        seed: int = 0,
        bots: str = "default",
        options: Mapping[str, Any] | None = None,
        content: str | None = None,
        max_rounds: int = 80,
        stats: bool = False,
        budget: Any = None,
        jobs: int = 1,
    ) -> dict[str, Any]:
        """Games between the game's own bots, as the server plays them (`bot_move`), in
        this process; `budget` (a searching bot's) is not theirs to use."""
        g = self._game
        if not g.min_players <= players <= g.max_players or games < 1:
            raise ValueError(f"{g.id}: players must be {g.min_players}-{g.max_players}")
        if jobs != 1:
            raise ValueError(f"{g.id}: plays its simulations in one process (jobs 1)")
        opts = g.normalise_options(options)
        commands = finished = 0
        seats = frozenset(range(players))
        start = time.perf_counter()
        for i in range(games):
            s = g.new_game(opts, seed * 1_000_003 + i, [f"Bot {k + 1}" for k in range(players)])
            while not g.is_over(s) and (move := g.bot_move(s, seats, commands)) is not None:
                g.apply(s, move.seat, move.command)
                commands += 1
            finished += g.is_over(s)
        seconds = time.perf_counter() - start
        figures = {"games": games, "players": players, "finished": finished, "commands": commands}
        return {"game": g.id, "bots": "default", **figures, "seconds": round(seconds, 3)}
