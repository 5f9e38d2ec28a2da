"""The server's keys travel with its backups (issue 29): `karanor backup` carries the VAPID
key (and the device cookie's key) beside the database, `karanor restore` into an empty data
folder puts them back, and a seat's push subscription made before the backup keeps
working: the restored server serves the same public key and signs its pushes with it."""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from app.store import backup as store_backup
from app.store import migrate
from tests.helpers.server import ServerProcess
from tests.notices.fakes import Browser, FakePushService
from tests.notices.test_web_push import NOTICES, Table
from tests.store.test_rolling_backups import karanor  # the CLI on a data folder

KEYS = ("vapid_private.pem", "secret_key")


@pytest.fixture
def push() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.close()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed_by(authorization: str, public_key: str) -> bool:
    """Whether a Web Push request's `vapid t=JWT, k=KEY` (RFC 8292) names `public_key` and
    its token verifies with it, as a push service checks before delivering."""
    fields = dict(part.strip().split("=", 1) for part in authorization[len("vapid ") :].split(","))
    if fields["k"] != public_key:
        return False
    head, claims, signature = fields["t"].split(".")
    raw = _unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(public_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except Exception:
        return False
    return True


def test_a_backup_carries_the_keys_and_a_restore_keeps_push_subscriptions_working(
    server_factory: Callable[..., ServerProcess], push: FakePushService, tmp_path: Path
) -> None:
    home, fresh = tmp_path / "home" / "data", tmp_path / "fresh" / "data"
    env: dict[str, str | None] = {**NOTICES, "DATABASE_URL": None}  # karanor.db in the folder
    server = server_factory(workdir=tmp_path / "home", env=env).start()
    table = Table(server)
    browser = Browser(push.url("/push/bo"))
    subscribed = table.notices(1, "PUT", web_push=browser.subscription()).json()
    public_key = subscribed["vapid_public_key"]
    assert public_key and [t["kind"] for t in subscribed["targets"]] == ["web_push"]
    server.stop()

    made = karanor(home, "backup")
    assert made.returncode == 0, made.stderr
    report = json.loads(made.stdout)
    assert report["files"] == sorted(KEYS)
    path = Path(report["file"])
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the server's private key
    with sqlite3.connect(path) as db:
        carried = dict(db.execute(f"SELECT name, content FROM {store_backup.FILES_TABLE}"))
    assert carried == {name: (home / name).read_bytes() for name in KEYS}

    # A new machine: an empty data folder, the backup restored into it.
    restored = karanor(fresh, "restore", str(path))
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout)["files"] == list(KEYS)
    for name in KEYS:
        assert (fresh / name).read_bytes() == (home / name).read_bytes()
        assert (fresh / name).stat().st_mode & 0o777 == 0o600

    again = server_factory(workdir=tmp_path / "fresh", env=env).start()
    table.http.base_url = again.url  # type: ignore[assignment]
    listed = table.notices(1).json()
    assert listed["vapid_public_key"] == public_key  # the browser's subscription still fits
    assert [t["kind"] for t in listed["targets"]] == ["web_push"]
    table.add(0)  # Bo's turn: the push Bo subscribed to before the backup
    (sent,) = push.wait_for("/push/bo", 1, timeout=10.0)
    assert signed_by(sent.headers["authorization"], public_key)
    assert browser.decrypt(sent.body)["url"] == f"/r/{table.code}"
    again.stop()


def test_a_restore_sets_a_different_key_aside_and_writes_no_file_it_was_not_given(
    tmp_path: Path,
) -> None:
    backup_file = tmp_path / "b.jsonl"
    # A JSON-lines backup (PostgreSQL's kind, read the same way) that carries two files.
    header = {
        "format": store_backup.FORMAT,
        "version": store_backup.FORMAT_VERSION,
        "revision": migrate.head_revision(),
        "tables": [],
        "files": {
            "vapid_private.pem": base64.b64encode(b"the backup's key").decode(),
            "karanor.db": base64.b64encode(b"never written").decode(),
        },
    }
    backup_file.write_bytes(orjson.dumps(header) + b"\n")
    target = tmp_path / "new"
    target.mkdir()
    (target / "vapid_private.pem").write_bytes(b"made on a first start")
    report = store_backup.restore(
        f"sqlite:///{target / 'karanor.db'}", backup_file, [target / "vapid_private.pem"]
    )
    assert report.files == ["vapid_private.pem"]
    assert (target / "vapid_private.pem").read_bytes() == b"the backup's key"
    (aside,) = report.set_aside
    assert aside.name.startswith("vapid_private.pem.replaced-")
    assert aside.read_bytes() == b"made on a first start"  # never lost
    assert (target / "karanor.db").read_bytes() != b"never written"  # not a file it was given
