"""Component Explanations: buildings, companions, steeds, wagon upgrades."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad import storage as st
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, at_activate, clear_goods, give, started, store_all


def _at(building: str, **player):  # type: ignore[no-untyped-def]
    s = started(2)
    scenario.set_building(s, 0, building)
    p = s.players[0]
    scenario.set_player(s, 0, steeds=["velvet"])
    clear_goods(s, 0)
    for k, v in player.items():
        setattr(p, k, v)
    at_activate(s, 0, 0, illuminated=True)
    return s, p


def _stored(s, seat=0):  # type: ignore[no-untyped-def]
    store_all(s)
    return sorted((q["good"], q["up"]) for q in s.players[seat].pieces)


def test_quartz_mine() -> None:
    """Blazing Quartz Mine: "Gain 1 blazing quartz from the supply"."""
    s, p = _at("quartz_mine", quartz=0, horseshoes=0)
    act(s, 0, A.Building("quartz_mine"))
    assert p.quartz == 1


def test_surveyor() -> None:
    """Queen's Eyes Surveyor: "Spend 2 coins or 1 blazing quartz to gain 3 prestige"."""
    s, p = _at("surveyor", coins=2, prestige=0, quartz=0)
    with pytest.raises(RuleError):
        act(s, 0, A.Building("surveyor", pay="quartz"))
    act(s, 0, A.Building("surveyor", pay="coins"))
    assert p.coins == 0 and p.prestige == 3


def test_icebreaker_harbor() -> None:
    """Icebreaker Harbor: "Gain 1 basic good ... of any type that is not currently available
    on the market wheel" (ruling R10: a section without a die)."""
    s, p = _at("icebreaker_harbor")
    picks = {a.good for a in E.legal_actions(s, 0) if isinstance(a, A.Building)}
    assert picks == {g for g in C.goods if not s.market[g]}
    act(s, 0, A.Building("icebreaker_harbor", good=picks.pop()))
    assert len(_stored(s)) == 1


def test_guildhall() -> None:
    """Merchant's Guildhall: "Spend 2 coins or 1 lantern, then gain 2 basic goods: 1 good of
    any type and 1 good of a type with a current value of $1"."""
    s, p = _at("guildhall", lanterns=1, coins=0)
    cheap = E.cheap_goods(C, s)[0]
    act(s, 0, A.Building("guildhall", pay="lantern", good="armor", good2=cheap))
    assert p.lanterns == 0 and _stored(s) == sorted([("armor", False), (cheap, False)])


def test_oracle() -> None:
    """The Oracle of Lumi: "Roll the oracle die and gain the benefit shown" (ruling R14)."""
    s, p = _at("oracle")
    ev = act(s, 0, A.Building("oracle"))
    assert any(e["type"] == "oracle" for e in ev)


def test_candle_and_quartz() -> None:
    """The Candle & Quartz: "Spend 2 coins or 1 basic good with a current value of $1, then
    gain 1 available hero or commission"."""
    s, p = _at("candle_quartz", coins=0)
    cheap = E.cheap_goods(C, s)[0]
    pid = give(s, 0, cheap)
    h = s.inn[2]
    act(s, 0, A.Building("candle_quartz", piece=pid, hero=2))
    assert h in p.heroes and p.pieces == []


def test_lanternworks() -> None:
    """Otho's Lanternworks: "Gain 1 basic good ... with a current value of $1. Gain 1 lantern.
    Gain 1 prestige."."""
    s, p = _at("lanternworks", lanterns=0, prestige=0)
    cheap = E.cheap_goods(C, s)[1]
    act(s, 0, A.Building("lanternworks", good=cheap))
    assert p.lanterns == 1 and p.prestige == 1 and _stored(s) == [(cheap, False)]


def test_mansion() -> None:
    """Guildmaster's Mansion: "trade any number of the following items at a 1-to-1 ratio:
    1 lantern, 1 blazing quartz, 2 coins" (ruling: one trade per listed command; the
    activation may trade nothing)."""
    s, p = _at("mansion", coins=4, lanterns=0, quartz=0, horseshoes=0)
    act(s, 0, A.Building("mansion", gives=("coins",), gets=("quartz",)))
    assert p.coins == 2 and p.quartz == 1


