"""What `karanor serve` sets up around the app: the addresses it prints for friends, the
open-file limit, limits against slow clients (slowloris), JSON logs."""

import json
import socket
import time
from collections.abc import Callable

import pytest

from app import netinfo, server
from app.config import Settings
from tests.helpers.server import ServerProcess

# --- LAN addresses ----------------------------------------------------------------------


def test_lan_addresses_are_real_interface_addresses_without_loopback() -> None:
    addresses = netinfo.lan_addresses("any")
    for address in addresses:
        assert netinfo.usable(address)
        # Each is an address of this machine: a socket can bind it.
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.bind((address, 0))
    assert all(":" not in a for a in netinfo.lan_addresses("ipv4"))


@pytest.mark.parametrize(
    ("address", "usable"),
    [
        ("127.0.0.1", False),
        ("127.1.2.3", False),
        ("::1", False),
        ("169.254.3.4", False),
        ("fe80::1%eth0", False),
        ("0.0.0.0", False),
        ("192.168.1.20", True),
        ("10.0.0.7", True),
        ("2001:db8::5", True),
        ("not-an-address", False),
    ],
)
def test_usable_addresses(address: str, usable: bool) -> None:
    assert netinfo.usable(address) is usable


def test_banner_lists_lan_addresses_on_all_interfaces(monkeypatch) -> None:
    monkeypatch.setattr(netinfo, "lan_addresses", lambda family: ["192.168.1.20", "10.0.0.7"])
    settings = Settings(host="0.0.0.0", port=9000, database_url="sqlite:////srv/k.db")
    lines = server.banner(settings, (1024, 65536))
    assert lines[:4] == [
        lines[0],
        "Friends on your network can open:",
        "  http://192.168.1.20:9000/",
        "  http://10.0.0.7:9000/",
    ]
    assert "Database: /srv/k.db (SQLite, synchronous=FULL)" in lines
    assert "Open-file limit raised from 1024 to 65536" in lines
    local = server.banner(Settings(host="127.0.0.1", port=9000), None)
    assert not any("Friends" in line for line in local)
    assert "Open-file limit unchanged (could not raise it)" in local


def test_banner_hides_the_database_password() -> None:
    settings = Settings(database_url="postgresql://k:secret@db/k")
    assert "Database: postgresql+psycopg://k:***@db/k" in server.banner(settings, None)


@pytest.mark.slow
def test_serve_on_all_interfaces_prints_the_lan_addresses(
    server_factory: Callable[..., ServerProcess],
) -> None:
    started = server_factory(host="0.0.0.0").start()
    log = started.log_text()
    expected = netinfo.lan_addresses("ipv4")
    if expected:
        assert "Friends on your network can open:" in log
        for address in expected:
            assert f"  http://{address}:{started.port}/" in log
    else:
        assert "No network address found besides loopback" in log
    assert "127.0.0.1" not in log.split("Friends", 1)[-1].split("Database", 1)[0]


# --- the open-file limit --------------------------------------------------------------------


def test_raise_fd_limit_reaches_the_hard_limit() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if soft == hard and hard != resource.RLIM_INFINITY and hard > 256:
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # something to raise
        before = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        result = server.raise_fd_limit()
        after = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert result == (before, after)
        if hard != resource.RLIM_INFINITY:
            assert after == hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.slow
def test_serve_says_what_it_did_with_the_open_file_limit(
    server_factory: Callable[..., ServerProcess],
) -> None:
    log = server_factory().start().log_text()
    assert "Open-file limit" in log


