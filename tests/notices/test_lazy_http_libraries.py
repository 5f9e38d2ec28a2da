"""A serving process does not load the notices' HTTP libraries (requests, pywebpush and
aiohttp, urllib3 under them: ~13 MB of memory, docs/perf-sockets-cold-bots.md) until its
first delivery; a delivery loads them, with redirects refused (`addresses._no_redirects`).
Nor `cryptography` (~11 MB) until the VAPID keys' first use, though their file is made at
start (a backup carries it)."""

import base64
import subprocess
import sys
from pathlib import Path

from tests.helpers.server import REPO_ROOT

PROBE = """
import sys
from fastapi.testclient import TestClient
from app.config import Settings
from app.main import create_app
from app.notices import sender
heavy = ("requests", "pywebpush", "aiohttp", "urllib3")
app = create_app(Settings(database_url="sqlite:///{db}", data_dir="{data}", redis_url=None))
with TestClient(app) as client:
    assert client.get("/healthz").status_code == 200
    assert app.state.notices.kinds == ["web_push"]  # Web Push is on (the default kinds)
    print(*[m in sys.modules for m in heavy])
    target = sender.Target(id=1, seat_id=1, kind="web_push",
                           target="https://127.0.0.1:1/push", keys=None, lang="en",
                           time_zone="UTC", origin="")
    outcome, failure = app.state.notices.sender._send_once(target, None)
    print(outcome, failure)
    print(*[m in sys.modules for m in heavy])
    import requests
    print(requests.Session().max_redirects)
"""


def test_http_libraries_are_loaded_by_the_first_delivery(tmp_path: object) -> None:
    code = PROBE.format(db=f"{tmp_path}/k.db", data=f"{tmp_path}/data")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["False"] * 4
    assert lines[1] == "failed notice_address_not_allowed"  # refused before any call: loopback
    assert lines[2].split() == ["True", "True", "True", "True"]
    assert lines[3] == "0"


KEYS_PROBE = """
import sys
from pathlib import Path
from fastapi.testclient import TestClient
from app.config import Settings
from app.main import create_app
app = create_app(Settings(database_url="sqlite:///{db}", data_dir="{data}", redis_url=None))
with TestClient(app) as client:
    assert client.get("/healthz").status_code == 200
    print("cryptography" in sys.modules, (Path("{data}") / "vapid_private.pem").is_file())
    key = client.portal.call(app.state.notices.public_key)
    print("cryptography" in sys.modules, key)
"""


def test_cryptography_is_loaded_by_the_keys_first_use(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization

    data = tmp_path / "data"
    code = KEYS_PROBE.format(db=f"{tmp_path}/k.db", data=data)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False True"  # the file made at start, cryptography not loaded
    loaded, key = lines[1].split()
    assert loaded == "True"
    # The key made without cryptography is a P-256 key, and its public part is the one sent.
    private = serialization.load_pem_private_key((data / "vapid_private.pem").read_bytes(), None)
    raw = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert key == base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    assert (data / "vapid_private.pem").stat().st_mode & 0o777 == 0o600
