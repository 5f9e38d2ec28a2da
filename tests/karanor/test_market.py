"""Market (2 Players Only) and ruling R25."""

from __future__ import annotations

import pytest

from tests.karanor.scenario import legal_types, offered, play, put, refuse, scenario


def test_market_set_up_with_one_token_each_but_diamond(s2):
    """Market: "At the start of the game, place one token of each resource on the dedicated
    spaces, except the Diamond" (R25)."""
    assert s2.market == {r: 1 for r in ("wood", "ore", "cloth", "wine", "meat", "fruit")}


def test_buy_one_for_three_gold(s2):
    """Market: "Accessing the Market costs 1 action", "Buy 1 or 2 available resources",
    "3 gold coins to buy"."""
    put(s2, 0, gold=4)
    events = play(s2, 0, {"type": "market", "buy": {"wood": 1}})
    assert s2.players[0].gold == 1 and s2.players[0].resources["wood"] == 1
    assert s2.market["wood"] == 0 and s2.actions_left == 3
    assert events[0]["paid"] == 3 and events[0]["earned"] == 0
    refuse(s2, 0, {"type": "market", "buy": {"wood": 1}}, "bad_market")


def test_buy_two(s2):
    """Market: "Buy 1 or 2 available resources"."""
    put(s2, 0, gold=6)
    play(s2, 0, {"type": "market", "buy": {"wood": 1, "ore": 1}})
    assert s2.players[0].gold == 0
    assert s2.players[0].resources["wood"] == 1 and s2.players[0].resources["ore"] == 1


def test_sell_one_or_two_for_one_gold(s2):
    """Market: "Sell 1 or 2 of your resources", "1 gold coin to sell"."""
    put(s2, 0, resources={"meat": 2})
    play(s2, 0, {"type": "market", "sell": {"meat": 2}})
    assert s2.players[0].gold == 2 and s2.market["meat"] == 3


def test_buy_one_and_sell_one(s2):
    """Market: "Buy 1 resource and sell 1 of your resources" in one visit (R25: two different
    resources)."""
    put(s2, 0, gold=2, resources={"fruit": 1})
    play(s2, 0, {"type": "market", "buy": {"cloth": 1}, "sell": {"fruit": 1}})
    p = s2.players[0]
    assert p.gold == 0 and p.resources["cloth"] == 1 and p.resources["fruit"] == 0
    assert s2.market["cloth"] == 0 and s2.market["fruit"] == 2 and s2.actions_left == 3


@pytest.mark.parametrize(
    "cmd",
    [
        {"type": "market", "buy": {"wood": 1, "ore": 1, "wine": 1}},
        {"type": "market", "sell": {"meat": 3}},
        {"type": "market", "buy": {"wood": 2}, "sell": {"meat": 1}},
        {"type": "market", "buy": {"wood": 1}, "sell": {"meat": 2}},
        {"type": "market"},
    ],
)
def test_only_the_three_visits_exist(s2, cmd):
    """Market: "you must choose one of the following: Buy 1 or 2 ... Sell 1 or 2 ... Buy 1
    resource and sell 1"."""
    s2.market = dict.fromkeys(s2.market, 2)
    put(s2, 0, gold=20, resources={"meat": 3})
    refuse(s2, 0, cmd, "bad_market")


def test_pile_holds_at_most_three(s2):
    """Market: "The Market cannot hold more than 3 tokens of each resource"."""
    s2.market["wine"] = 3
    put(s2, 0, resources={"wine": 2})
    refuse(s2, 0, {"type": "market", "sell": {"wine": 1}}, "bad_market")
    s2.market["wine"] = 2
    refuse(s2, 0, {"type": "market", "sell": {"wine": 2}}, "bad_market")
    play(s2, 0, {"type": "market", "sell": {"wine": 1}})


def test_first_token_bought_from_a_full_pile_costs_two(s2):
    """Market, Price variance: "If the pile of the resource concerned is full (3 tokens),
    buying the 1st resource costs 2 gold coins" (R25)."""
    s2.market["ore"] = 3
    put(s2, 0, gold=5)
    events = play(s2, 0, {"type": "market", "buy": {"ore": 2}})
    assert events[0]["paid"] == 5 and s2.players[0].gold == 0  # 2 + 3
    s2.market["ore"] = 3
    put(s2, 0, gold=2)
    play(s2, 0, {"type": "market", "buy": {"ore": 1}})
    assert s2.players[0].gold == 0


def test_first_token_sold_to_an_empty_pile_earns_two(s2):
    """Market, Price variance: "If the pile of the resource concerned is empty, selling the
    1st resource of the pile earns 2 gold coins" (R25)."""
    s2.market["cloth"] = 0
    put(s2, 0, resources={"cloth": 2})
    events = play(s2, 0, {"type": "market", "sell": {"cloth": 2}})
    assert events[0]["earned"] == 3 and s2.players[0].gold == 3  # 2 + 1


def test_no_diamond_at_the_market(s2):
    """Market: tokens of each resource "except the Diamond" (R25: diamonds can be neither
    bought nor sold there)."""
    put(s2, 0, gold=9, resources={"diamond": 1})
    refuse(s2, 0, {"type": "market", "sell": {"diamond": 1}}, "bad_market")
    refuse(s2, 0, {"type": "market", "buy": {"diamond": 1}}, "bad_market")


def test_market_needs_the_gold_and_the_goods(s2):
    """Market: "3 gold coins to buy"; you sell "your resources"."""
    put(s2, 0, gold=2)
    refuse(s2, 0, {"type": "market", "buy": {"wood": 1}}, "not_enough_gold")
    refuse(s2, 0, {"type": "market", "sell": {"wood": 1}}, "cannot_afford")
    refuse(s2, 1, {"type": "market", "sell": {"wood": 1}}, "not_your_turn")


def test_market_listed_in_legal_actions(s2):
    """Market: a visit is one of the actions of a two-player turn."""
    put(s2, 0, gold=3, resources={"wood": 1})
    assert offered(s2, 0, {"type": "market", "buy": {"ore": 1}})
    assert offered(s2, 0, {"type": "market", "sell": {"wood": 1}})
    assert not offered(s2, 0, {"type": "market", "buy": {"ore": 1, "wine": 1}})


def test_no_market_with_three_players(s3):
    """Rules by Number of Players: "Market (2 Players Only)" (R25: only with 2 players)."""
    assert s3.market is None
    put(s3, 0, gold=9)
    refuse(s3, 0, {"type": "market", "buy": {"wood": 1}}, "no_market")
    assert "market" not in legal_types(s3, 0)


def test_no_market_when_the_option_is_off():
    """Market: "you may play with the 2-player Market tile" (a room option) (R25: option
    `two_player_market`)."""
    s = scenario(2, two_player_market=False)
    assert s.market is None
    put(s, 0, gold=9)
    refuse(s, 0, {"type": "market", "buy": {"wood": 1}}, "no_market")
