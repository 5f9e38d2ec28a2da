"""`karanor serve` tunes the garbage collector before serving (app.server.tune_gc)."""

import subprocess
import sys

PROBE = """
import gc
from app.server import GC_THRESHOLDS, tune_gc
from app.main import create_app
from app.config import Settings
app = create_app(Settings(database_url="sqlite:///:memory:"))
before = gc.get_freeze_count()
tune_gc()
print(before, gc.get_freeze_count(), gc.get_threshold() == GC_THRESHOLDS, gc.isenabled())
"""


def test_tune_gc_freezes_what_is_loaded_and_keeps_collecting() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    before, after, thresholds, enabled = int(out[0]), int(out[1]), out[2], out[3]
    assert before == 0
    assert after > 10_000  # the imported modules and the app: no longer walked
    assert (thresholds, enabled) == ("True", "True")
