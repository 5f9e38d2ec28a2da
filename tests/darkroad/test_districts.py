"""The five districts: the Great Bazaar, the Queen's Commissions, the Dark Market, the
Ringway Inn, Yurg's Excursions (the Ruins of Yin; the outlying towns are in test_caravan)."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, at_activate, clear_goods, give, kinds, started, store_all


def _goods(s, seat):  # type: ignore[no-untyped-def]
    return sorted(q["good"] for q in s.players[seat].pieces)


def _valued(s, v):  # type: ignore[no-untyped-def]
    return [g for g in C.goods if E.value(C, s, g) == v]


def test_bazaar_second_good_of_a_section_is_free() -> None:
    """The Great Bazaar: "The cost for each section is only counted once. If you buy 2 goods
    from a single section, the second is free." (ruling R11)."""
    s = started(2)
    at_activate(s, 0, 4)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, coins=20)
    g3 = _valued(s, 3)[0]
    g1 = next(g for g in _valued(s, 1) if s.market[g])
    act(s, 0, A.Bazaar())
    act(s, 0, A.BazaarChange(g1, g3))  # a second die on the $3 section
    assert s.market[g3] == 2
    act(s, 0, A.BazaarBuy((g3, g3)))
    assert p.coins == 17 and s.market[g3] == 0 and s.market_aside == 2
    store_all(s)
    assert _goods(s, 0) == [g3, g3]


def test_bazaar_rotate_and_change_once_each_in_either_order() -> None:
    """ "first you may perform the following two actions in either order: Rotate ... Change 1 market
    die ... You must still obey the limit of no more than 2 dice per wheel section" (ruling R11:
    separate commands before `bazaar_buy`, each at most once)."""
    s = started(2)
    at_activate(s, 0, 4)
    act(s, 0, A.Bazaar())
    src = next(g for g in C.goods if s.market[g])
    dst = next(g for g in C.goods if g != src and s.market[g] == 1)
    act(s, 0, A.BazaarChange(src, dst))
    with pytest.raises(RuleError) as e:
        act(s, 0, A.BazaarChange(dst, src))
    assert e.value.code == "already_done"
    act(s, 0, A.BazaarRotate())
    assert "bazaar_rotate" not in kinds(s, 0)
    s2 = started(2)
    at_activate(s2, 0, 4)
    act(s2, 0, A.Bazaar())
    full = next(g for g in C.goods if s2.market[g])
    s2.market[full] = 2
    other = next(g for g in C.goods if g != full and s2.market[g])
    with pytest.raises(RuleError) as e:
        act(s2, 0, A.BazaarChange(other, full))
    assert e.value.code == "section_full"


def test_bazaar_cannot_buy_beyond_coins() -> None:
    s = started(2)
    at_activate(s, 0, 4)
    scenario.set_player(s, 0, coins=2)
    act(s, 0, A.Bazaar())
    five = _valued(s, 5)[0]
    with pytest.raises(RuleError) as e:
        act(s, 0, A.BazaarBuy((five,)))
    assert e.value.code == "cannot_afford"


def test_market_dice_rerolled_at_rest_at_most_two_per_section() -> None:
    """Step 4: "reroll them and place them in the matching sections ... no more than 2 dice
    may be in any 1 section"."""
    for seed in range(10):
        s = started(2, seed=seed)
        at_activate(s, 0, 4)
        scenario.set_player(s, 0, coins=30)
        act(s, 0, A.Bazaar())
        avail = tuple(g for g in C.goods for _ in range(s.market[g]))
        act(s, 0, A.BazaarBuy(avail))
        store_all(s)
        while s.pending:
            act(s, 0, A.DiscardGood(None))
        assert sum(s.market.values()) == 0
        act(s, 0, A.EndTurn())
        assert sum(s.market.values()) == 5 and max(s.market.values()) <= 2


def test_commission_from_the_top_of_a_chosen_stack() -> None:
    """The Queen's Commissions: "gain the top commission from the stack of your choice"; only
    the top of each stack is visible (views)."""
    s = started(2)
    at_activate(s, 0, 0)
    top = s.stacks["nightpoem"][0]
    act(s, 0, A.TakeCommission("nightpoem"))
    assert s.players[0].commissions == [top] and len(s.stacks["nightpoem"]) == 4


