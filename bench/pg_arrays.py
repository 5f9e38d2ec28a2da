"""What psycopg's two formats cost for the group commit's JSON arrays (PostgreSQL).

    .venv/bin/python -m bench.pg_arrays            # a mid-game Karanor snapshot, 1/10/50 copies

The group statement (`app.store.repo._GROUP_SQL`) sends a group's snapshots, commands and
events as arrays of JSON text. In psycopg's text format every `"` and `\\` of every
document is escaped for the array literal by a Python callback of `re.sub`; in the binary
format (`%b`) each element goes as its length and its bytes. This times one round trip of
`SELECT array_length(%s::json[], 1)` with each, medians of 9, on the local database.
"""

from __future__ import annotations

import statistics
import time

import orjson
import psycopg

from app.games import registry
from bench.load import POSTGRES_BASE, POSTGRES_USERS


def snapshot(versions: int = 150) -> str:
    """A Karanor game's stored snapshot after `versions` greedy-bot moves (4 seats)."""
    game = registry.get("karanor")
    assert game is not None
    state = game.new_game(game.normalise_options({}), 1, ["a", "b", "c", "d"])
    for version in range(versions):
        move = game.bot_move(state, frozenset(range(4)), version)
        if move is None:
            break
        game.apply(state, move.seat, move.command)
    return orjson.dumps(game.to_dict(state)).decode()


def connect() -> psycopg.Connection:
    for user in POSTGRES_USERS:
        try:
            return psycopg.connect(POSTGRES_BASE.format(user=user), autocommit=True)
        except psycopg.Error:
            continue
    raise SystemExit("PostgreSQL not reachable at 127.0.0.1:5432/test")


def main() -> int:
    doc = snapshot()
    print(f"snapshot: {len(doc)} characters, {doc.count(chr(34))} quotes")
    with connect() as conn:
        for copies in (1, 10, 50):
            line = [f"{copies:>3} documents:"]
            for marker, name in (("%s", "text"), ("%b", "binary")):
                times = []
                for _ in range(9):
                    t = time.perf_counter()
                    conn.execute(f"SELECT array_length({marker}::json[], 1)", ([doc] * copies,))
                    times.append((time.perf_counter() - t) * 1000)
                line.append(f"{name} {statistics.median(times):.2f} ms")
            print("  ".join(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
