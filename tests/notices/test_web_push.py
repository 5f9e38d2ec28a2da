"""Notices outside the page by Web Push (issue 29): a real server, a fake push service on
loopback that receives its requests, and the subscription's private key decrypting them
(RFC 8291 aes128gcm), as the seat's browser would."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.helpers.client import bearer, new_id
from tests.helpers.server import ServerProcess
from tests.notices.fakes import Browser, FakePushService

NOTICES = {
    "KARANOR_GAMES": "tests.games.toy:GAME",
    "KARANOR_NOTICE_KINDS": "web_push,json",
    "KARANOR_NOTICE_PRIVATE_ADDRESSES": "true",  # the fake push service is on loopback
    "KARANOR_NOTICE_RETRY_SECONDS": "0.05",
}


def eventually(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll `check()` until it is truthy (bounded): the state behind an HTTP route."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
    return found


@pytest.fixture
def push() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.close()


class Table:
    """A started toy room (Race to N) of Ann (seat 0) and Bo (seat 1), played over HTTP."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=10)
        r = self.http.post("/api/rooms", json={"name": "Ann", "game": "toy"})
        assert r.status_code == 201, r.text
        self.code = r.json()["code"]
        self.tokens = [r.json()["seat"]["token"]]
        r = self.http.post(f"/api/rooms/{self.code}/seats", json={"name": "Bo"})
        self.tokens.append(r.json()["seat"]["token"])
        r = self.http.post(f"/api/rooms/{self.code}/start", json={}, headers=bearer(self.tokens[0]))
        assert r.status_code == 200, r.text

    def add(self, seat: int, n: int = 1) -> None:
        body = {"id": new_id(), "command": {"type": "add", "n": n}}
        r = self.http.post(
            f"/api/rooms/{self.code}/commands", json=body, headers=bearer(self.tokens[seat])
        )
        assert r.status_code == 200, r.text

    def notices(self, seat: int, method: str = "GET", **body: Any) -> httpx.Response:
        return self.http.request(
            method,
            f"/api/rooms/{self.code}/notices",
            headers=bearer(self.tokens[seat]),
            json=body or None,
        )


def _subscribed(
    serve: Callable[..., ServerProcess], push: FakePushService, path: str
) -> tuple[Table, Browser]:
    server = serve(**NOTICES)
    table = Table(server)
    browser = Browser(push.url(path))
    r = table.notices(1, "PUT", web_push=browser.subscription(), time_zone="Europe/Paris")
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["vapid_public_key"] and [t["kind"] for t in out["targets"]] == ["web_push"]
    assert browser.endpoint not in r.text  # the endpoint is not shown back
    return table, browser


def test_a_closed_page_gets_one_decryptable_notice_within_2s_of_its_turn(
    serve: Callable[..., ServerProcess], push: FakePushService
) -> None:
    table, browser = _subscribed(serve, push, "/push/bo")
    started = time.monotonic()
    table.add(0)  # Bo's turn now; Bo's page is closed
    (first,) = push.wait_for("/push/bo", 1, timeout=10.0)
    assert first.at - started < 2.0, f"the notice came {first.at - started:.2f} s after the turn"
    assert first.headers["content-encoding"] == "aes128gcm"
    assert first.headers["authorization"].startswith("vapid t=")  # RFC 8292
    notice = browser.decrypt(first.body)
    assert notice == {
        "title": "Race to N",
        "body": "The game waits for you.",
        "url": f"/r/{table.code}",
        "tag": table.code,
    }
    # One notice per event: Bo plays, Ann plays, Bo's turn again makes the second; none
    # came in between (the queue keeps the order its facts came in).
    table.add(1)
    table.add(0)
    (second,) = push.wait_for("/push/bo", 2, timeout=5.0)[1:]
    assert browser.decrypt(second.body)["body"] == "The game waits for you."
    assert len(push.at("/push/bo")) == 2


def test_no_notice_while_the_page_is_open_and_visible(
    serve: Callable[..., ServerProcess], push: FakePushService
) -> None:
    table, browser = _subscribed(serve, push, "/push/bo2")
    base = str(table.http.base_url).replace("http://", "ws://").rstrip("/")
    with connect(f"{base}/ws/rooms/{table.code}?token={table.tokens[1]}") as ws:
        ws.recv()  # the view: Bo's page is open (and visible until it says otherwise)
        table.add(0)  # Bo's turn, seen on the page: no notice
        table.add(1)
        ws.send('{"type": "visibility", "visible": false}')  # Bo's tab goes to the back
        ws.send('{"type": "ping"}')
        while '"pong"' not in str(ws.recv()):  # the visibility message was handled
            pass
        table.add(0)  # Bo's turn, the page hidden: a notice
        (only,) = push.wait_for("/push/bo2", 1, timeout=5.0)
        assert browser.decrypt(only.body)["url"] == f"/r/{table.code}"
    assert len(push.at("/push/bo2")) == 1  # the turn seen on the visible page made none


def test_a_dead_subscription_is_removed(
    serve: Callable[..., ServerProcess], push: FakePushService
) -> None:
    push.statuses["/push/gone"] = 410
    table, _browser = _subscribed(serve, push, "/push/gone")
    table.add(0)
    push.wait_for("/push/gone", 1, timeout=5.0)
    # Removed once the 410 is read (a condition polled, bounded).
    eventually(lambda: not table.notices(1).json()["targets"])
