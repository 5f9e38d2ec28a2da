"""`GET /metrics` of a real server follows what happens to it: rooms, commands (accepted,
with their latency, and refused, by code), sockets.

The figures are read from the Prometheus text the server answers, parsed by the
Prometheus client's own parser; each step compares them with the step before.
"""

import random
import time
from collections.abc import Callable

import httpx
import orjson
import websockets.sync.client
from prometheus_client.parser import text_string_to_metric_families

from tests.helpers.client import bearer, make_room, new_id, play_http_step, ws_url
from tests.helpers.server import ServerProcess

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(http: httpx.Client) -> Samples:
    """Every sample of the server's /metrics, by name and labels."""
    response = http.get("/metrics")
    assert response.status_code == 200, response.text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


def errors_by_code(samples: Samples) -> dict[str, float]:
    return {
        dict(labels)["code"]: count
        for (name, labels), count in samples.items()
        if name == "karanor_errors_total"
    }


def wait_for_sockets(http: httpx.Client, expected: float, timeout: float = 10.0) -> Samples:
    """Scrape until `karanor_sockets` reads `expected` (a closed socket is counted down
    when the server has seen the close, after the client's close returned)."""
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(http)
        if value(samples, "karanor_sockets") == expected:
            return samples
        if time.monotonic() > deadline:
            raise AssertionError(
                f"karanor_sockets is {value(samples, 'karanor_sockets')}, not {expected}"
            )
        time.sleep(0.05)


def test_metrics_count_rooms_commands_refusals_and_sockets(
    server_factory: Callable[..., ServerProcess], sqlite_url: str
) -> None:
    server = server_factory(
        env={
            "DATABASE_URL": sqlite_url,
            "KARANOR_LOG_LEVEL": "warning",
            "KARANOR_ROOMS_PER_HOUR": "0",
        }
    ).start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        # A fresh process: nothing yet.
        fresh = scrape(http)
        assert value(fresh, "karanor_rooms_live") == 0
        assert value(fresh, "karanor_sockets") == 0
        assert value(fresh, "karanor_commands_total", game="karanor") is None
        assert errors_by_code(fresh) == {}

        # A room made and started through the API is held in memory.
        room = make_room(server.url, humans=2)
        assert value(scrape(http), "karanor_rooms_live") == 1

        # One accepted command: counted once, its latency observed once.
        step = play_http_step(http, room, random.Random(1))
        assert step is not None and step["version"] == 1
        accepted = scrape(http)
        assert value(accepted, "karanor_commands_total", game="karanor") == 1
        assert value(accepted, "karanor_command_seconds_count", game="karanor") == 1
        assert value(accepted, "karanor_command_seconds_bucket", game="karanor", le="+Inf") == 1
        seconds = value(accepted, "karanor_command_seconds_sum", game="karanor")
        assert seconds is not None and 0 < seconds < 15
        assert errors_by_code(accepted) == {}

        # One command the rules refuse (no work during the draft): counted by its code,
        # not as an accepted command, no latency observed.
        refused = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": new_id(), "command": {"type": "work"}},
            headers=bearer(room.tokens[0] or ""),
        )
        assert refused.status_code == 400, refused.text
        code = refused.json()["error"]["code"]
        assert code == "wrong_phase"
        after_refusal = scrape(http)
        assert errors_by_code(after_refusal) == {code: 1}
        assert value(after_refusal, "karanor_commands_total", game="karanor") == 1
        assert value(after_refusal, "karanor_command_seconds_count", game="karanor") == 1

        # As documented, only the command path's refusals are counted: a command with a
        # token no seat has (401 bad_token) is not.
        unknown = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": new_id(), "command": {"type": "work"}},
            headers=bearer("no-such-token"),
        )
        assert unknown.status_code == 401, unknown.text
        assert errors_by_code(scrape(http)) == {code: 1}

        # One WebSocket: counted while open; a command it sends that is refused counts
        # like one over HTTP.
        with websockets.sync.client.connect(ws_url(server, room, room.tokens[1])) as ws:
            first = orjson.loads(ws.recv(timeout=10))
            assert first["type"] == "view" and first["version"] == 1
            opened = scrape(http)
            assert value(opened, "karanor_sockets") == 1
            assert value(opened, "karanor_rooms_live") == 1

            ws.send(orjson.dumps({"type": "command", "id": "w1", "command": {"type": "work"}}))
            while (message := orjson.loads(ws.recv(timeout=10)))["type"] != "error":
                pass
            assert (message["id"], message["code"]) == ("w1", code)
            assert errors_by_code(scrape(http)) == {code: 2}

        closed = wait_for_sockets(http, 0)
        assert value(closed, "karanor_rooms_live") == 1
        assert value(closed, "karanor_commands_total", game="karanor") == 1
        assert errors_by_code(closed) == {code: 2}
