"""Test clients for a real server: httpx for HTTP, the `websockets` package for sockets."""

import asyncio
import random
import uuid
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
import orjson
import websockets

from tests.helpers.policy import choose

SECRET_KEYS = ("business_cards", "quests", "black_market", "draft_hand")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_id() -> str:
    return str(uuid.uuid4())


@dataclass
class Room:
    """A room made through the API: its code and each seat's token (None for bots)."""

    base: str
    code: str
    tokens: list[str | None]

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=15)

    @property
    def host(self) -> dict[str, str]:
        token = self.tokens[0]
        assert token is not None
        return bearer(token)


def make_room(
    base: str,
    *,
    humans: int = 2,
    bots: int = 0,
    options: dict[str, Any] | None = None,
    start: bool = True,
) -> Room:
    with httpx.Client(base_url=base, timeout=15) as http:
        opts = {"max_players": humans + bots, "end_prestige": 3, **(options or {})}
        r = http.post("/api/rooms", json={"name": "Host", "options": opts})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        tokens: list[str | None] = [r.json()["seat"]["token"]]
        for i in range(1, humans):
            r = http.post(f"/api/rooms/{code}/seats", json={"name": f"Player {i}"})
            assert r.status_code == 201, r.text
            assert r.json()["seat"]["index"] == i
            tokens.append(r.json()["seat"]["token"])
        for _ in range(bots):
            r = http.post(f"/api/rooms/{code}/bots", json={}, headers=bearer(tokens[0] or ""))
            assert r.status_code == 201, r.text
            tokens.append(None)
        if start:
            r = http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(tokens[0] or ""))
            assert r.status_code == 200, r.text
            assert r.json()["status"] == "playing"
    return Room(base, code, tokens)


class SeatedRoom:
    """A started room whose seats a test plays through HTTP: `names` take seats in order
    (the first hosts), each seat's calls carry its token. One client for every call, with
    no cookie jar (a client per call builds a TLS context each time)."""

    def __init__(self, base: str, names: Sequence[str], options: dict[str, Any]) -> None:
        self.base = base
        self.http = httpx.Client(
            base_url=base, timeout=10, cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[]))
        )
        weakref.finalize(self, self.http.close)
        r = self.http.post("/api/rooms", json={"name": names[0], "options": options})
        assert r.status_code == 201, r.text
        self.code: str = r.json()["code"]
        self.tokens: list[str] = [r.json()["seat"]["token"]]
        for name in names[1:]:
            r = self.http.post(f"/api/rooms/{self.code}/seats", json={"name": name})
            assert r.status_code == 201, r.text
            self.tokens.append(r.json()["seat"]["token"])
        r = self.http.post(f"/api/rooms/{self.code}/start", json={}, headers=self.auth(0))
        assert r.status_code == 200, r.text

    def auth(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])

    def view(self, seat: int) -> dict[str, Any]:
        r = self.http.get(f"/api/rooms/{self.code}/view", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def send(self, seat: int, command: dict[str, Any]) -> int:
        """The command as `seat`; the version it made."""
        body = {"id": new_id(), "command": command}
        r = self.http.post(f"/api/rooms/{self.code}/commands", json=body, headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return int(r.json()["version"])

    def events(self, seat: int, version: int) -> list[dict[str, Any]]:
        """The events of `version` as `seat` reads them."""
        r = self.http.get(
            f"/api/rooms/{self.code}/log",
            params={"after": version - 1, "limit": 1},
            headers=self.auth(seat),
        )
        assert r.status_code == 200, r.text
        (entry,) = r.json()["entries"]
        assert entry["version"] == version
        return list(entry["events"])

    def draft(self) -> int:
        """Every seat takes its first draft pick until the draft is over (Karanor); the
        last version made."""
        version = 0
        for _ in range(10):
            views = [self.view(s) for s in range(len(self.tokens))]
            if views[0]["turn"]["phase"] != "draft":
                return version
            for seat, v in enumerate(views):
                picks = [a for a in v["legal_actions"] if a["type"] == "draft_pick"]
                if picks:
                    version = self.send(seat, picks[0])
        raise AssertionError("the draft did not end")


def my_move(view: dict[str, Any]) -> bool:
    """Whether the game waits for the viewer (mirrors `bots.to_act`)."""
    seat, turn = view["seat"], view["turn"]
    if seat is None or view["status"] != "playing" or not view["legal_actions"]:
        return False
    if turn["pending"]:
        return bool(turn["pending"]["seat"] == seat)
    if turn["phase"] == "draft":
        return not turn["drafted"][seat]
    return bool(turn["seat"] == seat)


def play_http_step(http: httpx.Client, room: Room, rng: random.Random) -> dict[str, Any] | None:
    """One command from whichever seat must act, chosen from its own view; None when
    the game is over. Returns {"id", "seat", "version"} of the acknowledged command."""
    for seat, token in enumerate(room.tokens):
        if token is None:
            continue
        view = http.get(f"/api/rooms/{room.code}/view", headers=bearer(token)).json()
        if view["status"] == "finished":
            return None
        if my_move(view):
            command = choose(view, rng)
            command_id = new_id()
            r = http.post(
                f"/api/rooms/{room.code}/commands",
                json={"id": command_id, "command": command, "expected_version": view["version"]},
                headers=bearer(token),
            )
            assert r.status_code == 200, r.text
            return {"id": command_id, "seat": seat, "version": r.json()["version"]}
    raise AssertionError("no human seat may act")


def secrets_of(view: dict[str, Any]) -> set[str]:
    private = view.get("private") or {}
    return {card for key in SECRET_KEYS for card in private.get(key, [])}


@dataclass
class SocketPlayer:
    """One socket: a seat that plays from its own views, or a spectator that watches."""

    url: str
    seat: int | None
    rng: random.Random
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    commands: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    # Shared by the sockets of one game: nobody plays before every socket has its first
    # view, so that each socket sees every version from the first.
    barrier: asyncio.Barrier | None = None

    async def run(self, timeout: float = 60.0) -> None:
        async with websockets.connect(self.url, max_size=2**24) as ws:
            waiting = False
            latest: dict[str, Any] | None = None
            while True:
                raw = await asyncio.wait_for(ws.recv(), timeout)
                message = orjson.loads(raw)
                self.messages.append(message)
                kind = message["type"]
                if kind == "view":
                    view = message["view"]
                    assert view["version"] == message["version"]
                    self.views[view["version"]] = view
                    if latest is None or view["version"] >= latest["version"]:
                        latest = view
                elif kind == "ack":
                    waiting = False
                elif kind == "error":
                    self.errors.append(message)
                    waiting = False
                    # The view we acted on was overtaken: ask for a fresh one.
                    await ws.send(orjson.dumps({"type": "resync"}).decode())
                    continue
                if latest is None:
                    continue
                if self.barrier is not None:
                    await asyncio.wait_for(self.barrier.wait(), timeout)
                    self.barrier = None
                if latest["status"] == "finished":
                    return
                if self.seat is not None and not waiting and my_move(latest):
                    command = choose(latest, self.rng)
                    await ws.send(
                        orjson.dumps({"type": "command", "id": new_id(), "command": command})
                    )
                    self.commands += 1
                    waiting = True


def ws_url(server: Any, room: Room, token: str | None) -> str:
    url = f"{server.ws_url}/ws/rooms/{room.code}"
    return f"{url}?token={token}" if token else url
