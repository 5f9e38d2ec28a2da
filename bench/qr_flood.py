"""One anonymous client flooding `POST /api/qr` (issue 32): how much of a core it holds.

    .venv/bin/python -m bench.qr_flood [--seconds 6] [--clients 4] [--tree PATH]

Starts a server on a fresh SQLite database (`--tree`: the checkout whose server to run,
e.g. a worktree of an older commit, for a before/after figure), then `--clients`
connections from one address post the longest link that server accepts, each one
different (no cache helps), for `--seconds`. Prints the answers by status and the
server's CPU seconds over the flood.
"""

import argparse
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

from bench.server import ServerProcess


def flood(url: str, seconds: float, clients: int, link_chars: int, wide: bool) -> Counter[int]:
    """Post distinct links from `clients` threads for `seconds`; the statuses counted."""
    counts: Counter[int] = Counter()
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def run(n: int) -> None:
        i = 0
        with httpx.Client(base_url=url, timeout=30) as http:
            while time.monotonic() < deadline:
                i += 1
                tail = f"{n}-{i}-"
                filler = ("\U0001f600" if wide else "a") * (link_chars - len(tail) - 9)
                status = http.post("/api/qr", json={"text": f"http://h/{tail}{filler}"}).status_code
                with lock:
                    counts[status] += 1

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--tree", help="run the server of this checkout (default: this one)")
    parser.add_argument(
        "--old-cap", action="store_true", help="links of 500 four-byte characters (the old cap)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        command = None
        if args.tree:
            command = [
                "sh", "-c",
                f"cd {args.tree} && exec {sys.executable} -m app.cli serve "
                "--host 127.0.0.1 --port {port}",
            ]  # fmt: skip
        env = {"DATABASE_URL": None, "KARANOR_LOG_LEVEL": "warning"}
        with ServerProcess(Path(workdir), env=env, command=command) as server:
            before = server.cpu_seconds()
            link_chars = 500 if args.old_cap else 256
            counts = flood(server.url, args.seconds, args.clients, link_chars, args.old_cap)
            used = server.cpu_seconds() - before
    shown = ", ".join(f"{status}: {n}" for status, n in sorted(counts.items()))
    print(
        f"{args.clients} clients, {args.seconds:.0f} s, links of {link_chars} "
        f"{'four-byte characters' if args.old_cap else 'bytes'}: {shown}; "
        f"server CPU {used:.2f} s ({used / args.seconds:.0%} of a core)"
    )


if __name__ == "__main__":
    main()