def test_dark_market_costs_a_coin_a_space() -> None:
    """The Dark Market: "spending 1 coin for each space ... at least 1 space ... up to 4 ...
    cannot move the marker more spaces than you have coins"; north/east/west give their pair
    of goods (ruling R12)."""
    s = started(2)
    at_activate(s, 0, 1)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, coins=3)
    assert {a.steps for a in E.legal_actions(s, 0) if isinstance(a, A.DarkMarket)} == {1, 2, 3}
    act(s, 0, A.DarkMarket(1))  # south -> west
    assert p.coins == 2 and C.board.dark_market[s.dm_pos].space == "west"
    store_all(s)
    assert _goods(s, 0) == sorted(C.board.dark_market[s.dm_pos].goods)


def test_dark_market_south_gives_a_commission_or_a_deed_with_its_banner() -> None:
    """ "The south space provides a single commission or deed ... gain 1 available commission -OR- 1
    available deed and its bonus. Note that this is one way to gain horseshoes." (ruling R12: the
    south space; ruling R19: slot 1's banner is a horseshoe)."""
    s = started(2)
    at_activate(s, 0, 1)
    p = s.players[0]
    scenario.set_player(s, 0, coins=5)
    horseshoes = p.horseshoes
    d = s.courtyard[1]
    act(s, 0, A.DarkMarket(4, deed=1))
    assert d in p.deeds and p.horseshoes == horseshoes + 1 and p.coins == 1


def test_dark_market_needs_a_coin() -> None:
    """ "you must have at least 1 coin to activate this district"."""
    s = started(2)
    at_activate(s, 0, 1)
    scenario.set_player(s, 0, coins=0)
    assert "dark_market" not in kinds(s, 0)


def test_inn_sells_at_current_values_and_the_hero_joins() -> None:
    """The Ringway Inn: "Gain coins ... based on their current values. In addition, gain 1
    blazing quartz and 1 extra coin ... for each upgraded good sold"; "take that hero"."""
    s = started(2)
    at_activate(s, 0, 3)
    clear_goods(s, 0)
    p = s.players[0]
    h = s.inn[0]
    req = C.hero[h].requests
    a = give(s, 0, req[0], up=True)
    b = give(s, 0, req[1])
    coins, quartz = p.coins, p.quartz
    act(s, 0, A.Inn(0, (a, b)))
    assert p.coins == coins + E.value(C, s, req[0]) + 1 + E.value(C, s, req[1])
    assert p.quartz == quartz + 1 and h in p.heroes and s.inn[0] is None
    assert p.pieces == []


def test_inn_must_sell_at_least_one_requested_good() -> None:
    s = started(2)
    at_activate(s, 0, 3)
    clear_goods(s, 0)
    with pytest.raises(RuleError) as e:
        act(s, 0, A.Inn(0, ()))
    assert e.value.code == "sell_one"
    h = s.inn[0]
    other = next(g for g in C.goods if g not in C.hero[h].requests)
    pid = give(s, 0, other)
    with pytest.raises(RuleError) as e:
        act(s, 0, A.Inn(0, (pid,)))
    assert e.value.code == "not_requested"


def test_hero_bonus_and_a_fourth_hero() -> None:
    """Hero bonuses (lantern, horseshoe, storage); "If all of your hero slots are full and you
    decide to discard the new hero instead of a different hero, you do not gain the new
    hero's bonus" (ruling R16: at most one bonus icon)."""
    s = started(2)
    at_activate(s, 0, 3)
    clear_goods(s, 0)
    p = s.players[0]
    lantern_hero = next(h.id for h in C.heroes if h.bonus == "lantern" and not h.starting)
    s.inn[0] = lantern_hero
    scenario.set_player(s, 0, heroes=[h.id for h in C.heroes if h.bonus == "none"][:3])
    pid = give(s, 0, C.hero[lantern_hero].requests[0])
    lanterns = p.lanterns
    act(s, 0, A.Inn(0, (pid,)))
    assert s.pending[0]["kind"] == "hero_overflow"
    act(s, 0, A.DiscardHero(lantern_hero))
    assert p.lanterns == lanterns and s.decks["heroes"][-1] == lantern_hero
    s2 = started(2)
    at_activate(s2, 0, 3)
    clear_goods(s2, 0)
    q = s2.players[0]
    s2.inn[0] = lantern_hero
    scenario.set_player(s2, 0, heroes=[h.id for h in C.heroes if h.bonus == "none"][:3])
    pid = give(s2, 0, C.hero[lantern_hero].requests[0])
    lanterns = q.lanterns
    act(s2, 0, A.Inn(0, (pid,)))
    act(s2, 0, A.DiscardHero(q.heroes[0]))
    assert q.lanterns == lanterns + 1 and lantern_hero in q.heroes


