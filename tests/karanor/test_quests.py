"""Interact with an Inhabitant, Complete a Quest, Quest Cards; rulings R10-R13."""

from __future__ import annotations

import pytest

from app.karanor.state import Business
from tests.karanor.scenario import first, kinds, legal, play, put, refuse, scenario


def deck_top(s, *cards):
    """Put cards on top of the quest deck, the last one drawn first."""
    s.decks["quests"] = [c for c in s.decks["quests"] if c not in cards] + list(reversed(cards))


@pytest.fixture
def s(s2):
    """Seat 0 on the Forest, where the Woodcutter lives."""
    put(s2, 0, position="forest")
    return s2


def test_interact_draws_a_quest_and_removes_the_inhabitant(s):
    """Interact with an Inhabitant: "use the Interact action and draw a Quest card ... Once your
    Quest card is drawn, remove the inhabitant token from the board" (R10: interactions draw
    quests)."""
    deck_top(s, "q_plain")
    events = play(s, 0, {"type": "interact"})
    assert s.players[0].quests == ["q_plain"]
    assert "forest" not in s.inhabitants
    assert s.actions_left == 3
    assert first(events, "interact") == {
        "type": "interact",
        "seat": 0,
        "inhabitant": "woodcutter",
        "territory": "forest",
    }
    refuse(s, 0, {"type": "interact"}, "no_inhabitant")
    put(s, 0, position="hub")
    refuse(s, 0, {"type": "interact"}, "no_inhabitant")


def test_interact_impossible_when_no_quest_is_left(s):
    """R10: only interactions draw quests; with the deck and its discards empty there is
    nothing to draw, so Interact is refused."""
    s.decks["quests"], s.discards["quests"] = [], []
    refuse(s, 0, {"type": "interact"}, "deck_empty")


def test_fourth_quest_triggers_a_discard_of_any_of_four(s):
    """Complete a Quest: "A player may not have more than 3 Quest cards in hand. If they
    receive a 4th, they must discard a card of their choice" (R11: any of the 4)."""
    put(s, 0, quests=["q_easy1", "q_easy2", "q_easy3"])
    deck_top(s, "q_plain")
    play(s, 0, {"type": "interact"})
    assert s.players[0].quests == ["q_easy1", "q_easy2", "q_easy3", "q_plain"]
    assert s.pending == [{"kind": "quest_discard", "seat": 0}]
    assert sorted(c["card"] for c in legal(s, 0)) == ["q_easy1", "q_easy2", "q_easy3", "q_plain"]
    refuse(s, 0, {"type": "work"}, "pending_choice")
    events = play(s, 0, {"type": "discard_quest", "card": "q_plain"})
    assert s.players[0].quests == ["q_easy1", "q_easy2", "q_easy3"]
    assert s.discards["quests"] == ["q_plain"] and s.pending == []
    assert "q_plain" not in str([e for e in events if "to" not in e])


def test_an_old_quest_may_be_discarded_instead(s):
    """Complete a Quest: "they must discard a card of their choice" (R11)."""
    put(s, 0, quests=["q_easy1", "q_easy2", "q_easy3"])
    deck_top(s, "q_plain")
    play(s, 0, {"type": "interact"})
    play(s, 0, {"type": "discard_quest", "card": "q_easy2"})
    assert s.players[0].quests == ["q_easy1", "q_easy3", "q_plain"]


def test_scholar_raises_the_quest_limit(s):
    """Badge Tiles: bonuses of badges apply; the Scholar badge holds one more quest
    (passive quest_limit +1)."""
    put(s, 0, quests=["q_easy1", "q_easy2", "q_easy3"], badges=["scholar"])
    deck_top(s, "q_plain")
    play(s, 0, {"type": "interact"})
    assert s.pending == [] and len(s.players[0].quests) == 4


