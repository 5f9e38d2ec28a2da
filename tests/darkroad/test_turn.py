"""A turn: Plan, Move, Activate, Rest."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, at_activate, finish_turn, kinds, started, store_all


def test_bump_keeps_the_values() -> None:
    """Plan 2: "The die that is bumped from the locked slot goes into your action pool and the
    die from your main reserve takes its place ... Make sure not to change the values"."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, reserve=[0, 4, 4, 5])
    act(s, 0, A.Plan(3, 4, "coins"))
    assert p.locked == [1, 2, 4] and p.pool_night == 3 and p.reserve == [0, 4, 5]


def test_slot_one_crafts_by_the_new_die() -> None:
    """Slot #1: "refer to the crafting chart to determine which basic good matches the value of
    the newly locked night die ... use the value of the new die" (ruling R2)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, reserve=[5, 5, 5, 5])
    act(s, 0, A.Plan(1, 5, None))
    assert p.incoming == [{"good": C.board.crafting[5], "up": False}]
    assert s.pending[0]["kind"] == "store"


def test_slot_two_lantern_or_illuminated() -> None:
    """Slot #2: "Gain 1 lantern ... -OR- move an illuminated die from your special reserve to
    your action pool. This is the only way to move an illuminated die into your action pool"."""
    s = started(2)
    p = s.players[0]
    lanterns = p.lanterns
    act(s, 0, A.Plan(2, p.reserve[0], "lantern"))
    assert p.lanterns == lanterns + 1 and p.pool_illuminated is None
    s2 = started(2)
    q = s2.players[0]
    v = q.special[0]
    act(s2, 0, A.Plan(2, q.reserve[0], "illuminated"))
    assert q.pool_illuminated == v and q.special == []


def test_slot_three_coins_or_rotate() -> None:
    """Slot #3: "Gain 2 coins from the supply -OR- rotate the market wheel 1 space" (ruling R10:
    rotating moves every good one step down, the second $1 section up to $5)."""
    s = started(2)
    p = s.players[0]
    coins = p.coins
    act(s, 0, A.Plan(3, p.reserve[0], "coins"))
    assert p.coins == coins + 2
    s2 = started(2)
    before = {g: E.value(C, s2, g) for g in C.goods}
    act(s2, 0, A.Plan(3, s2.players[0].reserve[0], "rotate"))
    after = {g: E.value(C, s2, g) for g in C.goods}
    # ruling R10: rotating clockwise moves each good one step down the price ladder
    five = next(g for g in C.goods if before[g] == 5)
    assert after[five] == 4 and sorted(after.values()) == sorted(before.values())


def test_the_reset_only_when_all_three_match() -> None:
    """Plan: "if your 3 locked night dice all have the same value, you may choose to reset
    their values to 1, 2, 3" (ruling R4: optional, at the start of Plan)."""
    s = started(2)
    p = s.players[0]
    assert "reset_dice" not in kinds(s, 0)
    scenario.set_player(s, 0, locked=[4, 4, 4])
    assert "reset_dice" in kinds(s, 0)
    act(s, 0, A.ResetDice())
    assert p.locked == [1, 2, 3]
    with pytest.raises(RuleError):
        act(s, 0, A.ResetDice())


def test_last_rounds_bump_a_locked_die_and_choose_the_good() -> None:
    """ "For the final 3 rounds ... simply choose one of your locked night dice and move it
    into your action pool ... gain 1 basic good of your choice"."""
    s = started(1)
    scenario.set_board(s, round=11)
    p = s.players[0]
    scenario.set_player(s, 0, reserve=[])
    cmds = [a for a in E.legal_actions(s, 0) if isinstance(a, A.Plan)]
    assert all(a.die is None for a in cmds)
    assert {a.option for a in cmds if a.slot == 1} == set(C.goods)
    act(s, 0, A.Plan(1, None, "armor"))
    assert p.locked == [None, 2, 3] and p.pool_night == 1
    assert p.incoming == [{"good": "armor", "up": False}]


