"""docker-compose.yml, the Dockerfile and deploy/nginx.conf, checked as text: no container
engine runs here (`docker compose` is not installed), so this checks that every service,
health check, volume, network and the nginx upstream agree with each other and with the
documented ports and variables. tests/ops/test_forwarded.py runs a real server with the
compose's proxy settings."""

import ipaddress
import re
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


def test_dockerfile_installs_the_wheel_and_copies_nothing_else() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    stages = re.split(r"^FROM ", dockerfile, flags=re.M)[1:]
    assert len(stages) == 2
    build, final = stages
    assert build.startswith("python:3.11-slim AS wheel")
    assert "pip wheel" in build and "--no-deps" in build
    assert final.startswith("python:3.11-slim")
    copies = re.findall(r"^COPY (.*)$", final, flags=re.M)
    assert copies == ["--from=wheel /wheels /wheels"]
    # The wheel with the PostgreSQL driver (compose runs it on PostgreSQL).
    assert 'set -- /wheels/*.whl && pip install "$1[postgres]"' in final
    assert '"karanor", "serve", "--host", "0.0.0.0", "--port", "8000"' in final
    assert "KARANOR_DATA_DIR=/data" in final and 'VOLUME ["/data"]' in final
    assert "USER karanor" in final
    # What the build stage copies is what the wheel maps in (pyproject's force-include).
    pyproject = (REPO_ROOT / "pyproject.toml").read_text()
    for folder in ("migrations", "static", "templates"):
        assert f"COPY {folder} ./{folder}" in build
        assert f'"{folder}" = "app/{folder}"' in pyproject
    ignored = (REPO_ROOT / ".dockerignore").read_text().split()
    for needed in ("app", "migrations", "static", "templates", "pyproject.toml", "README.md"):
        assert needed not in ignored


def test_compose_health_checks_use_the_documented_routes() -> None:
    services = _compose()["services"]
    app_check = " ".join(services["app"]["healthcheck"]["test"])
    port = services["app"]["environment"]["PORT"]
    assert f"http://127.0.0.1:{port}/readyz" in app_check
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["redis"]["healthcheck"]["test"][-1] == "ping"
    # The documented address: http://localhost:8000/ through the balancer.
    assert services["balancer"]["ports"] == ["${KARANOR_PORT:-8000}:80"]
    readme = (REPO_ROOT / "README.md").read_text()
    assert "http://localhost:8000/" in readme


def test_compose_trusts_exactly_the_balancer_for_client_addresses() -> None:
    compose = _compose()
    services = compose["services"]
    env = services["app"]["environment"]
    assert env["KARANOR_TRUST_PROXY"] == "true"
    subnet = ipaddress.ip_network(compose["networks"]["karanor"]["ipam"]["config"][0]["subnet"])
    balancer_ip = services["balancer"]["networks"]["karanor"]["ipv4_address"]
    assert ipaddress.ip_address(balancer_ip) in subnet
    # One address, the balancer's: not "*", not a network.
    assert env["FORWARDED_ALLOW_IPS"] == balancer_ip
    for name, service in services.items():
        networks = service["networks"]
        assert "karanor" in networks, name
    # nginx replaces the header with the address it sees (never appends a client's).
    tree = _nginx((REPO_ROOT / "deploy" / "nginx.conf").read_text())
    site = _one(_one(tree, "http")[2], "server")[2]
    root = _one(site, "location", "/")[2]
    headers = {d[1][0].lower(): d[1][1] for d in _find(root, "proxy_set_header")}
    assert headers["x-forwarded-for"] == "$remote_addr"


# --- scale-out: N app replicas behind the balancer ---------------------------------------


def _nginx(text: str) -> list[Any]:
    """nginx.conf as a tree: [name, [args...], children | None] per directive."""
    tokens = re.findall(r"#[^\n]*|'[^']*'|\"[^\"]*\"|[{};]|[^\s{};'\"#]+", text)
    tokens = [t for t in tokens if not t.startswith("#")]
    position = 0

    def block() -> list[Any]:
        nonlocal position
        out: list[Any] = []
        words: list[str] = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == ";":
                out.append([words[0], words[1:], None])
                words = []
            elif token == "{":
                children = block()
                out.append([words[0], words[1:], children])
                words = []
            elif token == "}":
                assert not words, f"unterminated directive {words}"
                return out
            else:
                words.append(token.strip("'\""))
        assert not words, f"unterminated directive {words}"
        return out

    tree = block()
    assert position == len(tokens), "unbalanced braces"
    return tree


