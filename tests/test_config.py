"""Settings read from the environment."""

import os
import re
import sys
from pathlib import Path

import pytest

from app.config import Settings
from tests.helpers.server import REPO_ROOT


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("KARANOR_") or name in PLAIN_NAMES:
            monkeypatch.delenv(name, raising=False)


PLAIN_NAMES = (
    "DATABASE_URL",
    "REDIS_URL",
    "HOST",
    "PORT",
    "ALLOWED_ORIGINS",
    "FORWARDED_ALLOW_IPS",
)


@pytest.mark.skipif(sys.platform != "linux", reason="XDG folders are Linux's")
def test_default_database_is_in_the_per_user_data_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.data_dir == tmp_path / "xdg" / "karanor"
    assert settings.database_url == f"sqlite:///{tmp_path / 'xdg' / 'karanor' / 'karanor.db'}"
    assert settings.sqlite_path == tmp_path / "xdg" / "karanor" / "karanor.db"
    assert (settings.host, settings.port, settings.redis_url) == ("127.0.0.1", 8000, None)
    assert settings.sqlite_synchronous == "FULL"


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
    assert settings.bot_delay == 0


def test_empty_redis_url_means_none(monkeypatch) -> None:
    monkeypatch.setenv("REDIS_URL", "")
    assert Settings().redis_url is None


# Every variable of the README's configuration table, a value for it, and where it lands.
DOCUMENTED = {
    "KARANOR_DATA_DIR": ("/srv/k", "data_dir", Path("/srv/k")),
    "DATABASE_URL": ("postgresql://u@h/d", "database_url", "postgresql+psycopg://u@h/d"),
    "KARANOR_SQLITE_SYNCHRONOUS": ("normal", "sqlite_synchronous", "NORMAL"),
    "REDIS_URL": ("redis://r:6379/1", "redis_url", "redis://r:6379/1"),
    "KARANOR_REDIS_PREFIX": ("k2", "redis_prefix", "k2"),
    "KARANOR_SYNC_INTERVAL": ("0.5", "sync_interval", 0.5),
    "KARANOR_ROOM_IDLE_SECONDS": ("30", "room_idle_seconds", 30.0),
    "KARANOR_GAMES": ("a.b:C, d.e:F", "games", ["a.b:C", "d.e:F"]),
    "HOST": ("0.0.0.0", "host", "0.0.0.0"),
    "PORT": ("9000", "port", 9000),
    "ALLOWED_ORIGINS": ("https://a.example", "allowed_origins", ["https://a.example"]),
    "KARANOR_BOT_DELAY_SECONDS": ("0", "bot_delay", 0.0),
    "KARANOR_BOT_BUDGET_SECONDS": ("2.5", "bot_budget", 2.5),
    "KARANOR_BOT_WORKERS": ("3", "bot_workers", 3),
    "KARANOR_GAME_SEED": ("36", "game_seed", 36),
    "KARANOR_COMMAND_RATE": ("5", "command_rate", 5.0),
    "KARANOR_COMMAND_BURST": ("6", "command_burst", 6),
    "KARANOR_WS_MESSAGE_RATE": ("7", "ws_message_rate", 7.0),
    "KARANOR_WS_MESSAGE_BURST": ("8", "ws_message_burst", 8),
    "KARANOR_MAX_SOCKETS_PER_IP": ("9", "max_sockets_per_ip", 9),
    "KARANOR_MAX_SOCKETS_PER_SEAT": ("3", "max_sockets_per_seat", 3),
    "KARANOR_ROOMS_PER_HOUR": ("0", "rooms_per_hour", 0),
    "KARANOR_QR_PER_MINUTE": ("10", "qr_per_minute", 10),
    "KARANOR_TABLE_PER_MINUTE": ("11", "table_per_minute", 11),
    "KARANOR_OPS_PER_MINUTE": ("12", "ops_per_minute", 12),
    "KARANOR_AUTO_BACKUP": ("false", "auto_backup", False),
    "KARANOR_BACKUP_EVERY_HOURS": ("24", "backup_every_hours", 24.0),
    "KARANOR_BACKUP_KEEP": ("3", "backup_keep", 3),
    "KARANOR_WS_IDLE_SECONDS": ("60", "ws_idle_seconds", 60.0),
    "KARANOR_TRUST_PROXY": ("true", "trust_proxy", True),
    "FORWARDED_ALLOW_IPS": ("10.0.0.2", "forwarded_allow_ips", "10.0.0.2"),
    "KARANOR_HEADER_TIMEOUT": ("4", "header_timeout", 4.0),
    "KARANOR_KEEP_ALIVE_TIMEOUT": ("3", "keep_alive_timeout", 3),
    "KARANOR_MAX_CONNECTIONS": ("100", "max_connections", 100),
    "KARANOR_MAX_HEADER_BYTES": ("8192", "max_header_bytes", 8192),
    "KARANOR_FINISHED_RETENTION_DAYS": ("1", "finished_retention_days", 1.0),
    "KARANOR_IDLE_RETENTION_DAYS": ("2", "idle_retention_days", 2.0),
    "KARANOR_CLEANUP_INTERVAL_SECONDS": ("0", "cleanup_interval_seconds", 0.0),
    "KARANOR_LOG_LEVEL": ("debug", "log_level", "debug"),
    "KARANOR_LOG_FORMAT": ("JSON", "log_format", "json"),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
def test_every_documented_variable_is_read(monkeypatch, name: str) -> None:
    value, field, expected = DOCUMENTED[name]
    monkeypatch.setenv(name, value)
    assert getattr(Settings(), field) == expected


def test_the_readme_documents_exactly_these_variables() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`((?:KARANOR_)?[A-Z][A-Z_]+)`", section))
    documented = {n for n in documented if n.startswith("KARANOR_") or n in PLAIN_NAMES}
    documented.discard("KARANOR_")  # the prefix itself, named in the prose
    assert documented == set(DOCUMENTED)


def test_fields_are_read_with_the_prefix_only(monkeypatch) -> None:
    # A stray unprefixed variable (a shell's LOG_LEVEL) does not reach the server.
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("DATA_DIR", "/nowhere")
    settings = Settings()
    assert settings.log_level == "info"
    assert settings.data_dir != Path("/nowhere")


def test_bad_values_are_refused(monkeypatch) -> None:
    from pydantic import ValidationError

    monkeypatch.setenv("KARANOR_SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ValidationError):
        Settings()
