"""Write the upgrade fixture of one Alembic revision with the code of its time.

    .venv/bin/python -m tests.store.upgrades.make REVISION COMMIT

COMMIT is the last commit whose migrations end at REVISION (the code that ran longest
on that schema: `git log migrations/versions` gives the commit that added the next
revision; its parent). The script checks COMMIT out in a temporary `git worktree`,
runs that tree's own `app.cli serve` (its own migrations, its own engines) on a fresh
SQLite file, and plays through its HTTP API (the client contract, only extended since):
for each game that tree hosts, a room in the lobby, a game mid-turn (Karanor: with open
trade offers), a finished game; and where the tree has Play again, a finished game with
its rematch. Then every table's rows (but alembic_version) are written, dialect-neutral,
to `tests/store/upgrades/REVISION.json` with each room's seat tokens (the database keeps
only their hashes), so `test_upgrades.py` can load them into SQLite or PostgreSQL at
REVISION, upgrade to head and play on.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

from tests.helpers.server import REPO_ROOT, free_port

HERE = Path(__file__).resolve().parent
MAX_COMMANDS = 4000


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class OldServer:
    """`app.cli serve` of another tree (its folder first on sys.path: `-m` from it)."""

    def __init__(self, tree: Path, workdir: Path) -> None:
        self.tree = tree
        self.port = free_port()
        self.db = workdir / "karanor.db"
        self.log = (workdir / "server.log").open("ab")
        env = {
            "PATH": "/usr/bin:/bin",
            "DATABASE_URL": f"sqlite:///{self.db}",
            "KARANOR_DATA_DIR": str(workdir / "data"),
            "KARANOR_BOT_DELAY_SECONDS": "0",
            "KARANOR_ROOMS_PER_HOUR": "0",
            "KARANOR_COMMAND_RATE": "100000",
            "KARANOR_COMMAND_BURST": "100000",
            "KARANOR_GAME_SEED": "32",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=tree,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=30)
        deadline = time.monotonic() + 180
        while True:
            try:
                if self.http.get("/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = (workdir / "server.log").read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the old server did not start:\n{tail}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.http.close()
        self.process.terminate()
        self.process.wait(30)
        self.log.close()

    def games(self) -> list[str]:
        r = self.http.get("/api/games")
        if r.status_code != 200:
            return ["karanor"]  # before the registry: Karanor only
        body = r.json()
        items = body if isinstance(body, list) else body.get("games", [])
        return [g["id"] for g in items]

    def room(self, game: str, humans: int, options: dict[str, Any], start: bool) -> dict:
        body: dict[str, Any] = {"name": "Host", "options": {"max_players": humans, **options}}
        if game != "karanor":
            body["game"] = game
        r = self.http.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
        for i in range(1, humans):
            r = self.http.post(f"/api/rooms/{code}/seats", json={"name": f"Player {i}"})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["seat"]["token"])
        if start:
            r = self.http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
        return {"code": code, "game": game, "tokens": tokens}

    def view(self, room: dict, seat: int) -> dict[str, Any]:
        r = self.http.get(f"/api/rooms/{room['code']}/view", headers=bearer(room["tokens"][seat]))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def acting(self, room: dict) -> tuple[int, dict[str, Any]] | None:
        for seat in range(len(room["tokens"])):
            view = self.view(room, seat)
            if view["status"] != "playing":
                return None
            waits = view.get("to_act")
            if waits is None:  # before `to_act`: Karanor's turn
                turn = view["turn"]
                if turn.get("pending"):
                    waits = [turn["pending"]["seat"]]
                elif turn["phase"] == "draft":
                    waits = [i for i, done in enumerate(turn["drafted"]) if not done]
                else:
                    waits = [turn["seat"]]
            if seat in waits and view["legal_actions"]:
                return seat, view
        raise AssertionError(f"nobody may act in {room['code']}")

    def send(self, room: dict, seat: int, command: dict[str, Any]) -> httpx.Response:
        return self.http.post(
            f"/api/rooms/{room['code']}/commands",
            json={"id": f"fixture-{time.monotonic_ns()}", "command": command},
            headers=bearer(room["tokens"][seat]),
        )

    def play(self, room: dict, rng: random.Random, steps: int, until_turns: bool = False) -> None:
        """`steps` random legal commands (or until the game ends); with `until_turns`, on
        until Karanor's draft is over."""
        for i in range(MAX_COMMANDS):
            found = self.acting(room)
            if found is None:
                return
            seat, view = found
            if i >= steps and not (until_turns and view["turn"].get("phase") == "draft"):
                return
            legal = view["legal_actions"]
            kinds = sorted({a["type"] for a in legal})
            if "end_turn" in kinds and len(kinds) > 1 and rng.random() < 0.8:
                kinds.remove("end_turn")
            kind = rng.choice(kinds)
            command = rng.choice([a for a in legal if a["type"] == kind])
            r = self.send(room, seat, command)
            assert r.status_code == 200, r.text
        raise AssertionError(f"{room['code']}: not over after {MAX_COMMANDS} commands")

    def offers(self, room: dict) -> int:
        """Open trade offers from the seat to act, each giving 1 gold or a resource it
        holds; the number accepted."""
        found = self.acting(room)
        assert found is not None
        seat, view = found
        me = view["players"][seat]
        made = 0
        gives: list[dict[str, Any]] = [{"gold": 1}] if me.get("gold") else []
        gives += [{"resources": {k: 1}} for k, n in me.get("resources", {}).items() if n]
        for give in gives[:2]:
            offer = {"type": "offer", "to": None, "give": give, "want": {"gold": 2}}
            r = self.send(room, seat, offer)
            made += r.status_code == 200
        return made

    def finish(self, room: dict, rng: random.Random) -> None:
        self.play(room, rng, MAX_COMMANDS)
        assert self.view(room, 0)["status"] == "finished", room["code"]

    def rematch(self, room: dict) -> dict | None:
        r = self.http.post(f"/api/rooms/{room['code']}/rematch", headers=bearer(room["tokens"][0]))
        if r.status_code == 404 and "unknown_room" not in r.text:
            return None  # no Play again in this tree
        assert r.status_code == 201, r.text
        return {
            "code": r.json()["code"],
            "game": room["game"],
            "tokens": [r.json()["seat"]["token"]],
        }


