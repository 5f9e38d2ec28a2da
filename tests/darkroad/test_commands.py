"""Typed commands (issue 25): each field typed, a field the command does not read refused
as `bad_command` with nothing changed, and every old shape a stored game holds read."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, started


def _at_building(building: str) -> tuple[E.State, E.Player]:
    s = started(1)
    scenario.set_building(s, 0, building)
    scenario.set_player(s, 0, coins=6, lanterns=2, quartz=1)
    scenario.at_activate(s, 0, 0, illuminated=2)
    return s, s.players[0]


@pytest.mark.parametrize(
    "data",
    [
        {"type": "building", "building": "workshop", "pay": None, "pick": "1", "pick2": "a\u0000b"},
        {"type": "building", "building": "workshop", "piece": "1"},
        {"type": "building", "building": "workshop", "piece": 1, "colour": "red"},
        {"type": "building", "building": "workshop", "piece": True},
        {"type": "building", "building": "work\u0000shop"},
        {"type": "plan", "slot": 2, "die": 1, "option": "illuminated", "illuminated": "3"},
        {"type": "take_travel_die", "value": 3, "twin": "yes"},
    ],
)
def test_a_bad_field_is_refused_as_bad_command(data: dict[str, object]) -> None:
    with pytest.raises(RuleError) as e:
        A.parse(data)
    assert e.value.code == "bad_command"


def test_a_field_the_building_does_not_read_is_refused() -> None:
    """Icebreaker Harbor reads only `good`: paying coins is refused, not free."""
    s, p = _at_building("icebreaker_harbor")
    good = next(g for g in C.goods if not s.market[g])
    before = s.to_dict()
    for cmd in (
        {"type": "building", "building": "icebreaker_harbor", "pay": "coins", "good": good},
        A.Building("icebreaker_harbor", good=good, piece=1),
        A.Building("quartz_mine", good=good),
    ):
        with pytest.raises(RuleError) as e:
            act(s, 0, cmd)
        assert e.value.code == "bad_command"
    assert s.to_dict() == before
    act(s, 0, A.Building("icebreaker_harbor", good=good))
    assert p.incoming[-1]["good"] == good or p.pieces


def test_every_listed_building_reads_only_its_fields() -> None:
    """Every way listed for each building passes `check` and sets only the fields it reads."""
    from app.darkroad.engine.buildings import BUILDINGS, unread

    for b, entry in BUILDINGS.items():
        s, _ = _at_building(b)
        for cmd in E.legal_actions(s, 0):
            if isinstance(cmd, A.Building):
                assert not unread(cmd, entry.reads), cmd


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"building": "surveyor", "pay": "coins", "pick": None, "pick2": None},
         A.Building("surveyor", pay="coins")),
        ({"building": "icebreaker_harbor", "pay": None, "pick": "armor", "pick2": None},
         A.Building("icebreaker_harbor", good="armor")),
        ({"building": "guildhall", "pay": "lantern", "pick": "armor", "pick2": "book"},
         A.Building("guildhall", pay="lantern", good="armor", good2="book")),
        ({"building": "candle_quartz", "pay": "12", "pick": "hero:2", "pick2": None},
         A.Building("candle_quartz", piece=12, hero=2)),
        ({"building": "candle_quartz", "pay": "coins", "pick": "commission:farglen"},
         A.Building("candle_quartz", pay="coins", town="farglen")),
        ({"building": "mansion", "pay": "coins,quartz", "pick": "quartz,lantern"},
         A.Building("mansion", gives=("coins", "quartz"), gets=("quartz", "lantern"))),
        ({"building": "mansion", "pay": None, "pick": None, "pick2": None},
         A.Building("mansion")),
        ({"building": "workshop", "pay": None, "pick": "7", "pick2": None},
         A.Building("workshop", piece=7)),
        ({"building": "filigree", "pay": "3", "pick": "potion", "pick2": None},
         A.Building("filigree", piece=3, good="potion")),
        ({"building": "oracle", "pay": None, "pick": None, "pick2": None},
         A.Building("oracle")),
    ],
)  # fmt: skip
def test_old_building_commands_are_upcast(old: dict[str, object], new: A.Building) -> None:
    """Stored games wrote every building's choice as strings (`pay`, `pick`, `pick2`)."""
    assert A.parse({"type": "building", **old}) == new


