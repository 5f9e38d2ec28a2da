"""Two browsers trade through the trade-and-chat panel on the real server.

One page is a phone (390x844, the panel is a bottom sheet), the other a laptop (the
panel is a column). After the draft, the seat holding a resource is the seller; the
other offers gold for it through the composer; the seller accepts in its timeline;
both boards show the new holdings. Screenshots go to tmp_path/screens and are copied
to /tmp/karanor-screens.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, LAPTOP, PHONE, no_sideways_scroll, watch
from tests.helpers.client import SeatedRoom
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

RESOURCES = ("wood", "ore", "cloth", "wine", "meat", "fruit", "diamond")
NAMES = ("Ana", "Bo", "Cy")


class Api(SeatedRoom):
    """The room through HTTP: seats' tokens, views and commands."""

    def __init__(self, base: str) -> None:
        options = {"max_players": 3, "end_prestige": 30, "start_seat": 0}
        super().__init__(base, NAMES, options)

    def resume_link(self, seat: int) -> str:
        return f"{self.base}/r/{self.code}#token={self.tokens[seat]}"


def stat(page: Page, seat: int, name: str) -> Any:
    """The number shown for `name` (gold or a resource) in a seat's player panel."""
    box = page.locator(f".player[data-seat='{seat}']")
    where = ".stats" if name == "gold" else ".resources"
    return box.locator(f"{where} .amount-{name} span")


