"""Merchants of the Dark Road for everyone (issue 17), on the real server and Debian's
Chromium:
- every log event type the engine emits (collected by playing seeded games through
  `GAME.apply`) rendered by words.js in the page, for "you" and for another player, in
  English and in French: no placeholder, no "undefined", no "You takes", French that
  differs from the English;
- axe-core finds nothing on the game page and the end page, on a laptop and a phone, in
  English and in French (the French phone is kept as a screenshot);
- a whole turn (plan, move, activate, rest) and a good stored on the grid with the
  keyboard alone, keyboard focus never falling back to <body> after an action;
- Escape closes the wagon sheet on a phone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from app.darkroad.game import GAME
from tests.browser.test_darkroad import (
    FAST,
    LAPTOP,
    Api,
    browser,
    chromium,
    module_server,
    new_room,
    start,
)
from tests.helpers.browser import PHONE, axe_violations, no_sideways_scroll, wait_js, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

# The top bar's turn banner shows its whole text: nothing cut sideways or below its lines.
BANNER_WHOLE = """() => {
  const b = document.getElementById('turn-banner');
  return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1;
}"""

# One server for the module's tests, each in rooms of its own.
server = module_server(FAST)
__all__ = ["browser", "chromium", "server"]  # fixtures, shared with tests/browser/test_darkroad.py

# Events the log leaves out on purpose (words.js returns null for them).
SILENT = {"stored", "rearranged", "turn_ended"}


# --- samples of every event type ---------------------------------------------------------------


def _variant(e: dict[str, Any]) -> str:
    """What makes two events of a type read differently."""
    keys = sorted(k for k in e if k not in ("seat",))
    marks = [
        e["type"],
        ",".join(keys),
        str(e.get("yes")),
        str(e.get("route")),
        str(e.get("reroll")),
        str((e.get("delta") or 0) > 0),
        str(e.get("from") == "top"),
        str(e.get("face") == e.get("value")),
        str(bool(e.get("town"))),
        str(bool(e.get("goods"))),
    ]
    return "|".join(marks)


def collect_samples() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Events of every kind, with a view to read them against (its names and board)."""
    samples: dict[str, dict[str, Any]] = {}
    view: dict[str, Any] = {}
    runs = (
        ({}, 3, 11),
        ({"drafting": True, "deed_choice": True}, 4, 5),
        ({"buildings": "random"}, 2, 23),
        ({"deed_choice": True, "buildings": "random"}, 3, 41),
    )
    for options, n, seed in runs:
        opts = GAME.normalise_options(options)
        state = GAME.new_game(opts, seed, [f"P{i}" for i in range(n)])
        salt = 0
        while not GAME.is_over(state):
            move = GAME.bot_move(state, frozenset(range(n)), salt)
            assert move is not None
            salt += 1
            for e in GAME.apply(state, move.seat, move.command):
                samples.setdefault(_variant(e), e)
            if n == 4 and not view and salt > 200:
                view = GAME.view(state, 0, GAME.public_part(state))
    # Rare in bot games: written as the engine emits them (app/darkroad/engine/).
    steed = GAME.catalogue("en")["steeds"][0]["id"]
    commission = GAME.catalogue("en")["commissions"][0]["id"]
    for e in (
        {"type": "dice_reset", "seat": 1},
        {"type": "market_die_changed", "seat": 2, "from": "book", "good": "potion"},
        {"type": "steed", "seat": 0, "steed": steed},
        {"type": "rearranged", "seat": 3},
        {"type": "commission_discarded", "seat": 1, "commission": commission},
    ):
        samples.setdefault(_variant(e), e)
    return list(samples.values()), view


@pytest.fixture(scope="module")
def samples() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return collect_samples()


RENDER = """async ([events, view, who]) => {
  const i18n = await import("/static/js/i18n.js");
  const lang = document.documentElement.lang;
  await i18n.loadPlatform();
  const r = await fetch(`/api/games/darkroad/content?lang=${lang}`);
  const content = await r.json();
  i18n.addMessages(content.messages);
  const { Words } = await import("/static/js/games/darkroad/words.js");
  const words = new Words(content);
  const out = [];
  for (const e of events) {
    const seats = view.players.map((p) => p.seat);
    // "you": the reader is the actor; "other": the reader is someone else.
    const seat = e.seat === undefined ? view.seat
      : who === "you" ? e.seat : seats.find((s) => s !== e.seat);
    words.setView({ ...view, seat }, null);
    let text;
    try { text = words.sentence(e); } catch (err) { text = `THROWN ${err}`; }
    out.push(text);
  }
  return { lang, out };
}"""


