"""The Dark Road page people can read (issue 26), on the real server and Debian's Chromium,
at 1280x800 and on a 390x844 phone:

- a person against a bot plays a whole game, clicking the page's legal-action elements
  in its first rounds on the laptop and from round 11 to the end on the phone (the middle
  rounds through the API), and before every click the element under the click point is
  that element (or inside it): no ring, outline, toast or bar intercepts a legal action's
  click;
- measured along the way: the board's smallest rendered text (>= 11 CSS px), its share
  of the width on the laptop (>= 60 %), the log in view without scrolling, the page's
  height the same at every step, no fixed or floating element over a legal action or
  the score table;
- the faults of the issue, each shown: the waiting player's wagon, the end screen's
  columns and deeds, "Horseshoes", the slot wording, one "Join the caravan?", the top bar's
  name, touch words on a phone, the log's wording, tips under a still pointer.

Screenshots (tests/browser/screenshots/, not committed; copied to /tmp/karanor-screens):
darkroad-page-{laptop,phone}-{mid,end}.png.
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_darkroad import (
    Api,
    browser,
    chromium,
    keep,
    module_server,
    new_room,
    same_version,
    settle_by_api,
    start,
)
from tests.helpers.browser import FAST, PHONE, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

LAPTOP = {"width": 1280, "height": 800}

# Every room of this server deals the same game (seed 26); each test plays its own room.
server = module_server({**FAST, "KARANOR_GAME_SEED": "26"})
__all__ = ["browser", "chromium", "server"]  # fixtures, shared with tests/browser/test_darkroad.py
SIZES = {"laptop": LAPTOP, "phone": PHONE}

# Where a click on `el` lands: the middle of the part of it that is on screen (cut by the
# viewport, its drawing and every scrolling or clipping ancestor), or null when too
# little of it shows; and whether the element under that point is `el` or inside it.
CLICK_POINT = """el => {
  const r = el.getBoundingClientRect();
  let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
  const cut = (q) => { box = {l: Math.max(box.l, q.left), t: Math.max(box.t, q.top),
                              r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom)}; };
  for (let a = el.parentElement; a; a = a.parentElement) {
    const st = getComputedStyle(a);
    if (a.tagName.toLowerCase() === 'svg' || /(auto|scroll|hidden|clip)/.test(st.overflowX + st.overflowY)) cut(a.getBoundingClientRect());
  }
  cut({left: 0, top: 0, right: innerWidth, bottom: innerHeight});
  const w = box.r - box.l, h = box.b - box.t;
  if (w < 4 || h < 4) return null;
  const whole = Math.abs(w - r.width) < 1 && Math.abs(h - r.height) < 1;
  const x = (box.l + box.r) / 2, y = (box.t + box.b) / 2;
  const hit = document.elementFromPoint(x, y);
  const mine = Boolean(hit) && (hit === el || el.contains(hit));
  return {x, y, whole, mine, hit: hit ? hit.tagName.toLowerCase() + '.' + ((hit.className && hit.className.baseVal !== undefined ? hit.className.baseVal : hit.className) || '') : null};
}"""

# The board's smallest rendered text, in CSS px: each <text>'s font size times the
# drawing's scale on screen now.
SMALLEST_BOARD_TEXT = """() => {
  let min = Infinity, what = '';
  for (const el of document.querySelectorAll('[data-testid=board] text')) {
    if (!el.getClientRects().length || !el.textContent.trim()) continue;
    const m = el.getScreenCTM();
    const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
    if (px < min) { min = px; what = el.textContent.trim().slice(0, 40); }
  }
  return {min, what};
}"""

# Fixed or floating elements (position fixed, sticky or absolute, visible, not the
# tooltip the pointer asked for) whose box overlaps one of `targets` (a selector).
OVERLAPS = """sel => {
  const targets = [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  const floating = [...document.querySelectorAll('body *')].filter(e => {
    const p = getComputedStyle(e).position;
    if (!['fixed', 'sticky', 'absolute'].includes(p) || e.id === 'tip-bubble') return false;
    if (e.closest('.sr-only') || getComputedStyle(e).visibility === 'hidden') return false;
    const r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  });
  const out = [];
  for (const f of floating) {
    const a = f.getBoundingClientRect();
    for (const t of targets) {
      if (f.contains(t) || t.contains(f)) continue;
      const b = t.getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
        out.push((f.id || f.className) + ' over ' + (t.dataset.type || t.tagName));
      }
    }
  }
  return out.slice(0, 5);
}"""

LOG_IN_VIEW = """() => {
  const log = document.querySelector('[data-testid=log]');
  if (!log) return {ok: false, why: 'no log'};
  const r = log.getBoundingClientRect();
  const ok = r.top >= 0 && r.bottom <= innerHeight + 1 && r.height >= 60 && scrollY === 0;
  return {ok, why: `log ${Math.round(r.top)}-${Math.round(r.bottom)}, scrollY ${scrollY}, viewport ${innerWidth}x${innerHeight}, page ${document.documentElement.scrollWidth}x${document.documentElement.scrollHeight}, wagon open: ${document.body.classList.contains('dr-wagon-open')}`};
}"""


def open_page(browser: Browser, api: Api, problems: list[str], size: str, **extra: Any) -> Page:
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size], has_touch=phone, is_mobile=phone, device_scale_factor=1, **extra
    )
    page = watch(context.new_page(), problems)
    page.goto(f"{api.base}/r/{api.code}#token={api.token}")
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    return page


def measure(page: Page, size: str) -> None:
    """The board reads at 11 px or more, takes 60 % of a laptop's width, the log is in
    view without scrolling, and nothing floats over a legal action."""
    text = page.evaluate(SMALLEST_BOARD_TEXT)
    assert text["min"] >= 11, f"board text drawn at {text['min']:.1f} px: {text['what']!r}"
    if size == "laptop":
        share = page.evaluate(
            "() => document.querySelector('[data-testid=board]').getBoundingClientRect().width / innerWidth"
        )
        assert share >= 0.6, f"the board takes {share:.0%} of the width"
        # The chat shows some lines of the talk beside its emotes and input (it showed one).
        talk = page.evaluate("() => document.getElementById('timeline').clientHeight")
        assert talk >= 90, f"the chat's lines get {talk} px"
    log = page.evaluate(LOG_IN_VIEW)
    if not log["ok"]:
        keep(page, f"darkroad-page-{size}-log-hidden")
    assert log["ok"], f"the log is not in view without scrolling: {log['why']}"
    assert page.evaluate("() => document.documentElement.scrollHeight") <= SIZES[size]["height"]
    over = page.evaluate(OVERLAPS, "[data-testid=legal-action]")
    assert not over, f"floating over legal actions: {over}"
    # A district's head is never cut beside its note ("Ringway Inn · 35 i…" beside "open
    # to you"): its extra is said short, or left to the panel's tip.
    cut = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=board] .dr-panel-title[data-tip]')]"
        ".map(e => e.getAttribute('data-fit-text'))"
    )
    assert not cut, f"district heads cut: {cut}"


def click_point(page: Page, el: Any) -> dict[str, Any] | None:
    """Bring an HTML control into view in its own column, then where a click lands."""
    if el.evaluate("n => !n.closest('svg')"):
        el.evaluate("n => n.scrollIntoView({block: 'nearest'})")
    point: dict[str, Any] | None = el.evaluate(CLICK_POINT)
    return point


def by_api(api: Api, view: dict[str, Any], rng: random.Random) -> None:
    """One of the seat's legal commands sent through the API: goods stored where they fit,
    the turn ended when it may be, half the time (the rounds go by), else any other."""
    acts = view["legal_actions"]
    auto = [a for a in acts if a["type"] == "place_good" and a.get("area") is None]
    end = [a for a in acts if a["type"] == "end_turn"]
    others = [a for a in acts if a["type"] != "end_turn"]
    if auto:
        api.send(auto[0])
    elif end and (not others or rng.random() < 0.5):
        api.send(end[0])
    else:
        api.send(rng.choice(others))


def before(view: dict[str, Any], until_round: int | None) -> bool:
    """Whether the game is still before round `until_round` (None: before its end); the
    final travel comes after every round."""
    if view["status"] == "finished":
        return False
    if until_round is None:
        return True
    return (
        view["turn"].get("round", 1) < until_round and view["turn"].get("phase") != "final_travel"
    )


def play(
    page: Page,
    api: Api,
    size: str,
    problems: list[str],
    rng: random.Random,
    until_round: int | None = None,
    by_clicks: bool = True,
) -> dict[str, int]:
    """Play the seat until round `until_round` begins (None: to the end of the game): by
    clicking legal actions in `page`, every click landing on its element, or (`by_clicks`
    false) through the API, the page following. The other seat's turns are waited for in
    the page. Returns how many clicks of each kind."""
    seen: dict[str, int] = {}
    clicks = 0
    measured_mid = False
    for _ in range(1500):
        view = api.view()
        if not before(view, until_round):
            break
        if not view["legal_actions"]:
            expect(page.get_by_test_id("version")).not_to_have_text(
                str(view["version"]), timeout=30_000
            )
            continue
        if not by_clicks:
            by_api(api, view, rng)
            continue
        same_version(page, view)
        buttons = page.locator("[data-testid=legal-action]:visible:enabled")
        expect(buttons.first).to_be_visible()
        if ((view["private"] or {}).get("pending") or {}).get("kind") == "join":
            # Asked once (the status line), not again over its buttons.
            asks = page.get_by_test_id("dr-actions").get_by_text("Join the caravan?", exact=True)
            expect(asks).to_have_count(1)
            seen["asked_join"] = seen.get("asked_join", 0) + 1
        if not measured_mid and view["turn"].get("round", 1) >= 3:
            measured_mid = True
            measure(page, size)
            keep(page, f"darkroad-page-{size}-mid")
        offered = [b for b in buttons.all() if b.get_attribute("data-type") != "end_turn"]
        rng.shuffle(offered)
        # Mostly what the person is asked for; end the turn when nothing else is left or
        # now and then (a game of wandering wagons would never end).
        pool = offered if offered and rng.random() > 0.1 else buttons.all()
        choice, point = None, None
        for candidate in pool:
            point = click_point(page, candidate)
            if point and (point["whole"] or not candidate.evaluate("n => !!n.closest('svg')")):
                choice = candidate
                break
        assert choice is not None and point is not None, "no legal action can be clicked"
        kind = choice.get_attribute("data-type") or "?"
        assert point["mine"], (
            f"click {clicks} on {kind} {choice.get_attribute('data-command')} lands on {point['hit']}"
        )
        if size == "phone":
            page.touchscreen.tap(point["x"], point["y"])
        else:
            page.mouse.click(point["x"], point["y"])
        clicks += 1
        seen[kind] = seen.get(kind, 0) + 1
        expect(page.get_by_test_id("version")).not_to_have_text(
            str(view["version"]), timeout=15_000
        )
        if seen.get("end_turn") == 3 and "hidden" not in seen:
            # Hidden things stay hidden: the bot's coins are behind its screen.
            seen["hidden"] = 1
            bot = page.locator(".dr-player[data-seat='1']")
            expect(bot).to_contain_text("Coins hidden")
            assert "coins" not in (api.view()["players"][1])
        # The page keeps its height whatever the action panel holds.
        assert page.evaluate("() => document.documentElement.scrollHeight") <= SIZES[size]["height"]
    else:
        raise AssertionError("the game did not go on")
    assert not problems, "\n".join(problems)
    seen["clicks"] = clicks
    return seen


def the_end_reads(page: Page, size: str) -> None:
    """The end screen: every column of the score table in its box and nothing over it, the
    score notes, the deeds and what they paid, the prestige chart, the log."""
    end = page.locator("#endgame")
    expect(end.get_by_test_id("scores")).to_be_visible(timeout=15_000)
    # Every column of the score table is in its box, and nothing floats over it.
    cut = page.evaluate(
        """() => { const wrap = document.querySelector('.dr-table-wrap').getBoundingClientRect();
             return [...document.querySelectorAll('[data-testid=scores] th')]
               .filter(th => th.getBoundingClientRect().right > wrap.right + 1).map(th => th.textContent); }"""
    )
    assert not cut, f"{size}: score columns cut off: {cut}"
    # In view first: the side column scrolls (the game's story may come under the end
    # screen after it was scrolled to), and a part scrolled out is clipped, not covered.
    end.get_by_test_id("scores").scroll_into_view_if_needed()
    assert not page.evaluate(OVERLAPS, "[data-testid=scores]")
    notes = end.locator(".dr-score-note").all_inner_texts()
    assert not [n for n in notes if "VP: 0" in n or " 0 from" in n], notes
    # Which deeds paid: each revealed deed says what it paid once the log is read.
    expect(end.get_by_test_id("deed-paid").first).to_be_visible(timeout=15_000)
    deeds = end.get_by_test_id("deeds-end").inner_text()
    assert "(paid" in deeds and ".)" not in deeds and ");" not in deeds, deeds
    expect(end.get_by_test_id("scores").locator("tbody")).to_have_count(2)
    expect(end).to_contain_text("Deeds revealed")
    expect(end.get_by_test_id("prestige-chart").locator("svg polyline")).to_have_count(
        2, timeout=15_000
    )
    assert page.locator("#log li").count() > 5, "the log says what happened"
    measure(page, size)
    keep(page, f"darkroad-page-{size}-end")


# One game, clicked at both sizes: the laptop clicks its first rounds (the starting goods,
# the first turns, a caravan), the seat's commands go through the API in the middle rounds
# (the laptop's page following them), and the phone clicks from round PHONE_FROM to the
# end (the last rounds, the final travel). The page differs between the sizes only in its
# layout (the same modules draw it). Both pages, open to the end, read the end screen.
LAPTOP_UNTIL = 4
PHONE_FROM = 11


@pytest.mark.timeout(900)
def test_a_whole_game_by_clicks_none_intercepted_and_the_page_reads(
    server: ServerProcess, browser: Browser
) -> None:
    api = new_room(server.url)
    start(api, bots=1)
    problems: list[str] = []
    rng = random.Random(26)
    laptop = open_page(browser, api, problems, "laptop")
    # The top bar names the game played here.
    expect(laptop.locator(".topbar .brand")).to_have_text("Merchants of the Dark Road")
    seen = {"laptop": play(laptop, api, "laptop", problems, rng, LAPTOP_UNTIL)}
    play(laptop, api, "laptop", problems, rng, PHONE_FROM, by_clicks=False)
    phone = open_page(browser, api, problems, "phone")
    expect(phone.locator(".topbar .brand")).to_have_text("Merchants of the Dark Road")
    seen["phone"] = play(phone, api, "phone", problems, rng)
    assert api.view()["status"] == "finished"
    for size, kinds in (
        ("laptop", ("place_good", "plan", "move", "end_turn", "visit")),
        ("phone", ("plan", "move", "end_turn", "visit")),
    ):
        for kind in kinds:
            assert seen[size].get(kind), f"{size}: no {kind} was clicked: {seen[size]}"
        assert seen[size].get("hidden"), f"{size}: the bot's coins were not looked at"
    for page, size in ((laptop, "laptop"), (phone, "phone")):
        the_end_reads(page, size)
    assert not problems, "\n".join(problems)


# --- the faults, one by one -----------------------------------------------------------------


def test_decorations_take_no_click_over_a_move_target(
    server: ServerProcess, browser: Browser
) -> None:
    """A move button with focus or the pointer rings its destination on the board; the
    ring lets the click through to the target under it (elementFromPoint is the target)."""
    api = new_room(server.url)
    start(api, bots=1)
    view = settle_by_api(
        api,
        lambda v: (
            any(a["type"] == "move" for a in v["legal_actions"])
            and not (v["private"] or {}).get("pending")
        ),
    )
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop")
    same_version(page, view)
    panel_move = page.locator("[data-testid=dr-actions] [data-testid=legal-action][data-type=move]")
    expect(panel_move.first).to_be_visible()
    panel_move.first.focus()
    panel_move.first.hover()
    expect(page.locator(".dr-preview-ring")).to_have_count(1)
    target = page.locator("svg [data-testid=legal-action][data-type=move]").first
    point = target.evaluate(CLICK_POINT)
    assert point and point["mine"], f"the board's move target is covered by {point}"
    assert (
        page.evaluate(
            "() => getComputedStyle(document.querySelector('.dr-preview-ring')).pointerEvents"
        )
        == "none"
    )
    page.mouse.click(point["x"], point["y"])
    expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]), timeout=15_000)
    assert not problems, problems


def test_the_waiting_player_is_told_who_stores_first_and_a_phone_reads_taps(
    server: ServerProcess, browser: Browser
) -> None:
    """Two people: while the first stores a starting good, the second (waiting, with a
    good of their own to come) reads whose turn it is, never "Doesn't fit"; on a phone the
    storage tools say tap, not keys."""
    ann = new_room(server.url)
    import httpx

    r = httpx.post(f"{server.url}/api/rooms/{ann.code}/seats", json={"name": "Bo"}, timeout=10)
    assert r.status_code == 201, r.text
    bo = Api(server.url, ann.code, r.json()["seat"]["token"])
    start(ann)

    def storing(v: dict[str, Any]) -> bool:
        return (v["turn"].get("pending") or {}).get("kind") == "store"

    # Answer the draft (and whatever comes before the first storing) for both seats.
    for _ in range(40):
        va, vb = ann.view(), bo.view()
        if storing(va) and (va["legal_actions"] or vb["legal_actions"]):
            break
        for api, v in ((ann, va), (bo, vb)):
            if v["legal_actions"] and not storing(v):
                api.send(v["legal_actions"][0])
    va, vb = ann.view(), bo.view()
    waiting, waiting_view = (bo, vb) if va["legal_actions"] else (ann, va)
    assert storing(waiting_view) and not waiting_view["legal_actions"], waiting_view["turn"]
    problems: list[str] = []
    page = open_page(browser, waiting, problems, "phone")
    same_version(page, waiting_view)
    page.get_by_test_id("wagon-toggle").tap()
    wagon = page.get_by_test_id("wagon")
    expect(wagon).to_be_visible()
    expect(wagon).not_to_contain_text("Doesn't fit")
    expect(wagon).not_to_contain_text("selected")
    who = ann.view()["players"][0]["name"] if waiting is bo else "Bo"
    incoming = (waiting_view["players"][waiting_view["seat"]] or {}).get("incoming") or []
    if incoming:
        expect(wagon.get_by_test_id("incoming-good")).to_contain_text(f"{who} stores first")
    # Touch words: no keys named in the storage tools.
    tools = wagon.locator(".dr-tools").inner_text()
    assert "(R)" not in tools and "Esc" not in tools and "arrows" not in tools, tools
    # Nothing floats over the wagon's controls once the sheet is open (its bar is in it).
    assert not page.evaluate(OVERLAPS, "#dr-wagon button"), "floating over the wagon"
    assert not problems, problems


def test_wagon_words_agree_and_fit_and_the_log_says_commission(
    server: ServerProcess, browser: Browser
) -> None:
    """The wagon's slot 1 says what it does (the Plan buttons name the good); "Horseshoes
    1 (of 3 slots)" stays in its card at 1280x800; "Join the caravan?" once; the log calls
    a commission a commission and the Dark Market's deal space by what it deals."""
    api = new_room(server.url)
    start(api, bots=1)
    view = settle_by_api(
        api,
        lambda v: (
            any(a["type"] == "plan" for a in v["legal_actions"])
            and not (v["private"] or {}).get("pending")
        ),
    )
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop")
    same_version(page, view)
    slot1 = page.get_by_test_id("slot-text").first
    expect(slot1).to_have_text("Craft a good")
    plan1 = page.locator("[data-testid=legal-action][data-type=plan]").all_inner_texts()
    assert any("craft" in p for p in plan1), plan1
    spill = page.evaluate(
        """() => { const card = document.querySelector('#dr-wagon').getBoundingClientRect();
             return [...document.querySelectorAll('#dr-wagon .dr-stat')]
               .filter(s => s.getBoundingClientRect().right > card.right + 0.5).map(s => s.textContent); }"""
    )
    assert not spill, f"wagon stats past the card: {spill}"
    # The log's words: the page's own sentence builder on the events of a commission taken,
    # the Dark Market's deal space and two events of the dark road.
    said = page.evaluate(SENTENCES)
    assert "commission" in said["commission"] and "order" not in said["commission"], said
    assert "nothing" not in said["dark_market"] and "commission or a deed" in said["dark_market"], (
        said
    )
    assert said["flavours"] == [None, None] or said["flavours"][0] != said["flavours"][1], said
    # "a armor market die" no more; a travel die's coins said once, a later gain again.
    assert said["market"] == "Bo turns a market die from armor to book.", said
    assert f"gain {said['coins']} coin" in said["took"] and said["again"] is None, said
    assert said["later"] and said["later"].startswith("You gain"), said
    assert not problems, problems


