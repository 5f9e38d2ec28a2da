"""Property test: seeded random games (150; 500 with KARANOR_SOAK=1), invariants checked
after every command.

Goods, dice, lanterns, quartz, horseshoes and cards are conserved; storage is always legal;
no count is negative; the wagon's limits hold once the owner's choices are made; every
listed legal action applies (all of them in the first games, a sample later); replaying the
log rebuilds the state; no view carries another seat's secrets (deeds, coins, deck order).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from app.darkroad import actions as A
from app.darkroad import bots
from app.darkroad import engine as E
from app.darkroad import storage as st
from app.darkroad.content import load
from app.darkroad.state import OVER, PLAY, State
from app.darkroad.view import public_part, view
from tests.helpers.walk import strings

C = load()
# The suite plays 150 games; a soak run 500: KARANOR_SOAK=1 .venv/bin/pytest tests/darkroad/test_property.py
GAMES = 500 if os.environ.get("KARANOR_SOAK") else 150
FULL_GAMES = 6  # every legal action tried and every view checked at every command
SAMPLE_EVERY = 7  # later games: one more legal action tried on a copy every 7 commands


def pending_of(s: State, seat: int, kind: str) -> bool:
    return any(x["seat"] == seat and x["kind"] == kind for x in s.pending)


def check(s: State) -> None:
    sup = C.board.supply
    players = s.players
    for g in C.goods:
        held = sum(1 for p in players for q in p.pieces if q["good"] == g)
        held += sum(1 for p in players for x in p.incoming if x["good"] == g)
        assert s.goods_supply[g] + held == C.board.goods_per_type, g
        assert s.goods_supply[g] >= 0
    night = sum(
        len(p.reserve)
        + sum(1 for d in p.locked if d is not None)
        + len(p.spent)
        + (p.pool_night is not None)
        for p in players
    )
    assert s.supply["night"] + night == sup["night"]
    ill = sum(len(p.special) + (p.pool_illuminated is not None) for p in players)
    assert s.supply["illuminated"] + ill == sup["illuminated"]
    travel = sum(s.row_die) + (s.travel or {}).get("dice_held", 0) * (
        (s.travel or {}).get("stage") == "dice"
    )
    assert s.supply["travel"] + travel == sup["travel"]
    gifts = sum(E.loyal_gifts(C, p) for p in players)  # quartz given to loyal companions
    for kind in ("lanterns", "quartz", "horseshoes"):
        given = gifts if kind == "quartz" else 0
        assert s.supply[kind] + sum(getattr(p, kind) for p in players) + given == sup[kind], kind
        assert s.supply[kind] >= 0
    # cards
    normal = {h.id for h in C.heroes if not h.starting}
    heroes = s.decks["heroes"] + [h for h in s.inn if h]
    heroes += [h for p in players for h in p.heroes + p.delivered_heroes]
    assert len(heroes) == len(set(heroes))  # a discarded starting hero joins the deck
    assert sorted(h for h in heroes if h in normal) == sorted(normal)
    comps = s.decks["companions"] + [x for x in s.row if x]
    comps += [x["id"] for p in players for x in p.companions]
    assert sorted(comps) == sorted(x.id for x in C.companions)
    deeds = s.decks["deeds"] + [d for d in s.courtyard if d] + [d for p in players for d in p.deeds]
    deeds += [d for x in s.pending if x["kind"] == "keep_deed" for d in x["options"]]
    assert sorted(deeds) == sorted(d.id for d in C.deeds)
    events = s.decks["dark_road"] + s.decks["shortcut"] + s.discards["dark_road"]
    events += s.discards["shortcut"]
    if s.travel and s.travel.get("event") and s.travel["stage"] in ("join", "dice"):
        events.append(s.travel["event"])
    assert sorted(events) == sorted(e.id for e in C.events)
    coms = [k for v in s.stacks.values() for k in v]
    coms += [k for p in players for k in p.commissions + p.delivered_commissions]
    assert sorted(coms) == sorted(k.id for k in C.commissions)
    ups = s.upgrades_track + [u for p in players for u in p.upgrades]
    assert sorted(ups) == sorted(u.id for u in C.upgrades)
    if s.phase == PLAY:
        steeds = s.unused_steeds + [x for p in players for x in p.steeds]
        assert sorted(steeds) == sorted(x.id for x in C.steeds)
    for p in players:
        assert st.legal(C, p), f"seat {p.seat} storage"
        assert len({q["id"] for q in p.pieces}) == len(p.pieces)
        for v in (p.coins, p.prestige, p.lanterns, p.quartz, p.horseshoes, p.removed):
            assert v >= 0
        assert len(p.special) <= 2
        assert p.lanterns <= E.lantern_slots(C, p)
        assert len(p.heroes) <= 3 or pending_of(s, p.seat, "hero_overflow")
        assert len(p.commissions) <= 3 or pending_of(s, p.seat, "commission_overflow")
        assert p.quartz + p.horseshoes <= E.inventory_slots(C, p) or pending_of(
            s, p.seat, "inventory_overflow"
        )
        assert not p.incoming or pending_of(s, p.seat, "store")


def check_views(s: State) -> None:
    pub = public_part(s)
    for seat in [*range(s.n), None]:
        v = view(s, seat, public=pub, with_legal=seat is not None)
        seen = set(strings(v))
        for p in v["players"]:
            assert "coins" not in p and "deeds" not in p
        for other in s.players:
            if other.seat != seat and s.phase != OVER:
                assert not seen & set(other.deeds), (seat, other.seat)
        for deck in ("heroes", "deeds", "companions", "dark_road", "shortcut"):
            assert not seen & set(s.decks[deck]), deck
        for stack in s.stacks.values():
            assert not seen & set(stack[1:])


@pytest.mark.parametrize("chunk", range(5))
def test_random_games(chunk: int) -> None:
    per = GAMES // 5
    for g in range(chunk * per, (chunk + 1) * per):
        r = random.Random(g)
        n = 1 + g % 4
        opts: dict[str, Any] = {
            "deed_choice": g % 3 == 0,
            "drafting": g % 5 == 1,
            "buildings": "random" if g % 2 else "first_game",
        }
        s = E.new_game(opts, g, [f"p{i}" for i in range(n)])
        players = [bots.RandomBot(g * 10 + i) for i in range(n)]
        log: list[tuple[int, dict[str, Any]]] = []
        full = g < FULL_GAMES
        while s.phase != OVER:
            seat = E.to_act(s)[0]
            acts = E.legal_actions(s, seat)
            assert acts, (s.phase, s.step, s.pending[:1])
            if full or len(log) % SAMPLE_EVERY == 0:
                tries = acts if full else [r.choice(acts)]
                for a in tries:
                    t = s.copy()
                    E.apply(t, seat, a)
            cmd = players[seat].decide(s, seat, acts)
            log.append((seat, A.to_json(cmd)))
            E.apply(s, seat, cmd)
            check(s)
            if full or len(log) % 40 == 0:
                check_views(s)
            assert len(log) < 4000
        assert s.result and s.result["winners"]
        again = E.new_game(opts, g, [f"p{i}" for i in range(n)])
        for seat, cmd in log:
            E.apply(again, seat, cmd)
        assert again.to_dict() == s.to_dict()
