"""Every target of the performance issue, measured the way docs/performance-history.md says:
each benchmark run N times (3), one after another, and the median of each figure.

    .venv/bin/python -m bench.targets                 # everything (about 30 minutes here)
    .venv/bin/python -m bench.targets sqlite rate     # some of them (names below)
    .venv/bin/python -m bench.targets --runs 1 sockets

Each run's last JSON line is kept in `bench-results/<name>-<i>.json` (or `--out`); the
table of medians is printed at the end and written to `bench-results/targets.md`.
Figures are only worth reading on a quiet machine: every run records how busy the
machine was before it started (`busy_before_percent`, `load_average`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


@dataclass(frozen=True)
class Target:
    name: str
    what: str
    command: list[str]
    # (label, figure of one run's JSON); the first is the one the target is judged on
    figures: list[tuple[str, Callable[[dict[str, Any]], float | None]]]
    met: Callable[[float], bool]
    runs: int | None = None  # None: --runs


def _k(*keys: str) -> Callable[[dict[str, Any]], float | None]:
    def get(d: dict[str, Any]) -> float | None:
        value: Any = d
        for key in keys:
            if not isinstance(value, dict) or value.get(key) is None:
                return None
            value = value[key]
        return float(value)

    return get


def _cpu_ms(d: dict[str, Any]) -> float | None:
    k = d.get("karanor") or {}
    if not k.get("commands_per_second"):
        return None
    return round(k["server_cpu_percent"] * 10 / k["commands_per_second"], 3)


def _ratio(d: dict[str, Any]) -> float | None:
    ours, base = d.get("karanor") or {}, d.get("baseline") or {}
    if not ours.get("commands_per_second") or not base.get("commands_per_second"):
        return None
    return round(ours["commands_per_second"] / base["commands_per_second"], 3)


LOAD = [PY, "-m", "bench.load"]
TARGETS = [
    Target(
        "engine",
        "Karanor >= 2x catanatron, Dark Road >= 1x (engine_speed.sh: medians of 3 itself)",
        ["bash", "bench/engine_speed.sh", "40"],
        [
            ("Karanor ratio", _k("ratio")),
            ("Dark Road ratio", _k("darkroad_ratio")),
            ("ratio on CPU time", _k("ratio_cpu")),
        ],
        lambda x: x >= 2.0,
        runs=1,
    ),
    Target(
        "sqlite",
        "SQLite >= 2,000 commands/s saturated, 100 rooms x 4 (with the bare baseline)",
        [*LOAD, "--seconds", "30"],
        [
            ("commands/s", _k("karanor", "commands_per_second")),
            ("baseline commands/s", _k("baseline", "commands_per_second")),
            ("ratio to the baseline", _ratio),
            ("server CPU ms/command", _cpu_ms),
            ("ack p99 ms", _k("karanor", "ack_ms", "p99")),
        ],
        lambda x: x >= 2000,
    ),
    Target(
        "rate",
        "SQLite at --rate 1000 over 60 s: ack p99 <= 20 ms, all views p99 <= 50 ms",
        [*LOAD, "--rate", "1000", "--seconds", "60", "--no-baseline"],
        [
            ("ack p99 ms", _k("karanor", "ack_ms", "p99")),
            ("all views p99 ms", _k("karanor", "all_views_ms", "p99")),
            ("ack p50 ms", _k("karanor", "ack_ms", "p50")),
            ("commands/s", _k("karanor", "commands_per_second")),
            ("server CPU ms/command", _cpu_ms),
        ],
        lambda x: x <= 20,
    ),
    Target(
        "postgres",
        "PostgreSQL >= 1,200 commands/s saturated",
        [*LOAD, "--db", "postgres", "--seconds", "30", "--no-baseline"],
        [
            ("commands/s", _k("karanor", "commands_per_second")),
            ("server CPU ms/command", _cpu_ms),
            ("PostgreSQL CPU %", _k("karanor", "postgres_cpu_percent")),
        ],
        lambda x: x >= 1200,
    ),
    Target(
        "postgres-rate",
        "PostgreSQL at --rate 800 over 60 s: ack p99 <= 40 ms",
        [*LOAD, "--db", "postgres", "--rate", "800", "--seconds", "60", "--no-baseline"],
        [
            ("ack p99 ms", _k("karanor", "ack_ms", "p99")),
            ("all views p99 ms", _k("karanor", "all_views_ms", "p99")),
            ("commands/s", _k("karanor", "commands_per_second")),
        ],
        lambda x: x <= 40,
    ),
    Target(
        "sockets",
        "2,000 idle WebSockets in <= 150 MB of server RSS",
        [PY, "-m", "bench.sockets", "--idle", "2000"],
        [
            ("RSS MB", _k("rss_after_hold_mb")),
            ("RSS before any room MB", _k("rss_before_mb")),
            ("KB per socket", _k("kb_per_socket")),
        ],
        lambda x: x <= 150,
    ),
    Target(
        "sockets-10k",
        "10,000 idle WebSockets held, their RSS",
        [PY, "-m", "bench.sockets", "--idle", "10000", "--clients", "2"],
        [
            ("sockets open", _k("sockets_open")),
            ("RSS MB", _k("rss_after_hold_mb")),
            ("KB per socket", _k("kb_per_socket")),
        ],
        lambda x: x >= 10000,
        runs=1,
    ),
    Target(
        "cold",
        "a cold room's load p99 <= 20 ms, 2,000-command logs included",
        [PY, "-m", "bench.cold", "--loads", "20"],
        [
            ("load p99 ms", _k("load_ms", "p99")),
            ("load p50 ms", _k("load_ms", "p50")),
            ("CPU per load p99 ms", _k("load_cpu_ms", "p99")),
        ],
        lambda x: x <= 20,
    ),
    Target(
        "bots",
        "a room of 1 person + 5 bots adds <= 5 ms to the others' ack p99 at --rate 1000",
        [PY, "-m", "bench.bots", "--rounds", "3", "--seconds", "20"],
        [
            ("ack p99 added ms", _k("ack_p99_added_ms")),
            ("median of the rounds' differences ms", _k("ack_p99_added_paired_ms")),
            ("ack p99 without ms", _k("ack_p99_median_without")),
            ("ack p99 with ms", _k("ack_p99_median_with")),
        ],
        lambda x: x <= 5,
        runs=1,  # bench.bots alternates 3 rounds itself
    ),
]


def last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return dict(json.loads(line))
            except ValueError:
                continue
    return None


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def run(target: Target, runs: int, out: Path) -> list[dict[str, Any]]:
    results = []
    for i in range(1, runs + 1):
        before = load_average()
        started = time.monotonic()
        done = subprocess.run(target.command, cwd=ROOT, capture_output=True, text=True)
        data = last_json(done.stdout)
        seconds = round(time.monotonic() - started, 1)
        if data is None:
            print(f"{target.name} run {i}: no result (exit {done.returncode})\n"
                  f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}", file=sys.stderr)  # fmt: skip
            continue
        data["_targets"] = {"load_average_before": before, "seconds": seconds}
        (out / f"{target.name}-{i}.json").write_text(json.dumps(data))
        shown = ", ".join(
            f"{label} {get(data)}" for label, get in target.figures if get(data) is not None
        )
        print(f"{target.name} run {i} ({seconds} s, load {before}): {shown}", flush=True)
        results.append(data)
    return results


def row(target: Target, results: list[dict[str, Any]]) -> str:
    cells = []
    for label, get in target.figures:
        values = [v for v in (get(r) for r in results) if v is not None]
        if not values:
            continue
        shown = " / ".join(f"{v:g}" for v in values)
        cells.append(f"{label}: {shown} (median **{statistics.median(values):g}**)")
    main = [v for v in (target.figures[0][1](r) for r in results) if v is not None]
    verdict = "no result"
    if main:
        verdict = "met" if target.met(statistics.median(main)) else "missed"
    loads = ", ".join(f"{r['_targets']['load_average_before']:g}" for r in results)
    return f"| {target.what} | {'; '.join(cells)} | load {loads} | {verdict} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=" ".join(t.name for t in TARGETS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default="bench-results")
    args = parser.parse_args(argv)
    chosen = [t for t in TARGETS if not args.names or t.name in args.names]
    unknown = set(args.names) - {t.name for t in TARGETS}
    if unknown:
        parser.error(f"unknown targets: {', '.join(sorted(unknown))}")
    out = ROOT / args.out
    out.mkdir(exist_ok=True)
    rows = []
    for target in chosen:
        results = run(target, target.runs or args.runs, out)
        rows.append(row(target, results))
    table = "\n".join(
        ["| target | runs (medians) | load average before each | |", "|---|---|---|---|", *rows]
    )
    (out / "targets.md").write_text(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