# The Dark Road's words module in the page: sentences for a few events of another seat.
SENTENCES = """async () => {
  const { Words } = await import('/static/js/games/darkroad/words.js');
  const content = await (await fetch('/api/games/darkroad/content?lang=en')).json();
  const w = new Words(content);
  w.setView({seat: 0, players: [{seat: 0, name: 'Ann'}, {seat: 1, name: 'Bo'}]}, null);
  const k = content.commissions[0].id;
  const south = content.board.dark_market.find(x => !x.goods.length).space;
  const dark = Object.values(w.events).filter(e => e.deck === 'dark_road').slice(0, 2);
  const out = {
    commission: w.sentence({type: 'commission', seat: 1, commission: k}),
    dark_market: w.sentence({type: 'dark_market', seat: 1, space: south}),
    flavours: dark.map(e => w.flavour(e)),
    market: w.sentence({type: 'market_die_changed', seat: 1, from: 'armor', good: 'book'}),
  };
  // A travel die whose face gains coins, then the coins event it brings, then a later one.
  const ev = Object.values(w.events).find(e => Object.values(e.faces).some(f => f.some(x => x.coins > 0)));
  const face = Object.keys(ev.faces).find(f => ev.faces[f].some(x => x.coins > 0));
  const coins = ev.faces[face].find(x => x.coins > 0).coins;
  w.setView({seat: 0, players: [{seat: 0, name: 'Ann'}, {seat: 1, name: 'Bo'}], board: {travel: {event: ev.id}}}, null);
  out.took = w.sentence({type: 'travel_die', seat: 0, value: Number(face), face: Number(face)});
  out.again = w.sentence({type: 'coins', seat: 0, delta: coins, to: 0});
  out.later = w.sentence({type: 'coins', seat: 0, delta: coins, to: 0});
  out.coins = coins;
  return out;
}"""


