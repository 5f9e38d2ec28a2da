"""Yurg's Excursions to the outlying towns: the caravan, its event, the towns, good fortune."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, at_activate, clear_goods, give, started, store_all


def _caravan(n: int = 4, route: str = "dark_road", town: str = "northbreak", comp: int = 2):  # type: ignore[no-untyped-def]
    s = started(n)
    at_activate(s, 0, 3)
    scenario.set_player(s, 0, lanterns=4)
    for p in s.players:
        p.steeds = ["velvet"]  # no steed changes the dice or the costs here
    act(s, 0, A.Caravan(comp, route, town))
    return s


def test_companion_and_declared_route_and_town() -> None:
    """Step 1: "Choose one available companion ... or the top card of the companion deck";
    "In order to choose a shortcut, you must spend 3 lanterns"; "Declare 1 of the 6
    outlying towns as your destination"."""
    s = _caravan(route="shortcut", comp=1)
    p = s.players[0]
    assert p.lanterns == 1 and len(p.companions) == 1
    t = s.travel
    assert t["route"] == "shortcut" and t["town"] == "northbreak" and t["extra_die"] == 0
    s2 = started(2)
    at_activate(s2, 0, 3)
    scenario.set_player(s2, 0, lanterns=2)
    with pytest.raises(RuleError) as e:
        act(s2, 0, A.Caravan(0, "shortcut", "farglen"))
    assert e.value.code == "no_lantern"


def test_others_answer_in_seat_order_and_take_dice() -> None:
    """Step 1.3-4: "each other player must declare with a yes or no ... in clockwise seating order";
    "Take 1 travel die ... for every traveler ... If you chose the companion with the extra travel
    die, add that die too" (ruling R22: a `join` choice for each other seat, in order)."""
    s = _caravan(4, comp=2)
    assert s.pending[0] == {"kind": "join", "seat": 1}
    with pytest.raises(RuleError) as e:
        act(s, 2, A.Join(True))
    assert e.value.code == "not_your_choice"
    act(s, 1, A.Join(True))
    act(s, 2, A.Join(True))
    act(s, 3, A.Join(False))
    t = s.travel
    assert t["travellers"] == [0, 1, 2] and len(t["dice"]) == 4 and t["event"]
    assert s.supply["travel"] == 1


def test_choosing_order_by_route() -> None:
    """Step 2: "Dark Road: The leader chooses first, followed by each other traveler in
    clockwise seating order. Shortcut: The traveler on the leader's left chooses first"
    (ruling R23)."""
    s = _caravan(3, "dark_road")
    act(s, 1, A.Join(True))
    act(s, 2, A.Join(True))
    assert s.pending[0] == {"kind": "travel_die", "seat": 0}
    s2 = _caravan(3, "shortcut")
    act(s2, 1, A.Join(True))
    act(s2, 2, A.Join(True))
    assert s2.pending[0] == {"kind": "travel_die", "seat": 1}
    order = []
    while s2.pending and s2.pending[0]["kind"] == "travel_die":
        seat = s2.pending[0]["seat"]
        order.append(seat)
        act(s2, seat, A.TakeTravelDie(s2.travel["dice"][0]))
        store_all(s2)
        while s2.pending and s2.pending[0]["kind"] not in ("travel_die", "visit"):
            act(s2, s2.pending[0]["seat"], E.legal_actions(s2, s2.pending[0]["seat"])[0])
    assert order == [1, 2, 0]


def test_lantern_rerolls_the_remaining_dice() -> None:
    """ "Before a traveler chooses a travel die, they may spend 1 lantern to reroll all
    remaining travel dice once. They may repeat this multiple times." (ruling R23)."""
    s = _caravan(2)
    act(s, 1, A.Join(True))
    p = s.players[0]
    scenario.set_player(s, 0, lanterns=2)
    n = len(s.travel["dice"])
    act(s, 0, A.RerollTravel())
    act(s, 0, A.RerollTravel())
    assert p.lanterns == 0 and len(s.travel["dice"]) == n
    with pytest.raises(RuleError) as e:
        act(s, 0, A.RerollTravel())
    assert e.value.code == "no_lantern"


def test_event_costs_as_far_as_possible() -> None:
    """Events: "If you cannot carry out the effect fully, do as much as possible. You cannot go
    below zero coins or zero prestige" (ruling R18)."""
    s = _caravan(1)
    ev = next(e for e in C.events if any(f.coins == -2 for f in e.faces[1]))
    s.travel["event"] = ev.id
    s.travel["dice"] = [1, 1]
    p = s.players[0]
    scenario.set_player(s, 0, coins=1)
    act(s, 0, A.TakeTravelDie(1))
    assert p.coins == 0


def test_visit_the_declared_town_or_the_other_of_its_region() -> None:
    """Step 3: "The leader may only visit the town they declared ... Each other traveler ... may
    visit that same town or the other town in the same region (or pass)" (ruling R24: leader first,
    then clockwise)."""
    s = _caravan(2, town="windglass")
    act(s, 1, A.Join(True))
    for seat in (0, 1):
        act(s, seat, A.TakeTravelDie(s.travel["dice"][0]))
        store_all(s)
        while s.pending and s.pending[0]["kind"] not in ("travel_die", "visit"):
            act(s, s.pending[0]["seat"], E.legal_actions(s, s.pending[0]["seat"])[0])
    assert s.pending[0] == {"kind": "visit", "seat": 0}
    assert {a.town for a in E.legal_actions(s, 0)} == {"windglass", None}
    act(s, 0, A.Visit(None))
    assert {a.town for a in E.legal_actions(s, 1)} == {"windglass", "farglen", None}


