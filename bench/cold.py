"""Cold rooms: how long a room evicted from memory takes to come back (snapshot + log replay).

    .venv/bin/python -m bench.cold                                # both games, SQLite
    .venv/bin/python -m bench.cold --lengths 20,500,2000 --loads 30
    .venv/bin/python -m bench.cold --db postgres

In-process, no server: a real `RoomService` on a fresh database (SQLite file, or a fresh
PostgreSQL schema as in `bench.load`). For each game and each log length L, a room of 4
people is started and played through the ordinary command path (each move the game's
own bot would make) until its log holds L commands (Karanor with `end_prestige` 30, the
longest game; a game that ends first is noted; the default lengths are 19 past a
snapshot, the longest replay a load can have). Then, `--loads` times per room, the room
is evicted (`RoomService.forget`: what the idle eviction does) and loaded again as the
next command would load it, timed on the event loop: the room looked up (`cache.get`)
and its game rebuilt under the room's lock (`CommandPath.live`: snapshot + the log rows
after it). `first_view` adds the first seat's view built from the fresh copy (what a
socket reconnecting to a cold room waits for). A breakdown of one load per room (each
step timed alone, in the worker thread) shows where the time goes.

The last line printed is one JSON object with every figure. Timings are wall-clock on a
shared machine: read them with the load average printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

if __package__ in (None, ""):  # `python bench/cold.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import Settings  # noqa: E402
from app.rooms import loading, takeback, views  # noqa: E402
from app.rooms.model import Room  # noqa: E402
from app.rooms.service import RoomService  # noqa: E402
from app.store import migrate, repo  # noqa: E402
from app.store.db import create_db_engine, read_connection  # noqa: E402
from bench.load import make_database  # noqa: E402
from bench.sockets import load_average  # noqa: E402

OPTIONS = {
    "karanor": {"max_players": 4, "end_prestige": 30},
    "darkroad": {"max_players": 4},
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "p99": round(percentile(ms, 99), 2),
        "max": round(max(ms), 2),
    }


async def make_room(service: RoomService, game: str, seed_name: str) -> tuple[str, list[Any]]:
    code, token = await service.create_room(f"{seed_name} 0", OPTIONS[game], game)
    tokens = [token]
    for i in range(1, 4):
        _index, more = await service.join(code, f"{seed_name} {i}")
        tokens.append(more)
    host = await service.authenticate(code, token)
    await service.start(host, None)
    return code, tokens


async def play(service: RoomService, code: str, length: int) -> tuple[int, bool]:
    """Play the room's game with its own bot's moves until the log holds `length`
    commands or the game ends; returns (version, over)."""
    room = await service.cache.get(code)
    game = room.game
    seats = frozenset(range(len(room.seats)))
    while True:
        async with room.lock:
            live = await service.commands.live(room)
            version = live.version
            if version >= length or game.is_over(live.state):
                return version, game.is_over(live.state)
            move = game.bot_move(live.state, seats, version)
        if move is None:
            return version, game.is_over(live.state)
        await service.commands.run(room, move.seat, f"b-{version + 1}", move.command, version)
        await service.commands.drain()


async def cold_load(service: RoomService, code: str) -> tuple[float, float, float]:
    """Evict `code`, load it back; (ms to the live game, ms to the first seat's view,
    CPU ms of this process to the live game: every thread, whatever else the machine
    runs)."""
    service.forget(code)
    assert service.cache.cached(code) is None
    c0, t0 = time.process_time(), time.perf_counter()
    room = await service.cache.get(code)
    async with room.lock:
        live = await service.commands.live(room)
        t1, c1 = time.perf_counter(), time.process_time()
        views.view_bytes(room, live, 0)
        t2 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t0) * 1000, (c1 - c0) * 1000


def breakdown(service: RoomService, code: str) -> dict[str, float]:
    """One load, step by step, in this thread (ms per step)."""
    out: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        t = time.perf_counter()
        value = fn()
        out[name] = round((time.perf_counter() - t) * 1000, 3)
        return value

    with read_connection(service.p.db) as conn:
        row = timed("room_by_code", lambda: repo.room_by_code(conn, code=code))
        room = Room(code, row.id, service.cache.cached(code).game)  # type: ignore[union-attr]
        head = timed("game_of_room", lambda: repo.game_of_room(conn, room_id=row.id))
        stored = timed("game_snapshot", lambda: repo.game_snapshot(conn, game_id=head.id))
        timed("seats_of", lambda: repo.seats_of(conn, room_id=row.id))
        state = timed("from_dict", lambda: room.game.from_dict(stored.snapshot))
        at = stored.snapshot_version
        rows = timed(
            "events_after",
            lambda: repo.events_after(conn, game_id=head.id, after=at, limit=stored.version - at),
        )
        timed("replay", lambda: takeback.replay_rows(room.game, state, rows))
        out["replayed_rows"] = len(rows)
        out["snapshot_bytes"] = len(orjson.dumps(stored.snapshot))
        t = time.perf_counter()
        whole = timed("load_total", lambda: loading.load(conn, room, head.id))
        del t, whole
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="karanor-cold-"))
    db = make_database(args.db, workdir)
    try:
        migrate.upgrade(db.url)
        settings = Settings(
            database_url=db.url,
            data_dir=workdir,
            bot_delay=0,
            redis_url=None,
            sqlite_synchronous="NORMAL",  # the setup's many commits; loading only reads
            room_idle_seconds=3600,
        )
        engine = create_db_engine(settings.database_url, sqlite_synchronous="NORMAL")
        service = RoomService(engine, settings)
        await service.startup()
        rooms: list[dict[str, Any]] = []
        try:
            t0 = time.monotonic()
            for game in args.games:
                for length in args.lengths:
                    code, _tokens = await make_room(service, game, "P")
                    version, over = await play(service, code, length)
                    rooms.append(
                        {"game": game, "code": code, "wanted": length, "log": version, "over": over}
                    )
            setup_seconds = time.monotonic() - t0
            loads: dict[str, list[float]] = {}
            first_views: dict[str, list[float]] = {}
            cpu: dict[str, list[float]] = {}
            for _rep in range(args.loads):
                for r in rooms:
                    ms, view_ms, cpu_ms = await cold_load(service, r["code"])
                    loads.setdefault(r["code"], []).append(ms)
                    first_views.setdefault(r["code"], []).append(view_ms)
                    cpu.setdefault(r["code"], []).append(cpu_ms)
            for r in rooms:
                r["load_ms"] = summary(loads[r["code"]])
                r["load_cpu_ms"] = summary(cpu[r["code"]])
                r["first_view_ms"] = summary(first_views[r["code"]])
                await service.cache.get(r["code"])
                r["breakdown_ms"] = await asyncio.to_thread(breakdown, service, r["code"])
        finally:
            await service.shutdown()
            engine.dispose()
    finally:
        if db.cleanup is not None:
            with contextlib.suppress(Exception):
                db.cleanup()
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    every = [ms for values in loads.values() for ms in values]
    every_view = [ms for values in first_views.values() for ms in values]
    by_game = {
        game: summary([ms for r in rooms if r["game"] == game for ms in loads[r["code"]]])
        for game in args.games
    }
    return {
        "bench": "cold",
        "db": args.db,
        "load_average": load_average(),
        "setup_seconds": round(setup_seconds, 1),
        "rooms": rooms,
        "load_ms": summary(every),
        "load_ms_by_game": by_game,
        "first_view_ms": summary(every_view),
        "load_cpu_ms": summary([ms for values in cpu.values() for ms in values]),
        "median_load_ms": round(statistics.median(every), 2),
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{'game':<9} {'log':>5} {'over':>5} {'replayed':>8}  "
        f"{'load p50/p99/max (ms)':>24}  {'+view p99':>9}  breakdown (ms)"
    ]
    for r in result["rooms"]:
        b = r["breakdown_ms"]
        parts = ", ".join(
            f"{k} {b[k]}"
            for k in ("game_snapshot", "from_dict", "events_after", "replay", "load_total")
        )
        load = r["load_ms"]
        lines.append(
            f"{r['game']:<9} {r['log']:>5} {str(r['over']):>5} {b['replayed_rows']:>8}  "
            f"{load['p50']:>8} / {load['p99']:>6} / {load['max']:>6}  "
            f"{r['first_view_ms']['p99']:>9}  {parts}"
        )
    s = result["load_ms"]
    lines.append(
        f"all loads: n {s['n']}, p50 {s['p50']} ms, p95 {s['p95']} ms, p99 {s['p99']} ms, "
        f"max {s['max']} ms; first view p99 {result['first_view_ms']['p99']} ms; "
        f"CPU per load p50 {result['load_cpu_ms']['p50']} ms, p99 "
        f"{result['load_cpu_ms']['p99']} ms; load average {result['load_average']}"
    )
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--games", default="karanor,darkroad", help="comma-separated (karanor,darkroad)"
    )
    parser.add_argument(
        "--lengths",
        default="0,19,119,519,1019,2019",
        # 20k-1 commands: the snapshot (every 20 versions) is 19 commands behind, the
        # longest replay a load can have.
        help="log lengths of the rooms, comma-separated (default 0,19,119,519,1019,2019)",
    )
    parser.add_argument("--loads", type=int, default=30, help="cold loads per room (30)")
    args = parser.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    args.lengths = [int(x) for x in args.lengths.split(",") if x]
    if not args.games or not args.lengths or args.loads < 1:
        parser.error("--games, --lengths non-empty; --loads >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = asyncio.run(run(args))
    print(table(result))
    print(orjson.dumps(result).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
