"""The Turn, The Action Phase and The Revenue Phase."""

from __future__ import annotations

import pytest

from tests.karanor.scenario import give_turn, kinds, legal_types, play, put, refuse, scenario


def test_four_actions_and_repeats_allowed(s2):
    """The Action Phase: "you may perform 4 actions from the 7 offered below. You may repeat the
    same action several times during your turn" (R1: after the 4th action the turn does not end by
    itself; `end_turn` stays legal)."""
    assert s2.turn_seat == 0 and s2.actions_left == 4
    for i in range(4):
        play(s2, 0, {"type": "work"})
        assert s2.actions_left == 3 - i
    assert s2.players[0].gold == 4
    refuse(s2, 0, {"type": "work"}, "no_actions_left")
    assert "work" not in legal_types(s2, 0)
    assert "end_turn" in legal_types(s2, 0)


def test_turn_may_end_with_actions_unused(s2):
    """The Action Phase: "you may perform 4 actions" (R1: a turn may end with actions
    unused)."""
    play(s2, 0, {"type": "work"})
    events = play(s2, 0, {"type": "end_turn"})
    assert "revenue_phase" in kinds(events)
    assert s2.turn_seat == 1 and s2.actions_left == 4


def test_only_the_turn_seat_acts(s2):
    """The Turn: "Each player's turn is divided into two main phases"; The Action Phase:
    "During your turn, you may perform 4 actions": not during another's."""
    refuse(s2, 1, {"type": "work"}, "not_your_turn")
    refuse(s2, 1, {"type": "end_turn"}, "not_your_turn")
    assert "work" not in legal_types(s2, 1)


def test_revenue_phase_pays_revenue_and_partners(s2):
    """The Revenue Phase: "Add your revenue, shown by the purse on your revenue track, to
    the earnings from your partners": a resource, or 1 gold once promoted (Recruit a
    Partner)."""
    put(s2, 0, revenue=5, gold=1, partners={"meat": False, "wood": True})
    supply_meat = s2.supply["meat"]
    events = play(s2, 0, {"type": "end_turn"})
    p = s2.players[0]
    assert p.gold == 1 + 5 + 1
    assert p.resources["meat"] == 1 and s2.supply["meat"] == supply_meat - 1
    assert p.resources["wood"] == 0
    assert events[0] == {"type": "revenue_phase", "seat": 0, "gold": 6, "resources": {"meat": 1}}


def test_partner_resource_lost_when_supply_empty(s2):
    """R5: a partner's resource is taken from the supply; none is left, none is given."""
    put(s2, 0, revenue=2, partners={"wine": False})
    s2.supply["wine"] = 0
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].resources["wine"] == 0 and s2.players[0].gold == 2


def test_revenue_only_for_the_player_ending_the_turn(s2):
    """The Revenue Phase: "Once your 4 actions are complete, you collect your
    well-earned revenue": only the merchant whose turn ends is paid."""
    put(s2, 0, revenue=3)
    put(s2, 1, revenue=4)
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].gold == 3 and s2.players[1].gold == 0


def test_next_seat_plays_and_round_counts_from_start_seat():
    """End of the Game: "until the start of the turn of the player who began the game, so
    that everyone has played the same number of turns": rounds count from the start seat."""
    s = scenario(3, start_seat=1)
    assert s.turn_seat == 1 and s.round == 1
    play(s, 1, {"type": "end_turn"})
    assert s.turn_seat == 2 and s.round == 1
    play(s, 2, {"type": "end_turn"})
    assert s.turn_seat == 0 and s.round == 1
    events = play(s, 0, {"type": "end_turn"})
    assert s.turn_seat == 1 and s.round == 2 and s.actions_left == 4
    assert events[-1] == {"type": "turn", "seat": 1, "round": 2, "actions": 4}
    assert len(s.prestige_history) == 2


def test_actions_per_turn_include_modifiers(s4):
    """Artifact Tiles: "These powerful bonuses" can change the turn: Horn gives one more
    action per turn (passive `actions`)."""
    put(s4, 1, artifacts=["art_horn"])
    give_turn(s4, 0)
    play(s4, 0, {"type": "end_turn"})
    assert s4.turn_seat == 1 and s4.actions_left == 5


def test_unknown_seat_and_malformed_commands(s2):
    """The Turn: only the merchants of the game play, with the game's actions."""
    refuse(s2, 2, {"type": "work"}, "not_a_player")
    refuse(s2, -1, {"type": "end_turn"}, "not_a_player")
    refuse(s2, 5, {"type": "offer", "to": [0], "give": {}, "want": {"gold": 1}}, "not_a_player")
    refuse(s2, 0, {"type": "fly"}, "unknown_command")
    refuse(s2, 0, {"type": "work", "hard": True}, "bad_command")
    refuse(s2, 0, {"type": "build", "card": 3}, "bad_command")


@pytest.mark.parametrize("payload", [["work"], "work", None, 3])
def test_non_object_command_refused_as_bad_command(s2, payload):
    """engine.apply: ":raises RuleError: the command is refused; the state is untouched"
    (actions.parse: "a command is a JSON object with a `type`")."""
    refuse(s2, 0, payload, "bad_command")