def test_ruins_steps_by_heroes_and_the_upgraded_good() -> None:
    """Ruins of Yin: "at least 1 space, but you may move it up to 1 additional space for each
    hero on your wagon"; the spaces give one of 2 upgraded goods, bottom-left any (R13)."""
    s = started(2)
    at_activate(s, 0, 3)
    p = s.players[0]
    scenario.set_player(s, 0, heroes=p.heroes[:1])
    steps = {a.steps for a in E.legal_actions(s, 0) if isinstance(a, A.Ruins)}
    assert steps == {1, 2}
    good = C.board.ruins[1].goods[0]
    act(s, 0, A.Ruins(1, good))
    assert p.incoming == [{"good": good, "up": True}]
    store_all(s)
    assert s.pending[0]["kind"] == "ruins_die"


def test_ruins_die_costs_a_lantern() -> None:
    """ "you may return 1 lantern to the supply. If you do, roll the ruins die" (ruling R15:
    `ruins_die {roll}` costs a lantern)."""
    s = started(2)
    at_activate(s, 0, 3)
    scenario.set_player(s, 0, lanterns=0)
    act(s, 0, A.Ruins(1, C.board.ruins[1].goods[0]))
    store_all(s)
    with pytest.raises(RuleError) as e:
        act(s, 0, A.RuinsDie(True))
    assert e.value.code == "no_lantern"
    act(s, 0, A.RuinsDie(False))
    assert not s.pending


def test_ruins_die_results() -> None:
    """The six results (ruling R15): "again" moves the marker and gives its benefit (no die);
    the illuminated face rerolls: a second one gives an illuminated die, another result is
    taken instead; $1 basic good, quartz, 2 coins, a hero without selling."""
    seen: set[str] = set()
    for seed in range(60):
        s = started(1, seed=seed)
        at_activate(s, 0, 3)
        p = s.players[0]
        scenario.set_player(s, 0, lanterns=2)
        scenario.set_player(s, 0, steeds=["velvet"])
        act(s, 0, A.Ruins(1, C.board.ruins[1].goods[0]))
        store_all(s)
        coins, quartz, heroes, special = p.coins, p.quartz, len(p.heroes), len(p.special)
        ev = act(s, 0, A.RuinsDie(True))
        faces = [e["face"] for e in ev if e["type"] == "ruins_die"]
        face = faces[-1]
        seen.add(face if len(faces) == 1 else f"re-{face}")
        assert p.lanterns == 1
        if face == "two_coins":
            assert p.coins == coins + 2
        elif face == "quartz":
            assert p.quartz == min(quartz + 1, 3)
        elif face == "illuminated":
            assert len(faces) == 2 and len(p.special) == min(special + 1, 2)
        elif face == "again":
            assert s.pending[0]["kind"] == "ruins_again"
            act(s, 0, next(a for a in E.legal_actions(s, 0) if isinstance(a, A.Ruins)))
            store_all(s)
            assert not s.pending or s.pending[0]["kind"] != "ruins_die"
        elif face == "hero":
            act(s, 0, A.TakeHero(-1))
            assert len(p.heroes) == heroes + 1
        elif face == "cheap_good":
            assert s.pending[0]["options"] == E.cheap_goods(C, s)
    assert {"two_coins", "quartz", "again", "hero", "cheap_good"} <= seen
    assert any(x.startswith("re-") for x in seen)
