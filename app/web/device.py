"""The device cookie: one signed cookie naming this browser's seats (issue 28).

`karanor_device` = base64url(JSON `[[code, token, hidden], ...]`, newest first) + "." +
base64url(HMAC-SHA256 of that with the server's key). It replaces one year-long cookie per
room: a browser carries one cookie whatever the number of its rooms (at most `KEEP`, the
oldest dropped). Old per-room cookies (`karanor_{code}`) are still read until they expire.
The signature makes a cookie changed by hand (or made with another server's key) count for
nothing: the list is read whole or not at all; each token is still checked against its
seat like any other. `hidden` marks a room taken off "my games" (its seat is kept).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Response
from starlette.requests import HTTPConnection

from app.config import COOKIE_KEY_FILE, Settings
from app.rooms import tokens
from app.web.security import is_https

COOKIE = "karanor_device"
MAX_AGE = 60 * 60 * 24 * 365
KEEP = 40  # seats kept per device (a cookie stays under 4 KB)
_KEY_LOCK = threading.Lock()
_KEYS: dict[str, bytes] = {}


@dataclass(frozen=True, slots=True)
class Entry:
    code: str
    token: str
    hidden: bool = False


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key(settings: Settings) -> bytes:
    """The signing key: `KARANOR_SECRET_KEY`, else one kept in data_dir/secret_key."""
    if settings.secret_key:
        return hashlib.sha256(b"karanor-device\x00" + settings.secret_key.encode()).digest()
    path = Path(settings.data_dir) / COOKIE_KEY_FILE
    with _KEY_LOCK:
        found = _KEYS.get(str(path))
        if found is not None:
            return found
        try:
            value = path.read_bytes().strip()
        except OSError:
            value = b""
        if len(value) < 32:
            value = secrets.token_urlsafe(32).encode()
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(value)
            except FileExistsError:
                value = path.read_bytes().strip()  # another process wrote it first
            except OSError:
                pass  # a read-only data folder: this process's key only
        derived = hashlib.sha256(b"karanor-device\x00" + value).digest()
        _KEYS[str(path)] = derived
        return derived


def _sign(payload: str, settings: Settings) -> str:
    return _b64(hmac.new(key(settings), payload.encode(), hashlib.sha256).digest()[:18])


def read(request: HTTPConnection, settings: Settings) -> list[Entry]:
    """The device's seats (newest first); none for a missing or altered cookie."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 8000 or raw.count(".") != 1:
        return []
    payload, signature = raw.split(".")
    if not hmac.compare_digest(signature, _sign(payload, settings)):
        return []
    try:
        data: Any = json.loads(_unb64(payload))
    except ValueError:
        return []
    out: list[Entry] = []
    for item in data if isinstance(data, list) else ():
        if (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and isinstance(item[1], str)
            and tokens.plausible_code(item[0])
            and tokens.plausible_token(item[1])
        ):
            out.append(Entry(item[0], item[1], bool(item[2])))
    return out


def token_for(request: HTTPConnection, settings: Settings, code: str) -> str | None:
    """The seat token this device holds for room `code`: the device cookie's, else the
    room's own old cookie."""
    for entry in read(request, settings):
        if entry.code == code:
            return entry.token
    return request.cookies.get(tokens.cookie_name(code))


def legacy(request: HTTPConnection) -> list[Entry]:
    """The old per-room cookies this browser still sends."""
    prefix = tokens.cookie_name("")
    out = []
    for name, value in request.cookies.items():
        if name.startswith(prefix) and name not in (COOKIE, "karanor_lang"):
            code = name[len(prefix) :]
            if tokens.plausible_code(code) and tokens.plausible_token(value):
                out.append(Entry(code, value))
    return out


def write(
    request: HTTPConnection, response: Response, settings: Settings, entries: list[Entry]
) -> None:
    data = [[e.code, e.token, 1 if e.hidden else 0] for e in entries[:KEEP]]
    payload = _b64(json.dumps(data, separators=(",", ":")).encode())
    response.set_cookie(
        COOKIE,
        f"{payload}.{_sign(payload, settings)}",
        max_age=MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(request.scope, settings),
    )


def add(
    request: HTTPConnection, response: Response, settings: Settings, code: str, token: str
) -> None:
    """This device now holds `token` for room `code` (newest first, shown again)."""
    entries = [e for e in read(request, settings) if e.code != code]
    write(request, response, settings, [Entry(code, token), *entries])


def forget(request: HTTPConnection, response: Response, settings: Settings, code: str) -> None:
    """Room `code` off this device altogether: its seat's token no longer works (the
    person left the game), so the page opens the room as a spectator."""
    entries = read(request, settings)
    if any(e.code == code for e in entries):
        write(request, response, settings, [e for e in entries if e.code != code])


def hide(request: HTTPConnection, response: Response, settings: Settings, code: str) -> bool:
    """Take room `code` off this device's list (its seat is kept); False if not there."""
    entries = read(request, settings)
    found = False
    if not any(e.code == code for e in entries):
        old = request.cookies.get(tokens.cookie_name(code))
        if old is None:
            return False
        entries = [*entries, Entry(code, old)]  # brought into the device cookie, hidden
    out = []
    for e in entries:
        if e.code == code:
            found = True
            e = Entry(e.code, e.token, True)
        out.append(e)
    write(request, response, settings, out)
    return found