def test_a_tip_does_not_pop_under_a_still_pointer(server: ServerProcess, browser: Browser) -> None:
    """The pointer rests; the page moves a named thing under it: no tip appears. A move of
    the pointer onto it shows the tip."""
    api = new_room(server.url)
    start(api, bots=1)
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop")
    page.mouse.move(5, 300)
    page.mouse.move(6, 300)
    page.evaluate(
        """() => { const n = document.createElement('div'); n.id = 'probe'; n.dataset.tip = 'a named thing';
             n.style.cssText = 'position:fixed;left:0;top:280px;width:40px;height:40px;z-index:99';
             document.body.append(n); }"""
    )
    # The browser answers a layout change with a pointerover from the still pointer.
    page.wait_for_timeout(0)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.locator("#tip-bubble").is_hidden()
    page.mouse.move(10, 302)
    expect(page.locator("#tip-bubble")).to_have_text("a named thing")
    assert not problems, problems


def test_the_coach_s_plan_shows_its_die_and_marks_that_button(
    server: ServerProcess, browser: Browser
) -> None:
    """The Plan buttons are those of the selected die: when the coach's plan uses another
    die, the panel selects that die and the one button marked is the coach's command, and
    the coach's line names it (before, every Plan button of the shown die was marked and
    the line named the first: "The coach: craft an armor" for a plan of coins). The
    coach's answer is the server's shape with a plan of another die, given by the test."""
    api = new_room(server.url, options={"coach": True})
    start(api, bots=1)
    view = settle_by_api(
        api,
        lambda v: (
            len({a["die"] for a in v["legal_actions"] if a["type"] == "plan"}) > 1
            and not (v["private"] or {}).get("pending")
        ),
    )
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop")
    same_version(page, view)
    shown = page.locator("[data-testid=plan-die][aria-checked=true]").inner_text().strip()
    plans = [a for a in view["legal_actions"] if a["type"] == "plan"]
    other = next(a for a in plans if str(a["die"]) != shown.split()[-1])
    answer = {"version": view["version"], "action": other, "reason": "A plan.", "offers": []}
    page.route("**/coach?*", lambda route: route.fulfill(json=answer))
    page.get_by_test_id("coach").click()
    coached = page.locator(".coached")
    expect(coached).to_have_count(1)
    assert json.loads(coached.get_attribute("data-command") or "null") == other
    picked = page.locator("[data-testid=plan-die][aria-checked=true]").inner_text()
    assert picked.strip().split()[-1] == str(other["die"])
    label = " ".join(coached.inner_text().split())
    expect(page.locator(".toast").last).to_contain_text(f"The coach: {label}.")
    assert not problems, problems


