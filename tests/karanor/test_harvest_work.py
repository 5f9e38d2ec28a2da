"""Harvest a Resource and Work (rulebook, The Action Phase)."""

from __future__ import annotations

from tests.karanor.scenario import legal_types, play, put, refuse


def test_harvest_gives_two_tokens_of_the_territory(s2):
    """Harvest a Resource: "When you are on a territory where a resource is present, use
    the Harvest a Resource action and receive 2 tokens of the corresponding resource"."""
    put(s2, 0, position="forest")
    before = s2.supply["wood"]
    events = play(s2, 0, {"type": "harvest"})
    assert s2.players[0].resources["wood"] == 2
    assert s2.supply["wood"] == before - 2
    assert s2.actions_left == 3
    assert events[0] == {
        "type": "harvest",
        "seat": 0,
        "resource": "wood",
        "count": 2,
        "territory": "forest",
    }


def test_harvester_badge_adds_one(s2):
    """Badge Tiles: badges "represent the various bonuses"; the Harvester badge adds a
    token per Harvest (passive harvest +1), and two of them stack."""
    put(s2, 0, position="cave", badges=["harvester"])
    play(s2, 0, {"type": "harvest"})
    assert s2.players[0].resources["diamond"] == 3
    put(s2, 0, position="mine", badges=["harvester", "harvester"])
    play(s2, 0, {"type": "harvest"})
    assert s2.players[0].resources["ore"] == 4


def test_harvest_limited_by_the_supply(s2):
    """Harvest a Resource: the tokens come from the supply pile; with only 1 left the
    merchant gets 1 (R5)."""
    put(s2, 0, position="orchard")
    s2.supply["fruit"] = 1
    events = play(s2, 0, {"type": "harvest"})
    assert s2.players[0].resources["fruit"] == 1 and s2.supply["fruit"] == 0
    assert events[0]["count"] == 1


def test_harvest_refused_when_supply_empty(s2):
    """Harvest a Resource: "If the supply pile of a resource is exhausted, that resource can no
    longer be harvested until the supply is refilled" (R5: with none left the Harvest is
    refused)."""
    put(s2, 0, position="orchard")
    s2.supply["fruit"] = 0
    refuse(s2, 0, {"type": "harvest"}, "supply_empty")
    s2.supply["fruit"] = 2
    play(s2, 0, {"type": "harvest"})


def test_harvest_refused_where_there_is_no_resource(s2):
    """Harvest a Resource: only "on a territory where a resource is present"."""
    for where in ("hub", "tower", s2.players[0].home):
        put(s2, 0, position=where)
        refuse(s2, 0, {"type": "harvest"}, "no_resource_here")
        assert "harvest" not in legal_types(s2, 0)


def test_work_gives_one_gold(s2):
    """Work: "Wherever you are, spend an action to receive 1 gold coin"."""
    put(s2, 0, position="forest", gold=2)
    events = play(s2, 0, {"type": "work"})
    assert s2.players[0].gold == 3 and s2.actions_left == 3
    assert events == [{"type": "work", "seat": 0, "gold": 1}]


def test_the_bank_never_runs_out_of_gold(s2):
    """Components: "40 gold coin tokens" (R6: the bank is endless, coins are change: Work
    and the revenue phase pay even when the merchants already hold far more than 40)."""
    put(s2, 0, gold=60, revenue=5)
    put(s2, 1, gold=60)
    play(s2, 0, {"type": "work"})
    play(s2, 0, {"type": "end_turn"})
    assert s2.players[0].gold == 60 + 1 + 5


def test_guild_seal_adds_a_gold_to_work(s2):
    """Badge Tiles: bonuses stack; the Guild Seal badge adds 1 gold per Work (passive
    work +1)."""
    put(s2, 0, badges=["guild"])
    play(s2, 0, {"type": "work"})
    assert s2.players[0].gold == 2


def test_curse_forbids_work(s2):
    """The Cemetery 2/2: "the Salanche Curse badge (Movement -1, can no longer work)"."""
    put(s2, 0, badges=["curse"])
    refuse(s2, 0, {"type": "work"}, "cannot_work")
    assert "work" not in legal_types(s2, 0)
