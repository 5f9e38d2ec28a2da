"""CSRF from a same-site origin (issue 20): a page on another port of the same host (a
second service on a home server) could POST with the host's seat cookie (SameSite=Lax
does not separate ports) and add a bot and start the game. Every state-changing route
now checks `Origin` (or `Sec-Fetch-Site`): a browser request from another origin is 403
`forbidden_origin` and changes nothing; our own origin, the `ALLOWED_ORIGINS` and
requests with no Origin (non-browser clients with Bearer tokens) pass. Real servers."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.helpers.client import bearer
from tests.helpers.server import ServerProcess, free_port

pytestmark = pytest.mark.slow


def _lobby(base: str) -> tuple[httpx.Client, str, str]:
    """A lobby of two; returns the host's browser (its cookie jar holds the seat cookie),
    the code and the host's token."""
    browser = httpx.Client(base_url=base, timeout=15)
    r = browser.post("/api/rooms", json={"name": "Host", "options": {"max_players": 4}})
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["seat"]["token"]
    with httpx.Client(base_url=base, timeout=15) as guest:
        assert guest.post(f"/api/rooms/{code}/seats", json={"name": "Guest"}).status_code == 201
    assert any(c.startswith("karanor_") for c in browser.cookies)
    return browser, code, token


def _forbidden(r: httpx.Response) -> None:
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "forbidden_origin", r.text
    assert r.headers["x-frame-options"] == "DENY"  # an answer like every other


def test_another_port_of_the_same_host_cannot_act_with_the_cookie(
    shared_server: ServerProcess,
) -> None:
    browser, code, _token = _lobby(shared_server.url)
    other = f"http://{shared_server.host}:{free_port()}"
    with contextlib.closing(browser):
        # The other service's page, as a browser sends it: Origin set, the cookie riding.
        foreign: list[dict[str, str]] = [
            {"Origin": other, "Sec-Fetch-Site": "same-site"},
            {"Origin": other},
            {"Origin": "null"},
            {"Sec-Fetch-Site": "same-site"},  # an old browser that sent no Origin
            {"Sec-Fetch-Site": "cross-site"},
            {"Origin": f"https://{shared_server.host}:{shared_server.port}.evil.example"},
        ]
        for headers in foreign:
            _forbidden(browser.post(f"/api/rooms/{code}/bots", json={}, headers=headers))
            _forbidden(browser.post(f"/api/rooms/{code}/start", headers=headers))
            _forbidden(
                browser.put(f"/api/rooms/{code}/options", json={"options": {}}, headers=headers)
            )
            _forbidden(browser.delete(f"/api/rooms/{code}/seats/1", headers=headers))
            _forbidden(
                browser.post(f"/api/rooms/{code}/seats", json={"name": "X"}, headers=headers)
            )
            _forbidden(browser.post("/api/rooms", json={"name": "X"}, headers=headers))
            r = browser.post(
                f"/api/rooms/{code}/commands",
                json={"id": "x", "command": {"type": "end_turn"}},
                headers=headers,
            )
            _forbidden(r)
        room = browser.get(f"/api/rooms/{code}", headers={"Origin": other}).json()
        assert room["status"] == "lobby"  # reading is not changing: GET passes
        assert [s["name"] for s in room["seats"]] == ["Host", "Guest"]

        # The page of our own origin, with the same cookie, works.
        own = {"Origin": shared_server.url, "Sec-Fetch-Site": "same-origin"}
        r = browser.post(f"/api/rooms/{code}/bots", json={}, headers=own)
        assert r.status_code == 201, r.text
        r = browser.post(f"/api/rooms/{code}/start", headers=own)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "playing"


def test_clients_without_origin_pass(shared_server: ServerProcess) -> None:
    browser, code, token = _lobby(shared_server.url)
    browser.close()
    with httpx.Client(base_url=shared_server.url, timeout=15) as http:
        r = http.post(f"/api/rooms/{code}/bots", json={}, headers=bearer(token))
        assert r.status_code == 201, r.text
        r = http.post(f"/api/rooms/{code}/start", headers=bearer(token))
        assert r.status_code == 200, r.text


def test_allowed_origins_pass(serve: Callable[..., ServerProcess]) -> None:
    trusted = "https://karanor.example"
    server = serve(ALLOWED_ORIGINS=f"{trusted},https://other.example")
    browser, code, _token = _lobby(server.url)
    with contextlib.closing(browser):
        headers: dict[str, Any] = {"Origin": trusted, "Sec-Fetch-Site": "cross-site"}
        r = browser.post(f"/api/rooms/{code}/bots", json={}, headers=headers)
        assert r.status_code == 201, r.text
        _forbidden(
            browser.post(f"/api/rooms/{code}/start", headers={"Origin": "https://evil.example"})
        )
