"""Bots in a game served by two processes: each bot move made once, by one process;
the bot lock's holder killed, the other process takes over."""

import random
import time
from collections.abc import Callable

import httpx
import pytest
import redis

from tests.helpers.client import bearer, make_room, my_move, new_id
from tests.helpers.policy import choose
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def test_bots_play_once_across_processes_and_survive_their_holder(
    start_servers: Callable[..., list[ServerProcess]],
    postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> None:
    # A plays its bots slowly, so that it is killed in the middle of their turns.
    (a,) = start_servers(1, KARANOR_BOT_DELAY_SECONDS="0.4")
    (b,) = start_servers(1, KARANOR_BOT_DELAY_SECONDS="0.02")
    room = make_room(a.url, humans=1, bots=2, options={"end_prestige": 3})
    host = room.tokens[0]
    assert host is not None
    rng = random.Random(4)
    lock_key = f"{redis_prefix}:bot:{room.code}"
    store = redis.Redis.from_url(redis_url)
    clients = {s.url: httpx.Client(base_url=s.url, timeout=15) for s in (a, b)}
    path = f"/api/rooms/{room.code}"

    def host_step(server: ServerProcess) -> dict[str, object] | None:
        """One move of the host through `server` when it is the host's turn; the view."""
        http = clients[server.url]
        view = http.get(f"{path}/view", headers=bearer(host)).json()
        if my_move(view):
            r = http.post(
                f"{path}/commands",
                json={"id": new_id(), "command": choose(view, rng)},
                headers=bearer(host),
            )
            assert r.status_code in (200, 400), r.text
            return view
        return view

    try:
        # The host's moves alternate between the two processes; the bots follow.
        moves = 0
        deadline = time.monotonic() + 60
        while moves < 6 and time.monotonic() < deadline:
            view = host_step((a, b)[moves % 2])
            if my_move(view):
                moves += 1
            time.sleep(0.02)
        assert moves == 6

        # Kill A while it holds the bot lock in the middle of the bots' turns: after
        # the lock expires, B plays them. (If the bots happened to be done at the kill,
        # A is restarted and the kill tried again.)
        resumed = None
        for _attempt in range(5):
            if not a.running:
                a.start()
            deadline = time.monotonic() + 30
            while True:
                assert time.monotonic() < deadline, "no bot turn under a lock"
                view = host_step(a)
                assert view["status"] == "playing"
                if not my_move(view) and store.exists(lock_key):
                    break
                time.sleep(0.005)
            a.kill()
            killed_at = time.monotonic()
            view = clients[b.url].get(f"{path}/view", headers=bearer(host)).json()
            if my_move(view):
                continue  # the bots were done before the kill
            while resumed is None:
                assert time.monotonic() - killed_at < 30, "the bots stalled after the kill"
                if clients[b.url].get(path).json()["version"] > view["version"]:
                    resumed = time.monotonic() - killed_at
                time.sleep(0.05)
            break
        assert resumed is not None, "never killed A in the middle of the bots' turns"

        # The game finishes through B.
        deadline = time.monotonic() + 180
        while True:
            assert time.monotonic() < deadline, "the game did not finish"
            view = host_step(b)
            if view["status"] == "finished":
                break
            time.sleep(0.01)
    finally:
        for http in clients.values():
            http.close()
        store.close()

    rows = assert_log_complete(postgres_url, room.code)
    bot_rows = [(v, command_id) for v, seat, command_id in rows if seat in (1, 2)]
    assert len(bot_rows) > 20
    assert all(command_id == f"bot-{v}" for v, command_id in bot_rows)
    print(f"bots resumed {resumed:.2f}s after the lock holder was killed")
