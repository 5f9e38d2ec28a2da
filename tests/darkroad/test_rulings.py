"""Tests of the rulings in docs/rulings-darkroad.md not proven by a rule test elsewhere."""

from __future__ import annotations

import pytest

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.errors import RuleError
from app.darkroad.view import view
from tests.darkroad.helpers import C, act, at_activate, clear_goods, give, started, store_all


def test_r1_dice_faces() -> None:
    """R1: night and illuminated dice show 0-5 ("If the value of the die is zero, your wagon
    pawn does not move"); travel dice 1-6, one event effect per face."""
    assert C.board.night_faces == (0, 1, 2, 3, 4, 5)
    assert C.board.illuminated_faces == (0, 1, 2, 3, 4, 5)
    assert C.board.travel_faces == (1, 2, 3, 4, 5, 6)
    for seed in range(20):
        s = E.new_game({}, seed, ["a", "b"])
        for p in s.players:
            assert all(0 <= v <= 5 for v in p.reserve + p.special)


def test_r9_the_ringway() -> None:
    """R9: clockwise Bazaar, Commissions, Dark Market, Excursions, Inn; wagon space i faces
    districts i and i+1 and building space i; space 4 (Inn-Bazaar) has no building; moving
    counts wagon spaces only (5 spaces: a 5 comes back to the same space)."""
    assert C.board.ringway == ("bazaar", "commissions", "dark_market", "excursions", "inn")
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, reserve=[5, 5, 5, 5])
    scenario.set_player(s, 0, locked=[1, 2, 5])
    act(s, 0, A.Plan(3, 5, "coins"))
    act(s, 0, A.Move("night", 0))
    assert p.position == 4 and s.acts == ["inn", "bazaar"]


def test_r14_the_oracle_die() -> None:
    """R14: the oracle die's six faces are 2 coins, a lantern, a quartz, a horseshoe, a basic
    good of your choice, 2 prestige."""
    faces = [f[0].model_dump(exclude_none=True, exclude_defaults=True) for f in C.board.oracle_die]
    assert faces == [
        {"coins": 2},
        {"lanterns": 1},
        {"quartz": 1},
        {"horseshoes": 1},
        {"any_good": True},
        {"prestige": 2},
    ]


def test_r16_heroes() -> None:
    """R16: 8 starting heroes and 40 normal; each type's destination is its town; at most one
    bonus icon; 1-3 requested goods."""
    assert sum(1 for h in C.heroes if h.starting) == 8
    for h in C.heroes:
        assert 1 <= len(h.requests) <= 3
        assert C.town[C.hero_town[h.type]].hero_type == h.type


def test_r18_an_empty_event_deck_is_reshuffled() -> None:
    """R18: when an event deck runs out, its discards are shuffled into a new deck."""
    s = started(1)
    s.discards["dark_road"] = s.decks["dark_road"][1:]
    s.decks["dark_road"] = []
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    assert s.travel["event"] and len(s.decks["dark_road"]) == 11


def test_r20_a_stray_alone_goes_under_the_deck() -> None:
    """R20: in a one-player game a used stray goes to the bottom of the companion deck."""
    s = started(1)
    p = s.players[0]
    p.companions = [{"id": "lil_dumplin", "used": []}]
    scenario.set_player(s, 0, horseshoes=1)
    act(s, 0, A.UseCompanion("lil_dumplin", "ruins_die"))
    assert s.decks["companions"][-1] == "lil_dumplin" and p.companions == []


def test_r22_others_see_route_town_and_companion_before_answering() -> None:
    """R22: the join question is a pending choice per other seat, in seat order, and the
    public view shows the route, the destination and the companion."""
    s = started(3)
    at_activate(s, 0, 3)
    scenario.set_player(s, 0, lanterns=3)
    comp = s.row[1]
    act(s, 0, A.Caravan(1, "shortcut", "nightpoem"))
    t = view(s, 2)["board"]["travel"]
    assert (t["route"], t["town"], t["companion"]) == ("shortcut", "nightpoem", comp)
    assert s.pending[0] == {"kind": "join", "seat": 1}


