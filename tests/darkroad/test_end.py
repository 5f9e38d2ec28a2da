"""Game End and Final Scoring."""

from __future__ import annotations

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from tests.darkroad.helpers import C, act, clear_goods, finish_turn, give, started


def _to_final(s):  # type: ignore[no-untyped-def]
    """Play every remaining turn with the simplest plan (coins), to the final travel."""
    while s.phase == "play":
        seat = s.turn_seat
        p = s.players[seat]
        if s.step == "plan":
            slot = next(i + 1 for i in (2, 1, 0) if p.locked[i] is not None)
            opt = {1: "potion", 2: "lantern", 3: "coins"}[slot]
            act(s, seat, A.Plan(slot, p.reserve[0] if p.reserve else None, opt))
        elif s.pending:
            who = s.pending[0]["seat"]
            act(
                s,
                who,
                next(
                    a for a in E.legal_actions(s, who) if a.type in ("place_good", "discard_good")
                ),
            )
        elif s.step == "move":
            act(s, seat, A.Move("night", 0))
        else:
            finish_turn(s, seat)


def test_thirteen_rounds_then_the_final_travel() -> None:
    """Game End: "The game ends after 13 rounds"; "all players get to travel one last time.
    Each player may visit the outlying town of their choice ... nothing else happens"
    (ruling R26: no event, no good fortune, no companion)."""
    s = started(2)
    _to_final(s)
    assert s.round == 14 and s.phase == "final_travel"
    assert s.pending[0] == {"kind": "visit", "seat": 0}
    assert {a.town for a in E.legal_actions(s, 0)} == {*C.towns, None}
    clear_goods(s, 1)
    k = next(x for x in C.commissions if x.town == "scorchborn")
    scenario.set_player(s, 1, commissions=[k.id])
    ids = (give(s, 1, k.requests[0]),)
    act(s, 0, A.Visit(None))
    act(s, 1, A.Visit("scorchborn"))
    act(s, 1, A.DeliverCommission(k.id, ids))
    act(s, 1, A.DoneDelivering())
    assert s.phase == "game_over" and s.result is not None
    assert E.to_act(s) == [] and E.legal_actions(s, 0) == []


def test_final_score_is_the_lower_of_coins_and_prestige_plus_vp() -> None:
    """Final Scoring: "The lower of the two values is your base score"; "Add 1 victory point for
    each illuminated die that you have but did not use"; deeds add coins, prestige or VP (ruling
    R27: deeds' coins and prestige added before the lower is taken)."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, coins=20, prestige=12, special=[1, 4])
    scenario.set_player(s, 0, deeds=["quartz_hoard"])  # 2 prestige per quartz
    scenario.set_player(s, 0, quartz=2)
    sc = E.score(s, C, p)
    assert (sc["coins"], sc["prestige"], sc["base"], sc["vp"]) == (20, 16, 16, 2)
    assert sc["total"] == 18


def test_tie_breaks_in_order_then_shared() -> None:
    """Breaking Ties: "highest discarded base score > most gifts on loyal companions > most
    commissions delivered > most heroes delivered. If the tie still persists, the tied players
    share the victory" (ruling R27)."""
    s = started(3)
    for p in s.players:
        p.coins, p.prestige, p.deeds, p.special = 10, 10, [], []
    scenario.set_player(s, 1, coins=14)  # same base 10, higher discarded score
    scenario.score_now(s)
    assert s.result["winners"] == [1]
    s2 = started(3)
    for p in s2.players:
        p.coins, p.prestige, p.deeds, p.special = 10, 10, [], []
    scenario.set_player(s2, 2, delivered_heroes=["aldric"])
    scenario.set_player(s2, 0, delivered_heroes=["brisa"])
    scenario.score_now(s2)
    assert s2.result["winners"] == [0, 2]
    scenario.set_player(s2, 2, delivered_commissions=["farglen_1"])
    scenario.score_now(s2)
    assert s2.result["winners"] == [2]


def test_deeds_are_revealed_at_the_end() -> None:
    """ "Reveal any completed deeds" — the result names every seat's deeds."""
    s = started(2)
    scenario.score_now(s)
    assert s.result["deeds"] == {str(p.seat): p.deeds for p in s.players}
