"""Merchants of the Dark Road in the browser, on the real server and Debian's Chromium:
a caravan between two human browsers (the second joins and takes a travel die), goods
placed, rotated and rearranged on the storage grid with the mouse and with the keyboard,
and a phone start (home, lobby, table, the wagon sheet) with no sideways scrolling.

The whole game of one person against a bot by clicking legal actions is played in
tests/browser/test_darkroad_page.py (laptop and phone), with this file's checks of it
(every kind of step clicked, the bot's coins hidden, the end screen, the chart, the log).

Screenshots are kept in tests/browser/screenshots/ (not committed) and copied to
/tmp/karanor-screens.
"""

from __future__ import annotations

import random
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, PHONE, SHARED_SCREENS, launched, no_sideways_scroll, watch
from tests.helpers.server import ServerProcess
from tests.helpers.server import module_server as server_for_module

pytestmark = pytest.mark.slow

SCREENSHOTS = Path(__file__).parent / "screenshots"
LAPTOP = {"width": 1366, "height": 860}


def keep(page: Page, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    SHARED_SCREENS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    shutil.copy(path, SHARED_SCREENS / path.name)


# One kept-alive HTTP client for the tests' API calls (a new client per call costs more
# than the call itself on a loaded machine: a game through the API sends hundreds).
HTTP = httpx.Client(timeout=10)


class Api:
    """The HTTP API of one room, as one seat."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.base, self.code, self.token = base, code, token

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def view(self) -> dict[str, Any]:
        r = HTTP.get(f"{self.base}/api/rooms/{self.code}/view", headers=self.auth)
        r.raise_for_status()
        return r.json()

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        body = {"id": f"t{random.random()}", "command": command}
        r = HTTP.post(f"{self.base}/api/rooms/{self.code}/commands", json=body, headers=self.auth)
        assert r.status_code == 200, r.text
        return r.json()


def new_room(base: str, name: str = "Ann", options: dict[str, Any] | None = None) -> Api:
    body: dict[str, Any] = {"name": name, "game": "darkroad"}
    if options:
        body["options"] = options
    r = httpx.post(f"{base}/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return Api(base, r.json()["code"], r.json()["seat"]["token"])


def start(api: Api, bots: int = 0) -> None:
    for _ in range(bots):
        assert httpx.post(
            f"{api.base}/api/rooms/{api.code}/bots", json={}, headers=api.auth, timeout=10
        ).is_success
    r = httpx.post(f"{api.base}/api/rooms/{api.code}/start", json={}, headers=api.auth, timeout=10)
    assert r.status_code == 200, r.text


def open_seat(
    browser: Browser, api: Api, problems: list[str], viewport: dict[str, int] = LAPTOP, **extra: Any
) -> Page:
    page = watch(browser.new_context(viewport=viewport, **extra).new_page(), problems)
    page.goto(f"{api.base}/r/{api.code}#token={api.token}")
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    return page


def same_version(page: Page, view: dict[str, Any]) -> None:
    expect(page.get_by_test_id("version")).to_have_text(str(view["version"]), timeout=15_000)


def darkroad_hosted(base: str) -> None:
    games = httpx.get(f"{base}/api/games", timeout=10).json()["games"]
    if "darkroad" not in {g["id"] for g in games}:
        pytest.skip("this server does not host Merchants of the Dark Road")


def settle_by_api(
    api: Api, until: Callable[[dict[str, Any]], bool], limit: int = 60
) -> dict[str, Any]:
    """Answer this seat's choices with its first legal command until `until(view)`; while
    the game waits on the bot, poll until it has moved (at most 30 s)."""
    for _ in range(limit):
        view = api.view()
        deadline = time.monotonic() + 30
        while not until(view) and not view["legal_actions"] and time.monotonic() < deadline:
            time.sleep(0.05)  # the bot's move is a server-side event: polled over HTTP
            view = api.view()
        if until(view):
            return view
        assert view["legal_actions"], f"stuck: {view['turn']}"
        auto = [a for a in view["legal_actions"] if a["type"] == "place_good" and a["area"] is None]
        api.send(auto[0] if auto else view["legal_actions"][0])
    raise AssertionError("the position was not reached")


# --- one server and one Chromium per module ------------------------------------------------------
# Each test plays in rooms of its own, so the Dark Road's browser modules share a server
# (started once: seconds on a loaded CI machine) and a Chromium, each test in its own
# browser contexts, closed after it (no page of a finished test keeps rendering).


def module_server(env: dict[str, str]) -> Any:
    """A module-scoped `server` fixture: one real server with `env` for the module's tests
    (every room of a server with KARANOR_GAME_SEED deals the same game), Dark Road hosted."""
    return server_for_module(env, then=lambda process: darkroad_hosted(process.url))


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One headless Chromium for the module."""
    yield from launched()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The module's Chromium for one test; the contexts the test opened are closed after it."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()


server = module_server(FAST)


# --- a caravan between two people -------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_a_caravan_two_browsers_the_second_joins_and_takes_a_travel_die(
    server: ServerProcess, browser: Browser
) -> None:
    ann = new_room(server.url, options={"max_players": 2})
    problems: list[str] = []
    bo_page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    bo_page.goto(f"{server.url}/r/{ann.code}")
    bo_page.locator("#join-name").fill("Bo")
    bo_page.get_by_test_id("join-room").click()
    expect(bo_page.locator(".seat .tag.you")).to_have_count(1)
    r = httpx.post(
        f"{server.url}/api/rooms/{ann.code}/start", json={}, headers=ann.auth, timeout=10
    )
    assert r.status_code == 200, r.text
    expect(bo_page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    ann_page = open_seat(browser, ann, problems)
    # Setup: both store their starting good (Bo in his browser, by the one-click default).
    view = ann.view()
    while view["turn"]["pending"] and view["turn"]["pending"]["kind"] == "store":
        seat = view["turn"]["pending"]["seat"]
        if seat == 0:
            ann.send(next(a for a in view["legal_actions"] if a["type"] == "place_good"))
        else:
            same_version(bo_page, view)
            bo_page.locator("[data-testid=legal-action][data-type=place_good]").first.click()
            expect(bo_page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
        view = ann.view()
    # Ann bumps slot 3 (its die shows 3): from the start space, 3 spaces face Yurg's Excursions.
    view = settle_by_api(
        ann,
        lambda v: (
            v["turn"]["step"] == "plan" and v["turn"]["seat"] == 0 and not v["turn"]["pending"]
        ),
    )
    die = view["players"][0]["reserve"][0]
    ann.send({"type": "plan", "slot": 3, "die": die, "option": "coins"})
    view = settle_by_api(ann, lambda v: v["turn"]["step"] == "move" and not v["turn"]["pending"])
    same_version(ann_page, view)
    # The board previews the move: a target on the space facing the Dark Market and Yurg's.
    target = ann_page.locator(
        "[data-testid=board] [data-testid=legal-action][data-type=move]"
    ).first
    expect(target).to_have_attribute("aria-label", re.compile("Yurg's Excursions"))
    night = next(
        a
        for a in view["legal_actions"]
        if a["type"] == "move" and a["die"] == "night" and a["horseshoe"] == 0
    )
    ann.send(night)
    view = settle_by_api(
        ann, lambda v: v["turn"]["step"] == "activate" and not v["turn"]["pending"]
    )
    assert "excursions" in view["turn"]["activations"]
    same_version(ann_page, view)
    # Ann leads the caravan by clicking a town in the caravan builder.
    town_button = ann_page.locator("[data-testid=legal-action][data-type=caravan]").first
    expect(town_button).to_be_visible()
    town_button.click()
    # Bo is asked, with the shell's cue, and answers yes in his browser.
    expect(bo_page.get_by_test_id("dr-status")).to_contain_text("Join the caravan?", timeout=15_000)
    expect(bo_page).to_have_title(re.compile("Your turn"))
    expect(bo_page.locator(".dr-ask")).to_contain_text("Ann leads a caravan")
    keep(bo_page, "darkroad-join-laptop")
    bo_page.locator("[data-testid=legal-action][data-type=join][data-command*='true']").click()
    # The event and the dice, seen by both; Ann (the leader, dark road) takes first.
    for page in (ann_page, bo_page):
        expect(page.get_by_test_id("dr-caravan")).to_contain_text("event", timeout=15_000)
    bo_took = False
    for _ in range(40):
        view = ann.view()
        pend = view["turn"]["pending"]
        if not view["board"]["travel"] or view["board"]["travel"]["stage"] not in ("join", "dice"):
            break
        assert pend, view["turn"]
        page = ann_page if pend["seat"] == 0 else bo_page
        same_version(page, view)
        if pend["kind"] == "travel_die":
            if pend["seat"] == 1:
                keep(bo_page, "darkroad-travel-die-laptop")
                bo_took = True
            page.locator("[data-testid=legal-action][data-type=take_travel_die]").first.click()
        else:
            page.locator("[data-testid=legal-action]:visible").first.click()
        expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    assert bo_took, "Bo took a travel die in his browser"
    # Both pages say who took which die.
    for page, bo_is in ((ann_page, "Bo took the"), (bo_page, "You took the")):
        expect(page.locator(".dr-picks li")).to_have_count(2, timeout=15_000)
        expect(page.locator(".dr-picks")).to_contain_text(bo_is)
    keep(ann_page, "darkroad-caravan-laptop", full_page=True)
    # A reload mid-caravan reads the joins and picks again from the log.
    ann_page.reload()
    expect(ann_page.locator(".dr-picks li")).to_have_count(2, timeout=15_000)
    expect(ann_page.locator(".dr-joins")).to_contain_text("Bo: joins")
    # The rest of the caravan (visits, deliveries, the leader's good fortune) in the browsers.
    for _ in range(40):
        view = ann.view()
        if not view["board"]["travel"]:
            break
        pend = view["turn"]["pending"]
        page = ann_page if pend["seat"] == 0 else bo_page
        same_version(page, view)
        page.locator("[data-testid=legal-action]:visible").first.click()
        expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    assert not ann.view()["board"]["travel"]
    expect(bo_page.get_by_test_id("dr-caravan")).to_contain_text("The last caravan")
    assert not problems, "\n".join(problems)


# --- the storage grid ----------------------------------------------------------------------------

ROTATABLE = {"weapon", "staff", "book", "instrument"}


def cells(shapes: dict[str, Any], good: str, o: int) -> list[tuple[int, int]]:
    return [(int(c[0]), int(c[1])) for c in shapes[good][o]]


def fits(
    shapes: dict[str, Any],
    pieces: list[dict[str, Any]],
    moving: int,
    good: str,
    x: int,
    y: int,
    o: int,
) -> bool:
    taken = {
        (q["x"] + a, q["y"] + b)
        for q in pieces
        if q["id"] != moving and q["area"] == "main"
        for a, b in cells(shapes, q["good"], q["o"])
    }
    return all(
        0 <= x + a < 5 and 0 <= y + b < 4 and (x + a, y + b) not in taken
        for a, b in cells(shapes, good, o)
    )


def cell(page: Page, x: int, y: int, area: str = "main") -> Any:
    return page.locator(
        f"[data-testid=storage-cell][data-area='{area}'][data-x='{x}'][data-y='{y}']"
    )


def _piece_point(page: Page, piece: int, under: Any) -> tuple[Any, dict[str, float]]:
    """The stored good's node and the point, relative to it, over the cell `under`.

    A shape's own box may be mostly empty cells (an L), so the good is clicked on one of
    its cells; through the locator, Playwright scrolls it into view, waits until it is
    stable and checks nothing covers that point (a bare mouse click at coordinates taken
    earlier missed when the page moved in between)."""
    node = page.locator(f".dr-piece[data-piece='{piece}']")
    node.scroll_into_view_if_needed()
    box, at = node.bounding_box(), under.bounding_box()
    assert box and at
    return node, {
        "x": at["x"] - box["x"] + at["width"] / 2,
        "y": at["y"] - box["y"] + at["height"] / 2,
    }


def click_piece(page: Page, piece: int, under: Any) -> None:
    node, point = _piece_point(page, piece, under)
    node.click(position=point)


def hover_piece(page: Page, piece: int, under: Any) -> None:
    node, point = _piece_point(page, piece, under)
    node.hover(position=point)


@pytest.mark.timeout(300)
def test_goods_placed_rotated_and_rearranged_with_mouse_and_keyboard(
    server: ServerProcess, browser: Browser
) -> None:
    shapes = httpx.get(f"{server.url}/api/games/darkroad/content", timeout=10).json()["shapes"]
    api = new_room(server.url, options={"max_players": 1})
    start(api)
    problems: list[str] = []
    page = open_seat(browser, api, problems)
    view = api.view()
    assert view["private"]["pending"]["kind"] == "store"
    same_version(page, view)
    grid = page.get_by_test_id("wagon").locator("svg.dr-grid")
    grid.scroll_into_view_if_needed()
    # 1. The mouse places the new good: the cell clicked holds the shape's first cell.
    good = view["players"][0]["incoming"][0]["good"]
    spot = next(
        a
        for a in view["legal_actions"]
        if a["type"] == "place_good"
        and a["area"] == "main"
        and a["o"] == 0
        and (a["x"], a["y"]) == (1, 1)
    )
    a0, b0 = cells(shapes, good, 0)[0]
    cell(page, spot["x"] + a0, spot["y"] + b0).hover()
    expect(page.locator(".dr-ghost.ok")).to_have_count(1)
    cell(page, spot["x"] + a0, spot["y"] + b0).click()
    same_version(page, view := api.view())
    piece = view["players"][0]["pieces"][0]
    assert (piece["area"], piece["x"], piece["y"], piece["o"]) == ("main", 1, 1, 0)
    keep(page, "darkroad-storage-placed-laptop")
    # 2. A rotatable good (crafted on locked slot 1), rotated with the button, placed by mouse.
    crafting = {
        int(k): v
        for k, v in httpx.get(f"{server.url}/api/games/darkroad/content", timeout=10)
        .json()["board"]["crafting"]
        .items()
    }
    for _ in range(4):
        view = settle_by_api(
            api, lambda v: v["turn"]["step"] == "plan" and not v["turn"]["pending"]
        )
        dice = view["players"][0]["reserve"]
        good_die = next((d for d in dice if crafting[d] in ROTATABLE), None)
        api.send(
            {
                "type": "plan",
                "slot": 1,
                "die": good_die if good_die is not None else dice[0],
                "option": None,
            }
        )
        if good_die is not None:
            break
        settle_by_api(api, lambda v: v["turn"]["step"] == "move" and not v["turn"]["pending"])
        settle_by_api(
            api, lambda v: v["turn"]["step"] == "plan" and not v["turn"]["pending"], limit=12
        )
    view = api.view()
    new = view["players"][0]["incoming"][0]["good"]
    assert new in ROTATABLE, "a rotatable good to place"
    same_version(page, view)
    page.get_by_test_id("rotate-good").click()
    target = next(
        a
        for a in view["legal_actions"]
        if a["type"] == "place_good" and a["o"] == 1 and a["area"] == "main"
    )
    c0 = cells(shapes, new, 1)[0]
    cell(page, target["x"] + c0[0], target["y"] + c0[1]).click()
    same_version(page, view := api.view())
    rotated = next(
        q for q in view["players"][0]["pieces"] if q["good"] == new and q["id"] != piece["id"]
    )
    assert (rotated["x"], rotated["y"], rotated["o"]) == (target["x"], target["y"], 1)
    keep(page, "darkroad-storage-rotated-laptop")
    # 3. Rearranging with the mouse: click a stored good, then a free cell (our move step).
    view = settle_by_api(api, lambda v: v["turn"]["seat"] == 0 and not v["turn"]["pending"])
    same_version(page, view)
    pieces = view["players"][0]["pieces"]
    q = pieces[0]
    dest = next(
        (x, y)
        for y in range(4)
        for x in range(5)
        if (x, y) != (q["x"], q["y"]) and fits(shapes, pieces, q["id"], q["good"], x, y, q["o"])
    )
    qa, qb = cells(shapes, q["good"], q["o"])[0]
    expect(page.locator(f".dr-piece.movable[data-piece='{q['id']}']")).to_have_count(1)
    click_piece(page, q["id"], cell(page, q["x"] + qa, q["y"] + qb))
    expect(page.locator(f".dr-piece.selected[data-piece='{q['id']}']")).to_have_count(1)
    cell(page, dest[0] + qa, dest[1] + qb).click()
    expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    view = api.view()
    moved = next(p for p in view["players"][0]["pieces"] if p["id"] == q["id"])
    assert (moved["x"], moved["y"]) == dest
    # 4. The keyboard: Enter picks up the first good, R rotates, arrows move it, Enter places.
    same_version(page, view)
    pieces = view["players"][0]["pieces"]
    q = pieces[0]
    turn = q["good"] in ROTATABLE
    o = (q["o"] + 1) % len(shapes[q["good"]]) if turn else q["o"]
    cursor = (
        q["x"] + cells(shapes, q["good"], q["o"])[0][0],
        q["y"] + cells(shapes, q["good"], q["o"])[0][1],
    )
    keys: list[str] | None = None
    first = cells(shapes, q["good"], o)[0]
    for cx in range(5):
        for cy in range(4):
            x, y = cx - first[0], cy - first[1]
            if (x, y, o) != (q["x"], q["y"], q["o"]) and fits(
                shapes, pieces, q["id"], q["good"], x, y, o
            ):
                dx, dy = cx - cursor[0], cy - cursor[1]
                keys = (["ArrowRight"] * dx if dx > 0 else ["ArrowLeft"] * -dx) + (
                    ["ArrowDown"] * dy if dy > 0 else ["ArrowUp"] * -dy
                )
                target_xy = (x, y)
                break
        if keys is not None:
            break
    assert keys is not None, "somewhere to move the good"
    grid.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f".dr-piece.selected[data-piece='{q['id']}']")).to_have_count(1)
    if turn:
        page.keyboard.press("r")
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator(".dr-ghost.ok")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    view = api.view()
    moved = next(p for p in view["players"][0]["pieces"] if p["id"] == q["id"])
    assert (moved["x"], moved["y"], moved["o"]) == (*target_xy, o)
    # 5. Dragging a good to a free cell rearranges too.
    same_version(page, view)
    pieces = view["players"][0]["pieces"]
    q = pieces[-1]
    qa, qb = cells(shapes, q["good"], q["o"])[0]
    drop = next(
        (
            (x, y)
            for y in range(4)
            for x in range(5)
            if (x, y) != (q["x"], q["y"]) and fits(shapes, pieces, q["id"], q["good"], x, y, q["o"])
        ),
        None,
    )
    if drop is not None:
        page.get_by_test_id("wagon").locator("svg.dr-grid").scroll_into_view_if_needed()
        # The good is hovered through its locator (scrolled, stable, not covered) first.
        hover_piece(page, q["id"], cell(page, q["x"] + qa, q["y"] + qb))
        box = cell(page, q["x"] + qa, q["y"] + qb).bounding_box()
        end = cell(page, drop[0] + qa, drop[1] + qb).bounding_box()
        assert box and end
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=6)
        page.mouse.up()
        expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
        moved = next(p for p in api.view()["players"][0]["pieces"] if p["id"] == q["id"])
        assert (moved["x"], moved["y"]) == drop
    keep(page, "darkroad-storage-keyboard-laptop")
    assert not problems, "\n".join(problems)


