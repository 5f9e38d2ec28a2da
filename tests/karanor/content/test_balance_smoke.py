"""Whole games of the base pack between bots: they end, and the tallies add up.

The balance figures themselves (docs/balance.md) come from long runs of
`karanor simulate --stats`; these tests only keep the pack playable."""

from __future__ import annotations

import pytest

from app.karanor import bots
from app.karanor.engine import apply, legal_actions, new_game, to_act
from app.karanor.game import GAME


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_games_of_the_base_pack_end(players: int) -> None:
    out = GAME.simulate(6, players, seed=11, bots="greedy", stats=True)
    assert out["finished"] == 6
    assert 6 <= out["median_rounds"] <= 25
    assert sum(out["wins_by_position"]) >= 6
    tally = out["tally"]
    assert tally["quest_drawn"] and tally["business_built"]
    assert set(out["prestige_share"]) <= {
        "quests",
        "businesses",
        "deliveries",
        "villas",
        "black_market",
        "artifacts",
        "other",
    }


def test_greedy_beats_random() -> None:
    wins = 0
    for g in range(6):
        s = new_game({"start_seat": g % 2}, 500 + g, ["greedy", "random"])
        bots.play(s, [bots.GreedyBot(g), bots.RandomBot(g)], max_rounds=60)
        if s.result and 0 in s.result["winners"]:
            wins += 1
    assert wins >= 5


def test_greedy_only_chooses_listed_commands() -> None:
    s = new_game({}, 42, ["a", "b", "c"])
    bot = bots.GreedyBot(1)
    for _ in range(300):
        if s.phase == "game_over":
            break
        seat = to_act(s)[0]
        acts = legal_actions(s, seat)
        cmd = bot.decide(s, seat, acts)
        assert cmd in acts
        apply(s, seat, cmd)
