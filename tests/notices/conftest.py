"""The rooms' in-process fixtures (a real RoomService on SQLite and PostgreSQL)."""

from tests.rooms.conftest import run_service  # noqa: F401
