"""Idle sockets: the server's memory with N WebSockets open and nothing happening.

    .venv/bin/python -m bench.sockets --idle 2000                # 500 started rooms x 4 seats
    .venv/bin/python -m bench.sockets --idle 10000 --clients 4   # 10,000, from 4 client processes
    .venv/bin/python -m bench.sockets --idle 2000 --env MALLOC_ARENA_MAX=2

A real `karanor serve` (fresh SQLite database, the limits relaxed as in `bench.load`,
and the server's own start-up: it raises its open-file limit itself) gets N/4 rooms of
4 seats, started; then every seat opens a socket (`--clients` processes share them, each
raising its own open-file limit to its hard limit) and waits for its first view. The
server's RSS is read from /proc (VmRSS, and its anonymous and file-backed parts) before
the rooms, with the rooms started, with every socket open, and after holding them
`--hold` seconds. The last line printed is one JSON object with every figure.

Unlike `bench.load --idle`, the HTTP client keeps no cookies: each seat's cookie would
otherwise be sent with every later request, and past ~200 rooms the request head
outgrows the server's 16 KB cap (`max_header_bytes`: 400 "Invalid HTTP request").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson

if __package__ in (None, ""):  # `python bench/sockets.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import (  # noqa: E402
    CLIENT_CPU,
    PIN,
    SERVER_CPU,
    busy_before,
    karanor_env,
    machine,
    make_database,
)
from bench.server import ServerProcess  # noqa: E402

SEATS = 4
SETUP_CONCURRENCY = 16
CONNECT_CONCURRENCY = 64
FIRST_VIEW_TIMEOUT = 120.0


def raise_own_fd_limit() -> int:
    """This process's open-file soft limit, raised to its hard limit; returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM, RssAnon, RssFile (kB) and Threads of a process."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "Threads"):
            out[key] = int(value.split()[0])
    return out


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def fd_limit_of(pid: int) -> int | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    return None


def load_average() -> str:
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "?"


# ---------------------------------------------------------------------------- rooms


async def create_rooms(url: str, count: int) -> list[tuple[str, list[str]]]:
    """`count` started rooms of 4 seats: (code, seat tokens)."""
    jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))  # keeps no cookie
    limits = httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
    made = asyncio.Semaphore(SETUP_CONCURRENCY)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits, cookies=jar) as http:

        async def one() -> tuple[str, list[str]]:
            async with made:
                options = {"max_players": SEATS}
                r = await http.post("/api/rooms", json={"name": "Seat 0", "options": options})
                r.raise_for_status()
                code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
                for i in range(1, SEATS):
                    r = await http.post(f"/api/rooms/{code}/seats", json={"name": f"Seat {i}"})
                    r.raise_for_status()
                    tokens.append(r.json()["seat"]["token"])
                r = await http.post(
                    f"/api/rooms/{code}/start",
                    json={"options": options},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                r.raise_for_status()
                return code, tokens

        return list(await asyncio.gather(*(one() for _ in range(count))))


# ---------------------------------------------------------------------------- clients


async def _hold_sockets(
    ws_url: str, seats: list[tuple[str, str]], conn: Any, compression: str | None
) -> None:
    import websockets

    limit = asyncio.Semaphore(CONNECT_CONCURRENCY)
    sockets: list[Any] = []
    errors: dict[str, int] = {}

    async def one(code: str, token: str) -> None:
        try:
            async with limit:
                ws = await websockets.connect(
                    f"{ws_url}/ws/rooms/{code}?token={token}",
                    max_size=None,
                    open_timeout=60,
                    ping_interval=None,
                    compression=compression,
                    max_queue=64,
                )
            sockets.append(ws)
            async with asyncio.timeout(FIRST_VIEW_TIMEOUT):
                while not (await ws.recv(decode=False)).startswith(b'{"type":"view"'):
                    pass
        except Exception as error:
            key = type(error).__name__
            errors[key] = errors.get(key, 0) + 1

    t0 = time.monotonic()
    await asyncio.gather(*(one(code, token) for code, token in seats))
    conn.send({"open": len(sockets), "errors": errors, "seconds": round(time.monotonic() - t0, 2)})
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, conn.recv)  # until told to close
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    conn.send({"closed": len(sockets)})


def client_main(
    ws_url: str, seats: list[tuple[str, str]], conn: Any, compression: str | None
) -> None:
    """One client process: open its sockets, report, hold until told, close."""
    if PIN:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {CLIENT_CPU})
    limit = raise_own_fd_limit()
    if limit < len(seats) + 50:
        conn.send({"open": 0, "errors": {f"fd limit {limit}": len(seats)}, "seconds": 0})
        return
    asyncio.run(_hold_sockets(ws_url, seats, conn, compression))