def small_targets(page: Page) -> list[str]:
    """Visible buttons and inputs of the trade panel smaller than 40 px either way."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll(
                 '#trade-panel button, #trade-panel input, #trade-panel [role=tab]')]
               .filter((n) => n.offsetParent !== null)
               .map((n) => [n, n.getBoundingClientRect()])
               .filter(([, r]) => r.width > 0 && (r.width < 40 || r.height < 40))
               .map(([n, r]) => `${n.dataset.testid || n.id || n.textContent.trim()}:`
                    + `${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
    )


def test_offer_through_the_composer_and_accept_in_the_panel(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    server = server_factory(env=FAST).start()
    api = Api(server.url)

    # The page's markup is ready for a `script-src 'self'` CSP: no inline code or styles.
    html = httpx.get(f"{server.url}/r/{api.code}", timeout=10).text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert "style=" not in html and "<style" not in html, "inline style"

    # Who sells: a seat holding a resource (story tiles give some at the deal); who buys:
    # another seat with gold. The buyer gets the phone, the seller the laptop.
    views = [api.view(s) for s in range(3)]
    buyer, seller, res = next(
        (buyer, seller, r)
        for seller in range(3)
        for r in RESOURCES
        if views[seller]["players"][seller]["resources"].get(r, 0) >= 1
        for buyer in range(3)
        if buyer != seller and views[buyer]["players"][buyer]["gold"] >= 1
    )
    gold = min(2, views[buyer]["players"][buyer]["gold"])

    problems: list[str] = []
    phone_ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    laptop_ctx = browser.new_context(viewport=LAPTOP)
    phone = watch(phone_ctx.new_page(), problems)
    laptop = watch(laptop_ctx.new_page(), problems)
    for page, seat in ((phone, buyer), (laptop, seller)):
        page.goto(api.resume_link(seat))
        expect(page.get_by_test_id("version")).to_have_text("0", timeout=15_000)
        expect(page.locator("#modal[open]")).to_have_count(1)
    # During the draft the rules forbid trading: the panel says so.
    for page in (phone, laptop):
        expect(page.locator("#trade-closed")).to_contain_text("Trading is closed during the draft")

    version = api.draft()
    for page, seat in ((phone, buyer), (laptop, seller)):
        expect(page.get_by_test_id("version")).to_have_text(str(version), timeout=15_000)
        expect(page.locator("#modal[open]")).to_have_count(0)
        expect(page.locator(".player.me .player-name")).to_have_text(NAMES[seat])
        expect(page.locator("#trade-closed")).to_be_hidden()
    before = {s: api.view(0)["players"][s] for s in (buyer, seller)}
    assert before[buyer]["gold"] >= gold and before[seller]["resources"].get(res, 0) >= 1

    # --- the buyer composes on the phone -------------------------------------------------
    panel = phone.locator("#trade-panel")
    expect(panel).to_have_attribute("data-open", "false")
    phone.get_by_test_id("trade-toggle").click()
    expect(panel).to_have_attribute("data-open", "true")
    phone.get_by_test_id("open-composer").click()
    composer = phone.locator("#trade-composer")
    expect(composer).to_be_visible()
    composer.locator(f"[data-testid=offer-to][data-seat='{seller}']").click()
    # The steppers stop at what the buyer holds.
    have = before[buyer]["gold"]
    more_gold = composer.get_by_test_id("give-more-gold")
    for _ in range(have + 1):
        if more_gold.is_enabled():
            more_gold.click()
    expect(composer.get_by_test_id("give-gold")).to_have_text(str(have))
    expect(more_gold).to_be_disabled()
    for _ in range(have - gold):
        composer.get_by_test_id("give-less-gold").click()
    expect(composer.get_by_test_id("give-gold")).to_have_text(str(gold))
    held_by_buyer = before[buyer]["resources"].get(res, 0)
    if held_by_buyer == 0:
        expect(composer.get_by_test_id(f"give-more-{res}")).to_be_disabled()
    composer.get_by_test_id(f"want-more-{res}").click()
    note = "<b>fair</b> price, friend"
    composer.get_by_test_id("offer-note").fill(note)
    expect(composer.get_by_test_id("offer-summary")).to_contain_text(
        f"You offer {gold} gold for 1 {res}, to {NAMES[seller]}"
    )
    assert not small_targets(phone), small_targets(phone)
    screens(phone, "trade-composer-phone")
    # Gold on both sides: said, and not sent (it would exchange only the difference: R29).
    composer.get_by_test_id("want-more-gold").click()
    expect(composer).to_contain_text("You give and ask for the same thing")
    expect(composer.get_by_test_id("offer-send")).to_be_disabled()
    composer.get_by_test_id("want-less-gold").click()
    expect(composer).not_to_contain_text("You give and ask for the same thing")
    composer.get_by_test_id("offer-send").click()
    version += 1
    for page in (phone, laptop):
        expect(page.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)

    # The composer closes onto the timeline, where the offer waits; the gold is promised.
    expect(phone.locator("#timeline-pane")).to_be_visible()
    bubble = phone.locator("#timeline [data-testid=offer]").last
    expect(bubble).to_contain_text(f"to {NAMES[seller]}")
    expect(bubble.get_by_test_id("offer-status")).to_have_text("open")
    expect(bubble.get_by_test_id("offer-withdraw")).to_be_visible()
    expect(phone.locator("#promised-slot")).to_contain_text(f"{gold} gold across 1 open offer")
    screens(phone, "trade-timeline-phone-waiting")

    # --- the seller sees it on the laptop and accepts --------------------------------------
    offer = laptop.locator("#timeline [data-testid=offer]").last
    expect(offer).to_be_visible()
    expect(offer).to_contain_text(f"{NAMES[buyer]}")
    expect(offer).to_contain_text("to you")
    expect(offer.get_by_test_id("offer-afford")).to_have_attribute("data-afford", "yes")
    # The note is text, never markup.
    expect(offer.locator(".bubble-note")).to_have_text(note)
    assert offer.locator(".bubble-note b").count() == 0
    expect(offer.locator(".amount-gold")).to_contain_text(str(gold))
    expect(offer.locator(f".amount-{res}")).to_contain_text("1")
    laptop.get_by_test_id("chat-input").fill("Deal!")
    laptop.get_by_test_id("chat-send").click()
    expect(phone.get_by_test_id("chat-message").last).to_contain_text("Deal!")
    screens(laptop, "trade-timeline-laptop-offer")
    offer.get_by_test_id("offer-accept").click()
    version += 1
    for page in (phone, laptop):
        expect(page.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)

    # --- both boards show the new holdings ---------------------------------------------------
    want = {
        (buyer, "gold"): before[buyer]["gold"] - gold,
        (seller, "gold"): before[seller]["gold"] + gold,
        (buyer, res): before[buyer]["resources"].get(res, 0) + 1,
        (seller, res): before[seller]["resources"].get(res, 0) - 1,
    }
    for page in (phone, laptop):
        for (seat, name), n in want.items():
            shown = stat(page, seat, name)
            if n == 0 and name != "gold" and seat != (buyer if page is phone else seller):
                expect(shown).to_have_count(0)  # others' panels leave out what they lack
            else:
                expect(shown).to_have_text(str(n))
    expect(bubble.get_by_test_id("offer-status")).to_have_text(f"accepted by {NAMES[seller]}")
    expect(phone.get_by_test_id("trade-line").last).to_have_text(
        f"✔ You gave {gold} gold to {NAMES[seller]} for 1 {res}."
    )
    expect(laptop.get_by_test_id("trade-line").last).to_have_text(
        f"✔ {NAMES[buyer]} gave {gold} gold to you for 1 {res}."
    )
    expect(laptop.locator("#log")).to_contain_text(
        f"{NAMES[buyer]} gave {gold} gold to you for 1 {res}."
    )
    expect(phone.locator("#promised-slot")).to_be_empty()
    screens(phone, "trade-timeline-phone")
    screens(laptop, "trade-timeline-laptop")

    # --- a counter: the seller's offer comes back turned around --------------------------------
    third = ({0, 1, 2} - {buyer, seller}).pop()
    api.send(third, {"type": "offer", "to": None, "give": {}, "want": {"gold": 1}, "note": "alms?"})
    version += 1
    expect(laptop.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)
    alms = laptop.locator("#timeline [data-testid=offer]").last
    expect(alms).to_contain_text("to anyone")
    alms.get_by_test_id("offer-counter").click()
    laptop_composer = laptop.locator("#trade-composer")
    expect(laptop_composer).to_be_visible()
    expect(laptop_composer.get_by_test_id("give-gold")).to_have_text("1")
    expect(
        laptop_composer.locator(f"[data-testid=offer-to][data-seat='{third}']")
    ).to_have_attribute("aria-pressed", "true")
    screens(laptop, "trade-composer-laptop")
    laptop_composer.get_by_test_id("offer-send").click()
    version += 1
    expect(laptop.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)
    counter = api.view(third)["offers"][-1]
    assert counter["from"] == seller and counter["to"] == [third]
    assert counter["counter_of"] is not None and counter["give"]["gold"] == 1
    expect(phone.get_by_test_id("version")).to_have_text(str(version), timeout=10_000)

    # --- the phone: no sideways scrolling, everything in the panel big enough to tap -----------
    phone.get_by_test_id("open-composer").click()
    expect(phone.locator("#trade-composer")).to_be_visible()
    assert not small_targets(phone), small_targets(phone)
    phone.get_by_test_id("tab-timeline").click()
    phone.get_by_test_id("trade-toggle").click()
    expect(phone.locator("#trade-panel")).to_have_attribute("data-open", "false")
    # A message while the sheet is closed: an unread badge and a peek in the bar.
    laptop.get_by_test_id("chat-input").fill("Anything else to sell?")
    laptop.get_by_test_id("chat-send").click()
    expect(phone.get_by_test_id("trade-unread")).to_have_text("1")
    expect(phone.get_by_test_id("trade-unread")).to_be_visible()
    expect(phone.locator("#trade-peek")).to_contain_text("Anything else to sell?")
    no_sideways_scroll(phone, PHONE["width"])
    screens(phone, "trade-bar-phone")
    phone.get_by_test_id("trade-toggle").click()
    expect(phone.get_by_test_id("trade-unread")).to_be_hidden()
    assert not problems, "\n".join(problems)