def test_r24_visits_in_order_each_independent() -> None:
    """R24: "simultaneously" is played leader first, then clockwise; each traveller's visit
    and deliveries touch only their own wagon, so the order changes nothing."""
    s = started(3)
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    act(s, 1, A.Join(True))
    act(s, 2, A.Join(True))
    seen = []
    while s.travel and s.travel["stage"] != "fortune":
        who, kind = s.pending[0]["seat"], s.pending[0]["kind"]
        if kind == "visit":
            seen.append(who)
            act(s, who, A.Visit(None))
        elif kind == "travel_die":
            act(s, who, A.TakeTravelDie(s.travel["dice"][0]))
        else:
            act(s, who, E.legal_actions(s, who)[0])
    assert seen == [0, 1, 2]


def test_r30_goods_supply_is_limited() -> None:
    """R30: 84 goods tiles, 14 per type; a good gained when its type has run out is not
    gained."""
    s = started(1)
    p = s.players[0]
    scenario.set_board(s, goods_supply={"armor": 0})
    scenario.gain_good(s, 0, "armor")
    assert p.incoming == []


def test_r32_a_hero_gives_its_bonus_however_it_joins() -> None:
    """R32: a hero that joins without a sale (ruins die, Snow Bee, the Candle & Quartz) still
    gives its bonus icon."""
    s = started(1)
    p = s.players[0]
    h = next(x.id for x in C.heroes if x.bonus == "horseshoe" and not x.starting)
    scenario.set_player(s, 0, horseshoes=0)
    scenario.join_hero(s, 0, h)
    assert p.horseshoes == 1


def test_r33_an_off_turn_good_is_stored_before_the_caravan_goes_on() -> None:
    """R33: a good gained on another player's caravan waits in its owner's `incoming` with a
    `store` choice, answered before the caravan goes on; meanwhile the owner may rearrange
    (R8: "rearrange the goods in your storage at any time to make room") though it is not
    their turn."""
    s = started(2)
    for p in s.players:
        p.steeds = ["velvet"]  # no steed changes the travel dice
    clear_goods(s, 1)
    pid = give(s, 1, "potion")
    at_activate(s, 0, 3)
    scenario.set_player(s, 0, lanterns=3)
    act(s, 0, A.Caravan(0, "shortcut", "farglen"))
    act(s, 1, A.Join(True))
    with pytest.raises(RuleError) as e:  # off-turn, with nothing to store: no rearranging
        act(s, 1, A.Rearrange((pid, 0, 4, 3, 0)))
    assert e.value.code == "pending_choice" and s.players[1].pieces[0]["x"] != 4
    event = next(
        e
        for e in C.events
        if len(e.faces[2]) == 1 and e.faces[2][0].good and e.faces[2][0].upgraded
    )
    s.travel["event"], s.travel["dice"] = event.id, [2, 2]
    good = event.faces[2][0].good
    assert s.pending == [{"kind": "travel_die", "seat": 1}]  # shortcut: the leader's left first
    act(s, 1, A.TakeTravelDie(2))
    q = s.players[1]
    assert q.incoming == [{"good": good, "up": True}] and s.turn_seat == 0
    assert s.pending == [{"kind": "store", "seat": 1}]
    with pytest.raises(RuleError) as e:
        act(s, 0, A.TakeTravelDie(2))
    assert e.value.code == "pending_choice"
    act(s, 1, A.Rearrange((pid, 0, 4, 3, 0)))
    assert (q.pieces[0]["x"], q.pieces[0]["y"]) == (4, 3)
    act(s, 1, A.PlaceGood())
    assert (good, True) in [(x["good"], x["up"]) for x in q.pieces] and q.incoming == []
    assert s.pending == [{"kind": "travel_die", "seat": 0}]


