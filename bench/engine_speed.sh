#!/usr/bin/env bash
# Engine speed beside catanatron, in the same run: Merchants of Karanor and Merchants of
# the Dark Road (random bots, 4 players), each against catanatron's actions per second.
# Usage: bench/engine_speed.sh [GAMES]   (default 40; 3 runs each, medians compared)
# Wall-clock rates give `ratio` and `darkroad_ratio`; rates per second of each process's
# CPU time give `ratio_cpu` and `darkroad_ratio_cpu`, steadier when other work shares the
# machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GAMES="${1:-40}"
CATVENV="${CATANATRON_VENV:-/tmp/karanor-catanatron-venv}"
if [ ! -x "$CATVENV/bin/python" ]; then
    python3 -m venv "$CATVENV"
    "$CATVENV/bin/pip" install -q catanatron==3.2.1
fi
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || PY=python3
for i in 1 2 3; do
    "$CATVENV/bin/python" "$ROOT/bench/catanatron_speed.py" "$GAMES"
    (cd "$ROOT" && "$PY" -m app.cli simulate --games "$GAMES" --players 4 --bots random | tail -n 1)
    (cd "$ROOT" && "$PY" -m app.cli simulate --game darkroad --games "$GAMES" --players 4 \
        --bots random | tail -n 1)
done | "$PY" -c '
import json, statistics, sys
rows = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
karanor = [r for r in rows if "bots" in r and r.get("game", "karanor") == "karanor"]
darkroad = [r for r in rows if r.get("game") == "darkroad"]
cat = statistics.median(r["actions_per_second"] for r in rows if "engine" in r)
ours = statistics.median(r["commands_per_second"] for r in karanor)
dark = statistics.median(r["commands_per_second"] for r in darkroad)
dark_cpu = statistics.median(r["commands_per_cpu_second"] for r in darkroad)
cat_cpu = statistics.median(r["actions_per_cpu_second"] for r in rows if "engine" in r)
ours_cpu = statistics.median(r["commands_per_cpu_second"] for r in karanor)
print(json.dumps({"catanatron_actions_per_second": cat, "karanor_commands_per_second": ours,
                  "ratio": round(ours / cat, 2),
                  "catanatron_actions_per_cpu_second": cat_cpu,
                  "karanor_commands_per_cpu_second": ours_cpu,
                  "ratio_cpu": round(ours_cpu / cat_cpu, 2),
                  "darkroad_commands_per_second": dark,
                  "darkroad_ratio": round(dark / cat, 2),
                  "darkroad_commands_per_cpu_second": dark_cpu,
                  "darkroad_ratio_cpu": round(dark_cpu / cat_cpu, 2)}))
'
