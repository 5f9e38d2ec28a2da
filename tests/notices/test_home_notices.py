"""Notices from the home page's "My games" (issue 29): each game still going on has a
Notices control for the seat this device holds (the game menu's controls, notices.js);
here it turns notices on with an Apprise URL, a notice arrives, and it turns them off; on
a laptop and a phone, in English and French, the page never scrolls sideways."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import no_sideways_scroll, watch
from tests.helpers.client import bearer, new_id
from tests.helpers.server import ServerProcess
from tests.notices.fakes import FakePushService
from tests.notices.test_menu import ENV

pytestmark = pytest.mark.slow

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def hook() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.close()


def add(http: httpx.Client, code: str, token: str, n: int) -> None:
    body = {"id": new_id(), "command": {"type": "add", "n": n}}
    r = http.post(f"/api/rooms/{code}/commands", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text


def ana_s_rooms(page: Page, http: httpx.Client, base: str) -> dict[str, tuple[str, str, str]]:
    """Three rooms Ana's browser made with Bo (its cookies hold Ana's seats): one being
    played, one in the lobby, one finished. Label -> (code, Ana's token, Bo's token)."""
    rooms = {}
    for label in ("playing", "lobby", "finished"):
        made = page.request.post(
            f"{base}/api/rooms",
            data={"name": "Ana", "game": "toy", "options": {"target": 5, "step_max": 3}},
        )
        assert made.status == 201, made.text()
        code, ana = made.json()["code"], made.json()["seat"]["token"]
        bo = http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).json()["seat"]["token"]
        rooms[label] = (code, ana, bo)
        if label != "lobby":
            r = http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(ana))
            assert r.status_code == 200, r.text
    code, ana, bo = rooms["finished"]
    add(http, code, ana, 3)
    add(http, code, bo, 2)  # 5: Bo wins
    assert http.get(f"/api/rooms/{code}").json()["status"] == "finished"
    return rooms


def row(page: Page, code: str) -> Any:
    return page.locator(f"[data-testid=my-game][data-code='{code}']")


def test_notices_on_and_off_from_my_games(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    hook: FakePushService,
    screens: Callable[..., None],
) -> None:
    server = server_factory(env=ENV).start()
    base = server.url
    http = httpx.Client(base_url=base, timeout=10)
    problems: list[str] = []
    context = browser.new_context(viewport=LAPTOP, locale="en-GB")
    page = watch(context.new_page(), problems)
    page.goto(base + "/")
    rooms = ana_s_rooms(page, http, base)
    code, ana, bo = rooms["playing"]

    page.reload()
    expect(page.get_by_test_id("my-game")).to_have_count(3)
    # Games going on have the control; a finished one has none (nothing more to tell).
    for label in ("playing", "lobby"):
        expect(row(page, rooms[label][0]).get_by_test_id("my-game-notices")).to_have_text("Notices")
    expect(row(page, rooms["finished"][0]).get_by_test_id("my-game-notices")).to_have_count(0)

    playing = row(page, code)
    toggle = playing.get_by_test_id("my-game-notices")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    panel = playing.locator(".my-game-notices")
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id("notices-push")).to_have_text("Get notices on this device")
    panel.get_by_test_id("notice-url").fill(f"json://127.0.0.1:{hook.port}/hook/ana-secret")
    panel.locator("form button[type=submit]").click()
    expect(panel.get_by_test_id("notice-target")).to_have_count(1)
    expect(toggle).to_have_text("Notices on")
    expect(page.locator("body")).not_to_contain_text("ana-secret")
    listed = http.get(f"/api/rooms/{code}/notices", headers=bearer(ana)).json()
    assert [t["kind"] for t in listed["targets"]] == ["url"]
    # Only that seat: the lobby's row still has none.
    lobby = http.get(f"/api/rooms/{rooms['lobby'][0]}/notices", headers=bearer(rooms["lobby"][1]))
    assert lobby.json()["targets"] == []
    # And it works: Ana's turn comes while no page of that room is open.
    add(http, code, ana, 1)
    add(http, code, bo, 1)
    (notice,) = hook.wait_for("/hook/ana-secret", 1, timeout=10.0)
    assert b"The game waits for you." in notice.body
    screens(page, "home-notices-en-laptop", full_page=True)

    # Off again, from the same row.
    panel.get_by_test_id("notices-stop").click()
    expect(panel.get_by_test_id("notice-target")).to_have_count(0)
    expect(toggle).to_have_text("Notices")
    assert http.get(f"/api/rooms/{code}/notices", headers=bearer(ana)).json()["targets"] == []
    toggle.click()
    expect(panel).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")

    # A phone, in English and French, the address form open: nothing wider than the screen.
    cookies = context.cookies()
    for locale, words in (("en-GB", "Notices"), ("fr-FR", "Notifications")):
        phone = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
        phone.add_cookies(cookies)  # Ana's device cookie: the same games
        small = watch(phone.new_page(), problems)
        small.goto(base + "/")
        button = row(small, code).get_by_test_id("my-game-notices")
        expect(button).to_have_text(words)
        button.click()
        form = row(small, code).locator(".notice-url")
        expect(form).to_be_visible()
        no_sideways_scroll(small, PHONE["width"])
        inside = small.evaluate(
            """code => {
              const li = document.querySelector(`[data-testid=my-game][data-code='${code}']`);
              const box = li.getBoundingClientRect();
              return [...li.querySelectorAll('*')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
              }).map((e) => e.outerHTML.slice(0, 80));
            }""",
            code,
        )
        assert inside == [], inside
        screens(small, f"home-notices-{locale[:2]}-phone", full_page=True)
        phone.close()
    # The laptop in French, the panel open.
    french = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    french.add_cookies(cookies)
    big = watch(french.new_page(), problems)
    big.goto(base + "/")
    row(big, code).get_by_test_id("my-game-notices").click()
    expect(row(big, code).get_by_test_id("notices-push")).to_be_visible()
    no_sideways_scroll(big, LAPTOP["width"])
    screens(big, "home-notices-fr-laptop", full_page=True)
    french.close()
    http.close()
    assert problems == [], problems
