"""Artifact Tiles (rulebook, Cards and Objects); Artifacts used like cards."""

from __future__ import annotations

from tests.karanor.scenario import destinations, give_turn, kinds, legal, play, put, refuse


def test_draw_two_keep_one(s2):
    """Artifact Tiles: "When you must receive an artifact, draw two Artifact tiles and
    choose one of the two. Then discard the one you did not choose"."""
    s2.decks["artifacts"] = ["art_purse", "art_charm", "art_lamp"]
    put(s2, 0, quests=["campfire"], gold=10)
    events = play(s2, 0, {"type": "complete_quest", "card": "campfire", "option": 1})
    assert s2.pending == [{"kind": "artifact", "seat": 0, "options": ["art_lamp", "art_charm"]}]
    assert "artifact_options" in kinds(events)
    assert {c["artifact"] for c in legal(s2, 0)} == {"art_lamp", "art_charm"}
    refuse(s2, 0, {"type": "choose_artifact", "artifact": "art_purse"}, "not_offered")
    refuse(s2, 1, {"type": "choose_artifact", "artifact": "art_lamp"}, "not_your_choice")
    play(s2, 0, {"type": "choose_artifact", "artifact": "art_charm"})
    assert s2.players[0].artifacts == ["art_charm"]
    assert s2.discards["artifacts"] == ["art_lamp"] and s2.decks["artifacts"] == ["art_purse"]
    assert s2.pending == []


def test_artifact_from_a_business_bonus_comes_before_the_pick(s2):
    """Artifact Tiles: artifacts "may be obtained ... by opening certain businesses" (the
    Forge's bonus); the new business card is chosen afterwards."""
    s2.decks["artifacts"] = ["art_purse", "art_charm", "art_lamp"]
    put(s2, 0, position="hub", gold=6, resources={"ore": 2}, business_hand=["bz_forge", "bz_hut"])
    play(s2, 0, {"type": "build", "card": "bz_forge", "bonus": True})
    assert [x["kind"] for x in s2.pending] == ["artifact", "business_pick"]
    play(s2, 0, {"type": "choose_artifact", "artifact": "art_lamp"})
    assert s2.pending == [{"kind": "business_pick", "seat": 0}]


def test_passive_effects_stack_with_badges(s2):
    """Badge Tiles: "Their bonuses then stack"; Boots (+1 territory per Move) add to a
    Mount."""
    put(s2, 0, position="a_city", artifacts=["art_boots"], badges=["mount"])
    assert "c_city" in destinations(s2, 0)  # 4 territories away
    play(s2, 0, {"type": "move", "to": "c_city"})
    assert s2.actions_left == 3


def test_purse_adds_revenue(s2):
    """The Revenue Phase: revenue "shown by the purse on your revenue track" plus the
    artifacts' bonuses (Purse: +1)."""
    put(s2, 0, artifacts=["art_purse"], revenue=2)
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].gold == 3


def test_power_once_per_turn_at_no_action(s2):
    """The Action Phase: "Unless a card states that an action is required, you may activate these
    cards without using one of your 4 actions" (Lamp: 1 gold, once per turn) (R26: at any time in
    the action phase, once per turn as printed)."""
    put(s2, 0, artifacts=["art_lamp"])
    play(s2, 0, {"type": "use_artifact", "artifact": "art_lamp"})
    assert s2.players[0].gold == 1 and s2.actions_left == 4
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_lamp"}, "power_used")
    play(s2, 0, {"type": "end_turn"})
    play(s2, 0, {"type": "use_artifact", "artifact": "art_lamp"})  # off-turn, a new turn
    assert s2.players[0].gold == 2
    refuse(s2, 1, {"type": "use_artifact", "artifact": "art_lamp"}, "not_yours")
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_boots"}, "not_yours")


