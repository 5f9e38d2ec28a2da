"""Trading Between Players (engine level) and ruling R22."""

from __future__ import annotations

from app.karanor.view import view
from tests.karanor.scenario import play, put, refuse


def offer(s, seat, give, want, to=(1,)):
    cmd = {"type": "offer", "give": give, "want": want, "to": list(to) if to is not None else None}
    events = play(s, seat, cmd)
    return events[0]["offer"]


def test_offer_and_accept_move_goods_atomically(s2):
    """Trading Between Players: "you may exchange, sell and buy anything you like from the
    other players ... money, resources"; "These exchanges are not considered actions"."""
    put(s2, 0, gold=5)
    put(s2, 1, resources={"wine": 2})
    oid = offer(s2, 0, {"gold": 3}, {"resources": {"wine": 2}})
    assert s2.offers[0]["status"] == "open" and s2.players[0].gold == 5
    events = play(s2, 1, {"type": "accept", "offer": oid})
    assert s2.players[0].gold == 2 and s2.players[0].resources["wine"] == 2
    assert s2.players[1].gold == 3 and s2.players[1].resources["wine"] == 0
    assert s2.offers[0]["status"] == "accepted" and s2.offers[0]["accepted_by"] == 1
    assert events[0]["type"] == "trade" and s2.actions_left == 4


def test_trade_off_turn(s3):
    """Trading Between Players: exchanges "may be carried out whenever you wish, even when
    it is not your turn"."""
    put(s3, 1, gold=2)
    put(s3, 2, resources={"ore": 1})
    oid = offer(s3, 1, {"gold": 2}, {"resources": {"ore": 1}}, to=(2,))
    play(s3, 2, {"type": "accept", "offer": oid})
    assert s3.players[1].resources["ore"] == 1 and s3.players[2].gold == 2


def test_partners_badges_and_artifacts_trade(s2):
    """Trading Between Players: "You may negotiate or barter anything: money, resources, partners,
    mounts, artifacts" (R29: offers carry partners, badges and artifacts; R18: a traded partner
    keeps its promoted side)."""
    put(s2, 0, partners={"wood": True}, badges=["mount"])
    put(s2, 1, artifacts=["art_lamp"], powers_used=[])
    oid = offer(s2, 0, {"partners": ["wood"], "badges": ["mount"]}, {"artifacts": ["art_lamp"]})
    play(s2, 1, {"type": "accept", "offer": oid})
    assert s2.players[1].partners == {"wood": True} and s2.players[1].badges == ["mount"]
    assert s2.players[0].artifacts == ["art_lamp"] and s2.players[0].partners == {}


def test_accept_refused_without_the_wanted_goods(s2):
    """Trading Between Players: a trade moves what both sides hold; an acceptor without
    what is asked cannot accept, and nothing moves."""
    put(s2, 0, gold=5)
    oid = offer(s2, 0, {"gold": 3}, {"resources": {"wine": 2}})
    put(s2, 1, resources={"wine": 1})
    refuse(s2, 1, {"type": "accept", "offer": oid}, "cannot_afford")
    assert s2.players[0].gold == 5 and s2.offers[0]["status"] == "open"


def test_offer_refused_without_the_goods_given(s2):
    """Trading Between Players: "you may exchange, sell and buy anything you like from the
    other players": only what one holds."""
    put(s2, 0, gold=2)
    refuse(s2, 0, {"type": "offer", "to": [1], "give": {"gold": 3}, "want": {}}, "cannot_afford")
    refuse(
        s2,
        0,
        {"type": "offer", "to": [1], "give": {"artifacts": ["art_lamp"]}, "want": {}},
        "cannot_afford",
    )
    assert s2.offers == []


def test_cards_and_prestige_not_tradeable(s2):
    """Trading Between Players: "You may not trade your cards (Quest, Business or Black
    Market cards) nor your prestige points" (R29: never cards nor prestige)."""
    put(s2, 0, gold=2, quests=["q_plain"], black_market=["bm_tax"])
    for give, want in [
        ({"prestige": 1}, {}),
        ({}, {"prestige": 2}),
        ({"quests": ["q_plain"]}, {"gold": 1}),
        ({"black_market": ["bm_tax"]}, {}),
        ({"business": ["bz_stall"]}, {}),
        ({"cards": ["bz_stall"]}, {}),
        ({"gold": -1}, {}),
        ({"resources": {"gems": 1}}, {}),
    ]:
        refuse(s2, 0, {"type": "offer", "to": [1], "give": give, "want": want}, "bad_bundle")


