"""The room page loads the lobby, the replay player, the coach and the notices form only
when they are first needed (issue 31: a game page's first load carries none of them),
and each still works once loaded.
"""

from __future__ import annotations

import json
import random

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, LAPTOP, PHONE, watch
from tests.helpers.client import Room, bearer, make_room, play_http_step
from tests.helpers.server import ServerProcess, module_server

pytestmark = pytest.mark.slow

# (options.js comes with the lobby: the platform's lobby.js and each game's lobby.js
# import it, and a game page loads neither)
LATER = ("lobby", "options", "replay", "coach", "notices", "story")


server = module_server(FAST)


def opened(browser: Browser, url: str, problems: list[str]) -> tuple[Page, list[str]]:
    """The page at `url` and the list of the platform modules it asks for (by name)."""
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    asked: list[str] = []

    def note(request: object) -> None:
        path = str(getattr(request, "url", "")).split("/static/js/", 1)[-1]
        if "/" not in path:  # the platform's own modules, not a game's
            asked.append(path.split(".", 1)[0])

    def note_game(request: object) -> None:
        path = str(getattr(request, "url", "")).split("/static/js/games/", 1)
        if len(path) == 2:
            asked.append("games/" + path[1].split(".", 1)[0])

    page.on("request", note)
    page.on("request", note_game)
    page.goto(url)
    return page, asked


def past_the_draft(room: Room) -> str:
    """Both seats pick their business cards through the API (the draft's dialog would
    cover the page's top bar); the token of the seat whose turn it is then."""
    rng = random.Random(2)
    with httpx.Client(base_url=room.base, timeout=15) as http:

        def drafting() -> bool:
            views = [
                http.get(f"/api/rooms/{room.code}/view", headers=bearer(t or "")).json()
                for t in room.tokens
            ]
            return any(a["type"] == "draft_pick" for v in views for a in v["legal_actions"])

        while drafting():
            play_http_step(http, room, rng)
        for token in room.tokens:
            view = http.get(f"/api/rooms/{room.code}/view", headers=bearer(token or "")).json()
            if view["legal_actions"]:
                return token or ""
    raise AssertionError("nobody may act after the draft")


def test_a_game_page_loads_the_menus_modules_at_their_first_use(
    server: ServerProcess, browser: Browser
) -> None:
    room = make_room(server.url, humans=2, options={"coach": True})
    token = past_the_draft(room)
    problems: list[str] = []
    page, asked = opened(browser, f"{server.url}/r/{room.code}#token={token}", problems)
    expect(page.locator("[data-testid=legal-action]").first).to_be_visible(timeout=15_000)
    page.wait_for_load_state("networkidle")
    assert "main" in asked and "table" in asked, asked
    assert not set(LATER) & set(asked), f"loaded with the page: {set(LATER) & set(asked)}"
    assert "games/karanor/index" in asked and "games/karanor/lobby" not in asked, asked
    # Karanor's end-screen details (breakdown, chart) come with the first end screen.
    assert "games/karanor/endgame" not in asked, asked
    # The coach (the room's option): its module with the first question; its choice is
    # one of the seat's legal actions.
    with (
        page.expect_request(lambda r: "/static/js/coach" in r.url),
        page.expect_response(lambda r: "/coach?" in r.url, timeout=60_000) as answer,
    ):
        page.get_by_test_id("coach").click()
    advice = answer.value.json()
    legal = httpx.get(
        f"{server.url}/api/rooms/{room.code}/view", headers=bearer(token), timeout=15
    ).json()["legal_actions"]
    assert advice["action"] in legal, advice
    # The page marks that choice, and only elements offering it: a move's target on the
    # map by its destination (data-to), not every destination.
    coached = page.locator(".coached")
    expect(coached.first, f"the coach's choice {advice} is marked").to_be_attached(timeout=15_000)
    marks = coached.evaluate_all(
        "(els) => els.map((e) => ({type: e.dataset.type, to: e.dataset.to || null,"
        " command: e.dataset.command || null}))"
    )
    assert marks and all(m["type"] == advice["action"]["type"] for m in marks), marks
    if advice["action"]["type"] == "move":
        assert {m["to"] for m in marks} == {advice["action"]["to"]}, marks
    # The game menu's first opening brings the notices form (drawn in that opening).
    with page.expect_request(lambda r: "/static/js/notices" in r.url):
        page.get_by_test_id("game-menu").click()
    expect(page.locator("#game-menu")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert "lobby" not in asked and "replay" not in asked
    assert not problems, "\n".join(problems)


def test_the_coach_s_market_visit_is_set_up_in_the_market_panel_and_marked(
    server: ServerProcess, browser: Browser
) -> None:
    """A Karanor market visit has no button until the panel's steppers make it: when the
    coach chooses one, the panel opens with the steppers set to it and its button is the
    one marked (before, nothing was: a coach test failed whenever the hard bot chose the
    market). The coach's answer is the server's shape, with a market visit the seat may
    make, given by the test so that the case is met every run."""
    room = make_room(server.url, humans=2, options={"coach": True})
    token = past_the_draft(room)
    legal = httpx.get(
        f"{server.url}/api/rooms/{room.code}/view", headers=bearer(token), timeout=15
    ).json()["legal_actions"]
    visits = [a for a in legal if a["type"] == "market"]
    assert visits, "the seat to act may visit the market after the draft"
    visit = max(visits, key=lambda a: len(a.get("buy") or {}) + len(a.get("sell") or {}))
    problems: list[str] = []
    page, _ = opened(browser, f"{server.url}/r/{room.code}#token={token}", problems)
    expect(page.locator("[data-testid=legal-action]").first).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("market-panel")).not_to_have_attribute("open", "")
    answer = {"version": 0, "action": visit, "reason": "A market visit.", "offers": []}
    page.route("**/coach?*", lambda route: route.fulfill(json=answer))
    page.get_by_test_id("coach").click()
    coached = page.locator(".coached")
    expect(coached).to_have_count(1)
    expect(page.get_by_test_id("market-panel")).to_have_attribute("open", "")
    assert json.loads(coached.get_attribute("data-command") or "null") == visit
    for side in ("buy", "sell"):
        for good, n in (visit.get(side) or {}).items():
            expect(page.get_by_test_id(f"market-{side}-{good}")).to_have_text(str(n))
    assert not problems, "\n".join(problems)