def test_move_one_die_never_the_sum_and_zero_stays() -> None:
    """Step 2: "If you have 2 dice in your action pool, do not add their values together"; "If the
    value of the die is zero, your wagon pawn does not move at all" (ruling R1: night dice have a 0
    face)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, reserve=[0, 0, 0, 0])
    scenario.set_player(s, 0, special=[2])
    act(s, 0, A.Plan(2, 0, "illuminated"))  # pool: night 2, illuminated 2
    start = p.position
    act(s, 0, A.Move("night", 0))
    assert p.position == (start + 2) % 5
    s2 = started(2)
    q = s2.players[0]
    scenario.set_player(s2, 0, locked=[0, 2, 3])
    scenario.set_player(s2, 0, reserve=[1, 1, 1, 1])
    act(s2, 0, A.Plan(1, 1, None))
    store_all(s2)
    act(s2, 0, A.Move("night", 0))
    assert q.position == 4


def test_one_horseshoe_either_way() -> None:
    """Horseshoes: "spend a horseshoe to move your wagon pawn 1 space in either direction ...
    You may only spend 1 horseshoe per turn"."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, horseshoes=2)
    act(s, 0, A.Plan(3, p.reserve[0], "coins"))
    act(s, 0, A.Move("night", -1))
    assert p.position == (4 + 3 - 1) % 5 and p.horseshoes == 1 and p.horseshoe_used
    s.step = E.MOVE
    with pytest.raises(RuleError) as e:
        act(s, 0, A.Move("night", 1))
    assert e.value.code == "no_horseshoe"


def test_one_night_die_activates_one_district() -> None:
    """Step 3: "If you only have a night die in your action pool, you will activate one of the
    adjacent districts"."""
    s = started(2)
    at_activate(s, 0, 0)  # between the Bazaar and the Commissions
    assert s.acts == ["bazaar", "commissions"] and s.acts_left == 1
    act(s, 0, A.TakeCommission("windglass"))
    assert s.acts_left == 0
    assert kinds(s, 0) == {"end_turn"}


def test_both_dice_activate_both_districts_and_the_building() -> None:
    """Step 3: "both a night die and an illuminated die ... activate both of the adjacent
    districts and the connected building ... in any order"."""
    s = started(2)
    at_activate(s, 0, 1, illuminated=True)
    assert s.acts == ["commissions", "dark_market", s.buildings[1]] and s.acts_left == 3
    b = s.buildings[1]
    cmd = next(a for a in E.legal_actions(s, 0) if isinstance(a, A.Building))
    act(s, 0, cmd)
    store_all(s)
    assert b not in s.acts
    act(s, 0, A.TakeCommission("farglen"))
    assert s.acts == ["dark_market"]


def test_no_building_between_the_inn_and_the_bazaar() -> None:
    """Step 3: "There is no building space between the Ringway Inn and the Great Bazaar" (ruling R9:
    wagon space 4 faces no building)."""
    s = started(2)
    at_activate(s, 0, 4, illuminated=True)
    assert s.acts == ["inn", "bazaar"] and s.acts_left == 2


def test_rest_returns_the_dice() -> None:
    """Step 4: "placing it in the spent pile ... If you also used an illuminated die ...
    return it to the supply instead"."""
    s = started(2)
    at_activate(s, 0, 1, illuminated=True)
    supply = s.supply["illuminated"]
    finish_turn(s, 0)
    p = s.players[0]
    assert p.spent == [1] and p.pool_night is None and p.pool_illuminated is None
    assert s.supply["illuminated"] == supply + 1
    assert s.turn_seat == 1 and s.step == "plan"


def test_the_night_dice_last_thirteen_rounds() -> None:
    """Step 4: "At the end of rounds 4, 7, 9, and 10 ... take 1 night die from your spent pile
    and remove it from the game. Then reroll the remaining" (ruling R3: the engine asserts the
    reserve is empty exactly then; 4+3+2+1 bumps and 3 locked dice make 13 rounds)."""
    s = started(1)
    p = s.players[0]
    sizes = []
    for r in range(13):
        sizes.append(len(p.reserve))
        if r < 10:
            act(s, 0, A.Plan(3, p.reserve[0], "coins"))
        else:  # the last three rounds empty the locked slots one by one
            slot, option = ((1, "potion"), (2, "lantern"), (3, "coins"))[r - 10]
            act(s, 0, A.Plan(slot, None, option))
            store_all(s)
        act(s, 0, A.Move("night", 0))
        finish_turn(s, 0)
    assert sizes == [4, 3, 2, 1, 3, 2, 1, 2, 1, 1, 0, 0, 0]
    assert p.removed == 4 and s.phase == "final_travel"


def test_not_your_turn_and_state_untouched() -> None:
    """boardgame.io habit: a refused command leaves the state untouched."""
    s = started(2)
    before = s.to_dict()
    with pytest.raises(RuleError) as e:
        act(s, 1, A.Plan(3, s.players[1].reserve[0], "coins"))
    assert e.value.code == "not_your_turn"
    with pytest.raises(RuleError) as e:
        act(s, 0, {"type": "plan", "slot": 4, "die": 1})
    assert e.value.code in ("bad_slot", "no_such_die")
    with pytest.raises(RuleError) as e:
        act(s, 0, {"type": "fly"})
    assert e.value.code == "unknown_command"
    assert s.to_dict() == before
