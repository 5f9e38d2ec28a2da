"""Prestige Ascension and rulings R16, R17."""

from __future__ import annotations

from app.karanor import effects as fx
from tests.karanor.scenario import MINI, first, give_turn, kinds, play, put


def buy_villa(s, seat, villa):
    where = {"villa_tower": "tower", "villa_isle": "isle"}[villa]
    put(s, seat, position=where, gold=8)
    return play(s, seat, {"type": "buy_villa", "villa": villa})


def test_black_market_card_on_reaching_three(s2):
    """Prestige Ascension: "as soon as a player reaches 3 and then 6 prestige points, they
    receive a Black Market card"."""
    put(s2, 0, prestige=2)
    top = s2.decks["black_market"][-1]
    events = buy_villa(s2, 0, "villa_tower")
    assert s2.players[0].prestige == 3
    assert s2.players[0].black_market == [top] and s2.players[0].ascended == [3]
    assert first(events, "ascension") == {"type": "ascension", "seat": 0, "threshold": 3}


def test_black_market_card_on_reaching_six(s2):
    """Prestige Ascension: "reaches 3 and then 6 prestige points"."""
    put(s2, 0, prestige=5, ascended=[3])
    buy_villa(s2, 0, "villa_tower")
    assert len(s2.players[0].black_market) == 1 and s2.players[0].ascended == [3, 6]


def test_jumping_over_both_thresholds_gives_two_cards(s2):
    """Prestige Ascension: "as soon as a player reaches 3 and then 6 prestige points"
    (R16: jumping from 2 to 7 in one step gives both cards)."""
    p = put(s2, 0, prestige=2)
    events: list = []
    fx.gain_prestige(s2, MINI, p, 5, events)
    assert p.prestige == 7 and len(p.black_market) == 2 and p.ascended == [3, 6]
    assert kinds(events).count("ascension") == 2


def test_losing_and_regaining_gives_no_second_card(s2):
    """Prestige Ascension: "If a player loses prestige points and then reaches the 3rd or
    6th prestige point a second time, they do not receive a second Black Market card"
    (R17)."""
    put(s2, 0, prestige=2)
    buy_villa(s2, 0, "villa_tower")
    assert len(s2.players[0].black_market) == 1
    give_turn(s2, 1)
    put(s2, 1, black_market=["bm_scandal"])
    play(s2, 1, {"type": "play_black_market", "card": "bm_scandal", "target": 0})
    assert s2.players[0].prestige == 2
    give_turn(s2, 0)
    events = buy_villa(s2, 0, "villa_isle")
    assert s2.players[0].prestige == 3
    assert len(s2.players[0].black_market) == 1 and "ascension" not in kinds(events)


def test_prestige_never_below_zero(s2):
    """End of the Game: "If a player loses prestige points" (R17: the floor is 0)."""
    put(s2, 0, black_market=["bm_scandal"])
    events = play(s2, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 1})
    assert s2.players[1].prestige == 0 and "prestige" not in kinds(events)