@pytest.mark.timeout(600)
def test_every_log_event_reads_well_for_you_and_for_another_player_in_both_languages(
    server: ServerProcess,
    browser: Browser,
    samples: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    events, view = samples
    types = {e["type"] for e in events}
    # The engine's whole vocabulary is met by the seeded games.
    engine = Path(__file__).resolve().parents[2] / "app" / "darkroad" / "engine"
    source = "\n".join(p.read_text() for p in sorted(engine.glob("*.py")))
    emitted = set(re.findall(r'"type": "([a-z_]+)"', source))
    assert emitted <= types, f"event types never rendered: {sorted(emitted - types)}"
    problems: list[str] = []
    rendered: dict[tuple[str, str], list[str | None]] = {}
    for lang, locale in (("en", "en-US"), ("fr", "fr-FR")):
        page = watch(browser.new_context(locale=locale).new_page(), problems)
        page.goto(server.url + "/")
        for who in ("you", "other"):
            got = page.evaluate(RENDER, [events, view, who])
            assert got["lang"] == lang
            rendered[(lang, who)] = got["out"]
        page.context.close()
    names = {p["name"] for p in view["players"]}
    third_person = re.compile(r"\bYou (?!pass\b)[a-z]+(?<!s)s\b")
    for i, e in enumerate(events):
        where = json.dumps(e)
        for who in ("you", "other"):
            en = rendered[("en", who)][i]
            fr = rendered[("fr", who)][i]
            # Private events (with "to") reach only their seat: never read by another.
            if e["type"] in SILENT or (who == "other" and "to" in e):
                continue
            if e["type"] == "deed_kept" and not e.get("deed"):
                continue
            assert en and fr, f"{who}: no sentence for {where}"
            for text in (en, fr):
                for bad in ("{", "}", "undefined", "null", "NaN", "THROWN", "[object"):
                    assert bad not in text, f"{who} {where}: {bad!r} in {text!r}"
            assert en != fr, f"{who} {where}: not translated: {en!r}"
            assert not third_person.search(en), f"{where}: {en!r}"
            if "seat" in e and who == "other":
                assert not re.search(r"\bYou\b", en), f"{where}: {en!r}"
                if e["type"] not in ("oracle",):
                    assert any(n in en for n in names), f"{where}: {en!r} names nobody"
            if "seat" in e and who == "you" and re.search(r"\b[Yy]ou(r)?\b", en):
                assert re.search(r"\b[Vv](ous|otre)\b", fr), f"{where}: {fr!r}"
    assert not problems, "\n".join(problems)


# --- axe on the game page and the end page -----------------------------------------------------


def finish_by_api(api: Api, limit: int = 4000) -> dict[str, Any]:
    """Play a solo game to its end with legal commands: rest as soon as the rules allow."""
    for _ in range(limit):
        view = api.view()
        if view["status"] == "finished":
            return view
        legal = view["legal_actions"]
        assert legal, view["turn"]
        pick = (
            next((a for a in legal if a["type"] == "end_turn"), None)
            or next((a for a in legal if a["type"] == "place_good" and a.get("area") is None), None)
            or legal[0]
        )
        api.send(pick)
    raise AssertionError("the game did not end")


def open_game(browser: Browser, api: Api, problems: list[str], **context: Any) -> Page:
    page = watch(browser.new_context(**context).new_page(), problems)
    page.goto(f"{api.base}/r/{api.code}#token={api.token}")
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("version")).to_have_text(str(api.view()["version"]), timeout=15_000)
    return page


DEVICES: dict[str, dict[str, Any]] = {
    "laptop": {"viewport": LAPTOP},
    "phone": {"viewport": PHONE, "device_scale_factor": 2, "has_touch": True, "is_mobile": True},
}


