"""The fast listings equal the candidates that pass `check`, at every state of many games
(DESIGN.md: "the same function that lists it checks it")."""

from __future__ import annotations

import random

from app.darkroad import bots
from app.darkroad import engine as E
from app.darkroad.state import OVER, PLAY


def _gated_kinds(s, seat):  # type: ignore[no-untyped-def]
    if s.pending:
        return E.ANSWERS[s.pending[0]["kind"]]
    if s.phase == PLAY and seat == s.turn_seat:
        return E.turn_kinds(s, E.content_of(s), s.players[seat])
    return ()


def test_listings_agree_with_check() -> None:
    """Each handler's `listing` == its candidates filtered by `check`, for the seat to act."""
    c = E.content_of(E.new_game({}, 0, ["a"]))
    for g in range(60):
        n = 1 + g % 4
        s = E.new_game({"buildings": "random"}, 1000 + g, ["p"] * n)
        players = [bots.RandomBot(g + i) for i in range(n)]
        r = random.Random(g)
        while s.phase != OVER:
            seat = E.to_act(s)[0]
            for kind in _gated_kinds(s, seat):
                h = E.HANDLERS[kind]
                slow = [x for x in h.candidates(s, c, seat) if E.check(s, seat, x) is None]
                assert sorted(map(repr, h.listing(s, c, seat))) == sorted(map(repr, slow)), kind
            acts = E.legal_actions(s, seat)
            E.apply(s, seat, players[seat].decide(s, seat, acts) if r.random() < 0.9 else acts[0])
