"""Soak: a real `karanor serve` at half its saturated rate for a long time.

    .venv/bin/python -m bench.soak                       # SQLite, 30 minutes
    .venv/bin/python -m bench.soak --db postgres         # the same on PostgreSQL
    .venv/bin/python -m bench.soak --hours 4             # hours
    .venv/bin/python -m bench.soak --short               # 2 minutes (a smoke run)

First the server's saturated rate is measured (`--saturate-seconds`, machine rooms
sending as fast as acks come back), unless `--rate` gives it; then for the whole soak
the generator offers half of it, spread over three kinds of rooms of both games
(Karanor and Dark Road alternate):

- machine rooms: every seat a socket of this generator, a random legal command of the
  seat the game waits for (the random bot's policy), one every rooms/R s;
- bot rooms: one seat of ours and the server's own bots (at the production pause) on
  the others;
- people-like rooms: every seat a socket, a think time of 1-6 s before each command,
  now and then a chat line, a socket dropped and opened again (a phone locking), and
  the log read over HTTP.

A finished game goes on in a new room. Every minute it samples the server's RSS, its
open file descriptors (/proc/PID/fd), the database's size (the SQLite file with its
WAL; the PostgreSQL schema's relations) and that minute's ack p99 and errors. At the
end every acknowledged command is looked for in the stored log (`lost`) and every
driven room's log is checked to hold versions 1..N once each, no command id twice
(`doubled`). The last line printed is one JSON object with every figure; the targets
(RSS and descriptors within 10% from the first minute after warm-up to the last, the
last minute's ack p99 within 20% of the first's, no error, nothing lost) are judged
in `targets`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

if __package__ in (None, ""):  # `python bench/soak.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load  # noqa: E402
from bench.server import ServerProcess  # noqa: E402

GAMES = ("karanor", "darkroad")
ACK_TIMEOUT = 15.0
VIEW_TIMEOUT = 15.0
SAMPLE_SECONDS = 60.0


def now() -> float:
    return time.perf_counter()


# ------------------------------------------------------------------------------ figures


@dataclass
class Acked:
    """One acknowledged command: where it must be found in the log."""

    code: str
    version: int
    seat: int
    command_id: str


@dataclass
class Figures:
    """What the drivers saw, with times, so a minute's share can be read."""

    acks: list[tuple[float, float]] = field(default_factory=list)  # (acked at, latency s)
    errors: list[tuple[float, str]] = field(default_factory=list)
    acked: list[Acked] = field(default_factory=list)
    rooms: set[str] = field(default_factory=set)
    games_finished: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    chats: int = 0
    log_reads: int = 0

    def error(self, code: str) -> None:
        self.errors.append((now(), code))


class SoakRoom(load.Room):
    """`bench.load`'s room (sockets, latest views), with its game and driven seats."""

    def __init__(self, code: str, game: str, tokens: list[str], stats: load.Stats) -> None:
        super().__init__(code, tokens, stats)
        self.game = game