def test_workshop() -> None:
    """Yedl's Workshop: "Upgrade 1 good in your storage from the basic side to the upgraded
    side. Gain 1 lantern."."""
    s, p = _at("workshop", lanterns=0)
    pid = give(s, 0, "book")
    act(s, 0, A.Building("workshop", piece=pid))
    assert p.pieces[0]["up"] and p.lanterns == 1


def test_filigree() -> None:
    """The Frosted Filigree: "Spend 2 coins or 1 good, then gain 1 upgraded good ... with a
    current value of $1"."""
    s, p = _at("filigree", coins=2)
    cheap = E.cheap_goods(C, s)[0]
    act(s, 0, A.Building("filigree", pay="coins", good=cheap))
    assert p.coins == 0 and _stored(s) == [(cheap, True)]


def _with_companion(cid: str, **player):  # type: ignore[no-untyped-def]
    s = started(2)
    p = s.players[0]
    p.companions = [{"id": cid, "used": []}]
    scenario.set_player(s, 0, steeds=["velvet"])
    for k, v in player.items():
        setattr(p, k, v)
    return s, p


def test_loyal_companion_gift_once_per_ability() -> None:
    """Loyal Companions: "trigger with a gift of 1 blazing quartz ... That ability cannot be
    triggered again for the rest of the game" (ruling R20: two abilities per loyal card)."""
    cid = next(x.id for x in C.companions if x.abilities[0] == "two_lanterns")
    s, p = _with_companion(cid, quartz=2, horseshoes=0, lanterns=0)
    act(s, 0, A.UseCompanion(cid, "two_lanterns"))
    assert p.lanterns == 2 and p.quartz == 1 and p.companions[0]["used"] == ["two_lanterns"]
    with pytest.raises(RuleError) as e:
        act(s, 0, A.UseCompanion(cid, "two_lanterns"))
    assert e.value.code == "bad_companion"


def test_companions_only_on_your_own_turn() -> None:
    """ "You may only trigger companion abilities on your own turn, but may do so at any time"
    (ruling R20)."""
    cid = next(x.id for x in C.companions if x.abilities[0] == "illuminated_die")
    s, p = _with_companion(cid, quartz=1)
    s.players[1].companions = [{"id": cid, "used": []}]
    scenario.set_player(s, 1, quartz=1)
    with pytest.raises(RuleError) as e:
        act(s, 1, A.UseCompanion(cid, "illuminated_die"))
    assert e.value.code == "not_your_turn"
    p.special = []
    act(s, 0, A.UseCompanion(cid, "illuminated_die"))
    assert len(p.special) == 1


def test_stray_is_passed_to_the_left() -> None:
    """Stray Companions: "return the gift to the supply. Then pass the companion card to the
    player seated on your left" (Li'l Dumplin': a horseshoe, roll the ruins die) (ruling R20)."""
    s, p = _with_companion("lil_dumplin", horseshoes=1)
    act(s, 0, A.UseCompanion("lil_dumplin", "ruins_die"))
    assert p.horseshoes == 0 and p.companions == []
    assert s.players[1].companions == [{"id": "lil_dumplin", "used": []}]


def test_grace_takes_a_potion_for_a_deed() -> None:
    """Grace: "Gain 1 available deed and its bonus. This companion requires a potion" (ruling
    R37: a basic potion if you have one, else an upgraded one)."""
    s, p = _with_companion("grace")
    clear_goods(s, 0)
    with pytest.raises(RuleError):
        act(s, 0, A.UseCompanion("grace", "deed", deed=1))
    give(s, 0, "potion")
    deeds = len(p.deeds)
    act(s, 0, A.UseCompanion("grace", "deed", deed=1))
    assert len(p.deeds) == deeds + 1 and p.pieces == []
    s2, p2 = _with_companion("grace")
    clear_goods(s2, 0)
    give(s2, 0, "potion", up=True)
    give(s2, 0, "potion")
    act(s2, 0, A.UseCompanion("grace", "deed", deed=1))
    assert [(q["good"], q["up"]) for q in p2.pieces] == [("potion", True)]
    s3, p3 = _with_companion("grace")
    clear_goods(s3, 0)
    give(s3, 0, "potion", up=True)
    act(s3, 0, A.UseCompanion("grace", "deed", deed=1))
    assert p3.pieces == []


