"""`karanor serve` shortens the GIL's switch interval on SQLite before serving
(app.server.tune_threads): a worker thread deciding a bot's move gives the event loop the
GIL back within 1 ms. On PostgreSQL it stays Python's 5 ms (psycopg's writer works in
Python; docs/performance-history.md, fourth round)."""

import subprocess
import sys

import pytest

PROBE = """
import sys
from app.server import SWITCH_INTERVAL, tune_threads
before = sys.getswitchinterval()
tune_threads(sys.argv[1])
print(before, sys.getswitchinterval(), SWITCH_INTERVAL)
"""


@pytest.mark.parametrize(
    ("url", "wanted"),
    [("sqlite:////tmp/k.db", 0.001), ("postgresql+psycopg://u@h/db", 0.005)],
)
def test_tune_threads_sets_the_switch_interval_by_database(url: str, wanted: float) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, url], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    before, after, fast = (float(x) for x in out)
    assert before == 0.005  # Python's default
    assert fast == 0.001
    assert after == wanted
