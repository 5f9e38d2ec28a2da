"""Every HTTP answer carries the security headers, errors included (issue 20: the 500
answer had none of them, Starlette's server-error handler sitting outside the headers
middleware), and an unhandled error is logged once, as a coded JSON 500. In-process."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.web.security import API_CSP, CSP

HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = create_app(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/k.db"))

    @app.get("/boom", include_in_schema=False)
    async def boom() -> None:
        raise RuntimeError("a bug")

    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    # No lifespan: these answers need no database.
    yield TestClient(app, raise_server_exceptions=False)


def assert_headers(headers: dict[str, str] | object, path: str = "/") -> None:
    """The page's headers, or an API answer's: its policy allows nothing (data, never a
    page), and a page's own (opener, permissions) are left off."""
    api = path.startswith("/api/")
    for key, value in HEADERS.items():
        want = API_CSP if api and key == "content-security-policy" else value
        assert headers[key] == want, key  # type: ignore[index]
    for key in ("cross-origin-opener-policy", "permissions-policy"):
        assert (key in headers) is not api, key  # type: ignore[operator]


def test_an_unhandled_error_is_a_coded_500_with_the_headers(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        r = client.get("/boom")
    assert r.status_code == 500
    assert r.json() == {
        "error": {"code": "internal_error", "message": "something went wrong on the server"}
    }
    assert_headers(r.headers)
    tracebacks = [rec for rec in caplog.records if rec.exc_info]
    assert len(tracebacks) == 1, [rec.getMessage() for rec in caplog.records]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/no/such/route", None, 404),
        ("DELETE", "/healthz", None, 405),
        ("POST", "/api/rooms", b"{", 422),
        ("POST", "/api/rooms", b"x" * (65 * 1024), 413),
    ],
)
def test_every_error_answer_has_the_headers(
    client: TestClient, method: str, path: str, body: bytes | None, status: int
) -> None:
    r = client.request(method, path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert "code" in r.json()["error"]
    assert_headers(r.headers, path)