class Soak:
    def __init__(self, server: ServerProcess, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        self.rng = random.Random(args.seed)
        self.stats = load.Stats()  # the room readers count unsolicited errors here
        self.figures = Figures()
        self.http: httpx.AsyncClient | None = None
        self.stop_at = float("inf")
        self.made = 0

    # --- rooms ----------------------------------------------------------------------------

    async def create(self, game: str, humans: int, bots: int = 0) -> SoakRoom:
        assert self.http is not None
        options = {"max_players": humans + bots}
        r = await self.http.post(
            "/api/rooms", json={"name": "Seat 0", "game": game, "options": options}
        )
        r.raise_for_status()
        code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
        host = {"Authorization": f"Bearer {tokens[0]}"}
        for i in range(1, humans):
            r = await self.http.post(f"/api/rooms/{code}/seats", json={"name": f"Seat {i}"})
            r.raise_for_status()
            tokens.append(r.json()["seat"]["token"])
        for _ in range(bots):
            r = await self.http.post(f"/api/rooms/{code}/bots", json={}, headers=host)
            r.raise_for_status()
        r = await self.http.post(f"/api/rooms/{code}/start", json={}, headers=host)
        r.raise_for_status()
        room = SoakRoom(code, game, tokens, self.stats)
        for seat in room.seats:
            await self.connect(room, seat)
        if not await room.wait_for(lambda: all(s.version >= 0 for s in room.seats), 30):
            raise RuntimeError(f"room {code}: not every seat got its first view")
        self.figures.rooms.add(code)
        self.made += 1
        return room

    async def connect(self, room: SoakRoom, seat: load.Seat) -> None:
        seat.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/rooms/{room.code}?token={seat.token}",
            max_size=None,
            open_timeout=30,
            ping_interval=None,
            compression="deflate",
        )
        seat.task = asyncio.create_task(room.reader(seat))

    async def reconnect(self, room: SoakRoom, seat: load.Seat) -> None:
        """A phone locking and unlocking: the socket closed, a new one opened."""
        if seat.task is not None:
            seat.task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(seat.ws.close(), 2)
        await self.connect(room, seat)
        self.figures.reconnects += 1

    # --- driving ---------------------------------------------------------------------------

    async def drive(self, kind: str, game: str, interval: float) -> None:
        """Play rooms of one kind until `stop_at`, a new room for each finished game."""
        rng = random.Random(self.rng.random())
        humans, bots = {"machine": (4, 0), "bots": (1, 3), "people": (3, 0)}[kind]
        while now() < self.stop_at:
            try:
                room = await self.create(game, humans, bots)
            except (httpx.HTTPError, OSError, RuntimeError) as error:
                self.figures.error(f"setup_{type(error).__name__}")
                await asyncio.sleep(1)
                continue
            try:
                await self.play(room, kind, interval, rng)
            finally:
                await room.close()

    async def play(self, room: SoakRoom, kind: str, interval: float, rng: random.Random) -> None:
        next_at = now() + rng.random() * interval
        sent = 0
        while now() < self.stop_at:
            pause = rng.uniform(1.0, 6.0) if kind == "people" else next_at - now()
            if pause > 0:
                await asyncio.sleep(min(pause, max(0.0, self.stop_at - now())))
            next_at = max(next_at + interval, now())
            latest = max(room.seats, key=lambda s: s.version)
            view = latest.view()
            if view is None:
                await room.wait_newer(latest.version, 1.0)
                continue
            if view.get("status") == "finished":
                self.figures.games_finished[room.game] += 1
                return
            ours = [i for i in load.to_act(view) if i < len(room.seats)]
            if not ours:  # a bot's turn, or nobody's yet
                await room.wait_newer(latest.version, 2.0)
                continue
            seat = room.seats[rng.choice(ours)]
            if not await room.wait_seat(seat, latest.version, VIEW_TIMEOUT):
                self.figures.error("view_timeout")
                continue
            mine = seat.view()
            command = load.choose((mine or {}).get("legal_actions") or [], rng)
            if command is None:
                await room.wait_newer(seat.version, 1.0)
                continue
            await self.send(room, seat, command)
            sent += 1
            if kind == "people":
                await self.people_extras(room, seat, sent, rng)

    async def people_extras(
        self, room: SoakRoom, seat: load.Seat, sent: int, rng: random.Random
    ) -> None:
        """What people do beside playing: chat, lock their phone, scroll the log."""
        assert self.http is not None
        if rng.random() < 0.1:
            with contextlib.suppress(websockets.ConnectionClosed):
                await seat.ws.send(orjson.dumps({"type": "chat", "text": "gg"}), text=True)
                self.figures.chats += 1
        if sent % 25 == 0:
            try:
                await self.reconnect(room, seat)
            except (OSError, websockets.WebSocketException) as error:
                self.figures.error(f"reconnect_{type(error).__name__}")
        if rng.random() < 0.05:
            try:
                r = await self.http.get(
                    f"/api/rooms/{room.code}/log",
                    params={"after": max(0, seat.version - 10)},
                    headers={"Authorization": f"Bearer {seat.token}"},
                )
            except httpx.HTTPError as error:
                self.figures.error(f"log_{type(error).__name__}")
                return
            self.figures.log_reads += 1
            if r.status_code != 200:
                self.figures.error(f"log_{r.status_code}")

    async def send(self, room: SoakRoom, seat: load.Seat, command: dict[str, Any]) -> None:
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
        try:
            await seat.ws.send(orjson.dumps(message), text=True)
            reply = await asyncio.wait_for(future, ACK_TIMEOUT)
        except (TimeoutError, websockets.ConnectionClosed) as error:
            room.replies.pop(command_id, None)
            self.figures.error("timeout" if isinstance(error, TimeoutError) else "closed")
            if not isinstance(error, TimeoutError):
                with contextlib.suppress(Exception):
                    await self.reconnect(room, seat)
            return
        if reply["type"] != "ack":
            code = str(reply.get("code"))
            # A seat that acted on a view a bot's move made stale is told so: the
            # ordinary answer to a race, not a fault (it acts again on the new view).
            if code != "stale_version":
                self.figures.error(code)
            await asyncio.sleep(0.05)
            return
        acked = now()
        version = int(reply["version"])
        self.figures.acks.append((acked, acked - sent))
        self.figures.acked.append(Acked(room.code, version, seat.index, command_id))
        await room.wait_newer(version - 1, VIEW_TIMEOUT)


