"""The room WebSocket is served in front of every middleware (`app.main.KaranorApp`): none
of them does anything for a WebSocket, and each one's frame would stay alive as long as the
socket (memory per idle socket, docs/perf-sockets-cold-bots.md). HTTP, the lifespan and any
other WebSocket path still take the whole stack."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.main import create_app
from app.store import migrate
from app.web.ws import CLOSE_POLICY


def _app_with_probe(url: str) -> tuple[Any, list[tuple[str, str]]]:
    """An app whose middleware stack records every scope that enters it."""
    seen: list[tuple[str, str]] = []

    class Probe:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            seen.append((scope["type"], scope.get("path", "")))
            await self.app(scope, receive, send)

    app = create_app(Settings(database_url=url, rooms_per_hour=0, cleanup_interval_seconds=0))
    app.add_middleware(Probe)
    return app, seen


@pytest.fixture
def url(sqlite_url: str) -> str:
    migrate.upgrade(sqlite_url)
    return sqlite_url


def _room(client: TestClient) -> tuple[str, str]:
    response = client.post("/api/rooms", json={"name": "Ann"})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["code"], body["seat"]["token"]


def _receive(socket: Any, kind: str) -> Any:
    for _ in range(10):
        message = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_a_room_socket_is_served_without_the_middleware_stack(url: str) -> None:
    app, seen = _app_with_probe(url)
    with TestClient(app) as client:
        code, token = _room(client)
        with client.websocket_connect(f"/ws/rooms/{code}?token={token}") as seat:
            view = _receive(seat, "view")
            assert view["view"]["seat"] == 0
            seat.send_json({"type": "chat", "text": "hello"})
            assert _receive(seat, "chat")["text"] == "hello"
        client.cookies.clear()  # the seat cookie of the room's creation
        with client.websocket_connect(f"/ws/rooms/{code}") as spectator:
            assert _receive(spectator, "view")["view"]["seat"] is None
    assert ("lifespan", "") in seen
    assert ("http", "/api/rooms") in seen
    assert [s for s in seen if s[0] == "websocket"] == []


def test_the_fast_path_keeps_the_origin_check(url: str) -> None:
    app, seen = _app_with_probe(url)
    with TestClient(app) as client:
        code, token = _room(client)
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(
                f"/ws/rooms/{code}?token={token}", headers={"origin": "https://evil.example"}
            ) as socket,
        ):
            socket.receive_json()
        assert refused.value.code == CLOSE_POLICY
        # Our own origin (the Host the browser sent) is let in.
        with client.websocket_connect(
            f"/ws/rooms/{code}?token={token}", headers={"origin": "http://testserver"}
        ) as socket:
            assert _receive(socket, "view")["view"]["seat"] == 0
    assert [s for s in seen if s[0] == "websocket"] == []


def test_other_websocket_paths_take_the_usual_way(url: str) -> None:
    app, seen = _app_with_probe(url)
    with TestClient(app) as client:
        for path in ("/ws/rooms", "/ws/rooms/ABC/more", "/ws/other"):
            with pytest.raises(WebSocketDisconnect), client.websocket_connect(path) as socket:
                socket.receive_json()
    assert [s for s in seen if s[0] == "websocket"] == [
        ("websocket", "/ws/rooms"),
        ("websocket", "/ws/rooms/ABC/more"),
        ("websocket", "/ws/other"),
    ]


def test_a_registered_socket_forgets_its_handshake_headers(url: str) -> None:
    """Read only while the socket opens (origin, host, seat cookie, client address,
    token): an idle socket does not keep them (memory, docs/perf-sockets-cold-bots.md),
    and it is served as before."""
    import gc

    from starlette.websockets import WebSocket

    app, _seen = _app_with_probe(url)
    with TestClient(app) as client:
        code, token = _room(client)
        headers = {"X-Long": "x" * 2000, "Origin": "http://testserver"}
        with client.websocket_connect(f"/ws/rooms/{code}?token={token}", headers=headers) as ws:
            _receive(ws, "view")
            ws.send_json({"type": "ping"})
            _receive(ws, "pong")  # registered, and served after the headers are gone
            (served,) = [
                o
                for o in gc.get_objects()
                if type(o) is WebSocket and o.scope.get("path") == f"/ws/rooms/{code}"
            ]
            assert served.scope["headers"] == []
            assert "_headers" not in vars(served) and "_query_params" not in vars(served)
