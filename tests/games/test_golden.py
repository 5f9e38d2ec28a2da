"""Stored games keep working: every golden log (tests/games/golden.py), recorded from
the engines before the game kit changed their commands, replays with today's engines to
the same views and events at every version, its old command JSON read as it was stored,
and each seat's listing the same commands once upcast."""

from __future__ import annotations

import contextlib

import pytest

from app.games import registry
from app.games.base import RuleError
from tests.games import golden

CASES = [(game_id, name) for game_id, cases in golden.CASES.items() for name, *_ in cases]


@pytest.mark.parametrize(("game_id", "name"), CASES)
def test_golden_log_replays_to_the_same_views(game_id: str, name: str) -> None:
    game = registry.get(game_id)
    assert game is not None
    log = golden.load(game_id, name)
    assert log["commands"], "a golden log holds a whole game"
    assert golden.replay_mismatches(game, log) == []


def test_a_changed_command_is_caught() -> None:
    """The check can fail: a log whose one command is swapped for a legal one of another
    type replays to other views (or is refused later on)."""
    game = registry.get("darkroad")
    assert game is not None
    log = golden.load("darkroad", "two")
    for index, frame in enumerate(log["frames"][:-1]):
        entry = log["commands"][index]
        kind = entry["command"]["type"]
        others = [c for c in frame["legal"][entry["seat"]] if c["type"] != kind]
        if others:
            log["commands"][index] = {"seat": entry["seat"], "command": others[0]}
            break
    with contextlib.suppress(RuleError):  # a later command no longer legal: caught too
        assert golden.replay_mismatches(game, log)
        return
    # refused: also a difference found


def test_a_changed_view_or_listing_is_caught() -> None:
    game = registry.get("karanor")
    assert game is not None
    log = golden.load("karanor", "two")
    log["frames"][5]["views"][1] = "0" * 20
    log["frames"][9]["legal"][0] = log["frames"][9]["legal"][0][1:]
    problems = golden.replay_mismatches(game, log)
    assert "version 5: views of viewers [1] differ" in problems
    assert "version 9: seat 0's listing differs" in problems