def test_a_room_in_its_lobby_loads_the_lobby_and_plays_on(
    server: ServerProcess, browser: Browser
) -> None:
    room = make_room(server.url, humans=1, bots=1, start=False)
    problems: list[str] = []
    page, asked = opened(browser, f"{server.url}/r/{room.code}#token={room.tokens[0]}", problems)
    # The lobby, drawn from its module loaded before the first render: seats, Start.
    expect(page.locator("#lobby")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("seat")).to_have_count(2)
    assert "lobby" in asked and "options" in asked, asked
    # The game's own fields come with its lobby module: the end of the game chosen by
    # Karanor's select (the schema alone would give a number field).
    assert "games/karanor/lobby" in asked, asked
    expect(page.locator("#options-form select[name=end_prestige]")).to_be_visible()
    page.locator("#start-game").click()
    expect(page.locator("[data-testid=legal-action]").first).to_be_visible(timeout=15_000)
    expect(page.locator("#lobby")).to_be_hidden()
    assert "replay" not in asked and "coach" not in asked
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", ["karanor", "darkroad"])
def test_a_game_page_asks_once_for_its_game_s_code_and_content(
    server: ServerProcess, browser: Browser, game: str
) -> None:
    """The page names its game's module, style sheets and content (preloaded with the
    platform's modules): the scripts then use those answers, nothing is asked twice, and
    the board is drawn."""
    with httpx.Client(base_url=server.url, timeout=15) as http:
        made = http.post("/api/rooms", json={"name": "Ana", "game": game}).json()
        code, token = made["code"], made["seat"]["token"]
        http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).raise_for_status()
        http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(token)).raise_for_status()
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/", 3)[-1]))
    page.goto(f"{server.url}/r/{code}#token={token}")
    expect(page.locator("#game svg").first).to_be_visible(timeout=15_000)
    page.wait_for_load_state("networkidle")
    contents = [u for u in asked if u.startswith(f"api/games/{game}/content")]
    assert len(contents) == 1, contents
    index = [u for u in asked if u.startswith(f"static/js/games/{game}/index.")]
    assert len(index) == 1, index
    assert len(asked) == len(set(asked)), [u for u in asked if asked.count(u) > 1]
    assert not problems, "\n".join(problems)


def test_the_coach_on_a_phone_in_french_names_its_move(
    server: ServerProcess, browser: Browser
) -> None:
    """On a 390 px phone in French the coach's button and the menu's are their icons
    (their names read aloud, the coach's tip kept), as the Undo button is, so the turn
    banner keeps its room (it was cut to "Man…"); asked, the coach's line names
    the move it marks first (before, "Le coach ferait ceci" with the marked button a
    scroll away, under the chat bar), and the marked move is scrolled into the screen."""
    room = make_room(server.url, humans=2, options={"coach": True})
    token = past_the_draft(room)
    problems: list[str] = []
    context = browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    page = watch(context.new_page(), problems)
    page.goto(f"{server.url}/r/{room.code}#token={token}")
    expect(page.locator("[data-testid=legal-action]").first).to_be_attached(timeout=15_000)
    coach = page.get_by_test_id("coach")
    expect(coach).to_be_visible()
    expect(coach).to_have_accessible_name("Que feriez-vous ?")
    expect(coach).to_have_attribute("title", "Que feriez-vous ?")
    # A move that reveals nothing first: the Undo button joins the top bar too.
    page.locator("[data-testid=legal-action][data-type=work]").first.click()
    expect(page.get_by_test_id("undo")).to_be_visible(timeout=15_000)
    for button in (coach, page.get_by_test_id("undo"), page.get_by_test_id("game-menu")):
        box = button.bounding_box()
        assert box and box["width"] <= 60, box
    expect(page.get_by_test_id("game-menu")).to_have_accessible_name("Menu")
    banner = page.locator("#turn-banner").bounding_box()
    assert banner and banner["width"] >= 80, f"the turn banner squeezed to {banner}"
    with page.expect_response(lambda r: "/coach?" in r.url, timeout=60_000) as answer:
        coach.tap()
    assert answer.value.json()["action"] is not None
    # The tap acts: no tip left over the coach's answer ("Que feriez-vous ?" stayed).
    expect(page.locator("#tip-bubble")).to_be_hidden()
    marked = page.locator(".coached").first
    expect(marked).to_be_attached(timeout=15_000)
    name = marked.evaluate(
        "(e) => (e.getAttribute('aria-label') || e.textContent).replace(/\\s+/g, ' ').trim()"
    )
    said = page.locator("#toasts .toast", has_text="Le coach").first
    expect(said).to_contain_text(f"Le coach\u00a0: {name}.")
    # In the screen, clear of the top bar and of the chat bar at the bottom.
    top = page.locator(".topbar").bounding_box()
    chat = page.locator("#trade-panel").bounding_box()
    spot = marked.bounding_box()
    assert top and chat and spot, (top, chat, spot)
    middle = spot["y"] + spot["height"] / 2
    assert top["y"] + top["height"] <= middle <= chat["y"], (top, spot, chat)
    assert not problems, "\n".join(problems)
