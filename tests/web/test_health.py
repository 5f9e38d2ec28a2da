"""Operations routes: /healthz (liveness), /readyz (database and schema), /api/server,
/metrics; and the OpenAPI documents."""

import re

from fastapi.testclient import TestClient

from app import __version__, metrics
from app.config import Settings
from app.main import create_app
from app.store import migrate


def test_healthz_answers_ok(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url))
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_checks_the_database_and_the_schema(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url))
    with TestClient(app) as client:
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "schema": migrate.head_revision(),
    }


def test_readyz_reports_an_unreachable_database_while_healthz_stays_up(tmp_path) -> None:
    # A folder where the SQLite file should be: the database cannot be opened.
    (tmp_path / "karanor.db").mkdir()
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'karanor.db'}"))
    with TestClient(app) as client:
        ready = client.get("/readyz")
        live = client.get("/healthz")
    assert ready.status_code == 503
    assert ready.json() == {"status": "error", "database": "unreachable"}
    assert live.status_code == 200


def test_readyz_reports_a_schema_behind(database_url: str) -> None:
    # Reachable but never migrated (an upgrade not run yet).
    app = create_app(Settings(database_url=database_url, cleanup_interval_seconds=0))
    with TestClient(app) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "ok",
        "schema": None,
        "head": migrate.head_revision(),
    }


def test_api_server_lists_addresses_for_friends(sqlite_url: str, monkeypatch) -> None:
    monkeypatch.setattr("app.netinfo.lan_addresses", lambda family: ["192.168.1.20", "10.0.0.7"])
    on_all = create_app(Settings(database_url=sqlite_url, host="0.0.0.0", port=9000))
    with TestClient(on_all) as client:
        body = client.get("/api/server").json()
    assert body == {
        "version": __version__,
        "addresses": ["192.168.1.20", "10.0.0.7"],
        "urls": ["http://192.168.1.20:9000/", "http://10.0.0.7:9000/"],
    }
    local = create_app(Settings(database_url=sqlite_url, host="127.0.0.1", port=9000))
    with TestClient(local) as client:
        assert client.get("/api/server").json()["addresses"] == []


def test_metrics_are_exposed_in_prometheus_format(sqlite_url: str) -> None:
    metrics.command_done(0.004, game="karanor")
    metrics.error("stale_version")
    metrics.writer_batch(3)
    metrics.room_evicted()
    metrics.socket_opened()
    metrics.socket_closed()
    metrics.rooms_live(2)
    app = create_app(Settings(database_url=sqlite_url))
    with TestClient(app) as client:
        response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    for name in (
        'karanor_commands_total{game="karanor"}',
        'karanor_command_seconds_bucket{game="karanor",le="0.005"}',
        'karanor_errors_total{code="stale_version"}',
        "karanor_writer_batch_size_count",
        "karanor_room_evictions_total",
        "karanor_sockets",
        "karanor_rooms_live 2.0",
    ):
        assert re.search(rf"^{re.escape(name)}", text, re.M), name


def test_openapi_docs_are_served(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url))
    with TestClient(app) as client:
        assert client.get("/docs").status_code == 200
        schema = client.get("/openapi.json").json()
    assert schema["info"] == {"title": "Karanor Online", "version": __version__}
    for path in ("/healthz", "/readyz", "/api/server", "/metrics"):
        assert path in schema["paths"]