# ------------------------------------------------------------------------------ sampling


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def database_bytes(db: load.Database, workdir: Path) -> int:
    """The SQLite file with its WAL and shared memory, or the schema's relations."""
    if db.kind == "sqlite":
        path = workdir / "karanor.db"
        return sum(
            p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()
        )
    import psycopg

    schema = db.url.rsplit("application_name=", 1)[1]
    base = db.url.split("?", 1)[0]
    with psycopg.connect(base, connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
            (schema,),
        ).fetchone()
    return int(row[0]) if row else 0


def minute_of(figures: Figures, start: float, end: float) -> dict[str, Any]:
    latencies = [lat for t, lat in figures.acks if start <= t < end]
    errors = Counter(code for t, code in figures.errors if start <= t < end)
    return {
        "acks": len(latencies),
        "ack_p50_ms": load.percentile(latencies, 50),
        "ack_p99_ms": load.percentile(latencies, 99),
        "errors": dict(errors),
    }


async def sampler(
    soak: Soak, db: load.Database, workdir: Path, start: float, samples: list[dict[str, Any]]
) -> None:
    """Every minute: the server's RSS, descriptors, the database's size, the minute's acks."""
    minute = 0
    while now() < soak.stop_at:
        at = start + (minute + 1) * SAMPLE_SECONDS
        await asyncio.sleep(max(0.0, at - now()))
        try:
            memory = soak.server.memory_kb()
            fds = open_fds(soak.server.pid)
            size = await asyncio.to_thread(database_bytes, db, workdir)
        except (OSError, ValueError) as error:
            soak.figures.error(f"sample_{type(error).__name__}")
            continue
        sample = {
            "minute": minute + 1,
            "rss_mb": round(memory.get("VmRSS", 0) / 1024, 1),
            "fds": fds,
            "db_mb": round(size / 1e6, 2),
            "rooms_made": soak.made,
            **minute_of(soak.figures, at - SAMPLE_SECONDS, at),
        }
        samples.append(sample)
        print(orjson.dumps(sample).decode(), flush=True)
        minute += 1


# ------------------------------------------------------------------------------ the checks


def stored_versions(url: str) -> dict[str, list[tuple[int, int | None, str | None]]]:
    """(version, seat, command id) of every logged command, by room code."""
    from sqlalchemy import text

    from app.store.db import create_db_engine

    engine = create_db_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT r.code, e.version, e.seat, e.command_id FROM game_events e"
                    " JOIN games g ON g.id = e.game_id JOIN rooms r ON r.id = g.room_id"
                    " ORDER BY r.code, e.version"
                )
            ).all()
    finally:
        engine.dispose()
    out: dict[str, list[tuple[int, int | None, str | None]]] = {}
    for code, version, seat, command_id in rows:
        out.setdefault(code, []).append((version, seat, command_id))
    return out


