"""A bare FastAPI WebSocket server doing Karanor's fan-out with no game and no database.

The floor `bench/load.py` compares the real server with: the same HTTP calls to
set rooms up (answered from memory), the same socket URL and messages. On each
`{"type": "command"}` it sends every socket of the room one view message of the
payload's size, then acks the sender, like `app.rooms.service` does after a
commit. The turn passes to the next seat at each command, so the load generator's
"who acts" logic finds a seat to drive.

    python bench/baseline_server.py --port 8001 --payload-file view.json
    python bench/baseline_server.py --port 8001 --payload-bytes 9000

`--payload-file` holds one real view (JSON object) captured by the load
generator; its `legal_actions` are offered, and the rest rides along as a
nested object, padded to `--payload-bytes` when that is larger.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

WORDS = [
    *("wood", "ore", "cloth", "wine", "meat", "fruit", "diamond", "gold", "prestige"),
    *("quest", "villa", "partner", "badge", "artifact", "market", "road", "harbour"),
    *("city", "forest", "mine", "vineyard", "farm", "orchard"),
]


class Template:
    """The view message: `head % (version, version, turn_seat, turn_seat)` + `tail`, built
    once. It says whose turn it is in `to_act`, as every view of ours does (the generator
    reads it: without it the generator never sent a command to the baseline)."""

    def __init__(self, sample: dict[str, Any] | None, size: int) -> None:
        sample = dict(sample or {})
        legal = sample.pop("legal_actions", None) or [
            {"type": "end_turn"},
            {"type": "move", "to": "somewhere"},
            {"type": "harvest"},
        ]
        for key in ("version", "status", "seat", "turn", "to_act"):
            sample.pop(key, None)
        head = (
            b'{"type":"view","version":%d,"events":[],"view":{"version":%d,"status":"playing",'
            b'"seat":null,"turn":{"seat":%d,"round":1,"actions_left":4,"phase":"action",'
            b'"pending":null,"drafted":null},"to_act":[%d],"legal_actions":'
        )
        body = orjson.dumps(legal) + b',"rest":' + orjson.dumps(sample)
        current = len(head % (1000, 1000, 0, 0)) + len(body) + len(b',"pad":""}}')
        self.head = head
        self.tail = body + b',"pad":"' + self._pad(max(0, size - current)).encode() + b'"}}'
        self.size = len(self.message(1000, 0))

    @staticmethod
    def _pad(n: int) -> str:
        rng = secrets.SystemRandom()
        words: list[str] = []
        total = 0
        while total < n:
            w = rng.choice(WORDS)
            words.append(w)
            total += len(w) + 1
        return " ".join(words)[:n]

    def message(self, version: int, turn_seat: int) -> bytes:
        return self.head % (version, version, turn_seat, turn_seat) + self.tail


class Room:
    def __init__(self, max_players: int) -> None:
        self.max_players = max_players
        self.tokens: dict[str, int] = {}
        self.sockets: dict[WebSocket, int] = {}
        self.version = 0
        self.started = False


def create_app(template: Template) -> FastAPI:
    app = FastAPI(title="baseline")
    rooms: dict[str, Room] = {}

    def seat(room: Room) -> dict[str, Any]:
        token = secrets.token_urlsafe(24)
        index = len(room.tokens)
        room.tokens[token] = index
        return {"index": index, "token": token}

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> dict[str, Any]:
        body = orjson.loads(await request.body())
        code = secrets.token_urlsafe(12)
        room = rooms[code] = Room(int((body.get("options") or {}).get("max_players", 4)))
        return {"code": code, "url": f"/r/{code}", "seat": seat(room)}

    @app.post("/api/rooms/{code}/seats", status_code=201, response_model=None)
    async def join(code: str) -> dict[str, Any] | JSONResponse:
        room = rooms.get(code)
        if room is None:
            return JSONResponse({"error": {"code": "unknown_room", "message": code}}, 404)
        if len(room.tokens) >= room.max_players:
            return JSONResponse({"error": {"code": "room_full", "message": code}}, 409)
        return {"seat": seat(room)}

    @app.post("/api/rooms/{code}/start", response_model=None)
    async def start(code: str) -> dict[str, Any] | JSONResponse:
        room = rooms.get(code)
        if room is None:
            return JSONResponse({"error": {"code": "unknown_room", "message": code}}, 404)
        room.started = True
        return {"code": code, "status": "playing"}

    @app.websocket("/ws/rooms/{code}")
    async def socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
        await websocket.accept()
        room = rooms.get(code)
        index = room.tokens.get(token or "") if room is not None else None
        if room is None or index is None:
            await websocket.close(4401)
            return
        room.sockets[websocket] = index
        n = len(room.tokens)
        try:
            await websocket.send_text(template.message(room.version, room.version % n).decode())
            while True:
                text = await websocket.receive_text()
                data = orjson.loads(text)
                if data.get("type") != "command":
                    continue
                room.version += 1
                message = template.message(room.version, room.version % n).decode()
                for other in list(room.sockets):
                    await other.send_text(message)
                ack = {"type": "ack", "id": data.get("id"), "version": room.version}
                await websocket.send_text(orjson.dumps(ack).decode())
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets.pop(websocket, None)

    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--payload-file", type=Path, help="one captured view (JSON object)")
    parser.add_argument("--payload-bytes", type=int, default=0, help="view message size")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    sample = orjson.loads(args.payload_file.read_bytes()) if args.payload_file else None
    template = Template(sample, args.payload_bytes)
    print(f"baseline on http://{args.host}:{args.port}/ view message {template.size} B", flush=True)
    uvicorn.run(
        create_app(template),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,  # as `karanor serve`
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
