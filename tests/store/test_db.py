"""Engine settings: SQLite pragmas, folder creation, JSON round trip on both backends."""

from pathlib import Path

from sqlalchemy import select, text

from app.store.db import create_db_engine, create_sessionmaker
from app.store.models import Game, Room, Seat


def test_sqlite_engine_creates_folder_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "karanor.db"
    engine = create_db_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            pragma = connection.exec_driver_sql
            assert pragma("PRAGMA journal_mode").scalar() == "wal"
            assert pragma("PRAGMA foreign_keys").scalar() == 1
            assert pragma("PRAGMA synchronous").scalar() == 2  # FULL (the default)
            assert (pragma("PRAGMA busy_timeout").scalar() or 0) >= 1000
    finally:
        engine.dispose()
    assert path.is_file()


def test_models_round_trip(migrated_database_url: str) -> None:
    engine = create_db_engine(migrated_database_url)
    sessions = create_sessionmaker(engine)
    try:
        with sessions.begin() as session:
            room = Room(
                code="KRN1", game_kind="karanor", options={"players": 3, "secret_quests": True}
            )
            room.seats = [Seat(index=0, name="Ada", token_hash="h0", is_host=True)]
            room.seats.append(Seat(index=1, name="Bot", is_bot=True))
            room.game = Game(content_pack="base", seed=2**62, snapshot={"phase": "draft"})
            session.add(room)
        with sessions() as session:
            room = session.scalars(select(Room).where(Room.code == "KRN1")).one()
            assert room.status == "lobby"
            assert room.options == {"players": 3, "secret_quests": True}
            assert [(s.index, s.is_bot, s.token_hash) for s in room.seats] == [
                (0, False, "h0"),
                (1, True, None),
            ]
            assert room.game is not None
            assert (room.game.seed, room.game.version) == (2**62, 0)
            assert room.game.snapshot == {"phase": "draft"}
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM rooms"))
            # ON DELETE CASCADE reaches seats and games on both backends.
            assert connection.scalar(text("SELECT count(*) FROM seats")) == 0
            assert connection.scalar(text("SELECT count(*) FROM games")) == 0
    finally:
        engine.dispose()
