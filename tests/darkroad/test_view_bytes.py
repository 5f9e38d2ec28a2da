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

Recorded again for issue 25: these games are new games, so they play rules edition 2
(docs/rulings-darkroad.md R40: a turn activates a district, the pooled illuminated die
counts toward the 2, ...), and their listings carry the typed command fields (`plan`'s
`illuminated`, `take_travel_die`'s `twin` as a die value, `building`/`use_companion`/
`dark_market`/`fortune` fields instead of prefixed strings, every field written, null
included, as the clients have always read them). The same games played by rules 1
give the views of before byte for byte once the listings are left out (checked when they
were recorded), and tests/games/test_golden.py proves the stored games replay unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.darkroad.game import GAME
from tests.helpers.view_bytes import print_digests, view_digest

# (players, options, games): the default table, the draft with deed choice and random
# buildings, two seats, one.
CASES: dict[str, tuple[int, dict[str, Any], int]] = {
    "four": (4, {}, 3),
    "three_drafting": (3, {"drafting": True, "deed_choice": True, "buildings": "random"}, 2),
    "two": (2, {}, 1),
    "one": (1, {}, 1),
}
DIGESTS = {
    "four": "f5bd416349f526b5700b9dd7729b58a8f7a5ed888496f23edbadde03269be75f",
    "three_drafting": "a9b1094842746d5e21505305b7710d0065703dab860592f0bd225898656468e2",
    "two": "5989678e40277df009e29227916c2c77cf5ecb81688721de18cdfcd164e2a9a3",
    "one": "d0e12318ef6780ace2f6f1ded7ff6f1200cbb9d4f6dd926b063d34440af7ae69",
}


@pytest.mark.parametrize("case", CASES)
def test_views_are_byte_identical(case: str) -> None:
    assert view_digest(GAME, *CASES[case]) == DIGESTS[case]


if __name__ == "__main__":
    print_digests(GAME, CASES)