# The board's texts that `fitTexts` had to cut with "…" (it keeps their whole text as a tip).
CUT_TEXTS = """() => [...document.querySelectorAll('[data-testid=board] text[data-tip]')]
  .map(e => e.getAttribute('data-fit-text'))"""


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_deal_s_board_texts_fit_uncut(
    server: ServerProcess, browser: Browser, locale: str
) -> None:
    """This server's deal (seed 26) in both languages: no name or bonus on the board is cut.
    Before: "Hollow-Eyes the Cave Dragon" (a word wider than its card: now broken after its
    hyphen), "+ porte 1 marchandise" and the shortcut's "3 lanternes" in French."""
    api = new_room(server.url)
    start(api, bots=1)
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop", locale=locale)
    companions = page.locator("[data-testid=board] .dr-companion")
    expect(companions.first).to_be_visible()
    assert page.evaluate(CUT_TEXTS) == []
    if locale == "en-US":
        expect(companions.filter(has_text="Hollow-")).to_contain_text("Eyes")
    assert not problems, problems


def test_while_you_were_away_reads_in_a_phone_s_log_row(
    server: ServerProcess, browser: Browser
) -> None:
    """A phone's log row is small (11 parts of the table in 100): the note "Pendant votre
    absence" showed one cut line of its head. While a note is there the row grows, its head
    and first entries in view; dismissed, the row is small again."""
    api = new_room(server.url)
    start(api, bots=1)
    settle_by_api(api, lambda v: v["turn"].get("round", 1) >= 2 and bool(v["legal_actions"]))
    problems: list[str] = []
    page = open_page(browser, api, problems, "phone", locale="fr-FR")
    note = page.locator(".dr-log .log-notices [data-testid=away-summary]")
    expect(note).to_contain_text("Pendant votre absence")
    shown = page.evaluate(
        """() => {
          const box = document.querySelector('.dr-log .log-notices').getBoundingClientRect();
          const head = document.querySelector('[data-testid=away-summary] .notice-fold').getBoundingClientRect();
          const first = document.querySelector('[data-testid=away-summary] li').getBoundingClientRect();
          return {head: head.top >= box.top - 1 && head.bottom <= box.bottom + 1,
                  first: first.bottom <= box.bottom + 1, row: document.querySelector('.dr-log').getBoundingClientRect().height};
        }"""
    )
    assert shown["head"] and shown["first"], shown
    note.locator(".notice-close").tap()
    expect(note).to_have_count(0)
    small = page.evaluate("() => document.querySelector('.dr-log').getBoundingClientRect().height")
    assert small < shown["row"] * 0.6, (small, shown["row"])
    assert not problems, problems


