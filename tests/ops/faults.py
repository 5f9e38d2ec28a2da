"""Services a fault test may stop and start on purpose, each private to the test.

The machine's shared PostgreSQL (5432) and Redis (6379) serve every other test at the
same time, so a test that takes its database or Redis away starts its own: a
`redis-server` on a free port, a PostgreSQL cluster made with `initdb` in a temp
folder and run with `pg_ctl`, a small tmpfs mounted for a SQLite file. What cannot
be made on this machine (no binary, not root for a mount) is `unavailable`: a skip
with the reason outside CI, a failure in CI.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.helpers.client import Room, bearer, new_id
from tests.helpers.policy import choose
from tests.helpers.server import free_port
from tests.helpers.services import unavailable

# Seconds a server process of these tests may take to start: on a loaded machine the
# import and migrations alone have taken over 30 s (the default).
START_TIMEOUT = 120.0


def _wait(check: object, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.05)


# ----------------------------------------------------------------------------- Redis


class PrivateRedis:
    """One `redis-server` of this test (no persistence) on a free loopback port."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server is not installed: cannot stop Redis on purpose")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        log = (self.workdir / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

        def up() -> bool:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False
            finally:
                client.close()

        _wait(up, f"redis-server on port {self.port}")

    def stop(self) -> None:
        """SIGKILL: gone at once, with every connection and subscription."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None


@contextlib.contextmanager
def private_redis(workdir: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


# ----------------------------------------------------------------------------- PostgreSQL


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


class PrivatePostgres:
    """A PostgreSQL cluster of this test: `initdb` in a temp folder, `pg_ctl` on a free
    loopback port, trust authentication. As root its programs run as `postgres`."""

    def __init__(self) -> None:
        bindir = _postgres_bin()
        if bindir is None:
            unavailable("PostgreSQL's programs (initdb, pg_ctl) are not installed")
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="karanor-pg-"))
        self.data = self.root / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                unavailable("running as root and there is no postgres user to run initdb as")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.prefix, *args], capture_output=True, text=True, timeout=120, check=False
        )

    def init(self) -> None:
        done = self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        )
        if done.returncode != 0:
            unavailable(f"initdb failed: {done.stderr.strip()[-500:]}")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off"
        done = self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "pg.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )
        if done.returncode != 0:
            log = (self.root / "pg.log").read_text(errors="replace")[-2000:]
            raise AssertionError(f"pg_ctl start failed: {done.stderr}\n{log}")

    def stop(self, mode: str = "fast") -> None:
        """`fast`: every session ended, a clean shutdown; `immediate`: like a crash."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


# ----------------------------------------------------------------------------- a small disk


class SmallDisk:
    """A tmpfs of `size` mounted for the test (root only); `resize` gives space back."""

    def __init__(self, size: str) -> None:
        if os.geteuid() != 0 or shutil.which("mount") is None:
            unavailable("mounting a small file system needs root and mount(8)")
        self.path = Path(tempfile.mkdtemp(prefix="karanor-disk-"))
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(self.path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            self.path.rmdir()
            unavailable(f"cannot mount a tmpfs: {done.stderr.strip()}")

    def resize(self, size: str) -> None:
        subprocess.run(
            ["mount", "-o", f"remount,size={size}", str(self.path)], check=True, timeout=30
        )

    def fill(self) -> int:
        """Take every free byte with a filler file; the bytes written."""
        written = 0
        fd = os.open(self.path / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
                block = b"\0" * size
                with contextlib.suppress(OSError):
                    while True:
                        written += os.write(fd, block)
        finally:
            os.close(fd)
        return written

    def free_filler(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.path / "filler").unlink()

    def remove(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False, timeout=30)
        with contextlib.suppress(OSError):
            self.path.rmdir()


@contextlib.contextmanager
def small_disk(size: str) -> Iterator[SmallDisk]:
    disk = SmallDisk(size)
    try:
        yield disk
    finally:
        disk.remove()


# ----------------------------------------------------------------------------- playing


def acting(http: httpx.Client, room: Room) -> tuple[int, dict[str, Any]]:
    """A human seat the game waits for (its view's `to_act`, any game), and its view."""
    for seat, token in enumerate(room.tokens):
        if token is None:
            continue
        view = http.get(f"/api/rooms/{room.code}/view", headers=bearer(token)).json()
        assert view["status"] == "playing", view["status"]
        if seat in (view.get("to_act") or []) and view["legal_actions"]:
            return seat, view
    raise AssertionError("no human seat may act")


def command(
    http: httpx.Client, room: Room, seat: int, body: dict[str, Any], expected: int
) -> httpx.Response:
    token = room.tokens[seat]
    assert token is not None
    return http.post(
        f"/api/rooms/{room.code}/commands",
        json={**body, "expected_version": expected},
        headers=bearer(token),
    )


def play(
    clients: list[httpx.Client], room: Room, rng: random.Random, steps: int
) -> list[dict[str, Any]]:
    """`steps` commands, alternating between the processes; each one acknowledged."""
    acked = []
    for i in range(steps):
        http = clients[i % len(clients)]
        seat, view = wait_acting(http, room, 15)  # bots, if any, play in between
        body = {"id": new_id(), "command": choose(view, rng)}
        r = command(http, room, seat, body, view["version"])
        assert r.status_code == 200, r.text
        acked.append({"id": body["id"], "seat": seat, "version": r.json()["version"]})
    return acked


def make_game_room(base: str, game: str, humans: int, bots: int = 0) -> Room:
    """A started room of `game` made through `base`: `humans` seats of ours (tokens), then
    `bots` server bots (None)."""
    with httpx.Client(base_url=base, timeout=15) as http:
        r = http.post(
            "/api/rooms",
            json={"name": "Host", "game": game, "options": {"max_players": humans + bots}},
        )
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        tokens: list[str | None] = [r.json()["seat"]["token"]]
        for i in range(1, humans):
            r = http.post(f"/api/rooms/{code}/seats", json={"name": f"Player {i}"})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["seat"]["token"])
        host = bearer(str(tokens[0]))
        for _ in range(bots):
            r = http.post(f"/api/rooms/{code}/bots", json={}, headers=host)
            assert r.status_code == 201, r.text
            tokens.append(None)
        r = http.post(f"/api/rooms/{code}/start", json={}, headers=host)
        assert r.status_code == 200, r.text
    return Room(base, code, tokens)


def wait_acting(http: httpx.Client, room: Room, timeout: float) -> tuple[int, dict[str, Any]]:
    """`acting`, once a human seat may act (bots play in between), within `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return acting(http, room)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