def test_the_wire_form_writes_every_field_null_included() -> None:
    """Dark Road's clients have always read every field of a listed command (a
    `place_good` with `"area": null` is "anywhere it fits"): what is not set is null."""
    cmd = A.Building("guildhall", pay="coins", good="armor", good2="book")
    assert A.to_json(cmd) == {
        "type": "building", "building": "guildhall", "pay": "coins", "piece": None,
        "good": "armor", "good2": "book", "hero": None, "town": None, "gives": None,
        "gets": None,
    }  # fmt: skip
    assert A.to_json(A.PlaceGood())["area"] is None
    assert A.parse(A.to_json(cmd)) == cmd


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"type": "use_companion", "companion": "c", "ability": "deliver_hero", "pick": "h",
          "gift": None}, A.UseCompanion("c", "deliver_hero", hero="h")),
        ({"type": "use_companion", "companion": "c", "ability": "gain_hero", "pick": "2",
          "gift": None}, A.UseCompanion("c", "gain_hero", slot=2)),
        ({"type": "use_companion", "companion": "grace", "ability": "deed", "pick": "top",
          "gift": None}, A.UseCompanion("grace", "deed", deed=-1)),
        ({"type": "use_companion", "companion": "cosimo", "ability": "upgrade_or_dark_market",
          "pick": "upgrade:slot1_upgrade", "gift": "h"},
         A.UseCompanion("cosimo", "upgrade_or_dark_market", upgrade="slot1_upgrade", gift="h")),
        ({"type": "use_companion", "companion": "cosimo", "ability": "upgrade_or_dark_market",
          "pick": "dark_market:None", "gift": "h"},
         A.UseCompanion("cosimo", "upgrade_or_dark_market", dark_market=True, gift="h")),
        ({"type": "use_companion", "companion": "cosimo", "ability": "upgrade_or_dark_market",
          "pick": "dark_market:deed:0", "gift": "h"},
         A.UseCompanion("cosimo", "upgrade_or_dark_market", dark_market=True, deed=0, gift="h")),
        ({"type": "use_companion", "companion": "c", "ability": "two_lanterns", "pick": None,
          "gift": None}, A.UseCompanion("c", "two_lanterns")),
        ({"type": "dark_market", "steps": 2, "pick": "commission:farglen"},
         A.DarkMarket(2, town="farglen")),
        ({"type": "dark_market", "steps": 1, "pick": None}, A.DarkMarket(1)),
        ({"type": "fortune", "kind": "deed", "pick": "1"}, A.Fortune("deed", deed=1)),
        ({"type": "fortune", "kind": "upgrade", "pick": "slot1_upgrade"},
         A.Fortune("upgrade", upgrade="slot1_upgrade")),
        ({"type": "fortune", "kind": "coins", "pick": None}, A.Fortune("coins")),
    ],
)  # fmt: skip
def test_old_picks_are_upcast(old: dict[str, object], new: A.Command) -> None:
    """Stored games wrote companions', the dark market's and good fortunes' choices as one
    prefixed string (`pick`)."""
    assert A.parse(old) == new


def test_a_companion_choice_it_does_not_read_is_refused() -> None:
    """Phoenix's two lanterns read no choice: a `good` with it is `bad_command`."""
    phoenix = next(x.id for x in C.companions if x.abilities[0] == "two_lanterns")
    s = started(2)
    scenario.set_companions(s, 0, [phoenix])
    scenario.set_player(s, 0, quartz=1)
    before = s.to_dict()
    with pytest.raises(RuleError) as e:
        act(s, 0, A.UseCompanion(phoenix, "two_lanterns", good="armor"))
    assert e.value.code == "bad_command" and s.to_dict() == before
