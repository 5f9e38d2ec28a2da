"""The shell around the games: the home page's game choice, the lobby's options drawn
from the game's options schema (the host sets them, the others see them read-only), and
the generic table that plays a game without a page of its own by its legal actions.

A toy game (tests/browser/toy.py) is plugged into the real server with KARANOR_GAMES.
Screenshots of the home page and the lobby, laptop and phone, are kept in
tests/browser/screenshots/ (not committed) and copied to /tmp/karanor-screens.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import PHONE, SHARED_SCREENS, no_sideways_scroll, watch
from tests.helpers.server import ServerProcess, module_server

pytestmark = pytest.mark.slow

SCREENSHOTS = Path(__file__).parent / "screenshots"
LAPTOP = {"width": 1280, "height": 800}
TOY = {"KARANOR_GAMES": "tests.browser.toy:GAME", "KARANOR_LOG_LEVEL": "warning"}


toy_server = module_server(TOY)  # the toy game, for the tests that play no bot


def keep(page: Page, name: str) -> None:
    """A full-page screenshot in tests/browser/screenshots (and /tmp/karanor-screens)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    SHARED_SCREENS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, SHARED_SCREENS / path.name)


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_home_chooses_the_game_and_the_lobby_shows_its_options(
    toy_server: ServerProcess, browser: Browser, device: str
) -> None:
    base = toy_server.url
    games = httpx.get(f"{base}/api/games", timeout=10).json()["games"]
    assert {"karanor", "toy"} <= {g["id"] for g in games}
    viewport = LAPTOP if device == "laptop" else PHONE
    problems: list[str] = []
    extra = {"device_scale_factor": 2, "has_touch": True} if device == "phone" else {}
    host = watch(browser.new_context(viewport=viewport, **extra).new_page(), problems)
    guest = watch(browser.new_context(viewport=viewport, **extra).new_page(), problems)

    # --- home: one choice per hosted game, the first (Karanor) chosen --------------------
    host.goto(base + "/")
    choices = host.get_by_test_id("game-choice")
    expect(choices).to_have_count(len(games))
    expect(host.locator("[data-testid=game-choice][value=karanor]")).to_be_checked()
    expect(host.locator(".game-option", has_text="Merchants of Karanor")).to_contain_text(
        "2–6 players"
    )
    host.get_by_test_id("name-input").fill("Ana")
    keep(host, f"home-{device}")
    no_sideways_scroll(host, viewport["width"])
    host.get_by_test_id("create-room").click()
    host.wait_for_url("**/r/**")
    code = host.url.rsplit("/", 1)[1]
    assert httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()["game"] == "karanor"

    # --- the lobby: the game's name, Karanor's options as they always were ----------------
    expect(host.get_by_test_id("room-game")).to_contain_text("Merchants of Karanor")
    form = host.get_by_test_id("room-options")
    expect(form.locator("select[name=max_players]")).to_have_value("4")
    expect(form.locator("select[name=end_prestige] option").first).to_have_text("rulebook")
    expect(form.locator("select[name=start_seat] option")).to_have_text(["random", "Ana"])
    expect(form.locator("input[name=two_player_market]")).to_be_checked()
    expect(form.locator("input[name=public_quests]")).not_to_be_checked()
    expect(form).to_contain_text("Quests shown to everyone")

    guest.goto(f"{base}/r/{code}")
    guest.locator("#join-name").fill("Bo")
    guest.get_by_test_id("join-room").click()
    expect(guest.locator(".seat .tag.you")).to_have_count(1)
    expect(host.get_by_test_id("seat")).to_have_count(2)
    expect(form.locator("select[name=start_seat] option")).to_have_text(["random", "Ana", "Bo"])
    with host.expect_response(lambda r: r.url.endswith("/options") and r.request.method == "PUT"):
        form.locator("input[name=public_quests]").check()
    with host.expect_response(lambda r: r.url.endswith("/options") and r.request.method == "PUT"):
        form.locator("select[name=start_seat]").select_option(label="Bo")
    assert httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()["options"]["start_seat"] == 1
    # The guest sees the host's choices, and cannot change them.
    theirs = guest.get_by_test_id("room-options")
    expect(guest.locator("#host-title")).to_have_text("Options")
    expect(theirs.locator("input[name=public_quests]")).to_be_checked()
    expect(theirs.locator("input[name=public_quests]")).to_be_disabled()
    expect(theirs.locator("select[name=start_seat]")).to_have_value("1")
    expect(guest.get_by_test_id("start-game")).to_be_hidden()
    keep(host, f"lobby-{device}")
    keep(guest, f"lobby-guest-{device}")
    for page in (host, guest):
        no_sideways_scroll(page, viewport["width"])
    assert not problems, "\n".join(problems)


