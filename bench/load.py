"""Load benchmark: a real `karanor serve` process driven by many rooms over WebSockets.

    .venv/bin/python -m bench.load                      # 100 rooms x 4 seats, 20 s, SQLite
    .venv/bin/python -m bench.load --db postgres        # the same on PostgreSQL
    .venv/bin/python -m bench.load --idle 2000          # memory of 2000 idle sockets

Each room has one driver: the seat the game waits for (its latest view's
`to_act`) sends a random command of its view's `legal_actions` (the random bot's
policy, `app.karanor.bots.pick`) and the driver waits for the ack before the
room's next command. Every seat has its own socket, so every accepted command fans out
to all seats; the time until every seat of the room holds a view at the acked
version is measured too. In the same run, `bench/baseline_server.py` (bare
FastAPI + uvicorn, no game, no database) is driven the same way with view
messages of the same size, and our figures are given as ratios to it.

The server is pinned to CPU 0 and this load generator to CPU 1 (2+ cores).
Traffic goes to 127.0.0.1 only; every loop is bounded in time. The last line
printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import resource
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from app.karanor.bots import pick
from bench.server import ServerProcess

REPO_ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
POSTGRES_BASE = "postgresql://{user}@127.0.0.1:5432/test"
POSTGRES_USERS = ("postgres", "root")
ACK_TIMEOUT = 10.0  # seconds a driver waits for its ack before counting a timeout
VIEW_TIMEOUT = 10.0  # seconds a driver waits for the acting seat's fresh view
DRAIN_SECONDS = 3.0  # after the window: time left for the last fan-outs to land
SETUP_CONCURRENCY = 16
CONNECT_CONCURRENCY = 64
MAX_ROOM_REPLACEMENTS = 10_000  # finished games restarted in new rooms, at most
_VIEW_HEAD = re.compile(rb'\{"type":"view","version":(\d+)')
_TYPE_HEAD = re.compile(rb'\{"type":"(\w+)"')
SERVER_CPU = 0
CLIENT_CPU = 1


def no_cookies() -> CookieJar:
    """A jar that keeps nothing: the generator authenticates every seat by its token, and
    one client collecting every seat's cookie sends them all with each request until the
    request head outgrows the server's cap (`--idle` failed past ~200 rooms)."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


def now() -> float:
    return time.perf_counter()


def can_pin() -> bool:
    return hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2


PIN = can_pin()  # decided before this process pins itself to one CPU


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100, nearest rank) in milliseconds, or None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return round(ordered[rank] * 1000, 2)


# ------------------------------------------------------------------ the server's own figures

# Histograms of `app.metrics` read from the server's /metrics at both ends of the window:
# where an ack's time goes (inside `CommandPath.run`: the room's lock, apply, the commit)
# against what the load generator measures from outside.
SERVER_HISTOGRAMS = ("karanor_command_seconds", "karanor_writer_batch_size")
_BUCKET = re.compile(rb'^(\w+)_bucket\{(?:[^}]*,)?le="([^"]+)"[^}]*\} ([0-9.e+]+)$', re.M)


async def server_histograms(http: httpx.AsyncClient) -> dict[str, dict[float, float]]:
    """{histogram: {upper bound: cumulative count}} of `SERVER_HISTOGRAMS`, every label
    summed; empty when /metrics cannot be read (the baseline server has none)."""
    try:
        r = await http.get("/metrics")
    except httpx.HTTPError:
        return {}
    if r.status_code != 200:
        return {}
    found: dict[str, dict[float, float]] = {}
    for name, le, count in _BUCKET.findall(r.content):
        key = name.decode()
        if key in SERVER_HISTOGRAMS:
            bounds = found.setdefault(key, {})
            bound = float(le)
            bounds[bound] = bounds.get(bound, 0.0) + float(count)
    return found


def histogram_window(
    before: dict[float, float], after: dict[float, float], scale: float = 1.0
) -> dict[str, Any] | None:
    """The window's part of a cumulative histogram: its count, and for p50/p95/p99 the
    upper bound of the bucket holding that rank (times `scale`; None past the last)."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    if total <= 0:
        return None
    out: dict[str, Any] = {"count": int(total)}
    for q in (50, 95, 99):
        rank = q / 100 * total
        bound = next((b for b, c in zip(bounds, counts, strict=True) if c >= rank), None)
        out[f"p{q}_at_most"] = None if bound is None or math.isinf(bound) else bound * scale
    return out


# ---------------------------------------------------------------------------- processes


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def postgres_cpu_ticks() -> dict[int, int]:
    """utime + stime (clock ticks) of every local `postgres` process, by pid."""
    out: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            raw = (entry / "stat").read_text()
            if raw[raw.index("(") + 1 : raw.rindex(")")] != "postgres":
                continue
            fields = raw[raw.rindex(")") + 2 :].split()
            out[int(entry.name)] = int(fields[11]) + int(fields[12])
    return out


def postgres_cpu_seconds(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU seconds the `postgres` processes used between two snapshots (a process that
    ended in between is not counted; one that started is counted whole)."""
    ticks = sum(t - before.get(pid, 0) for pid, t in after.items())
    return max(0, ticks) / os.sysconf("SC_CLK_TCK")


