"""Build a Business, Business Cards and Construction Limits; rulings R7-R9."""

from __future__ import annotations

import pytest

from app.karanor.state import Business
from tests.karanor.scenario import (
    MINI,
    after_draft,
    first,
    give_turn,
    kinds,
    legal,
    offered,
    play,
    put,
    refuse,
)


@pytest.fixture
def s(s2):
    """Seat 0 in the Hub (a city, no one's home) holding a Shop and a Stall."""
    put(s2, 0, position="hub", business_hand=["bz_shop", "bz_stall"])
    return s2


def test_build_only_in_a_city(s):
    """Build a Business: "you must: Be in a city"."""
    put(s, 0, position="forest", gold=9)
    refuse(s, 0, {"type": "build", "card": "bz_stall"}, "not_in_city")
    assert not [c for c in legal(s, 0) if c["type"] == "build"]


def test_build_pays_cost_places_pawn_and_opens(s):
    """Build a Business: "Pay the construction costs shown in the upper frame", "place a
    business pawn on the city you are in"; Shop's reward on opening: 1 prestige."""
    put(s, 0, gold=5, resources={"wood": 1})
    wood = s.supply["wood"]
    events = play(s, 0, {"type": "build", "card": "bz_shop"})
    p = s.players[0]
    assert p.gold == 2 and p.resources["wood"] == 0 and s.supply["wood"] == wood + 1
    assert Business(city="hub", card="bz_shop") in p.businesses
    assert p.prestige == 1 and p.business_hand == ["bz_stall"]
    assert s.actions_left == 3
    assert first(events, "build")["gold"] == 3
    assert s.pending == [{"kind": "business_pick", "seat": 0}]


def test_opening_reward_raises_revenue(s):
    """Build a Business: "Reward on opening this business: Increase your revenue by 1" (R20:
    businesses move the track)."""
    put(s, 0, gold=2, revenue=3)
    play(s, 0, {"type": "build", "card": "bz_stall"})
    assert s.players[0].revenue == 4 and s.players[0].prestige == 0


def test_revenue_track_has_a_maximum(s):
    """R20: the revenue track stops at its maximum (12)."""
    put(s, 0, gold=2, revenue=12)
    play(s, 0, {"type": "build", "card": "bz_stall"})
    assert s.players[0].revenue == 12


def test_story_tile_sets_the_starting_revenue_level():
    """Start of the Adventure: "place your revenue marker on your Home City tile at the level
    indicated" on the Story tile; the example: "They place their revenue marker at 2, as
    shown on their Story tile" (R20: the story tile's level is where the track starts, and
    the revenue phase pays it until a business or a card moves it)."""
    s = after_draft(6, seed=3)
    by_story = {p.story: p for p in s.players}
    assert {MINI.story[k].revenue for k in by_story} == {1, 2, 3}
    for k, p in by_story.items():
        assert p.revenue == MINI.story[k].revenue
    for k, level in (("st_poor", 3), ("st_captain", 2), ("st_rich", 1)):
        p = by_story[k]
        assert p.partners == {} and MINI.story[k].revenue == level
        give_turn(s, p.seat)
        gold = p.gold
        events = play(s, p.seat, {"type": "end_turn"})
        assert first(events, "revenue_phase")["gold"] == level and p.gold == gold + level


def test_cannot_build_without_the_cost(s):
    """Build a Business: "Pay the construction costs shown in the upper frame of your
    Business cards"."""
    put(s, 0, gold=1)
    refuse(s, 0, {"type": "build", "card": "bz_stall"}, "cannot_afford")
    put(s, 0, gold=9)
    refuse(s, 0, {"type": "build", "card": "bz_shop"}, "cannot_afford")  # no wood
    refuse(s, 0, {"type": "build", "card": "bz_bank"}, "not_in_hand")