def at_first(
    server: ServerProcess, browser: Browser, kind: str, size: str
) -> tuple[Api, dict[str, Any], Page, list[str]]:
    """A room of a person and a bot, played through the API up to the person's first
    command of `kind`; the seat's page open on it at `size`."""
    api = new_room(server.url)
    start(api, bots=1)
    view = settle_by_api(api, lambda v: any(a["type"] == kind for a in v["legal_actions"]), 200)
    problems: list[str] = []
    page = open_page(browser, api, problems, size)
    same_version(page, view)
    return api, view, page, problems


def test_a_move_taken_back_leaves_no_outline_of_it(server: ServerProcess, browser: Browser) -> None:
    """The board outlines the last thing done (a wagon's space, a district); a take-back
    puts back the outline of the version before the command taken back, not the move's
    (the Undo button of the page, a laptop)."""
    api, view, page, problems = at_first(server, browser, "move", "laptop")
    board = page.get_by_test_id("board")
    outline_before = board.get_attribute("data-last")
    api.send(next(a for a in view["legal_actions"] if a["type"] == "move"))
    moved = api.view()
    assert moved["can_undo"], "a move that revealed nothing may be taken back"
    same_version(page, moved)
    expect(board).not_to_have_attribute("data-last", outline_before or "")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("version")).to_have_text(str(moved["version"] + 1))
    expect(board).to_have_attribute("data-last", outline_before or "")
    assert not problems, problems