@pytest.mark.timeout(600)
def test_the_game_and_end_pages_have_no_axe_violations(
    server: ServerProcess, browser: Browser, screens: Callable[..., None]
) -> None:
    """One solo game: its page at the start, then at its end, each on a laptop and a phone,
    in English and in French (and the phone's wagon sheet open)."""
    api = new_room(server.url, options={"max_players": 1})
    start(api)
    problems: list[str] = []
    for device in DEVICES:
        for lang, locale in (("en", "en-US"), ("fr", "fr-FR")):
            page = open_game(browser, api, problems, locale=locale, **DEVICES[device])
            assert page.evaluate("document.documentElement.lang") == lang
            found = axe_violations(page)
            assert not found, f"{device} {lang} game page:\n" + "\n".join(found)
            if device == "phone":
                no_sideways_scroll(page, PHONE["width"])
                if lang == "fr":
                    expect(page.get_by_test_id("dr-status")).to_contain_text("Rangez")
                    # The top bar's turn banner says all of it on a phone (it was cut
                    # at "Rangez votre nouvelle …"), in two lines that keep the bar's height.
                    expect(page.locator("#turn-banner")).to_contain_text("chariot")
                    assert page.evaluate(BANNER_WHOLE), page.locator("#turn-banner").inner_text()
                    bar = page.locator(".topbar").bounding_box()
                    assert bar is not None and bar["height"] <= 56, bar
                    screens(page, "fr-phone-darkroad-game")
                # The wagon sheet: open, checked too, and Escape closes it (focus back on
                # its button).
                page.get_by_test_id("wagon-toggle").tap()
                expect(page.get_by_test_id("wagon")).to_be_visible()
                found = axe_violations(page)
                assert not found, f"{device} {lang} wagon sheet:\n" + "\n".join(found)
                page.keyboard.press("Escape")
                expect(page.get_by_test_id("wagon")).to_be_hidden()
                assert page.evaluate("document.activeElement.dataset.testid") == "wagon-toggle"
            page.context.close()
    finish_by_api(api)
    for device in DEVICES:
        for lang, locale in (("en", "en-US"), ("fr", "fr-FR")):
            page = open_game(browser, api, problems, locale=locale, **DEVICES[device])
            end = page.locator("#endgame")
            expect(end).to_be_visible(timeout=15_000)
            expect(end.get_by_test_id("prestige-chart").locator("svg polyline")).to_have_count(
                1, timeout=15_000
            )
            expect(end).to_contain_text("Deeds revealed" if lang == "en" else "Titres révélés")
            found = axe_violations(page)
            assert not found, f"{device} {lang} end page:\n" + "\n".join(found)
            if device == "phone":
                no_sideways_scroll(page, PHONE["width"])
            page.context.close()
    assert not problems, "\n".join(problems)


# --- the keyboard alone ------------------------------------------------------------------------


def tab_to(page: Page, selector: str, limit: int = 300) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def act_by_keyboard(page: Page, api: Api, selector: str, key: str = "Enter") -> dict[str, Any]:
    version = api.view()["version"]
    tab_to(page, selector)
    page.keyboard.press(key)
    expect(page.get_by_test_id("version")).not_to_have_text(str(version), timeout=15_000)
    view = api.view()
    expect(page.get_by_test_id("version")).to_have_text(str(view["version"]), timeout=15_000)
    # Focus stays in the page's controls: never dropped on <body>.
    try:
        wait_js(
            page,
            "() => Boolean(document.activeElement && document.activeElement !== document.body)",
        )
    except AssertionError:
        dbg = page.evaluate("() => window.__focuslog || []")
        raise AssertionError(f"focus lost after {selector}: {view['turn']} {dbg[-12:]}") from None
    return view