def test_immediate_choice_resolves_at_once_without_action(s):
    """Quest Cards: "This choice must be made immediately after drawing the Quest card, and
    it costs you no action!"; a card with only an immediate choice is then discarded
    (R12)."""
    put(s, 0, gold=1)
    deck_top(s, "q_riddle")
    play(s, 0, {"type": "interact"})
    assert s.pending == [{"kind": "quest_choice", "seat": 0, "card": "q_riddle"}]
    assert s.players[0].quests == [] and s.actions_left == 3
    assert {(c["card"], c["option"]) for c in legal(s, 0)} == {("q_riddle", 0), ("q_riddle", 1)}
    refuse(s, 0, {"type": "end_turn"}, "pending_choice")
    refuse(s, 1, {"type": "quest_choice", "card": "q_riddle", "option": 0}, "not_your_choice")
    refuse(s, 0, {"type": "quest_choice", "card": "q_riddle", "option": 2}, "bad_option")
    events = play(s, 0, {"type": "quest_choice", "card": "q_riddle", "option": 0})
    assert s.players[0].gold == 3 and s.actions_left == 3
    assert s.players[0].quests == [] and s.discards["quests"] == ["q_riddle"]
    assert first(events, "quest_choice")["card"] == "q_riddle"


def test_immediate_choice_other_option(s):
    """Quest Cards: "Some quests will offer you a choice": the second option's reward (a
    black-market card) is given instead."""
    deck_top(s, "q_riddle")
    play(s, 0, {"type": "interact"})
    top = s.decks["black_market"][-1]
    play(s, 0, {"type": "quest_choice", "card": "q_riddle", "option": 1})
    assert s.players[0].black_market == [top] and s.players[0].gold == 0


def test_immediate_and_complete_quest_stays_in_hand(s):
    """Quest Cards: an immediate choice "costs you no action"; R12: a card that also has a
    completion part is kept in hand after the choice, and stays secret."""
    deck_top(s, "q_fork")
    play(s, 0, {"type": "interact"})
    refuse(s, 0, {"type": "quest_choice", "card": "q_fork", "option": 1}, "cannot_afford")
    events = play(s, 0, {"type": "quest_choice", "card": "q_fork", "option": 0})
    assert s.players[0].quests == ["q_fork"]
    assert s.players[0].resources["wine"] == 1
    assert "card" not in first(events, "quest_choice")


def test_pending_choice_blocks_every_other_command(s):
    """Quest Cards: the choice "must be made immediately after drawing the Quest card";
    Trading Between Players: "A trade never takes priority over another action or
    card"."""
    put(s, 0, gold=2, partners={"wood": False})
    put(s, 1, black_market=["bm_windfall"], gold=2)
    deck_top(s, "q_riddle")
    play(s, 0, {"type": "interact"})
    refuse(s, 0, {"type": "work"}, "pending_choice")
    refuse(s, 0, {"type": "move", "to": "hub"}, "pending_choice")
    refuse(s, 0, {"type": "promote_partner", "resource": "wood"}, "pending_choice")
    refuse(s, 0, {"type": "discard_quest", "card": "q_riddle"}, "pending_choice")
    refuse(s, 1, {"type": "play_black_market", "card": "bm_windfall"}, "pending_choice")
    refuse(s, 1, {"type": "offer", "to": [0], "give": {"gold": 1}, "want": {}}, "trading_closed")
    refuse(s, 0, {"type": "offer", "to": [1], "give": {"gold": 1}, "want": {}}, "trading_closed")


def test_answer_without_a_pending_choice_refused(s):
    """Quest Cards: a choice is made "immediately after drawing", never otherwise."""
    put(s, 0, quests=["q_fork"])
    refuse(s, 0, {"type": "quest_choice", "card": "q_fork", "option": 0}, "no_such_choice")
    refuse(s, 0, {"type": "discard_quest", "card": "q_fork"}, "no_such_choice")
    refuse(s, 0, {"type": "choose_artifact", "artifact": "art_lamp"}, "no_such_choice")


