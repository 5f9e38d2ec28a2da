"""Bot rooms beside a loaded server: do bots' turns slow other rooms' acks?

    .venv/bin/python -m bench.bots                       # 3 alternations, --rate 1000
    .venv/bin/python -m bench.bots --rounds 1 --seconds 10 --bot-delay 0
    .venv/bin/python -m bench.bots --think-only          # only the bots' thinking times
    .venv/bin/python -m bench.bots --bot-rooms 10 --bot-seats 3 --level hard   # issue 30

Each round runs `bench.load` twice on fresh servers: the ordinary load alone (100 rooms x
4 seats at `--rate`) and the same with `--bot-rooms` rooms of one person and five bots
(Karanor, 6 seats) playing beside it, in the order without/with in odd rounds and
with/without in even ones (so a drift over the minutes, or a second run of a pair that
suffers from the first one's leftovers, weighs on both sides alike). The person of a bot room is
a socket of this generator that plays a random legal command whenever the game waits
for it (so the bots always have turns to play); the five bots are the server's own bot
runner (`app/rooms/bots.py`), at the production pause `--bot-delay` (0.6 s) or as fast
as they decide (`--bot-delay 0`). Only the ordinary rooms' acks are counted; the bot
rooms' versions are counted as bot moves.

Before the rounds, the bots' thinking alone: `Game.bot_move` timed on every state of
whole 6-seat Karanor games (greedy bots, the server's policy), in this process: how long
one decision holds the GIL in the server's worker thread.

The last line printed is one JSON object with every figure: the medians of each side,
their difference, and the median of the rounds' own differences (paired, the figure
least moved by a noisy minute).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

if __package__ in (None, ""):  # `python bench/bots.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load  # noqa: E402
from bench.server import ServerProcess  # noqa: E402
from bench.sockets import load_average  # noqa: E402

BOT_SEATS = 5


# ---------------------------------------------------------------------------- thinking


def think_times(games: int, seed: int) -> dict[str, Any]:
    """`bot_move` of the Karanor game timed on every state of `games` 6-seat games."""
    from app.games import registry

    game = registry.get("karanor")
    assert game is not None
    options = game.normalise_options({"max_players": 6})
    seats = frozenset(range(6))
    times: list[float] = []
    cpu: list[float] = []
    for g in range(games):
        state = game.new_game(options, seed + g, [f"P{i}" for i in range(6)])
        version = 0
        while not game.is_over(state) and version < 5000:
            t, c = time.perf_counter(), time.thread_time()
            move = game.bot_move(state, seats, version)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.thread_time() - c) * 1000)
            if move is None:
                break
            game.apply(state, move.seat, move.command)
            version += 1
    times.sort()
    cpu.sort()
    return {
        "decisions": len(times),
        "ms_p50": round(times[len(times) // 2], 3),
        "ms_p99": round(times[int(len(times) * 0.99)], 3),
        "ms_max": round(times[-1], 3),
        # CPU time of the deciding thread: what the decision holds the GIL for, whatever
        # else the machine runs.
        "cpu_ms_p50": round(cpu[len(cpu) // 2], 3),
        "cpu_ms_p99": round(cpu[int(len(cpu) * 0.99)], 3),
        "cpu_ms_max": round(cpu[-1], 3),
    }


# ---------------------------------------------------------------------------- bot rooms


class BotRoom:
    """One person (seat 0, our socket) with five server bots."""

    def __init__(self, code: str, token: str) -> None:
        self.code = code
        self.token = token
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.versions_seen = 0
        self.person_moves = 0
        self.changed = asyncio.Event()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}


async def make_bot_room(
    http: httpx.AsyncClient, seats: int = BOT_SEATS, level: str = "normal"
) -> BotRoom:
    options = {"max_players": seats + 1}
    r = await http.post("/api/rooms", json={"name": "Person", "options": options})
    r.raise_for_status()
    code, token = r.json()["code"], r.json()["seat"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(seats):
        asked = await http.post(f"/api/rooms/{code}/bots", json={"level": level}, headers=auth)
        asked.raise_for_status()
    r = await http.post(f"/api/rooms/{code}/start", json={"options": options}, headers=auth)
    r.raise_for_status()
    return BotRoom(code, token)


async def play_bot_room(server: ServerProcess, room: BotRoom, stop_at: float, seed: int) -> None:
    """Read the room's versions; play seat 0's turns (a random legal command)."""
    rng = random.Random(seed)
    url = f"{server.ws_url}/ws/rooms/{room.code}?token={room.token}"
    async with websockets.connect(url, max_size=None, ping_interval=None) as ws:

        async def reader() -> None:
            async for data in ws:
                message = orjson.loads(data)
                if message.get("type") == "view":
                    if message["version"] > room.version:
                        room.versions_seen += max(0, message["version"] - max(room.version, 0))
                        room.version = message["version"]
                        room.view = message["view"]
                        room.changed.set()
                elif message.get("id") in room.replies:
                    room.replies.pop(message["id"]).set_result(message)

        reading = asyncio.create_task(reader())
        try:
            while time.monotonic() < stop_at:
                room.changed.clear()
                view = room.view
                if view is not None and 0 in load.to_act(view):
                    command = load.choose(view.get("legal_actions") or [], rng)
                    if command is not None:
                        command_id = str(uuid.uuid4())
                        future = asyncio.get_running_loop().create_future()
                        room.replies[command_id] = future
                        message = {
                            "type": "command",
                            "id": command_id,
                            "command": command,
                            "expected_version": room.version,
                        }
                        await ws.send(orjson.dumps(message).decode())
                        with contextlib.suppress(TimeoutError):
                            reply = await asyncio.wait_for(future, load.ACK_TIMEOUT)
                            if reply.get("type") == "ack":
                                room.person_moves += 1
                if view is not None and view.get("status") == "finished":
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(room.changed.wait(), 1.0)
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading


# ---------------------------------------------------------------------------- one run


async def one_run(
    server: ServerProcess,
    load_args: argparse.Namespace,
    bot_rooms: int,
    seats: int = BOT_SEATS,
    level: str = "normal",
) -> dict[str, Any]:
    rooms: list[BotRoom] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        for _ in range(bot_rooms):
            rooms.append(await make_bot_room(http, seats, level))
    stop_at = time.monotonic() + 3600  # reset below once the load's window is known
    players = [
        asyncio.create_task(play_bot_room(server, room, stop_at, i)) for i, room in enumerate(rooms)
    ]
    before = sum(r.versions_seen for r in rooms)
    t0 = time.monotonic()
    result = await load.run_load(server, load_args)
    seconds = time.monotonic() - t0
    for task in players:
        task.cancel()
    for task in players:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    result.pop("_sample_view", None)
    moves = sum(r.versions_seen for r in rooms) - before
    person = sum(r.person_moves for r in rooms)
    result["bot_rooms"] = bot_rooms
    result["bot_room_versions"] = moves
    result["bot_moves_per_second"] = round((moves - person) / seconds, 2) if rooms else 0
    return result


def run_server(args: argparse.Namespace, load_args: argparse.Namespace, bots: int) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="karanor-bots-"))
    db = load.make_database("sqlite", workdir)
    env = load.karanor_env(db, workdir)
    env["KARANOR_BOT_DELAY_SECONDS"] = str(args.bot_delay)
    server = ServerProcess(
        workdir,
        name="karanor",
        env=env,
        base_env={},
        pin_cpu=load.SERVER_CPU if load.PIN else None,
        start_timeout=60,
    )
    try:
        server.start()
        return asyncio.run(one_run(server, load_args, bots, args.bot_seats, args.level))
    finally:
        server.stop()
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)


def brief(run: dict[str, Any]) -> dict[str, Any]:
    return {
        "bot_rooms": run["bot_rooms"],
        "commands_per_second": run["commands_per_second"],
        "ack_p50": run["ack_ms"]["p50"],
        "ack_p95": run["ack_ms"]["p95"],
        "ack_p99": run["ack_ms"]["p99"],
        "all_views_p99": run["all_views_ms"]["p99"],
        "server_cpu_percent": run["server_cpu_percent"],
        "client_cpu_percent": run["client_cpu_percent"],
        "other_cpu_percent": run["other_cpu_percent"],
        "bot_moves_per_second": run["bot_moves_per_second"],
        "errors": run["errors"],
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternations without/with (3)")
    parser.add_argument("--bot-rooms", type=int, default=1, help="rooms of 1 person + 5 bots")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="bots' pause (0.6 s)")
    parser.add_argument("--bot-seats", type=int, default=BOT_SEATS, help="bots a room (5)")
    parser.add_argument("--level", default="normal", help="the bots' level (normal)")
    parser.add_argument("--rate", type=float, default=1000.0, help="ordinary load (1000/s)")
    parser.add_argument("--rooms", type=int, default=100, help="ordinary rooms (100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window (20)")
    parser.add_argument("--think-games", type=int, default=3, help="games timed for thinking")
    parser.add_argument("--think-only", action="store_true", help="only time the thinking")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load.raise_fd_limit()
    result: dict[str, Any] = {
        "bench": "bots",
        "machine": load.machine(),
        "load_average_before": load_average(),
        "bot_delay": args.bot_delay,
        "think": think_times(args.think_games, 1),
    }
    print(f"bot_move (6 seats, greedy): {result['think']}")
    if not args.think_only:
        load_args = load.parse_args(
            ["--rooms", str(args.rooms), "--rate", str(args.rate), "--seconds", str(args.seconds),
             "--no-baseline"]
        )  # fmt: skip
        if load.PIN:
            os.sched_setaffinity(0, {load.CLIENT_CPU})
        runs: list[dict[str, Any]] = []
        for i in range(args.rounds):
            order = (0, args.bot_rooms) if i % 2 == 0 else (args.bot_rooms, 0)
            for bots in order:
                run = brief(run_server(args, load_args, bots))
                run["round"] = i + 1
                runs.append(run)
                print(orjson.dumps(run).decode(), flush=True)
        without = [r["ack_p99"] for r in runs if r["bot_rooms"] == 0]
        with_bots = [r["ack_p99"] for r in runs if r["bot_rooms"]]
        result["runs"] = runs
        result["ack_p99_median_without"] = statistics.median(without)
        result["ack_p99_median_with"] = statistics.median(with_bots)
        result["ack_p99_added_ms"] = round(
            statistics.median(with_bots) - statistics.median(without), 2
        )
        result["ack_p99_added_paired_ms"] = round(
            statistics.median(b - a for a, b in zip(without, with_bots, strict=True)), 2
        )
        print(
            f"ack p99 median: without bots {result['ack_p99_median_without']} ms, with "
            f"{args.bot_rooms} bot room(s) {result['ack_p99_median_with']} ms "
            f"(added {result['ack_p99_added_ms']} ms; median of the rounds' differences "
            f"{result['ack_p99_added_paired_ms']} ms)"
        )
    result["load_average_after"] = load_average()
    print(orjson.dumps(result).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
