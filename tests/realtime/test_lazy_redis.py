"""A server without REDIS_URL does not load the redis package (memory: ~5 MB per process);
the first `RedisBus` does."""

import subprocess
import sys

from tests.helpers.server import REPO_ROOT

PROBE = """
import sys
from app.config import Settings
from app.main import create_app
create_app(Settings(database_url="sqlite:///{db}", redis_url=None))
print("redis" in sys.modules)
from app.realtime.bus import RedisBus
RedisBus("redis://127.0.0.1:1")
print("redis" in sys.modules)
"""


def test_redis_is_imported_only_for_a_bus(tmp_path: object) -> None:
    code = PROBE.format(db=f"{tmp_path}/k.db")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]