def test_complete_quest_costs_an_action_and_gives_prestige(s):
    """Complete a Quest: "Completing a quest costs one action, in addition to meeting the
    conditions"; Quest Cards: "receive the promised reward and the associated prestige
    points"."""
    put(s, 0, position="hub", quests=["q_plain"], resources={"wood": 1})
    wood = s.supply["wood"]
    events = play(s, 0, {"type": "complete_quest", "card": "q_plain"})
    p = s.players[0]
    assert s.actions_left == 3 and p.gold == 2 and p.prestige == 1
    assert p.resources["wood"] == 0 and s.supply["wood"] == wood + 1
    assert p.quests == [] and s.discards["quests"] == ["q_plain"]
    assert kinds(events)[:2] == ["quest_done", "gold"]


def test_complete_quest_conditions_enforced(s):
    """Quest Cards: "fulfil the conditions shown in the lower frame": the place (at), the
    cost held."""
    put(s, 0, position="forest", quests=["q_plain"], resources={"wood": 1})
    refuse(s, 0, {"type": "complete_quest", "card": "q_plain"}, "conditions_not_met")
    put(s, 0, position="hub", resources={"wood": 0})
    refuse(s, 0, {"type": "complete_quest", "card": "q_plain"}, "cannot_afford")
    refuse(s, 0, {"type": "complete_quest", "card": "q_easy1"}, "not_in_hand")
    s.actions_left = 0
    put(s, 0, resources={"wood": 1})
    refuse(s, 0, {"type": "complete_quest", "card": "q_plain"}, "no_actions_left")


def test_condition_at_any(s):
    """Quest Cards: conditions may name several places (at_any); Pilgrim's reward sends
    the merchant home and gives prestige."""
    put(s, 0, position="b_city", quests=["q_any"])
    refuse(s, 0, {"type": "complete_quest", "card": "q_any"}, "conditions_not_met")
    put(s, 0, position="orchard")
    play(s, 0, {"type": "complete_quest", "card": "q_any"})
    assert s.players[0].position == s.players[0].home
    assert s.players[0].prestige == 2  # 1 from the reward, 1 from the card


def test_condition_in_city_and_has(s):
    """Quest Cards: conditions "in a city" and holding gold (not consumed: `has`)."""
    put(s, 0, position="forest", quests=["q_fork"], gold=1, revenue=2)
    refuse(s, 0, {"type": "complete_quest", "card": "q_fork"}, "conditions_not_met")
    put(s, 0, position="hub", gold=0)
    refuse(s, 0, {"type": "complete_quest", "card": "q_fork"}, "conditions_not_met")
    put(s, 0, gold=1)
    play(s, 0, {"type": "complete_quest", "card": "q_fork"})
    assert s.players[0].gold == 1 and s.players[0].revenue == 3 and s.players[0].prestige == 2


def test_condition_badge_and_min_businesses(s):
    """Quest Cards: conditions on badges and businesses built; docs: the home pawn does not
    count as a built business."""
    put(s, 0, quests=["q_badge"], badges=["mount"])
    refuse(s, 0, {"type": "complete_quest", "card": "q_badge"}, "conditions_not_met")
    put(s, 0, badges=[], businesses=s.players[0].businesses + [Business("hub", "bz_stall")])
    refuse(s, 0, {"type": "complete_quest", "card": "q_badge"}, "conditions_not_met")
    put(s, 0, badges=["mount"])
    play(s, 0, {"type": "complete_quest", "card": "q_badge"})
    assert s.players[0].badges == ["mount", "scholar"]


def test_conditions_villas_partners_artifacts_prestige():
    """Quest Cards: "fulfil the conditions" (Patron: a villa, a partner, an artifact and 2
    prestige); its reward gives an extra action this turn."""
    s = scenario(4)
    put(
        s,
        0,
        quests=["q_rich"],
        villas=["villa_isle"],
        partners={"wood": False},
        artifacts=["art_boots"],
        prestige=2,
    )
    for field, empty in (("villas", []), ("partners", {}), ("artifacts", []), ("prestige", 1)):
        kept = getattr(s.players[0], field)
        put(s, 0, **{field: empty})
        refuse(s, 0, {"type": "complete_quest", "card": "q_rich"}, "conditions_not_met")
        put(s, 0, **{field: kept})
    play(s, 0, {"type": "complete_quest", "card": "q_rich"})
    assert s.actions_left == 4  # 4 - 1 + 1
    assert s.players[0].prestige == 4


