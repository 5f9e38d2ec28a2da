"""The app starts on each database and /healthz checks the database."""

from fastapi.testclient import TestClient

from app import __version__
from app.config import Settings
from app.main import create_app


def test_healthz_answers_ok(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url))
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_healthz_reports_unreachable_database(tmp_path) -> None:
    # A folder where the SQLite file should be: the database cannot be opened.
    (tmp_path / "karanor.db").mkdir()
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'karanor.db'}"))
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


def test_openapi_docs_are_served(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url))
    with TestClient(app) as client:
        assert client.get("/docs").status_code == 200
        schema = client.get("/openapi.json").json()
    assert schema["info"] == {"title": "Karanor Online", "version": __version__}
    assert "/healthz" in schema["paths"]
