"""Replays (app/rooms/history.py): what opening the replay of a long game costs, and one step.

    .venv/bin/python -m bench.replay [--game karanor|darkroad] [--players N] [--seed S]

Plays one whole game between the game's bots in process, then, as the server does for
`GET /api/rooms/{code}/view?at=V`: builds the history from the deal (the first request of a
game: the whole log replayed, a checkpoint every 16 versions), then asks for versions at
random (a jump) and one after another (a step), each with the spectator's view built; and
what take-backs add to applying a command on the live path. Prints
one JSON line of figures (milliseconds); never fails on timing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from app.games import registry
from app.rooms import history, takeback


@dataclass(frozen=True, slots=True)
class Row:
    version: int
    seat: int
    command: dict[str, Any]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="karanor")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    game = registry.get(args.game)
    assert game is not None
    options = game.normalise_options({"max_players": args.players})
    names = [f"P{i}" for i in range(args.players)]
    state = game.new_game(options, args.seed, names)
    rows: list[Row] = []
    while not game.is_over(state) and len(rows) < 5000:
        move = game.bot_move(state, frozenset(range(args.players)), len(rows))
        if move is None:
            break
        game.apply(state, move.seat, move.command)
        rows.append(Row(len(rows) + 1, move.seat, game.command_json(move.command)))

    # What take-backs add to each command on the live path (the copy kept before a kind
    # that may be taken back, the check after): the same commands applied both ways.
    plain_state = game.new_game(options, args.seed, names)
    t0 = time.perf_counter()
    for row in rows:
        game.apply(plain_state, row.seat, game.parse_command(row.command))
    plain_ms = (time.perf_counter() - t0) * 1000
    kept_state = game.new_game(options, args.seed, names)
    t0 = time.perf_counter()
    for row in rows:  # a copy before every command that may be taken back (no stack)
        takeback.apply(game, kept_state, row.seat, game.parse_command(row.command), True)
    kept_ms = (time.perf_counter() - t0) * 1000
    # The live path: the stack kept, one copy for a run of one seat's commands.
    run_state = game.new_game(options, args.seed, names)
    stack: list[takeback.Point] = []
    t0 = time.perf_counter()
    for row in rows:
        command = game.parse_command(row.command)
        _ev, point = takeback.apply(
            game, run_state, row.seat, command, True, stack, row.version - 1
        )
        takeback.pushed(stack, point, row.version)
    run_ms = (time.perf_counter() - t0) * 1000

    started = time.perf_counter()
    h = history.start(game, options, args.seed, names)
    h.extend(rows)
    build_ms = (time.perf_counter() - started) * 1000

    def view_at(v: int) -> float:
        t0 = time.perf_counter()
        s = h.at(v)
        game.view(s, None, game.public_part(s))
        return (time.perf_counter() - t0) * 1000

    rng = random.Random(1)
    jumps = [view_at(rng.randrange(len(rows) + 1)) for _ in range(200)]
    steps = [view_at(v) for v in range(len(rows) // 2, min(len(rows), len(rows) // 2 + 200))]
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "versions": len(rows),
                "finished": game.is_over(state),
                "open_ms": round(build_ms, 1),
                "jump_ms_p50": round(statistics.median(jumps), 2),
                "jump_ms_p95": round(sorted(jumps)[int(len(jumps) * 0.95)], 2),
                "step_ms_p50": round(statistics.median(steps), 2),
                "apply_ms_per_command": round(plain_ms / len(rows), 3),
                "apply_with_take_backs_ms_per_command": round(run_ms / len(rows), 3),
                "apply_with_a_copy_each_ms_per_command": round(kept_ms / len(rows), 3),
                "checkpoints": len(h.checkpoints),
                "checkpoint_kb": round(sum(map(len, h.checkpoints.values())) / 1024, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