@pytest.mark.timeout(300)
def test_a_whole_turn_with_the_keyboard_alone(server: ServerProcess, browser: Browser) -> None:
    api = new_room(server.url, options={"max_players": 1})
    start(api)
    problems: list[str] = []
    page = open_game(browser, api, problems, viewport=LAPTOP)
    page.evaluate("""() => { window.__focuslog = [];
      const d = (n) => n ? (n.tagName + '.' + (n.dataset?.type || n.dataset?.testid || n.className?.baseVal || n.className || '')) : 'null';
      document.addEventListener('focusin', (e) => window.__focuslog.push('in ' + d(e.target)), true);
      document.addEventListener('focusout', (e) => window.__focuslog.push('out ' + d(e.target) + ' -> ' + d(e.relatedTarget) + ' connected=' + e.target.isConnected), true);
    }""")
    page.locator("body").focus()
    # The starting goods: stored on the grid with the keyboard (focus the grid, Enter places
    # the selected good where the arrows put it), else with the panel's button.
    view = api.view()
    assert view["private"]["pending"]["kind"] == "store"
    tab_to(page, "svg.dr-grid")
    for key in ("ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    expect(page.locator(".dr-storage-status")).to_contain_text("column")
    before = len(view["players"][0]["pieces"])
    version = view["version"]
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("version")).not_to_have_text(str(version), timeout=15_000)
    view = api.view()
    assert len(view["players"][0]["pieces"]) == before + 1
    while view["private"] and (view["private"].get("pending") or {}).get("kind") == "store":
        view = act_by_keyboard(page, api, "[data-testid=legal-action][data-type=place_good]")
    assert view["turn"]["step"] == "plan", view["turn"]
    # Plan, move, activate (a district the wagon faces), rest: Tab and Enter only.
    view = act_by_keyboard(page, api, ".dr-actions [data-testid=legal-action][data-type=plan]")
    while view["private"] and (view["private"].get("pending") or {}).get("kind") == "store":
        view = act_by_keyboard(page, api, "[data-testid=legal-action][data-type=place_good]")
    assert view["turn"]["step"] == "move", view["turn"]
    view = act_by_keyboard(page, api, ".dr-actions [data-testid=legal-action][data-type=move]")
    assert view["turn"]["step"] == "activate", view["turn"]
    kinds = {a["type"] for a in view["legal_actions"]}
    activation = next(
        k
        for k in ("bazaar", "dark_market", "take_commission", "ruins", "inn", "building")
        if k in kinds
    )
    view = act_by_keyboard(
        page, api, f".dr-actions [data-testid=legal-action][data-type={activation}]"
    )
    # Whatever the district asks next (the Bazaar's basket, a good to store...): answered
    # from the keyboard until the turn can end.
    for _ in range(12):
        kinds = {a["type"] for a in view["legal_actions"]}
        if "end_turn" in kinds and not (view["private"] or {}).get("pending"):
            break
        pend = ((view["private"] or {}).get("pending") or {}).get("kind")
        if pend == "store":
            view = act_by_keyboard(page, api, "[data-testid=legal-action][data-type=place_good]")
        else:
            view = act_by_keyboard(page, api, ".dr-actions [data-testid=legal-action]")
    round_before = view["turn"]["round"]
    view = act_by_keyboard(page, api, "[data-testid=legal-action][data-type=end_turn]")
    assert view["turn"]["round"] == round_before + 1 or view["turn"]["seat"] != 0
    assert not problems, "\n".join(problems)


def test_board_targets_show_a_focus_outline(server: ServerProcess, browser: Browser) -> None:
    api = new_room(server.url, options={"max_players": 1})
    start(api)
    for _ in range(10):
        view = api.view()
        if view["turn"]["step"] == "plan" and not view["turn"]["pending"]:
            break
        api.send(next(a for a in view["legal_actions"] if a["type"] == "place_good"))
    plan = next(a for a in api.view()["legal_actions"] if a["type"] == "plan")
    api.send(plan)
    while (view := api.view())["turn"]["pending"]:
        api.send(next(a for a in view["legal_actions"] if a["type"] == "place_good"))
    assert any(a["type"] == "move" for a in api.view()["legal_actions"])
    problems: list[str] = []
    page = open_game(browser, api, problems, viewport=LAPTOP)
    page.locator("body").focus()
    tab_to(page, ".dr-board-svg .dr-target")
    style = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return [s.outlineStyle, s.outlineWidth, s.stroke, s.strokeWidth]; }"""
    )
    assert style[0] != "none" or style[2] not in ("none", ""), style
    # No interactive element inside another in the board's SVG.
    nested = page.evaluate(
        """() => [...document.querySelectorAll('.dr-board-svg [role=button]')]
                  .filter(n => n.parentElement.closest('[role=button], a, button')).length"""
    )
    assert nested == 0
    assert not problems, "\n".join(problems)


def test_http_content_in_french_carries_french_cards(
    server: ServerProcess,
) -> None:
    fr = httpx.get(f"{server.url}/api/games/darkroad/content?lang=fr", timeout=10).json()
    assert fr["lang"] == "fr"
    assert fr["buildings"][0]["text"] != GAME.catalogue("en")["buildings"][0]["text"]
    assert fr["messages"]["Plan"] == "Planifier"


# --- the rules help ----------------------------------------------------------------------------

HELP = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadPlatform();
  const lang = document.documentElement.lang;
  const content = await (await fetch(`/api/games/darkroad/content?lang=${lang}`)).json();
  i18n.addMessages(content.messages);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/js/games/darkroad/darkroad.css";
  document.head.append(link);
  await new Promise((ok) => { link.onload = ok; link.onerror = ok; });
  const { renderHelp } = await import("/static/js/games/darkroad/help.js");
  const main = document.createElement("main");
  const h1 = document.createElement("h1");
  h1.textContent = "Rules";
  main.append(h1);
  renderHelp(main, content);
  document.body.replaceChildren(main);
  return main.innerText;
}"""