def cpu_ticks() -> dict[str, tuple[int, int]]:
    """(busy, total) jiffies of each CPU from /proc/stat: kernel and softirq work too."""
    out: dict[str, tuple[int, int]] = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("cpu") and line[3:4].isdigit():
            name, *values = line.split()
            ticks = [int(v) for v in values[:8]]
            idle = ticks[3] + ticks[4]
            out[name] = (sum(ticks) - idle, sum(ticks))
    return out


def cpu_busy(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> dict:
    """Per CPU, the percentage of time not idle between two `cpu_ticks()`."""
    out = {}
    for name, (busy1, total1) in after.items():
        busy0, total0 = before.get(name, (0, 0))
        out[name] = round(100 * (busy1 - busy0) / max(1, total1 - total0), 1)
    return out


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---------------------------------------------------------------------------- databases


@dataclass
class Database:
    kind: str
    url: str
    cleanup: Any = None  # callable dropping what was made


def make_database(kind: str, workdir: Path) -> Database:
    if kind == "sqlite":
        return Database("sqlite", f"sqlite:///{workdir / 'karanor.db'}")
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    last_error: Exception | None = None
    for user in POSTGRES_USERS:
        base = POSTGRES_BASE.format(user=user)
        try:
            with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE SCHEMA "{schema}"')
        except psycopg.Error as error:
            last_error = error
            continue

        def drop(base: str = base) -> None:
            with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s",
                    (schema,),
                )
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

        url = f"{base}?options=-csearch_path%3D{schema}&application_name={schema}"
        return Database("postgres", url, drop)
    raise RuntimeError(f"PostgreSQL not reachable at 127.0.0.1:5432/test: {last_error}")


# Settings a benchmark may vary from the command line's environment (the others are
# fixed below): `KARANOR_SQLITE_SYNCHRONOUS=NORMAL python -m bench.load` measures the
# opt-in against the FULL default.
PASSED_THROUGH = ("KARANOR_SQLITE_SYNCHRONOUS",)


