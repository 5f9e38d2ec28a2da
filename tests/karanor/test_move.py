"""Move (rulebook, The Action Phase) and rulings R2-R4.

The mini map: a ring a_city-forest-b_city-mine-c_city-field-d_city-vineyard-e_city-
pasture-f_city-orchard-a_city; hub joins forest, field, pasture and cave; cave-tower-
mine; sea routes hub~isle, a_city~isle, d_city~e_city.
"""

from __future__ import annotations

import pytest

from tests.karanor.scenario import destinations, give_turn, play, put, refuse


@pytest.fixture
def s(s2):
    """Seat 0 at a_city with 4 actions; seat 1 at d_city."""
    put(s2, 0, position="a_city")
    put(s2, 1, position="d_city")
    return s2


def test_move_up_to_two_territories(s):
    """Move: "allows you to move your character up to 2 territories. If you want to move
    across 3 territories, you will need to use 2 Move actions"."""
    assert destinations(s, 0) == {"forest", "orchard", "b_city", "hub", "f_city"}
    refuse(s, 0, {"type": "move", "to": "mine"}, "unreachable")
    events = play(s, 0, {"type": "move", "to": "b_city"})
    assert s.players[0].position == "b_city"
    assert s.actions_left == 3 and s.move_left == 0
    assert events == [
        {"type": "move", "seat": 0, "path": ["forest", "b_city"], "gold": 0, "action": True}
    ]
    play(s, 0, {"type": "move", "to": "mine"})
    assert s.actions_left == 2


def test_mount_adds_a_territory(s):
    """Move: "Mount badges, which increase your Move action by one additional territory";
    Badge Tiles: "Their bonuses then stack" (R4: each Mount +1)."""
    put(s, 0, badges=["mount"])
    assert {"mine", "cave", "field", "pasture"} <= destinations(s, 0)
    play(s, 0, {"type": "move", "to": "mine"})
    assert s.actions_left == 3
    put(s, 0, position="a_city", badges=["mount", "mount"])
    play(s, 0, {"type": "move", "to": "c_city"})
    assert s.players[0].position == "c_city" and s.actions_left == 2


def test_curse_takes_a_territory_with_floor_one(s):
    """The Cemetery 2/2: the curse badge gives "Movement -1"; R4: a Move always goes at
    least 1 territory."""
    put(s, 0, badges=["curse"])
    assert destinations(s, 0) == {"forest", "orchard"}
    refuse(s, 0, {"type": "move", "to": "b_city"}, "unreachable")
    put(s, 0, badges=["curse", "curse"])
    assert destinations(s, 0) == {"forest", "orchard"}
    put(s, 0, badges=["curse", "mount"])
    assert "b_city" in destinations(s, 0)


def test_sea_route_costs_two_gold_per_crossing(s):
    """Move: "Territories connected by these sea routes are considered adjacent, but each
    crossing costs you 2 gold" (R3: paid for every crossing of the path)."""
    put(s, 0, gold=2)
    assert "isle" in destinations(s, 0)
    events = play(s, 0, {"type": "move", "to": "isle"})
    assert s.players[0].gold == 0 and events[0]["gold"] == 2
    put(s, 0, position="a_city", gold=4)
    play(s, 0, {"type": "move", "to": "hub", "path": ["isle", "hub"]})
    assert s.players[0].position == "hub" and s.players[0].gold == 0


def test_sea_route_refused_without_the_gold(s):
    """Move: each crossing "costs you 2 gold"; a merchant with less cannot cross (R3)."""
    put(s, 0, gold=1)
    assert "isle" not in destinations(s, 0)
    refuse(s, 0, {"type": "move", "to": "isle"}, "unreachable")
    refuse(s, 0, {"type": "move", "to": "isle", "path": ["isle"]}, "not_enough_gold")
    put(s, 0, gold=3)
    refuse(s, 0, {"type": "move", "to": "hub", "path": ["isle", "hub"]}, "not_enough_gold")


def test_land_path_preferred_to_a_paid_crossing(s):
    """Move: sea crossings cost gold; when a land walk of the same Move reaches the place,
    the engine picks it (nothing is paid) (R3: the engine offers the cheapest path)."""
    put(s, 0, position="d_city", gold=5)
    put(s, 1, position="a_city")
    play(s, 0, {"type": "move", "to": "e_city"})
    assert s.players[0].gold == 5


def test_captain_reduces_the_crossing(s):
    """Badge Tiles / story example: the Captain badge makes a crossing cost 1 gold
    (passive sea_cost -1) (R4: each Captain badge 1 gold off a crossing)."""
    put(s, 0, gold=1, badges=["captain"])
    assert "isle" in destinations(s, 0)
    play(s, 0, {"type": "move", "to": "isle"})
    assert s.players[0].gold == 0


