"""The shell in two languages (issue 17): `<html lang>` follows the browser's
Accept-Language until the player chooses with the switch (`data-testid=language`, on
every page), and the choice sticks across reloads and pages; the shell's own texts
(templates and JS) are French in French, the generated ones too (durations, plurals, the
winner line: a sentence about "you" and one about others are different messages).

Screenshots (in /tmp/karanor-screens): fr-phone-home.png, fr-phone-lobby.png,
fr-phone-rules.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import PHONE, no_sideways_scroll, watch
from tests.helpers.server import ServerProcess

QUIET = {"KARANOR_LOG_LEVEL": "warning"}
RULES = re.compile(r"/rules/karanor\?from=%2Fr%2F|/rules/karanor\?from=%2F$")
PHONE_CONTEXT: dict[str, Any] = {"viewport": PHONE, "device_scale_factor": 2, "has_touch": True}


def test_pages_answer_in_the_language_asked(
    server_factory: Callable[..., ServerProcess],
) -> None:
    """Server side: the page's language and its switch, the rules route (no 500)."""
    base = server_factory(env=QUIET).start().url
    fr = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
    for path in ("/", "/r/ABCDE", "/rules/karanor"):
        page = httpx.get(base + path, headers=fr, timeout=10)
        assert page.status_code == 200, path
        assert '<html lang="fr">' in page.text, path
        assert 'data-testid="language"' in page.text, path
        assert '<option value="fr" lang="fr" selected>Français</option>' in page.text, path
        english = httpx.get(base + path, cookies={"karanor_lang": "en"}, headers=fr, timeout=10)
        assert '<html lang="en">' in english.text, path
        assert '<option value="en" lang="en" selected>English</option>' in english.text, path
    home = httpx.get(base + "/", headers=fr, timeout=10).text
    assert "Créer une salle" in home and "Create a room" not in home
    rules = httpx.get(base + "/rules/karanor", headers=fr, timeout=10).text
    assert "Règles\u202f: Marchands de Karanor" in rules
    missing = httpx.get(base + "/rules/%3Cscript%3E", headers=fr, timeout=10)
    assert missing.status_code == 404
    assert "Jeu inconnu" in missing.text and "<script>" not in missing.text


def lang_of(page: Page) -> str:
    return str(page.evaluate("document.documentElement.lang"))