def _find(tree: list[Any], name: str, *args: str) -> list[Any]:
    return [d for d in tree if d[0] == name and list(d[1][: len(args)]) == list(args)]


def _one(tree: list[Any], name: str, *args: str) -> Any:
    found = _find(tree, name, *args)
    assert len(found) == 1, (name, args, found)
    return found[0]


def test_compose_scales_the_app_behind_a_balancer() -> None:
    services = _compose()["services"]
    app, balancer = services["app"], services["balancer"]
    # Scale-able: no fixed host port, no fixed container name; the balancer publishes.
    assert "ports" not in app and "container_name" not in app
    assert "8000" in [str(p) for p in app.get("expose", [])]
    assert any(str(p).endswith(":80") for p in balancer["ports"])
    assert balancer["healthcheck"]["test"]
    assert balancer["depends_on"]["app"]["condition"] == "service_healthy"
    mounts = {v.split(":")[0]: v.split(":")[1] for v in balancer["volumes"]}
    assert mounts["./deploy/nginx.conf"] == "/etc/nginx/nginx.conf"
    assert balancer["image"].startswith("nginx:")
    version = balancer["image"].split(":")[1].split("-")[0].split(".")
    assert tuple(int(x) for x in version) >= (1, 27)  # `resolve` on upstream servers


def test_compose_migrates_once_before_the_app_starts() -> None:
    services = _compose()["services"]
    migrate, app = services["migrate"], services["app"]
    assert migrate["command"] == ["karanor", "db", "upgrade"]
    assert migrate["restart"] == "no"
    assert migrate["environment"]["DATABASE_URL"] == app["environment"]["DATABASE_URL"]
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert app["image"] == migrate["image"]


def test_balancer_config_proxies_websockets_to_every_replica() -> None:
    tree = _nginx((REPO_ROOT / "deploy" / "nginx.conf").read_text())
    http = _one(tree, "http")[2]
    # Docker's DNS, re-read: replicas added by --scale are found.
    assert _one(http, "resolver")[1][0] == "127.0.0.11"
    # The upgrade map: "upgrade" when the client asks for it.
    mapping = _one(http, "map", "$http_upgrade", "$connection_upgrade")[2]
    entries = {d[0]: d[1] for d in mapping}
    assert entries["default"] == ["upgrade"]
    # One upstream: the app service at its port, no sticky balancing.
    upstream = _one(http, "upstream")
    name, servers = upstream[1][0], upstream[2]
    port = _compose()["services"]["app"]["environment"]["PORT"]
    server = _one(servers, "server")
    assert server[1][0] == f"app:{port}"
    assert "resolve" in server[1]
    for sticky in ("ip_hash", "hash", "sticky", "sticky_cookie_insert"):
        assert not _find(servers, sticky), sticky
    # The site: everything proxied to it, WebSocket upgrade headers passed.
    site = _one(http, "server")[2]
    assert _one(site, "listen")[1][0] == "80"
    root = _one(site, "location", "/")[2]
    assert _one(root, "proxy_pass")[1] == [f"http://{name}"]
    assert _one(root, "proxy_http_version")[1] == ["1.1"]
    headers = {d[1][0].lower(): d[1][1] for d in _find(root, "proxy_set_header")}
    assert headers["upgrade"] == "$http_upgrade"
    assert headers["connection"] == "$connection_upgrade"
    assert headers["host"] == "$http_host"  # with the port: the app checks Origin against it
    assert "x-forwarded-for" in headers
    timeout = _one(root, "proxy_read_timeout")[1][0]
    assert timeout.endswith("h") or int(timeout.rstrip("s")) >= 600
    # The balancer's own health check answers.
    health = _compose()["services"]["balancer"]["healthcheck"]["test"][-1]
    path = "/" + health.split("://", 1)[1].split("/", 1)[1]
    assert _find(site, "location", "=", path)


def test_deploy_doc_covers_both_setups() -> None:
    doc = (REPO_ROOT / "docs" / "deploy.md").read_text()
    for needed in (
        "./scripts/serve",
        "karanor backup",
        "karanor restore",
        "karanor export",
        "--scale app=",
        "pg_dump",
        "REDIS_URL",
        "karanor db upgrade",
        "[Service]",
        "reverse_proxy",
        "crontab",
        "/readyz",
        "/metrics",
        "KARANOR_LOG_FORMAT=json",
    ):
        assert needed in doc, needed