def _to_visit(s, seat):  # type: ignore[no-untyped-def]
    while s.pending and not (s.pending[0]["kind"] == "visit" and s.pending[0]["seat"] == seat):
        who = s.pending[0]["seat"]
        kind = s.pending[0]["kind"]
        if kind == "travel_die":
            act(s, who, A.TakeTravelDie(s.travel["dice"][-1]))
        elif kind == "visit":
            act(s, who, A.Visit(None))
        elif kind == "store":
            act(s, who, A.PlaceGood())
        else:
            act(s, who, E.legal_actions(s, who)[0])


def test_commission_delivery_1_3_6_plus_upgraded() -> None:
    """Delivering Commissions: "Gain 1/3/6 prestige for delivering 1/2/3 of the requested
    goods ... 1 additional prestige for each upgraded good"."""
    s = _caravan(1, town="cursecairn")
    p = s.players[0]
    clear_goods(s, 0)
    k = next(x for x in C.commissions if x.town == "cursecairn")
    scenario.set_player(s, 0, commissions=[k.id])
    ids = tuple(give(s, 0, g, up=(i == 0)) for i, g in enumerate(k.requests[:2]))
    _to_visit(s, 0)
    prestige = p.prestige
    act(s, 0, A.Visit("cursecairn"))
    act(s, 0, A.DeliverCommission(k.id, ids))
    assert p.prestige == prestige + 3 + 1
    assert p.delivered_commissions == [k.id] and p.pieces == []


def test_hero_delivery_by_region() -> None:
    """Travel Benefits: Northbreak/Scorchborn 2 coins; Windglass/Farglen 2 prestige;
    Cursecairn/Nightpoem 1 prestige and 1 coin, per delivered hero."""
    expected = {"north": (2, 0), "west": (0, 2), "east": (1, 1)}
    for town in C.towns:
        s = _caravan(1, town=town)
        p = s.players[0]
        h = next(x.id for x in C.heroes if C.hero_town[x.type] == town and not x.starting)
        scenario.set_player(s, 0, heroes=[h])
        _to_visit(s, 0)
        coins, prestige = p.coins, p.prestige
        act(s, 0, A.Visit(town))
        act(s, 0, A.DeliverHero(h))
        dc, dp = expected[C.town[town].region]
        assert (p.coins - coins, p.prestige - prestige) == (dc, dp)
        assert p.delivered_heroes == [h]


def _to_fortune(s):  # type: ignore[no-untyped-def]
    while s.pending and s.pending[0]["kind"] != "fortune":
        who = s.pending[0]["seat"]
        kind = s.pending[0]["kind"]
        if kind == "visit":
            act(s, who, A.Visit(None))
        elif kind == "store":
            act(s, who, A.PlaceGood())
        else:
            act(s, who, E.legal_actions(s, who)[0])


def test_good_fortunes_by_route_and_the_first_c() -> None:
    """Step 4: "1 for traveling the dark road or 2 for traveling a shortcut ... you may choose
    the same good fortune twice"; "C. Gain 3 coins. (The first player to choose this good
    fortune gains 5 coins instead.)" (ruling R25)."""
    s = _caravan(1, route="shortcut")
    _to_fortune(s)
    p = s.players[0]
    coins = p.coins
    act(s, 0, A.Fortune("coins"))
    assert p.coins == coins + 5 and s.fortune_coins == 0
    act(s, 0, A.Fortune("coins"))
    assert p.coins == coins + 8
    assert s.travel is None and not s.pending
    s2 = _caravan(1, route="dark_road")
    _to_fortune(s2)
    act(s2, 0, A.Fortune("die"))
    assert s2.travel is None


def test_fortune_upgrade_only_without_one() -> None:
    """ "D. Gain 1 available wagon upgrade. If your wagon already has a wagon upgrade, you
    cannot choose this good fortune." (Velvet: unlimited, +2 prestige each.) (ruling R21)."""
    s = _caravan(1, route="shortcut")
    for p in s.players:
        p.steeds = ["whisper"]
    _to_fortune(s)
    act(s, 0, A.Fortune("upgrade", upgrade="slot3_upgrade"))
    assert s.players[0].upgrades == ["slot3_upgrade"]
    assert not any(isinstance(a, A.Fortune) and a.kind == "upgrade" for a in E.legal_actions(s, 0))
    s2 = _caravan(1, route="shortcut")
    _to_fortune(s2)
    p2 = s2.players[0]
    prestige = p2.prestige
    act(s2, 0, A.Fortune("upgrade", upgrade="slot3_upgrade"))
    act(s2, 0, A.Fortune("upgrade", upgrade="slot1_upgrade"))
    assert len(p2.upgrades) == 2 and p2.prestige == prestige + 4


def test_fortune_deed_from_the_courtyard_or_the_top() -> None:
    """Deeds: "Gain the bonus listed in the banner next to that deed slot ... You may choose
    the top card of the deeds deck instead, but you gain no bonus" (ruling R19: slot 0's
    banner 2 prestige, as in the travel example; slot 1's a horseshoe)."""
    s = _caravan(1, route="shortcut")
    _to_fortune(s)
    p = s.players[0]
    prestige, deeds = p.prestige, len(p.deeds)
    act(s, 0, A.Fortune("deed", deed=0))
    assert p.prestige == prestige + 2
    act(s, 0, A.Fortune("deed", deed=-1))
    assert p.prestige == prestige + 2 and len(p.deeds) == deeds + 2
