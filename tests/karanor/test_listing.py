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


def every_kind_listing(s, seat):  # type: ignore[no-untyped-def]
    """Every handler's candidates passing `check`, whatever `listed_kinds` says."""
    c = E.content_of(s)
    return {
        x for h in E.RULES.handlers.values() for x in h.candidates(s, c, seat)
        if E.check(s, seat, x) is None
    }  # fmt: skip


@pytest.mark.parametrize("block", range(2))
def test_the_kinds_left_out_have_nothing_legal(block: int) -> None:
    """`KaranorRules.kinds` lists only the kinds worth trying at a seat's place and hand
    (no harvest without a resource, no build outside a city, no card play without a
    card...): at every state, every seat, the commands of every kind that pass `check`
    are exactly the listed ones, two- to six-player games (the market only at two)."""
    kinds_seen: set[str] = set()
    for g in range(block, 12, 2):
        n = 2 + g % 5
        s = E.new_game({}, 900 + g, [f"p{i}" for i in range(n)])
        players = [bots.make("greedy" if g % 2 else "random", g * 5 + i) for i in range(n)]
        while s.phase != GAME_OVER and s.round <= 40:
            for seat in range(n):
                listed = E.legal_actions(s, seat)
                assert set(listed) == every_kind_listing(s, seat), (seat, s.commands)
                kinds_seen.update(a.type for a in listed)
            seat = E.to_act(s)[0]
            E.apply(s, seat, players[seat].decide(s, seat, E.legal_actions(s, seat)))
    # the games reach the kinds the shortcut drops somewhere
    assert {"harvest", "build", "complete_quest", "play_black_market"} <= kinds_seen