def test_flicker_makes_the_shortcut_free() -> None:
    """Flicker: "If you choose to take a shortcut while traveling this turn, you may ignore the
    lantern cost"."""
    s, p = _with_companion("flicker", quartz=1, lanterns=0)
    act(s, 0, A.UseCompanion("flicker", "free_shortcut"))
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "shortcut", "farglen"))
    assert p.lanterns == 0 and s.travel["route"] == "shortcut"


def test_cosimo_takes_a_hero_for_an_upgrade() -> None:
    """Cosimo: "Gain 1 available wagon upgrade OR move the district marker in the dark market 1
    space ... requires a hero ... Place this hero card on the bottom of the hero deck" (ruling R34:
    the upgrade branch)."""
    s, p = _with_companion("cosimo")
    h = p.heroes[0]
    act(s, 0, A.UseCompanion("cosimo", "upgrade_or_dark_market", upgrade="slot3_upgrade", gift=h))
    assert p.upgrades == ["slot3_upgrade"] and s.decks["heroes"][-1] == h and p.heroes == []


def test_cosimo_moves_the_dark_market_marker_exactly_one_space() -> None:
    """Cosimo: "move the district marker in the dark market 1 space clockwise and gain the
    benefit shown" (ruling R34: exactly 1 space, and free: not the district's coin a space).
    From the south start the marker goes west (potion + instrument, ruling R12); from east it
    goes south, so the only choices are a commission or a deed."""
    s, p = _with_companion("cosimo", coins=5)
    clear_goods(s, 0)
    h = p.heroes[0]
    assert C.board.dark_market[s.dm_pos].space == "south"
    picks = {
        (a.town, a.deed)
        for a in E.legal_actions(s, 0)
        if isinstance(a, A.UseCompanion) and a.dark_market
    }
    assert picks == {(None, None)}  # west's two goods, no choice
    act(s, 0, A.UseCompanion("cosimo", "upgrade_or_dark_market", dark_market=True, gift=h))
    assert C.board.dark_market[s.dm_pos].space == "west"
    assert _stored(s) == [("instrument", False), ("potion", False)]
    assert p.coins == 5 and p.heroes == [] and s.decks["heroes"][-1] == h
    s2, p2 = _with_companion("cosimo")
    s2.dm_pos = next(i for i, sp in enumerate(C.board.dark_market) if sp.space == "east")
    picks = {
        (a.town, a.deed)
        for a in E.legal_actions(s2, 0)
        if isinstance(a, A.UseCompanion) and a.dark_market
    }
    assert picks and all((town is None) != (deed is None) for town, deed in picks)
    commissions = len(p2.commissions)
    act(
        s2,
        0,
        A.UseCompanion(
            "cosimo", "upgrade_or_dark_market", dark_market=True, town="farglen", gift=p2.heroes[0]
        ),
    )
    assert C.board.dark_market[s2.dm_pos].space == "south"
    assert len(p2.commissions) == commissions + 1


