"""docker-compose.yml and the Dockerfile, checked as text (no Docker engine runs here)."""

from typing import Any

import yaml

from tests.helpers.server import REPO_ROOT


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_has_app_postgres_redis_with_health_checks() -> None:
    services = _compose()["services"]
    assert {"app", "postgres", "redis"} <= set(services)
    for name in ("app", "postgres", "redis"):
        assert services[name]["healthcheck"]["test"], name
    depends = services["app"]["depends_on"]
    for name in ("postgres", "redis"):
        assert depends[name]["condition"] == "service_healthy"


def test_compose_wires_database_and_redis() -> None:
    compose = _compose()
    services = compose["services"]
    env = services["app"]["environment"]
    pg_env = services["postgres"]["environment"]
    expected_db = (
        f"postgresql://{pg_env['POSTGRES_USER']}:{pg_env['POSTGRES_PASSWORD']}"
        f"@postgres:5432/{pg_env['POSTGRES_DB']}"
    )
    assert env["DATABASE_URL"] == expected_db
    assert env["REDIS_URL"].startswith("redis://redis:6379")
    assert env["HOST"] == "0.0.0.0"


def test_compose_keeps_data_in_named_volumes() -> None:
    compose = _compose()
    volumes = compose["volumes"]
    app = compose["services"]["app"]
    data_dir = app["environment"]["KARANOR_DATA_DIR"]
    assert any(v.split(":")[0] in volumes and v.split(":")[1] == data_dir for v in app["volumes"])
    pg_volumes = compose["services"]["postgres"]["volumes"]
    assert any(v.split(":")[0] in volumes for v in pg_volumes)


def test_dockerfile_serves_on_all_interfaces() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("FROM python:3.11-slim")
    assert "pip install ." in dockerfile
    assert '"karanor", "serve", "--host", "0.0.0.0"' in dockerfile
    for needed in ("alembic.ini", "migrations", "templates", "static"):
        assert f"COPY {needed}" in dockerfile