def test_either_or_quest_option_zero(s):
    """Quest Cards, example Campfire: "Choice 1: Sell 2 Diamonds for 8 gold coins. Choice
    2: Buy them an artifact for 10 gold coins. You must choose between option 1 and option
    2"."""
    put(s, 0, quests=["campfire"], resources={"diamond": 2}, gold=3)
    refuse(s, 0, {"type": "complete_quest", "card": "campfire", "option": 1}, "cannot_afford")
    refuse(s, 0, {"type": "complete_quest", "card": "campfire", "option": 2}, "bad_option")
    play(s, 0, {"type": "complete_quest", "card": "campfire", "option": 0})
    p = s.players[0]
    assert p.gold == 11 and p.resources["diamond"] == 0 and p.prestige == 1
    assert p.artifacts == [] and s.pending == []


def test_either_or_quest_option_one(s):
    """Quest Cards, example Campfire: "Choice 2: Buy them an artifact for 10 gold coins"
    (not both: the diamonds stay)."""
    put(s, 0, quests=["campfire"], resources={"diamond": 2}, gold=10)
    play(s, 0, {"type": "complete_quest", "card": "campfire", "option": 1})
    p = s.players[0]
    assert p.gold == 0 and p.resources["diamond"] == 2 and p.prestige == 1
    assert s.pending[0]["kind"] == "artifact"


def test_two_part_quest_sequel_and_vault_door(s):
    """Quest Cards: "Two-part quests ... Once the first part is validated, go and find the
    matching continuation"; example The Cemetery 2/2: "Push open the vault door. Take the
    Salanche Curse badge ... and receive an artifact" (R13: the sequel comes at once)."""
    put(s, 0, position="tower", quests=["cemetery_1"])
    s.decks["artifacts"] = ["art_charm", "art_boots", "art_lamp"]
    events = play(s, 0, {"type": "complete_quest", "card": "cemetery_1"})
    assert s.players[0].prestige == 1
    assert s.pending == [{"kind": "quest_choice", "seat": 0, "card": "cemetery_2"}]
    assert first(events, "sequel")["card"] == "cemetery_2"
    assert s.discards["quests"] == ["cemetery_1"]
    play(s, 0, {"type": "quest_choice", "card": "cemetery_2", "option": 1})
    assert s.players[0].badges == ["curse"]
    assert s.pending == [{"kind": "artifact", "seat": 0, "options": ["art_lamp", "art_boots"]}]
    play(s, 0, {"type": "choose_artifact", "artifact": "art_boots"})
    assert s.players[0].artifacts == ["art_boots"]
    assert s.discards["artifacts"] == ["art_lamp"]
    assert s.discards["sequels"] == ["cemetery_2"] and s.players[0].quests == []
    assert s.actions_left == 3  # the sequel's immediate choice cost no action


def test_two_part_quest_flee(s):
    """Quest Cards, example The Cemetery 2/2: "Immediate choice 1: Flee" (nothing gained)."""
    put(s, 0, position="tower", quests=["cemetery_1"])
    play(s, 0, {"type": "complete_quest", "card": "cemetery_1"})
    play(s, 0, {"type": "quest_choice", "card": "cemetery_2", "option": 0})
    p = s.players[0]
    assert p.badges == [] and p.artifacts == [] and s.pending == [] and p.quests == []


def test_badge_reward_needs_a_tile_left(s):
    """Badge Tiles: "take the badge corresponding to the one indicated" (R6: when none of
    that kind is left, none is given; the rest of the reward stands)."""
    put(s, 0, quests=["q_badge"], badges=["mount"])
    put(s, 0, businesses=s.players[0].businesses + [Business("hub", "bz_stall")])
    s.badge_supply["scholar"] = 0
    events = play(s, 0, {"type": "complete_quest", "card": "q_badge"})
    assert s.players[0].badges == ["mount"] and s.players[0].prestige == 1
    assert {"type": "badge_gone", "seat": 0, "badge": "scholar"} in events


