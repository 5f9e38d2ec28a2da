"""Impersonation by name (issue 20): names accepted zero-width, bidi-override and BOM
characters, so "Host\\u200b" looked like the host. Names are now NFC with invisible
characters removed (a name with nothing visible left is 422), and a name that is
another seat's after that (case, width and spacing aside) is 409 `name_taken`, when
joining and when the host names a bot. Real server, both backends."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.client import bearer
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

LOOKALIKES = [
    "Host\u200b",  # zero-width space
    "\u200dHost",  # zero-width joiner
    "Ho\u202est",  # right-to-left override
    "Host\u2066\u2069",  # isolates
    "\ufeffHost",  # BOM
    "Ho\u00adst",  # soft hyphen
    "host",
    "HOST",
    "\uff28\uff4f\uff53\uff54",  # fullwidth
    "Host ",
    "  Host",
]
NOTHING_VISIBLE = ["\u200b", "\ufeff", "\u2066\u2069", " \u200b ", "\u202e", "\u3164"]


def _room(http: httpx.Client, max_players: int = 6) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"name": "Host", "options": {"max_players": max_players}})
    assert r.status_code == 201, r.text
    http.cookies.clear()
    return r.json()["code"], r.json()["seat"]["token"]


def _names(http: httpx.Client, code: str) -> list[str]:
    return [s["name"] for s in http.get(f"/api/rooms/{code}").json()["seats"]]


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


@pytest.fixture
def http(shared_server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=shared_server.url, timeout=15)


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_name_like_another_seats_is_taken(http: httpx.Client, name: str) -> None:
    with http:
        code, host = _room(http)
        _refused(http.post(f"/api/rooms/{code}/seats", json={"name": name}), 409, "name_taken")
        r = http.post(f"/api/rooms/{code}/bots", json={"name": name}, headers=bearer(host))
        _refused(r, 409, "name_taken")
        assert _names(http, code) == ["Host"]


@pytest.mark.parametrize("name", NOTHING_VISIBLE)
def test_a_name_with_nothing_visible_is_422(http: httpx.Client, name: str) -> None:
    with http:
        _refused(http.post("/api/rooms", json={"name": name}), 422, "bad_request")
        code, host = _room(http)
        _refused(http.post(f"/api/rooms/{code}/seats", json={"name": name}), 422, "bad_request")
        r = http.post(f"/api/rooms/{code}/bots", json={"name": name}, headers=bearer(host))
        _refused(r, 422, "bad_request")
        assert _names(http, code) == ["Host"]


def test_names_are_stored_normalised(http: httpx.Client) -> None:
    with http:
        r = http.post("/api/rooms", json={"name": "\u202eHo\u200bst\ufeff"})
        assert r.status_code == 201, r.text
        assert _names(http, r.json()["code"]) == ["Host"]
        code, host = _room(http)
        # Decomposed é is stored composed (NFC); the composed one is then taken.
        r = http.post(f"/api/rooms/{code}/seats", json={"name": "Zoe\u0301"})
        assert r.status_code == 201, r.text
        http.cookies.clear()
        _refused(
            http.post(f"/api/rooms/{code}/seats", json={"name": "Zo\u00e9"}), 409, "name_taken"
        )
        r = http.post(f"/api/rooms/{code}/seats", json={"name": "Ann\u200b  \u2060Lee"})
        assert r.status_code == 201, r.text
        assert _names(http, code) == ["Host", "Zo\u00e9", "Ann Lee"]


def test_a_bots_default_name_skips_a_persons(http: httpx.Client) -> None:
    with http:
        code, host = _room(http)
        # A person called "Bot 3" sits at seat 1; the bot at seat 2 is not another "Bot 3".
        assert http.post(f"/api/rooms/{code}/seats", json={"name": "bot 3"}).status_code == 201
        http.cookies.clear()
        r = http.post(f"/api/rooms/{code}/bots", json={}, headers=bearer(host))
        assert r.status_code == 201, r.text
        assert _names(http, code) == ["Host", "bot 3", "Bot 4"]
        _refused(http.post(f"/api/rooms/{code}/seats", json={"name": "BOT 4"}), 409, "name_taken")
