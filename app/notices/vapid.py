"""The server's VAPID keys (RFC 8292): made on first start, kept in the data folder
(`vapid_private.pem`, carried by every backup: `Settings.backed_up_files`), so
subscriptions outlive restarts and restores."""

from __future__ import annotations

import base64
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from app.config import VAPID_KEY_FILE

FILE_NAME = VAPID_KEY_FILE


def load_or_make(data_dir: Path) -> Vapid02:
    """The key pair in `data_dir`, made (and written readable by its owner only) if absent."""
    path = data_dir / FILE_NAME
    if path.is_file():
        return Vapid02.from_file(str(path))
    data_dir.mkdir(parents=True, exist_ok=True)
    vapid = Vapid02()
    vapid.generate_keys()
    pem = vapid.private_pem()
    fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    os.replace(path.with_suffix(".tmp"), path)
    return vapid


def application_server_key(vapid: Vapid02) -> str:
    """The public key as browsers' `pushManager.subscribe` takes it: the uncompressed
    P-256 point, base64url without padding."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