def test_empty_and_self_offers_refused(s3):
    """Trading Between Players: you exchange "from the other players": something, with
    someone else (R29: both sides empty is refused)."""
    put(s3, 0, gold=2)
    refuse(s3, 0, {"type": "offer", "to": [1], "give": {}, "want": {}}, "empty_offer")
    refuse(s3, 0, {"type": "offer", "to": [0], "give": {"gold": 1}, "want": {}}, "bad_target")
    refuse(s3, 0, {"type": "offer", "to": [5], "give": {"gold": 1}, "want": {}}, "bad_target")


def test_the_same_thing_on_both_sides_moves_only_the_difference(s2):
    """Trading Between Players: you "exchange, sell and buy anything" (R29). An offer that
    gives and asks for one same thing stays legal for the rules, so that the logs of games
    played before keep replaying (the page's composer does not send one); accepted, each
    side pays its part, and only the difference changes hands."""
    put(s2, 0, gold=3)
    put(s2, 1, gold=3)
    oid = offer(s2, 0, {"gold": 2}, {"gold": 1})
    play(s2, 1, {"type": "accept", "offer": oid})
    assert (s2.players[0].gold, s2.players[1].gold) == (2, 4)


def test_counter_creates_a_linked_offer(s2):
    """Trading Between Players: "it is up to you to start the business discussions and try
    to get the best out of your negotiations": a counter-offer goes back to the author."""
    put(s2, 0, gold=5)
    put(s2, 1, resources={"wine": 2})
    oid = offer(s2, 0, {"gold": 2}, {"resources": {"wine": 2}})
    events = play(
        s2,
        1,
        {"type": "counter", "offer": oid, "give": {"resources": {"wine": 2}}, "want": {"gold": 4}},
    )
    counter = s2.offers[1]
    assert events[0]["counter_of"] == oid
    assert counter["from"] == 1 and counter["to"] == [0] and counter["counter_of"] == oid
    assert s2.offers[0]["status"] == "declined"
    refuse(s2, 1, {"type": "accept", "offer": counter["id"]}, "not_addressed")
    play(s2, 0, {"type": "accept", "offer": counter["id"]})
    assert s2.players[0].gold == 1 and s2.players[0].resources["wine"] == 2


def test_decline_by_each_addressee(s3):
    """Trading Between Players: "You may negotiate or barter anything": an offer to several
    merchants lapses when all of them decline."""
    put(s3, 0, gold=3)
    oid = offer(s3, 0, {"gold": 1}, {}, to=(1, 2))
    play(s3, 1, {"type": "decline", "offer": oid})
    assert s3.offers[0]["status"] == "open" and s3.offers[0]["declined_by"] == [1]
    refuse(s3, 1, {"type": "accept", "offer": oid}, "offer_closed")
    refuse(s3, 0, {"type": "decline", "offer": oid}, "not_addressed")
    play(s3, 2, {"type": "decline", "offer": oid})
    assert s3.offers[0]["status"] == "declined"
    refuse(s3, 2, {"type": "accept", "offer": oid}, "offer_closed")


def test_withdraw_only_by_the_author(s3):
    """Trading Between Players: "it is up to you to start the business discussions": an
    offer is its author's to take back."""
    put(s3, 0, gold=3)
    oid = offer(s3, 0, {"gold": 1}, {})
    refuse(s3, 1, {"type": "withdraw", "offer": oid}, "not_your_offer")
    play(s3, 0, {"type": "withdraw", "offer": oid})
    assert s3.offers[0]["status"] == "withdrawn"
    refuse(s3, 1, {"type": "accept", "offer": oid}, "offer_closed")
    refuse(s3, 0, {"type": "withdraw", "offer": oid}, "offer_closed")
    refuse(s3, 0, {"type": "withdraw", "offer": 99}, "unknown_offer")


def test_open_offer_taken_by_the_first_acceptance(s3):
    """Trading Between Players: "you may exchange, sell and buy anything you like from the
    other players": an offer to anyone is one exchange, the first to accept gets it."""
    put(s3, 0, gold=3)
    oid = offer(s3, 0, {"gold": 3}, {}, to=None)
    play(s3, 2, {"type": "accept", "offer": oid})
    refuse(s3, 1, {"type": "accept", "offer": oid}, "offer_closed")
    assert s3.players[2].gold == 3 and s3.players[1].gold == 0


