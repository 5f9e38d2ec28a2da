"""Run `karanor serve` (or any server command) as a real process on a free loopback port.

The one server runner of the project: the benchmarks (`bench/load.py`, which also pins
it to a CPU and reads its CPU time and memory; `bench/bots.py`, `bench/sockets.py`) and
the tests that need a real server (HTTP and WebSocket tests, durability tests that kill
the process and restart it on the same database, through `tests.helpers.server`). It
lives in bench/ so that the benchmarks import nothing of the tests. Output goes to a
log file whose tail is shown when start-up fails.

    with ServerProcess(tmp_path, env={"DATABASE_URL": url}) as server:
        httpx.get(server.url + "/healthz")
        server.kill()       # SIGKILL, like a crash
        server.start()      # same port, same database
"""

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import uvicorn

REPO_ROOT = Path(__file__).resolve().parents[1]


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class ServerError(RuntimeError):
    """The server did not start, or did not answer /healthz in time."""


class ServerProcess:
    """One `python -m app.cli serve` process (or `command`, where `{port}` stands for the
    port). Restartable; each start appends to the log."""

    def __init__(
        self,
        workdir: Path,
        *,
        env: Mapping[str, str | None] | None = None,
        port: int | None = None,
        host: str = "127.0.0.1",
        start_timeout: float = 30.0,
        extra_args: list[str] | None = None,
        command: Sequence[str] | None = None,
        name: str = "server",
        pin_cpu: int | None = None,
        base_env: Mapping[str, str] | None = None,
    ) -> None:
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.host = host
        self._auto_port = port is None
        self.port = port or free_port(host)
        self.start_timeout = start_timeout
        self.extra_args = list(extra_args or [])
        self.command = list(command) if command is not None else None
        self.name = name
        self.pin_cpu = pin_cpu  # the CPU the process (and every thread it starts) runs on
        self.log_path = self.workdir / f"{name}.log"
        # `env` is laid over `base_env` (default: the caller's own environment); a value
        # of None removes a variable.
        merged: dict[str, str | None] = {
            **(os.environ if base_env is None else base_env),
            "KARANOR_DATA_DIR": str(self.workdir / "data"),
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.env: dict[str, str] = {k: v for k, v in merged.items() if v is not None}
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self) -> "ServerProcess":
        """Start the process and wait until /healthz answers 200.

        :raises ServerError: if it exits or stays unhealthy past `start_timeout`.
        """
        if self.running:
            raise ServerError(f"server already running (pid {self.pid})")
        for attempt in range(3):
            try:
                return self._start_once()
            except ServerError as error:
                # Another process may have taken the free port we picked; pick again,
                # but only before the first successful start (restarts keep the port).
                taken = "address already in use" in str(error).lower()
                if not (taken and self._auto_port and attempt < 2):
                    raise
                self.port = free_port(self.host)
        raise AssertionError("unreachable")

    def _start_once(self) -> "ServerProcess":
        if self.command is not None:
            command = [part.replace("{port}", str(self.port)) for part in self.command]
        else:
            command = [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--host",
                self.host,
                "--port",
                str(self.port),
                *self.extra_args,
            ]
        pin = self.pin_cpu

        def pinned() -> None:  # in the child, before exec: every thread it starts inherits it
            if pin is not None:
                os.sched_setaffinity(0, {pin})

        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"\n=== start #{self.starts}: {' '.join(command)}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                command,
                cwd=REPO_ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=pinned if pin is not None else None,  # noqa: PLW1509 (no threads yet)
            )
        self.wait_healthy()
        self._auto_port = False
        return self

    @property
    def pid(self) -> int:
        if self.process is None:
            raise ServerError("server not started")
        return self.process.pid

    def wait_healthy(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (self.start_timeout if timeout is None else timeout)
        last_error = "no answer yet"
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                raise ServerError(f"server exited with {code} during start-up\n{self._tail()}")
            try:
                response = httpx.get(self.url + "/healthz", timeout=2.0)
                if response.status_code == 200:
                    return
                last_error = f"HTTP {response.status_code}: {response.text[:200]}"
            except httpx.HTTPError as error:
                last_error = repr(error)
            time.sleep(0.1)
        self.kill()
        raise ServerError(f"/healthz not ready after timeout ({last_error})\n{self._tail()}")

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM (graceful shutdown), then SIGKILL if it takes longer than `timeout`."""
        return self._signal(signal.SIGTERM, timeout)

    def kill(self) -> int | None:
        """SIGKILL: the process dies at once, as in a crash or power cut."""
        return self._signal(signal.SIGKILL, 10.0)

    def restart(self) -> "ServerProcess":
        self.stop()
        return self.start()

    def _signal(self, sig: signal.Signals, timeout: float) -> int | None:
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout)
        return process.returncode

    def _tail(self, lines: int = 60) -> str:
        text = self.log_text().splitlines()[-lines:]
        return f"--- last lines of {self.log_path} ---\n" + "\n".join(text)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def cpu_seconds(self) -> float:
        """utime + stime of the process (all its threads) from /proc/PID/stat."""
        raw = Path(f"/proc/{self.pid}/stat").read_text()
        fields = raw[raw.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_kb(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak RSS) in kB from /proc/PID/status."""
        out: dict[str, int] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
        return out

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.asynccontextmanager
async def uvicorn_serving(
    app: Any, ws: type[asyncio.Protocol], **options: Any
) -> AsyncIterator[uvicorn.Server]:
    """A uvicorn server in this event loop serving `app` with WebSocket protocol `ws`, on a
    free port (`server.config.port`), until the block ends; `options` go to its Config."""
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=free_port(),
        ws=ws,
        log_level="warning",
        lifespan="off",
        **options,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(20):
            while not server.started:  # uvicorn sets a flag, no event to await
                await asyncio.sleep(0.01)
        yield server
    finally:
        server.should_exit = True
        await task
