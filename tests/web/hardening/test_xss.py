"""Browser XSS: markup typed into names (creating, joining), chat and trade notes never
runs on any page (host, guest, spectator) and shows as the literal text it is.

Two nets: a `dialog` handler that fails the test and a `window.__xss` flag the payloads
would set; plus no element of the page may carry an event-handler attribute, and the
pages must raise no Content-Security-Policy violation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.helpers.browser import wait_js
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

LAPTOP: ViewportSize = {"width": 1366, "height": 900}
HOST_NAME = "<img src=x onerror=__xss=1>"  # the name inputs take 32 characters
GUEST_NAME = '"><svg onload=__xss=2>'
CHAT = [
    "<script>window.__xss=3;alert(3)</script>",
    '<img src=x onerror="window.__xss=4;alert(4)">',
    '"><svg/onload=alert(5)>',
    '<iframe srcdoc="<script>parent.__xss=6</script>"></iframe>',
    '<a href="javascript:window.__xss=7">click</a> {{7*7}} ${7*7}',
]
NOTE = "<img src=x onerror=window.__xss=8> </textarea><script>alert(8)</script>"


def guarded(browser: Browser, problems: list[str]) -> Page:
    page = browser.new_context(viewport=LAPTOP).new_page()

    def on_dialog(dialog: object) -> None:
        problems.append(f"a dialog opened: {getattr(dialog, 'message', '')}")
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on(
        "console",
        lambda m: (
            problems.append(f"console: {m.text}")
            if "Content Security Policy" in m.text or "Refused to" in m.text
            else None
        ),
    )
    return page


def seat_view(base: str, code: str, token: str) -> Any:
    r = httpx.get(
        f"{base}/api/rooms/{code}/view",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return r.json()


def settled(page: Page) -> None:
    """The page has loaded and every image on it has loaded or failed: an `onerror`
    payload that got into the page as markup would have fired (its error event comes
    with the image's failure)."""
    page.wait_for_load_state("load")
    wait_js(page, "[...document.images].every((image) => image.complete)")


def no_script_ran(page: Page, problems: list[str]) -> None:
    assert page.evaluate("typeof window.__xss") == "undefined", page.url
    handlers = page.evaluate(
        """() => [...document.querySelectorAll('*')].filter(el =>
              [...el.attributes].some(a => a.name.startsWith('on'))
              || (el.tagName === 'A' && (el.getAttribute('href') || '').startsWith('javascript:'))
              || el.tagName === 'IFRAME').map(el => el.outerHTML.slice(0, 120))"""
    )
    assert handlers == [], handlers
    assert not problems, problems


def test_markup_in_names_chat_and_notes_is_text(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env={"KARANOR_LOG_LEVEL": "warning"}).start()
    base = server.url
    problems: list[str] = []
    host, guest, watcher = (guarded(browser, problems) for _ in range(3))

    host.goto(base + "/")
    host.get_by_test_id("name-input").fill(HOST_NAME)
    host.get_by_test_id("create-room").click()
    host.wait_for_url("**/r/**")
    code = host.url.rstrip("/").rsplit("/", 1)[1].split("#")[0]
    guest.goto(f"{base}/r/{code}")
    guest.locator("#join-name").fill(GUEST_NAME)
    guest.get_by_test_id("join-room").click()
    watcher.goto(f"{base}/r/{code}")
    for page in (host, guest, watcher):
        expect(page.get_by_test_id("seat")).to_have_count(2)
        expect(page.get_by_test_id("seat").first).to_contain_text(HOST_NAME)
        expect(page.get_by_test_id("seat").nth(1)).to_contain_text(GUEST_NAME)
        no_script_ran(page, problems)

    host.get_by_test_id("start-game").click()
    for page in (host, guest, watcher):
        expect(page.get_by_test_id("board").locator("svg")).to_be_visible(timeout=15_000)
        expect(page.locator("body")).to_contain_text(HOST_NAME)

    # The draft, each pick made in the picking player's modal, so the chat and offers are
    # reachable. No bots: only these clicks move the game, so a page showing its seat's
    # view's version is ready for the pick, and shows the next version once it is taken.
    tokens = [p.evaluate(f"sessionStorage.getItem('karanor:token:{code}')") for p in (host, guest)]
    for _ in range(40):
        picked = False
        for page, token in zip((host, guest), tokens, strict=True):
            view = seat_view(base, code, token)
            if not any(a["type"] == "draft_pick" for a in view["legal_actions"]):
                continue
            version = page.get_by_test_id("version")
            expect(version).to_have_text(str(view["version"]), timeout=10_000)
            page.locator("#modal[open] [data-testid=legal-action]").first.click()
            expect(version).to_have_text(str(view["version"] + 1), timeout=10_000)
            picked = True
        if not picked:
            break
    assert seat_view(base, code, tokens[0])["turn"]["phase"] != "draft"
    for page in (host, guest):
        expect(page.locator("#modal[open]")).to_have_count(0, timeout=10_000)

    for text in CHAT:
        guest.get_by_test_id("chat-input").fill(text)
        guest.get_by_test_id("chat-send").click()
        for page in (host, guest, watcher):
            expect(page.get_by_test_id("chat-message").last).to_contain_text(text)

    token = tokens[0]
    offer = {"type": "offer", "to": None, "give": {"gold": 1}, "want": {}, "note": NOTE}
    r = httpx.post(
        f"{base}/api/rooms/{code}/commands",
        headers={"Authorization": f"Bearer {token}"},
        json={"id": "xss-offer", "command": offer},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    for page in (host, guest, watcher):
        expect(page.get_by_test_id("offer")).to_have_count(1, timeout=10_000)
        expect(page.get_by_test_id("offer").first).to_contain_text(NOTE)

    # Reloaded pages draw the same history (chat backlog, names) from scratch.
    for page in (host, guest, watcher):
        page.reload()
        expect(page.get_by_test_id("chat-message").last).to_contain_text(CHAT[-1], timeout=10_000)
        expect(page.get_by_test_id("offer").first).to_contain_text(NOTE, timeout=10_000)
        settled(page)
        no_script_ran(page, problems)
