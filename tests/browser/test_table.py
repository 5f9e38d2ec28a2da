"""The table around the game, in Chromium on the real server (issue 16): a dropout
replaced by a bot and handed back, the turn timer set in the lobby and counted down in
the game, the game menu's resume link with its QR code, the turn cues; attacks against
you as a notice, moves animated and the last action highlighted, "while you were away";
the end screen with the prestige breakdown, Play again and Join the rematch; Karanor's
page items (actions in reach on a laptop, "+1 action", the market panel, public quests,
the Work label, visitors' chat, the lobby's fixes).

Screenshots are kept in tests/browser/screenshots/ (not committed) and copied to
/tmp/karanor-screens.
"""

from __future__ import annotations

import random
import re
import shutil
import uuid
import weakref
from collections.abc import Callable
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, PHONE, SHARED_SCREENS, no_sideways_scroll, wait_js, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

SCREENSHOTS = Path(__file__).parent / "screenshots"
LAPTOP = {"width": 1280, "height": 800}
MODAL_TYPES = {"draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"}


def keep(page: Page, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    SHARED_SCREENS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    shutil.copy(path, SHARED_SCREENS / path.name)


class Api:
    """HTTP shortcuts for seats the test plays without a page."""

    def __init__(self, base: str) -> None:
        self.base = base
        # One client for the test's calls (a client per call built a TLS context each
        # time: most of the test process's CPU in a long game). It keeps no cookie: every
        # call names its seat, as a client per call did.
        no_cookies = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
        self.http = httpx.Client(timeout=10, cookies=no_cookies)
        weakref.finalize(self, self.http.close)

    def room(self, code: str) -> dict[str, Any]:
        return self.http.get(f"{self.base}/api/rooms/{code}").json()

    def join(self, code: str, name: str) -> str:
        r = self.http.post(f"{self.base}/api/rooms/{code}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        return r.json()["seat"]["token"]

    def view(self, code: str, token: str) -> dict[str, Any]:
        r = self.http.get(
            f"{self.base}/api/rooms/{code}/view", headers={"Authorization": f"Bearer {token}"}
        )
        r.raise_for_status()
        return r.json()

    def send(self, code: str, token: str, cmd: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(
            f"{self.base}/api/rooms/{code}/commands",
            headers={"Authorization": f"Bearer {token}"},
            json={"id": str(uuid.uuid4()), "command": cmd},
        )
        assert r.status_code == 200, r.text
        return r.json()

    def log(self, code: str, token: str, version: int) -> list[dict[str, Any]]:
        """The events of `version` as `token`'s seat reads them."""
        r = self.http.get(
            f"{self.base}/api/rooms/{code}/log",
            params={"after": version - 1, "limit": 1},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        return [e for entry in r.json()["entries"] for e in entry["events"]]

    def host_call(self, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
        return self.http.request(
            method, f"{self.base}{path}", headers={"Authorization": f"Bearer {token}"}, json=body
        )


def create_room(page: Page, base: str, name: str) -> str:
    page.goto(base + "/")
    # The page's script is ready once it has listed the games.
    expect(page.get_by_test_id("game-choice").first).to_be_visible()
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/**", wait_until="commit")
    expect(page.get_by_test_id("seat")).to_have_count(1)
    return page.url.rsplit("/", 1)[1]


def join_room(page: Page, base: str, code: str, name: str) -> None:
    page.goto(f"{base}/r/{code}")
    expect(page.get_by_test_id("join-room")).to_be_visible()
    page.locator("#join-name").fill(name)
    page.get_by_test_id("join-room").click()
    expect(page.locator(".seat .tag.you")).to_have_count(1)


def token_of(page: Page, code: str) -> str:
    token = page.evaluate(f"sessionStorage.getItem('karanor:token:{code}')")
    assert token
    return str(token)


def pick(view: dict[str, Any], rng: random.Random, avoid: tuple[str, ...] = ()) -> dict[str, Any]:
    """A simple player: a pending choice, then something rewarding, else a move, else end."""
    legal = [a for a in view["legal_actions"] if a["type"] not in ("play_black_market", *avoid)]
    by: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
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
        if by.get(kind):
            return rng.choice(by[kind])
    if by.get("move") and view["turn"]["actions_left"] > 1:
        return rng.choice(by["move"])
    if by.get("work"):
        return by["work"][0]
    return by.get("end_turn", legal)[0]


def who_acts(view: dict[str, Any]) -> list[int]:
    return list(view.get("to_act") or [])


# --- 1. a dropout, the timer, the game menu ----------------------------------------------


def page_follows(page: Page, version: int) -> None:
    """The page shows `version` or a later one (bots keep playing: a fixed value races)."""
    wait_js(
        page,
        "v => Number(document.querySelector('[data-testid=version]').textContent) >= v",
        version,
        timeout=30_000,
    )


def test_dropout_bot_timer_and_menu(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env=FAST).start()
    base = server.url
    api = Api(base)
    problems: list[str] = []
    ana_ctx = browser.new_context(viewport=LAPTOP)
    bo_ctx = browser.new_context(viewport=LAPTOP)
    ana = watch(ana_ctx.new_page(), problems)
    bo = watch(bo_ctx.new_page(), problems)

    code = create_room(ana, base, "Ana")
    # A loopback address: friends cannot open it; the lobby says so.
    expect(ana.get_by_test_id("loopback-warning")).to_be_visible()
    expect(ana.get_by_test_id("loopback-warning")).to_contain_text("Friends cannot open this link")
    join_room(bo, base, code, "Bo")
    ana_token = token_of(ana, code)
    # The room link as a QR code, for friends' phones.
    ana.locator("#room-qr-box summary").click()
    wait_js(ana, "document.querySelector('[data-testid=room-qr]').naturalWidth > 0")

    # --- the timer in the lobby: "X hours a turn" and a reserve ----------------------------
    with ana.expect_response(lambda r: r.url.endswith("/timer") and r.request.method == "PUT"):
        ana.get_by_test_id("timer-turn").select_option("hours")
    ana.get_by_test_id("timer-hours").fill("3")
    with ana.expect_response(lambda r: r.url.endswith("/timer") and r.request.method == "PUT"):
        ana.get_by_test_id("timer-hours").dispatch_event("change")
    with ana.expect_response(lambda r: r.url.endswith("/timer") and r.request.method == "PUT"):
        ana.get_by_test_id("timer-reserve").select_option("300")
    timer = api.room(code)["timer"]
    assert timer["turn_seconds"] == 3 * 3600 and timer["reserve_seconds"] == 300, timer
    # The guest sees the options and the timer, read-only.
    expect(bo.locator("select[name=end_prestige]")).to_be_visible()
    expect(bo.locator("select[name=end_prestige]")).to_be_disabled()
    bo.reload()
    expect(bo.get_by_test_id("timer-words").first).to_contain_text("3 hours a turn")
    expect(bo.get_by_test_id("timer-turn").first).to_be_hidden()

    # The 2-player market is ticked for two seats, not for three.
    market = ana.locator("input[name=two_player_market]")
    expect(market).to_be_checked()
    ana.locator("#add-bot").click()
    expect(ana.get_by_test_id("seat")).to_have_count(3)
    expect(market).not_to_be_checked()
    expect(market).to_be_disabled()
    ana.get_by_test_id("start-game").click()

    # --- the draft: nobody is tagged "playing" ------------------------------------------
    for page in (ana, bo):
        expect(page.locator("#modal[open] [data-testid=legal-action]").first).to_be_visible(
            timeout=10_000
        )
        expect(page.locator(".player .turn-tag")).to_have_count(0)
    for _ in range(2):
        for page in (ana, bo):
            button = page.locator("#modal[open] [data-testid=legal-action]").first
            expect(button).to_be_visible(timeout=10_000)
            before = int(page.get_by_test_id("version").inner_text())
            button.click()
            expect(page.get_by_test_id("version")).not_to_have_text(str(before))
    expect(ana.locator(".player .turn-tag")).to_have_count(1, timeout=10_000)

    # --- a countdown for the seat the game waits for -----------------------------------
    expect(ana.get_by_test_id("turn-clock")).to_be_visible(timeout=10_000)
    expect(ana.get_by_test_id("turn-clock")).to_contain_text(" h ")
    expect(ana.locator(".player [data-testid=countdown]")).to_have_count(1)

    # --- the game menu: the resume link and its QR code; the sound cue -------------------
    ana.get_by_test_id("game-menu").click()
    link = ana.get_by_test_id("resume-link")
    expect(link).to_be_visible()
    assert link.get_attribute("href") == f"{base}/r/{code}#token={ana_token}"
    qr = ana.get_by_test_id("resume-qr")
    expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    wait_js(ana, "document.querySelector('[data-testid=resume-qr]').naturalWidth > 0")
    # The host's timer, in the game too.
    expect(ana.locator("#game-menu [data-testid=timer-turn]")).to_have_value("hours")
    expect(ana.get_by_test_id("cue-sound")).not_to_be_checked()  # off by default
    ana.get_by_test_id("cue-sound").check()
    wait_js(ana, "window.__karanorCues.played >= 1")
    keep(ana, "table-menu-resume-qr")
    ana.locator("#menu-close").click()

    # --- Bo drops out: the host lets a bot play his seat ---------------------------------
    bo.close()
    bo_panel = ana.locator(".player[data-seat='1']")
    replace = bo_panel.get_by_test_id("replace-with-bot")
    expect(replace).to_be_visible(timeout=10_000)
    expect(ana.get_by_test_id("replace-with-bot")).to_have_count(1)  # only on the absent one
    replace.click()
    expect(bo_panel.get_by_test_id("seat-replaced")).to_be_visible()
    expect(bo_panel.get_by_test_id("hand-back")).to_be_visible()
    assert api.room(code)["seats"][1]["replaced"] is True
    since = api.view(code, ana_token)["version"]
    # The game goes on: Ana plays her turns until the bot has played for Bo.
    rng = random.Random(3)
    played_by_bot = False
    for _ in range(200):
        view = api.view(code, ana_token)
        log = httpx.get(f"{base}/api/rooms/{code}/log?after={since}", timeout=10).json()
        if any(e["seat"] == 1 for e in log["entries"]):
            played_by_bot = True
            break
        if 0 in who_acts(view):
            api.send(code, ana_token, pick(view, rng))
        else:  # the bots' move: the page follows
            expect(ana.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    assert played_by_bot, "the bot did not play Bo's seat"
    # The page follows (the bots may already be further: at least this version).
    page_follows(ana, api.view(code, ana_token)["version"])
    ana.evaluate(
        "document.querySelector(\".player[data-seat='1']\").scrollIntoView({block: 'center'})"
    )
    keep(ana, "table-dropout-replaced-by-bot")
    # Bo shows away (a bot plays for him); End turn stays in sight, the page scrolled.
    expect(bo_panel.locator(".presence.off")).to_have_count(1)
    if 0 in who_acts(api.view(code, ana_token)):
        expect(ana.locator("[data-testid=legal-action][data-type=end_turn]")).to_be_in_viewport(
            ratio=1
        )

    # The host hands the seat back (Bo is still away: the button comes back), then lets
    # the bot play it again until Bo returns.
    bo_panel.get_by_test_id("hand-back").click()
    expect(bo_panel.get_by_test_id("seat-replaced")).to_have_count(0)
    expect(bo_panel.get_by_test_id("replace-with-bot")).to_be_visible()
    assert api.room(code)["seats"][1]["replaced"] is False
    bo_panel.get_by_test_id("replace-with-bot").click()
    expect(bo_panel.get_by_test_id("seat-replaced")).to_be_visible()

    # --- Bo comes back: his seat is his again -----------------------------------------
    bo = watch(bo_ctx.new_page(), problems)
    bo.goto(f"{base}/r/{code}")
    expect(bo.locator(".player.me .player-name")).to_have_text("Bo", timeout=10_000)
    expect(bo_panel.get_by_test_id("seat-replaced")).to_have_count(0, timeout=10_000)
    assert api.room(code)["seats"][1]["replaced"] is False
    assert not problems, "\n".join(problems)


# --- 2. what happened: an attack, a move animated, the last action, while you were away --


LOSSES = {"gold", "resources", "prestige", "actions_lost", "badge_lost", "teleport", "badge"}


def took_something(events: list[dict[str, Any]], victim: int) -> bool:
    """Whether a black-market card's events took anything from `victim` (a card may hit
    a player with nothing to take: then there is nothing to notice)."""
    return any(
        (e["type"] == "steal" and e.get("target") == victim)
        or (e.get("seat") == victim and e["type"] in LOSSES and e.get("delta", -1) < 0)
        for e in events
    )


# The game's seed is set (KARANOR_GAME_SEED): with the moves below (a seeded `pick`), the
# first attack comes at command 118 and another seat's multi-step move at 18, every run.
# With the server's own random seed, the attack came anywhere from command ~100 to never
# (one game in sixty), and the three pages following a whole game timed out on a loaded
# machine.
ATTACK_SEED = "36"


@pytest.mark.timeout(300)
def test_attack_notice_moves_and_log(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env={**FAST, "KARANOR_GAME_SEED": ATTACK_SEED}).start()
    base = server.url
    api = Api(base)
    problems: list[str] = []
    ana = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    code = create_room(ana, base, "Ana")
    # Every seat has its page: whoever a black-market card targets sees the notice (the
    # room's seed is the server's, so which seat gets attacked first is luck; that some
    # seat is attacked in a 30-prestige game of three is not).
    pages = [ana]
    for name in ("Bo", "Cy"):
        page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
        join_room(page, base, code, name)
        pages.append(page)
    tokens = [token_of(page, code) for page in pages]
    ana_token = tokens[0]
    expect(ana.get_by_test_id("seat")).to_have_count(3)
    # A page that draws every version of a long game costs most of this test's time:
    # Bo's and Cy's pages leave until a card is about to target their seat (then the page
    # is opened and follows the game live when the card is played); Ana's page stays for
    # the glide, then leaves as well.
    for page in pages[1:]:
        page.goto("about:blank")
    r = api.host_call(
        "POST", f"/api/rooms/{code}/start", ana_token, {"options": {"end_prestige": 30}}
    )
    assert r.status_code == 200, r.text
    expect(ana.locator("#modal[open]")).to_be_visible(timeout=10_000)

    # Every glide the page starts, kept: a short glide (420 ms a step) may be over before
    # a check looks, so the test reads what was shown, not what is shown now.
    ana.evaluate(
        """() => {
          window.__glides = 0;
          new MutationObserver((changes) => {
            for (const c of changes) {
              if (c.target.dataset && c.target.dataset.testid === 'pawn-moving') window.__glides++;
            }
          }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-testid']});
        }"""
    )
    rng = random.Random(11)
    moved_shot = attacked = False
    for _ in range(400):
        view = api.view(code, ana_token)
        if view["status"] != "playing" or (attacked and moved_shot):
            break
        seat = who_acts(view)[0]
        mine = api.view(code, tokens[seat])
        attack = [
            a
            for a in mine["legal_actions"]
            if a["type"] == "play_black_market" and a.get("target") not in (None, seat)
        ]
        cmd = attack[0] if attack and not attacked else pick(mine, rng)
        # Another seat's move of several steps: Ana's page should glide its pawn.
        glide = (
            cmd["type"] == "move"
            and seat != 0
            and not moved_shot
            and len(cmd.get("path") or []) > 1
        )
        glides = ana.evaluate("window.__glides") if glide else 0
        if cmd["type"] == "play_black_market" and pages[cmd["target"]].url == "about:blank":
            page = pages[cmd["target"]]
            page.goto(f"{base}/r/{code}#token={tokens[cmd['target']]}")
            page_follows(page, mine["version"])
        result = api.send(code, tokens[seat], cmd)
        if cmd["type"] == "play_black_market" and took_something(
            api.log(code, tokens[cmd["target"]], result["version"]), cmd["target"]
        ):
            victim = pages[cmd["target"]]
            # The victim's window to the front: Chromium gives a page in a window behind no
            # animation frames, and the page draws each version in one.
            victim.bring_to_front()
            page_follows(victim, result["version"])
            notice = victim.get_by_test_id("attack-notice").last
            expect(notice).to_be_visible()
            expect(notice).to_contain_text("on you")
            expect(notice).to_contain_text("You lost")
            keep(victim, "table-attack-notice")
            attacked = True
            continue
        if glide:
            # The pawn glides along its path; the territory it reached is outlined.
            wait_js(ana, "n => window.__glides > n", glides)
            keep(ana, "table-move-animated")
            expect(ana.get_by_test_id("last-action")).to_have_attribute("data-territory", cmd["to"])
            moved_shot = True
            ana.goto("about:blank")
    assert moved_shot, "no multi-step move by another seat was seen"
    assert attacked, "no black-market attack came up in a whole game"

    # While you were away: shown when Ana's turn comes, to a player who was away (issue
    # 27: never to one who watched): Ana comes back to the game (her page opened again).
    ana.goto("about:blank")
    ana.goto(f"{base}/r/{code}#token={ana_token}")
    for _ in range(60):
        view = api.view(code, ana_token)
        if 0 in who_acts(view) and view["turn"]["phase"] != "draft":
            break
        seat = who_acts(view)[0]
        api.send(code, tokens[seat], pick(api.view(code, tokens[seat]), rng))
    summary = ana.get_by_test_id("away-summary")
    expect(summary).to_be_visible(timeout=10_000)
    expect(summary.locator("li").first).to_be_visible()
    # Once Ana acts it folds to its title (on a laptop it lies over the map's corner);
    # the title unfolds it again.
    api.send(code, ana_token, pick(api.view(code, ana_token), rng))
    expect(summary).to_have_class(re.compile(r"\bfolded\b"))
    expect(summary.locator("li").first).to_be_hidden()
    summary.locator(".notice-fold").click()
    expect(summary.locator("li").first).to_be_visible()
    expect(summary.locator(".notice-fold")).to_have_attribute("aria-expanded", "true")

    # The log: oldest first, focusable, no "You drew 1 quest card." beside the card's name.
    log = ana.get_by_test_id("game-log")
    expect(log).to_have_attribute("tabindex", "0")
    assert log.get_attribute("aria-label")
    versions = [
        int(v) for v in log.locator("li").evaluate_all("ls => ls.map(l => l.dataset.version)")
    ]
    assert versions == sorted(versions), versions
    lines = log.locator("p").all_inner_texts()
    assert not [t for t in lines if re.match(r"You drew \d+ (quest|black-market) card", t)], lines
    assert not problems, "\n".join(problems)


# --- 3. the end: the prestige breakdown, Play again, Join the rematch, the last round -----


def test_end_screen_breakdown_and_rematch(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env=FAST).start()
    base = server.url
    api = Api(base)
    problems: list[str] = []
    ana = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    bo = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    code = create_room(ana, base, "Ana")
    join_room(bo, base, code, "Bo")
    ana.locator("#add-bot").click()
    expect(ana.get_by_test_id("seat")).to_have_count(3)
    tokens = {0: token_of(ana, code), 1: token_of(bo, code)}
    # Every text the banner shows, kept: the last round may pass faster than a check
    # (the bot plays at once), so the test reads what was shown, not what is shown now.
    ana.evaluate(
        """() => {
          window.__banners = [];
          new MutationObserver(() => {
            const b = document.querySelector('#turn-banner');
            if (b) window.__banners.push(b.textContent);
          }).observe(document.body, {subtree: true, childList: true, characterData: true});
        }"""
    )
    r = api.host_call(
        "POST", f"/api/rooms/{code}/start", tokens[0], {"options": {"end_prestige": 3}}
    )
    assert r.status_code == 200, r.text
    # Ana's page follows the game to its end; Bo's leaves and opens the end page afresh
    # (a page drawing every version of the game costs most of this test's time).
    bo.goto("about:blank")

    rng = random.Random(5)
    for _ in range(3000):
        view = api.view(code, tokens[0])
        if view["status"] != "playing":
            break
        humans = [s for s in who_acts(view) if s in tokens]
        if not humans:
            expect(ana.get_by_test_id("version")).not_to_have_text(
                str(view["version"]), timeout=10_000
            )
            continue
        seat = humans[0]
        api.send(code, tokens[seat], pick(api.view(code, tokens[seat]), rng))
    final = api.view(code, tokens[0])
    assert final["status"] == "finished"
    # The last round was announced in the banner (read from what the banner showed: the
    # round may have passed before the test looked).
    wait_js(ana, "window.__banners.some(t => t.includes('Last round:'))")

    bo.goto(f"{base}/r/{code}#token={tokens[1]}")
    for page in (ana, bo):
        expect(page.locator("#endgame")).to_be_visible(timeout=10_000)
        table = page.get_by_test_id("prestige-breakdown")
        expect(table.locator("tbody tr")).to_have_count(3)
        expect(page.get_by_test_id("play-again")).to_have_text("Play again")
        # ...and the way out: the home page, where rooms are made and joined.
        expect(page.get_by_test_id("back-home")).to_have_attribute("href", "/")
    # Each header of the breakdown within its column, on the laptop in English and on a
    # phone in French ("Businesses" ran into "Quests", "Commerces" into "Quêtes").
    phone = watch(browser.new_context(viewport=PHONE, locale="fr-FR").new_page(), problems)
    phone.goto(f"{base}/r/{code}#token={tokens[1]}")
    for page in (ana, phone):
        heads = page.get_by_test_id("prestige-breakdown").locator("thead th")
        expect(heads.first).to_be_visible(timeout=10_000)
        spill = heads.evaluate_all(
            "hs => hs.filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.textContent)"
        )
        assert not spill, spill
    no_sideways_scroll(phone, PHONE["width"])
    phone.context.close()
    # Each row's total is the player's prestige.
    for p in final["players"]:
        row = ana.locator(f"[data-testid=prestige-breakdown] tr[data-seat='{p['seat']}'] td").last
        expect(row).to_have_text(str(p["prestige"]))
    ana.locator("#endgame").scroll_into_view_if_needed()
    keep(ana, "table-end-screen")

    # Ana plays again: a new room of the same game, Ana its host, every seat in its place
    # (issue 27): Bo's kept for him, the bot after it.
    old_badges = [
        ana.locator(f".player[data-seat='{i}'] .seat-badge").first.inner_html() for i in range(3)
    ]
    ana.get_by_test_id("play-again").click()
    ana.wait_for_url(re.compile(r"/r/(?!" + re.escape(code) + r")"), wait_until="commit")
    new_code = ana.url.rsplit("/", 1)[1].split("#")[0]
    expect(ana.get_by_test_id("seat")).to_have_count(3, timeout=10_000)
    expect(ana.get_by_test_id("start-game")).to_be_visible()
    # Bo is offered to join it, and joins in one click.
    again = bo.get_by_test_id("play-again")
    expect(again).to_have_text("Join the rematch", timeout=10_000)
    again.click()
    bo.wait_for_url(f"**/r/{new_code}", wait_until="commit")
    expect(bo.get_by_test_id("seat")).to_have_count(3, timeout=10_000)
    expect(bo.locator(".seat .tag.you")).to_have_count(1)
    room = api.room(new_code)
    assert [s["name"] for s in room["seats"]][:2] == ["Ana", "Bo"]
    assert room["seats"][2]["bot"] is True
    # The same places: the same colours and shapes.
    new_badges = [
        bo.locator(f".seat[data-index='{i}'] .seat-badge").first.inner_html() for i in range(3)
    ]
    assert new_badges == old_badges
    assert not problems, "\n".join(problems)


# --- 4. Karanor's page on a laptop: actions in reach, +1 action, the market, quests ----------


def boxes_overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if not a or not b:
        return False
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_karanor_page_on_a_laptop(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env=FAST).start()
    base = server.url
    api = Api(base)
    problems: list[str] = []
    ana = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    # Notifications: granted, recorded, and the tab taken for hidden (a background tab).
    ana.add_init_script(
        """window.__notes = [];
        window.Notification = class { constructor(title, o) { window.__notes.push(o.body); }
          static get permission() { return window.__granted ? 'granted' : 'default'; }
          static requestPermission() { window.__granted = true; return Promise.resolve('granted'); } };
        Object.defineProperty(document, 'hidden', { get: () => Boolean(window.__hidden) });"""
    )
    visitor = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)

    # A bad room link says so (not "connecting...").
    visitor.goto(f"{base}/r/no-such-room-here")
    expect(visitor.locator("#conn")).to_have_text("no such room")
    expect(visitor.locator("#loading")).to_contain_text("There is no room at this address")

    code = create_room(ana, base, "Ana")
    ana_token = token_of(ana, code)
    bo_token = api.join(code, "Bo")
    expect(ana.get_by_test_id("seat")).to_have_count(2)
    ana.locator("input[name=public_quests]").check()
    expect(ana.locator("input[name=two_player_market]")).to_be_checked()

    # A visitor without a seat types a chat line: told to take a seat, the text kept.
    visitor.goto(f"{base}/r/{code}")
    expect(visitor.get_by_test_id("join-room")).to_be_visible()
    visitor.get_by_test_id("chat-input").fill("hello, may I play?")
    visitor.get_by_test_id("chat-send").click()
    expect(visitor.get_by_test_id("chat-hint")).to_contain_text("Take a seat to chat")
    expect(visitor.get_by_test_id("chat-input")).to_have_value("hello, may I play?")
    # The guest sees the options, the host's choices included.
    expect(visitor.locator("input[name=public_quests]")).to_be_checked()
    expect(visitor.locator("select[name=end_prestige]")).to_be_visible()

    with ana.expect_response(lambda r: r.url.endswith("/start")):
        ana.get_by_test_id("start-game").click()

    # --- the draft: "Look at the board first", then "Make your choice" clear of the chat ------
    ana.locator("#modal[open] .peek").click()
    waiting = ana.locator("#choice-waiting")
    expect(waiting).to_be_visible()
    assert not boxes_overlap(waiting.bounding_box(), ana.locator("#trade-panel").bounding_box())
    expect(ana.locator(".player .turn-tag")).to_have_count(0)
    # Turn notifications: asked for on the click that ticks the box.
    ana.get_by_test_id("game-menu").click()
    ana.get_by_test_id("cue-notify").check()
    expect(ana.get_by_test_id("cue-notify")).to_be_checked()
    ana.locator("#menu-close").click()
    ana.evaluate("window.__hidden = true")
    waiting.click()
    for _ in range(2):
        button = ana.locator("#modal[open] [data-testid=legal-action]").first
        expect(button).to_be_visible(timeout=10_000)
        button.click()
        view = api.view(code, bo_token)
        picks = [a for a in view["legal_actions"] if a["type"] == "draft_pick"]
        if picks:
            api.send(code, bo_token, picks[0])
    rng = random.Random(2)
    for _ in range(50):  # on to Ana's turn
        view = api.view(code, ana_token)
        if (
            0 in who_acts(view)
            and view["turn"]["phase"] == "action"
            and not view["turn"]["pending"]
        ):
            break
        if 0 in who_acts(view):
            ana.locator("#modal[open] [data-testid=legal-action]").first.click()
            expect(ana.get_by_test_id("version")).not_to_have_text(str(view["version"]))
            continue
        api.send(code, bo_token, pick(api.view(code, bo_token), rng))
    view = api.view(code, ana_token)
    page_follows(ana, view["version"])
    wait_js(ana, "window.__notes.includes('Your turn!')")  # the tab was hidden
    ana.evaluate("window.__hidden = false")

    # --- the actions in reach: End turn inside the window, the page scrolled or not ----------
    end_turn = ana.locator("[data-testid=legal-action][data-type=end_turn]")
    for scroll in (0, 700):
        ana.evaluate(f"window.scrollTo(0, {scroll})")
        expect(end_turn).to_be_in_viewport(ratio=1)
    ana.evaluate("window.scrollTo(0, 0)")
    # Every action of the turn in sight at once: the actions' box does not shrink beside
    # the map into a scrolling box that hides some (it hid half of "Meet ...").
    fits = ana.evaluate(
        "() => { const b = document.querySelector('.board-col > .actions > .actions-body');"
        " return [b.scrollHeight, b.clientHeight]; }"
    )
    assert fits[0] <= fits[1] + 1, fits
    # A toast lies over neither the map's zoom buttons nor the trade panel ("Your turn!"
    # covered the "+").
    ana.evaluate(
        "() => { const n = document.createElement('div'); n.className = 'toast'; n.id = 'probe-toast';"
        " n.textContent = 'Your turn!'; document.getElementById('toasts').append(n); }"
    )
    probe = ana.locator("#probe-toast").bounding_box()
    for other in ("#zoom-in", "#trade-panel"):
        assert not boxes_overlap(probe, ana.locator(other).bounding_box()), other
    ana.evaluate("() => document.getElementById('probe-toast').remove()")
    # The Work button's gold comes from the content (a badge can make it 2).
    catalogue = httpx.get(f"{base}/api/games/karanor/content", timeout=10).json()["catalogue"]
    me = view["players"][0]
    texts = [catalogue["badges"][b]["text"] for b in me["badges"]]
    texts += [catalogue["artifacts"][a]["text"] for a in me["artifacts"]]
    pays = 1 + sum(int(m) for x in texts for m in re.findall(r"Work gives \+(\d+) gold", x))
    expect(ana.locator("[data-testid=legal-action][data-type=work]")).to_contain_text(
        f"+{pays} gold"
    )
    gold = ana.evaluate(
        """async () => {
          const m = await import('/static/js/games/karanor/actions.js');
          const content = await (await fetch('/api/games/karanor/content')).json();
          const view = {seat: 0, players: [{badges: ['guild_seal'], artifacts: ['charter_of_the_guilds']}]};
          return m.workGold(view, content);
        }"""
    )
    assert gold == 4, gold

    # --- the market panel: prices, steppers, one visit ------------------------------------
    market = ana.get_by_test_id("market-panel")
    expect(market).to_be_visible()
    market.locator("summary").click()
    expect(market).to_contain_text("Buy")
    # One unit bought or sold, when the rules allow that visit alone.
    singles = [
        (side, next(iter(a[side])))
        for a in api.view(code, ana_token)["legal_actions"]
        if a["type"] == "market"
        for side in ("buy", "sell")
        if sum(a[side].values()) == 1 and not a["sell" if side == "buy" else "buy"]
    ]
    if singles:
        side, res = singles[0]
        market.get_by_test_id(f"market-{side}-more-{res}").click()
        expect(market.get_by_test_id(f"market-{side}-{res}")).to_have_text("1")
        visit = market.locator("[data-testid=legal-action][data-type=market]")
        expect(visit).to_be_visible()
        expect(visit).to_contain_text("gold")
    keep(ana, "table-karanor-laptop-market")

    # --- a first step of a Move, then "+1 action" on what a new Move reaches ----------------
    view = api.view(code, ana_token)
    steps = [m for m in view["legal_actions"] if m["type"] == "move" and len(m["path"]) == 1]
    assert steps
    api.send(code, ana_token, steps[0])
    view = api.view(code, ana_token)
    page_follows(ana, view["version"])
    if view["turn"]["move_left"]:
        expect(ana.locator(".move-target[data-action='0']").first).to_be_attached()
        expect(ana.locator(".move-target[data-action='1']").first).to_be_attached()
        expect(ana.locator(".move-action text").first).to_have_text("+1 action")
        keep(ana, "table-karanor-plus-action")

    # --- the composer's note field is not hidden by its footer --------------------------
    ana.get_by_test_id("open-composer").click()
    note = ana.get_by_test_id("offer-note")
    note.focus()
    covered = note.evaluate(
        """n => { const r = n.getBoundingClientRect();
                 const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                 return top === n || n.contains(top); }"""
    )
    assert covered, "the note field is covered"
    ana.get_by_test_id("tab-timeline").click()

    # --- quests shown to everyone: Bo's quests on his panel ------------------------------
    # The game goes on without Ana's page (drawing every version costs most of the time);
    # she opens it again once Bo has quests.
    ana.goto("about:blank")
    for _ in range(600):
        view = api.view(code, ana_token)
        if view["players"][1].get("quests") or view["status"] != "playing":
            break
        seat = who_acts(view)[0]
        token = ana_token if seat == 0 else bo_token
        api.send(code, token, pick(api.view(code, token), rng, avoid=("market",)))
    quests = view["players"][1].get("quests")
    assert quests, "Bo got no quest"
    ana.goto(f"{base}/r/{code}#token={ana_token}")
    page_follows(ana, view["version"])
    content = httpx.get(f"{base}/api/games/karanor/content", timeout=10).json()["catalogue"]
    panel = ana.locator(".player[data-seat='1'] [data-testid=public-quests]")
    for q in quests:
        expect(panel).to_contain_text(content["quests"][q]["name"])
    assert not problems, "\n".join(problems)
