"""What a connection taken from the pool costs the writer per transaction, on SQLite.

    .venv/bin/python -m bench.pool_checkout         # 2,000 transactions each way, twice

Each transaction is what a group commit of the store's writer opens around its
statements (`BEGIN IMMEDIATE` ... COMMIT, here with one `SELECT 1` and nothing written,
so no fsync): once through `write_transaction` (a checkout from SQLAlchemy's pool and
its return each time) and once on one connection kept open (as `Writer` keeps it). CPU
time of this thread per transaction.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable

from app.store import migrate
from app.store.db import create_db_engine, write_transaction, writer_connection

N = 2000


def main() -> int:
    url = f"sqlite:///{tempfile.mkdtemp(prefix='karanor-pool-')}/karanor.db"
    migrate.upgrade(url)
    engine = create_db_engine(url)

    def pooled() -> None:
        for _ in range(N):
            with write_transaction(engine) as conn:
                conn.exec_driver_sql("SELECT 1")

    def kept() -> None:
        with writer_connection(engine) as conn:
            for _ in range(N):
                with conn.begin():
                    conn.exec_driver_sql("SELECT 1")

    runs: list[tuple[str, Callable[[], None]]] = [("pool", pooled), ("kept", kept)] * 2
    for name, run in runs:
        cpu = time.thread_time()
        run()
        print(f"{name}: {(time.thread_time() - cpu) / N * 1e6:.1f} us of CPU a transaction")
    engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
