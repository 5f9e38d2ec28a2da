"""Logging for `karanor serve`: uvicorn's loggers, with seat tokens redacted; plain text,
or one JSON object per line with `KARANOR_LOG_FORMAT=json` (`JsonFormatter`).

A token may reach a log line through a request line (`?token=...` on a WebSocket URL,
in the access log and in uvicorn's "WebSocket ... [accepted]" line) or an exception
text. `RedactTokens` rewrites such lines before they are formatted; it is installed on
the handlers, so every logger that propagates to them is covered.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

import orjson

# token=VALUE in a query string; Bearer VALUE in a header echoed anywhere; the room cookie.
_PATTERNS = [
    (re.compile(r"(?i)([?&;]token=)[^&\s\"']*"), r"\1[redacted]"),
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+"), r"\1[redacted]"),
    (re.compile(r"(karanor_[A-Za-z0-9_-]+=)[A-Za-z0-9_-]+"), r"\1[redacted]"),
]


def redact(text: str) -> str:
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redact_value(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Redacts tokens in a record's message and arguments (keeping the arguments' shape:
    uvicorn's access formatter reads them by position)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_value(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


# Fields of a LogRecord that are not `extra=` data.
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message; an access
    line also gets client, method, path, http and status; `extra=` fields are kept; a
    traceback goes in `exc`. The redacting filter has already run on the record."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, http, status = args
            entry.update(client=client, method=method, path=path, http=http, status=status)
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(self.formatException(record.exc_info))
        if record.exc_text:
            entry["exc"] = record.exc_text
        return orjson.dumps(entry, default=str).decode()


def log_config(level: str = "info", log_format: str = "text") -> dict[str, Any]:
    """uvicorn's default logging configuration plus the redacting filter on every handler,
    and our own `app` loggers sent to the same stream; `log_format="json"` formats every
    line with `JsonFormatter`."""
    from uvicorn.config import LOGGING_CONFIG

    formatters = LOGGING_CONFIG["formatters"]
    if log_format == "json":
        formatters = {name: {"()": "app.web.logs.JsonFormatter"} for name in formatters}
    config: dict[str, Any] = {
        **LOGGING_CONFIG,
        "formatters": formatters,
        "filters": {"redact_tokens": {"()": "app.web.logs.RedactTokens"}},
        "handlers": {
            name: {**handler, "filters": ["redact_tokens"]}
            for name, handler in LOGGING_CONFIG["handlers"].items()
        },
        "loggers": {
            **LOGGING_CONFIG["loggers"],
            "app": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }
    return config
