"""Three browsers play one room on the real server: create, join by link, start,
act by clicking, reload mid-game, chat, accept an offer, and reach the end screen.

Screenshots go to tmp_path/screens and are copied to /tmp/karanor-screens.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, LAPTOP, PHONE, no_sideways_scroll, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

# The test's HTTP calls name their seat (Bearer): one client, no cookies kept (a client
# per call builds a TLS context each time).
HTTP = httpx.Client(timeout=10, cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])))
MODAL_TYPES = {"draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"}


class Seat:
    """One player's browser page plus its token for HTTP shortcuts."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        self.token = ""

    def view(self, base: str, code: str) -> dict[str, Any]:
        r = HTTP.get(f"{base}/api/rooms/{code}/view", headers=self.auth)
        r.raise_for_status()
        return r.json()

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def version_everywhere(seats: list[Seat], version: int) -> None:
    for seat in seats:
        expect(seat.page.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)


def who_acts(view: dict[str, Any]) -> int | None:
    """The seat the game waits for (several in the draft: any undrafted one)."""
    turn = view["turn"] or {}
    if view["status"] != "playing":
        return None
    if turn.get("pending"):
        return turn["pending"]["seat"]
    if turn.get("phase") == "draft":
        drafted = turn.get("drafted") or []
        return next((i for i, done in enumerate(drafted) if not done), None)
    return turn["seat"]


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A simple player: the first rewarding action, else a useful move, else end."""
    legal = [a for a in view["legal_actions"] if a["type"] not in ("play_black_market",)]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for kind in (
        *sorted(MODAL_TYPES),
        "complete_quest",
        "deliver",
        "buy_villa",
        "build",
        "interact",
        "harvest",
        "recruit_partner",
    ):
        if by_type.get(kind):
            return rng.choice(by_type[kind])
    moves = by_type.get("move", [])
    if moves and view["turn"]["actions_left"] > 1:
        me = view["players"][view["seat"]]
        mine = {b["city"] for b in me["businesses"]}
        inhabitants = view["board"]["inhabitants"]

        def score(m: dict[str, Any]) -> float:
            to = m["to"]
            s = rng.random()
            if view["private"]["business_cards"] and to in CITIES and to not in mine:
                s += 5
            if to in VILLAS and to not in owned(view) and me["gold"] >= 8:
                s += 4
            if to in inhabitants:
                s += 3
            return s

        return max(moves, key=score)
    if by_type.get("work"):
        return by_type["work"][0]
    return by_type.get("end_turn", legal)[0]


CITIES: set[str] = set()
VILLAS: dict[str, str] = {}  # territory -> villa id


def owned(view: dict[str, Any]) -> set[str]:
    return {t for t, v in VILLAS.items() if v in view["board"]["villas"]}


def click_territory(page: Page, territory: str) -> None:
    """Tap the highlighted territory at its centre point, as a player would. Through the
    locator, so Playwright scrolls it into view and waits until nothing (a notice, the
    action bar) covers that point: a raw mouse click there could land on something else."""
    target = page.locator(f'.move-target[data-to="{territory}"]').first
    target.scroll_into_view_if_needed()
    offset = page.evaluate(
        """(id) => {
          const poly = document.querySelector(`.move-target[data-to="${id}"]`);
          const svg = poly.ownerSVGElement;
          const c = window.__karanorCenters[id];
          const pt = svg.createSVGPoint(); pt.x = c[0]; pt.y = c[1];
          const p = pt.matrixTransform(svg.getScreenCTM());
          const box = poly.getBoundingClientRect();
          return [p.x - box.left, p.y - box.top];
        }""",
        territory,
    )
    target.click(position={"x": offset[0], "y": offset[1]})


def test_three_browsers_play_a_game(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    # A set seed (KARANOR_GAME_SEED) with the seeded moves below: the same game every
    # run, so whatever a page shows (the end screen's names, a phone's widths) can be
    # seen again when a run fails. With the server's random seed this test was luck:
    # in some deals the simple moves below wander for ever once every seat has 1
    # prestige (seed 5: no end in 1,500 commands), in others the territory to click
    # lies under the "while you were away" notice (seed 22).
    server = server_factory(env={**FAST, "KARANOR_GAME_SEED": "10"}).start()
    base = server.url
    content = httpx.get(f"{base}/api/content", timeout=10).json()
    CITIES.update(content["map"]["cities"])
    VILLAS.update(
        {t["id"]: t["villa"]["id"] for t in content["map"]["territories"] if t.get("villa")}
    )
    centers = {t["id"]: t["center"] for t in content["map"]["territories"]}
    problems: list[str] = []
    rng = random.Random(5)

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    laptops = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    seats = [
        Seat(watch(ctx.new_page(), problems), name)
        for ctx, name in zip([phone, *laptops], ["Ana", "Bo", "Chen"], strict=True)
    ]
    ana, bo, chen = seats
    for seat in seats:
        seat.page.add_init_script(f"window.__karanorCenters = {centers!r};".replace("'", '"'))

    # --- create, join by link ------------------------------------------------------
    ana.page.goto(base + "/")
    ana.page.get_by_test_id("name-input").fill("Ana")
    ana.page.get_by_test_id("create-room").click()
    ana.page.wait_for_url("**/r/**")
    expect(ana.page.get_by_test_id("seat")).to_have_count(1)
    link = ana.page.locator("#room-link").input_value()
    code = link.rsplit("/", 1)[1]
    for seat in (bo, chen):
        seat.page.goto(link)
        expect(seat.page.get_by_test_id("join-room")).to_be_visible()
        seat.page.locator("#join-name").fill(seat.name)
        seat.page.get_by_test_id("join-room").click()
        expect(seat.page.locator(".seat .tag.you")).to_have_count(1)
    for seat in seats:
        expect(seat.page.get_by_test_id("seat")).to_have_count(3)
        seat.token = seat.page.evaluate(f"sessionStorage.getItem('karanor:token:{code}')")
        assert seat.token, f"{seat.name} has no token"
    expect(bo.page.get_by_test_id("start-game")).to_be_hidden()
    expect(ana.page.locator("#resume-link")).to_have_value(f"{base}/r/{code}#token={ana.token}")

    # Each change is saved at once (PUT /options): wait for the server's answers.
    for name, value in (("end_prestige", "2"), ("start_seat", "0")):
        with ana.page.expect_response(
            lambda r: r.url.endswith("/options") and r.request.method == "PUT"
        ) as saved:
            ana.page.select_option(f"select[name={name}]", value)
        assert saved.value.ok, saved.value.text()
    # The others see the host's options, read-only.
    expect(bo.page.locator("select[name=end_prestige]")).to_have_value("2")
    expect(bo.page.locator("select[name=end_prestige]")).to_be_disabled()
    screens(ana.page, "lobby-phone", full_page=True)
    ana.page.get_by_test_id("start-game").click()

    # --- the draft: every player picks in the modal --------------------------------
    version = ana.view(base, code)["version"]
    for _ in range(2):
        for seat in seats:
            # Every page at the same version first: a pick read off a page that has not
            # seen the last one yet would wait for a version that is skipped.
            version_everywhere(seats, version)
            button = seat.page.locator("#modal[open] [data-testid=legal-action]").first
            expect(button).to_be_visible(timeout=10_000)
            if seat is ana:
                screens(ana.page, "draft-phone")
            button.click()
            version += 1
    assert ana.view(base, code)["version"] == version
    version_everywhere(seats, version)
    for seat in seats:
        expect(seat.page.locator("#modal[open]")).to_have_count(0)

    # --- several actions by clicking, every page following --------------------------
    clicked = 0
    for _ in range(40):
        if clicked >= 6:
            break
        view = ana.view(base, code)
        actor = who_acts(view)
        if actor is None:
            break
        seat = seats[actor]
        mine = seat.view(base, code)
        modal = [a for a in mine["legal_actions"] if a["type"] in MODAL_TYPES]
        page = seat.page
        if modal:
            page.locator("#modal[open] [data-testid=legal-action]").first.click()
        else:
            cmd = pick(mine, rng)
            if cmd["type"] == "move":
                click_territory(page, cmd["to"])
            else:
                target = page.locator(f"[data-testid=legal-action][data-type={cmd['type']}]").first
                target.scroll_into_view_if_needed()
                target.click()
        version += 1
        version_everywhere(seats, version)
        clicked += 1
    assert clicked >= 4, "too few actions were played by clicking"

    expect(ana.page.get_by_test_id("board").locator("svg")).to_be_visible()
    screens(ana.page, "board-phone")
    screens(ana.page, "game-phone-full", full_page=True)
    screens(bo.page, "board-laptop")

    # --- chat and a trade offer accepted in the page --------------------------------
    bo.page.get_by_test_id("chat-input").fill("<b>hello</b> from Bo")
    bo.page.get_by_test_id("chat-send").click()
    for seat in seats:
        expect(seat.page.get_by_test_id("chat-message").last).to_contain_text(
            "<b>hello</b> from Bo"
        )
    offer = {"type": "offer", "to": None, "give": {"gold": 1}, "want": {}, "note": "a gift"}
    r = httpx.post(
        f"{base}/api/rooms/{code}/commands",
        headers=chen.auth,
        json={"id": f"gift-{rng.random()}", "command": offer},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    version_everywhere(seats, version)
    expect(ana.page.get_by_test_id("offer")).to_have_count(1)
    ana.page.get_by_test_id("offer-accept").click()
    version += 1
    version_everywhere(seats, version)

    # --- reload mid-game: the same seat comes back ----------------------------------
    bo.page.reload()
    expect(bo.page.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)
    expect(bo.page.locator(".player.me .player-name")).to_have_text("Bo")

    # --- play the rest through the HTTP API ------------------------------------------
    # Bo's page follows every version to the end screen; Ana's and Chen's leave, and Ana's
    # phone comes back once it is over (each page draws every version, the map, the log,
    # a move's glide: three pages catching up on a game were most of this test's time;
    # Chen's laptop end screen would be Bo's again).
    for seat in (ana, chen):
        seat.page.goto("about:blank")
    for _ in range(1500):
        view = ana.view(base, code)
        actor = who_acts(view)
        if actor is None:
            break
        mine = seats[actor].view(base, code)
        cmd = pick(mine, rng)
        r = HTTP.post(
            f"{base}/api/rooms/{code}/commands",
            headers=seats[actor].auth,
            json={"id": f"c{mine['version']}-{actor}", "command": cmd},
        )
        assert r.status_code == 200, r.text
    final = ana.view(base, code)
    assert final["status"] == "finished", "the game did not end"

    # The HTTP commands above outrun the page: it renders every version (the map, the
    # log, a move's glide) at its own pace and may be tens of versions behind when the
    # game ends (seen: 20 behind, catching up at 3-10 a second on a loaded machine), so
    # the end screen comes when the page has caught up. Ana opens hers again.
    ana.page.goto(f"{base}/r/{code}#token={ana.token}")
    for seat in (ana, bo):
        expect(seat.page.locator("#endgame")).to_be_visible(timeout=60_000)
        expect(seat.page.get_by_test_id("version")).to_have_text(str(final["version"]))
        expect(seat.page.locator("#endgame .chart polyline")).to_have_count(3)
    winners = final["result"]["winners"]
    winner_name = seats[winners[0]].name
    expect(bo.page.locator("#endgame .winner")).to_contain_text(
        "You" if winners[0] == 1 else winner_name
    )
    ana.page.locator("#endgame").scroll_into_view_if_needed()
    screens(ana.page, "end-phone")
    screens(bo.page, "end-laptop")
    screens(bo.page, "end-laptop-full", full_page=True)

    # --- phone layout: no sideways scrolling ------------------------------------------
    no_sideways_scroll(ana.page, PHONE["width"])
    assert not problems, "\n".join(problems)