def test_steed_brembizant_discount() -> None:
    """Brembizánt: "receive a $2 discount off the total cost. The cost cannot go lower than
    zero"."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, steeds=["brembizant"])
    one = next(g for g in C.goods if E.value(C, s, g) == 1 and s.market[g])
    assert E.bazaar_cost(s, C, p, (one,)) == 0
    five = next(g for g in C.goods if E.value(C, s, g) == 5)
    assert E.bazaar_cost(s, C, p, (five, one)) == 4


def test_steed_longshadow_any_building() -> None:
    """Longshadow: "When you use an illuminated die, you may choose any 1 of the 4 buildings"."""
    s = started(2)
    scenario.set_player(s, 0, steeds=["longshadow"])
    at_activate(s, 0, 4, illuminated=True)
    assert set(s.buildings) <= set(s.acts) and s.acts_left == 3
    act(s, 0, A.Building("quartz_mine"))
    assert not set(s.buildings) & set(s.acts)


def test_steed_lovebug_and_sugarfoot() -> None:
    """Lovebug: "When you visit Yurg's Excursions, gain 1 lantern"; Sugarfoot: "you may move exactly
    3 spaces ... a 2x2 extension to your wagon storage" (ruling R7: the saddle bag is a separate 2x2
    area)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, steeds=["lovebug"])
    scenario.set_player(s, 0, lanterns=0)
    at_activate(s, 0, 3)
    act(s, 0, A.Ruins(1, C.board.ruins[1].goods[0]))
    assert p.lanterns == 1
    s2 = started(2)
    q = s2.players[0]
    scenario.set_player(s2, 0, steeds=["sugarfoot"])
    act(s2, 0, A.Plan(3, q.reserve[0], "coins"))
    act(s2, 0, A.Move("steed", 0))
    assert q.position == (4 + 3) % 5
    assert ("saddle", 2, 2) in [(a, w, h) for a, w, h in st.areas(C, q)]


def test_steed_whisper_and_woolsworth() -> None:
    """Whisper: "When you choose a travel die, you may add +1"; Woolsworth: "1 blazing quartz
    for each upgraded good that you deliver for that commission"."""
    s = started(1)
    scenario.set_player(s, 0, steeds=["whisper"])
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    s.travel["dice"] = [3, 6]
    cmds = [a for a in E.legal_actions(s, 0) if isinstance(a, A.TakeTravelDie)]
    assert A.TakeTravelDie(3, True) in cmds and A.TakeTravelDie(6, True) not in cmds
    s2 = started(1)
    q = s2.players[0]
    scenario.set_player(s2, 0, steeds=["woolsworth"])
    q.quartz = q.horseshoes = 0
    clear_goods(s2, 0)
    k = next(x for x in C.commissions if x.town == "farglen")
    scenario.set_player(s2, 0, commissions=[k.id])
    ids = tuple(give(s2, 0, g, up=True) for g in k.requests[:2])
    s2.travel = {
        "final": True,
        "stage": "visit",
        "visiting": [],
        "travellers": [0],
        "leader": 0,
        "route": None,
        "town": None,
        "event": None,
        "dice": [],
        "order": [],
    }
    s2.pending = [{"kind": "deliver", "seat": 0, "town": "farglen"}]
    act(s2, 0, A.DeliverCommission(k.id, ids))
    assert q.quartz == 2 and q.prestige == 3 + 2


