"""The game's views per version, in-process: CPU per version and per view.

Plays seeded games through the `Game` protocol (`bot_move` for every seat, the salt
being the version, so bots also make and answer trade offers) and, at every version,
does what the platform's push does (`app/rooms/views.py: view_bytes`): the game's
`public_part` and `to_act` once, then for each of the seats (and a spectator with
`--spectator`) `view(state, seat, public)`, the platform's three keys, `dumps`.

    .venv/bin/python -m bench.views --game karanor --games 20
    .venv/bin/python -m bench.views --game darkroad --games 20 --fingerprint
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.views --game karanor --games 3 [--no-views]

CPU (`time.process_time`) covers only the views; it varies with the machine's load.
For a repeatable figure count instructions with callgrind: the whole run's total minus
the same run with `--no-views` (which plays the same games, building no view) is the
views' share; divide by the `versions` printed. Fix PYTHONHASHSEED: the interpreter's
string hashing moves the counts by a few percent from one run to the next.
`--fingerprint` prints the sha256 of every view's bytes in order (the byte-equality
tests in tests/*/test_view_bytes.py hold such a digest).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from app.games.registry import BUILTIN, load
from app.rooms.views import dumps


def versions(game_id: str, games: int, players: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """(game, state) at every version of `games` seeded games between bots, the
    state as it is after each command (and at version 0). Each state is mutated in
    place by the next command: use it before asking for the next."""
    game = load(BUILTIN[game_id])
    seats = frozenset(range(players))
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        options = game.normalise_options({"max_players": players})
        s = game.new_game(options, game_seed, [f"P{i + 1}" for i in range(players)])
        version = 0
        yield game, s
        while not game.is_over(s) and version < 3000:
            move = game.bot_move(s, seats, version)
            if move is None:
                break
            game.apply(s, move.seat, move.command)
            version += 1
            yield game, s


def views_of(
    game: Any, s: Any, version: int, viewers: list[int | None], clock: Callable[[], float]
) -> tuple[list[bytes], list[float]]:
    """What `view_bytes` does at one version, with the time of each part:
    [public_part + to_act, views, dumps]."""
    t0 = clock()
    public = game.public_part(s)
    to_act = game.to_act(s)
    t1 = clock()
    pictures = []
    for viewer in viewers:
        picture = game.view(s, viewer, public)
        picture["version"] = version
        picture.setdefault("game", game.id)
        picture["to_act"] = to_act
        pictures.append(picture)
    t2 = clock()
    out = [dumps(p) for p in pictures]
    t3 = clock()
    return out, [t1 - t0, t2 - t1, t3 - t2]


def run(
    game_id: str,
    games: int,
    *,
    players: int = 4,
    seed: int = 1,
    spectator: bool = False,
    build: bool = True,
    fingerprint: bool = False,
) -> dict[str, Any]:
    viewers: list[int | None] = list(range(players)) + ([None] if spectator else [])
    digest = hashlib.sha256()
    n_versions = n_bytes = 0
    parts = [0.0, 0.0, 0.0]
    clock = time.process_time
    for game, s in versions(game_id, games, players, seed):
        n_versions += 1
        if not build:
            continue
        out, times = views_of(game, s, s.commands, viewers, clock)
        for i, t in enumerate(times):
            parts[i] += t
        for data in out:
            if fingerprint:
                digest.update(data)
                digest.update(b"\n")
            n_bytes += len(data)
    total = sum(parts)
    n_views = n_versions * len(viewers)
    return {
        "game": game_id,
        "games": games,
        "players": players,
        "seed": seed,
        "viewers": len(viewers),
        "versions": n_versions,
        "views": n_views if build else 0,
        "bytes_per_view": round(n_bytes / n_views) if build and n_views else None,
        "cpu_us_per_version": round(total / n_versions * 1e6, 1) if build else None,
        "cpu_us_per_view": round(total / n_views * 1e6, 1) if build else None,
        "cpu_us_per_version_parts": {
            "public_part_and_to_act": round(parts[0] / n_versions * 1e6, 1),
            "views": round(parts[1] / n_versions * 1e6, 1),
            "dumps": round(parts[2] / n_versions * 1e6, 1),
        }
        if build
        else None,
        "fingerprint": digest.hexdigest() if build and fingerprint else None,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.views", description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="karanor", choices=("karanor", "darkroad"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spectator", action="store_true", help="also a spectator's view")
    ap.add_argument("--no-views", action="store_true", help="play the same games, build no view")
    ap.add_argument("--fingerprint", action="store_true", help="print only the sha256")
    args = ap.parse_args(argv)
    out = run(
        args.game,
        args.games,
        players=args.players,
        seed=args.seed,
        spectator=args.spectator,
        build=not args.no_views,
        fingerprint=args.fingerprint,
    )
    if args.fingerprint:
        print(out["fingerprint"])
        return
    print(json.dumps(out))


if __name__ == "__main__":
    main()
