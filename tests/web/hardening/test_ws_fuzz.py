"""WebSocket fuzzing against a real server process (each backend).

Thousands of seeded random bad messages from seated and spectator sockets: invalid
JSON, binary frames, huge strings, wrong types for every field, unknown types,
commands of another seat, resyncs with garbage versions, chat that is not text,
nesting bombs. Each batch ends with a ping; everything answered before the pong must
be exactly one coded error per fuzzed message. The game (every seat's view, the
spectator's, the log) is the same afterwards, /healthz answers, the process lives.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

import httpx
import orjson
import pytest
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.helpers.client import Room, bearer, make_room, ws_url
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

MESSAGES_PER_SOCKET = 1000
BATCH = 25
CODE = re.compile(r"^[a-z][a-z_]*$")
FIELDS_OF = {
    "command": ["id", "command", "expected_version"],
    "chat": ["text"],
    "resync": ["version"],
    "ping": [],
}
JUNK: list[Any] = [
    None,
    True,
    0,
    -1,
    2**63 - 1,
    1.5,
    -0.0,
    "",
    "x",
    "\x00",
    "\ud7ff" * 10,
    [],
    [1, "a"],
    {},
    {"type": "end_turn"},
    "<script>window.__xss=1</script>",
]


def _junk(rng: random.Random) -> Any:
    value = rng.choice(JUNK)
    if rng.random() < 0.1:
        return "y" * rng.randint(100, 3000)
    return value


def fuzz_message(rng: random.Random, foreign: list[dict[str, Any]]) -> str | bytes:
    """One message the server must refuse with a coded error."""
    kind = rng.randrange(14)
    if kind == 0:  # not JSON, or truncated JSON
        good = orjson.dumps({"type": "command", "id": "t", "command": {"type": "end_turn"}})
        return rng.choice(
            ["", "{", "nope", "{'type': 'ping'}", good.decode()[: rng.randrange(1, 40)]]
        )
    if kind == 1:  # binary frames: not UTF-8, or not JSON
        return rng.choice(
            [b"\x00\xff" * rng.randint(1, 50), b'{"type":"pi', b"\xc3(" + rng.randbytes(64)]
        )
    if kind == 2:  # too large (16 KB < size < 64 KB)
        return orjson.dumps({"type": "chat", "text": "z" * rng.randint(17_000, 60_000)}).decode()
    if kind == 3:  # not an object
        return orjson.dumps(rng.choice([[], [1], "ping", 3, None, True])).decode()
    if kind == 4:  # unknown or wrongly typed `type`
        return orjson.dumps(
            {
                "type": rng.choice(
                    ["dance", "COMMAND", "", 1, None, ["ping"], "ack", "view", "error"]
                )
            }
        ).decode()
    if kind == 5:  # a known type with a field of the wrong type
        kind_name = rng.choice(["command", "chat", "resync"])
        message: dict[str, Any] = {"type": kind_name, "id": "f1", "command": {"type": "end_turn"}}
        if kind_name == "chat":
            message = {"type": "chat", "text": "hi"}
        elif kind_name == "resync":
            message = {"type": "resync", "version": 1}
        message[rng.choice(FIELDS_OF[kind_name])] = rng.choice(
            [j for j in JUNK if not isinstance(j, int) or isinstance(j, bool)] + [[], {}, 1.5]
        )
        if kind_name == "chat" and isinstance(message["text"], str) and message["text"].strip():
            message["text"] = 5
        if kind_name == "resync" and message["version"] is None:
            message["version"] = "0"
        if (
            kind_name == "command"
            and isinstance(message.get("id"), str)
            and message["id"]
            and message["command"] == {"type": "end_turn"}
        ):
            message["command"] = {"type": 7}  # all fields fine: break the command instead
        return orjson.dumps(message).decode()
    if kind == 6:  # unknown extra fields
        return orjson.dumps({"type": "ping", "extra": _junk(rng)}).decode()
    if kind == 7:  # another seat's legal command (or a random one), never ours to send
        cmd = dict(rng.choice(foreign)) if foreign else {"type": "end_turn"}
        if rng.random() < 0.5:
            cmd["seat"] = rng.randint(0, 5)
        return orjson.dumps({"type": "command", "id": f"f{rng.random()}", "command": cmd}).decode()
    if kind == 8:  # commands with garbage in their fields
        cmd = {
            "type": rng.choice(["move", "build", "offer", "accept", "draft_pick", "market", "fly"])
        }
        for name in rng.sample(
            ["to", "card", "offer", "give", "want", "path", "bonus", "target", "note"], 3
        ):
            cmd[name] = _junk(rng)
        return orjson.dumps(
            {"type": "command", "id": "g" * rng.randint(1, 64), "command": cmd}
        ).decode()
    if kind == 9:  # resync with garbage versions
        version = rng.choice(["1", 1.0, [], {}, True, "x" * 50])
        return orjson.dumps({"type": "resync", "version": version}).decode()
    if kind == 10:  # chat that is not (acceptable) text
        text = rng.choice([None, 5, [], {"t": 1}, True, "", "   ", "a" * 501])
        return orjson.dumps({"type": "chat", "text": text}).decode()
    if kind == 11:  # nesting bombs: past the parser's limit, and deep but parseable
        if rng.random() < 0.5:
            depth = rng.randint(1100, 5000)
            return "[" * depth + "]" * depth
        depth = rng.randint(50, 1000)
        deep = '{"a":' * depth + "1" + "}" * depth
        return (
            '{"type":"command","id":"deep","command":{"type":"offer","give":'
            + deep
            + ',"want":{}}}'
        )
    if kind == 12:  # expected_version from the future or the past, and ids too long
        return orjson.dumps(
            {
                "type": "command",
                "id": rng.choice(["", "i" * 65]),
                "command": {"type": "end_turn"},
                "expected_version": rng.choice([-1, 10**6]),
            }
        ).decode()
    # huge strings in every field
    big = "w" * rng.randint(1000, 15_000)
    return orjson.dumps(
        {"type": rng.choice(["command", big]), "id": big, "command": {"type": big}}
    ).decode()


def snapshot(server: ServerProcess, room: Room) -> dict[str, Any]:
    with httpx.Client(base_url=server.url, timeout=15) as http:
        out: dict[str, Any] = {"room": http.get(f"/api/rooms/{room.code}").json()}
        out["room"].pop("seats")  # `connected` changes with the sockets
        for seat, token in enumerate(room.tokens):
            headers = bearer(token) if token else {}
            out[f"view{seat}"] = http.get(f"/api/rooms/{room.code}/view", headers=headers).json()
        out["spectator"] = http.get(f"/api/rooms/{room.code}/view").json()
        out["log"] = http.get(f"/api/rooms/{room.code}/log").json()
    return out


async def until_pong(ws: ClientConnection) -> list[dict[str, Any]]:
    """The messages up to the next pong, pushes of other traffic left out."""
    got: list[dict[str, Any]] = []
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] == "pong":
            return got
        if message["type"] in ("presence", "chat", "room"):
            continue
        got.append(message)


async def fuzz_socket(url: str, seed: int, foreign: list[dict[str, Any]], count: int) -> list[str]:
    """Send `count` fuzzed messages; returns the error codes they got."""
    rng = random.Random(seed)
    sent = 0
    codes: list[str] = []
    async with websockets.connect(url, max_size=2**24, compression=None) as ws:
        first = orjson.loads(await ws.recv())
        assert first["type"] == "view"
        await until_pong_after_ping(ws)
        while sent < count:
            batch = [fuzz_message(rng, foreign) for _ in range(min(BATCH, count - sent))]
            for message in batch:
                await ws.send(message)
            await ws.send('{"type":"ping"}')
            answers = await until_pong(ws)
            assert len(answers) == len(batch), (answers, batch)
            for message, answer in zip(batch, answers, strict=True):
                shown = repr(message)[:300]
                assert set(answer) == {"type", "id", "code", "message"}, (shown, answer)
                assert answer["type"] == "error", (shown, answer)
                assert isinstance(answer["code"], str) and CODE.match(answer["code"]), answer
                assert answer["code"] not in ("internal_error", "unavailable"), (shown, answer)
                assert isinstance(answer["message"], str) and answer["message"], answer
                assert answer["id"] is None or isinstance(answer["id"], str), answer
            sent += len(batch)
            codes.extend(a["code"] for a in answers)
    return codes


async def until_pong_after_ping(ws: ClientConnection) -> None:
    await ws.send('{"type":"ping"}')
    rest = await until_pong(ws)
    assert all(m["type"] == "view" for m in rest), rest


def test_fuzzed_messages_get_coded_errors_and_change_nothing(
    server_factory: Any, database_url: str
) -> None:
    env = {
        "DATABASE_URL": database_url,
        "KARANOR_BOT_DELAY_SECONDS": "0",
        "KARANOR_LOG_LEVEL": "warning",
        "KARANOR_WS_MESSAGE_RATE": "100000",
        "KARANOR_WS_MESSAGE_BURST": "100000",
        "KARANOR_COMMAND_RATE": "100000",
        "KARANOR_COMMAND_BURST": "100000",
    }
    server = server_factory(env=env).start()
    room = make_room(server.url, humans=2)
    lobby = make_room(server.url, humans=2, options={"max_players": 3}, start=False)
    before = snapshot(server, room)
    before_lobby = snapshot(server, lobby)
    guest_legal = before["view1"]["legal_actions"]
    host_legal = before["view0"]["legal_actions"]
    started = time.monotonic()

    async def scenario() -> list[list[str]]:
        return await asyncio.gather(
            fuzz_socket(ws_url(server, room, room.tokens[0]), 1, guest_legal, MESSAGES_PER_SOCKET),
            fuzz_socket(ws_url(server, room, room.tokens[1]), 2, host_legal, MESSAGES_PER_SOCKET),
            fuzz_socket(
                ws_url(server, room, None), 3, host_legal + guest_legal, MESSAGES_PER_SOCKET
            ),
            fuzz_socket(ws_url(server, lobby, lobby.tokens[1]), 4, [], MESSAGES_PER_SOCKET // 2),
        )

    codes = [code for socket in asyncio.run(scenario()) for code in socket]
    assert len(codes) >= 3000
    # Every layer was reached: framing, validation, the engine's parser, its rules, roles.
    assert {"bad_message", "too_large", "bad_command", "forbidden", "not_started"} <= set(codes)
    assert time.monotonic() - started < 60
    assert server.running
    assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    assert snapshot(server, room) == before
    assert snapshot(server, lobby) == before_lobby
    assert "Traceback" not in server.log_text()


def test_oversized_frames_close_only_that_socket(server_factory: Any, sqlite_url: str) -> None:
    server = server_factory(
        env={"DATABASE_URL": sqlite_url, "KARANOR_LOG_LEVEL": "warning"}
    ).start()
    room = make_room(server.url, humans=2)
    before = snapshot(server, room)

    async def scenario() -> None:
        async with websockets.connect(ws_url(server, room, None), max_size=2**24) as watcher:
            await watcher.recv()
            async with websockets.connect(
                ws_url(server, room, room.tokens[0]), max_size=2**24
            ) as ws:
                await ws.recv()
                await ws.send("[" * 70_000)  # over the 64 KB frame limit
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            await watcher.send('{"type":"ping"}')
            while orjson.loads(await asyncio.wait_for(watcher.recv(), 10))["type"] != "pong":
                pass

    asyncio.run(scenario())
    assert server.running and httpx.get(server.url + "/healthz").status_code == 200
    assert snapshot(server, room) == before


def test_compression_is_not_offered(server_factory: Any, sqlite_url: str) -> None:
    """permessage-deflate is off (no decompression bombs)."""
    server = server_factory(env={"DATABASE_URL": sqlite_url}).start()
    room = make_room(server.url, humans=2, start=False)

    async def scenario() -> None:
        async with websockets.connect(ws_url(server, room, None)) as ws:
            assert ws.response is not None
            assert "sec-websocket-extensions" not in {k.lower() for k in ws.response.headers}

    asyncio.run(scenario())
