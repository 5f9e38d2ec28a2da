"""The command path in-process: CPU milliseconds per command of the rooms service.

    python bench/command_path.py REPO_ROOT [ROOMS] [COMMANDS]

R Karanor rooms x 4 seats on a temporary SQLite file, a fake socket on every seat
(each gets every view), each room's driver sending a random legal command of its
latest view with `expected_version`. Prints process CPU time per accepted command
(the server's work and this driver's view parsing, the same for every version of the
code) and accepted commands per wall second. Pointing REPO_ROOT at a `git worktree`
of an older commit compares two versions of the command path on one machine (the
older one's Connection takes the seat index too: handled below).
"""

import asyncio
import inspect
import os
import random
import sys
import tempfile
import time

root = sys.argv[1] if len(sys.argv) > 1 else "."
rooms_n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
commands_n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
sys.path.insert(0, os.path.abspath(root))
os.chdir(root)

import orjson  # noqa: E402
from starlette.websockets import WebSocketState  # noqa: E402

from app.config import Settings  # noqa: E402
from app.realtime.hub import Connection  # noqa: E402
from app.rooms.service import RoomService  # noqa: E402
from app.store import migrate  # noqa: E402
from app.store.db import create_db_engine  # noqa: E402


class FakeSocket:
    """Keeps the last view message it was sent."""

    def __init__(self) -> None:
        self.last: str | None = None
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        if text.startswith('{"type":"view"'):
            self.last = text

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED


async def main() -> None:
    folder = tempfile.mkdtemp(prefix="karanor-command-path-")
    url = f"sqlite:///{folder}/karanor.db"
    migrate.upgrade(url)
    engine = create_db_engine(url)
    settings = Settings(database_url=url, bot_delay=0, command_rate=1e9, command_burst=10**9)
    service = RoomService(engine, settings)
    await service.startup()
    try:  # the collector as `karanor serve` sets it (absent before the third round)
        from app.server import tune_gc  # noqa: PLC0415

        tune_gc()
    except ImportError:
        pass
    by_seat_id = len(inspect.signature(Connection.__init__).parameters) == 4  # (ws, code, id)
    tables = []
    for _ in range(rooms_n):
        code, token = await service.create_room("A", {"max_players": 4})
        tokens = [token] + [(await service.join(code, f"P{i}"))[1] for i in range(3)]
        callers = [await service.authenticate(code, t) for t in tokens]
        await service.start(callers[0], None)
        sockets = []
        for caller in callers:
            fake = FakeSocket()
            seat = caller.seat
            if by_seat_id:
                conn = Connection(fake, code, seat.id)  # type: ignore[arg-type]
            else:  # the command path before the redesign
                conn = Connection(fake, code, seat.index, seat.id)  # type: ignore[call-arg]
            await service.connect(conn)
            sockets.append(fake)
        tables.append((callers, sockets))
    rng = random.Random(1)
    done = sent = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()

    async def drive(callers: list, sockets: list[FakeSocket]) -> None:
        nonlocal done, sent
        while done < commands_n:
            await asyncio.sleep(0)
            found = None
            for i, fake in enumerate(sockets):
                if fake.last is not None:
                    view = orjson.loads(fake.last)["view"]
                    if view.get("legal_actions"):
                        found = (i, view)
                        break
            if found is None:
                await asyncio.sleep(0.001)
                continue
            i, view = found
            sent += 1
            try:
                await service.command(
                    callers[i], f"c{sent}", rng.choice(view["legal_actions"]), view["version"]
                )
                done += 1
            except Exception:  # a stale view (the next one is on its way): choose again
                pass

    await asyncio.gather(*(drive(c, s) for c, s in tables))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(
        f"commands={done} cpu_ms_per_command={cpu / done * 1000:.3f} "
        f"commands_per_wall_second={done / wall:.0f}"
    )
    await service.shutdown()
    engine.dispose()


asyncio.run(main())
