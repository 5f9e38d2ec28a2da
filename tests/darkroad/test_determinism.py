"""Replay: (seed, options, commands) rebuild the exact state; to_dict/from_dict round-trip."""

from __future__ import annotations

from app.darkroad import actions as A
from app.darkroad import bots
from app.darkroad import engine as E
from app.darkroad.state import State


def test_replay_rebuilds_the_state() -> None:
    """DESIGN.md: "Replay of the log must rebuild the exact snapshot"."""
    for n in (1, 3):
        s = E.new_game({"deed_choice": True}, 99, ["a"] * n)
        log = []
        players = [bots.RandomBot(i) for i in range(n)]
        while s.phase != "game_over":
            seat = E.to_act(s)[0]
            cmd = players[seat].decide(s, seat)
            log.append((seat, A.to_json(cmd)))
            E.apply(s, seat, cmd)
        r = E.new_game({"deed_choice": True}, 99, ["a"] * n)
        for seat, cmd in log:
            E.apply(r, seat, cmd)
        assert r.to_dict() == s.to_dict()


def test_state_round_trips() -> None:
    s = E.new_game({}, 5, ["a", "b"])
    assert State.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_commands_round_trip() -> None:
    for cmd in (A.Plan(1, None, "armor"), A.Inn(2, (3, 4)), A.PlaceGood(), A.Visit(None)):
        assert A.parse(A.to_json(cmd)) == cmd


def test_copy_equals_a_json_round_trip_and_is_independent() -> None:
    """`State.copy` (field by field, for the greedy bot) equals `from_dict(to_dict())` at every
    state of a game, and changing the copy leaves the original alone."""
    import dataclasses

    from app.darkroad import state as S

    covered = {*S._PLAYER_SHARED, *S._PLAYER_LISTS, "pieces", "incoming", "companions"}
    assert {f.name for f in dataclasses.fields(S.Player)} == covered | {"region_deliveries"}
    nested = {"players", "pending", "asks", "stacks", "decks", "discards", "setup_stacks"}
    covered = {*S._STATE_SHARED, *S._STATE_LISTS, *S._STATE_DICTS, *nested, "travel"}
    assert {f.name for f in dataclasses.fields(S.State)} == covered
    s = E.new_game({}, 3, ["a", "b", "c"])
    bot = bots.RandomBot(3)
    while s.phase != "game_over":
        t = s.copy()
        assert t.to_dict() == s.to_dict()
        before = s.to_dict()
        seat = E.to_act(t)[0]
        E.apply(t, seat, bot.decide(t, seat))
        assert s.to_dict() == before
        E.apply(s, seat, A.parse(A.to_json(bot.decide(s, seat))))
