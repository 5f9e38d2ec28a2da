"""The three rules issue 25 found the engine getting wrong, each against its passage, and
the rules edition (ruling R40) that keeps games stored before the fixes replaying."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import act, at_activate, started

# --- 1. the Lovebug lantern counts toward the shortcut -------------------------------------


def test_lovebug_lantern_counts_toward_the_shortcut() -> None:
    """Lovebug: "When you visit Yurg's Excursions, gain 1 lantern from the supply", and "In
    order to choose a shortcut, you must spend 3 lanterns": 2 held + the visit's 1 pay it
    (ruling R41)."""
    s = started(2)
    scenario.set_player(s, 0, steeds=["lovebug"], lanterns=2)
    at_activate(s, 0, 3)
    shortcut = A.Caravan(0, "shortcut", "farglen")
    assert shortcut in E.legal_actions(s, 0)
    act(s, 0, shortcut)
    assert s.players[0].lanterns == 0 and s.travel is not None
    assert s.travel["route"] == "shortcut"


def test_lovebug_lantern_needs_a_free_slot() -> None:
    """The visit's lantern is only gained if a lantern slot is free ("store it on your
    wagon"): with no lantern to give it cannot help (ruling R41)."""
    s = started(2)
    scenario.set_player(s, 0, steeds=["lovebug"], lanterns=1)
    scenario.set_board(s, supply={"lanterns": 0})
    at_activate(s, 0, 3)
    with pytest.raises(RuleError) as e:
        act(s, 0, A.Caravan(0, "shortcut", "farglen"))
    assert e.value.code == "no_lantern"


def test_without_lovebug_two_lanterns_are_not_enough() -> None:
    s = started(2)
    scenario.set_player(s, 0, steeds=["velvet"], lanterns=2)
    at_activate(s, 0, 3)
    assert A.Caravan(0, "shortcut", "farglen") not in E.legal_actions(s, 0)


def test_rules_one_keeps_the_old_lovebug_check() -> None:
    """R41, R40: a rules-1 game (stored before the fix) checks the 3 lanterns before the
    visit."""
    s = started(2, rules=1)
    scenario.set_player(s, 0, steeds=["lovebug"], lanterns=2)
    at_activate(s, 0, 3)
    assert A.Caravan(0, "shortcut", "farglen") not in E.legal_actions(s, 0)


# --- 2. slot #2 chooses which illuminated die -----------------------------------------------


def test_slot_two_moves_the_illuminated_die_chosen() -> None:
    """Slot #2: "move an illuminated die from your special reserve to your action pool": any
    one of them, named by its value (`illuminated`, ruling R42)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, special=[1, 3], reserve=[2, 2, 2, 2])
    listed = {(a.option, a.illuminated) for a in E.legal_actions(s, 0) if a.slot == 2}
    assert listed == {("lantern", None), ("illuminated", 1), ("illuminated", 3)}
    act(s, 0, A.Plan(2, 2, "illuminated", 3))
    assert p.pool_illuminated == 3 and p.special == [1]
    act(s, 0, A.Move("illuminated", 0))
    assert p.position == (4 + 3) % 5


def test_slot_two_refuses_a_die_not_held() -> None:
    """R42: `illuminated` names a die of the special reserve, only with slot #2's option."""
    s = started(2)
    scenario.set_player(s, 0, special=[1, 3], reserve=[2, 2, 2, 2])
    before = s.to_dict()
    for cmd, code in (
        (A.Plan(2, 2, "illuminated", 4), "no_such_die"),
        (A.Plan(2, 2, "lantern", 3), "bad_option"),
        (A.Plan(3, 2, "coins", 3), "bad_option"),
    ):
        with pytest.raises(RuleError) as e:
            act(s, 0, cmd)
        assert e.value.code == code
    assert s.to_dict() == before


def test_slot_two_old_command_takes_the_die_gained_first() -> None:
    """A stored `plan` without `illuminated` (old shape) moves the die gained first, as the
    engine did when it was written (ruling R42)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, special=[1, 3], reserve=[2, 2, 2, 2])
    act(s, 0, {"type": "plan", "slot": 2, "die": 2, "option": "illuminated"})
    assert p.pool_illuminated == 1 and p.special == [3]


# --- 3. at most 2 illuminated dice, the pooled one included ---------------------------------


def test_the_pooled_illuminated_die_counts_toward_the_two() -> None:
    """Illuminated Dice: "You may have up to a maximum of 2 illuminated dice at one time":
    one pooled and one in reserve make 2, a third gained (Raven, a good fortune, the ruins
    die, an event) is not taken (ruling R5, rules 2)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, special=[4, 2], reserve=[1, 1, 1, 1])
    act(s, 0, A.Plan(2, 1, "illuminated", 4))
    assert p.pool_illuminated == 4 and p.special == [2]
    supply = s.supply["illuminated"]
    ev = scenario.gain_illuminated(s, 0)
    assert p.special == [2] and s.supply["illuminated"] == supply
    assert {"type": "illuminated_lost", "seat": 0} in ev


def test_after_rest_the_pooled_die_no_longer_counts() -> None:
    """Step 4: the used illuminated die returns "to the supply": then a second may be gained
    (ruling R5)."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, special=[4, 2], reserve=[1, 1, 1, 1])
    act(s, 0, A.Plan(2, 1, "illuminated", 4))
    act(s, 0, A.Move("night", 0))
    act(s, 0, E.legal_actions(s, 0)[0])
    scenario.settle(s)
    while s.pending:
        act(s, 0, E.legal_actions(s, 0)[-1])
    act(s, 0, A.EndTurn())
    assert p.pool_illuminated is None
    scenario.gain_illuminated(s, 0)
    assert len(p.special) == 2


def test_rules_one_kept_three() -> None:
    """R5, R40: rules 1 counted the special reserve only (a stored game replays as it was)."""
    s = started(2, rules=1)
    p = s.players[0]
    scenario.set_player(s, 0, special=[4, 2], reserve=[1, 1, 1, 1])
    act(s, 0, A.Plan(2, 1, "illuminated"))
    scenario.gain_illuminated(s, 0)
    assert len(p.special) == 2 and p.pool_illuminated == 4


# --- R40: the rules edition -------------------------------------------------------------------


def test_r40_new_games_play_rules_two_stored_options_rules_one() -> None:
    """R40: options as stored before the edition existed (every old key, no `rules`) set up
    a rules-1 game; any other options, the defaults included, rules 2."""
    stored = {"max_players": 2, "buildings": "first_game", "deed_choice": False, "drafting": False}
    assert E.new_game(stored, 1, ["a", "b"]).options["rules"] == 1
    assert E.new_game({}, 1, ["a", "b"]).options["rules"] == 2
    assert E.new_game(E.normalise_options(stored), 1, ["a", "b"]).options["rules"] == 2
    with pytest.raises(RuleError) as e:
        E.normalise_options({"rules": 3})
    assert e.value.code == "bad_options"
