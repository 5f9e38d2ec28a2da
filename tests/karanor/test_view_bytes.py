"""Byte-equality guard of the views: every seat's and a spectator's serialised view, at
every version of seeded games, hashes to the digest the views had before they were
made cheaper (issue 18). Any change of one byte a client receives fails here.

The games go through the `Game` protocol as the platform plays them (`bot_move` with
every seat a bot, the salt being the version: greedy bots, trade offers and their
answers included), the state now and then rebuilt from `to_dict` as a cold load does,
and each view is finished and serialised as `app/rooms/views.py: view_bytes` does it.

The digests were computed at commit 955c365 (the views before issue 18's changes) by

    .venv/bin/python -m tests.karanor.test_view_bytes

which prints them; a deliberate change of the JSON (docs/api.md) records new ones the
same way, after checking the client (static/) still reads it.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.karanor.game import GAME
from tests.helpers.view_bytes import print_digests, view_digest

# (players, options, games): the default table, shared quests, the two-player market.
CASES: dict[str, tuple[int, dict[str, Any], int]] = {
    "four": (4, {}, 6),
    "three_public_quests": (3, {"public_quests": True, "end_prestige": 8}, 2),
    "two": (2, {}, 2),
    "six": (6, {}, 1),
}
DIGESTS = {
    "four": "3b49b15a1524ef79b86b68732eee7accf488273fea19c5036026d4bd1820cbe2",
    "three_public_quests": "d489bfa98b2b096a40dfa797e2376233862b694fc5a4f0943e00b528b989bcb0",
    "two": "340b081476cbaae0fdefde89c870dfc799d00f146c902a4841835182ca13b98b",
    "six": "55afd0145f2099d0fac4c7560d45f2d77bd5e9a14b7e63d68a6b4d731f726eaa",
}


@pytest.mark.parametrize("case", CASES)
def test_views_are_byte_identical(case: str) -> None:
    assert view_digest(GAME, *CASES[case]) == DIGESTS[case]


if __name__ == "__main__":
    print_digests(GAME, CASES)
