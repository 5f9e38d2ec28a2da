"""Bots trade (Trading issue, "Bots"): they answer offers addressed to them by their
valuation and propose trades for what they need; a human can always trade with a bot."""

from __future__ import annotations

from app.karanor import bots, engine
from app.karanor.commands import Accept, Counter, Decline, Offer
from tests.karanor.scenario import play, put


def offer(s, seat, give, want, to):
    events = play(s, seat, {"type": "offer", "give": give, "want": want, "to": to})
    return events[0]["offer"]


def test_bot_accepts_an_offer_that_improves_its_position(s2):
    """Trading Between Players: "you may exchange, sell and buy anything" — a generous
    offer (5 gold for one ore the bot does not need) is accepted."""
    put(s2, 0, gold=6)
    put(s2, 1, resources={"ore": 1}, business_hand=[], quests=[])
    s2.delivery = None
    oid = offer(s2, 0, {"gold": 5}, {"resources": {"ore": 1}}, [1])
    reply = bots.GreedyBot(1).answer(s2, 1)
    assert reply == Accept(oid)
    engine.apply(s2, 1, reply)
    assert s2.players[1].gold == 5 and s2.players[0].resources["ore"] == 1


def test_bot_declines_or_counters_a_bad_offer(s2):
    """A poor offer (1 gold for the bot's 3 wood) is declined, or countered with a price;
    it is never accepted."""
    put(s2, 0, gold=9)
    put(s2, 1, resources={"wood": 3})
    for seed in range(12):
        oid = offer(s2, 0, {"gold": 1}, {"resources": {"wood": 3}}, [1])
        reply = bots.GreedyBot(seed).answer(s2, 1)
        assert isinstance(reply, Decline | Counter), reply
        assert reply.offer == oid
        engine.apply(s2, 1, reply)
        if isinstance(reply, Counter):
            counter = s2.offers[-1]
            assert counter["to"] == [0] and counter["want"]["gold"] > 1
        assert s2.offers[-1 if isinstance(reply, Decline) else -2]["status"] == "declined"


def test_bot_does_not_answer_twice_or_when_trading_is_closed(s2):
    """Trading: "as soon as a player reaches the maximum number of prestige points, all
    trades become forbidden" — the bot says nothing then; and it answers an offer once."""
    put(s2, 0, gold=3)
    put(s2, 1, resources={"wood": 3})
    oid = offer(s2, 0, {"gold": 1}, {"resources": {"wood": 3}}, [1])
    engine.apply(s2, 1, Decline(oid))
    assert bots.GreedyBot(0).answer(s2, 1) is None
    offer(s2, 0, {"gold": 1}, {}, [1])
    s2.end_triggered_by = 0
    assert bots.GreedyBot(0).answer(s2, 1) is None


def test_bot_proposes_a_trade_it_needs(s2):
    """A bot short of a resource for a card in hand offers gold for it to a holder."""
    put(s2, 1, gold=8, business_hand=["bz_shop"], quests=[])
    put(s2, 0, resources={"wood": 2})
    proposal = bots.GreedyBot(3).propose(s2, 1)
    assert isinstance(proposal, Offer)
    assert proposal.want == {"resources": {"wood": 1}} and proposal.to == (0,)
    assert 1 <= proposal.give["gold"] <= 8
    engine.apply(s2, 1, proposal)
    assert bots.GreedyBot(3).propose(s2, 1) is None  # one open offer at a time