def test_power_with_an_action_once_per_game_on_own_turn(s2):
    """The Action Phase: cards are used without an action "Unless a card states that an
    action is required" (Map: 1 action, once per game, from a city: to the Hub and one
    more action) (R26: a power that costs an action only on your turn)."""
    put(s2, 0, artifacts=["art_map"], gold=3, position="forest")
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_map"}, "conditions_not_met")
    put(s2, 0, position=s2.players[0].home)
    events = play(s2, 0, {"type": "use_artifact", "artifact": "art_map"})
    p = s2.players[0]
    assert p.position == "hub" and p.gold == 2 and s2.actions_left == 4  # 4 - 1 + 1
    assert "teleport" in kinds(events)
    play(s2, 0, {"type": "end_turn"})
    put(s2, 0, position=p.home)
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_map"}, "power_used")
    put(s2, 0, powers_spent=[])
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_map"}, "not_your_turn")
    give_turn(s2, 0, actions=0)
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_map"}, "no_actions_left")


def test_artifact_without_power_cannot_be_used(s2):
    """Artifact Tiles: a tile with only a lasting bonus has nothing to activate."""
    put(s2, 0, artifacts=["art_boots"])
    refuse(s2, 0, {"type": "use_artifact", "artifact": "art_boots"}, "no_power")


def test_artifact_deck_reshuffles_its_discards(s2):
    """Artifact Tiles: "You will do this every time you must receive an artifact" (R6: the
    discarded tiles are shuffled back when the pile runs out)."""
    s2.decks["artifacts"] = []
    s2.discards["artifacts"] = ["art_lamp", "art_charm"]
    put(s2, 0, quests=["campfire"], gold=10)
    play(s2, 0, {"type": "complete_quest", "card": "campfire", "option": 1})
    assert sorted(s2.pending[0]["options"]) == ["art_charm", "art_lamp"]
    assert s2.discards["artifacts"] == []


def test_a_single_tile_left_is_taken(s2):
    """Artifact Tiles: "draw two Artifact tiles and choose one": with one tile left it is
    taken at once (R6)."""
    s2.decks["artifacts"], s2.discards["artifacts"] = ["art_lamp"], []
    put(s2, 0, quests=["campfire"], gold=10)
    play(s2, 0, {"type": "complete_quest", "card": "campfire", "option": 1})
    assert s2.pending == [] and s2.players[0].artifacts == ["art_lamp"]


def test_once_per_turn_power_not_reused_by_passing_the_tile(s2):
    """Lamp's power is used "once per turn" (artifacts.yaml `once_per: turn`, R26); the
    engine keeps a once-per-game power spent when the tile changes hands (trades.py, "a
    once-per-game power stays spent"), so a once-per-turn power used this turn must stay
    used this turn after a trade too."""
    put(s2, 0, artifacts=["art_lamp"])
    play(s2, 0, {"type": "use_artifact", "artifact": "art_lamp"})
    play(s2, 0, {"type": "offer", "to": [1], "give": {"artifacts": ["art_lamp"]}, "want": {}})
    play(s2, 1, {"type": "accept", "offer": 1})
    refuse(s2, 1, {"type": "use_artifact", "artifact": "art_lamp"}, "power_used")


def test_once_per_game_power_stays_spent_after_a_trade(s2):
    """Trading Between Players: artifacts may be traded; a once-per-game power already used
    stays used with its new owner (Map: once per game)."""
    put(s2, 0, artifacts=["art_map"], gold=1, position=s2.players[0].home)
    play(s2, 0, {"type": "use_artifact", "artifact": "art_map"})
    play(s2, 0, {"type": "offer", "to": [1], "give": {"artifacts": ["art_map"]}, "want": {}})
    play(s2, 1, {"type": "accept", "offer": 1})
    play(s2, 0, {"type": "end_turn"})
    put(s2, 1, gold=1, position=s2.players[1].home)
    refuse(s2, 1, {"type": "use_artifact", "artifact": "art_map"}, "power_used")
