"""`app.notices.vapid`: the key file made without `cryptography` holds a P-256 private
key that `cryptography` and py_vapid read back (and sign with); a file that cannot be
read turns Web Push off at the keys' first use instead of failing a request."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.notices import vapid


def test_private_pem_is_pkcs8_of_a_p256_key() -> None:
    for number in (1, vapid.P256_ORDER - 1, *(secrets.randbelow(vapid.P256_ORDER - 1) + 1
                                              for _ in range(20))):  # fmt: skip
        key = serialization.load_pem_private_key(vapid.private_pem(number), None)
        assert isinstance(key, ec.EllipticCurvePrivateKey)
        assert isinstance(key.curve, ec.SECP256R1)
        assert key.private_numbers().private_value == number
        # Read back as PKCS #8 by cryptography itself: the same bytes.
        again = key.private_bytes(
            serialization.Encoding.DER,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        assert serialization.load_der_private_key(again, None).private_numbers() == (
            key.private_numbers()
        )
    for bad in (0, vapid.P256_ORDER):
        with pytest.raises(ValueError):
            vapid.private_pem(bad)


def test_ensure_makes_the_file_once_and_load_signs_with_it(tmp_path: Path) -> None:
    path = vapid.ensure(tmp_path / "data")
    first = path.read_bytes()
    assert path.stat().st_mode & 0o777 == 0o600
    assert vapid.ensure(tmp_path / "data") == path and path.read_bytes() == first
    keys = vapid.load(tmp_path / "data")
    token = keys.sign({"aud": "https://push.example", "sub": "mailto:a@example.org"})
    assert token["Authorization"].startswith("vapid t=")
    assert vapid.application_server_key(keys).startswith("B")  # 0x04: uncompressed point


def test_unreadable_keys_turn_web_push_off_at_first_use(tmp_path: Path) -> None:
    from app.config import Settings
    from app.notices.service import Notices

    data = tmp_path / "data"
    data.mkdir()
    (data / vapid.FILE_NAME).write_bytes(b"-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n"
                                         b"-----END PRIVATE KEY-----\n")  # fmt: skip

    class Rooms:
        class p:  # noqa: N801
            observers: list[object] = []

    notices = Notices(Rooms(), Settings(data_dir=data))  # type: ignore[arg-type]
    assert notices.kinds == ["web_push"]
    assert asyncio.run(notices.public_key()) is None
    assert notices.kinds == [] and notices.keys() is None