def test_r35_the_storage_upgrade_is_worth_one_vp() -> None:
    """R35: the storage upgrade (no benefit in the rulebook beyond its place in storage) is
    worth 1 VP at the final scoring; the other upgrades are worth none."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(s, 0, special=[], deeds=[])
    assert E.score(s, C, p)["vp"] == 0
    scenario.set_player(s, 0, upgrades=["lantern_upgrade"])
    assert E.score(s, C, p)["vp"] == 0
    scenario.set_player(s, 0, upgrades=["storage_upgrade"])
    assert E.score(s, C, p)["vp"] == 1


def test_r36_a_turn_activates_at_least_one_district() -> None:
    """R36: "Activate — Activate 1 or both of the districts that are now adjacent to your wagon
    pawn": the first activation is due (`must_activate`), the second and the building may be
    skipped."""
    s = started(2)
    at_activate(s, 0, 0, illuminated=True)
    before = s.to_dict()
    with pytest.raises(RuleError) as e:
        act(s, 0, A.EndTurn())
    assert e.value.code == "must_activate" and s.to_dict() == before
    assert A.EndTurn() not in E.legal_actions(s, 0)
    act(s, 0, A.Bazaar())
    act(s, 0, A.BazaarBuy())
    assert s.acts_left == 2 and A.EndTurn() in E.legal_actions(s, 0)
    act(s, 0, A.EndTurn())
    assert s.turn_seat == 1


def test_r36_no_activation_possible_rests() -> None:
    """R36: when neither adjacent district can be activated (the Commissions' stacks empty,
    no coin for the Dark Market), the turn rests without one."""
    s = started(2)
    for town in s.stacks:
        s.stacks[town] = []
    scenario.set_player(s, 0, coins=0)
    at_activate(s, 0, 1)
    assert s.acts == ["commissions", "dark_market"]
    assert [a.type for a in E.legal_actions(s, 0)] == ["end_turn"]
    act(s, 0, A.EndTurn())
    assert s.turn_seat == 1


def test_r36_rules_one_games_keep_optional_activations() -> None:
    """R36/R40: a game of rules edition 1 (stored before the change) still rests without an
    activation, so its stored log replays."""
    s = started(2, rules=1)
    at_activate(s, 0, 0, illuminated=True)
    act(s, 0, A.EndTurn())
    assert s.turn_seat == 1


def test_r20_companions_wait_for_the_action_in_progress() -> None:
    """R20 kept: "You may only trigger companion abilities on your own turn, but may do so at
    any time" read with Step 3's "you must fully resolve each action before moving to the
    next action": between actions of your turn (plan, move, activate), not while a choice of
    an action is open, your own caravan included (its travel-die abilities excepted)."""
    phoenix = next(x.id for x in C.companions if x.abilities[0] == "two_lanterns")
    s = started(2)
    scenario.set_companions(s, 0, [phoenix])
    scenario.set_player(s, 0, quartz=2, horseshoes=0, lanterns=0)
    use = A.UseCompanion(phoenix, "two_lanterns")
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    act(s, 1, A.Join(False))
    assert s.pending[0] == {"kind": "travel_die", "seat": 0}
    with pytest.raises(RuleError) as e:
        act(s, 0, use)
    assert e.value.code == "pending_choice"
    assert use not in E.legal_actions(s, 0)
    scenario.settle(s)
    while s.pending:
        seat = s.pending[0]["seat"]
        act(s, seat, E.legal_actions(s, seat)[0])
    assert s.step == "activate" and use in E.legal_actions(s, 0)
    act(s, 0, use)
    assert s.players[0].lanterns == 2


def test_r20_threy_cat_duplicates_any_travel_die() -> None:
    """R20 changed: Threy Cat "Duplicate the value of any travel die and gain the benefit
    shown": the benefit of the value of any die on the table (here 5: 1 prestige) besides
    your own die's (4: 2 coins)."""
    cat = next(x.id for x in C.companions if x.species == "threy_cat")
    s = started(2)
    scenario.set_companions(s, 0, [cat])
    scenario.set_player(s, 0, quartz=1, horseshoes=0)
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    act(s, 1, A.Join(False))
    scenario.set_travel(s, [4, 5], event="dark_1")
    listed = {(a.value, a.twin) for a in E.legal_actions(s, 0) if isinstance(a, A.TakeTravelDie)}
    assert {(4, None), (4, 4), (4, 5), (5, 4), (5, 5)} <= listed
    with pytest.raises(RuleError) as e:
        act(s, 0, A.TakeTravelDie(4, twin=6))
    assert e.value.code == "no_such_die"
    p = s.players[0]
    coins, prestige = p.coins, p.prestige
    act(s, 0, A.TakeTravelDie(4, twin=5))
    assert (p.coins, p.prestige, p.quartz) == (coins + 2, prestige + 1, 0)


