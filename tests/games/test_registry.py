"""The registry of games (`app/games/registry.py`)."""

from __future__ import annotations

import threading

from app.games import registry
from app.games.base import Game


def test_the_built_in_games_and_the_default_first() -> None:
    ids = [g.id for g in registry.games()]
    assert ids[0] == registry.DEFAULT_GAME == "karanor" and "darkroad" in ids
    assert all(isinstance(g, Game) for g in registry.games())
    assert registry.get("chess") is None


def test_lookups_racing_the_first_load_all_find_the_games(monkeypatch) -> None:
    """Routes run in worker threads: the first lookups of a fresh process may come at
    once; none may see a half-filled registry (a 400 `unknown_game` for the default)."""
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "_loaded", False)
    found: list[object] = []
    start = threading.Barrier(8)

    def look() -> None:
        start.wait()
        found.append(registry.get(registry.DEFAULT_GAME))

    threads = [threading.Thread(target=look) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(found) == 8 and all(g is not None for g in found)
