"""Settings read from the environment."""

from pathlib import Path

import pytest

from app.config import Settings


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "KARANOR_DATA_DIR", "HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)


def test_default_database_is_sqlite_file_in_data_dir(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.database_url == f"sqlite:///{tmp_path / 'data' / 'karanor.db'}"
    assert (settings.host, settings.port, settings.redis_url) == ("127.0.0.1", 8000, None)


def test_data_dir_from_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KARANOR_DATA_DIR", str(tmp_path / "d"))
    assert Settings().database_url == f"sqlite:///{tmp_path / 'd' / 'karanor.db'}"


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgres://u:p@h:5/db", "postgresql+psycopg://u:p@h:5/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///rel/k.db", "sqlite:///rel/k.db"),
        ("sqlite:////abs/k.db", "sqlite:////abs/k.db"),
    ],
)
def test_database_url_as_written(monkeypatch, given: str, used: str) -> None:
    monkeypatch.setenv("DATABASE_URL", given)
    assert Settings().database_url == used


def test_environment_variables(monkeypatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("KARANOR_BOT_DELAY_SECONDS", "0")
    settings = Settings()
    assert settings.redis_url == "redis://127.0.0.1:6379/0"
    assert (settings.host, settings.port) == ("0.0.0.0", 9000)
    assert settings.allowed_origins == ["https://a.example", "https://b.example"]
    assert settings.bot_delay_seconds == 0


def test_empty_redis_url_means_none(monkeypatch) -> None:
    monkeypatch.setenv("REDIS_URL", "")
    assert Settings().redis_url is None