# ---------------------------------------------------------------------------- the run


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_own_fd_limit()
    workdir = Path(tempfile.mkdtemp(prefix="karanor-sockets-"))
    db = make_database("sqlite", workdir)
    env: dict[str, str | None] = dict(karanor_env(db, workdir))
    # bench.load turns the idle close off; here it stays on (as in production), long
    # enough for the slowest setup: its timer is part of what an idle socket costs.
    env["KARANOR_WS_IDLE_SECONDS"] = "900"
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value or None
    server = ServerProcess(
        workdir,
        name="karanor",
        env=env,
        base_env={},
        pin_cpu=SERVER_CPU if PIN else None,
        start_timeout=60,
    )
    result: dict[str, Any] = {
        "bench": "sockets",
        "machine": machine(),
        "load_average_before": load_average(),
        "env": args.env,
        "compression": args.compression or "none",
    }
    result["machine"]["busy_before_percent"] = busy_before()
    rooms_wanted = math.ceil(args.idle / SEATS)
    try:
        server.start()
        pid = server.pid
        result["server_fd_limit"] = fd_limit_of(pid)
        banner = [line for line in server.log_text().splitlines() if "Open-file limit" in line]
        result["server_fd_banner"] = banner[-1].strip() if banner else None
        asyncio.run(create_rooms(server.url, 1))  # warm-up: imports, first-request caches
        time.sleep(1)
        before = proc_status(pid)
        t0 = time.monotonic()
        rooms = asyncio.run(create_rooms(server.url, rooms_wanted))
        result["rooms_seconds"] = round(time.monotonic() - t0, 1)
        time.sleep(1)
        rooms_only = proc_status(pid)
        seats = [(code, token) for code, tokens in rooms for token in tokens][: args.idle]
        ctx = mp.get_context("spawn")
        parts = [seats[i :: args.clients] for i in range(args.clients)]
        clients = []
        t0 = time.monotonic()
        for part in parts:
            ours, theirs = ctx.Pipe()
            process = ctx.Process(
                target=client_main, args=(server.ws_url, part, theirs, args.compression)
            )
            process.start()
            clients.append((process, ours))
        reports = [conn.recv() for _process, conn in clients]
        result["connect_seconds"] = round(time.monotonic() - t0, 1)
        opened = sum(r["open"] for r in reports)
        errors: dict[str, int] = {}
        for r in reports:
            for key, n in r["errors"].items():
                errors[key] = errors.get(key, 0) + n
        time.sleep(2)
        after = proc_status(pid)
        fds = open_files(pid)
        cpu0 = server.cpu_seconds()
        time.sleep(args.hold)
        cpu1 = server.cpu_seconds()
        held = proc_status(pid)
        for _process, conn in clients:
            conn.send("close")
        for process, conn in clients:
            with contextlib.suppress(EOFError):
                if conn.poll(60):
                    conn.recv()
            process.join(30)
        server_alive = server.running
    finally:
        server.stop()
        if not args.keep:
            import shutil

            shutil.rmtree(workdir, ignore_errors=True)

    mb = 1024
    sockets = max(1, opened)
    result.update(
        {
            "sockets_wanted": args.idle,
            "sockets_open": opened,
            "socket_errors": errors,
            "clients": args.clients,
            "rooms": len(rooms),
            "server_open_files": fds,
            "server_threads": held.get("Threads"),
            "rss_before_mb": round(before["VmRSS"] / mb, 1),
            "rss_rooms_started_mb": round(rooms_only["VmRSS"] / mb, 1),
            "rss_sockets_open_mb": round(after["VmRSS"] / mb, 1),
            "rss_after_hold_mb": round(held["VmRSS"] / mb, 1),
            "rss_anon_after_hold_mb": round(held.get("RssAnon", 0) / mb, 1),
            "rss_file_after_hold_mb": round(held.get("RssFile", 0) / mb, 1),
            "peak_rss_mb": round(held["VmHWM"] / mb, 1),
            "kb_per_socket": round((held["VmRSS"] - rooms_only["VmRSS"]) / sockets, 1),
            "kb_per_room_without_sockets": round(
                (rooms_only["VmRSS"] - before["VmRSS"]) / max(1, len(rooms)), 1
            ),
            "idle_cpu_percent": round(100 * (cpu1 - cpu0) / args.hold, 2),
            "server_survived": server_alive,
            "load_average_after": load_average(),
        }
    )
    if args.keep:
        result["workdir"] = str(workdir)
    return result


def table(r: dict[str, Any]) -> str:
    rows = [
        ("sockets open / wanted", f"{r['sockets_open']} / {r['sockets_wanted']}"),
        ("socket errors", r["socket_errors"] or "none"),
        ("client processes", r["clients"]),
        ("rooms (started, 4 seats)", r["rooms"]),
        ("server open-file limit", r["server_fd_limit"]),
        ("server open files", r["server_open_files"]),
        ("server RSS before the rooms (MB)", r["rss_before_mb"]),
        ("... rooms started, no socket (MB)", r["rss_rooms_started_mb"]),
        ("... every socket open (MB)", r["rss_sockets_open_mb"]),
        ("... after the hold (MB)", r["rss_after_hold_mb"]),
        ("    of which anonymous / file-backed (MB)",
         f"{r['rss_anon_after_hold_mb']} / {r['rss_file_after_hold_mb']}"),
        ("peak RSS (MB)", r["peak_rss_mb"]),
        ("KB per socket", r["kb_per_socket"]),
        ("KB per room, no socket", r["kb_per_room_without_sockets"]),
        ("server CPU while idle (%)", r["idle_cpu_percent"]),
        ("load average before / after", f"{r['load_average_before']} / {r['load_average_after']}"),
    ]  # fmt: skip
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label:<{width}}  {value}" for label, value in rows)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=2000, metavar="N", help="sockets (2000)")
    parser.add_argument("--clients", type=int, default=1, help="client processes (1)")
    parser.add_argument("--hold", type=float, default=5.0, help="seconds held before reading")
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_const",
        const=None,
        default="deflate",
        help="do not offer permessage-deflate (browsers offer it)",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable of the server (NAME= removes it); repeatable",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temp dir and server log")
    args = parser.parse_args(argv)
    if args.idle < 1 or args.clients < 1 or args.hold < 0:
        parser.error("--idle >= 1, --clients >= 1, --hold >= 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run(args)
    print(table(result))
    print(orjson.dumps(result).decode())
    return 0 if result["sockets_open"] == args.idle and result["server_survived"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