def test_sequel_goes_to_hand_and_counts_toward_the_limit(s):
    """Quest Cards: "go and find the matching continuation in the Quest Sequel deck";
    Complete a Quest: "A player may not have more than 3 Quest cards in hand" (R13: the
    sequel comes to the hand at once and counts, so a full hand must discard)."""
    put(s, 0, position="hub", quests=["q_ledger_1", "q_easy1", "q_easy2"], gold=5)
    play(s, 0, {"type": "complete_quest", "card": "q_ledger_1"})
    assert s.players[0].quests == ["q_easy1", "q_easy2", "q_ledger_2"]
    assert s.pending == []
    put(s, 0, position="forest")
    deck_top(s, "q_easy3")
    play(s, 0, {"type": "interact"})  # a 4th quest: the sequel counted as one of three
    assert len(s.players[0].quests) == 4
    assert s.pending == [{"kind": "quest_discard", "seat": 0}]
    play(s, 0, {"type": "discard_quest", "card": "q_ledger_2"})
    assert s.discards["sequels"] == ["q_ledger_2"]


def test_sequel_completed_where_its_own_conditions_say(s):
    """Quest Cards, two-part quests: the 2/2 card carries its own conditions (R13)."""
    put(s, 0, position="forest", quests=["q_ledger_2"], gold=2)
    refuse(s, 0, {"type": "complete_quest", "card": "q_ledger_2"}, "conditions_not_met")
    put(s, 0, position="hub")
    play(s, 0, {"type": "complete_quest", "card": "q_ledger_2"})
    p = s.players[0]
    assert p.prestige == 2 and p.revenue == 1 and p.gold == 0


def test_immediate_choice_lapses_when_no_option_can_be_paid(s):
    """Immediate choice: "This choice must be made immediately after drawing" (R12b: when
    no option can be paid, the choice lapses and the card is discarded)."""
    deck_top(s, "q_toll")
    put(s, 0, gold=0)
    events = play(s, 0, {"type": "interact"})
    assert s.pending == [] and "q_toll" not in s.players[0].quests
    assert s.discards["quests"] == ["q_toll"]
    assert any(e["type"] == "quest_choice_lapsed" for e in events)


def test_immediate_choice_offers_only_what_can_be_paid(s):
    """Immediate choice (R12): only the options the merchant can pay are offered."""
    deck_top(s, "q_toll")
    put(s, 0, gold=3)
    play(s, 0, {"type": "interact"})
    assert legal(s, 0) == [{"type": "quest_choice", "card": "q_toll", "option": 0}]
    refuse(s, 0, {"type": "quest_choice", "card": "q_toll", "option": 1}, "cannot_afford")
    play(s, 0, {"type": "quest_choice", "card": "q_toll", "option": 0})
    assert s.players[0].gold == 0 and s.players[0].prestige == 1


def test_a_sequel_card_exists_once(s):
    """Quest Cards: "go and find the matching continuation in the Quest Sequel deck" (one
    card per sequel; R13c: a first part that came back through the reshuffled discards and
    is completed again gives no second copy while the sequel is in a hand, waiting as a
    choice, or discarded)."""
    put(s, 0, position="hub", quests=["q_ledger_1"], gold=5)
    put(s, 1, quests=["q_ledger_2"])  # the sequel is in another merchant's hand
    events = play(s, 0, {"type": "complete_quest", "card": "q_ledger_1"})
    assert s.players[0].quests == [] and s.players[1].quests == ["q_ledger_2"]
    assert first(events, "sequel_out")["card"] == "q_ledger_2"
    assert not [e for e in events if e["type"] == "sequel"]
    # Discarded, it is still out: completing the first part again gives nothing either.
    s.players[1].quests = []
    s.discards["sequels"].append("q_ledger_2")
    put(s, 0, quests=["q_ledger_1"], gold=5)
    events = play(s, 0, {"type": "complete_quest", "card": "q_ledger_1"})
    assert "q_ledger_2" not in s.players[0].quests
    assert first(events, "sequel_out")