def populate(server: OldServer) -> list[dict[str, Any]]:
    rng = random.Random(32)
    rooms = []
    for game in server.games():
        quick = {"end_prestige": 3} if game == "karanor" else {}
        lobby = server.room(game, 2, quick, start=False)
        rooms.append({**lobby, "state": "lobby"})
        mid = server.room(game, 3, quick, start=True)
        server.play(mid, rng, 3, until_turns=game == "karanor")
        mid["offers"] = server.offers(mid) if game == "karanor" else 0
        rooms.append({**mid, "state": "playing"})
        done = server.room(game, 2, quick, start=True)
        server.finish(done, rng)
        rooms.append({**done, "state": "finished"})
        again = server.rematch(done)
        if again is not None:
            rooms[-1]["state"] = "finished_with_rematch"
            rooms.append({**again, "state": "rematch_lobby"})
    return rooms


def dump(db: Path) -> dict[str, Any]:
    conn = sqlite3.connect(db)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                " AND name != 'alembic_version' ORDER BY name"
            )
        ]
        tables = {}
        for name in names:
            cursor = conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid')
            columns = [d[0] for d in cursor.description]
            tables[name] = {"columns": columns, "rows": [list(r) for r in cursor.fetchall()]}
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    finally:
        conn.close()
    return {"revision": revision, "tables": tables}


def main(argv: list[str]) -> int:
    revision, commit = argv
    with tempfile.TemporaryDirectory(prefix="karanor-fixture-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(REPO_ROOT), "worktree", "add", "--detach", str(tree), commit],
            check=True,
            capture_output=True,
        )
        try:
            server = OldServer(tree, Path(tmp))
            try:
                rooms = populate(server)
            finally:
                server.stop()
            data = dump(server.db)
        finally:
            subprocess.run(
                ["git", "-C", str(REPO_ROOT), "worktree", "remove", "--force", str(tree)],
                check=False,
            )
    if data["revision"] != revision:
        raise SystemExit(f"{commit} wrote revision {data['revision']}, not {revision}")
    full = commit_of(commit)
    out = {"revision": revision, "commit": full, "rooms": rooms, **data}
    (HERE / f"{revision}.json").write_bytes(
        orjson.dumps(out, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    )
    print(f"{revision}: {len(rooms)} rooms from {full[:10]}")
    return 0


def commit_of(ref: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", ref], check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
