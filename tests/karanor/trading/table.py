"""A game room driven over the API by the trading tests: seats, tokens, commands, views.

`Table.open()` makes a room of humans through HTTP, starts it with an end far away
(`end_prestige` 30) and plays the draft (every seat sends a `draft_pick` from its own
`legal_actions`), so trading is open when it returns.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

from tests.helpers.server import ServerProcess

RESOURCES = ("wood", "ore", "cloth", "wine", "meat", "fruit", "diamond")


def new_id() -> str:
    return str(uuid.uuid4())


@dataclass
class Table:
    server: ServerProcess
    code: str
    tokens: list[str]
    http: httpx.Client = field(repr=False)

    @classmethod
    def open(cls, server: ServerProcess, players: int = 3, *, draft: bool = True) -> Table:
        # Seats are told apart by their bearer tokens only: the client keeps no cookies.
        http = httpx.Client(base_url=server.url, timeout=20, cookies=NoCookies())
        options = {"max_players": players, "end_prestige": 30, "start_seat": 0}
        r = http.post("/api/rooms", json={"name": "Ana", "options": options})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        tokens = [r.json()["seat"]["token"]]
        for name in ("Bo", "Cy", "Di", "Ed", "Fay")[: players - 1]:
            r = http.post(f"/api/rooms/{code}/seats", json={"name": name})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["seat"]["token"])
        r = http.post(f"/api/rooms/{code}/start", json={}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        table = cls(server, code, tokens, http)
        if draft:
            table.play_draft()
        return table

    def close(self) -> None:
        self.http.close()

    # --- HTTP ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is None:  # a spectator: no token and no seat cookie
            r = httpx.get(f"{self.server.url}/api/rooms/{self.code}/view", timeout=20)
        else:
            r = self.http.get(f"/api/rooms/{self.code}/view", headers=auth(self.tokens[seat]))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def send(self, seat: int, command: dict[str, Any]) -> httpx.Response:
        body = {"id": new_id(), "command": command}
        return self.http.post(
            f"/api/rooms/{self.code}/commands", json=body, headers=auth(self.tokens[seat])
        )

    def ok(self, seat: int, command: dict[str, Any]) -> dict[str, Any]:
        r = self.send(seat, command)
        assert r.status_code == 200, (command, r.text)
        return dict(r.json())

    def refused(self, seat: int, command: dict[str, Any], code: str) -> dict[str, Any]:
        before = self.view(seat)["version"]
        r = self.send(seat, command)
        assert r.status_code == 400, (command, r.status_code, r.text)
        error = r.json()["error"]
        assert error["code"] == code, (command, error)
        assert error["message"]
        assert self.view(seat)["version"] == before, "a refused command changed the game"
        return dict(error)

    def offer(self, seat: int, give: dict[str, Any], want: dict[str, Any], to: Any, note: str = ""):
        cmd = {"type": "offer", "to": to, "give": give, "want": want, "note": note}
        return self.made(self.ok(seat, cmd), seat)

    def made(self, answer: dict[str, Any], seat: int) -> int:
        """The id of the offer an acknowledged offer or counter made: the newest in the
        author's view at that version. (Its `offer` event carries the offer's own `to`,
        which `view.events_for` mistakes for a private event's addressee and drops.)"""
        view = self.view(seat)
        assert view["version"] == answer["version"]
        newest = view["offers"][-1]
        assert newest["from"] == seat and newest["status"] == "open", newest
        return int(newest["id"])

    def play_draft(self) -> None:
        for _ in range(10):
            views = [self.view(s) for s in range(len(self.tokens))]
            if views[0]["turn"]["phase"] != "draft":
                return
            for seat, v in enumerate(views):
                picks = [a for a in v["legal_actions"] if a["type"] == "draft_pick"]
                if picks:
                    self.ok(seat, picks[0])
        raise AssertionError("the draft did not end")

    # --- reading views -----------------------------------------------------------------

    def holdings(self, seat: int, viewer: int | None = None) -> dict[str, Any]:
        p = self.view(seat if viewer is None else viewer)["players"][seat]
        return {"gold": p["gold"], **{r: p["resources"].get(r, 0) for r in RESOURCES}}

    def offer_in(self, viewer: int | None, offer_id: int) -> dict[str, Any]:
        found = [o for o in self.view(viewer)["offers"] if o["id"] == offer_id]
        assert len(found) == 1, (offer_id, viewer)
        return dict(found[0])

    def trader_pair(self) -> tuple[int, int, str]:
        """(buyer, seller, resource): a seat with gold and another holding a resource."""
        players = self.view(0)["players"]
        for seller in players:
            for r in RESOURCES:
                if seller["resources"].get(r, 0) >= 1:
                    for buyer in players:
                        if buyer["seat"] != seller["seat"] and buyer["gold"] >= 2:
                            return buyer["seat"], seller["seat"], r
        raise AssertionError("no seat holds a resource after the draft")

    # --- WebSocket --------------------------------------------------------------------

    def ws_url(self, seat: int | None) -> str:
        url = f"{self.server.ws_url}/ws/rooms/{self.code}"
        return f"{url}?token={self.tokens[seat]}" if seat is not None else url


class NoCookies(httpx.Cookies):
    """A cookie jar that keeps nothing (the seat cookies set by create/join)."""

    def extract_cookies(self, response: httpx.Response) -> None:
        return None


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Socket:
    """One seat's WebSocket: sends commands, waits for their ack or error, keeps views."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None
        self.answers: dict[str, dict[str, Any]] = {}

    @classmethod
    async def connect(cls, url: str) -> Socket:
        sock = cls(await websockets.connect(url, max_size=2**24))
        await sock.until(lambda: sock.view is not None)
        return sock

    async def close(self) -> None:
        await self.ws.close()

    async def _read(self) -> None:
        msg = orjson.loads(await asyncio.wait_for(self.ws.recv(), 15))
        if msg["type"] == "view":
            if self.view is None or msg["version"] >= self.view["version"]:
                self.view = msg["view"]
        elif msg["type"] in ("ack", "error") and msg.get("id"):
            self.answers[msg["id"]] = msg

    async def until(self, done: Any) -> None:
        while not done():
            await self._read()

    async def send(self, command: dict[str, Any]) -> str:
        command_id = new_id()
        await self.ws.send(
            orjson.dumps({"type": "command", "id": command_id, "command": command}).decode()
        )
        return command_id

    async def answer(self, command_id: str) -> dict[str, Any]:
        await self.until(lambda: command_id in self.answers)
        return self.answers[command_id]

    async def command(self, command: dict[str, Any]) -> dict[str, Any]:
        return await self.answer(await self.send(command))

    async def at_version(self, version: int) -> dict[str, Any]:
        await self.until(lambda: self.view is not None and self.view["version"] >= version)
        assert self.view is not None
        return self.view
