"""Views and events: no seat sees another's secrets (ruling R28)."""

from __future__ import annotations

import json

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.view import events_for, public_part, view
from tests.darkroad.helpers import act, at_activate, started


def test_coins_and_deeds_are_behind_the_screen() -> None:
    """Setup 15: coins "behind your player screen"; Deeds: "do not reveal them to your
    opponents until the game ends" (ruling R28: others see no coin count, only how many
    deeds)."""
    s = started(3)
    pub = public_part(s)
    for seat in (0, 1, 2, None):
        v = view(s, seat, public=pub)
        for p in v["players"]:
            assert "coins" not in p and "deeds" not in p and p["deed_count"] == 1
        text = json.dumps(v)
        for other in s.players:
            if other.seat != seat:
                assert other.deeds[0] not in text
    mine = view(s, 1, public=pub)["private"]
    assert mine["coins"] == s.players[1].coins and mine["deeds"] == s.players[1].deeds
    assert view(s, None, public=pub)["private"] is None


def test_no_deck_order_no_rng() -> None:
    """Commissions: "Only the top commission in each stack should ever be visible"; decks are face
    down; the RNG state and the seed stay in the engine (ruling R17: only each stack's top in a
    view; ruling R28: no deck order, seed nor RNG state)."""
    s = started(2)
    text = json.dumps(view(s, 0))
    for town, stack in s.stacks.items():
        assert all(k not in text for k in stack[1:]), town
    for deck in ("heroes", "deeds", "companions", "dark_road", "shortcut"):
        assert all(x not in text for x in s.decks[deck]), deck
    assert str(s.rng) not in text and '"seed"' not in text


def test_private_events() -> None:
    """Coin changes and deeds drawn are told only to their seat (ruling R28: coin events reach only
    their seat)."""
    s = started(2)
    at_activate(s, 0, 1)
    scenario.set_player(s, 0, coins=5)
    ev = act(s, 0, A.DarkMarket(4, deed=-1))
    public = events_for(ev, 1)
    assert all(e.get("to") in (None, 1) for e in public)
    assert not any(e["type"] in ("coins", "deed_drawn") for e in public)
    mine = events_for(ev, 0)
    assert any(e["type"] == "deed_drawn" for e in mine)
    assert not any("to" in e for e in events_for(ev, None))


def test_a_seat_lists_only_its_own_decisions() -> None:
    """Pending choices belong to one seat; others list nothing (including off-turn joins)."""
    s = started(3)
    at_activate(s, 0, 3)
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    assert E.to_act(s) == [1]
    assert E.legal_actions(s, 0) == [] and E.legal_actions(s, 2) == []
    assert {a.type for a in E.legal_actions(s, 1)} == {"join"}
    v = view(s, 1)
    assert v["private"]["pending"] == {"kind": "join", "seat": 1}
    assert v["turn"]["pending"] == {"seat": 1, "kind": "join"}


def test_public_events_reach_every_seat() -> None:
    """Only events marked with a "to" seat are private (`view.events_for`): a move or a
    market die's new face is public, so no public event may carry a "to" field (a move
    once named its space "to" and reached only the seat of that number)."""
    import random

    from app.darkroad import game as dr_game

    game = dr_game.GAME
    state = game.new_game(game.normalise_options({}), 5, ["A", "B", "C"])
    rng = random.Random(5)
    public_types: set[str] = set()
    for _ in range(400):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        actions = game.legal_actions(state, seat)
        events = game.apply(state, seat, game.parse_command(rng.choice(actions)))
        for e in events:
            if "to" in e:
                assert isinstance(e["to"], int) and e["type"] not in ("moved", "market_die_changed")
            else:
                public_types.add(e["type"])
    assert "moved" in public_types
