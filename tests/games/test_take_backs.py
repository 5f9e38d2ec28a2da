"""Take-backs, game by game (`TakeBacks` in app/games/base.py, `KitGame.can_take_back`).

For every command type a game declares it may take back (`take_backs`), some position in
real games makes one that revealed nothing, and returning to the state kept before it gives
every seat and a spectator exactly the view they had. No command of another type is ever
undoable, nor one that drew from the RNG, changed a hidden pile or touched another seat.
"""

from __future__ import annotations

import collections
from typing import Any

import pytest

from app.games import registry
from app.games.kit.takeback import Marks
from app.karanor import scenario
from app.rooms import takeback

MAX_NOT_UNDOABLE = 12  # instances checked per type that may not be taken back


def views(game: Any, state: Any) -> list[dict[str, Any]]:
    public = game.public_part(state)
    return [game.view(state, seat, public) for seat in [*range(state.n), None]]


def explore(game_id: str, games: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    """Play games between bots; at each position try every command of the seats to act on
    a copy. Returns per type the undoable and the not undoable counts."""
    game = registry.get(game_id)
    assert game is not None
    undone: collections.Counter[str] = collections.Counter()
    kept: collections.Counter[str] = collections.Counter()
    for seed, players in games:
        state = game.new_game(
            game.normalise_options({"max_players": players}),
            seed,
            [f"P{i}" for i in range(players)],
        )
        for step in range(500):
            if game.is_over(state):
                break
            for seat in game.to_act(state):
                for wire in game.legal_actions(state, seat):
                    command = game.parse_command(wire)
                    kind = command.type
                    if undone[kind] >= 2 or (
                        kind not in game.take_backs and kept[kind] >= MAX_NOT_UNDOABLE
                    ):
                        continue
                    copy = game.from_dict(game.to_dict(state))
                    before = views(game, copy)
                    events, point = takeback.apply(game, copy, seat, command, True)
                    if point is None:
                        kept[kind] += 1
                        continue
                    assert kind in game.take_backs, (kind, events)
                    assert copy.rng == state.rng  # no die, no shuffle
                    for event in events:
                        assert event.get("seat", seat) == seat
                        # a private event only when it tells the seat its own count
                        assert "to" not in event or (
                            event["to"] == seat and event["type"] in game.own_private
                        ), event
                    undone[kind] += 1
                    # Taken back: every seat (and a spectator) sees what it saw before.
                    assert views(game, game.from_dict(point.before)) == before, kind
            move = game.bot_move(state, frozenset(range(state.n)), step)
            if move is None:
                break
            game.apply(state, move.seat, move.command)
            if set(undone) == set(game.take_backs) and step > 150:
                break
    return {"undone": undone, "kept": kept, "game": game}


@pytest.mark.parametrize(
    ("game_id", "games"),
    [("karanor", ((1, 2), (2, 3), (3, 3))), ("darkroad", ((1, 2), (2, 3)))],
)
def test_every_declared_type_is_taken_back_and_no_other(
    game_id: str, games: tuple[tuple[int, int], ...]
) -> None:
    found = explore(game_id, games)
    game = found["game"]
    # Every type the game declares was taken back somewhere, restoring every view...
    assert set(found["undone"]) == set(game.take_backs), sorted(
        set(game.take_backs) - set(found["undone"])
    )
    # ...and every other type met (draws, dice, trades, the end of a turn) never was.
    refused = set(found["kept"]) - set(game.take_backs)
    assert {"end_turn"} <= refused
    if game_id == "karanor":
        assert {"interact", "complete_quest", "draft_pick", "play_black_market"} <= refused
    else:
        assert {"caravan", "take_travel_die", "fortune", "inn", "ruins"} <= refused


def test_a_revealing_command_of_an_undoable_type_is_refused() -> None:
    """A move is a kind Karanor lets be taken back; the same move is refused when the RNG
    was drawn from, a hidden pile changed or another seat's state moved."""
    game = registry.get("karanor")
    assert game is not None
    state = scenario.position(2)
    seat = game.to_act(state)[0]
    wire = next(a for a in game.legal_actions(state, seat) if a["type"] == "move")
    command = game.parse_command(wire)
    clean = game.to_dict(state)
    events = game.apply(state, seat, command)
    assert game.can_take_back(clean, state, seat, command, events)
    drawn = {**clean, "rng": clean["rng"] ^ 1}  # as if it had rolled or shuffled
    assert not game.can_take_back(drawn, state, seat, command, events)
    turned = {**clean, "decks": {**clean["decks"], "quests": clean["decks"]["quests"][1:]}}
    assert not game.can_take_back(turned, state, seat, command, events)
    other = game.to_dict(state)
    other["players"][1 - seat]["gold"] += 1
    assert not game.can_take_back(
        {**clean, "players": other["players"]}, state, seat, command, events
    )
    shown = [*events, {"type": "drew", "to": seat, "cards": ["x"]}]
    assert not game.can_take_back(clean, state, seat, command, shown)


@pytest.mark.parametrize("game_id", ["karanor", "darkroad"])
def test_the_kept_copy_reads_as_the_state_and_marks_it_as_its_to_dict(game_id: str) -> None:
    """The copy kept before a command (`take_back_copy`, bytes until read) is the state's
    `to_dict`, and what `can_take_back` compares of it is what it compares of a `to_dict`:
    the fast path and the plain one agree, position after position."""
    game = registry.get(game_id)
    assert game is not None
    state = game.new_game(game.normalise_options({"max_players": 3}), 5, ["A", "B", "C"])
    keys = (*game.hidden_piles, *game.shared_choices)
    for step in range(120):
        if game.is_over(state):
            break
        for seat in range(state.n):
            copy = game.take_back_copy(state, seat)
            as_dict = game.to_dict(state)
            assert copy.marks == Marks.of_dict(as_dict, seat, keys)
            assert dict(copy) == as_dict
        move = game.bot_move(state, frozenset(range(state.n)), step)
        assert move is not None
        game.apply(state, move.seat, move.command)


@pytest.mark.parametrize(("game_id", "seed"), [("karanor", 11), ("darkroad", 12)])
def test_a_run_keeps_one_copy_and_judges_and_restores_as_copies_would(
    game_id: str, seed: int
) -> None:
    """The live path's stack (`takeback.apply` with the stack, `pushed`, `restore`): a run
    of one seat's commands keeps one copy, before its first; each later command, judged
    against the mark the one before it left, is found undoable exactly when a copy made
    before it says so; and the state a take-back returns to is, at every point and after
    take-backs in the middle of runs, the state before that command."""
    game = registry.get(game_id)
    assert game is not None
    state = game.new_game(game.normalise_options({"max_players": 3}), seed, ["A", "B", "C"])
    stack: list[takeback.Point] = []
    before: dict[int, dict[str, Any]] = {}  # version -> the state before the command
    version = 0
    chained = undone = 0
    for step in range(900):
        if game.is_over(state):
            break
        move = game.bot_move(state, frozenset(range(state.n)), step)
        assert move is not None
        seat, command = move.seat, move.command
        # The same command judged on a copy with a copy made before it: the reference.
        twin = game.from_dict(game.to_dict(state))
        _ev, reference = takeback.apply(game, twin, seat, command, True)
        before[version + 1] = game.to_dict(state)
        _ev, point = takeback.apply(game, state, seat, command, True, stack, version)
        assert (point is None) == (reference is None), (step, command)
        version += 1
        takeback.pushed(stack, point, version)
        if point is not None:
            # A copy, unless the point below was made by the command just before.
            follows = len(stack) > 1 and stack[-2].version == version - 1
            assert (stack[-1].before is None) == follows, step
            chained += follows
        assert not stack or stack[0].before is not None
        if stack:
            assert game.to_dict(takeback.restore(game, stack)) == before[stack[-1].version]
        # Now and then the seat takes back one or two of its run's commands and plays on.
        if len(stack) >= 2 and step % 3 == 0:
            for _ in range(1 + step % 2):
                target = stack[-1].version
                state = takeback.restore(game, stack)
                assert game.to_dict(state) == before[target]
                stack.pop()
                version += 1  # the take-back is a version of its own
                undone += 1
    assert chained >= 10 and undone >= 5, (chained, undone)


def test_a_dark_road_purchase_paid_in_coins_is_taken_back() -> None:
    """Dark Road's coins are behind the screen, so paying at the Bazaar sends the buyer a
    private `coins` event: to the buyer itself it reveals nothing (`own_private`), and the
    purchase may be taken back (it never could: every private event ended a chain). A
    private event of another kind, or coins told to another seat, still may not."""
    game = registry.get("darkroad")
    assert game is not None
    state = game.new_game(game.normalise_options({"max_players": 2}), 5, ["P0", "P1"])
    for step in range(2000):
        assert not game.is_over(state), "no paid Bazaar purchase in a whole game"
        seat = game.to_act(state)[0]
        enter = [w for w in game.legal_actions(state, seat) if w["type"] == "bazaar"]
        if not enter:
            move = game.bot_move(state, frozenset(range(state.n)), step)
            assert move is not None
            game.apply(state, move.seat, move.command)
            continue
        inside = game.from_dict(game.to_dict(state))
        game.apply(inside, seat, game.parse_command(enter[0]))
        for wire in game.legal_actions(inside, seat):
            if wire["type"] != "bazaar_buy":
                continue
            command = game.parse_command(wire)
            copy = game.from_dict(game.to_dict(inside))
            clean = game.to_dict(copy)
            events = game.apply(copy, seat, command)
            paid = [e for e in events if e["type"] == "coins" and e["delta"] < 0]
            if not paid:
                continue  # the free second good: nothing private
            assert all(e["to"] == seat for e in paid)
            assert game.can_take_back(clean, copy, seat, command, events)
            told = [{**e, "to": 1 - seat} if e["type"] == "coins" else e for e in events]
            assert not game.can_take_back(clean, copy, seat, command, told)
            shown = [*events, {"type": "deed_drawn", "seat": seat, "deed": "x", "to": seat}]
            assert not game.can_take_back(clean, copy, seat, command, shown)
            return
        move = game.bot_move(state, frozenset(range(state.n)), step)
        assert move is not None
        game.apply(state, move.seat, move.command)
