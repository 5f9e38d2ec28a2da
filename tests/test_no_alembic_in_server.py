"""Alembic stays out of a serving process (~10 MB resident for its life): `karanor serve`
migrates in a child process, and `/readyz` reads the schema's revision with one query and
the program's latest revision from the migration scripts' source."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from app.store import migrate
from app.store.db import create_db_engine
from tests.helpers.server import REPO_ROOT

# The serve path of `app.server.serve` in a process of its own, uvicorn.run replaced by a
# test client's requests: migrated by the child, ready, and alembic never imported here.
SERVE_PROBE = """
import sys
import uvicorn
from fastapi.testclient import TestClient
from app.config import Settings
from app.server import serve

def run(app, **options):
    with TestClient(app) as client:
        print(client.get("/readyz").json())
        room = client.post("/api/rooms", json={"name": "Ann"})
        print(room.status_code)
    print("alembic" in sys.modules, sorted(m for m in sys.modules if m.startswith("alembic")))

uvicorn.run = run
serve(Settings(database_url=sys.argv[1], cleanup_interval_seconds=0))
"""


def test_a_served_process_migrates_without_importing_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'karanor.db'}"
    out = subprocess.run(
        [sys.executable, "-c", SERVE_PROBE, url],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    ready, created, imported = out.stdout.strip().splitlines()[-3:]
    head = migrate.head_revision()
    assert ready == str({"status": "ok", "database": "ok", "schema": head})
    assert created == "201"
    assert imported == "False []"
    assert migrate.current_revision(url) == head


def test_a_failed_migration_stops_serve(tmp_path: Path) -> None:
    # A folder where the SQLite file should be: the child's upgrade fails, serve says so.
    (tmp_path / "karanor.db").mkdir()
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", "0"],
        cwd=REPO_ROOT,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'karanor.db'}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1, out.stderr
    assert "karanor: the database migration failed (exit status 1); not serving" in out.stderr
    assert "Karanor Online" not in out.stdout  # no banner: it never served


def test_head_revision_is_alembics_without_alembic() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config("sqlite://"))
    assert migrate.head_revision() == script.get_current_head()
    assert migrate.script_revisions() == {
        rev.revision: rev.down_revision for rev in script.walk_revisions()
    }


def _alembics_revision(url: str) -> str | None:
    engine = create_db_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


@pytest.mark.parametrize("steps", ["none", "first", "head", "base"])
def test_revision_of_reads_what_alembic_reads(database_url: str, steps: str) -> None:
    first = min(migrate.script_revisions())
    if steps == "first":
        migrate.upgrade(database_url, first)
    elif steps in ("head", "base"):
        migrate.upgrade(database_url)
    if steps == "base":
        migrate.downgrade(database_url, "base")  # the version table stays, empty
    assert migrate.current_revision(database_url) == _alembics_revision(database_url)
    expected = {"none": None, "first": first, "head": migrate.head_revision(), "base": None}
    assert migrate.current_revision(database_url) == expected[steps]
