"""`karanor serve` shortens the GIL's switch interval before serving (app.server.tune_threads):
a worker thread deciding a bot's move gives the event loop the GIL back within 1 ms."""

import subprocess
import sys

PROBE = """
import sys
from app.server import SWITCH_INTERVAL, tune_threads
before = sys.getswitchinterval()
tune_threads()
print(before, sys.getswitchinterval(), SWITCH_INTERVAL)
"""


def test_tune_threads_sets_a_1_ms_switch_interval() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    before, after, wanted = (float(x) for x in out)
    assert before == 0.005  # Python's default
    assert after == wanted == 0.001