def test_upgrade_slots() -> None:
    """Wagon Upgrades: slot 1 crafts an upgraded good; slot 2 a lantern AND may move an
    illuminated die; slot 3 3 coins or 1 prestige."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, upgrades=["slot1_upgrade", "slot2_upgrade", "slot3_upgrade"])
    opts = {(a.slot, a.option) for a in E.legal_actions(s, 0) if isinstance(a, A.Plan)}
    assert (2, "both") in opts and (3, "prestige") in opts and (3, "rotate") not in opts
    act(s, 0, A.Plan(1, p.reserve[0], None))
    assert p.incoming[0]["up"]
    s2 = started(1)
    q = s2.players[0]
    scenario.set_player(s2, 0, upgrades=["slot2_upgrade"])
    lanterns = q.lanterns
    act(s2, 0, A.Plan(2, q.reserve[0], "both"))
    assert q.lanterns == lanterns + 1 and q.pool_illuminated is not None


def test_upgrade_lantern_and_storage_and_inventory() -> None:
    """Lantern upgrade: "you do not have to spend a lantern to roll the ruins die"; storage: "must
    stay there ... you may not discard it"; inventory: "gain a second steed of your choice from the
    unused steed cards" (ruling R21; rulings R7 and R35: the storage tile is a 1-cell piece of
    the main grid, stored like a good, that can never be discarded)."""
    s = started(1)
    scenario.set_player(s, 0, upgrades=["lantern_upgrade"])
    scenario.set_player(s, 0, lanterns=0)
    scenario.set_player(s, 0, steeds=["velvet"])
    at_activate(s, 0, 3)
    act(s, 0, A.Ruins(1, C.board.ruins[1].goods[0]))
    store_all(s)
    act(s, 0, A.RuinsDie(True))
    p2 = started(1)
    q = p2.players[0]
    scenario.gain_upgrade(p2, 0, "storage_upgrade")
    assert A.DiscardGood(None) not in E.legal_actions(p2, 0)
    act(p2, 0, A.PlaceGood())
    tile = next(x for x in q.pieces if x["good"] == "upgrade")
    assert A.DiscardGood(tile["id"]) not in E.DiscardGood().candidates(p2, C, 0)
    scenario.gain_upgrade(p2, 0, "inventory_upgrade")
    p2.pending[0:0] = p2.asks
    p2.asks = []
    assert p2.pending[0]["kind"] == "choose_steed"
    act(p2, 0, A.ChooseSteed(p2.unused_steeds[0]))
    assert len(q.steeds) == 2 and E.inventory_slots(C, q) == 2


def test_cave_dragon_ice_mouse_snow_bee() -> None:
    """Cave Dragon: "Deliver 1 hero to their outlying town and gain the delivery benefit";
    Ice Mouse: "Gain 1 available commission"; Snow Bee: "Gain 1 available hero"."""
    dragon = next(x.id for x in C.companions if x.species == "cave_dragon")
    s, p = _with_companion(dragon, quartz=1, horseshoes=0)
    h = next(x.id for x in C.heroes if x.type == "knight" and not x.starting)
    p.heroes = [h]
    coins = p.coins
    act(s, 0, A.UseCompanion(dragon, "deliver_hero", hero=h))
    assert p.delivered_heroes == [h] and p.coins == coins + 2
    mouse = next(x.id for x in C.companions if x.species == "ice_mouse")
    s, p = _with_companion(mouse, quartz=1)
    top = s.stacks["farglen"][0]
    act(s, 0, A.UseCompanion(mouse, "gain_commission", town="farglen"))
    assert p.commissions == [top]
    bee = next(x.id for x in C.companions if x.species == "snow_bee")
    s, p = _with_companion(bee, quartz=1)
    h = s.inn[1]
    act(s, 0, A.UseCompanion(bee, "gain_hero", slot=1))
    assert h in p.heroes and s.inn[1] is None


def test_threy_cat_and_the_boost_at_the_travel_die() -> None:
    """Threy Cat: "Duplicate the value of any travel die and gain the benefit shown" (ruling
    R20: here the die taken, so its benefit twice); "Add +1 or +2 to the face value of your
    travel die"."""
    cat = next(x.id for x in C.companions if x.species == "threy_cat")
    s, p = _with_companion(cat, quartz=1, horseshoes=0)
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    act(s, 1, A.Join(False))
    ev = next(e for e in C.events if e.faces[4] and e.faces[4][0].coins == 2)
    s.travel["event"] = ev.id
    s.travel["dice"] = [4, 4]
    coins = p.coins
    act(s, 0, A.TakeTravelDie(4, twin=4))
    assert p.coins == coins + 4 and p.quartz == 0
    boost = next(x.id for x in C.companions if x.kind == "loyal" and "travel_boost" in x.abilities)
    s, p = _with_companion(boost, quartz=1, horseshoes=0)
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    act(s, 1, A.Join(False))
    s.travel["dice"] = [2, 5]
    assert A.TakeTravelDie(5, boost=2) not in E.legal_actions(s, 0)
    act(s, 0, A.TakeTravelDie(2, boost=2))
    assert next(x for x in p.companions if x["id"] == boost)["used"] == ["travel_boost"]