def test_a_game_without_its_own_page_is_played_by_its_legal_actions(
    toy_server: ServerProcess, browser: Browser
) -> None:
    """The toy game has no static/js/games/toy/: the generic table plays it to the end."""
    base = toy_server.url
    problems: list[str] = []
    host = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    guest = watch(
        browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True).new_page(),
        problems,
    )
    host.goto(base + "/")
    host.locator("[data-testid=game-choice][value=toy]").check()
    host.get_by_test_id("name-input").fill("Ana")
    host.get_by_test_id("create-room").click()
    host.wait_for_url("**/r/**")
    code = host.url.rsplit("/", 1)[1]
    room = httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()
    assert room["game"] == "toy"
    expect(host.get_by_test_id("room-game")).to_contain_text("Count to Ten")

    # The options form comes from the toy's schema: an integer range, an enum, a boolean.
    form = host.get_by_test_id("room-options")
    expect(form.locator("label:has(select[name=target])")).to_contain_text("the total to reach")
    expect(form.locator("select[name=target] option")).to_have_count(16)  # 5..20
    expect(form.locator("select[name=step_max] option")).to_have_text(["2", "3"])
    expect(form.locator("input[name=last_wins]")).to_be_checked()
    with host.expect_response(lambda r: r.url.endswith("/options") and r.request.method == "PUT"):
        form.locator("select[name=target]").select_option("6")
    assert httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()["options"]["target"] == 6

    guest.goto(f"{base}/r/{code}")
    guest.locator("#join-name").fill("Bo")
    guest.get_by_test_id("join-room").click()
    expect(guest.get_by_test_id("room-options").locator("select[name=target]")).to_have_value("6")
    expect(host.get_by_test_id("seat")).to_have_count(2)
    host.get_by_test_id("start-game").click()

    # Whoever may act has buttons; clicking them alone finishes the game.
    pages = [host, guest]
    version = 0
    for _ in range(10):
        view = httpx.get(f"{base}/api/rooms/{code}/view", timeout=10).json()
        if view["status"] == "finished":
            break
        acting = view["turn"]["seat"]
        page = pages[acting]
        other = pages[1 - acting]
        expect(page.get_by_test_id("version")).to_have_text(str(view["version"]), timeout=10_000)
        button = page.locator("[data-testid=legal-action][data-type=add]").first
        expect(button).to_be_enabled()
        expect(other.locator("[data-testid=legal-action]")).to_have_count(0)
        button.click()
        version = view["version"] + 1
        for p in pages:
            expect(p.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)
    final = httpx.get(f"{base}/api/rooms/{code}/view", timeout=10).json()
    assert final["status"] == "finished"
    winner = final["result"]["winners"][0]
    for i, page in enumerate(pages):
        expect(page.locator("#endgame")).to_be_visible()
        expect(page.locator("#endgame .winner")).to_have_text(
            "You win!" if i == winner else f"{['Ana', 'Bo'][winner]} wins!"
        )
        expect(page.locator("#log")).to_contain_text("Added · n: ")
    keep(host, "generic-table-laptop")
    keep(guest, "generic-table-phone")
    no_sideways_scroll(guest, PHONE["width"])
    assert not problems, "\n".join(problems)


def test_dark_road_placeholder_offers_its_legal_actions(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env={"KARANOR_LOG_LEVEL": "warning"}).start()
    base = server.url
    games = httpx.get(f"{base}/api/games", timeout=10).json()["games"]
    if "darkroad" not in {g["id"] for g in games}:
        pytest.skip("this server does not host Merchants of the Dark Road yet")
    r = httpx.post(f"{base}/api/rooms", json={"name": "Ana", "game": "darkroad"}, timeout=10)
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["seat"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.post(f"{base}/api/rooms/{code}/bots", json={}, headers=auth, timeout=10).is_success
    r = httpx.post(f"{base}/api/rooms/{code}/start", json={}, headers=auth, timeout=10)
    assert r.status_code == 200, r.text
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    page.goto(f"{base}/r/{code}#token={token}")
    expect(page.locator(".generic-table")).to_contain_text("Merchants of the Dark Road")
    for _ in range(3):
        view = httpx.get(f"{base}/api/rooms/{code}/view", headers=auth, timeout=10).json()
        if not view["legal_actions"] or view["status"] != "playing":
            break
        expect(page.get_by_test_id("version")).to_have_text(str(view["version"]), timeout=10_000)
        button = page.locator("[data-testid=legal-action]").first
        expect(button).to_have_attribute("data-type", view["legal_actions"][0]["type"])
        button.click()
        expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    keep(page, "darkroad-placeholder-laptop")
    assert not problems, "\n".join(problems)


def test_a_socket_with_no_view_yet_asks_a_resync_without_a_version(
    toy_server: ServerProcess, browser: Browser
) -> None:
    """A resync's version is the one the page holds, if any (docs/api.md: `"version"?`,
    at least 0): a page that had no view yet sent -1, and the server's refusal showed as a
    red toast over the board (seen on a second Karanor page opened while the first drew)."""
    page = browser.new_page()
    page.goto(toy_server.url + "/")
    sent = page.evaluate(
        """async () => {
          const { RoomSocket } = await import('/static/js/socket.js');
          const sock = new RoomSocket('ROOM', { onMessage() {}, onStatus() {} });
          const sent = [];
          sock.ws = { readyState: WebSocket.OPEN, send: (m) => sent.push(JSON.parse(m)) };
          sock.resync();
          sock.version = 7;
          sock.resync();
          return sent;
        }"""
    )
    page.close()
    assert sent == [{"type": "resync"}, {"type": "resync", "version": 7}]
