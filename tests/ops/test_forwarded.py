"""The compose setup's proxy settings, on a real `karanor serve`, against forged
X-Forwarded-For headers (issue 20: per-address limits bypassed).

The server runs with docker-compose.yml's `KARANOR_TRUST_PROXY` and `FORWARDED_ALLOW_IPS`,
the balancer's address mapped to 127.0.0.1 (this test plays the balancer from there);
clients that are not the balancer connect from 127.0.0.2. Each address may create two rooms
(`KARANOR_ROOMS_PER_HOUR=2`); the third is refused whatever header it carries.
"""

import ipaddress
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import yaml

from tests.helpers.server import REPO_ROOT, ServerProcess

BALANCER = "127.0.0.1"
CLIENT = "127.0.0.2"  # on Linux every 127/8 address is the loopback interface


def _compose_proxy_env() -> dict[str, str]:
    compose: dict[str, Any] = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    env = services["app"]["environment"]
    balancer_ip = services["balancer"]["networks"]["karanor"]["ipv4_address"]
    trusted = env["FORWARDED_ALLOW_IPS"]
    # Map the balancer's compose address to ours; anything else ("*", a network) stays as
    # written, so a compose that trusts more than the balancer fails below.
    mapped = ",".join(
        BALANCER if part.strip() == balancer_ip else part.strip() for part in trusted.split(",")
    )
    return {"KARANOR_TRUST_PROXY": env["KARANOR_TRUST_PROXY"], "FORWARDED_ALLOW_IPS": mapped}


def _nginx_forwarded_for(client_sent: str | None, remote_addr: str) -> str:
    """The X-Forwarded-For deploy/nginx.conf passes on, for a client at `remote_addr` that
    sent `client_sent` (read from the configuration, so changing it changes this test)."""
    text = (REPO_ROOT / "deploy" / "nginx.conf").read_text()
    for line in text.splitlines():
        words = line.strip().rstrip(";").split()
        if words[:2] == ["proxy_set_header", "X-Forwarded-For"]:
            value = words[2]
            if value == "$remote_addr":
                return remote_addr
            if value == "$proxy_add_x_forwarded_for":
                return f"{client_sent}, {remote_addr}" if client_sent else remote_addr
            raise AssertionError(f"unexpected X-Forwarded-For value {value}")
    raise AssertionError("nginx.conf sets no X-Forwarded-For")


def _create_room(client: httpx.Client, base: str, forwarded_for: str | None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    response = client.post(
        base + "/api/rooms", json={"name": "Host", "options": {}}, headers=headers
    )
    return response.status_code


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    env = {**_compose_proxy_env(), "KARANOR_ROOMS_PER_HOUR": "2"}
    started = server_factory(env=env)
    started.start()
    return started


@pytest.mark.slow
def test_forged_headers_from_a_client_get_no_fresh_address(server: ServerProcess) -> None:
    base = f"http://127.0.0.1:{server.port}"
    transport = httpx.HTTPTransport(local_address=CLIENT)
    with httpx.Client(transport=transport, timeout=10) as client:
        statuses = [_create_room(client, base, f"10.0.0.{n}, {BALANCER}") for n in range(1, 5)]
    assert statuses == [201, 201, 429, 429]


@pytest.mark.slow
def test_through_the_balancer_each_client_has_its_own_quota(server: ServerProcess) -> None:
    assert ipaddress.ip_address(BALANCER).is_loopback
    base = f"http://127.0.0.1:{server.port}"
    transport = httpx.HTTPTransport(local_address=BALANCER)
    with httpx.Client(transport=transport, timeout=10) as balancer:
        # One client behind nginx, forging a new address with every request.
        forged = [
            _create_room(balancer, base, _nginx_forwarded_for(f"10.0.0.{n}", "203.0.113.7"))
            for n in range(1, 5)
        ]
        # Another client behind nginx still has its own two rooms.
        other = [
            _create_room(balancer, base, _nginx_forwarded_for(None, "203.0.113.8"))
            for _ in range(3)
        ]
    assert forged == [201, 201, 429, 429]
    assert other == [201, 201, 429]
