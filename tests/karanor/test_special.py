"""Special Actions: Make a Delivery, Recruit a Partner, Buy a Villa; rulings R18, R19."""

from __future__ import annotations

from tests.karanor.scenario import give_turn, kinds, legal, play, put, refuse


def test_delivery_pays_gold_and_prestige_and_reveals_the_next(s2):
    """Make a Delivery: "When you are in the indicated city, hand over the resources required for
    the delivery and use 1 action. You receive the gold coins and prestige points associated with
    the card ... you turn up a new Delivery card" (R19: one face up at a time; the first to deliver
    takes it)."""
    s2.delivery, s2.decks["deliveries"] = "dl_wood", ["dl_ore"]
    put(s2, 0, position="hub", resources={"wood": 3}, gold=1)
    wood = s2.supply["wood"]
    events = play(s2, 0, {"type": "deliver"})
    p = s2.players[0]
    assert p.gold == 5 and p.prestige == 1 and p.resources["wood"] == 0
    assert s2.supply["wood"] == wood + 3 and s2.actions_left == 3
    assert s2.delivery == "dl_ore" and s2.decks["deliveries"] == []
    assert events[-1] == {"type": "delivery_revealed", "card": "dl_ore"}


def test_delivery_only_in_its_city_with_the_goods(s2):
    """Make a Delivery: "bring the requested resources to the city concerned"."""
    s2.delivery = "dl_wood"
    put(s2, 0, position="a_city", resources={"wood": 3})
    refuse(s2, 0, {"type": "deliver"}, "wrong_city")
    put(s2, 0, position="hub", resources={"wood": 2})
    refuse(s2, 0, {"type": "deliver"}, "cannot_afford")


def test_no_delivery_once_all_are_made(s2):
    """Setup: "Prepare X+1 Delivery cards" (R19: when all are done, no more deliveries)."""
    s2.delivery, s2.decks["deliveries"] = "dl_ore", []
    put(s2, 0, position="a_city", resources={"ore": 4})
    play(s2, 0, {"type": "deliver"})
    assert s2.delivery is None
    refuse(s2, 0, {"type": "deliver"}, "no_delivery")


def test_scholar_adds_delivery_gold(s2):
    """Badge Tiles: bonuses apply; Scholar adds 1 gold to a delivery (delivery_gold)."""
    s2.delivery = "dl_mix"
    put(s2, 0, position="f_city", resources={"wood": 1, "ore": 1}, badges=["scholar"])
    play(s2, 0, {"type": "deliver"})
    assert s2.players[0].gold == 3 and s2.players[0].prestige == 2


def test_recruit_a_partner_for_five_gold(s2):
    """Recruit a Partner: "Use the Recruit a Partner action and pay 5 gold coins. You may
    choose a partner among those not yet recruited"."""
    put(s2, 0, gold=6)
    play(s2, 0, {"type": "recruit_partner", "resource": "ore"})
    assert s2.players[0].partners == {"ore": False} and s2.players[0].gold == 1
    assert "ore" not in s2.partners_free and s2.actions_left == 3
    give_turn(s2, 1)
    put(s2, 1, gold=9)
    refuse(s2, 1, {"type": "recruit_partner", "resource": "ore"}, "partner_taken")
    refuse(s2, 1, {"type": "recruit_partner", "resource": "diamond"}, "partner_taken")
    assert {"type": "recruit_partner", "resource": "ore"} not in legal(s2, 1)
    put(s2, 1, gold=4)
    refuse(s2, 1, {"type": "recruit_partner", "resource": "wine"}, "not_enough_gold")


def test_no_limit_on_partners(s2):
    """Recruit a Partner: "There is no limit on the number of partners per player"."""
    put(s2, 0, gold=20)
    for res in ("wood", "ore", "cloth", "wine"):
        play(s2, 0, {"type": "recruit_partner", "resource": res})
    assert len(s2.players[0].partners) == 4 and s2.players[0].gold == 0


def test_charm_discounts_a_partner(s2):
    """Artifact Tiles: "These powerful bonuses"; Charm takes 2 gold off a partner."""
    put(s2, 0, gold=3, artifacts=["art_charm"])
    play(s2, 0, {"type": "recruit_partner", "resource": "fruit"})
    assert s2.players[0].gold == 0


def test_promotion_once_free_and_permanent(s2):
    """Recruit a Partner: "Once during the game, you may reassign your partner. It is then
    "promoted" ... This promotion is permanent, costs no action, and you may no longer
    reassign that partner to its resource" (R18: once per partner)."""
    put(s2, 0, partners={"wood": False, "ore": False})
    play(s2, 0, {"type": "promote_partner", "resource": "wood"})
    assert s2.players[0].partners == {"wood": True, "ore": False} and s2.actions_left == 4
    refuse(s2, 0, {"type": "promote_partner", "resource": "wood"}, "already_promoted")
    refuse(s2, 0, {"type": "promote_partner", "resource": "wine"}, "not_your_partner")
    play(s2, 0, {"type": "promote_partner", "resource": "ore"})
    assert s2.players[0].partners == {"wood": True, "ore": True}


def test_promotion_off_turn(s2):
    """Recruit a Partner: promotion "costs no action" (R18: at any time, even off-turn)."""
    put(s2, 1, partners={"meat": False})
    play(s2, 1, {"type": "promote_partner", "resource": "meat"})
    assert s2.players[1].partners == {"meat": True}


def test_partner_revenue_resource_then_gold(s2):
    """Recruit a Partner: "A partner will either provide the resource drawn on it, or 1
    additional gold coin during the revenue phase"."""
    put(s2, 0, partners={"cloth": False})
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].resources["cloth"] == 1 and s2.players[0].gold == 0
    play(s2, 0, {"type": "promote_partner", "resource": "cloth"})
    play(s2, 1, {"type": "end_turn"})
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].resources["cloth"] == 1 and s2.players[0].gold == 1


def test_buy_a_villa(s2):
    """Buy a Villa: "go to the territory where the villa is located, use 1 action and pay 8
    gold coins ... you gain 1 prestige point. It is then no longer available for sale to
    the other players"."""
    put(s2, 0, position="tower", gold=9)
    events = play(s2, 0, {"type": "buy_villa", "villa": "villa_tower"})
    p = s2.players[0]
    assert p.villas == ["villa_tower"] and p.gold == 1 and p.prestige == 1
    assert s2.villa_owner == {"villa_tower": 0} and s2.actions_left == 3
    assert "prestige" in kinds(events)
    give_turn(s2, 1)
    put(s2, 1, position="tower", gold=9)
    refuse(s2, 1, {"type": "buy_villa", "villa": "villa_tower"}, "villa_owned")


def test_villa_refusals(s2):
    """Buy a Villa: on the villa's territory, for 8 gold coins."""
    put(s2, 0, position="forest", gold=9)
    refuse(s2, 0, {"type": "buy_villa", "villa": "villa_tower"}, "not_here")
    refuse(s2, 0, {"type": "buy_villa", "villa": "villa_moon"}, "unknown_villa")
    put(s2, 0, position="tower", gold=7)
    refuse(s2, 0, {"type": "buy_villa", "villa": "villa_tower"}, "not_enough_gold")


def test_purse_discounts_a_villa(s2):
    """Artifact Tiles: "These powerful bonuses"; the Purse takes 2 gold off a villa."""
    put(s2, 0, position="isle", gold=6, artifacts=["art_purse"])
    play(s2, 0, {"type": "buy_villa", "villa": "villa_isle"})
    assert s2.players[0].gold == 0