def karanor_env(db: Database, workdir: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("KARANOR_") or k in PASSED_THROUGH
    }
    env.update(
        {
            "DATABASE_URL": db.url,
            "KARANOR_DATA_DIR": str(workdir / "data"),
            "KARANOR_BOT_DELAY_SECONDS": "0",
            # The limits of app/config.py (docs/security.md) would cap a driven seat at 20-30
            # commands/s, one address at 30 rooms an hour and 50 sockets; the idle close
            # would end idle-mode sockets. All of our traffic comes from 127.0.0.1.
            "KARANOR_COMMAND_RATE": "1000000",
            "KARANOR_COMMAND_BURST": "1000000",
            "KARANOR_WS_MESSAGE_RATE": "1000000",
            "KARANOR_WS_MESSAGE_BURST": "1000000",
            "KARANOR_ROOMS_PER_HOUR": "0",
            "KARANOR_MAX_SOCKETS_PER_IP": "0",
            "KARANOR_WS_IDLE_SECONDS": "0",
            "KARANOR_LOG_LEVEL": "warning",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.pop("REDIS_URL", None)
    return env


# ---------------------------------------------------------------------------- the client


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """The random bot's policy (`app.karanor.bots.pick`) on the view's JSON commands."""
    return pick(actions, lambda a: a["type"], rng) if actions else None


def to_act(view: dict[str, Any]) -> list[int]:
    """The seats the game waits for, as every view says (`to_act`)."""
    if view.get("status") != "playing":
        return []
    return list(view.get("to_act") or [])


@dataclass
class Stats:
    window_start: float = math.inf
    window_end: float = math.inf
    accepted: int = 0
    ack_latency: list[float] = field(default_factory=list)
    fanout_latency: list[float] = field(default_factory=list)
    fanout_incomplete: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    errors_total: Counter[str] = field(default_factory=Counter)
    sent_total: int = 0
    accepted_total: int = 0
    view_sizes: list[int] = field(default_factory=list)
    games_finished: int = 0
    rooms_replaced: int = 0
    stalls: int = 0
    samples: list[bytes] = field(default_factory=list)  # some view messages, for the baseline

    def in_window(self, t: float) -> bool:
        return self.window_start <= t <= self.window_end


class Seat:
    """One seat's socket and the latest view it received (kept raw, parsed on demand)."""

    __slots__ = ("index", "token", "ws", "version", "raw", "parsed", "parsed_version", "task")

    def __init__(self, index: int, token: str) -> None:
        self.index = index
        self.token = token
        self.ws: Any = None
        self.version = -1
        self.raw = b""
        self.parsed: dict[str, Any] | None = None
        self.parsed_version = -2
        self.task: asyncio.Task[None] | None = None

    def view(self) -> dict[str, Any] | None:
        if self.parsed_version != self.version:
            message = orjson.loads(self.raw)
            self.parsed = message.get("view")
            self.parsed_version = self.version
        return self.parsed


class Room:
    def __init__(self, code: str, tokens: list[str], stats: Stats) -> None:
        self.code = code
        self.seats = [Seat(i, t) for i, t in enumerate(tokens)]
        self.stats = stats
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        # Fan-outs in flight: [acked version, send time, seats still behind].
        self.fanouts: list[tuple[int, float, set[int]]] = []
        self.closing = False

    def on_view(self, seat: Seat, version: int, data: bytes) -> None:
        if version >= seat.version:
            seat.version = version
            seat.raw = data
        sizes = self.stats.view_sizes
        sizes.append(len(data))
        if len(sizes) % 97 == 0 and len(self.stats.samples) < 500:
            self.stats.samples.append(data)
        if self.fanouts:
            t = now()
            done = []
            for entry in self.fanouts:
                if entry[0] <= version:
                    entry[2].discard(seat.index)
                    if not entry[2]:
                        done.append(entry)
            for entry in done:
                self.fanouts.remove(entry)
                self.stats.fanout_latency.append(t - entry[1])
        self.changed.set()

    def track_fanout(self, version: int, sent: float) -> None:
        behind = {s.index for s in self.seats if s.version < version}
        if behind:
            self.fanouts.append((version, sent, behind))
        else:
            self.stats.fanout_latency.append(now() - sent)

    async def reader(self, seat: Seat) -> None:
        ws = seat.ws
        try:
            while True:
                data = await ws.recv(decode=False)
                head = _VIEW_HEAD.match(data)
                if head is not None:
                    self.on_view(seat, int(head.group(1)), data)
                    continue
                kind = _TYPE_HEAD.match(data)
                if kind is None or kind.group(1) not in (b"ack", b"error", b"view"):
                    continue  # chat, presence, room
                message = orjson.loads(data)
                if message["type"] == "view":  # a view whose keys came in another order
                    self.on_view(seat, int(message["version"]), data)
                    continue
                future = self.replies.pop(message.get("id") or "", None)
                if future is not None and not future.done():
                    future.set_result(message)
                elif message["type"] == "error":
                    self.stats.errors_total[str(message.get("code"))] += 1
        except websockets.ConnectionClosed as closed:
            if not self.closing:
                rcvd = closed.rcvd
                why = f"{rcvd.code} {rcvd.reason}" if rcvd else "no close frame"
                self.stats.errors_total[f"socket_closed ({why})"] += 1
        except asyncio.CancelledError:
            pass

    async def wait_for(self, predicate: Any, timeout: float) -> bool:
        deadline = now() + timeout
        while not predicate():
            left = deadline - now()
            if left <= 0:
                return False
            self.changed.clear()
            if predicate():
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def wait_seat(self, seat: Seat, version: int, timeout: float) -> bool:
        """Until `seat` holds a view at `version` or later."""
        return await self.wait_for(lambda: seat.version >= version, timeout)

    async def wait_newer(self, version: int, timeout: float) -> bool:
        """Until some seat holds a view newer than `version`."""
        return await self.wait_for(lambda: room_max(self) > version, timeout)

    async def close(self) -> None:
        self.closing = True
        for seat in self.seats:
            if seat.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(seat.ws.close(), 2)
            if seat.task is not None:
                seat.task.cancel()


class LoadGenerator:
    def __init__(self, server: ServerProcess, args: argparse.Namespace, stats: Stats) -> None:
        self.server = server
        self.args = args
        self.stats = stats
        self.rng = random.Random(args.seed)
        self.http: httpx.AsyncClient | None = None
        self.setup_errors: Counter[str] = Counter()
        self.stop_at = math.inf

    async def create_room(self, seats: int, start: bool = True) -> tuple[str, list[str]]:
        assert self.http is not None
        options = {"max_players": seats}
        r = await self.http.post("/api/rooms", json={"name": "Seat 0", "options": options})
        if r.status_code == 429:
            raise RuntimeError(f"room creation refused (a limit we do not relax?): {r.text}")
        r.raise_for_status()
        code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
        for i in range(1, seats):
            r = await self.http.post(f"/api/rooms/{code}/seats", json={"name": f"Seat {i}"})
            r.raise_for_status()
            tokens.append(r.json()["seat"]["token"])
        if start:
            r = await self.http.post(
                f"/api/rooms/{code}/start",
                json={"options": options},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            r.raise_for_status()
        return code, tokens

    async def connect(self, room: Room, limit: asyncio.Semaphore) -> None:
        for seat in room.seats:
            async with limit:
                seat.ws = await websockets.connect(
                    f"{self.server.ws_url}/ws/rooms/{room.code}?token={seat.token}",
                    max_size=None,
                    open_timeout=30,
                    ping_interval=None,
                    compression=self.args.compression,
                )
            seat.task = asyncio.create_task(room.reader(seat))

    async def open_rooms(self, count: int, seats: int) -> list[Room]:
        made = asyncio.Semaphore(SETUP_CONCURRENCY)
        limit = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one() -> Room:
            async with made:
                code, tokens = await self.create_room(seats)
            room = Room(code, tokens, self.stats)
            await self.connect(room, limit)
            return room

        rooms = await asyncio.gather(*(one() for _ in range(count)))
        for room in rooms:
            ok = await room.wait_for(lambda r=room: all(s.version >= 0 for s in r.seats), 30)
            if not ok:
                raise RuntimeError(
                    f"room {room.code}: not every seat got its first view "
                    f"(errors so far: {dict(self.stats.errors_total)})"
                )
        return list(rooms)

    async def drive(self, room: Room) -> None:
        """Send the room's commands one at a time until `stop_at`; a finished game goes on
        in a new room."""
        stats, rng = self.stats, self.rng
        # --rate R: R commands/s offered in all (each room one every rooms/R s, at a
        # random phase); 0: each room sends its next command as soon as it may.
        interval = self.args.rooms / self.args.rate if self.args.rate else 0.0
        next_at = now() + rng.random() * interval
        while now() < self.stop_at:
            if interval:
                if (wait := next_at - now()) > 0:
                    await asyncio.sleep(wait)
                next_at = max(next_at + interval, now())
            latest = max(room.seats, key=lambda s: s.version)
            view = latest.view()
            if view is None:
                stats.stalls += 1
                await asyncio.sleep(0.05)
                continue
            if view.get("status") == "finished" or (view.get("result") and not to_act(view)):
                stats.games_finished += 1
                room = await self.replace(room)
                continue
            actors = to_act(view)
            if not actors:
                stats.stalls += 1
                await room.wait_newer(latest.version, 1.0)
                continue
            seat = room.seats[rng.choice(actors)]
            target = latest.version
            if not await room.wait_seat(seat, target, VIEW_TIMEOUT):
                stats.errors_total["view_timeout"] += 1
                if stats.in_window(now()):
                    stats.errors["view_timeout"] += 1
                continue
            mine = seat.view()
            command = choose(mine.get("legal_actions") or [] if mine else [], rng)
            if command is None:
                stats.stalls += 1
                await room.wait_newer(seat.version, 1.0)
                continue
            await self.send(room, seat, command)

    async def send(self, room: Room, seat: Seat, command: dict[str, Any]) -> None:
        stats = self.stats
        command_id = str(uuid.uuid4())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        room.replies[command_id] = future
        message = {
            "type": "command",
            "id": command_id,
            "command": command,
            "expected_version": seat.version,
        }
        sent = now()
        stats.sent_total += 1
        try:
            await seat.ws.send(orjson.dumps(message), text=True)
            reply = await asyncio.wait_for(future, ACK_TIMEOUT)
        except (TimeoutError, websockets.ConnectionClosed) as error:
            room.replies.pop(command_id, None)
            code = "timeout" if isinstance(error, TimeoutError) else "connection_closed"
            stats.errors_total[code] += 1
            if stats.in_window(sent):
                stats.errors[code] += 1
            if code == "connection_closed":
                await asyncio.sleep(0.5)
            return
        acked = now()
        counted = stats.in_window(acked)
        if reply["type"] == "ack":
            stats.accepted_total += 1
            if counted:
                stats.accepted += 1
            if stats.in_window(sent):
                stats.ack_latency.append(acked - sent)
                room.track_fanout(int(reply["version"]), sent)
            # The next command needs a view at least this fresh.
            await room.wait_newer(int(reply["version"]) - 1, VIEW_TIMEOUT)
        else:
            code = str(reply.get("code"))
            stats.errors_total[code] += 1
            if counted:
                stats.errors[code] += 1
            await asyncio.sleep(0.01)  # bounded retry pace on refusals

    async def replace(self, room: Room) -> Room:
        await room.close()
        if self.stats.rooms_replaced >= MAX_ROOM_REPLACEMENTS:
            await asyncio.sleep(self.stop_at - now())
            return room
        self.stats.rooms_replaced += 1
        fresh = (await self.open_rooms(1, len(room.seats)))[0]
        return fresh


def room_max(room: Room) -> int:
    return max(s.version for s in room.seats)


# ---------------------------------------------------------------------------- one load run


async def run_load(
    server: ServerProcess, args: argparse.Namespace, postgres: bool = False
) -> dict[str, Any]:
    stats = Stats()
    gen = LoadGenerator(server, args, stats)
    limits = httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
    async with httpx.AsyncClient(
        base_url=server.url, timeout=60, limits=limits, cookies=no_cookies()
    ) as http:
        gen.http = http
        t0 = now()
        rooms = await gen.open_rooms(args.rooms, args.seats)
        setup_seconds = now() - t0
        memory_before = server.memory_kb()
        start = now()
        stats.window_start = start + args.warmup
        stats.window_end = stats.window_start + args.seconds
        gen.stop_at = stats.window_end
        drivers = [asyncio.create_task(gen.drive(room)) for room in rooms]

        await asyncio.sleep(max(0.0, stats.window_start - now()))
        cpu0, client0, w0, ticks0 = server.cpu_seconds(), client_cpu_seconds(), now(), cpu_ticks()
        pg_ticks = postgres_cpu_ticks() if postgres else {}
        histograms0 = await server_histograms(http)
        await asyncio.sleep(max(0.0, stats.window_end - now()))
        cpu1, client1, w1, ticks1 = server.cpu_seconds(), client_cpu_seconds(), now(), cpu_ticks()
        pg = postgres_cpu_seconds(pg_ticks, postgres_cpu_ticks()) if pg_ticks else 0.0
        histograms1 = await server_histograms(http)
        memory_after = server.memory_kb()

        done, pending = await asyncio.wait(drivers, timeout=ACK_TIMEOUT + VIEW_TIMEOUT + 5)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                stats.errors_total[f"driver_{type(task.exception()).__name__}"] += 1
        # The last fan-outs of the window: give them a moment, then count the stragglers.
        deadline = now() + DRAIN_SECONDS
        while now() < deadline and any(r.fanouts for r in rooms):
            await asyncio.sleep(0.05)
        stats.fanout_incomplete = sum(len(r.fanouts) for r in rooms)
        await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)

    window = w1 - w0
    sizes = sorted(stats.view_sizes)
    return {
        "server": server.name,
        "rooms": args.rooms,
        "offered_rate": args.rate or None,
        "seats": args.seats,
        "sockets": args.rooms * args.seats,
        "seconds": round(window, 3),
        "warmup": args.warmup,
        "setup_seconds": round(setup_seconds, 2),
        "commands_per_second": round(stats.accepted / window, 1),
        "accepted": stats.accepted,
        "ack_ms": {q: percentile(stats.ack_latency, int(q[1:])) for q in ("p50", "p95", "p99")},
        "all_views_ms": {
            q: percentile(stats.fanout_latency, int(q[1:])) for q in ("p50", "p95", "p99")
        },
        "fanout_incomplete": stats.fanout_incomplete,
        # Inside the server, from its /metrics (bucket bounds, so "at most"): a command
        # from `CommandPath.run` to its result (the room's lock, apply, the commit), and
        # the records per group commit.
        "server_command_ms": histogram_window(
            histograms0.get("karanor_command_seconds", {}),
            histograms1.get("karanor_command_seconds", {}),
            scale=1000,
        ),
        "writer_batch": histogram_window(
            histograms0.get("karanor_writer_batch_size", {}),
            histograms1.get("karanor_writer_batch_size", {}),
        ),
        "errors": dict(stats.errors),
        "errors_whole_run": dict(stats.errors_total),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / window, 1),
        "client_cpu_percent": round(100 * (client1 - client0) / window, 1),
        "cpu_busy_percent": cpu_busy(ticks0, ticks1),
        "postgres_cpu_percent": round(100 * pg / window, 1) if pg_ticks else None,
        # Busy CPU time of everything else (other processes, kernel work on loopback),
        # in % of one core: high means the machine was shared and the figures are noisy.
        "other_cpu_percent": round(
            sum(cpu_busy(ticks0, ticks1).values())
            - 100 * (cpu1 - cpu0 + client1 - client0 + pg) / window,
            1,
        ),
        "server_rss_mb": round(memory_after.get("VmRSS", 0) / 1024, 1),
        "server_rss_before_mb": round(memory_before.get("VmRSS", 0) / 1024, 1),
        "server_peak_rss_mb": round(memory_after.get("VmHWM", 0) / 1024, 1),
        "view_bytes_median": sizes[len(sizes) // 2] if sizes else None,
        "view_bytes_p95": sizes[int(len(sizes) * 0.95)] if sizes else None,
        "view_bytes_mean": round(sum(sizes) / len(sizes)) if sizes else None,
        "views_received": len(sizes),
        "games_finished": stats.games_finished,
        "stalls": stats.stalls,
        "_sample_view": sample_of_median(stats, sizes),
    }


def sample_of_median(stats: Stats, sizes: list[int]) -> bytes | None:
    """A received view (the view object only) of about the median message size: the
    baseline's payload, so that its messages compress like ours."""
    if not stats.samples or not sizes:
        return None
    median = sizes[len(sizes) // 2]
    best = min(stats.samples, key=lambda data: abs(len(data) - median))
    return orjson.dumps(orjson.loads(best)["view"])


# ---------------------------------------------------------------------------- idle mode


async def run_idle(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    """N idle sockets over N/4 started rooms of 4 seats: RSS before and after."""
    stats = Stats()
    gen = LoadGenerator(server, args, stats)
    seats = 4
    rooms_wanted = math.ceil(args.idle / seats)
    limits = httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
    async with httpx.AsyncClient(
        base_url=server.url, timeout=60, limits=limits, cookies=no_cookies()
    ) as http:
        gen.http = http
        # Warm the server (imports, first-request caches) with one throwaway room.
        await gen.create_room(seats)
        await asyncio.sleep(1)
        before = server.memory_kb()
        made = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one() -> tuple[str, list[str]]:
            async with made:
                return await gen.create_room(seats)

        t0 = now()
        created = await asyncio.gather(*(one() for _ in range(rooms_wanted)))
        await asyncio.sleep(1)
        rooms_only = server.memory_kb()
        rooms = [Room(code, tokens, stats) for code, tokens in created]
        limit = asyncio.Semaphore(CONNECT_CONCURRENCY)
        remaining = args.idle
        connect_jobs = []
        for room in rooms:  # exactly N sockets: the last room may get fewer
            room.seats = room.seats[: min(seats, remaining)]
            remaining -= len(room.seats)
            connect_jobs.append(gen.connect(room, limit))
        await asyncio.gather(*connect_jobs)
        for room in rooms:
            await room.wait_for(lambda r=room: all(s.version >= 0 for s in r.seats), 30)
        setup_seconds = now() - t0
        await asyncio.sleep(2)
        after = server.memory_kb()
        cpu0 = server.cpu_seconds()
        await asyncio.sleep(args.idle_hold)
        cpu1 = server.cpu_seconds()
        after_hold = server.memory_kb()
        sockets = sum(len(r.seats) for r in rooms)
        await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)

    kb = 1024
    rss0, rss_rooms, rss1 = before["VmRSS"], rooms_only["VmRSS"], after["VmRSS"]
    return {
        "server": server.name,
        "idle_sockets": sockets,
        "idle_rooms": len(rooms),
        "setup_seconds": round(setup_seconds, 2),
        "rss_before_mb": round(rss0 / kb, 1),
        "rss_rooms_started_mb": round(rss_rooms / kb, 1),
        "rss_after_sockets_mb": round(rss1 / kb, 1),
        "rss_after_hold_mb": round(after_hold["VmRSS"] / kb, 1),
        "peak_rss_mb": round(after_hold["VmHWM"] / kb, 1),
        "kb_per_socket": round((rss1 - rss_rooms) / max(1, sockets), 1),
        "kb_per_room_without_sockets": round((rss_rooms - rss0) / max(1, len(rooms)), 1),
        "kb_per_room_with_4_sockets": round((rss1 - rss0) / max(1, len(rooms)), 1),
        "idle_cpu_percent": round(100 * (cpu1 - cpu0) / args.idle_hold, 2),
        "views_received": len(stats.view_sizes),
        "view_bytes_median": sorted(stats.view_sizes)[len(stats.view_sizes) // 2]
        if stats.view_sizes
        else None,
    }


# ---------------------------------------------------------------------------- report


def ratio(ours: float | None, base: float | None) -> float | None:
    if ours is None or base is None or base == 0:
        return None
    return round(ours / base, 2)


def table(result: dict[str, Any]) -> str:
    rows: list[tuple[str, str, str, str]] = []
    main, base = result.get("karanor"), result.get("baseline")

    def add(label: str, key: str, sub: str | None = None) -> None:
        def get(r: dict[str, Any] | None) -> Any:
            if r is None:
                return None
            value = r.get(key)
            return value.get(sub) if sub and isinstance(value, dict) else value

        ours, theirs = get(main), get(base)
        shown = ratio(ours, theirs) if isinstance(ours, int | float) else None
        rows.append(
            (
                label,
                "-" if ours is None else str(ours),
                "-" if theirs is None else str(theirs),
                "-" if shown is None else f"{shown}x",
            )
        )

    add("accepted commands / s", "commands_per_second")
    for q in ("p50", "p95", "p99"):
        add(f"command -> ack {q} (ms)", "ack_ms", q)
    for q in ("p50", "p95", "p99"):
        add(f"command -> all views {q} (ms)", "all_views_ms", q)
    for q in ("p50", "p99"):
        add(f"inside the server {q} <= (ms)", "server_command_ms", f"{q}_at_most")
    add("group commit size p50 <=", "writer_batch", "p50_at_most")
    add("server CPU (% of a core)", "server_cpu_percent")
    add("load generator CPU (%)", "client_cpu_percent")
    add("PostgreSQL processes CPU (%)", "postgres_cpu_percent")
    add("other CPU: kernel, other procs (%)", "other_cpu_percent")
    add("server RSS at end (MB)", "server_rss_mb")
    add("server peak RSS (MB)", "server_peak_rss_mb")
    add("view message bytes (median)", "view_bytes_median")
    add("fan-outs not complete", "fanout_incomplete")
    add("games finished", "games_finished")
    widths = [max(len(r[i]) for r in [*rows, ("", "karanor", "baseline", "ratio")]) for i in (0,)]
    w = widths[0]
    lines = [f"{'':<{w}}  {'karanor':>12}  {'baseline':>12}  {'ratio':>8}"]
    lines += [f"{a:<{w}}  {b:>12}  {c:>12}  {d:>8}" for a, b, c, d in rows]
    if main is not None:
        lines.append(f"errors in the window: {main['errors'] or 'none'}")
        lines.append(f"errors in the whole run: {main['errors_whole_run'] or 'none'}")
    return "\n".join(lines)


def idle_table(r: dict[str, Any]) -> str:
    keys = [
        ("idle sockets", "idle_sockets"),
        ("rooms (started, 4 seats)", "idle_rooms"),
        ("server RSS before (MB)", "rss_before_mb"),
        ("... rooms started, no socket (MB)", "rss_rooms_started_mb"),
        ("... every socket open (MB)", "rss_after_sockets_mb"),
        ("... after the hold (MB)", "rss_after_hold_mb"),
        ("KB per socket", "kb_per_socket"),
        ("KB per room (no socket)", "kb_per_room_without_sockets"),
        ("KB per room (with its 4 sockets)", "kb_per_room_with_4_sockets"),
        ("server CPU while idle (%)", "idle_cpu_percent"),
    ]
    w = max(len(k) for k, _ in keys)
    return "\n".join(f"{label:<{w}}  {r.get(key)}" for label, key in keys)


# ---------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--rooms", type=int, default=100, help="rooms driven at once (100)")
    parser.add_argument("--seats", type=int, default=4, help="seats per room, 2-6 (4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured warm-up (3)")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--no-baseline", action="store_true", help="skip the bare server")
    parser.add_argument("--idle", type=int, default=0, metavar="N", help="idle-memory mode")
    parser.add_argument("--idle-hold", type=float, default=5.0, help="idle mode: hold (s)")
    parser.add_argument(
        "--payload-bytes", type=int, default=0, help="baseline view size (default: measured)"
    )
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_const",
        const=None,
        default="deflate",
        help="do not offer permessage-deflate (browsers do offer it)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the drivers' random seed")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="commands/s offered in all, spread over the rooms (default 0: saturate)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (server logs)")
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 6:
        parser.error("--seats must be 2 to 6")
    if args.rooms < 1 or args.seconds <= 0 or args.warmup < 0 or args.idle < 0:
        parser.error("--rooms >= 1, --seconds > 0, --warmup >= 0, --idle >= 0")
    return args


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    mem_kb = 0
    with contextlib.suppress(OSError, ValueError):
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "ram_gb": round(mem_kb / 1024 / 1024, 1),
        "python": sys.version.split()[0],
        "pinned": PIN,
    }


def busy_before(seconds: float = 1.0) -> float:
    """Busy CPU of the machine before we start, in % of one core (all CPUs summed)."""
    before = cpu_ticks()
    time.sleep(seconds)
    return round(sum(cpu_busy(before, cpu_ticks()).values()), 1)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_fd_limit()
    result: dict[str, Any] = {"bench": "load", "machine": machine(), "db": args.db}
    result["machine"]["busy_before_percent"] = busy = busy_before()
    if busy > 20:
        print(f"WARNING: the machine is already {busy}% busy (of one core): figures will be noisy")
    workdir = Path(tempfile.mkdtemp(prefix="karanor-load-"))
    db = make_database(args.db, workdir)
    server = ServerProcess(
        workdir,
        name="karanor",
        env=karanor_env(db, workdir),
        base_env={},
        pin_cpu=SERVER_CPU if PIN else None,
        start_timeout=60,
    )
    try:
        server.start()
        if PIN:
            os.sched_setaffinity(0, {CLIENT_CPU})
        if args.idle:
            idle = asyncio.run(run_idle(server, args))
            result["idle"] = idle
            print(idle_table(idle))
        else:
            main_run = asyncio.run(run_load(server, args, postgres=args.db == "postgres"))
            result["karanor"] = main_run
    finally:
        server.stop()
        if db.cleanup is not None:
            with contextlib.suppress(Exception):
                db.cleanup()
    if not args.idle and not args.no_baseline:
        sample = result["karanor"].pop("_sample_view", None)
        size = args.payload_bytes or result["karanor"]["view_bytes_median"] or 0
        baseline_argv = [
            sys.executable,
            str(REPO_ROOT / "bench" / "baseline_server.py"),
            "--host",
            HOST,
            "--port",
            "{port}",
            "--payload-bytes",
            str(size),
            "--log-level",
            "warning",
        ]
        if sample is not None and not args.payload_bytes:
            (workdir / "view.json").write_bytes(sample)
            baseline_argv += ["--payload-file", str(workdir / "view.json")]
        base = ServerProcess(
            workdir,
            name="baseline",
            command=baseline_argv,
            pin_cpu=SERVER_CPU if PIN else None,
            start_timeout=60,
        )
        try:
            base.start()
            result["baseline"] = asyncio.run(run_load(base, args))
            result["baseline"].pop("_sample_view", None)
        finally:
            base.stop()
        ours, theirs = result["karanor"], result["baseline"]
        result["ratios"] = {
            "commands_per_second": ratio(
                ours["commands_per_second"], theirs["commands_per_second"]
            ),
            "ack_p99": ratio(ours["ack_ms"]["p99"], theirs["ack_ms"]["p99"]),
            "all_views_p99": ratio(ours["all_views_ms"]["p99"], theirs["all_views_ms"]["p99"]),
            "server_cpu_per_command": ratio(
                ours["server_cpu_percent"] / max(ours["commands_per_second"], 1e-9),
                theirs["server_cpu_percent"] / max(theirs["commands_per_second"], 1e-9),
            ),
        }
    elif "karanor" in result:
        result["karanor"].pop("_sample_view", None)
    if "karanor" in result:
        print(table(result))
        if "ratios" in result:
            print(f"ratios to the baseline: {result['ratios']}")
        for name in ("karanor", "baseline"):
            run = result.get(name, {})
            client = max(
                run.get("client_cpu_percent", 0),
                run.get("cpu_busy_percent", {}).get(f"cpu{CLIENT_CPU}", 0) if PIN else 0,
            )
            if client >= 85:
                print(
                    f"WARNING: {name} run: the load generator's CPU was {client}% busy: "
                    "it may be the limit (the figure is then a lower bound)"
                )
        for name in ("karanor", "baseline"):
            other = result.get(name, {}).get("other_cpu_percent", 0)
            if other > 25:
                print(f"WARNING: {name} run: {other}% of a core went to other work (noisy)")
    result["compression"] = args.compression or "none"
    if args.keep:
        result["workdir"] = str(workdir)
    else:
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    print(orjson.dumps(result).decode())
    return 0


if __name__ == "__main__":
    if __package__ in (None, ""):  # `python bench/load.py`
        sys.path.insert(0, str(REPO_ROOT))
    raise SystemExit(main())
