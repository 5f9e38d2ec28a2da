"""Wagon Overview: slots, limits and the storage grid."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad import storage as st
from app.darkroad.errors import RuleError
from tests.darkroad.helpers import C, act, at_activate, clear_goods, give, started, store_all


def test_placement_is_part_of_the_command() -> None:
    """Storage: "You may store your goods in any orientation as long as they fit completely
    within the grid" (ruling R6: a 5x4 grid, shapes in content). The platform never guesses:
    a gained good waits in `incoming` until its owner places it."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.gain_good(s, 0, "weapon")
    assert s.pending[0] == {"kind": "store", "seat": 0}
    cmds = [a for a in E.legal_actions(s, 0) if isinstance(a, A.PlaceGood)]
    assert A.PlaceGood() in cmds  # "anywhere it fits", one listed action
    explicit = [a for a in cmds if a.area]
    assert {a.o for a in explicit} == set(range(len(C.shapes["weapon"])))
    with pytest.raises(RuleError) as e:
        act(s, 0, A.PlaceGood("main", 4, 3, 0))
    assert e.value.code == "no_room"
    act(s, 0, A.PlaceGood("main", 1, 1, 3))
    q = p.pieces[0]
    assert (q["area"], q["x"], q["y"], q["o"]) == ("main", 1, 1, 3)
    assert st.legal(C, p)


def test_a_good_that_does_not_fit_needs_room() -> None:
    """ "If you gain a good that cannot fit, you cannot keep it unless you discard other goods
    to make room." (ruling R8: discard the new good or a stored one)."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, heroes=[], steeds=["velvet"])
    for g in ("armor", "armor", "armor", "armor", "book", "book"):
        give(s, 0, g)  # 4 squares and 2 upright books fill the 5x4 grid
    scenario.gain_good(s, 0, "potion")
    kinds = {(a.type, getattr(a, "area", 0)) for a in E.legal_actions(s, 0)}
    assert ("place_good", None) not in kinds
    act(s, 0, A.DiscardGood(p.pieces[0]["id"]))
    act(s, 0, A.PlaceGood())
    assert sorted(q["good"] for q in p.pieces) == ["armor"] * 3 + ["book"] * 2 + ["potion"]


def test_anywhere_it_fits_rearranges_if_needed() -> None:
    """ "You may also rearrange the goods in your storage at any time to make room" (ruling R8:
    `place_good` without a place repacks the storage when that is what it takes)."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, heroes=[], steeds=["velvet"])
    # Four staffs laid across the middle leave no room for a 2x2 armor until repacked.
    for y in range(4):
        pid = p.next_piece
        p.next_piece += 1
        p.pieces.append(
            {"id": pid, "good": "staff", "up": False, "area": "main", "x": 1, "y": y, "o": 0}
        )
    assert st.first_fit(C, p, "armor") is None
    scenario.gain_good(s, 0, "armor")
    act(s, 0, A.PlaceGood())
    assert len(p.pieces) == 5 and st.legal(C, p)


