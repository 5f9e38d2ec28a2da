"""Commands for one game raced through two processes: the database serialises them."""

import random
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.rooms.replay import replay_room
from app.store.db import create_db_engine
from tests.helpers.client import bearer, make_room, my_move, new_id
from tests.helpers.policy import choose
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def _race(
    clients: list[httpx.Client], path: str, bodies: list[dict[str, Any]], token: str
) -> list[Any]:
    """POST bodies[i] through clients[i], all released at the same instant."""
    barrier = threading.Barrier(len(clients))
    answers: list[Any] = [None] * len(clients)

    def send(i: int) -> None:
        barrier.wait()
        answers[i] = clients[i].post(path, json=bodies[i], headers=bearer(token))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


def _to_act(http: httpx.Client, code: str, tokens: list[str | None]) -> tuple[str, dict[str, Any]]:
    for token in tokens:
        assert token is not None
        view = http.get(f"/api/rooms/{code}/view", headers=bearer(token)).json()
        if my_move(view):
            return token, view
    raise AssertionError("nobody may act")


def test_racing_commands_one_wins_and_the_log_stays_whole(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    a, b = start_servers(2)
    room = make_room(a.url, humans=2, options={"end_prestige": 20})
    rng = random.Random(11)
    path = f"/api/rooms/{room.code}/commands"
    with (
        httpx.Client(base_url=a.url, timeout=30) as http_a,
        httpx.Client(base_url=b.url, timeout=30) as http_b,
    ):
        clients = [http_a, http_b]
        # With expected_version: exactly one of the two wins, the other is stale.
        for round_ in range(40):
            token, view = _to_act(clients[round_ % 2], room.code, room.tokens)
            bodies = [
                {"id": new_id(), "command": choose(view, rng), "expected_version": view["version"]}
                for _ in clients
            ]
            answers = _race(clients, path, bodies, token)
            statuses = sorted(r.status_code for r in answers)
            assert statuses == [200, 409], [r.text for r in answers]
            won = next(r for r in answers if r.status_code == 200)
            lost = next(r for r in answers if r.status_code == 409)
            assert won.json()["version"] == view["version"] + 1
            assert lost.json()["error"]["code"] == "stale_version"

        # Without it: the later one is validated again on the new state (it may pass).
        for _ in range(20):
            token, view = _to_act(http_a, room.code, room.tokens)
            bodies = [{"id": new_id(), "command": choose(view, rng)} for _ in clients]
            answers = _race(clients, path, bodies, token)
            assert all(r.status_code in (200, 400, 409) for r in answers), [r.text for r in answers]
            versions = [r.json()["version"] for r in answers if r.status_code == 200]
            assert versions and len(set(versions)) == len(versions)
            assert min(versions) == view["version"] + 1

        # The same command id raced through both (a client retrying through another
        # process): one outcome, logged once, the same answer to both.
        for _ in range(10):
            token, view = _to_act(http_a, room.code, room.tokens)
            same = {"id": new_id(), "command": choose(view, rng)}
            answers = _race(clients, path, [same, same], token)
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            assert {r.json()["version"] for r in answers} == {view["version"] + 1}
            assert sorted(r.json()["duplicate"] for r in answers) == [False, True]

    rows = assert_log_complete(postgres_url, room.code)
    assert len(rows) >= 70
    # Replaying the log gives the stored snapshot: no command was applied twice or lost.
    engine = create_db_engine(postgres_url)
    try:
        state, snapshot = replay_room(engine, room.code)
    finally:
        engine.dispose()
    assert state == snapshot
