"""`karanor backup` while games are played, `karanor restore` into a second server where
every room plays on; SQLite and PostgreSQL, and a SQLite backup moved to PostgreSQL."""

import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.store import backup as store_backup
from app.store import migrate
from tests.helpers.server import REPO_ROOT, ServerProcess
from tests.ops.play import Table, bearer, log_of, open_table, try_one_command, view

FAST_ENV = {"KARANOR_BOT_DELAY_SECONDS": "0", "KARANOR_LOG_LEVEL": "warning"}


def karanor(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


@pytest.fixture
def second_database_url(database_url: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Another empty database on the same backend as `database_url`."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'second' / 'karanor.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


class Players:
    """Plays every table from a thread until stopped, counting accepted commands."""

    def __init__(self, base: str, tables: list[Table]) -> None:
        self.base, self.tables = base, tables
        self.accepted: Counter[str] = Counter()
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        rng = random.Random(19)
        try:
            with httpx.Client(base_url=self.base, timeout=15) as http:
                while not self.stop.is_set():
                    for table in self.tables:
                        if try_one_command(http, table, rng) is not None:
                            self.accepted[table.code] += 1
        except BaseException as error:  # shown by the test, not lost in the thread
            self.error = error

    def total(self) -> int:
        assert self.error is None, self.error
        return sum(self.accepted.values())

    def __enter__(self) -> "Players":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)
        assert self.error is None, self.error


def play_on(http: httpx.Client, table: Table) -> int:
    """Send legal commands until one is accepted; its version."""
    rng = random.Random(table.code)
    for _ in range(50):
        version = try_one_command(http, table, rng)
        if version is not None:
            return version
    raise AssertionError(f"room {table.code}: no command accepted after the restore")


@pytest.mark.slow
def test_backup_while_playing_then_every_room_plays_on_after_a_restore(
    database_url: str,
    second_database_url: str,
    server_factory: Callable[..., ServerProcess],
    tmp_path: Path,
) -> None:
    first = server_factory(env={"DATABASE_URL": database_url, **FAST_ENV}).start()
    with httpx.Client(base_url=first.url, timeout=15) as http:
        tables = [open_table(http, humans=2) for _ in range(3)]
    backup_file = tmp_path / (
        "karanor.db" if database_url.startswith("sqlite") else "karanor.jsonl.gz"
    )

    with Players(first.url, tables) as players:
        wait_until(lambda: players.total() >= 15)
        result = karanor("backup", str(backup_file), database_url=database_url)
        assert result.returncode == 0, result.stderr
        at_backup = players.total()
        # Commands flowed while the copy was taken, and after it.
        wait_until(lambda: players.total() >= at_backup + 6)

    result = karanor("restore", str(backup_file), database_url=second_database_url)
    assert result.returncode == 0, result.stderr
    assert migrate.current_revision(second_database_url) == migrate.head_revision()
    # A second restore finds the database in use and refuses, saying why.
    again = karanor("restore", str(backup_file), database_url=second_database_url)
    assert again.returncode == 1
    assert "not empty" in again.stderr

    second = server_factory(env={"DATABASE_URL": second_database_url, **FAST_ENV}).start()
    with (
        httpx.Client(base_url=first.url, timeout=15) as old,
        httpx.Client(base_url=second.url, timeout=15) as new,
    ):
        restored_commands = 0
        for table in tables:
            old_log, new_log = log_of(old, table), log_of(new, table)
            # A consistent copy: each room at one version, its log exactly the first ones.
            assert new_log == old_log[: len(new_log)]
            for seat in range(len(table.tokens)):
                assert view(new, table, seat)["version"] == len(new_log)
            restored_commands += len(new_log)
            version = play_on(new, table)
            assert version > len(new_log)
            room = new.get(f"/api/rooms/{table.code}", headers=bearer(table.tokens[0]))
            assert room.status_code == 200 and room.json()["status"] == "playing"
        assert restored_commands >= 15


@pytest.mark.slow
@pytest.mark.postgres
def test_a_sqlite_backup_moves_a_home_server_to_postgresql(
    sqlite_url: str,
    postgres_url: str,
    server_factory: Callable[..., ServerProcess],
    tmp_path: Path,
) -> None:
    home = server_factory(env={"DATABASE_URL": sqlite_url, **FAST_ENV}).start()
    rng = random.Random(3)
    with httpx.Client(base_url=home.url, timeout=15) as http:
        table = open_table(http, humans=2, bots=1)
        wait_until(lambda: try_one_command(http, table, rng) is not None)
        before = log_of(http, table)
    home.stop()

    report = store_backup.backup(sqlite_url, tmp_path / "home.db")
    assert report.kind == "sqlite" and report.rows["game_events"] == len(before)
    store_backup.restore(postgres_url, tmp_path / "home.db")

    big = server_factory(env={"DATABASE_URL": postgres_url, **FAST_ENV}).start()
    with httpx.Client(base_url=big.url, timeout=15) as http:
        assert log_of(http, table) == before
        assert play_on(http, table) > len(before)
        # New rooms get fresh ids past the restored ones (the sequences were moved on).
        open_table(http, humans=2)


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path, sqlite_url: str) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    with pytest.raises(store_backup.BackupError, match="neither a SQLite file"):
        store_backup.restore(sqlite_url, junk)
    with pytest.raises(store_backup.BackupError, match="no backup at"):
        store_backup.restore(sqlite_url, tmp_path / "missing.db")


def test_backup_of_a_database_never_served_says_so(tmp_path: Path) -> None:
    result = karanor(
        "backup", str(tmp_path / "b.db"), database_url=f"sqlite:///{tmp_path / 'none.db'}"
    )
    assert result.returncode == 1
    assert "no database at" in result.stderr
    assert not (tmp_path / "b.db").exists()


def _played_sqlite(server_factory: Callable[..., ServerProcess], url: str) -> list[Table]:
    """A SQLite database with two started rooms and a few commands, the server stopped."""
    home = server_factory(env={"DATABASE_URL": url, **FAST_ENV}).start()
    rng = random.Random(11)
    with httpx.Client(base_url=home.url, timeout=15) as http:
        tables = [open_table(http, humans=2) for _ in range(2)]
        for table in tables:
            wait_until(lambda t=table: try_one_command(http, t, rng) is not None)
    home.stop()
    return tables


@pytest.mark.slow
def test_a_backup_of_an_older_schema_is_restored_then_migrated(
    sqlite_url: str, server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    tables = _played_sqlite(server_factory, sqlite_url)
    head = migrate.head_revision()
    older = migrate.previous_revision(str(head))
    assert older is not None
    migrate.downgrade(sqlite_url, older)  # as if made by the previous version
    report = store_backup.backup(sqlite_url, tmp_path / "old.db")
    assert report.revision == older

    target = f"sqlite:///{tmp_path / 'new' / 'karanor.db'}"
    restored = store_backup.restore(target, tmp_path / "old.db")
    assert restored.rows == {k: v for k, v in report.rows.items() if v}
    assert migrate.current_revision(target) == head
    server = server_factory(env={"DATABASE_URL": target, **FAST_ENV}).start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        for table in tables:
            assert play_on(http, table) >= 2


def test_default_backup_file_goes_to_the_data_folder(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'karanor.db'}"
    migrate.upgrade(url)
    env = {**os.environ, "KARANOR_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "backup"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (made,) = (tmp_path / "backups").glob("karanor-*.db")
    assert str(made) in result.stdout
