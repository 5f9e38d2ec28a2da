"""Byte-equality guard of the views: every seat's and a spectator's serialised view, at
every version of seeded games, hashes to the digest the views had before they were
made cheaper (issue 18). Any change of one byte a client receives fails here.

The games go through the `Game` protocol as the platform plays them (`bot_move` with
every seat a bot, the salt being the version: greedy bots, trade offers and their
answers included), the state now and then rebuilt from `to_dict` as a cold load does,
and each view is finished and serialised as `app/rooms/views.py: view_bytes` does it.

The digests were computed at commit 955c365 (the views before issue 18's changes) by

    .venv/bin/python -m tests.darkroad.test_view_bytes

which prints them; a deliberate change of the JSON (docs/api.md) records new ones the
same way, after checking the client (static/) still reads it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from app.darkroad.game import GAME

# (players, options, games): the default table, the draft with deed choice and random
# buildings, two seats, one.
CASES: dict[str, tuple[int, dict[str, Any], int]] = {
    "four": (4, {}, 3),
    "three_drafting": (3, {"drafting": True, "deed_choice": True, "buildings": "random"}, 2),
    "two": (2, {}, 1),
    "one": (1, {}, 1),
}
DIGESTS = {
    "four": "2f900e746d202b5ea9531089b85974b82e47866ed5a224bf270f61cc2bfa1c25",
    "three_drafting": "ecec314d9f681ac3e4f717c59dd347baff12d70c87e70651313d328f8e0d6a31",
    "two": "de77fd5c3ed92739978df89273f7ca3f3004a0d049ef35508019f5d8e077a79e",
    "one": "bc7597ec96ed12e08d5e939cc97aad9592b62191e57a625feabbda7bc50b82c0",
}
RELOAD_EVERY = 41  # versions between two cold loads (a state rebuilt from `to_dict`)


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def view_digest(players: int, options: dict[str, Any], games: int, seed: int = 3) -> str:
    game = GAME
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
            for viewer in viewers:
                picture = game.view(s, viewer, public)
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


def test_four_seats_views_are_byte_identical() -> None:
    assert view_digest(*CASES["four"]) == DIGESTS["four"]


def test_three_seats_drafting_views_are_byte_identical() -> None:
    assert view_digest(*CASES["three_drafting"]) == DIGESTS["three_drafting"]


def test_two_seats_views_are_byte_identical() -> None:
    assert view_digest(*CASES["two"]) == DIGESTS["two"]


def test_one_seat_views_are_byte_identical() -> None:
    assert view_digest(*CASES["one"]) == DIGESTS["one"]


if __name__ == "__main__":
    for name, case in CASES.items():
        print(f'    "{name}": "{view_digest(*case)}",')
