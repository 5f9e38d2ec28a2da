"""Which games this server hosts: a game id -> its `Game` object.

The built-in games are named here (and only here); more can be added by import path
(`KARANOR_GAMES=package.module:GAME`, read by `app.config.Settings.games`), which is
how a test plugs a toy game into a real server process.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable
from typing import cast

from app.games.base import Game, Playable

DEFAULT_GAME = "karanor"
BUILTIN: dict[str, str] = {
    "karanor": "app.karanor.game:GAME",
    "darkroad": "app.darkroad.game:GAME",
}

_games: dict[str, Game] = {}
_loaded = False
_loading = threading.Lock()  # routes run in worker threads: the first lookups may race


def load(path: str) -> Game:
    """Import `module:attribute` and check it is a game (one written before the kit,
    with the `Playable` members only, gets the command line's tools from
    `app.games.kit.compat`).

    :raises ValueError: the path does not name a game.
    """
    module, _, attribute = path.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute or "GAME")
    except (ImportError, AttributeError) as error:
        raise ValueError(f"no game at {path!r}: {error}") from error
    if isinstance(game, Game):
        return game
    if not isinstance(game, Playable):
        raise ValueError(f"{path!r} is not a game (see app.games.base.Game)")
    from app.games.kit.compat import Tooled

    return cast(Game, Tooled(game))


def register(game: Game) -> None:
    """Host `game` (a second registration of the same id replaces the first)."""
    _games[game.id] = game


def _builtin() -> None:
    """Register the built-in games once; a lookup during the first load waits for it
    (`_loaded` is set only when every game is in)."""
    global _loaded
    if _loaded:
        return
    with _loading:
        if _loaded:
            return
        for game_id, path in BUILTIN.items():
            if game_id in _games:
                continue
            try:
                register(load(path))
            except ValueError:
                # A game whose package is missing is simply not hosted; the default
                # game must be.
                if game_id == DEFAULT_GAME:
                    raise
        _loaded = True


def add_plugins(paths: Iterable[str]) -> None:
    """Host the games named by import path (settings)."""
    for path in paths:
        register(load(path))


def get(game_id: str) -> Game | None:
    _builtin()
    return _games.get(game_id)


def games() -> list[Game]:
    """Every hosted game, the default one first."""
    _builtin()
    return sorted(_games.values(), key=lambda g: (g.id != DEFAULT_GAME, g.id))