@pytest.mark.timeout(300)
def test_the_rules_help_in_both_languages_names_every_icon(
    server: ServerProcess,
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    problems: list[str] = []
    texts: dict[str, str] = {}
    for lang, locale in (("en", "en-US"), ("fr", "fr-FR")):
        page = watch(browser.new_context(locale=locale, **DEVICES["phone"]).new_page(), problems)
        # The home page's own fetches (its lists) answered first: one that came back after
        # the help replaced the page would write into an element no longer there.
        page.goto(server.url + "/", wait_until="networkidle")
        texts[lang] = page.evaluate(HELP)
        for bad in ("{", "undefined", "null"):
            assert bad not in texts[lang], bad
        found = axe_violations(page)
        assert not found, f"{lang} help:\n" + "\n".join(found)
        no_sideways_scroll(page, PHONE["width"])
        if lang == "fr":
            screens(page, "fr-phone-darkroad-help", full_page=True)
        page.context.close()
    en, fr = texts["en"], texts["fr"]
    # Every icon of the board has its name written beside it (visible on touch).
    for name in ("Prestige", "Blazing quartz", "Horseshoe", "Zoom in", "Night dice", "Weapon"):
        assert name in en, name
    for name in ("Prestige", "Quartz ardent", "Fer à cheval", "Zoom avant", "Dés de nuit", "Arme"):
        assert name in fr, name
    assert "Ringway" in en and "Anneau" in fr and "13" in fr
    assert not problems, "\n".join(problems)


@pytest.mark.timeout(300)
def test_the_rules_page_shows_the_dark_road_help_and_names_board_marks_on_a_tap(
    server: ServerProcess,
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    problems: list[str] = []
    page = watch(browser.new_context(locale="fr-FR", **DEVICES["phone"]).new_page(), problems)
    page.goto(server.url + "/rules/darkroad")
    expect(page.locator("#rules-body[data-ready='1']")).to_be_attached(timeout=15_000)
    body = page.locator("#rules-body")
    expect(body).to_contain_text("L'Anneau et ses quartiers")
    expect(body).to_contain_text("Quartz ardent")
    # The chips keep an icon's size (the help brings its style sheet).
    box = body.locator("svg.good-chip").first.bounding_box()
    assert box and box["width"] <= 32, box
    found = axe_violations(page)
    assert not found, "rules page:\n" + "\n".join(found)
    no_sideways_scroll(page, PHONE["width"])
    screens(page, "fr-phone-darkroad-rules", full_page=True)
    page.context.close()
    # On the game page a tap on a board mark (no control) names it in a bubble.
    api = new_room(server.url, options={"max_players": 1})
    start(api)
    page = open_game(browser, api, problems, locale="fr-FR", **DEVICES["phone"])
    # A phone opens the board zoomed on the Ringway: the round track is panned away, so
    # the tap goes to the first board mark in view (a district, a town...).
    expect(page.locator(".dr-board-svg .dr-round[data-tip]").first).to_have_attribute(
        "data-tip", re.compile(r"^Manche 1")
    )
    index = page.evaluate(
        """() => [...document.querySelectorAll('.dr-board-svg [data-tip]')].findIndex(el => {
             if (el.closest('[data-testid=legal-action]')) return false;
             const r = el.getBoundingClientRect(), hit = document.elementFromPoint(
               (r.left + r.right) / 2, (r.top + r.bottom) / 2);
             return r.width > 8 && r.height > 8 && r.left >= 0 && r.top >= 0 &&
               r.right <= innerWidth && r.bottom <= innerHeight && !!hit && el.contains(hit);
           })"""
    )
    assert index >= 0, "no board mark in view"
    mark = page.locator(".dr-board-svg [data-tip]").nth(index)
    tip = mark.get_attribute("data-tip") or ""
    mark.tap()
    expect(page.locator("#tip-bubble")).to_be_visible()
    expect(page.locator("#tip-bubble")).to_contain_text(tip.split("\n")[0][:20])
    assert not problems, "\n".join(problems)