def test_one_business_per_city(s):
    """Construction Limits: "A single player may not build more than one business per
    city"."""
    put(s, 0, gold=9, resources={"wood": 1})
    play(s, 0, {"type": "build", "card": "bz_shop"})
    play(s, 0, {"type": "pick_business", "card": "deck"})
    refuse(s, 0, {"type": "build", "card": "bz_stall"}, "already_built_here")
    put(s, 1, position="hub", gold=9, business_hand=["bz_stall"])
    s.turn_seat, s.actions_left = 1, 4
    play(s, 1, {"type": "build", "card": "bz_stall"})  # "only one from each player"


def test_home_pawn_counts_as_the_home_business(s):
    """Setup: "Place your player pawn and one business pawn on your Home City"; R7: that
    pawn is the player's business there, so no second one is built at home."""
    put(s, 0, position=s.players[0].home, gold=9)
    refuse(s, 0, {"type": "build", "card": "bz_stall"}, "already_built_here")


def test_build_discount_from_guild(s):
    """Badge Tiles: the Guild Seal takes 1 gold off a business (passive build_discount)."""
    put(s, 0, gold=1, badges=["guild"])
    events = play(s, 0, {"type": "build", "card": "bz_stall"})
    assert s.players[0].gold == 0 and first(events, "build")["gold"] == 1


def test_optional_bonus_of_popular_inn(s):
    """Build a Business, example Popular Inn: "must pay 6 gold coins, 1 Fruit token, 1
    Meat token and 1 Cloth token"; "Optional bonus: ... may pay 3 additional gold coins to
    receive ... a Mount badge"; "Reward on opening: increase your revenue by 1 and gain 1
    prestige point"."""
    res = {"fruit": 1, "meat": 1, "cloth": 1}
    put(s, 0, gold=9, resources=res, business_hand=["popular_inn", "bz_stall"], revenue=2)
    mounts = s.badge_supply["mount"]
    assert offered(s, 0, {"type": "build", "card": "popular_inn", "bonus": True})
    play(s, 0, {"type": "build", "card": "popular_inn", "bonus": True})
    p = s.players[0]
    assert p.gold == 0 and all(p.resources[r] == 0 for r in res)
    assert p.badges == ["mount"] and s.badge_supply["mount"] == mounts - 1
    assert p.revenue == 3 and p.prestige == 1


def test_bonus_is_optional(s):
    """Build a Business: "This is not mandatory: the business may be built without the
    bonus"."""
    put(
        s,
        0,
        gold=6,
        resources={"fruit": 1, "meat": 1, "cloth": 1},
        business_hand=["popular_inn", "bz_stall"],
    )
    refuse(s, 0, {"type": "build", "card": "popular_inn", "bonus": True}, "cannot_afford")
    refuse(s, 0, {"type": "build", "card": "bz_stall", "bonus": True}, "no_bonus")
    play(s, 0, {"type": "build", "card": "popular_inn"})
    assert s.players[0].badges == [] and s.players[0].gold == 0


def test_pick_a_displayed_card_and_refill(s):
    """Build a Business: "choose 1 new Business card from the 3 cards displayed face up ...
    Replace the chosen card with a card from the deck"; Business Cards: "You will always
    have 2 Business cards in hand" (R9: a `business_pick` choice follows every build)."""
    put(s, 0, gold=2)
    play(s, 0, {"type": "build", "card": "bz_stall"})
    display = list(s.business_display)
    top = s.decks["business"][-1]
    assert {c["card"] for c in legal(s, 0)} == {*display, "deck"}
    play(s, 0, {"type": "pick_business", "card": display[1]})
    assert s.players[0].business_hand == ["bz_shop", display[1]]
    assert s.business_display == [display[0], top, display[2]]
    assert s.pending == []


def test_pick_blind_from_the_deck(s):
    """Build a Business: "or at random from the Business card deck"."""
    put(s, 0, gold=2)
    play(s, 0, {"type": "build", "card": "bz_stall"})
    display, top = list(s.business_display), s.decks["business"][-1]
    events = play(s, 0, {"type": "pick_business", "card": "deck"})
    assert s.players[0].business_hand == ["bz_shop", top]
    assert s.business_display == display
    assert "business_blind" in kinds(events)
    refuse(s, 0, {"type": "pick_business", "card": "deck"}, "no_such_choice")


