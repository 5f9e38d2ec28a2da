"""A click that another seat's command overtakes, in Chromium on the real server.

A page sends each command with the version it was chosen at (`expected_version`,
docs/api.md); when another seat's command lands first the server refuses it with
`stale_version`. The page then takes the newer view and sends the same command again if
it is still legal there (the server judges it again), else it tells the player the table
changed. Before, the click was lost behind a toast of the server's English message: in a
draft (every seat picks at once) the other players then waited for a pick its player had
made (CI's run of 2026-12-06: tests/browser/test_table.py's draft, a bot's pick landing
between a person's view and their click).

The race is made, not waited for: the test stands between the page and the server
(Playwright's WebSocket routing) and holds the server's messages while another seat acts
and the page's command is refused, then hands them over in the order the test chooses.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.helpers.browser import FAST, watch
from tests.helpers.server import ServerProcess, module_server

pytestmark = pytest.mark.slow

race_server = module_server({**FAST, "KARANOR_GAMES": "tests.browser.toy:GAME"})


class Between:
    """The test between a page and the server: forwards every message, except the
    server's while `hold` says so (kept in order, handed over by `release`)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.hold: Callable[[dict[str, Any]], bool] = lambda msg: False
        self.held: list[str] = []
        self.from_page: list[dict[str, Any]] = []
        self.to_page: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws/rooms/"), self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.to_page = ws

        def down(message: str | bytes) -> None:
            if isinstance(message, str) and self.hold(json.loads(message)):
                self.held.append(message)
            else:
                ws.send(message)

        def up(message: str | bytes) -> None:
            if isinstance(message, str):
                self.from_page.append(json.loads(message))
            server.send(message)

        server.on_message(down)
        ws.on_message(up)

    def release(self) -> None:
        self.hold = lambda msg: False
        assert self.to_page is not None
        for message in self.held:
            self.to_page.send(message)
        self.held.clear()

    def held_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in map(json.loads, self.held) if m["type"] == kind]

    def until(self, condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        """Wait for `condition`, letting the page (and the routing's callbacks) run."""
        for _ in range(int(timeout / 0.02)):
            if condition():
                return
            self.page.wait_for_timeout(20)
        raise AssertionError(f"not within {timeout} s: {what}")


def room_of(base: str, game: str, names: list[str]) -> tuple[str, list[str]]:
    """A started room of `game` with these people seated; their tokens."""
    with httpx.Client(base_url=base, timeout=10) as http:
        made = http.post("/api/rooms", json={"name": names[0], "game": game})
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        tokens = [made.json()["seat"]["token"]]
        for name in names[1:]:
            http.cookies.clear()
            seat = http.post(f"/api/rooms/{code}/seats", json={"name": name})
            assert seat.status_code == 201, seat.text
            tokens.append(seat.json()["seat"]["token"])
        http.cookies.clear()
        started = http.post(
            f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert started.status_code == 200, started.text
    return code, tokens


def act(base: str, code: str, token: str, pick: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """One command of `token`'s seat (chosen by `pick` from its view); the new version."""
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, timeout=10, headers=auth) as http:
        view = http.get(f"/api/rooms/{code}/view").json()
        r = http.post(
            f"/api/rooms/{code}/commands", json={"id": str(uuid.uuid4()), "command": pick(view)}
        )
        assert r.status_code == 200, r.text
        return int(r.json()["version"])


def seats_logged(base: str, code: str, token: str) -> list[int]:
    auth = {"Authorization": f"Bearer {token}"}
    log = httpx.get(f"{base}/api/rooms/{code}/log?after=0", headers=auth, timeout=10).json()
    return [entry["seat"] for entry in log["entries"]]


def first_draft_pick(view: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in view["legal_actions"] if a["type"] == "draft_pick")


def test_a_draft_pick_overtaken_by_another_seats_is_sent_again(
    race_server: ServerProcess, browser: Browser
) -> None:
    base = race_server.url
    code, (ana, bo) = room_of(base, "karanor", ["Ana", "Bo"])
    problems: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1280, "height": 800}), problems)
    between = Between(page)
    page.goto(f"{base}/r/{code}#token={ana}")
    choice = page.locator("#modal[open] [data-testid=legal-action]").first
    expect(choice).to_be_visible(timeout=10_000)

    def commands() -> list[dict[str, Any]]:
        return [m for m in between.from_page if m["type"] == "command"]

    # Round 1: the view of Bo's pick, then the refusal, reach the page in that order.
    at = int(page.get_by_test_id("version").inner_text())
    between.hold = lambda msg: True
    bo_at = act(base, code, bo, first_draft_pick)
    assert bo_at == at + 1
    between.until(lambda: bool(between.held), "Bo's pick's view held")
    chosen = json.loads(choice.get_attribute("data-command") or "{}")
    choice.click()
    between.until(lambda: bool(between.held_of("error")), "the page's command refused")
    assert between.held_of("error")[0]["code"] == "stale_version"
    between.release()
    between.until(lambda: len(commands()) == 2, "the command sent again")
    first, again = commands()
    assert first["command"] == again["command"] == chosen
    assert (first["expected_version"], again["expected_version"]) == (at, at + 1)
    between.until(lambda: seats_logged(base, code, ana) == [1, 0], "Ana's pick logged")
    expect(page.locator(".toast")).to_have_count(0)

    # Round 2: the refusal comes first; the page asks for the view that overtook it
    # (a resync) and sends the pick again once it has it.
    expect(page.locator("#modal[open] [data-testid=legal-action]").first).to_be_visible()
    expect(page.locator("#modal-title")).to_contain_text("round 2")
    at = int(page.get_by_test_id("version").inner_text())
    between.hold = lambda msg: msg["type"] in ("view", "patch")
    act(base, code, bo, first_draft_pick)
    between.until(lambda: bool(between.held), "Bo's second pick's view held")
    page.locator("#modal[open] [data-testid=legal-action]").first.click()
    between.until(
        lambda: any(m["type"] == "resync" for m in between.from_page[-3:]), "a resync asked"
    )
    between.release()
    between.until(lambda: len(commands()) == 4, "the second pick sent again")
    assert commands()[3]["expected_version"] == at + 1
    between.until(lambda: seats_logged(base, code, ana) == [1, 0, 1, 0], "both picks logged")
    expect(page.locator(".toast")).to_have_count(0)
    # The game begins: the draft's dialog is gone.
    expect(page.locator("#modal[open]")).to_have_count(0)
    assert not problems, "\n".join(problems)


