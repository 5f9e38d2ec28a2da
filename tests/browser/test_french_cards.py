"""A Karanor quest card in French on the real page (issue 27, "French all through"): the
card's title, flavour and rules text come from the pack's French (content/base/locale/
fr.yaml), the log says where the merchant went with its article ("aux", "au", "à l'"),
and the game's title is French in the top bar. Every text of the catalogues and every
log line is checked without a browser in tests/i18n/test_french_everywhere.py."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from app.games import i18n
from app.karanor import texts
from app.karanor.content import load, load_in
from app.karanor.game import LOCALE
from tests.browser.test_table import LAPTOP, Api, create_room, token_of
from tests.helpers.browser import FAST, watch
from tests.helpers.server import ServerProcess

SHOTS = Path(os.environ.get("KARANOR_SHOTS", "/work/wt/shots"))


def _act(api: Api, code: str, token: str, cmd: dict[str, Any]) -> dict[str, Any]:
    api.send(code, token, cmd)
    return api.view(code, token)


def test_a_karanor_quest_card_in_french(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env=FAST).start()
    base = server.url
    api = Api(base)
    problems: list[str] = []
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    ana = watch(context.new_page(), problems)
    code = create_room(ana, base, "Ana")
    tokens = [token_of(ana, code), api.join(code, "Bo")]
    r = api.host_call("POST", f"/api/rooms/{code}/start", tokens[0], {"options": {}})
    assert r.status_code == 200, r.text
    expect(ana.locator(".topbar .brand")).to_have_text("Marchands de Karanor")

    # The draft by the API (each keeps its first card), then Bo ends a turn if it is his.
    for _ in range(2):
        for token in tokens:
            view = api.view(code, token)
            pick = next(a for a in view["legal_actions"] if a["type"] == "draft_pick")
            api.send(code, token, pick)
    view = api.view(code, tokens[0])
    if view["turn"]["seat"] != view["seat"]:
        api.send(code, tokens[1], {"type": "end_turn"})
        view = api.view(code, tokens[0])
    # Ana walks to the nearest inhabitant and meets them: a quest card to her hand.
    content = load("base")
    homes = {i.territory for i in content.inhabitants}
    move = min(
        (a for a in view["legal_actions"] if a["type"] == "move" and a.get("to") in homes),
        key=lambda a: len(a.get("path", ())),
    )
    view = _act(api, code, tokens[0], move)
    view = _act(api, code, tokens[0], {"type": "interact"})
    # An immediate choice is answered (a plain quest stays in hand).
    for a in view["legal_actions"]:
        if a["type"] == "quest_choice":
            view = _act(api, code, tokens[0], a)
            break
    quests = view["private"]["quests"]
    french = load_in("base", "fr")
    french_words = i18n.translator(LOCALE, "fr")
    place = french.territory[move["to"]]

    ana.reload()
    if quests:
        card = french.quest[quests[0]]
        node = ana.locator(".quest-card", has_text=card.name).first
        expect(node).to_be_visible()
        expect(node).to_contain_text(card.flavour)
        # What its first way to complete it asks, in the server's French words (the
        # card dealt differs from room to room: most ask to be somewhere, some not).
        expect(node).to_contain_text(texts.choice(french, card.complete[0], french_words))
        expect(node).to_contain_text("Il faut ")
        node.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        node.screenshot(path=str(SHOTS / "fr-karanor-quest-card.png"))
        ana.screenshot(path=str(SHOTS / "fr-karanor-quest-card-page.png"))
    log = ana.get_by_test_id("log")
    article = {"le": "au ", "la": "à la ", "l'": "à l'", "les": "aux "}
    said = article.get(french.articles.get(move["to"], ""), "à ") + place.name
    expect(log).to_contain_text(f"Vous êtes allé {said}")
    assert not problems, problems
