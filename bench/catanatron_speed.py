"""Run inside a venv with catanatron==3.2.1: 40 games of 4 RandomPlayers.

Prints one JSON line: games, actions (len(game.state.actions) summed), seconds,
actions_per_second, and the same per second of this process's CPU time. Used by
bench/engine_speed.sh; never imported by the app.
"""

import json
import sys
import time

from catanatron import Color, Game, RandomPlayer

games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
actions = 0
start, cpu_start = time.perf_counter(), time.process_time()
for _ in range(games):
    game = Game([RandomPlayer(c) for c in colors])
    game.play()
    actions += len(game.state.actions)
seconds = time.perf_counter() - start
cpu_seconds = time.process_time() - cpu_start
print(
    json.dumps(
        {
            "engine": "catanatron 3.2.1",
            "games": games,
            "actions": actions,
            "seconds": round(seconds, 3),
            "actions_per_second": round(actions / seconds, 1),
            "cpu_seconds": round(cpu_seconds, 3),
            "actions_per_cpu_second": round(actions / cpu_seconds, 1),
        }
    )
)