# --- a phone ---------------------------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_phone_home_lobby_and_start_without_sideways_scrolling(
    server: ServerProcess, browser: Browser
) -> None:
    problems: list[str] = []
    page = watch(
        browser.new_context(
            viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True
        ).new_page(),
        problems,
    )
    page.goto(server.url + "/")
    page.locator("[data-testid=game-choice][value=darkroad]").check()
    page.get_by_test_id("name-input").fill("Ann")
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/**")
    form = page.get_by_test_id("room-options")
    expect(page.get_by_test_id("room-game")).to_contain_text("Merchants of the Dark Road")
    expect(form).to_contain_text("Buildings")
    expect(form).to_contain_text("Drafting variant")
    page.locator("#add-bot").click()
    expect(page.get_by_test_id("seat")).to_have_count(2)
    keep(page, "darkroad-lobby-phone", full_page=True)
    no_sideways_scroll(page, PHONE["width"])
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    store = page.locator("[data-testid=legal-action][data-type=place_good]:visible").first
    expect(store).to_be_visible()
    keep(page, "darkroad-start-phone")
    no_sideways_scroll(page, PHONE["width"])
    # The wagon opens as its own sheet; its grid fits the width.
    page.get_by_test_id("wagon-toggle").tap()
    expect(page.get_by_test_id("wagon")).to_be_visible()
    grid = page.get_by_test_id("wagon").locator("svg.dr-grid").bounding_box()
    assert grid and grid["x"] >= 0 and grid["x"] + grid["width"] <= PHONE["width"]
    keep(page, "darkroad-wagon-phone")
    no_sideways_scroll(page, PHONE["width"])
    page.get_by_test_id("wagon").locator(
        "[data-testid=legal-action][data-type=place_good]"
    ).first.tap()
    expect(page.get_by_test_id("wagon").get_by_test_id("stored-good")).to_have_count(
        1, timeout=15_000
    )
    # The sheet's own bar closes it (the button that opened it is under the sheet).
    page.get_by_test_id("wagon-close").tap()
    expect(page.get_by_test_id("wagon")).to_be_hidden()
    # The board pans and zooms (buttons here; pinch and drag move the same viewBox).
    svg = page.get_by_test_id("board").locator("svg").first
    before = svg.get_attribute("viewBox")
    page.get_by_label("Zoom in").tap()
    assert svg.get_attribute("viewBox") != before
    keep(page, "darkroad-zoomed-phone")
    no_sideways_scroll(page, PHONE["width"])
    assert not problems, "\n".join(problems)