def test_a_command_no_longer_legal_says_the_table_changed(
    race_server: ServerProcess, browser: Browser, screens: Callable[..., None]
) -> None:
    """The same seat on another device moved first: the page's command is not legal at
    the newer version, so it is not sent again, and the player reads why (in French on a
    French page), not the server's message for programs."""
    base = race_server.url
    code, (ana, _bo) = room_of(base, "toy", ["Ana", "Bo"])
    problems: list[str] = []
    context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
    page = watch(context.new_page(), problems)
    between = Between(page)
    page.goto(f"{base}/r/{code}#token={ana}")
    button = page.locator("[data-testid=legal-action]").first
    expect(button).to_be_visible(timeout=10_000)
    between.hold = lambda msg: True
    act(base, code, ana, lambda view: view["legal_actions"][0])  # Ana's other device
    between.until(lambda: bool(between.held), "the other device's view held")
    button.click()
    between.until(lambda: bool(between.held_of("error")), "the page's command refused")
    between.release()
    toast = page.locator(".toast")
    expect(toast).to_contain_text("La table a changé avant l’arrivée de votre coup")
    screens(page, "command-race-fr-phone")
    sent = [m for m in between.from_page if m["type"] == "command"]
    assert len(sent) == 1, sent
    assert seats_logged(base, code, ana) == [0]
    context.close()
    assert not problems, "\n".join(problems)