def test_no_pick_when_display_and_deck_are_empty(s):
    """R9: with neither a displayed card nor a deck (discards included) there is nothing
    to pick: the build ends there."""
    put(s, 0, gold=2)
    s.business_display, s.decks["business"], s.discards["business"] = [], [], []
    play(s, 0, {"type": "build", "card": "bz_stall"})
    assert s.pending == [] and s.players[0].business_hand == ["bz_shop"]


def test_blind_pick_from_an_empty_deck_reshuffles_the_discards(s):
    """Build a Business: "or at random from the Business card deck" (R9: an empty deck is
    refilled from the discarded business cards)."""
    put(s, 0, gold=2)
    s.discards["business"], s.decks["business"] = list(s.decks["business"][:2]), []
    old = set(s.discards["business"])
    play(s, 0, {"type": "build", "card": "bz_stall"})
    assert offered(s, 0, {"type": "pick_business", "card": "deck"})
    play(s, 0, {"type": "pick_business", "card": "deck"})
    hand = s.players[0].business_hand
    assert hand[0] == "bz_shop" and hand[1] in old
    assert s.discards["business"] == [] and set(s.decks["business"]) == old - {hand[1]}


def test_pick_refused_for_a_card_not_displayed(s):
    """Build a Business: the new card comes from "the 3 cards displayed face up"."""
    put(s, 0, gold=2)
    play(s, 0, {"type": "build", "card": "bz_stall"})
    refuse(s, 0, {"type": "pick_business", "card": "bz_shop"}, "not_displayed")
    refuse(s, 1, {"type": "pick_business", "card": s.business_display[0]}, "not_your_choice")


def test_pawn_limit_of_eight(s):
    """Components: "48 business pawns" for 6 colours (R8: 8 per merchant, home pawn,
    businesses and villas together)."""
    home = s.players[0].home
    others = [c for c in ("a_city", "b_city", "c_city", "d_city", "e_city", "f_city") if c != home]
    pawns = [Business(home, None)] + [Business(c, "bz_hut") for c in others]
    put(s, 0, gold=9, businesses=list(pawns), villas=["villa_isle"])
    assert s.players[0].pawns() == 7
    play(s, 0, {"type": "build", "card": "bz_stall"})  # the 8th pawn
    play(s, 0, {"type": "pick_business", "card": "deck"})
    put(s, 0, position="tower", gold=9)
    refuse(s, 0, {"type": "buy_villa", "villa": "villa_tower"}, "no_pawns_left")
    put(
        s,
        0,
        position="hub",
        gold=9,
        resources={"wood": 1},
        businesses=list(pawns),
        villas=["villa_isle", "villa_tower"],
    )
    assert s.players[0].pawns() == 8
    refuse(s, 0, {"type": "build", "card": "bz_shop"}, "no_pawns_left")


def test_pending_pick_blocks_other_commands(s):
    """Build a Business: "Then choose 1 new Business card": the choice comes first (a
    trade "never takes priority over another action or card")."""
    put(s, 0, gold=3, black_market=["bm_windfall"])
    put(s, 1, gold=3, black_market=["bm_windfall"])
    play(s, 0, {"type": "build", "card": "bz_stall"})
    refuse(s, 0, {"type": "work"}, "pending_choice")
    refuse(s, 0, {"type": "end_turn"}, "pending_choice")
    refuse(s, 1, {"type": "play_black_market", "card": "bm_windfall"}, "pending_choice")
    refuse(s, 1, {"type": "offer", "to": [0], "give": {"gold": 1}, "want": {}}, "trading_closed")
    assert legal(s, 1) == []
    assert {c["type"] for c in legal(s, 0)} == {"pick_business"}