def test_offer_unavailable_while_its_goods_are_gone(s2):
    """Trading Between Players: "A trade never takes priority over another action or card
    (for example, you cannot hastily trade a resource that is being stolen from you by a
    Black Market card)": a pickpocketed offer cannot be accepted until the gold returns."""
    put(s2, 0, position="forest", gold=3)
    put(s2, 1, position="forest", black_market=["pickpocketing"])
    oid = offer(s2, 0, {"gold": 3}, {})
    events = play(s2, 1, {"type": "play_black_market", "card": "pickpocketing", "target": 0})
    assert s2.offers[0]["status"] == "unavailable"
    assert {"type": "offer_status", "offer": oid, "status": "unavailable"} in events
    refuse(s2, 1, {"type": "accept", "offer": oid}, "offer_unavailable")
    assert view(s2, 1)["offers"][0]["can_accept"] is False
    play(s2, 0, {"type": "work"})
    play(s2, 0, {"type": "work"})
    assert s2.offers[0]["status"] == "unavailable"
    events = play(s2, 0, {"type": "work"})
    assert s2.offers[0]["status"] == "open"
    assert {"type": "offer_status", "offer": oid, "status": "open"} in events
    play(s2, 1, {"type": "accept", "offer": oid})
    assert s2.players[1].gold == 6


def test_offers_stay_open_across_turns(s2):
    """Trading Between Players: exchanges "may be carried out whenever you wish": an offer
    made on one turn may be accepted on the next."""
    put(s2, 0, gold=3)
    oid = offer(s2, 0, {"gold": 1}, {})
    play(s2, 0, {"type": "end_turn"})
    assert s2.turn_seat == 1
    play(s2, 1, {"type": "accept", "offer": oid})
    assert s2.players[1].gold == 1


def test_no_trade_while_a_choice_is_pending(s2):
    """Trading: "A trade never takes priority over another action or card" (R28: while a
    choice is pending, offers and acceptances are refused; afterwards they work)."""
    put(s2, 0, gold=5)
    oid = offer(s2, 0, {"gold": 1}, {})
    s2.pending.append({"kind": "quest_discard", "seat": 0})
    put(s2, 0, quests=["q_easy1", "q_easy2", "q_easy3", "q_plain"])
    refuse(s2, 1, {"type": "accept", "offer": oid}, "trading_closed")
    refuse(s2, 0, {"type": "offer", "give": {"gold": 1}, "want": {}, "to": [1]}, "trading_closed")
    play(s2, 0, {"type": "discard_quest", "card": "q_plain"})
    play(s2, 1, {"type": "accept", "offer": oid})
    assert s2.players[1].gold == 1


def test_gifts_and_requests_are_allowed(s2):
    """Trading: "you may exchange, sell and buy anything" (R29: a one-sided offer, a gift
    or a request, is allowed; only an offer with both sides empty is refused)."""
    put(s2, 0, gold=4)
    put(s2, 1, resources={"ore": 1})
    gift = offer(s2, 0, {"gold": 2}, {})
    play(s2, 1, {"type": "accept", "offer": gift})
    assert s2.players[0].gold == 2 and s2.players[1].gold == 2
    ask = offer(s2, 0, {}, {"resources": {"ore": 1}})
    play(s2, 1, {"type": "accept", "offer": ask})
    assert s2.players[0].resources["ore"] == 1 and s2.players[1].resources["ore"] == 0


def test_offer_event_is_public(s3):
    """Trading: offers are made in the open: the "offer" event reaches every seat and
    spectators (its addressees are not a privacy marker)."""
    from app.karanor.view import events_for

    put(s3, 0, gold=3)
    events = play(s3, 0, {"type": "offer", "give": {"gold": 1}, "want": {}, "to": [1]})
    for viewer in (None, 0, 1, 2):
        seen = events_for(events, viewer)
        assert seen and seen[0]["type"] == "offer" and seen[0]["addressees"] == [1]


def test_a_bot_counters_an_offer_asking_for_gold_with_less_gold(s2):
    """R29: a bot puts no gold on both sides of an offer. Countering "1 wine for 9 gold" it
    asks for a better price by offering less gold (it used to offer the 9 gold and ask for
    the wine and more gold: "9 gold for 1 wine and 3 gold")."""
    from app.karanor.bots import GreedyBot
    from app.karanor.engine import RULES

    put(s2, 0, resources={"wine": 1})
    put(s2, 1, gold=9)
    oid = offer(s2, 0, {"resources": {"wine": 1}}, {"gold": 9})
    bot = GreedyBot(1)
    bot.counter_chance = 1.0
    cmd = bot.answer(s2, 1)
    assert cmd is not None and cmd.type == "counter", cmd
    assert cmd.offer == oid and "gold" not in cmd.want and cmd.want["resources"] == {"wine": 1}
    assert 0 < cmd.give["gold"] < 9
    RULES.apply(s2, 1, cmd)  # the rules take it
    assert s2.offers[-1]["counter_of"] == oid
