"""The fast listings equal the candidates that pass `check`, at every state of many games
(STYLE.md: "the same function that lists it checks it"; engine.Handler.listing)."""

from __future__ import annotations

import random

import pytest

from app.karanor import bots
from app.karanor import engine as E
from app.karanor.state import GAME_OVER

GAMES = 24


def slow_listing(s, seat):  # type: ignore[no-untyped-def]
    """What `legal_actions` was before the fast listings: candidates passing `check`."""
    c = E.content_of(s)
    out = []
    for kind in E.listed_kinds(s, seat):
        out += [
            x for x in E.RULES.handlers[kind].candidates(s, c, seat) if E.check(s, seat, x) is None
        ]
    return out


@pytest.mark.parametrize("block", range(4))
def test_listings_agree_with_check(block: int) -> None:
    """For every seat at every state: `legal_actions` == the check-filtered candidates,
    same commands in the same order."""
    for g in range(block, GAMES, 4):
        n = 2 + g % 5
        s = E.new_game({}, 500 + g, [f"p{i}" for i in range(n)])
        kind = "greedy" if g % 3 == 0 else "random"
        players = [bots.make(kind, g * 7 + i) for i in range(n)]
        r = random.Random(g)
        while s.phase != GAME_OVER and s.round <= 40:
            for seat in range(n):
                assert E.legal_actions(s, seat) == slow_listing(s, seat), (seat, s.commands)
            seat = E.to_act(s)[0]
            acts = E.legal_actions(s, seat)
            cmd = players[seat].decide(s, seat, acts) if r.random() < 0.9 else acts[-1]
            E.apply(s, seat, cmd)