def test_move_may_be_split_in_one_action(s):
    """Move: "you may move 1 territory" and keep going until another action starts (R2: a
    Move may pause and continue; moving 1 then 1 more costs one action)."""
    e1 = play(s, 0, {"type": "move", "to": "forest"})
    assert s.actions_left == 3 and s.move_left == 1 and e1[0]["action"] is True
    assert "b_city" in destinations(s, 0)
    e2 = play(s, 0, {"type": "move", "to": "b_city"})
    assert s.actions_left == 3 and s.move_left == 0 and e2[0]["action"] is False
    play(s, 0, {"type": "move", "to": "mine"})
    assert s.actions_left == 2


def test_another_action_ends_the_move(s):
    """Move: "If you start another action (for example, harvesting a resource) ... your
    Move action ends. It therefore sometimes happens that you use a Move action to cross a
    single territory (R2)."""
    play(s, 0, {"type": "move", "to": "forest"})
    play(s, 0, {"type": "harvest"})
    assert s.move_left == 0 and s.actions_left == 2
    play(s, 0, {"type": "move", "to": "b_city"})
    assert s.actions_left == 1


def test_playing_a_black_market_card_ends_the_move(s):
    """Move: "or play a card (for example, playing a Black Market card), your Move action
    ends" (R2)."""
    put(s, 0, black_market=["bm_windfall"])
    play(s, 0, {"type": "move", "to": "forest"})
    play(s, 0, {"type": "play_black_market", "card": "bm_windfall"})
    assert s.move_left == 0 and s.actions_left == 3
    play(s, 0, {"type": "move", "to": "b_city"})
    assert s.actions_left == 2


def test_another_players_card_does_not_end_the_move(s):
    """Move: "If you start another action ... or play a card ..., your Move action ends":
    only the mover's own card ends it, not a card played on them (R2)."""
    put(s, 1, position="forest", black_market=["pickpocketing"])
    put(s, 0, gold=1)
    play(s, 0, {"type": "move", "to": "forest"})
    play(s, 1, {"type": "play_black_market", "card": "pickpocketing", "target": 0})
    assert s.move_left == 1 and s.players[0].gold == 0
    play(s, 0, {"type": "move", "to": "b_city"})
    assert s.actions_left == 3


def test_a_trade_does_not_end_the_move(s):
    """Trading Between Players: "These exchanges are not considered actions" (R2: a trade
    does not end a Move in progress)."""
    put(s, 0, gold=1)
    play(s, 0, {"type": "move", "to": "forest"})
    play(s, 0, {"type": "offer", "to": [1], "give": {"gold": 1}, "want": {}})
    assert s.move_left == 1
    play(s, 0, {"type": "move", "to": "b_city"})
    assert s.actions_left == 3


def test_the_last_move_may_be_continued_with_no_action_left(s):
    """R2: the steps left in a Move belong to the action already spent, so a Move begun
    with the last action can be continued."""
    give_turn(s, 0, actions=1)
    play(s, 0, {"type": "move", "to": "forest"})
    assert s.actions_left == 0
    assert destinations(s, 0) == {"a_city", "b_city", "hub"}
    play(s, 0, {"type": "move", "to": "b_city"})
    refuse(s, 0, {"type": "move", "to": "forest"}, "no_actions_left")


def test_unknown_and_unreachable_territories(s):
    """Move: "up to 2 territories"; a place off the map or out of reach is refused."""
    refuse(s, 0, {"type": "move", "to": "atlantis"}, "unknown_territory")
    refuse(s, 0, {"type": "move", "to": "a_city"}, "already_there")
    refuse(s, 0, {"type": "move", "to": "d_city"}, "unreachable")


def test_explicit_path_is_validated(s):
    """Move: territories crossed must be adjacent ("considered adjacent" only along land borders and
    sea routes) and a Move goes "up to 2 territories" (R3: a client may send its own `path`,
    checked)."""
    refuse(s, 0, {"type": "move", "to": "b_city", "path": ["b_city"]}, "bad_path")
    refuse(s, 0, {"type": "move", "to": "b_city", "path": ["forest"]}, "bad_path")
    refuse(s, 0, {"type": "move", "to": "mine", "path": ["atlantis", "mine"]}, "bad_path")
    refuse(s, 0, {"type": "move", "to": "mine", "path": ["forest", "b_city", "mine"]}, "too_far")
    refuse(s, 0, {"type": "move", "to": "b_city", "path": "forest"}, "bad_command")
    play(s, 0, {"type": "move", "to": "hub", "path": ["forest", "hub"]})
    assert s.players[0].position == "hub" and s.actions_left == 3
