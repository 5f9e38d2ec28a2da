"""The Dark Road behind the platform's Game interface, bots and simulate."""

from __future__ import annotations

import json

import pytest

from app.darkroad.game import GAME
from app.games.base import Game, RuleError, info


def test_the_game_object_satisfies_the_interface() -> None:
    assert isinstance(GAME, Game) and GAME.id == "darkroad"
    json.dumps(info(GAME))
    json.dumps(GAME.catalogue())
    json.dumps(GAME.command_schema)
    assert GAME.normalise_options({})["max_players"] == 4


def test_refusals_are_the_platforms_rule_error() -> None:
    opts = GAME.normalise_options({"deed_choice": True})
    s = GAME.new_game(opts, 4, ["a", "b"])
    with pytest.raises(RuleError) as e:
        GAME.apply(s, 1, GAME.parse_command({"type": "end_turn"}))
    assert e.value.code == "pending_choice"
    with pytest.raises(RuleError) as e:
        GAME.parse_command({"type": "warp"})
    assert e.value.code == "unknown_command"
    with pytest.raises(RuleError):
        GAME.normalise_options({"max_players": 9})


def test_bots_play_a_whole_game_through_the_interface() -> None:
    """A room may fill every seat with bots (ruling R29): bot_move drives a game to its end."""
    s = GAME.new_game(GAME.normalise_options({}), 8, ["a", "b", "c"])
    steps = 0
    while not GAME.is_over(s):
        move = GAME.bot_move(s, frozenset({0, 1, 2}), steps)
        assert move is not None
        before = GAME.to_dict(s)
        again = GAME.bot_move(s, frozenset({0, 1, 2}), steps)
        assert again == move and GAME.to_dict(s) == before  # deterministic, state untouched
        events = GAME.apply(s, move.seat, GAME.parse_command(GAME.command_json(move.command)))
        for seat in (0, 1, 2, None):
            GAME.events_for(events, seat)
        steps += 1
    assert GAME.to_act(s) == [] and GAME.bot_move(s, frozenset({0}), 0) is None
    pub = GAME.public_part(s)
    assert GAME.view(s, None, pub)["result"]["winners"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_greedy_games_finish(players: int) -> None:
    """Issue: simulate finishes 100% of greedy games at 1, 2, 3 and 4 players."""
    out = GAME.simulate(3, players, seed=11, bots="greedy")
    assert out["finished"] == out["games"] == 3
    assert {"games", "finished", "commands", "seconds", "games_per_second"} <= set(out)


def test_random_games_finish() -> None:
    out = GAME.simulate(8, 4, seed=2, bots="random")
    assert out["finished"] == 8
