"""The server's VAPID keys (RFC 8292): made on first start, kept in the data folder
(`vapid_private.pem`, carried by every backup: `Settings.backed_up_files`), so
subscriptions outlive restarts and restores.

`cryptography` (with its own OpenSSL: ~11 MB of a serving process's memory,
docs/perf-sockets-cold-bots.md) is loaded by the first use of the keys (`load`: the
first notices request or Web Push delivery), not at start: the key file is made at start
without it (`ensure`), as the PKCS #8 form of a P-256 private key (the public key is
derived from it when the file is read, as OpenSSL does for any EC key stored without one).
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path
from typing import Any

from app.config import VAPID_KEY_FILE

FILE_NAME = VAPID_KEY_FILE

# P-256's order (SEC 2, secp256r1 "n"): a private key is a number in [1, n - 1].
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
# DER of PKCS #8 PrivateKeyInfo { version 0, id-ecPublicKey with prime256v1,
# ECPrivateKey { version 1, privateKey: 32 bytes } } (RFC 5208, RFC 5915), up to the key.
_PKCS8_P256_PREFIX = bytes.fromhex(
    "3041" "020100" "3013" "06072a8648ce3d0201" "06082a8648ce3d030107" "0427" "3025" "020101" "0420"
)  # fmt: skip


def private_pem(number: int) -> bytes:
    """The PEM (PKCS #8) of the P-256 private key `number`."""
    if not 0 < number < P256_ORDER:
        raise ValueError("not a P-256 private key")
    der = _PKCS8_P256_PREFIX + number.to_bytes(32, "big")
    body = base64.encodebytes(der).replace(b"\n", b"")
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return b"-----BEGIN PRIVATE KEY-----\n" + b"\n".join(lines) + b"\n-----END PRIVATE KEY-----\n"


def ensure(data_dir: Path) -> Path:
    """The key file in `data_dir`, made (readable by its owner only) if absent; no
    `cryptography` needed. :raises OSError: the folder cannot hold it."""
    path = data_dir / FILE_NAME
    if path.is_file():
        return path
    data_dir.mkdir(parents=True, exist_ok=True)
    pem = private_pem(secrets.randbelow(P256_ORDER - 1) + 1)
    fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    os.replace(path.with_suffix(".tmp"), path)
    return path


def load(data_dir: Path) -> Any:
    """The key pair in `data_dir` (a `py_vapid.Vapid02`), made first if absent; loads
    `cryptography`. :raises OSError, ValueError, py_vapid.VapidException: unreadable."""
    from py_vapid import Vapid02

    return Vapid02.from_file(str(ensure(data_dir)))


def application_server_key(vapid: Any) -> str:
    """The public key as browsers' `pushManager.subscribe` takes it: the uncompressed
    P-256 point, base64url without padding."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