# --- slow clients -----------------------------------------------------------------------------


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closes `sock` (reads until EOF); fails past `seconds`."""
    start = time.monotonic()
    sock.settimeout(seconds)
    while True:
        try:
            data = sock.recv(4096)
        except TimeoutError:
            pytest.fail(f"connection still open after {seconds} s")
        except ConnectionResetError:
            data = b""
        if not data:
            return time.monotonic() - start


@pytest.fixture
def strict_server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    env = {"KARANOR_HEADER_TIMEOUT": "1", "KARANOR_MAX_HEADER_BYTES": "4096"}
    return server_factory(env=env).start()


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed(strict_server: ServerProcess) -> None:
    with _connect(strict_server.port) as sock:
        assert _closed_within(sock, 5) >= 0.5


@pytest.mark.slow
def test_partial_headers_sent_slowly_are_cut_off(strict_server: ServerProcess) -> None:
    with _connect(strict_server.port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        for i in range(3):  # a header line now and then, never the blank line
            time.sleep(0.2)
            sock.sendall(f"X-Slow-{i}: 1\r\n".encode())
        assert _closed_within(sock, 5) + (time.monotonic() - start) < 5


@pytest.mark.slow
def test_a_request_after_keep_alive_must_also_come_quickly(strict_server: ServerProcess) -> None:
    with _connect(strict_server.port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b"200 OK" in sock.recv(4096)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never finishes
        _closed_within(sock, 5)


@pytest.mark.slow
def test_oversized_headers_are_refused(strict_server: ServerProcess) -> None:
    with _connect(strict_server.port) as sock:
        big = b"X-Big: " + b"a" * 8000 + b"\r\n"
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + big + b"X-After: 1\r\n")
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400")
        _closed_within(sock, 5)


@pytest.mark.slow
def test_normal_requests_and_websockets_are_unaffected(strict_server: ServerProcess) -> None:
    import httpx
    import websockets.sync.client

    with httpx.Client(base_url=strict_server.url) as http:
        for _ in range(3):
            time.sleep(0.4)  # idle between requests, under the keep-alive timeout
            health = http.get("/healthz")
            assert health.status_code == 200
            # No software banner on the answers (and fewer bytes on a page's requests).
            assert "server" not in health.headers
        code = http.post("/api/rooms", json={"name": "Host", "options": {}}).json()["code"]
    with websockets.sync.client.connect(f"{strict_server.ws_url}/ws/rooms/{code}") as ws:
        time.sleep(1.5)  # past the header timeout: an open socket stays open
        first = json.loads(ws.recv(timeout=5))
        assert first["type"]


def test_uvicorn_gets_the_limits_and_the_proxy_settings() -> None:
    settings = Settings(
        trust_proxy=True, forwarded_allow_ips="10.0.0.2", max_connections=300, log_format="json"
    )
    options = server.uvicorn_options(settings)
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == "10.0.0.2"
    assert options["limit_concurrency"] == 300
    assert options["timeout_keep_alive"] == 5
    assert options["h11_max_incomplete_event_size"] == 16 * 1024
    assert options["http"].__name__ == "HeaderTimeoutProtocol"
    formatters = options["log_config"]["formatters"]
    assert all(f == {"()": "app.web.logs.JsonFormatter"} for f in formatters.values())
    defaults = server.uvicorn_options(Settings())
    assert defaults["proxy_headers"] is False
    resource = pytest.importorskip("resource")
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert defaults["limit_concurrency"] == soft - server.FD_RESERVE


@pytest.mark.slow
def test_connections_past_the_limit_get_503(server_factory: Callable[..., ServerProcess]) -> None:
    started = server_factory(env={"KARANOR_MAX_CONNECTIONS": "3"}).start()
    held = [_connect(started.port) for _ in range(3)]
    try:
        with _connect(started.port) as extra:
            extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert extra.recv(4096).startswith(b"HTTP/1.1 503")
    finally:
        for sock in held:
            sock.close()


# --- JSON logs ----------------------------------------------------------------------------


@pytest.mark.slow
def test_json_logs_are_one_object_per_line(server_factory: Callable[..., ServerProcess]) -> None:
    import httpx

    started = server_factory(env={"KARANOR_LOG_FORMAT": "json"}).start()
    httpx.get(started.url + "/healthz?token=secret-token-value")
    started.stop()
    lines = [line for line in started.log_text().splitlines() if line and line[:3] != "==="]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert records[0]["urls"][0] == f"http://127.0.0.1:{started.port}/"
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any(r["path"].startswith("/healthz") and r["status"] == 200 for r in access)
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert "secret-token-value" not in started.log_text()
