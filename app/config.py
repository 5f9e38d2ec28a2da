"""Settings from the environment: one `Settings`, read once through `get_settings()`."""

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

_POSTGRES_SCHEMES = ("postgres://", "postgresql://")


def normalize_database_url(url: str) -> str:
    """Give a plain `postgresql://` URL our driver (psycopg 3); leave other URLs as written."""
    for scheme in _POSTGRES_SCHEMES:
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def sqlite_url_for(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


class Settings(BaseSettings):
    """Server settings. Every field is read from the environment variable of the same name."""

    model_config = SettingsConfigDict(case_sensitive=False, extra="ignore", populate_by_name=True)

    data_dir: Path = Field(
        default=Path("./data"),
        validation_alias=AliasChoices("KARANOR_DATA_DIR", "data_dir"),
        description="Folder for the default SQLite database and other local files.",
    )
    database_url: str = Field(
        default="",
        description="SQLAlchemy URL; empty means sqlite file karanor.db in data_dir.",
    )
    redis_url: str | None = Field(
        default=None, description="When set, game updates fan out across processes via Redis."
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="CORS / WebSocket origins allowed besides our own; comma-separated.",
    )
    bot_delay: float = Field(
        default=0.6,
        ge=0,
        le=60,
        validation_alias=AliasChoices(
            "KARANOR_BOT_DELAY_SECONDS", "KARANOR_BOT_DELAY", "bot_delay", "bot_delay_seconds"
        ),
        description="Pause in seconds before a bot acts, so humans can follow the game.",
    )
    command_rate: float = Field(
        default=20.0,
        gt=0,
        validation_alias=AliasChoices("KARANOR_COMMAND_RATE", "command_rate"),
        description="Commands (and chat lines) per second a seat may send, on average.",
    )
    command_burst: int = Field(
        default=40,
        ge=1,
        validation_alias=AliasChoices("KARANOR_COMMAND_BURST", "command_burst"),
        description="How many commands a seat may send at once before the rate applies.",
    )
    log_level: str = Field(
        default="info", validation_alias=AliasChoices("KARANOR_LOG_LEVEL", "log_level")
    )
    # --- limits (docs/security.md) -----------------------------------------------------
    max_sockets_per_ip: int = Field(
        default=50,
        ge=0,
        validation_alias=AliasChoices("KARANOR_MAX_SOCKETS_PER_IP", "max_sockets_per_ip"),
        description="Open WebSockets one client address may hold (0: no limit).",
    )
    max_sockets_per_seat: int = Field(
        default=5,
        ge=0,
        validation_alias=AliasChoices("KARANOR_MAX_SOCKETS_PER_SEAT", "max_sockets_per_seat"),
        description="Open WebSockets per seat; the next is closed with 4429 (0: no limit).",
    )
    rooms_per_hour: int = Field(
        default=30,
        ge=0,
        validation_alias=AliasChoices("KARANOR_ROOMS_PER_HOUR", "rooms_per_hour"),
        description="Rooms one client address may create per hour (0: no limit).",
    )
    ws_idle_seconds: float = Field(
        default=120.0,
        ge=0,
        validation_alias=AliasChoices("KARANOR_WS_IDLE_SECONDS", "ws_idle_seconds"),
        description="Close a socket that sent nothing (not even a ping) for this long (0: never).",
    )
    ws_message_rate: float = Field(
        default=40.0,
        gt=0,
        validation_alias=AliasChoices("KARANOR_WS_MESSAGE_RATE", "ws_message_rate"),
        description="Messages per second one socket may send, on average (any type; above "
        "command_rate so that it only stops floods of other messages).",
    )
    ws_message_burst: int = Field(
        default=80,
        ge=1,
        validation_alias=AliasChoices("KARANOR_WS_MESSAGE_BURST", "ws_message_burst"),
        description="How many messages a socket may send at once before the rate applies.",
    )
    trust_proxy: bool = Field(
        default=False,
        validation_alias=AliasChoices("KARANOR_TRUST_PROXY", "trust_proxy"),
        description="Behind a reverse proxy: believe its X-Forwarded-For/-Proto (from the "
        "addresses in FORWARDED_ALLOW_IPS, default 127.0.0.1).",
    )
    # --- retention (karanor cleanup, and hourly in the server) ----------------------------
    finished_retention_days: float = Field(
        default=30.0,
        ge=0,
        validation_alias=AliasChoices("KARANOR_FINISHED_RETENTION_DAYS", "finished_retention_days"),
        description="Delete finished rooms this many days after their last change (0: keep).",
    )
    idle_retention_days: float = Field(
        default=14.0,
        ge=0,
        validation_alias=AliasChoices("KARANOR_IDLE_RETENTION_DAYS", "idle_retention_days"),
        description="Delete lobby/playing rooms idle for this many days (0: keep).",
    )
    cleanup_interval_seconds: float = Field(
        default=3600.0,
        ge=0,
        validation_alias=AliasChoices(
            "KARANOR_CLEANUP_INTERVAL_SECONDS", "cleanup_interval_seconds"
        ),
        description="Seconds between the server's own cleanups (0: only `karanor cleanup`).",
    )

    @property
    def bot_delay_seconds(self) -> float:
        """The older name of `bot_delay`."""
        return self.bot_delay

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("redis_url", mode="before")
    @classmethod
    def _empty_redis_is_none(cls, value: object) -> object:
        return value or None

    @model_validator(mode="after")
    def _resolve_database_url(self) -> "Settings":
        if self.database_url:
            self.database_url = normalize_database_url(self.database_url)
        else:
            self.database_url = sqlite_url_for(self.data_dir / "karanor.db")
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    return Settings()
