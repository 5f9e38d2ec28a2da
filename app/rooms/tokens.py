"""Room codes and seat tokens: random, URL-safe; tokens are stored only as SHA-256 hashes."""

import base64
import hashlib
import re
import secrets

CODE_BYTES = 12  # 96 bits
TOKEN_BYTES = 24  # 192 bits
_CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def new_room_code() -> str:
    """96 random bits, URL-safe; never starting with '-' or '_' so that a code can be
    passed to `karanor export CODE` and read aloud without surprises."""
    while True:
        code = secrets.token_urlsafe(CODE_BYTES)
        if code[0].isalnum():
            return code


def new_seat_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def rematch_token(token: str) -> str:
    """The token of a seat's place in its room's rematch: derived from the seat's token,
    so that each of its person's devices (they share the token) gets the same one and
    none loses the seat when another asks Play again. Unguessable without the old token
    (192 bits, as a new one), and not the stored hash of it (another domain)."""
    digest = hashlib.sha256(b"karanor-rematch\x00" + token.encode()).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def plausible_code(code: str) -> bool:
    return bool(_CODE_RE.match(code))


def plausible_token(token: str) -> bool:
    return bool(_TOKEN_RE.match(token))


def cookie_name(code: str) -> str:
    """The per-room cookie that carries a browser's seat token."""
    return f"karanor_{code}"
