"""Alembic owns the schema: upgrade to head, match the models, downgrade to base."""

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app.store import migrate
from app.store.db import create_db_engine
from app.store.models import Base

PLATFORM_TABLES = {"rooms", "seats", "games", "game_events", "chat_messages"}


def _tables(url: str) -> set[str]:
    engine = create_db_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_to_head_then_downgrade_to_base(database_url: str) -> None:
    assert migrate.current_revision(database_url) is None

    migrate.upgrade(database_url)
    assert migrate.current_revision(database_url) == migrate.head_revision()
    assert _tables(database_url) >= PLATFORM_TABLES

    migrate.downgrade(database_url, "base")
    assert migrate.current_revision(database_url) is None
    assert _tables(database_url) <= {"alembic_version"}

    # And back up again: a downgrade leaves nothing behind that blocks an upgrade.
    migrate.upgrade(database_url)
    assert _tables(database_url) >= PLATFORM_TABLES


def test_migrations_match_models(migrated_database_url: str) -> None:
    engine = create_db_engine(migrated_database_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            diff = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_upgrade_is_idempotent(migrated_database_url: str) -> None:
    migrate.upgrade(migrated_database_url)
    assert migrate.current_revision(migrated_database_url) == migrate.head_revision()


def test_constraints_hold(migrated_database_url: str) -> None:
    """Unique version per game and unique command id per seat are enforced by the database."""
    engine = create_db_engine(migrated_database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO rooms (code, options) VALUES ('ABCD', '{}')"))
            connection.execute(
                text(
                    "INSERT INTO games (room_id, content_pack, options, seed) "
                    "SELECT id, 'base', '{}', 9007199254740993 FROM rooms"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO game_events (game_id, version, seat, command_id, command, events)"
                    " SELECT id, 1, 0, 'c1', '{}', '[]' FROM games"
                )
            )
        for version, command_id in ((1, "c2"), (2, "c1")):
            try:
                with engine.begin() as connection:
                    connection.execute(
                        text(
                            "INSERT INTO game_events "
                            "(game_id, version, seat, command_id, command, events) "
                            "SELECT id, :v, 0, :c, '{}', '[]' FROM games"
                        ),
                        {"v": version, "c": command_id},
                    )
            except Exception as error:  # IntegrityError, whatever the driver calls it
                assert "unique" in str(error).lower() or "duplicate" in str(error).lower()
            else:
                raise AssertionError(f"duplicate accepted: version={version} id={command_id}")
        with engine.connect() as connection:
            assert connection.scalar(text("SELECT seed FROM games")) == 9007199254740993
    finally:
        engine.dispose()


def test_alembic_is_configured_in_code_without_an_ini_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # no alembic.ini here
    config = migrate.alembic_config(f"sqlite:///{tmp_path / 'k.db'}")
    assert config.config_file_name is None
    location = Path(config.get_main_option("script_location") or "")
    assert (location / "env.py").is_file()
    assert migrate.is_known_revision(str(migrate.head_revision()))
    assert not migrate.is_known_revision("no_such_revision")
    migrate.upgrade(f"sqlite:///{tmp_path / 'k.db'}")
    assert migrate.current_revision(f"sqlite:///{tmp_path / 'k.db'}") == migrate.head_revision()


def test_packaged_folders_win_over_the_source_tree(tmp_path, monkeypatch) -> None:
    from app import paths

    # In a source tree (editable install) the folders beside the package are used...
    assert paths.migrations_dir() == paths.PACKAGE_DIR.parent / "migrations"
    assert (paths.templates_dir() / "base.html").is_file()
    assert paths.static_dir().is_dir()
    # ...and inside an installed package, the package's own copy.
    fake_package = tmp_path / "app"
    (fake_package / "templates").mkdir(parents=True)
    monkeypatch.setattr(paths, "files", lambda name: fake_package)
    assert paths.templates_dir() == fake_package / "templates"
    monkeypatch.setattr(paths, "PACKAGE_DIR", tmp_path / "nowhere" / "app")
    try:
        paths.static_dir()
    except FileNotFoundError as error:
        assert "static/" in str(error)
    else:
        raise AssertionError("a missing static/ folder went unnoticed")