def test_anywhere_it_fits_searches_every_layout() -> None:
    """ "You may also rearrange the goods in your storage at any time to make room" (ruling
    R8): a good that fits once everything is rearranged is listed as `place_good` (no
    "discard what?"). Found in play: eight goods and a hero's one where a new instrument
    fits only after a search the old 600-node cap gave up on (about 3% of such positions)."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, heroes=["start_fennick"], steeds=["longshadow"])
    layout = [
        ("book", "main", 0, 0),
        ("book", "main", 2, 0),
        ("potion", "main", 4, 0),
        ("instrument", "main", 0, 1),
        ("potion", "main", 2, 1),
        ("instrument", "main", 3, 1),
        ("armor", "main", 1, 2),
        ("potion", "main", 4, 2),
        ("weapon", "hero:start_fennick", 0, 0),
    ]
    for good, area, x, y in layout:
        p.pieces.append(
            {"id": p.next_piece, "good": good, "up": False, "area": area, "x": x, "y": y, "o": 0}
        )
        p.next_piece += 1
    assert st.legal(C, p) and st.first_fit(C, p, "instrument") is None
    scenario.gain_good(s, 0, "instrument")
    assert A.PlaceGood() in E.legal_actions(s, 0)
    act(s, 0, A.PlaceGood())
    assert len(p.pieces) == 10 and st.legal(C, p) and not p.incoming
    # A grid that truly cannot take it still says so (the search is exhaustive).
    clear_goods(s, 0)
    scenario.set_player(s, 0, heroes=[], steeds=["velvet"])
    for g in ("armor", "armor", "armor", "armor", "book", "book"):
        give(s, 0, g)
    assert st.repack(C, p, [*p.pieces, {"id": -1, "good": "potion", "up": False}]) is None


def test_rearrange_command() -> None:
    """Rearranging is a command: a full legal layout (ruling R8: on your turn, or while you
    store a good)."""
    s = started(2)
    clear_goods(s, 0)
    p = s.players[0]
    scenario.set_player(s, 0, heroes=[], steeds=["velvet"])
    pid = give(s, 0, "book")
    act(s, 0, A.Rearrange((pid, 0, 3, 3, 0)))
    assert (p.pieces[0]["x"], p.pieces[0]["y"]) == (3, 3)
    with pytest.raises(RuleError) as e:
        act(s, 0, A.Rearrange((pid, 0, 4, 3, 0)))
    assert e.value.code == "bad_layout"
    with pytest.raises(RuleError) as e:
        act(s, 1, A.Rearrange(()))
    assert e.value.code == "not_now"


def test_storage_hero_holds_any_one_good() -> None:
    """Ringway Inn: "If the hero has a storage icon, they can store any 1 good. This is treated
    as an extension of your wagon storage" (ruling R7: a separate one-good area; a good left
    there when the hero leaves must be stored again)."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    h = next(x.id for x in C.heroes if x.bonus == "storage" and not x.starting)
    scenario.set_player(s, 0, heroes=[h], steeds=["velvet"])
    for g in ("armor", "armor", "armor", "armor", "book", "book"):
        give(s, 0, g)
    scenario.gain_good(s, 0, "weapon")
    act(s, 0, A.PlaceGood(st.HERO + h, 0, 0, 0))
    assert p.pieces[-1]["area"] == st.HERO + h
    scenario.lose_hero(s, 0, h)
    assert p.incoming == [{"good": "weapon", "up": False}] and s.pending[0]["kind"] == "store"


def test_commission_slots() -> None:
    """ "You have 3 commission slots. If you gain a commission when all slots are full, you must
    discard it unless you discard a different commission ... at the bottom of the matching
    commission stack" (ruling R17)."""
    s = started(2)
    p = s.players[0]
    scenario.set_player(s, 0, commissions=[k.id for k in C.commissions if k.town == "farglen"][:3])
    for t in p.commissions:
        s.stacks["farglen"].remove(t)
    at_activate(s, 0, 0)
    top = s.stacks["nightpoem"][0]
    act(s, 0, A.TakeCommission("nightpoem"))
    assert s.pending[0]["kind"] == "commission_overflow"
    act(s, 0, A.DiscardCommission(top))
    assert top not in p.commissions and s.stacks["nightpoem"][-1] == top


def test_lantern_slots() -> None:
    """ "You have 4 lantern slots. If you gain another lantern when all of your slots are full,
    you must discard it"."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, lanterns=4)
    scenario.gain(s, 0, "lanterns", 1)
    assert p.lanterns == 4


def test_inventory_slots() -> None:
    """ "You have 3 inventory slots. If you gain another resource when all slots are full, you
    must discard it unless you discard a different resource"."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, quartz=2, horseshoes=1)
    scenario.gain(s, 0, "quartz", 1)
    assert s.pending[0]["kind"] == "inventory_overflow"
    act(s, 0, A.DiscardResource("horseshoes"))
    assert (p.quartz, p.horseshoes) == (3, 0)
    scenario.gain(s, 0, "quartz", 1)
    assert p.quartz == 3 and not s.pending


def test_at_most_two_illuminated_dice() -> None:
    """ "You may have up to a maximum of 2 illuminated dice at one time" (ruling R5: a third is
    not taken)."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, special=[1, 2])
    supply = s.supply["illuminated"]
    scenario.gain_illuminated(s, 0)
    assert p.special == [1, 2] and s.supply["illuminated"] == supply


def test_lose_good_choice() -> None:
    """An event cost "lose 1 good" is its owner's choice of good (ruling R18)."""
    s = started(1)
    clear_goods(s, 0)
    p = s.players[0]
    a = give(s, 0, "book")
    give(s, 0, "potion")
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    ev = next(e for e in C.events if any(f.lose_good for f in e.faces[1] + e.faces[2] + e.faces[3]))
    face = next(v for v in (1, 2, 3) if any(f.lose_good for f in ev.faces[v]))
    s.travel["event"] = ev.id
    s.travel["dice"] = [face, face]
    act(s, 0, A.TakeTravelDie(face))
    assert s.pending[0]["kind"] == "lose_good"
    act(s, 0, A.LoseGood(a))
    assert [q["good"] for q in p.pieces] == ["potion"]
    store_all(s)
