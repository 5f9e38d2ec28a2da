"""The digest of every view of seeded bot games, for the `test_view_bytes.py` of each game:
the bytes a client receives, every seat's and a spectator's, at every version, with a cold
load (a state rebuilt from `to_dict`) every `RELOAD_EVERY` versions. Each view is
serialised as the platform does it, with the public part's values shared by the viewers
serialised once per version (`app.rooms.views.spliced`)."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from app.games.base import Game
from app.rooms.views import spliced

RELOAD_EVERY = 41  # versions between two cold loads


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def view_digest(
    game: Game, players: int, options: dict[str, Any], games: int, seed: int = 3
) -> str:
    digest = hashlib.sha256()
    seats = frozenset(range(players))
    viewers: list[int | None] = [*range(players), None]
    for g in range(games):
        opts = game.normalise_options({"max_players": players, **options})
        s = game.new_game(opts, seed * 1_000_003 + g, [f"P{i + 1}" for i in range(players)])
        version = 0
        while True:
            public = game.public_part(s)
            to_act = game.to_act(s)
            shared: dict[str, Any] = {}
            for viewer in viewers:
                picture = game.view(s, viewer, public)
                spliced(picture, public, shared)
                picture["version"] = version
                picture.setdefault("game", game.id)
                picture["to_act"] = to_act
                digest.update(dumps(picture))
                digest.update(b"\n")
            if game.is_over(s) or version >= 3000:
                break
            move = game.bot_move(s, seats, version)
            if move is None:
                break
            game.apply(s, move.seat, move.command)
            version += 1
            if version % RELOAD_EVERY == 0:
                s = game.from_dict(orjson.loads(orjson.dumps(game.to_dict(s))))
        digest.update(b"game %d: %d versions\n" % (g, version))
    return digest.hexdigest()


def print_digests(game: Game, cases: dict[str, tuple[int, dict[str, Any], int]]) -> None:
    """Print each case's digest in the form of a test's DIGESTS table (to record new ones)."""
    for name, case in cases.items():
        print(f'    "{name}": "{view_digest(game, *case)}",')