@pytest.mark.slow
def test_french_from_the_browser_then_english_by_choice(
    server_factory: Callable[..., ServerProcess],
    browser: Browser,
    screens: Callable[..., None],
) -> None:
    base = server_factory(env=QUIET).start().url
    problems: list[str] = []
    context = browser.new_context(locale="fr-FR", **PHONE_CONTEXT)
    page = watch(context.new_page(), problems)

    # --- home, in French from Accept-Language: the template and home.js's own texts ----
    page.goto(base + "/")
    assert lang_of(page) == "fr"
    expect(page.locator("#create-title")).to_have_text("Créer une salle")
    karanor = page.locator(".game-option", has_text="Marchands de Karanor")
    expect(karanor).to_contain_text("2 à 6 joueurs")  # drawn by home.js after loadPlatform()
    expect(page.locator("[data-testid=rules-link][data-game=karanor]")).to_have_text("Règles")
    switch = page.get_by_test_id("language")
    expect(switch).to_have_value("fr")
    assert page.evaluate('document.getElementById("language-select").labels[0].textContent')
    page.get_by_test_id("create-room").click()
    expect(page.locator("#create-error")).to_have_text("Entrez d’abord votre nom.")
    page.get_by_test_id("name-input").fill("Ana")
    no_sideways_scroll(page, PHONE["width"])
    screens(page, "fr-phone-home", full_page=True)

    # --- the lobby: template, lobby.js and table.js in French ------------------------------
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/**")
    code = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("seat")).to_have_count(1)
    expect(page.locator("#lobby-title")).to_have_text("Salle d’attente")
    expect(page.get_by_test_id("room-game")).to_contain_text("2 à 6 joueurs")
    expect(page.get_by_test_id("room-game")).to_contain_text("Marchands de Karanor")
    expect(page.locator(".seat .tag.you")).to_have_text("vous")
    expect(page.locator("#host-title")).to_have_text("Hôte")
    expect(page.get_by_test_id("presence")).to_have_text("en ligne")
    expect(page.get_by_test_id("timer-words")).to_have_text("Pas de minuteur de tour.")
    expect(page.locator("#start-game")).to_have_text("Lancer la partie")
    expect(page.locator("#conn")).to_have_text("en direct")
    expect(page.get_by_test_id("language")).to_have_value("fr")
    with page.expect_response(lambda r: r.url.endswith("/timer")):
        page.get_by_test_id("timer-turn").select_option("hours")
    page.get_by_test_id("timer-hours").fill("3")
    with page.expect_response(lambda r: r.url.endswith("/timer")):
        page.get_by_test_id("timer-hours").dispatch_event("change")
    expect(page.get_by_test_id("timer-words")).to_contain_text("3 heures par tour")
    no_sideways_scroll(page, PHONE["width"])
    screens(page, "fr-phone-lobby", full_page=True)

    # --- the rules page in French ---------------------------------------------------------
    page.locator("#lobby-rules-link").click()
    page.wait_for_url(RULES)
    assert lang_of(page) == "fr"
    expect(page.locator("h1")).to_have_text("Règles\u202f: Marchands de Karanor")
    page.wait_for_selector("#rules-body[data-ready]")
    screens(page, "fr-phone-rules", full_page=True)
    page.go_back()
    page.wait_for_url(f"**/r/{code}")

    # --- the switch: English, and it sticks across reloads and pages ------------------------
    with page.expect_navigation():
        page.get_by_test_id("language").select_option("en")
    expect(page.locator("#lobby-title")).to_have_text("Waiting room")
    assert lang_of(page) == "en"
    expect(page.get_by_test_id("language")).to_have_value("en")
    expect(page.locator(".seat .tag.you")).to_have_text("you")
    page.reload()
    expect(page.locator("#lobby-title")).to_have_text("Waiting room")
    assert lang_of(page) == "en"
    page.goto(base + "/")
    expect(page.locator("#create-title")).to_have_text("Create a room")
    assert lang_of(page) == "en"
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_generated_shell_texts_in_both_languages(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    """The shell's generated sentences (the winner line, durations, the timer, plurals),
    in English and in French, for "you" and for other players."""
    base = server_factory(env=QUIET).start().url
    script = """async () => {
      const i18n = await import("/static/js/i18n.js");
      await i18n.loadPlatform();
      const end = await import("/static/js/endgame.js");
      const table = await import("/static/js/table.js");
      const util = await import("/static/js/util.js");
      const who = (s) => ["Ana", "Bo", "Cy"][s];
      return {
        youWin: end.winnerText([0], who, 0),
        anaWins: end.winnerText([0], who, 1),
        youShare: end.winnerText([0, 2], who, 0),
        othersShare: end.winnerText([1, 2], who, 0),
        threeShare: end.winnerText([0, 1, 2], who, null),
        over: end.winnerText([], who, 0),
        oneHour: table.durationText(3600),
        hours: table.durationText(3 * 3600),
        clock: table.clockText(2 * 86400 + 4 * 3600),
        timer: table.timerText({turn_seconds: 120, reserve_seconds: 300}),
        players: util.playerRange({min_players: 2, max_players: 6}),
        two: util.playerRange({min_players: 2, max_players: 2}),
      };
    }"""
    expected = {
        "en": {
            "youWin": "You win!",
            "anaWins": "Ana wins!",
            "youShare": "You and Cy share the victory!",
            "othersShare": "Bo and Cy share the victory!",
            "threeShare": "Ana, Bo, and Cy share the victory!",
            "over": "The game is over.",
            "oneHour": "1 hour",
            "hours": "3 hours",
            "clock": "2 days 4 h",
            "timer": "2 minutes a turn + 5 minutes of reserve each. Out of time, a bot plays "
            "that turn for the player; the seat stays theirs.",
            "players": "2–6 players",
            "two": "2 players",
        },
        "fr": {
            "youWin": "Vous avez gagné\u202f!",
            "anaWins": "Ana a gagné\u202f!",
            "youShare": "Cy et vous partagez la victoire\u202f!",
            "othersShare": "Bo et Cy se partagent la victoire\u202f!",
            "threeShare": "Ana, Bo et Cy se partagent la victoire\u202f!",
            "over": "La partie est terminée.",
            "oneHour": "1 heure",
            "hours": "3 heures",
            "clock": "2 jours 4 h",
            "timer": "2 minutes par tour + 5 minutes de réserve chacun. À court de temps, un "
            "robot joue ce tour pour le joueur ; la place reste la sienne.",
            "players": "2 à 6 joueurs",
            "two": "2 joueurs",
        },
    }
    problems: list[str] = []
    for lang, texts in expected.items():
        page = watch(browser.new_context(locale=f"{lang}-FR").new_page(), problems)
        page.goto(base + "/")
        assert lang_of(page) == lang
        assert page.evaluate(script) == texts
    assert not problems, "\n".join(problems)


def test_a_refusal_is_said_in_the_page_s_language(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    """The server's error messages are English, for programs: a French page says a
    refusal in French by its code (a name already at the table: it showed "a seat is
    already called 'ANA'"); an English page in English."""
    base = server_factory(env=QUIET).start().url
    made = httpx.post(f"{base}/api/rooms", json={"name": "Ana"}, timeout=10).json()
    problems: list[str] = []
    for locale, said in (
        ("fr-FR", "Quelqu’un à cette table porte déjà ce nom"),
        ("en-US", "Someone at this table already has that name"),
    ):
        page = watch(browser.new_context(locale=locale, **PHONE_CONTEXT).new_page(), problems)
        page.goto(f"{base}/r/{made['code']}")
        expect(page.locator("#join-name")).to_be_visible(timeout=15_000)
        page.locator("#join-name").fill("ANA")
        with page.expect_response(lambda r: r.url.endswith("/seats")) as refused:
            page.get_by_test_id("join-room").click()
        assert refused.value.status == 409
        expect(page.locator("#toasts")).to_contain_text(said)
        expect(page.locator("#toasts")).not_to_contain_text("already called")
        page.context.close()
    # the refused join is a console error of the page's own request: nothing else
    assert all("409" in p for p in problems), "\n".join(problems)
