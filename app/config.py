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
