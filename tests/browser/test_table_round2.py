"""The table, round two (issue 27), in Chromium on the real server with the toy game:
a present player out of time has one turn played by a bot (a banner for them, a line in
every log), keeps the seat and plays the next turn; a timer change reaches the other
page at once; no "while you were away" for a player who watched.

Screenshots go to /work/wt/shots/ when that folder exists (the issue's closing note).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import PHONE, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

# Bots without a pause: the stand-in's turn and the leaver's seat played at once.
TOY = {
    "KARANOR_GAMES": "tests.browser.toy:GAME",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_BOT_DELAY_SECONDS": "0",
}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path("/work/wt/shots")
SCREENSHOTS = Path(__file__).parent / "screenshots"


def keep(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    if SHOTS.is_dir():
        shutil.copy(path, SHOTS / path.name)


def test_out_of_time_while_present_one_bot_turn_then_the_seat_is_yours(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    base = server_factory(env=TOY).start().url
    http = httpx.Client(base_url=base, timeout=10)
    r = http.post("/api/rooms", json={"name": "Ann", "game": "toy"})
    assert r.status_code == 201, r.text
    code, ann = r.json()["code"], r.json()["seat"]["token"]
    bo = http.post(f"/api/rooms/{code}/seats", json={"name": "Finn"}).json()["seat"]["token"]
    as_ann = {"Authorization": f"Bearer {ann}"}
    assert http.post(f"/api/rooms/{code}/start", json={}, headers=as_ann).status_code == 200

    problems: list[str] = []
    host = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    guest = watch(
        browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True).new_page(),
        problems,
    )
    host.goto(f"{base}/r/{code}#token={ann}")
    guest.goto(f"{base}/r/{code}#token={bo}")
    for page in (host, guest):
        expect(page.get_by_test_id("version")).to_have_text("0", timeout=15_000)
    guest.bring_to_front()

    # Ann moves; Finn (his page open: at the table) has 2 seconds and lets them pass.
    r = http.put(f"/api/rooms/{code}/timer", json={"turn_seconds": 2}, headers=as_ann)
    assert r.status_code == 200, r.text
    host.locator("[data-testid=legal-action][data-type=add]").first.click()
    banner = guest.get_by_test_id("standin-notice")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_contain_text("a bot played this turn for you")
    expect(host.get_by_test_id("game-log")).to_contain_text(
        "A bot played for Finn (out of time)", timeout=10_000
    )
    expect(guest.get_by_test_id("game-log")).to_contain_text("A bot played for you (out of time)")
    # The banner lies in the log column, not over the actions.
    assert guest.locator(".log-notices [data-testid=standin-notice]").count() == 1
    keep(guest, "out-of-time-banner-phone")
    room = http.get(f"/api/rooms/{code}").json()
    assert not room["seats"][1]["replaced"] and not room["seats"][1]["bot"]

    # Ann turns the timer off in her menu: Finn's page stops counting down at once.
    expect(guest.locator("#turn-clock")).to_be_visible()
    r = http.put(f"/api/rooms/{code}/timer", json={"turn_seconds": 0}, headers=as_ann)
    assert r.status_code == 200, r.text
    expect(guest.locator("#turn-clock")).to_be_hidden(timeout=1_000)

    # Ann moves again: Finn's next turn is his own (his buttons), and Finn, who watched
    # everything, gets no "while you were away".
    host.locator("[data-testid=legal-action][data-type=add]").first.click()
    button = guest.locator("[data-testid=legal-action][data-type=add]").first
    expect(button).to_be_enabled(timeout=10_000)
    assert guest.get_by_test_id("away-summary").count() == 0
    button.click()
    expect(host.get_by_test_id("game-log").locator("li").last).not_to_contain_text("A bot")
    # Finn was away (his page opened again on the game under way): when his turn comes,
    # "while you were away" is in the log column, not over the actions.
    guest.reload()
    expect(guest.get_by_test_id("version")).to_have_text("4", timeout=15_000)
    host.locator("[data-testid=legal-action][data-type=add]").first.click()
    summary = guest.locator(".log-notices [data-testid=away-summary]")
    expect(summary).to_be_visible(timeout=10_000)
    summary.scroll_into_view_if_needed()
    keep(guest, "away-summary-in-log-column-phone")
    keep(host, "out-of-time-log-laptop")
    # A quick reaction in the chat: one click, every seat reads it.
    host.get_by_test_id("chat-emote").first.click()
    expect(host.locator("#trade-panel")).to_contain_text("Nice move!")
    # A spectator is told they only watch; the players are not.
    watcher = watch(browser.new_context(viewport=PHONE).new_page(), problems)
    watcher.goto(f"{base}/r/{code}")
    expect(watcher.get_by_test_id("watching")).to_contain_text("You are watching")
    # The game runs: no seat to take, so the chat does not ask the watcher to take one.
    chat = watcher.get_by_test_id("chat-input")
    expect(chat).to_have_attribute("placeholder", "Only the players chat")
    chat.evaluate("(el) => { el.value = 'hi'; el.form.requestSubmit(); }")
    expect(watcher.get_by_test_id("chat-hint")).to_have_text(
        "The chat is for the players: you are watching the game."
    )
    expect(host.get_by_test_id("watching")).to_have_count(0)
    expect(host.get_by_test_id("watching-count")).to_have_text("👁 1 watching")
    # On the watcher's phone the count is "👁 1" (the words read aloud, not shown), so
    # the turn banner beside it keeps its room.
    count = watcher.get_by_test_id("watching-count")
    expect(count).to_have_attribute("data-n", "1")
    box = count.bounding_box()
    assert box and box["width"] <= 48, box

    # Finn leaves the game from his menu: a bot plays his seat to the end, the log and
    # the end screen say so, and Finn goes on watching.
    guest.on("dialog", lambda dialog: dialog.accept())
    guest.get_by_test_id("game-menu").click()
    guest.get_by_test_id("leave-game").click()
    expect(guest.get_by_test_id("watching")).to_be_visible(timeout=10_000)
    expect(host.get_by_test_id("game-log")).to_contain_text(
        "Finn left the game: a bot plays their seat to the end.", timeout=10_000
    )
    left = http.get(f"/api/rooms/{code}").json()["seats"][1]
    assert left["bot"] and not left["replaced"] and left["left"] is not None
    for _ in range(20):
        view = http.get(f"/api/rooms/{code}/view", headers=as_ann).json()
        if view["status"] == "finished":
            break
        if view["turn"]["seat"] == 0:
            version = view["version"]
            host.locator("[data-testid=legal-action][data-type=add]").last.click()
            expect(host.get_by_test_id("version")).not_to_have_text(str(version), timeout=10_000)
        else:  # the bot's move for Finn's seat
            expect(host.get_by_test_id("version")).not_to_have_text(
                str(view["version"]), timeout=10_000
            )
    expect(host.get_by_test_id("end-left")).to_contain_text("Finn left the game", timeout=10_000)
    # Finn's page watched the bot play his seat to the end (it kept reconnecting with
    # his dead token, stuck at the version he left at), and opens as a spectator again.
    final = http.get(f"/api/rooms/{code}/view", headers=as_ann).json()["version"]
    expect(guest.get_by_test_id("version")).to_have_text(str(final), timeout=10_000)
    expect(guest.locator("#toasts")).not_to_contain_text("token")
    guest.reload()
    expect(guest.get_by_test_id("version")).to_have_text(str(final), timeout=15_000)
    expect(guest.get_by_test_id("watching")).to_be_visible()
    expect(guest.locator("#toasts")).not_to_contain_text("token")
    assert not problems, "\n".join(problems)


def test_a_toast_said_from_the_game_menu_shows_over_it(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    """The game menu is a modal dialog, over everything else: a toast said while it is
    open (notices blocked, a refusal of the host's timer) lay under it, unseen, and the
    menu's button looked dead. It now shows over the menu, where a tap reaches it."""
    base = server_factory(env=TOY).start().url
    http = httpx.Client(base_url=base, timeout=10)
    r = http.post("/api/rooms", json={"name": "Ann", "game": "toy"})
    code, ann = r.json()["code"], r.json()["seat"]["token"]
    http.post(f"/api/rooms/{code}/seats", json={"name": "Finn"})
    start = http.post(
        f"/api/rooms/{code}/start", json={}, headers={"Authorization": f"Bearer {ann}"}
    )
    assert start.status_code == 200, start.text
    problems: list[str] = []
    page = watch(browser.new_context(viewport=PHONE, has_touch=True).new_page(), problems)
    page.goto(f"{base}/r/{code}#token={ann}")
    expect(page.get_by_test_id("version")).to_have_text("0", timeout=15_000)
    page.get_by_test_id("game-menu").click()
    expect(page.locator("dialog#game-menu")).to_be_visible()
    page.evaluate(
        "() => import('/static/js/util.js').then((m) => m.toast('Notices are blocked', 'error'))"
    )
    shown = page.locator(".toast", has_text="Notices are blocked")
    expect(shown).to_be_visible()
    on_top = shown.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return Boolean(hit) && el.contains(hit); }"""
    )
    assert on_top, "the toast lies under the game menu"
    # ...and not over the menu's title ("Your turn!" hid "Game menu").
    title = page.locator("dialog#game-menu h2").first.bounding_box()
    box = shown.bounding_box()
    assert (
        title
        and box
        and (box["y"] >= title["y"] + title["height"] or box["y"] + box["height"] <= title["y"])
    ), (box, title)
    assert not problems, "\n".join(problems)


# What covers an action: for each action button in sight (its centre inside the window
# and inside every scrolling box around it), the element at its centre and at the middle
# of each edge (a few px in: rounded corners) must be the button itself or inside it. The
# page's own chrome is left out: the toasts, the top bar and the folded chat bar at a
# phone's bottom (the page scrolls under them). Returns the covered buttons with what covers them.
COVERED_JS = """() => {
  const out = [];
  const inside = (x, y, r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  for (const b of document.querySelectorAll('button[data-testid=legal-action]')) {
    const r = b.getBoundingClientRect();
    if (!r.width || !r.height || b.closest('[hidden]')) continue;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (!inside(cx, cy, { left: 0, top: 0, right: innerWidth, bottom: innerHeight })) continue;
    const clips = [{ left: 0, top: 0, right: innerWidth, bottom: innerHeight }];
    for (let p = b.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX)) clips.push(p.getBoundingClientRect());
    }
    const shown = (x, y) => clips.every((c) => inside(x, y, c));
    if (!shown(cx, cy)) continue;
    const points = [[cx, cy], [r.left + 8, cy], [r.right - 8, cy], [cx, r.top + 3], [cx, r.bottom - 3]];
    for (const [x, y] of points) {
      if (!shown(x, y)) continue; // scrolled out of its box: clipped, not covered
      const hit = document.elementFromPoint(x, y);
      if (!hit || b.contains(hit) || hit.closest('#toasts, #trade-toggle, .topbar')) continue;
      out.push(`${b.textContent.trim()} under ${hit.tagName}.${hit.getAttribute('class')} "${(hit.textContent || '').trim().slice(0, 40)}"`);
      break;
    }
  }
  return out;
}"""

# Every box that scrolls an action (and the page) to a share of its length: 0, .5, 1.
SCROLL_JS = """(share) => {
  const boxes = new Set();
  for (const b of document.querySelectorAll('button[data-testid=legal-action]')) {
    for (let p = b.parentElement; p && p !== document.body; p = p.parentElement) {
      if (p.scrollHeight > p.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(p).overflowY)) boxes.add(p);
    }
  }
  for (const box of boxes) box.scrollTop = (box.scrollHeight - box.clientHeight) * share;
  const page = document.scrollingElement;
  page.scrollTop = (page.scrollHeight - page.clientHeight) * share;
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def test_no_bar_covers_an_action_at_both_sizes_in_both_languages(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    """Karanor at the start of a turn (Work, the moves, End turn with its unused actions):
    at 1280x800 and 390x844, in English and in French, nothing lies over an action
    button in sight (issue 27: the sticky End turn lay on Work)."""
    from tests.helpers.browser import FAST
    from tests.helpers.client import SeatedRoom

    server = server_factory(env=FAST).start()
    room = SeatedRoom(server.url, ("Ana", "Bo"), {"max_players": 2, "start_seat": 0})
    room.draft()
    view = room.view(0)
    assert view["turn"]["seat"] == 0 and any(a["type"] == "work" for a in view["legal_actions"])
    problems: list[str] = []
    covered: dict[str, list[str]] = {}
    for lang in ("en", "fr"):
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            context = browser.new_context(
                viewport=viewport, locale=f"{lang}-FR", has_touch=size == "phone"
            )
            page = watch(context.new_page(), problems)
            page.goto(f"{server.url}/r/{room.code}#token={room.tokens[0]}")
            expect(page.locator("[data-testid=legal-action][data-type=end_turn]")).to_be_visible(
                timeout=15_000
            )
            expect(page.locator("[data-testid=legal-action][data-type=work]")).to_have_count(1)
            found: list[str] = []
            # A long bar, as a turn with many actions has (recruit, deliver, interact...):
            # Work seen eight times over, the market panel open.
            page.get_by_test_id("market-panel").locator("summary").click()
            page.evaluate(
                """() => { const w = document.querySelector('[data-testid=legal-action][data-type=work]');
                  for (let i = 0; i < 8; i++) w.after(w.cloneNode(true)); }"""
            )
            for share in (0, 0.5, 1):
                page.evaluate(SCROLL_JS, share)
                found += [f"{share}: {f}" for f in page.evaluate(COVERED_JS)]
            if found:
                covered[f"{lang}-{size}"] = found
                keep(page, f"covered-{lang}-{size}")
            context.close()
    assert not covered, covered
    assert not problems, "\n".join(problems)
