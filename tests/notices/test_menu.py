"""The game menu's notices and the slow-game clock, in Chromium (issue 29): a seat turns
notices on from the menu (an Apprise URL here; the Web Push button is offered on this
secure origin), and a slow game's countdown says the date and time the turn ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.helpers.browser import watch
from tests.helpers.client import bearer
from tests.helpers.server import ServerProcess
from tests.notices.fakes import FakePushService

pytestmark = pytest.mark.slow

ENV = {
    "KARANOR_GAMES": "tests.browser.toy:GAME",
    "KARANOR_NOTICE_KINDS": "web_push,json",
    "KARANOR_NOTICE_PRIVATE_ADDRESSES": "true",
    "KARANOR_LOG_LEVEL": "warning",
}


@pytest.fixture
def hook() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.close()


def test_notices_from_the_menu_and_a_slow_games_clock(
    server_factory: Callable[..., ServerProcess], browser: Browser, hook: FakePushService
) -> None:
    server = server_factory(env=ENV).start()
    base = server.url
    http = httpx.Client(base_url=base, timeout=10)
    r = http.post("/api/rooms", json={"name": "Ana", "game": "toy"})
    code, ana = r.json()["code"], r.json()["seat"]["token"]
    http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"})
    # A turn a day with two days of reserve: the lobby's middle slow preset.
    assert http.put(f"/api/rooms/{code}/timer", json={"turn_seconds": 86400, "reserve_seconds": 172800},
                    headers=bearer(ana)).status_code == 200  # fmt: skip
    assert http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(ana)).status_code == 200

    problems: list[str] = []
    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    page = watch(context.new_page(), problems)
    page.goto(base + "/")
    assert page.request.post(f"{base}/api/rooms/{code}/session", headers=bearer(ana)).ok
    page.goto(f"{base}/r/{code}")
    # Ana's clock: three days left, and when it ends, in Tokyo's time.
    clock = page.get_by_test_id("turn-clock")
    expect(clock).to_contain_text("You: 2 days 23 h left · ")
    ends = page.evaluate(
        "(at) => new Date(at * 1000).toLocaleString('en', {timeZone: 'Asia/Tokyo', weekday: 'short',"
        " day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit'})",
        http.get(f"/api/rooms/{code}").json()["timer"]["deadlines"][0]["at"],
    )
    expect(clock).to_contain_text(ends)

    page.get_by_test_id("game-menu").click()
    section = page.locator("#menu-notices")
    expect(section).to_be_visible()
    expect(page.get_by_test_id("notices-push")).to_have_text("Get notices on this device")
    page.get_by_test_id("notice-url").fill(f"json://127.0.0.1:{hook.port}/hook/ana-secret")
    page.locator("#menu-notices form button[type=submit]").click()
    expect(page.get_by_test_id("notice-target")).to_have_count(1)
    expect(section).not_to_contain_text("ana-secret")
    listed = http.get(f"/api/rooms/{code}/notices", headers=bearer(ana)).json()
    assert [t["kind"] for t in listed["targets"]] == ["url"]
    assert problems == [], problems
