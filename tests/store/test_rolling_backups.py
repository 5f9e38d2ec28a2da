"""Rolling backups (issue 32, "a home server whose owner never runs `karanor backup`"):
`karanor serve` keeps them on its own while games are played, `karanor restore` lists
them and puts one back, and the server started on it plays on."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.store import migrate, rolling
from app.store.backup import backup, default_backup_name
from tests.helpers.server import REPO_ROOT, ServerProcess
from tests.ops.play import bearer, log_of, open_table, view
from tests.store.test_backup import Players, play_on, wait_until

T0 = datetime(2026, 3, 1, 12, 0, 0)


def names(folder: Path) -> list[str]:
    return [b.path.name for b in rolling.list_backups(folder)]


def test_rolling_backups_keep_the_last_ones_and_never_the_owners(
    sqlite_url: str, tmp_path: Path
) -> None:
    migrate.upgrade(sqlite_url)
    folder = tmp_path / "backups"
    backup(sqlite_url, folder / default_backup_name(sqlite_url, T0))  # the owner's own
    for hour in range(1, 5):
        rolling.take(sqlite_url, folder, keep=2, now=T0 + timedelta(hours=hour))
    assert names(folder) == [
        "karanor-auto-20260301-160000.db",
        "karanor-auto-20260301-150000.db",
        "karanor-20260301-120000.db",
    ]
    listed = rolling.list_backups(folder)
    assert [b.automatic for b in listed] == [True, True, False]
    assert listed[0].taken == T0 + timedelta(hours=4) and listed[0].size > 0
    # Two in the same second: both kept, neither over the other.
    rolling.take(sqlite_url, folder, keep=9, now=T0 + timedelta(hours=4))
    assert names(folder)[:2] == [
        "karanor-auto-20260301-160000-2.db",
        "karanor-auto-20260301-160000.db",
    ]
    # One being written is no backup (nor its SQLite journal, while the keys go in).
    (folder / "karanor-auto-20260301-170000.db.partial").write_bytes(b"half")
    (folder / "karanor-auto-20260301-170000.db.partial-journal").write_bytes(b"half")
    assert names(folder)[0] == "karanor-auto-20260301-160000-2.db"


def test_the_next_rolling_backup_is_due_an_interval_after_the_newest(
    sqlite_url: str, tmp_path: Path
) -> None:
    migrate.upgrade(sqlite_url)
    folder, every = tmp_path / "backups", 6 * 3600.0
    assert rolling.seconds_until_due(folder, every, now=T0) == 0  # none yet: due now
    rolling.take(sqlite_url, folder, keep=3, now=T0)
    backup(sqlite_url, folder / default_backup_name(sqlite_url, T0 + timedelta(hours=5)))
    # The owner's backup does not move the schedule; a restart does not either.
    assert rolling.seconds_until_due(folder, every, now=T0 + timedelta(hours=1)) == 5 * 3600 + 1
    assert rolling.seconds_until_due(folder, every, now=T0 + timedelta(days=2)) == 0


def test_rolling_backups_are_on_by_default_for_sqlite_only(tmp_path: Path) -> None:
    home = Settings(data_dir=tmp_path)
    assert home.auto_backups_on and home.backup_dir == tmp_path / "backups"
    elsewhere = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/db/k.db")
    assert elsewhere.backup_dir == tmp_path / "db" / "backups"  # beside its database
    postgres = Settings(data_dir=tmp_path, database_url="postgresql://k@db/k")
    assert not postgres.auto_backups_on and postgres.backup_dir == tmp_path / "backups"
    assert Settings(database_url="postgresql://k@db/k", auto_backup=True).auto_backups_on
    assert not Settings(data_dir=tmp_path, auto_backup=False).auto_backups_on


def test_a_rolling_backup_leaves_alembic_out_of_the_server(sqlite_url: str, tmp_path: Path) -> None:
    migrate.upgrade(sqlite_url)
    probe = (
        "import sys\nfrom pathlib import Path\nfrom app.store import rolling\n"
        f"rolling.take({sqlite_url!r}, Path({str(tmp_path / 'b')!r}), keep=1)\n"
        "print(sorted(m for m in sys.modules if m.startswith('alembic')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert len(names(tmp_path / "b")) == 1


def karanor(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KARANOR_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_a_rolling_backup_taken_during_play_restores_to_a_server_that_plays_on(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """A home server (SQLite in its data folder, settings left alone but the interval):
    backups roll while three tables play; one taken during play is put back with
    `karanor restore N --replace`, and the server started again plays every room on."""
    data = tmp_path / "home"
    env = {
        "DATABASE_URL": None,  # the default: karanor.db in the data folder
        "KARANOR_DATA_DIR": str(data),
        "KARANOR_BACKUP_EVERY_HOURS": "0.0005",  # 1.8 s
        "KARANOR_BACKUP_KEEP": "1000",
        "KARANOR_BOT_DELAY_SECONDS": "0",
        "KARANOR_LOG_LEVEL": "warning",
    }
    server = server_factory(env=env).start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        tables = [open_table(http, humans=2) for _ in range(3)]
    folder = data / "backups"

    with Players(server.url, tables) as players:
        wait_until(lambda: players.total() >= 15)
        before = players.total()  # acknowledged, so in any backup begun from now on
        started = datetime.now()

        def taken_since() -> list[rolling.BackupFile]:
            return [b for b in rolling.list_backups(folder) if b.taken > started]

        wait_until(lambda: bool(taken_since()))
        during = taken_since()[-1]  # the first one begun after `before` commands
        at_backup = players.total()
        wait_until(lambda: players.total() >= at_backup + 6)  # and play went on
    with httpx.Client(base_url=server.url, timeout=15) as http:
        old_logs = {t.code: log_of(http, t) for t in tables}
    server.stop()
    # It carries the server's keys (the device cookie's; Web Push's is on by default).
    with sqlite3.connect(during.path) as db:
        carried = dict(db.execute("SELECT name, content FROM karanor_backup_files"))
    assert carried == {
        p.name: p.read_bytes() for p in (data / "vapid_private.pem", data / "secret_key")
    }

    listing = karanor(data, "restore")
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    line = next((x for x in lines if x.endswith(during.path.name)), listing.stdout)
    assert "rolling" in line
    number = re.match(r"\s*(\d+)\s", line)
    assert number is not None
    # Without --replace a restore refuses the database in use, and leaves it be.
    refused = karanor(data, "restore", number.group(1))
    assert refused.returncode == 1 and "not empty" in refused.stderr
    restored = karanor(data, "restore", number.group(1), "--replace")
    assert restored.returncode == 0, restored.stderr
    assert list(data.glob("karanor.db.replaced-*"))  # the database it replaced, kept

    server.start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        total = 0
        for table in tables:
            new_log = log_of(http, table)
            assert new_log == old_logs[table.code][: len(new_log)]  # one consistent copy
            assert view(http, table, 1)["version"] == len(new_log)
            total += len(new_log)
            assert play_on(http, table) > len(new_log)
            room = http.get(f"/api/rooms/{table.code}", headers=bearer(table.tokens[0]))
            assert room.json()["status"] == "playing"
        # Everything acknowledged before the backup began is in it; not what came after.
        assert before <= total < sum(len(log) for log in old_logs.values())
