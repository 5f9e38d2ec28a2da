"""Golden logs: seeded games recorded from the engines as they were, replayed by today's.

A golden log is what the store keeps of a game (its options, seed, players and every
command's JSON in order, in the shape the engine of the day wrote it) plus, for every
version, what each viewer (every seat and a spectator) was shown:

- `views`: a digest of each viewer's view without its `legal_actions` (the board,
  hands, prompts: every byte a client draws from);
- `events`: a digest of each viewer's events of the command that made the version;
- `legal`: each seat's listed commands, in the JSON of the day (gzip'd with the log).

Replaying checks that a stored game, old command shapes included, rebuilds exactly what
its players saw: the same views and events at every version, and each seat's listing the
same commands once the old ones are read through today's `parse_command` (which upcasts
old shapes) and written back with `command_json`.

Recorded once, before the game kit changed the commands (issue 25), by

    .venv/bin/python -m tests.games.golden record

which writes `tests/<game>/golden/*.json.gz`. Re-recording is never needed for a change
that keeps stored games playable: that is what these files prove.
"""

from __future__ import annotations

import gzip
import hashlib
import sys
from pathlib import Path
from typing import Any

import orjson

from app.games.base import Game

ROOT = Path(__file__).resolve().parents[1]
RELOAD_EVERY = 41  # versions between two cold loads (a state rebuilt from `to_dict`)
MAX_VERSIONS = 3000

# game id -> [(name, players, options, seed)]: a few tables of each game.
CASES: dict[str, list[tuple[str, int, dict[str, Any], int]]] = {
    "karanor": [
        ("four", 4, {}, 11),
        ("two", 2, {}, 12),
        ("three_public_quests", 3, {"public_quests": True, "end_prestige": 8}, 13),
        ("six", 6, {}, 14),
    ],
    "darkroad": [
        ("four", 4, {}, 21),
        ("two", 2, {}, 22),
        ("three_drafting", 3, {"drafting": True, "deed_choice": True, "buildings": "random"}, 23),
        ("one", 1, {}, 24),
    ],
}


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _canonical(value: Any) -> bytes:
    """A command's JSON with its keys sorted (the order of a dict's keys means nothing)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _digest(value: Any) -> str:
    return hashlib.sha256(_dumps(value)).hexdigest()[:20]


def _viewers(players: int) -> list[int | None]:
    return [*range(players), None]


def picture(game: Game, state: Any, version: int, players: int) -> dict[str, Any]:
    """What every viewer sees at this version: view digests and each seat's listing."""
    public = game.public_part(state)
    to_act = game.to_act(state)
    views: list[str] = []
    legal: list[list[dict[str, Any]]] = []
    for viewer in _viewers(players):
        view = dict(game.view(state, viewer, public))
        listed = view.pop("legal_actions", [])
        view["version"] = version
        view["to_act"] = to_act
        views.append(_digest(view))
        if viewer is not None:
            legal.append(list(listed))
    return {"views": views, "legal": legal}


def record(game: Game, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play a seeded game with every seat a bot and keep what the store and viewers had."""
    opts = game.normalise_options({"max_players": players, **options})
    names = [f"P{i + 1}" for i in range(players)]
    state = game.new_game(opts, seed, names)
    seats = frozenset(range(players))
    commands: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = [{**picture(game, state, 0, players), "events": []}]
    version = 0
    while not game.is_over(state) and version < MAX_VERSIONS:
        move = game.bot_move(state, seats, version)
        if move is None:
            break
        wire = game.command_json(move.command)
        events = game.apply(state, move.seat, game.parse_command(wire))
        version += 1
        commands.append({"seat": move.seat, "command": wire})
        frame = picture(game, state, version, players)
        frame["events"] = [_digest(game.events_for(events, v)) for v in _viewers(players)]
        frames.append(frame)
        if version % RELOAD_EVERY == 0:
            state = game.from_dict(orjson.loads(_dumps(game.to_dict(state))))
    return {
        "game": game.id,
        "players": names,
        "options": opts,
        "seed": seed,
        "commands": commands,
        "frames": frames,
        "over": game.is_over(state),
    }


def replay_mismatches(game: Game, log: dict[str, Any], limit: int = 5) -> list[str]:
    """Replay a golden log with today's engine; every difference found (at most `limit`)."""
    players = len(log["players"])
    state = game.new_game(log["options"], log["seed"], log["players"])
    problems: list[str] = []

    def compare(version: int, events: list[Any] | None) -> None:
        want = log["frames"][version]
        got = picture(game, state, version, players)
        if got["views"] != want["views"]:
            bad = [
                v
                for v, (a, b) in enumerate(zip(got["views"], want["views"], strict=True))
                if a != b
            ]
            problems.append(f"version {version}: views of viewers {bad} differ")
        if events is not None:
            digests = [_digest(game.events_for(events, v)) for v in _viewers(players)]
            if digests != want["events"]:
                problems.append(f"version {version}: events differ")
        for seat, (old, new) in enumerate(zip(want["legal"], got["legal"], strict=True)):
            upcast = sorted(_canonical(game.command_json(game.parse_command(c))) for c in old)
            if upcast != sorted(_canonical(c) for c in new):
                problems.append(f"version {version}: seat {seat}'s listing differs")

    compare(0, None)
    for version, entry in enumerate(log["commands"], start=1):
        if len(problems) >= limit:
            break
        events = game.apply(state, entry["seat"], game.parse_command(entry["command"]))
        compare(version, events)
        if version % RELOAD_EVERY == 0:
            state = game.from_dict(orjson.loads(_dumps(game.to_dict(state))))
    if game.is_over(state) != log["over"]:
        problems.append(f"over: {game.is_over(state)}, recorded {log['over']}")
    return problems[:limit]


def path_of(game_id: str, name: str) -> Path:
    return ROOT / game_id / "golden" / f"{name}.json.gz"


def load(game_id: str, name: str) -> dict[str, Any]:
    with gzip.open(path_of(game_id, name), "rb") as f:
        data: dict[str, Any] = orjson.loads(f.read())
    return data


def main(argv: list[str]) -> None:
    from app.games import registry

    if argv[:1] != ["record"]:
        raise SystemExit("usage: python -m tests.games.golden record [GAME ...]")
    for game_id in argv[1:] or list(CASES):
        game = registry.get(game_id)
        assert game is not None, game_id
        for name, players, options, seed in CASES[game_id]:
            log = record(game, players, options, seed)
            path = path_of(game_id, name)
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(gzip.compress(_dumps(log), 9, mtime=0))
            print(f"{path}: {len(log['commands'])} commands, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