def test_the_page_says_how_many_districts_may_be_used(
    server: ServerProcess, browser: Browser
) -> None:
    """Without an illuminated die a wagon's move opens two districts for one activation
    (the rules' ACTIVATE step): the page says so before the first is used (it said it only
    on End turn, "skipping 1 activation", after the other had gone), in French too."""
    api = new_room(server.url)
    start(api, bots=1)

    def one_of_several(v: dict[str, Any]) -> bool:
        turn = v["turn"]
        left, open_ = turn.get("activations_left") or 0, turn.get("activations") or []
        return turn.get("step") == "activate" and 0 < left < len(open_) and bool(v["legal_actions"])

    def move_first(v: dict[str, Any]) -> bool:
        return one_of_several(v) or any(a["type"] == "move" for a in v["legal_actions"])

    view = settle_by_api(api, move_first, limit=200)
    for _ in range(40):
        if one_of_several(view):
            break
        moves = [a for a in view["legal_actions"] if a["type"] == "move" and a["die"] == "night"]
        if not moves:
            view = settle_by_api(api, move_first, limit=200)
            continue
        api.send(moves[0])
        view = api.view()
    assert one_of_several(view), view["turn"]
    problems: list[str] = []
    page = open_page(browser, api, problems, "laptop", locale="fr-FR")
    same_version(page, view)
    note = page.get_by_test_id("activations-left")
    expect(note).to_contain_text(
        f"Une activation : choisissez 1 des {len(view['turn']['activations'])}"
    )
    assert not problems, problems


