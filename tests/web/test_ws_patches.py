"""Views as patches (issue 31, docs/api.md "Patches"): a socket that connects with
`?patches=1` gets a whole view first, then each version as the change since the one
before; applied in order, they give exactly the views a socket without the flag gets,
for every seat and a spectator, over a seeded game of each game; a resync answers whole."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
import websockets

from app.rooms.patches import apply, diff, same
from tests.conftest import FAST_ENV
from tests.helpers.client import bearer, new_id
from tests.helpers.server import ServerProcess

COMMANDS = 24  # a seeded game's first commands (the draft, moves, turns) per game


def test_diff_and_apply_are_json_exact() -> None:
    old = {"a": 1, "b": [1, 2], "c": {"x/y": True, "t~": 1}, "d": [1, 2, 3], "gone": None}
    new = {"a": 1.0, "b": [1, 2, 3], "c": {"x/y": 1, "t~": 1}, "d": [3], "e": {"f": []}}
    patch = diff(old, new)
    out = apply(orjson.loads(orjson.dumps(old)), patch)
    assert same(out, new) and orjson.dumps(out) == orjson.dumps(new)
    assert diff(new, new) == []
    assert apply({"a": 1}, [{"op": "replace", "path": "", "value": [1]}]) == [1]


class Watch:
    """One socket's messages: whole views by version, or (patches) reconstructed ones."""

    def __init__(self, ws: Any, patches: bool) -> None:
        self.ws = ws
        self.patches = patches
        self.views: dict[int, Any] = {}
        self.events: dict[int, Any] = {}
        self.kinds: list[str] = []
        self.sizes: dict[str, list[int]] = {"view": [], "patch": []}
        self.current: Any = None

    async def until(self, version: int) -> None:
        while version not in self.views:
            raw = await asyncio.wait_for(self.ws.recv(), 15)
            message = orjson.loads(raw)
            kind = message["type"]
            if kind not in ("view", "patch"):
                continue
            self.kinds.append(kind)
            self.sizes[kind].append(len(raw))
            if kind == "view":
                self.current = message["view"]
            else:
                assert self.patches, "a patch to a socket that did not ask"
                assert message["from"] == self.current["version"]
                self.current = apply(orjson.loads(orjson.dumps(self.current)), message["patch"])
            version = message["version"]
            if version in self.views:  # a resync's answer: the same view, no events
                assert same(self.current, self.views[version])
            self.views[version] = orjson.loads(orjson.dumps(self.current))
            self.events.setdefault(version, message["events"])


def open_room(base: str, game: str) -> tuple[str, list[str]]:
    with httpx.Client(base_url=base, timeout=15) as http:
        r = http.post("/api/rooms", json={"name": "Host", "game": game})
        assert r.status_code == 201, r.text
        code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
        r = http.post(f"/api/rooms/{code}/seats", json={"name": "Guest"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["seat"]["token"])
        r = http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
    return code, tokens


@pytest.mark.parametrize("game", ["karanor", "darkroad"])
def test_patched_views_are_the_whole_views(
    server_factory: Callable[..., ServerProcess], game: str
) -> None:
    server = server_factory(env=FAST_ENV).start()
    code, tokens = open_room(server.url, game)
    rng = random.Random(31)

    async def scenario() -> None:
        url = f"{server.ws_url}/ws/rooms/{code}"
        viewers: list[str | None] = [*tokens, None]
        async with httpx.AsyncClient(base_url=server.url, timeout=15) as http:
            sockets = []
            for token in viewers:
                for patches in (False, True):
                    query = [f"token={token}"] if token else []
                    if patches:
                        query.append("patches=1")
                    where = url + ("?" + "&".join(query) if query else "")
                    sockets.append(Watch(await websockets.connect(where), patches))
            try:
                version = 0
                for watch in sockets:
                    await watch.until(version)
                for step in range(COMMANDS):
                    views = [
                        (await http.get(f"/api/rooms/{code}/view", headers=bearer(t))).json()
                        for t in tokens
                    ]
                    if views[0]["status"] != "playing":
                        break
                    seat = next(i for i, v in enumerate(views) if v["seat"] in v["to_act"])
                    command = rng.choice(views[seat]["legal_actions"])
                    r = await http.post(
                        f"/api/rooms/{code}/commands",
                        json={"id": new_id(), "command": command},
                        headers=bearer(tokens[seat]),
                    )
                    assert r.status_code == 200, r.text
                    version = r.json()["version"]
                    if step == COMMANDS // 2:
                        # A resync is answered whole; patches go on after it.
                        await sockets[1].ws.send('{"type": "resync"}')
                    for watch in sockets:
                        await watch.until(version)
            finally:
                for watch in sockets:
                    await watch.ws.close()
        for whole, patched in zip(sockets[::2], sockets[1::2], strict=True):
            assert set(patched.views) <= set(whole.views) | {0}
            for v, view in patched.views.items():
                if v in whole.views:
                    assert same(view, whole.views[v]), (game, v)
                    assert patched.events[v] == whole.events[v], (game, v)
            assert whole.kinds.count("patch") == 0
            # The first view is whole, then (once the version before was built) patches.
            assert patched.kinds[0] == "view" and patched.kinds.count("patch") >= COMMANDS // 2
        sizes = [n for w in sockets for n in w.sizes["patch"]]
        wholes = [n for w in sockets for n in w.sizes["view"]]
        assert sorted(sizes)[len(sizes) // 2] < sorted(wholes)[len(wholes) // 2]

    asyncio.run(scenario())
