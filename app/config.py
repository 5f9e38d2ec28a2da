"""Settings from the environment: one `Settings`, read once through `get_settings()`.

Every field is read from `KARANOR_<FIELD>` (`data_dir` from `KARANOR_DATA_DIR`, ...),
except the six conventional names a host already knows from other servers:
`DATABASE_URL`, `REDIS_URL`, `HOST`, `PORT`, `ALLOWED_ORIGINS`, `FORWARDED_ALLOW_IPS`.
Nothing else in the program reads `os.environ` for a setting.
"""

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import platformdirs
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


# The data folder's keys, made on first start: a backup carries them beside the database
# (`Settings.backed_up_files`), so a restore into an empty folder keeps both working.
VAPID_KEY_FILE = "vapid_private.pem"  # signs Web Push (app/notices/vapid.py)
COOKIE_KEY_FILE = "secret_key"  # signs the device cookie (app/web/device.py)


def default_data_dir() -> Path:
    """The per-user data folder: `~/.local/share/karanor` on Linux (`$XDG_DATA_HOME`),
    `~/Library/Application Support/karanor` on macOS, `%LOCALAPPDATA%\\karanor` on Windows."""
    return Path(platformdirs.user_data_dir("karanor", appauthor=False))


class Settings(BaseSettings):
    """Server settings, from `KARANOR_<NAME>` (or the six plain names in the module doc)."""

    model_config = SettingsConfigDict(
        env_prefix="KARANOR_", case_sensitive=False, extra="ignore", populate_by_name=True
    )

    # --- where things are -----------------------------------------------------------------
    data_dir: Path = Field(
        default_factory=default_data_dir,
        description="Folder of the default SQLite database (default: the per-user data folder).",
    )
    database_url: str = Field(
        default="",
        validation_alias="DATABASE_URL",
        description="SQLAlchemy URL; empty means the SQLite file karanor.db in data_dir.",
    )
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="SQLite's `synchronous`: FULL survives a power cut with every "
        "acknowledged command; NORMAL is faster but may lose the last commits to an OS crash "
        "or a power cut (docs/security.md).",
    )
    redis_url: str | None = Field(
        default=None,
        validation_alias="REDIS_URL",
        description="When set, game updates fan out across processes via Redis.",
    )
    redis_prefix: str = Field(
        default="karanor",
        min_length=1,
        description="Prefix of Redis channels and keys (several deployments on one Redis).",
    )
    # --- serving ----------------------------------------------------------------------------
    host: str = Field(default="127.0.0.1", validation_alias="HOST")
    port: int = Field(default=8000, ge=0, le=65535, validation_alias="PORT")
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        validation_alias="ALLOWED_ORIGINS",
        description="CORS / WebSocket origins allowed besides our own; comma-separated.",
    )
    games: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="More games to host besides the built-in ones, as import paths "
        "`package.module:GAME` (comma-separated; see docs/architecture.md).",
    )
    trust_proxy: bool = Field(
        default=False,
        description="Behind a reverse proxy: believe its X-Forwarded-For/-Proto (from the "
        "addresses in forwarded_allow_ips only).",
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1,::1",
        validation_alias="FORWARDED_ALLOW_IPS",
        description="Comma-separated addresses or networks of the proxies whose "
        "X-Forwarded-* headers are believed (with trust_proxy). The client is the rightmost "
        "address in X-Forwarded-For that is not one of them.",
    )
    log_level: str = "info"
    log_format: Literal["text", "json"] = Field(
        default="text", description="`json`: one JSON object per line and event."
    )
    # --- slow clients (docs/security.md) ------------------------------------------------------
    header_timeout: float = Field(
        default=10.0,
        gt=0,
        description="Seconds a connection may take to send a request's headers.",
    )
    keep_alive_timeout: int = Field(
        default=5, ge=1, description="Seconds an idle keep-alive HTTP connection stays open."
    )
    max_connections: int = Field(
        default=0,
        ge=0,
        description="Open connections (WebSockets included) and tasks at once; above it new "
        "ones get 503. 0: the open-file limit less 100 (what the process can hold).",
    )
    max_header_bytes: int = Field(
        default=16 * 1024,
        ge=1024,
        description="Largest request head (request line and headers) accepted.",
    )
    secret_key: str = Field(
        default="",
        description="Signs the device cookie (the browser's list of its seats). Empty: a "
        "random key kept in data_dir/secret_key (every process sharing data_dir shares it; "
        "set it when processes run on several hosts).",
    )

    # --- the game table -----------------------------------------------------------------------
    bot_budget: float = Field(
        default=1.0,
        gt=0,
        le=30,
        validation_alias=AliasChoices("KARANOR_BOT_BUDGET_SECONDS", "KARANOR_BOT_BUDGET"),
        description="Most seconds a hard (searching) bot thinks about one decision.",
    )
    bot_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        validation_alias=AliasChoices("KARANOR_BOT_WORKERS"),
        description="Processes the hard bots search in (at most this many decisions at once).",
    )
    bot_delay: float = Field(
        default=0.6,
        ge=0,
        le=60,
        validation_alias=AliasChoices("KARANOR_BOT_DELAY_SECONDS", "KARANOR_BOT_DELAY"),
        description="Pause in seconds before a bot acts, so humans can follow the game.",
    )
    game_seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**63,
        description="Seed of every game this server starts (shuffles, dice), for tests, "
        "demonstrations and bug reports: the same seats, options and commands then make "
        "the same game. Unset (the default): a fresh random seed for each game. Never set "
        "it on a server where the players should not know what comes.",
    )
    command_rate: float = Field(
        default=20.0,
        gt=0,
        description="Commands (and chat lines) per second a seat may send, on average.",
    )
    command_burst: int = Field(
        default=40,
        ge=1,
        description="How many commands a seat may send at once before the rate applies.",
    )
    sync_interval: float = Field(
        default=2.0,
        gt=0,
        description="Seconds between checks of the stored version of every room served "
        "(catches Redis notices that were lost).",
    )
    room_idle_seconds: float = Field(
        default=120.0,
        ge=0,
        description="Seconds before a room nobody uses is evicted from memory.",
    )
    # --- limits (docs/security.md) ------------------------------------------------------------
    max_sockets_per_ip: int = Field(
        default=50, ge=0, description="Open WebSockets one client address may hold (0: no limit)."
    )
    max_sockets_per_seat: int = Field(
        default=5,
        ge=0,
        description="Open WebSockets per seat; the next is closed with 4429 (0: no limit).",
    )
    rooms_per_hour: int = Field(
        default=30, ge=0, description="Rooms one client address may create per hour (0: no limit)."
    )
    qr_per_minute: int = Field(
        default=60,
        ge=0,
        description="QR codes (POST /api/qr) one client address may ask for a minute, at "
        "most that many at once (0: no limit).",
    )
    table_per_minute: int = Field(
        default=60,
        ge=0,
        description="The table's host routes (turn timer, a seat's bot) and Play again asks "
        "one client address may make a minute, at most that many at once (0: no limit).",
    )
    ops_per_minute: int = Field(
        default=120,
        ge=0,
        description="GET /metrics and /readyz one client address may make a minute, at "
        "most that many at once (0: no limit; /healthz is never limited).",
    )
    ws_idle_seconds: float = Field(
        default=120.0,
        ge=0,
        description="Close a socket that sent nothing (not even a ping) for this long (0: never).",
    )
    ws_message_rate: float = Field(
        default=40.0,
        gt=0,
        description="Messages per second one socket may send, on average (any type; above "
        "command_rate so that it only stops floods of other messages).",
    )
    ws_message_burst: int = Field(
        default=80, ge=1, description="How many messages a socket may send at once."
    )
    # --- notices outside the page (app/notices, docs/deploy.md) --------------------------------
    notice_kinds: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["web_push"],
        description="Which notice kinds seats may subscribe with, comma-separated: "
        "`web_push` and Apprise URL schemes (`ntfy`, `tgram`, `json`, ...). Web Push alone "
        "by default; an empty value turns notices off.",
    )
    notice_private_addresses: bool = Field(
        default=False,
        description="Allow notice URLs (and Web Push endpoints) that resolve to loopback, "
        "private or link-local addresses (a home ntfy server). Off: a seat cannot make the "
        "server call into its own network.",
    )
    notice_contact: str = Field(
        default="mailto:karanor@example.invalid",
        description="The VAPID `sub` claim push services may use to reach whoever runs "
        "the server (a mailto: or https: URL).",
    )
    notice_group_seconds: float = Field(
        default=0.3,
        ge=0,
        le=60,
        description="Notices for one device arriving within this many seconds go as one.",
    )
    notice_retry_seconds: float = Field(
        default=2.0,
        gt=0,
        le=3600,
        description="First wait before a failed notice is sent again (doubled each time, "
        "four tries in all).",
    )
    # --- retention (karanor cleanup, and hourly in the server) --------------------------------
    finished_retention_days: float = Field(
        default=30.0,
        ge=0,
        description="Delete finished rooms this many days after their last change (0: keep).",
    )
    idle_retention_days: float = Field(
        default=14.0,
        ge=0,
        description="Delete lobby/playing rooms idle for this many days (0: keep).",
    )
    cleanup_interval_seconds: float = Field(
        default=3600.0,
        ge=0,
        description="Seconds between the server's own cleanups (0: only `karanor cleanup`).",
    )

    # --- rolling backups (docs/deploy.md) -----------------------------------------------------
    auto_backup: bool | None = Field(
        default=None,
        description="The server keeps rolling backups of its database in "
        "`data_dir/backups` (unset: on for SQLite, off for PostgreSQL, whose host has its "
        "own; with several processes turn it on in one only).",
    )
    backup_every_hours: float = Field(
        default=6.0, gt=0, description="Hours between two rolling backups."
    )
    backup_keep: int = Field(
        default=12, ge=1, description="Rolling backups kept (the oldest go; yours stay)."
    )

    @property
    def auto_backups_on(self) -> bool:
        """Whether this server keeps rolling backups (`auto_backup`, by default SQLite's)."""
        if self.auto_backup is None:
            return self.sqlite_path is not None
        return self.auto_backup

    @property
    def backup_dir(self) -> Path:
        """Where the rolling backups go: `backups` beside the SQLite file (the data folder's
        own for the default database), else in the data folder."""
        folder = self.sqlite_path.parent if self.sqlite_path is not None else self.data_dir
        return folder / "backups"

    @property
    def backed_up_files(self) -> list[Path]:
        """The data folder's files a backup carries beside the database (when they exist)
        and a restore puts back: the server's keys, without which push subscriptions and
        device cookies stop working."""
        return [self.data_dir / VAPID_KEY_FILE, self.data_dir / COOKIE_KEY_FILE]

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file `database_url` names, or None (PostgreSQL, in-memory)."""
        prefix = "sqlite:///"
        rest = self.database_url.removeprefix(prefix)
        if rest == self.database_url or not rest or rest.startswith(":memory:"):
            return None
        return Path(rest.split("?", 1)[0])

    @field_validator("allowed_origins", "games", "notice_kinds", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("redis_url", mode="before")
    @classmethod
    def _empty_redis_is_none(cls, value: object) -> object:
        return value or None

    @field_validator("sqlite_synchronous", "log_format", mode="before")
    @classmethod
    def _case_insensitive(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        return value.upper() if value.lower() in ("full", "normal") else value.lower()

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
