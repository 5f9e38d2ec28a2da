"""End of the Game and rulings R21-R23."""

from __future__ import annotations

import pytest

from app.karanor import effects as fx
from app.karanor import engine
from app.karanor.state import ACTION, GAME_OVER
from app.karanor.view import view
from tests.karanor.scenario import MINI, give_turn, kinds, legal, play, put, refuse, scenario


def reach_by_villa(s, seat, prestige_before, villa="villa_tower"):
    where = {"villa_tower": "tower", "villa_isle": "isle"}[villa]
    put(s, seat, position=where, gold=8, prestige=prestige_before, ascended=[3, 6])
    return play(s, seat, {"type": "buy_villa", "villa": villa})


def finish(s, prestige, gold):
    """Set the scores, trigger the end and close the last turn of the round."""
    for p, pr, g in zip(s.players, prestige, gold, strict=True):
        put(s, p.seat, prestige=pr, gold=g)
    s.end_triggered_by = 0
    give_turn(s, s.n - 1)
    return play(s, s.n - 1, {"type": "end_turn"})


@pytest.mark.parametrize(
    ("n", "options", "threshold"),
    [
        (2, {}, 10),
        (3, {}, 10),
        (4, {}, 10),
        (5, {}, 9),
        (6, {}, 8),
        (2, {"end_prestige": 5}, 5),
        (6, {"end_prestige": 12}, 12),
    ],
)
def test_threshold_by_number_of_players(n, options, threshold):
    """End of the Game: "The first player to reach 10 prestige points triggers the end of the game";
    Notes for 5 and 6 Players: "5 players ... 9 prestige points", "6 players ... 8 prestige points";
    a room may set its own threshold (R21: 10 / 9 / 8, or the room's `end_prestige`)."""
    s = scenario(n, **options)
    assert fx.end_prestige(s, MINI) == threshold
    reach_by_villa(s, 0, threshold - 2)
    assert s.players[0].prestige == threshold - 1 and s.end_triggered_by is None
    give_turn(s, 1)
    events = reach_by_villa(s, 1, threshold - 1, "villa_isle")
    assert s.end_triggered_by == 1
    assert {"type": "end_triggered", "seat": 1, "prestige": threshold} in events
    assert s.phase == ACTION


def test_play_continues_until_the_start_seat(s3):
    """End of the Game: "Play continues until the start of the turn of the player who began
    the game, so that everyone has played the same number of turns" (R21)."""
    give_turn(s3, 1)
    reach_by_villa(s3, 1, 9)
    assert s3.end_triggered_by == 1 and s3.phase == ACTION
    play(s3, 1, {"type": "end_turn"})
    assert s3.turn_seat == 2 and s3.phase == ACTION
    put(s3, 2, revenue=2)
    play(s3, 2, {"type": "work"})
    events = play(s3, 2, {"type": "end_turn"})
    assert s3.phase == GAME_OVER
    assert s3.players[2].gold == 3  # the last turn's revenue is collected
    assert kinds(events)[-1] == "game_over"
    assert engine.outcome(s3).winners == (1,)
    assert s3.result == {
        "winners": [1],
        "scores": [
            {"seat": 0, "prestige": 0, "gold": 0},
            {"seat": 1, "prestige": 10, "gold": 0},
            {"seat": 2, "prestige": 0, "gold": 3},
        ],
    }


def test_trigger_by_the_start_player_gives_everyone_a_last_turn(s3):
    """End of the Game: "so that everyone has played the same number of turns" (R21)."""
    reach_by_villa(s3, 0, 9)
    play(s3, 0, {"type": "end_turn"})
    play(s3, 1, {"type": "end_turn"})
    assert s3.phase == ACTION and s3.turn_seat == 2
    play(s3, 2, {"type": "end_turn"})
    assert s3.phase == GAME_OVER


def test_end_triggered_off_turn(s3):
    """R21: the end is triggered when a merchant reaches the threshold "at any moment, even
    off-turn"; the round still ends before the start player's turn."""
    events: list = []
    fx.gain_prestige(s3, MINI, put(s3, 2, prestige=9), 1, events)
    assert s3.end_triggered_by == 2
    for seat in (0, 1):
        play(s3, seat, {"type": "end_turn"})
    assert s3.phase == ACTION
    play(s3, 2, {"type": "end_turn"})
    assert s3.phase == GAME_OVER


def test_no_command_after_the_game(s2):
    """End of the Game: "At the end of the last turn, the player with the most prestige
    points wins the game": nothing more is played."""
    put(s2, 0, partners={"wood": False}, black_market=["bm_windfall"], artifacts=["art_lamp"])
    finish(s2, prestige=[10, 4], gold=[0, 0])
    for seat, cmd in [
        (0, {"type": "work"}),
        (1, {"type": "end_turn"}),
        (0, {"type": "promote_partner", "resource": "wood"}),
        (0, {"type": "play_black_market", "card": "bm_windfall"}),
        (0, {"type": "use_artifact", "artifact": "art_lamp"}),
        (0, {"type": "choose_artifact", "artifact": "art_lamp"}),
        (1, {"type": "offer", "to": [0], "give": {}, "want": {"gold": 1}}),
        (1, {"type": "accept", "offer": 1}),
    ]:
        refuse(s2, seat, cmd, "game_over")
    assert legal(s2, 0) == [] and legal(s2, 1) == []
    assert view(s2, 0)["status"] == "finished"


def test_most_prestige_wins(s3):
    """Goal of the Game: "The player with the most prestige points at the end of the game
    wins"; End of the Game: "Points may end above or below 10"."""
    finish(s3, prestige=[9, 11, 10], gold=[30, 0, 5])
    assert engine.outcome(s3).winners == (1,)


def test_gold_breaks_a_prestige_tie(s3):
    """End of the Game: "In case of a prestige tie, the amount of gold coins owned breaks
    the tie between the most prestigious merchants" (R23)."""
    finish(s3, prestige=[10, 10, 3], gold=[4, 6, 40])
    assert engine.outcome(s3).winners == (1,)


def test_remaining_tie_is_shared(s3):
    """End of the Game: ties on prestige then gold (R23: a remaining tie is a shared
    victory)."""
    finish(s3, prestige=[10, 7, 10], gold=[5, 9, 5])
    assert engine.outcome(s3).winners == (0, 2)
    assert s3.result["winners"] == [0, 2]


def test_outcome_none_while_playing(s2):
    """End of the Game: the winner is known only "At the end of the last turn"."""
    assert engine.outcome(s2) is None


def test_trades_forbidden_after_the_trigger(s2):
    """Trading Between Players: "As soon as a player reaches the maximum number of prestige
    points, all trades become forbidden until the game ends" (R22: open offers close)."""
    put(s2, 1, gold=3)
    play(s2, 1, {"type": "offer", "to": [0], "give": {"gold": 1}, "want": {}})
    events = reach_by_villa(s2, 0, 9)
    assert s2.offers[0]["status"] == "closed"
    assert {"type": "offers_closed", "status": "closed"} in events
    refuse(s2, 0, {"type": "accept", "offer": 1}, "trading_closed")
    refuse(s2, 1, {"type": "offer", "to": [0], "give": {"gold": 1}, "want": {}}, "trading_closed")
    play(s2, 0, {"type": "end_turn"})
    play(s2, 1, {"type": "end_turn"})
    assert s2.phase == GAME_OVER and s2.offers[0]["status"] == "closed"