def test_a_new_step_opens_at_its_top(server: ServerProcess, browser: Browser) -> None:
    """The side column scrolled down to a choice low in a step's list; the command moves the
    turn to its next step: the column shows the new step's top (it kept the old scroll, the
    new heading above the fold)."""
    api, view, page, problems = at_first(server, browser, "plan", "phone")
    col = page.locator(".dr-side-col")
    top = col.evaluate(
        "c => { c.scrollTop = c.scrollHeight;"
        " return c.querySelector('[data-testid=dr-actions]').offsetTop; }"
    )
    assert col.evaluate("c => c.scrollTop") > top, "the column scrolls on a phone"
    api.send(next(a for a in view["legal_actions"] if a["type"] == "plan"))
    same_version(page, api.view())
    assert col.evaluate("c => c.scrollTop") <= top + 1
    assert not problems, problems


def test_on_a_phone_rotate_shows_the_turned_good_and_a_placed_one_leaves_no_ghost(
    server: ServerProcess, browser: Browser
) -> None:
    """A touch screen has no pointer over the wagon's grid: a tap on Rotate showed nothing
    (the good's way round was seen only once it had landed), and after a tap placed it a
    red "doesn't fit" ghost stayed where it went. Now Rotate shows the good turned where it
    first fits; placed, no ghost is left. (This server's deal, seed 26: Anne's first new
    good is a weapon, which turns.)"""
    api = new_room(server.url)
    start(api, bots=1)
    view = settle_by_api(api, lambda v: any(a["type"] == "place_good" for a in v["legal_actions"]))
    incoming = view["players"][view["seat"]]["incoming"][0]["good"]
    assert incoming in {"weapon", "staff", "book", "instrument"}, incoming
    problems: list[str] = []
    page = open_page(browser, api, problems, "phone")
    same_version(page, view)
    page.get_by_test_id("wagon-toggle").tap()
    ghost = page.locator("[data-testid=wagon] .dr-ghost")
    expect(ghost).to_have_count(0)
    page.get_by_test_id("rotate-good").tap()
    expect(ghost).to_have_count(1)
    expect(page.locator("[data-testid=wagon] .dr-ghost.ok")).to_have_count(1)
    place = next(
        a
        for a in view["legal_actions"]
        if a["type"] == "place_good" and a.get("o") == 1 and a.get("area") == "main"
    )
    shapes = httpx.get(f"{server.url}/api/games/darkroad/content", timeout=10).json()["shapes"]
    dx, dy = shapes[incoming][1][0]  # a tap names the good's first cell, as the turned ghost
    page.locator(
        f"[data-testid=storage-cell][data-area='main']"
        f"[data-x='{place['x'] + int(dx)}'][data-y='{place['y'] + int(dy)}']"
    ).tap()
    expect(page.get_by_test_id("version")).not_to_have_text(str(view["version"]))
    expect(page.locator("[data-testid=wagon] .dr-ghost.bad")).to_have_count(0)
    assert not problems, problems
