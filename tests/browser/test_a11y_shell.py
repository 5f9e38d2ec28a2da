"""Accessibility of the shell (issue 17): axe-core finds nothing on the home page and the
lobby (laptop 1366x860 and phone 390x844, light and dark, pairwise), nor on a Karanor
game page after the draft (the shell's topbar, menu, log, chat and seats around the game's own
panels; nothing excluded); the presence of a seat is said in words and by shape, not by
colour alone; the game page has its <h1>; the log and the chat list are focusable scroll
regions with a name; Escape closes the game menu and gives focus back to what opened it;
keyboard focus survives an action; an icon's name shows on a tap; the rules page is
reached from the home page, the lobby and the game menu, and Escape returns.

Screenshots (in /tmp/karanor-screens): a11y-{device}-{scheme}-home.png / -lobby.png,
a11y-game-{device}-{scheme}.png, rules-laptop.png, rules-phone.png.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.toy import CountToTen
from tests.helpers.browser import (
    LAPTOP,
    PHONE,
    axe_violations,
    no_sideways_scroll,
    wait_js,
    watch,
)
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow


class _Toy(CountToTen):
    """The toy game with the content call of the language machinery (catalogue(lang))."""

    def catalogue(self, lang: str = "en") -> dict[str, Any]:  # type: ignore[override]
        return {"game": self.id}


TOY_GAME = _Toy()
QUIET = {"KARANOR_LOG_LEVEL": "warning"}
RULES = re.compile(r"/rules/karanor\?from=%2Fr%2F|/rules/karanor\?from=%2F$")
TOY = {"KARANOR_GAMES": f"{__name__}:TOY_GAME", **QUIET}
# The bot picks at once (no pause for people to follow).
FAST = {**QUIET, "KARANOR_BOT_DELAY_SECONDS": "0"}
DEVICES = {"laptop": LAPTOP, "phone": PHONE}


def context_args(device: str, scheme: str) -> dict[str, Any]:
    extra: dict[str, Any] = (
        {"device_scale_factor": 2, "has_touch": True} if device == "phone" else {}
    )
    return {"viewport": DEVICES[device], "color_scheme": scheme, **extra}


def create_room(page: Page, base: str, name: str = "Ana") -> str:
    page.goto(base + "/")
    expect(page.get_by_test_id("game-choice").first).to_be_visible()
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/**", wait_until="commit")
    expect(page.get_by_test_id("seat")).to_have_count(1)
    return page.url.rsplit("/", 1)[1]


def version_of(page: Page) -> int:
    return int(page.get_by_test_id("version").text_content() or "0")


def wait_version_above(page: Page, version: int) -> None:
    wait_js(
        page,
        "v => Number(document.querySelector('[data-testid=version]').textContent) > v",
        version,
        timeout=15_000,
    )


# Pairwise, not every combination (an axe run costs seconds): each page state is checked
# at both sizes and in both themes, the home page and the lobby in one theme and the game
# page in the other, switched in the page (emulate_media: the theme is CSS alone).
@pytest.mark.parametrize(
    ("device", "lobby_scheme", "game_scheme"),
    [("laptop", "dark", "light"), ("phone", "light", "dark")],
)
def test_home_lobby_and_karanor_game_page_shell_are_accessible(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    screens: Callable[..., None],
    device: str,
    lobby_scheme: str,
    game_scheme: str,
) -> None:
    server = server_factory(env=FAST).start()
    base = server.url
    problems: list[str] = []
    page = watch(browser.new_context(**context_args(device, lobby_scheme)).new_page(), problems)

    # --- the home page ------------------------------------------------------------------
    page.goto(base + "/")
    expect(page.get_by_test_id("game-choice").first).to_be_visible()
    # The dark theme is the page's own, not the browser's default colours.
    assert_background(page, lobby_scheme)
    assert page.locator("meta[name=color-scheme]").get_attribute("content") == "light dark"
    assert axe_violations(page) == []
    screens(page, f"a11y-{device}-{lobby_scheme}-home", full_page=True)

    # --- the lobby --------------------------------------------------------------------
    code = create_room(page, base)
    page.locator("#add-bot").click()
    expect(page.get_by_test_id("seat")).to_have_count(2)
    # Presence in words (hidden text and a tip) and by shape: a filled dot or a ring.
    dots = page.get_by_test_id("presence")
    expect(dots).to_have_count(2)
    expect(dots.first).to_have_text("connected")
    expect(dots.first).to_have_attribute("data-state", "on")
    expect(page.locator("#lobby-rules-link")).to_have_attribute("href", RULES)
    assert axe_violations(page) == []
    no_sideways_scroll(page, DEVICES[device]["width"])
    screens(page, f"a11y-{device}-{lobby_scheme}-lobby", full_page=True)
    if device == "phone":
        # On a touch screen a title never shows: a tap on a presence dot shows its name.
        dots.first.tap()
        expect(page.locator("#tip-bubble")).to_be_visible()
        expect(page.locator("#tip-bubble")).to_have_text("connected")

    # --- the game page, in the other theme ----------------------------------------------
    page.emulate_media(color_scheme=game_scheme)
    assert_background(page, game_scheme)
    page.get_by_test_id("start-game").click()
    expect(page.locator("body.in-game")).to_have_count(1)
    play_the_draft(page, base, code)

    # The game page's heading names the game and the room (the lobby's is hidden).
    title = page.locator("#page-title")
    expect(title).to_have_attribute("class", "sr-only")
    assert title.get_attribute("hidden") is None
    expect(title).to_have_text(f"Merchants of Karanor, room {code}")
    expect(page.locator("#lobby-title")).to_be_hidden()
    # The scroll regions are focusable and named.
    for selector in ("#log", "#timeline"):
        region = page.locator(selector)
        expect(region).to_have_attribute("tabindex", "0")
        assert region.get_attribute("aria-label")
    assert axe_violations(page) == []
    screens(page, f"a11y-game-{device}-{game_scheme}")

    # The panel's tabs: one Tab stop, the arrow keys reach the others ("New offer" was
    # tabindex=-1 and out of reach).
    if device == "phone":
        page.get_by_test_id("trade-toggle").click()
    tabs = page.locator("#trade-panel [role=tab]:visible")
    expect(tabs).to_have_count(2)
    page.get_by_test_id("tab-timeline").focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate(
        "[document.activeElement.getAttribute('role'), document.activeElement.id,"
        " document.activeElement.getAttribute('aria-selected'), document.activeElement.tabIndex]"
    )
    assert focused[0] == "tab" and focused[1] != "tab-timeline", focused
    assert focused[2:] == ["true", 0], focused
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.id") == "tab-timeline"
    if device == "phone":
        page.keyboard.press("Escape")  # the sheet closes, focus back on its bar
        assert page.evaluate("document.activeElement.dataset.testid") == "trade-toggle"

    # The game menu: axe finds nothing in it; Escape closes it and focus returns.
    menu_button = page.get_by_test_id("game-menu")
    menu_button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#game-menu")).to_be_visible()
    expect(page.locator("#menu-rules")).to_have_attribute("href", RULES)
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    expect(page.locator("#game-menu")).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "menu-button"

    # The game menu's link to the rules; Escape there comes back to the game.
    page.get_by_test_id("game-menu").click()
    page.locator("#menu-rules").click()
    page.wait_for_url(RULES)
    wait_js(page, "!!document.querySelector('#rules-body[data-ready]')")
    page.keyboard.press("Escape")
    page.wait_for_url(f"**/r/{code}", wait_until="commit")
    expect(page.locator("body.in-game")).to_have_count(1)
    assert not problems, "\n".join(problems)


def assert_background(page: Page, scheme: str) -> None:
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgb(22, 18, 14)" if scheme == "dark" else "rgb(246, 239, 224)")


def play_the_draft(page: Page, base: str, code: str) -> None:
    """Karanor's draft by keyboard: each pick is focused and taken with Enter (the bot
    picks in between; the view says when this seat may pick)."""
    token = page.evaluate(f"sessionStorage.getItem('karanor:token:{code}')")
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(20):
        view = httpx.get(f"{base}/api/rooms/{code}/view", headers=auth, timeout=10).json()
        types = {a["type"] for a in view["legal_actions"]}
        if types - {"draft_pick"}:
            break
        if not types:  # the bot's pick: the next version
            wait_version_above(page, view["version"])
            continue
        expect(page.get_by_test_id("version")).to_have_text(str(view["version"]), timeout=10_000)
        pick = page.locator("[data-testid=legal-action][data-type=draft_pick]").first
        expect(pick).to_be_enabled()
        pick.focus()
        page.keyboard.press("Enter")
        wait_version_above(page, view["version"])
    expect(
        page.locator("[data-testid=legal-action]:not([data-type=draft_pick])").first
    ).to_be_visible(timeout=15_000)


def test_keyboard_focus_survives_an_action(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    """The generic table (the shell's legal.js buttons): after Enter on a legal action the
    focus stays in the game, and the next Tab reaches a legal action again (it used to
    fall back to the top of the page: 12-14 Tabs to come back)."""
    server = server_factory(env=TOY).start()
    base = server.url
    r = httpx.post(f"{base}/api/rooms", json={"name": "Ana", "game": "toy"}, timeout=10)
    assert r.status_code == 201, r.text
    code, ana = r.json()["code"], r.json()["seat"]["token"]
    r = httpx.post(f"{base}/api/rooms/{code}/seats", json={"name": "Bo"}, timeout=10)
    bo = r.json()["seat"]["token"]
    host = {"Authorization": f"Bearer {ana}"}
    r = httpx.post(f"{base}/api/rooms/{code}/start", json={}, headers=host, timeout=10)
    assert r.status_code == 200, r.text
    view = httpx.get(f"{base}/api/rooms/{code}/view", headers=host, timeout=10).json()
    tokens = [ana, bo]
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    page.goto(f"{base}/r/{code}#token={ana}")
    if view["turn"]["seat"] != 0:  # Bo starts: he plays first, through the API
        cmd = httpx.get(
            f"{base}/api/rooms/{code}/view",
            headers={"Authorization": f"Bearer {bo}"},
            timeout=10,
        ).json()["legal_actions"][0]
        send(base, code, bo, cmd, view["version"])
    button = page.locator("[data-testid=legal-action]").first
    expect(button).to_be_enabled(timeout=10_000)
    version = version_of(page)
    button.focus()
    page.keyboard.press("Enter")
    wait_version_above(page, version)
    expect(page.locator("[data-testid=legal-action]")).to_have_count(0)  # Bo's turn now
    wait_js(page, "document.activeElement && document.activeElement.closest('#game') !== null")

    # Bo plays; Ana's buttons come back; one Tab reaches them.
    view = httpx.get(f"{base}/api/rooms/{code}/view", headers=host, timeout=10).json()
    seat = view["turn"]["seat"]
    theirs = httpx.get(
        f"{base}/api/rooms/{code}/view",
        headers={"Authorization": f"Bearer {tokens[seat]}"},
        timeout=10,
    ).json()
    send(base, code, tokens[seat], theirs["legal_actions"][0], view["version"])
    expect(page.locator("[data-testid=legal-action]").first).to_be_enabled(timeout=10_000)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "legal-action"
    assert not problems, "\n".join(problems)


def send(base: str, code: str, token: str, command: dict[str, Any], version: int) -> None:
    r = httpx.post(
        f"{base}/api/rooms/{code}/commands",
        json={"id": str(uuid.uuid4()), "command": command, "expected_version": version},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text


def test_the_rules_page_from_home_and_lobby(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    """The home page's and the lobby's links to the rules (the game menu's is followed in
    the shell test above, in the game it already plays)."""
    server = server_factory(env=QUIET).start()
    base = server.url
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)

    # Home: one Rules link per game.
    page.goto(base + "/")
    games = httpx.get(f"{base}/api/games", timeout=10).json()["games"]
    links = page.get_by_test_id("rules-link")
    expect(links).to_have_count(len(games))
    page.locator("[data-testid=rules-link][data-game=karanor]").click()
    page.wait_for_url(RULES)
    expect(page.locator("h1")).to_have_text("Rules: Merchants of Karanor")
    body = page.get_by_test_id("rules-help")
    # The game's help module (static/js/games/karanor/help.js), or the shell's clear note.
    wait_js(page, "!!document.querySelector('#rules-body[data-ready]')")
    assert (body.text_content() or "").strip()
    expect(page.get_by_test_id("language")).to_have_value("en")
    assert axe_violations(page) == []
    screens(page, "rules-laptop", full_page=True)
    page.keyboard.press("Escape")
    page.wait_for_url(base + "/", wait_until="commit")

    # The lobby's link, then Back (the top bar's link) returns to the room.
    code = create_room(page, base)
    page.locator("#lobby-rules-link").click()
    page.wait_for_url(RULES)
    page.get_by_test_id("rules-back").click()
    page.wait_for_url(f"**/r/{code}", wait_until="commit")
    expect(page.get_by_test_id("seat")).to_have_count(1)

    # A phone, in the dark.
    phone = watch(browser.new_context(**context_args("phone", "dark")).new_page(), problems)
    phone.goto(f"{base}/rules/karanor")
    wait_js(phone, "!!document.querySelector('#rules-body[data-ready]')")
    assert axe_violations(phone) == []
    no_sideways_scroll(phone, PHONE["width"])
    screens(phone, "rules-phone", full_page=True)

    # An unknown game: a page that says so, not an error.
    r = httpx.get(f"{base}/rules/no-such-game", timeout=10)
    assert r.status_code == 404
    assert "No such game" in r.text
    assert not problems, "\n".join(problems)
