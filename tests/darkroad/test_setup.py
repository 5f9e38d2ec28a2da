"""Setting up the Game and Player Setup (rulebook steps 1-21, drafting variant)."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, started


def test_the_market_wheel_and_its_dice() -> None:
    """Setup 4: "Rotate the market wheel so that the matching section is valued at $5. Place 1
    market die on each of the first 5 sections, valued at $5 / $4 / $3 / $2 / $1 (leaving the $1
    section closest to the $5 section empty)." (ruling R10: sections weapon, armor, potion, staff,
    book, instrument against 5, 4, 3, 2, 1, 1)."""
    for seed in range(12):
        s = E.new_game({}, seed, ["a"])
        values = sorted((E.value(C, s, g), s.market[g]) for g in C.goods)
        assert values == [(1, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]
        empty = next(g for g in C.goods if s.market[g] == 0)
        # the empty $1 section is the one right before the $5 section on the wheel
        five = next(g for g in C.goods if E.value(C, s, g) == 5)
        assert C.goods[(C.goods.index(five) - 1) % 6] == empty


def test_the_board_is_set_up() -> None:
    """Setup 5-12: commission stacks by town, ruins marker bottom-left, two event decks,
    5 coins and the upgrades on the good-fortune track, 3 companions with a travel die on the
    farthest, the dark market marker south, 4 heroes at the inn, 2 deeds in the courtyard."""
    s = E.new_game({}, 3, ["a", "b"])
    assert {t: len(v) for t, v in s.stacks.items()} == dict.fromkeys(C.towns, 5)
    assert C.board.ruins[s.ruins_pos].space == "bottom_left"
    assert C.board.dark_market[s.dm_pos].space == "south"
    assert len(s.decks["dark_road"]) == 13 and len(s.decks["shortcut"]) == 13
    assert s.fortune_coins == 5 and len(s.upgrades_track) == 6
    assert len(s.row) == 3 and s.row_die == [False, False, True]
    assert len(s.inn) == 4 and all(not C.hero[h].starting for h in s.inn if h)
    assert len(s.courtyard) == 2
    assert sorted(s.buildings) == sorted(C.first_game)


def test_buildings_random_or_chosen() -> None:
    """Setup 3: "Choose 4 buildings ... For later games, choose your own favorite combination
    of buildings or select at random." (room option `buildings`)."""
    chosen = ["mansion", "surveyor", "filigree", "guildhall"]
    s = E.new_game({"buildings": chosen}, 1, ["a"])
    assert sorted(s.buildings) == sorted(chosen)
    r = E.new_game({"buildings": "random"}, 1, ["a"])
    assert len(set(r.buildings)) == 4
    with pytest.raises(RuleError) as e:
        E.new_game({"buildings": ["mansion"]}, 1, ["a"])
    assert e.value.code == "bad_options"


def test_player_setup() -> None:
    """Player Setup 13-21: wagon between the Inn and the Bazaar, 5 coins, 3 locked dice at
    1/2/3, 4 in the reserve, 1 illuminated die, 1 deed, 1 horseshoe, a starting good by seat
    order with 0-3 coins, a starting hero with its bonus, a steed (ruling R31: seat 0 is the
    start player, so the starting goods and coins follow seat order)."""
    s = E.new_game({}, 11, ["a", "b", "c", "d"])
    for p in s.players:
        assert C.board.ringway[p.position] == "inn"
        assert C.board.ringway[(p.position + 1) % 5] == "bazaar"
        assert p.coins == 5 + p.seat
        assert p.locked == [1, 2, 3] and len(p.reserve) == 4 and len(p.special) == 1
        assert len(p.deeds) == 1 and len(p.steeds) == 1 and len(p.heroes) == 1
        assert C.hero[p.heroes[0]].starting
        bonus = C.hero[p.heroes[0]].bonus
        assert p.horseshoes == 1 + (bonus == "horseshoe")
        assert p.lanterns == (bonus == "lantern")
        assert len(p.incoming) == 1
        assert E.value(C, s, p.incoming[0]["good"]) == (5, 4, 3, 2)[p.seat]
    # the starting goods are stored by each player's own choice
    assert s.phase == "setup" and s.pending[0] == {"kind": "store", "seat": 0}


def test_the_game_starts_when_setup_choices_are_made() -> None:
    """Setup ends when every player has stored the starting good; round 1 begins with the
    start player, seat 0 (ruling R31), planning."""
    s = started(3)
    assert s.phase == "play" and s.turn_seat == 0 and s.round == 1 and s.step == "plan"
    assert all(len(p.pieces) == 1 for p in s.players)


def test_deed_choice_draw_two_keep_one() -> None:
    """Setup 17: "advanced players may wish to draw 2 deed cards and choose 1 to keep,
    returning the other to the bottom of the deed deck"."""
    s = E.new_game({"deed_choice": True}, 5, ["a", "b"])
    while s.pending[0]["kind"] == "store":
        E.apply(s, s.pending[0]["seat"], A.PlaceGood())
    pend = s.pending[0]
    assert pend["kind"] == "keep_deed" and len(pend["options"]) == 2
    keep, other = pend["options"]
    E.apply(s, 0, A.KeepDeed(keep))
    assert s.players[0].deeds == [keep] and s.decks["deeds"][-1] == other


def test_drafting_variant() -> None:
    """Drafting Variant: players+1 stacks of a steed under a starting hero, drafted in
    seat order; the remaining stack goes back to the box."""
    s = E.new_game({"drafting": True}, 5, ["a", "b", "c"])
    while s.pending[0]["kind"] == "store":
        E.apply(s, s.pending[0]["seat"], A.PlaceGood())
    assert len(s.setup_stacks) == 4
    steed, hero = s.setup_stacks[2]
    E.apply(s, 0, A.Draft(2))
    assert s.players[0].steeds == [steed] and s.players[0].heroes == [hero]
    with pytest.raises(RuleError):
        E.apply(s, 1, A.Draft(2))
    E.apply(s, 1, A.Draft(0))
    E.apply(s, 2, A.Draft(1))
    assert s.phase == "play"
    assert steed not in s.unused_steeds and len(s.unused_steeds) == 7 - 3


def test_one_to_four_players() -> None:
    """Ruling R29: 1 to 4 players; the Private Concern is not implemented (bots fill seats)."""
    for n in (1, 2, 3, 4):
        assert E.new_game({}, 1, ["x"] * n).n == n
    for n in (0, 5):
        with pytest.raises(RuleError):
            E.new_game({}, 1, ["x"] * n)