def check_log(figures: Figures, url: str) -> dict[str, int]:
    """Acknowledged commands missing from the log (`lost`), rooms whose log is not
    1..N once each or holds a command id twice (`doubled`)."""
    logs = stored_versions(url)
    lost = 0
    for acked in figures.acked:
        entries = logs.get(acked.code, [])
        found = acked.version <= len(entries) and entries[acked.version - 1] == (
            acked.version,
            acked.seat,
            acked.command_id,
        )
        lost += not found
    doubled = 0
    for code in figures.rooms:
        entries = logs.get(code, [])
        ids = [(seat, cid) for _v, seat, cid in entries if cid is not None]
        if [v for v, _s, _c in entries] != list(range(1, len(entries) + 1)) or len(ids) != len(
            set(ids)
        ):
            doubled += 1
    return {
        "acked": len(figures.acked),
        "lost": lost,
        "rooms_checked": len(figures.rooms),
        "rooms_not_1_to_n": doubled,
    }


def judge(samples: list[dict[str, Any]], warmup: int, checked: dict[str, int], errors: int) -> dict:
    """The targets: flat RSS and descriptors, the last minute's p99 near the first's."""
    kept = samples[warmup:] or samples
    if not kept:
        return {}
    first, last = kept[0], kept[-1]

    def drift(key: str) -> float | None:
        if not first.get(key) or last.get(key) is None:
            return None
        return round(100 * (last[key] - first[key]) / first[key], 1)

    out: dict[str, Any] = {
        "rss_drift_percent": drift("rss_mb"),
        "fds_drift_percent": drift("fds"),
        "ack_p99_drift_percent": drift("ack_p99_ms"),
        "errors": errors,
        "lost": checked["lost"],
        "rooms_not_1_to_n": checked["rooms_not_1_to_n"],
    }
    out["met"] = {
        "rss_within_10_percent": out["rss_drift_percent"] is not None
        and abs(out["rss_drift_percent"]) <= 10,
        "fds_within_10_percent": out["fds_drift_percent"] is not None
        and abs(out["fds_drift_percent"]) <= 10,
        "ack_p99_within_20_percent": out["ack_p99_drift_percent"] is not None
        and out["ack_p99_drift_percent"] <= 20,
        "no_error": errors == 0,
        "nothing_lost": checked["lost"] == 0 and checked["rooms_not_1_to_n"] == 0,
    }
    return out


# ------------------------------------------------------------------------------ runs


async def saturated_rate(server: ServerProcess, seconds: float, seed: int) -> float:
    """Commands/s acknowledged with 100 Karanor rooms of 4 sending as fast as acks come
    back (bench.load's generator, its own rooms, not kept)."""
    args = load.parse_args(
        ["--rooms", "100", "--seconds", str(seconds), "--warmup", "3", "--seed", str(seed)]
    )
    run = await load.run_load(server, args)
    return float(run["commands_per_second"])