def test_r20_old_threy_cat_commands_are_read() -> None:
    """R20/R40: a stored `twin: true` is read as the die taken (what it meant)."""
    cmd = A.parse({"type": "take_travel_die", "value": 3, "twin": True})
    assert cmd == A.TakeTravelDie(3, twin=3)
    assert A.parse({"type": "take_travel_die", "value": 3, "twin": False}).twin is None


def test_r38_mansion_trades_any_number() -> None:
    """R38: the Guildmaster's Mansion trades any number of items one for one, in one command
    (`gives[i]` for `gets[i]`)."""
    s = started(1)
    scenario.set_building(s, 0, "mansion")
    p = s.players[0]
    scenario.set_player(s, 0, coins=4, lanterns=0, quartz=0, horseshoes=0)
    at_activate(s, 0, 0, illuminated=True)
    trades = A.Building(
        "mansion", gives=("coins", "coins", "quartz"), gets=("quartz", "lantern", "lantern")
    )
    act(s, 0, trades)
    assert (p.coins, p.quartz, p.lanterns) == (0, 0, 2)


def test_r39_lose_good_lapses_without_goods() -> None:
    """R39: a cost "lose 1 good" with nothing left to lose is paid as far as possible: no
    choice is asked."""
    s = started(1)
    clear_goods(s, 0)
    lose = next(f for e in C.events for v in e.faces.values() for f in v if f.lose_good)
    scenario.apply_effect(s, 0, lose)
    assert not s.pending


@pytest.mark.parametrize("town", ["northbreak", "nightpoem"])
def test_r17_a_discarded_commission_goes_under_its_stack(town: str) -> None:
    """R17: "Place the discarded commission at the bottom of the matching commission stack"."""
    s = started(1)
    p = s.players[0]
    scenario.set_player(
        s, 0, commissions=[s.stacks[t].pop(0) for t in ("farglen", "windglass", "cursecairn")]
    )
    scenario.gain_commission(s, 0, town)
    new = p.commissions[-1]
    act(s, 0, A.DiscardCommission(new))
    assert s.stacks[town][-1] == new
    give(s, 0, "potion")
    store_all(s)


def test_every_ruling_names_existing_tests() -> None:
    """docs/rulings-darkroad.md: each of R1-R42 has a paragraph naming at least one test; every
    test it names exists and cites that ruling (its R-number) in its docstring."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "rulings-darkroad.md").read_text(encoding="utf-8")
    paragraphs = {
        int(m.group(1)): m.group(0)
        for m in re.finditer(r"\*\*R(\d+)\..*?(?=\n\*\*R\d+\.|\n## |\Z)", doc, re.DOTALL)
    }
    assert sorted(paragraphs) == list(range(1, 43))
    docstrings: dict[str, dict[str, str]] = {}
    for n, text in paragraphs.items():
        refs = re.findall(r"`(test_\w+\.py)::(test_\w+)`", text)
        assert refs, f"R{n} names no test"
        for file, name in refs:
            if file not in docstrings:
                tree = ast.parse((root / "tests" / "darkroad" / file).read_text(encoding="utf-8"))
                docstrings[file] = {
                    f.name: ast.get_docstring(f) or ""
                    for f in ast.walk(tree)
                    if isinstance(f, ast.FunctionDef)
                }
            assert name in docstrings[file], f"R{n}: no test {file}::{name}"
            assert re.search(rf"\bR{n}\b", docstrings[file][name]), f"{file}::{name} cites no R{n}"
