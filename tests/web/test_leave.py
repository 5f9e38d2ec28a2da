"""Leaving a running game from a browser (issue 27's resign, over HTTP): the seat's token
goes from the browser's device cookie too, so the page that left opens the room as a
spectator and watches the bot play on (it kept reconnecting with the dead token, refused
`bad_token`, and showed nothing). In-process (TestClient), on SQLite, with the toy game."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.hardening.test_table_limits import bearer, client_for

__all__ = ["client_for"]  # the fixture, used by name


def test_the_browser_that_left_watches_as_a_spectator(client_for: Any) -> None:
    host = client_for()
    made = host.post("/api/rooms", json={"name": "Ann", "game": "toy"}).json()
    code = made["code"]
    # Bo's browser: its own cookie jar, on the same app.
    bo_http = TestClient(host.app).__enter__()
    try:
        joined = bo_http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"})
        assert joined.status_code == 201
        started = host.post(f"/api/rooms/{code}/start", headers=bearer(made["seat"]["token"]))
        assert started.status_code == 200
        assert bo_http.get(f"/api/rooms/{code}/me").json()["seat"]["index"] == 1
        assert any(r["code"] == code for r in bo_http.get("/api/me/rooms").json()["rooms"])

        # Bo's second device (the same cookies, copied before Bo leaves on the first).
        other = TestClient(host.app).__enter__()
        other.cookies.update(dict(bo_http.cookies.items()))
        left = bo_http.post(f"/api/rooms/{code}/leave")  # by its cookie, as the page does
        assert left.status_code == 200, left.text
        assert left.json()["seats"][1]["bot"] is True

        # The browser holds no seat here any more: a spectator, not a refused token.
        assert bo_http.get(f"/api/rooms/{code}/me").json()["seat"] is None
        view = bo_http.get(f"/api/rooms/{code}/view")
        assert view.status_code == 200, view.text
        assert view.json()["seat"] is None
        assert all(r["code"] != code for r in bo_http.get("/api/me/rooms").json()["rooms"])
        # The host's browser keeps its seat.
        assert host.get(f"/api/rooms/{code}/me").json()["seat"]["index"] == 0

        # The second device still sends the dead token: the view refuses it, and /me
        # forgets it (the page asks /me when its socket hears bad_token), so that device
        # watches as a spectator from then on.
        assert other.get(f"/api/rooms/{code}/view").json()["error"]["code"] == "bad_token"
        me = other.get(f"/api/rooms/{code}/me")
        assert me.status_code == 200 and me.json()["seat"] is None
        assert other.get(f"/api/rooms/{code}/view").json()["seat"] is None
        # A token sent on purpose (a header) is still refused, not forgotten.
        token = joined.json()["seat"]["token"]
        assert host.get(f"/api/rooms/{code}/me", headers=bearer(token)).status_code == 401
        other.__exit__(None, None, None)
    finally:
        bo_http.__exit__(None, None, None)