async def soak_run(
    server: ServerProcess, db: load.Database, workdir: Path, args: argparse.Namespace, rate: float
) -> dict[str, Any]:
    soak = Soak(server, args)
    samples: list[dict[str, Any]] = []
    # No kept-alive HTTP connections: a request sent on one the server is closing as idle
    # (uvicorn's keep-alive timeout) fails with no answer (ReadError, RemoteProtocolError)
    # on the client's side of that race, which the first runs counted as errors.
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(
        base_url=server.url, timeout=60, cookies=load.no_cookies(), limits=limits
    ) as http:
        soak.http = http
        start = now()
        soak.stop_at = start + args.minutes * 60
        # The people and bot rooms offer what they offer (a command every few seconds);
        # the machine rooms share the rest of the rate.
        people_rate = args.people_rooms / 3.5
        machine_rate = max(1.0, rate - people_rate)
        interval = args.machine_rooms / machine_rate
        drivers = []
        for i in range(args.machine_rooms):
            drivers.append(soak.drive("machine", GAMES[i % 2], interval))
        for i in range(args.bot_rooms):
            drivers.append(soak.drive("bots", GAMES[i % 2], 1.0))
        for i in range(args.people_rooms):
            drivers.append(soak.drive("people", GAMES[i % 2], 0.0))
        tasks = [asyncio.create_task(d) for d in drivers]
        sampling = asyncio.create_task(sampler(soak, db, workdir, start, samples))
        done, pending = await asyncio.wait(
            tasks, timeout=args.minutes * 60 + ACK_TIMEOUT + VIEW_TIMEOUT + 30
        )
        for task in pending:
            task.cancel()
            soak.figures.error("driver_stuck")
        for task in done:
            if task.exception() is not None:
                soak.figures.error(f"driver_{type(task.exception()).__name__}")
        sampling.cancel()
    soak.figures.errors.extend((now(), code) for code in soak.stats.errors_total.elements())
    checked = await asyncio.to_thread(check_log, soak.figures, db.url)
    errors = Counter(code for _t, code in soak.figures.errors)
    return {
        "offered_rate": round(rate, 1),
        "rooms": {
            "machine": args.machine_rooms,
            "bots": args.bot_rooms,
            "people": args.people_rooms,
            "made": soak.made,
        },
        "games_finished": dict(soak.figures.games_finished),
        "reconnects": soak.figures.reconnects,
        "chats": soak.figures.chats,
        "log_reads": soak.figures.log_reads,
        "acked": checked["acked"],
        "errors": dict(errors),
        "log_check": checked,
        "minutes": samples,
        "targets": judge(samples, args.warmup_minutes, checked, sum(errors.values())),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--minutes", type=float, default=30.0, help="soak length (30)")
    parser.add_argument("--hours", type=float, default=0.0, help="soak length in hours")
    parser.add_argument("--short", action="store_true", help="2 minutes, 1 of warm-up")
    parser.add_argument("--warmup-minutes", type=int, default=3, help="not judged (3)")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="offered commands/s (default: half the saturated rate, measured first)",
    )
    parser.add_argument("--saturate-seconds", type=float, default=20.0)
    parser.add_argument("--machine-rooms", type=int, default=60)
    parser.add_argument("--bot-rooms", type=int, default=10)
    parser.add_argument("--people-rooms", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (server log)")
    args = parser.parse_args(argv)
    if args.hours:
        args.minutes = args.hours * 60
    if args.short:
        args.minutes, args.warmup_minutes, args.saturate_seconds = 2.0, 1, 5.0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load.raise_fd_limit()
    result: dict[str, Any] = {"bench": "soak", "machine": load.machine(), "db": args.db}
    result["machine"]["busy_before_percent"] = busy = load.busy_before()
    if busy > 20:
        print(f"WARNING: the machine is already {busy}% busy (of one core): figures will be noisy")
    workdir = Path(tempfile.mkdtemp(prefix="karanor-soak-"))
    db = load.make_database(args.db, workdir)
    env = load.karanor_env(db, workdir)
    env.pop("KARANOR_BOT_DELAY_SECONDS")  # the bots at their production pause
    server = ServerProcess(workdir, name="karanor", env=env, base_env={}, start_timeout=60)
    try:
        server.start()
        rate = args.rate
        if not rate:
            saturated = asyncio.run(saturated_rate(server, args.saturate_seconds, args.seed))
            result["saturated_rate"] = saturated
            rate = saturated / 2
        print(f"soak: {args.minutes:g} minutes at {rate:.0f} commands/s offered", flush=True)
        result["soak"] = asyncio.run(soak_run(server, db, workdir, args, rate))
        result["server_peak_rss_mb"] = round(server.memory_kb().get("VmHWM", 0) / 1024, 1)
    finally:
        server.stop()
        if db.cleanup is not None:
            with contextlib.suppress(Exception):
                db.cleanup()
    if args.keep:
        result["workdir"] = str(workdir)
    else:
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    print(orjson.dumps(result).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
