"""The command path in-process: CPU milliseconds per command of the rooms service.

    python bench/command_path.py REPO_ROOT [ROOMS] [COMMANDS]
    python bench/command_path.py REPO_ROOT writer [DATABASE_URL]   # the writer alone

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
writer_only = len(sys.argv) > 2 and sys.argv[2] == "writer"
rooms_n = int(sys.argv[2]) if len(sys.argv) > 2 and not writer_only else 20
commands_n = int(sys.argv[3]) if len(sys.argv) > 3 and not writer_only else 2000
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


async def writer_main(url: str | None) -> None:
    """The store's writer alone: 20 games, 300 rounds of one record per game queued at
    once (groups of 20; a snapshot every 20th version), SQLite NORMAL (no fsync cost) or
    DATABASE_URL. Prints CPU and wall microseconds per record."""
    from app.store import repo
    from app.store.db import write_transaction
    from app.store.writer import LogRecord, Writer

    if url is None:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='karanor-writer-')}/k.db"
    migrate.upgrade(url)
    engine = create_db_engine(url, sqlite_synchronous="NORMAL")
    games = []
    with write_transaction(engine) as conn:
        for i in range(20):
            room = repo.insert_room(conn, code=f"W{i}{os.getpid()}", game="karanor", options={})
            game = repo.insert_game(
                conn, room_id=room, content_pack="base", options={}, seed=i, snapshot={}
            )
            games.append((room, game))
    events = [{"type": "moved", "seat": 1, "to": 3, "gold": 4}] * 3
    snapshot = {"big": list(range(500))}
    writer = Writer(engine)
    version = dict.fromkeys((g for _, g in games), 0)
    n = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for round_ in range(300):
        pending = []
        for room, game in games:
            v = version[game]
            record = LogRecord(
                game, room, v, 1, f"c{round_}", {"type": "move", "to": "Kien"}, events,
                "playing", snapshot if (v + 1) % 20 == 0 else None,
            )  # fmt: skip
            pending.append(writer.append(record))
            version[game] = v + 1
            n += 1
        await asyncio.gather(*pending)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"records={n} cpu_us_per_record={cpu / n * 1e6:.1f} wall_us={wall / n * 1e6:.1f}")
    writer.stop()
    engine.dispose()


if writer_only:
    asyncio.run(writer_main(sys.argv[3] if len(sys.argv) > 3 else None))
else:
    asyncio.run(main())
