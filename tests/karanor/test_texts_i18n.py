"""Every generated card text in English and French (issue 17, "Grammar": card text
"pay 1 gold more to 1 extra action this turn", artifact text "if you be in a city";
"Generated texts need person and number handled by the catalogue, and a test that
renders every card text ... and checks them").

The texts come from the game's own catalogue as the client receives it
(`GAME.catalogue(lang)`), so what is checked is what a player reads. The log lines
(rendered in the browser) are checked in tests/browser/test_a11y_karanor.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.games import i18n
from app.karanor import texts
from app.karanor.content import Content, load
from app.karanor.game import GAME, LOCALE

DECKS = ("quests", "black_market", "business", "artifacts", "badges", "stories", "deliveries")
BASE = load("base")


def cards(lang: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    cat = GAME.catalogue(lang)["catalogue"]
    for deck in DECKS:
        for cid, card in cat[deck].items():
            yield deck, cid, card


def proper_names(c: Content) -> list[str]:
    """Names the content gives in one language only (cards, places, quest options):
    left out before looking for English words in a French text."""
    names = [t.name for t in c.map.territories]
    names += [b.name for b in c.badges] + [b.name for b in c.business]
    names += [b.bonus.name for b in c.business if b.bonus]
    names += [q.name for q in c.quest.values()]
    names += [ch.label for q in c.quest.values() for ch in (*q.immediate, *q.complete)]
    return sorted(set(names), key=len, reverse=True)


# Phrases of the English texts that a French text must not keep ("or" and "badge" are French too).
ENGLISH = re.compile(
    r"\b(gain|take|pay|must|play|target|once per|on opening|cost|bring|start with|gold|wood|"
    r"ore|cloth|wine|meat|diamonds?|revenue|work gives|extra action|they|their|you|your|"
    r"and|draw|quests?|nothing|each turn|more|less|at least|city)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_card_text_is_whole_and_grammatical(lang: str) -> None:
    """No parameter left unfilled, no verb glued to a noun phrase ("to 1 extra"), no
    "you be", no unknown effect ("?"), no doubled or empty words."""
    seen = 0
    for deck, cid, card in cards(lang):
        text = card["text"]
        where = f"{lang} {deck} {cid}: {text!r}"
        if deck != "badges":
            assert text.strip(), where
        assert "{" not in text and "}" not in text, where
        assert not re.search(r"\bto \d+ extra\b", text), where
        assert "you be " not in text and " you be." not in text, where
        assert not re.search(r"(^|[\s:,;])\?([\s.,;]|$)", text), where
        assert "  " not in text and "undefined" not in text and "None" not in text, where
        assert not re.search(r"\b(\w+) \1\b", text.replace("2/2", "")), where
        seen += 1
    assert seen > 100


def test_french_card_texts_are_french() -> None:
    """Each French text differs from the English one and, once the content's own names
    (cards, places, quest options: English only) are set aside, keeps no English word."""
    english = {(d, i): c["text"] for d, i, c in cards("en")}
    names = proper_names(BASE)
    for deck, cid, card in cards("fr"):
        text = card["text"]
        if not text:
            continue
        assert text != english[deck, cid], f"{deck} {cid} untranslated: {text!r}"
        rest = text
        for name in names:
            rest = rest.replace(name, "")
        found = ENGLISH.findall(rest)
        assert not found, f"{deck} {cid}: English {found} left in {text!r}"


def test_numbers_agree_in_both_languages() -> None:
    """Plural forms come from the catalogue: "1 diamond" / "2 diamonds", "1 minerai" /
    "2 minerais"; never "1 diamonds" or "2 diamond"."""
    en = " ".join(c["text"] for _, _, c in cards("en"))
    fr = " ".join(c["text"] for _, _, c in cards("fr"))
    assert not re.search(r"\b1 (diamonds|quests|territories|businesses)\b", en)
    assert not re.search(r"\b([2-9]|\d\d) (diamond|quest|extra action|territory)\b(?!s)", en)
    assert not re.search(r"\b1 (minerais|tissus|vins|viandes|diamants|quêtes)\b", fr)
    assert not re.search(r"\b([2-9]|\d\d) (minerai|tissu|vin|viande|diamant|quête)\b(?!s)", fr)
    assert re.search(r"\b[2-9] minerais\b", fr) and re.search(r"\b1 minerai\b", fr)


def test_the_bonus_and_the_artifact_of_the_issue() -> None:
    """The two sentences the issue names read right: a business bonus that gives an
    extra action, and an artifact power that asks to be in a city (mini pack)."""
    en = i18n.translator(LOCALE, "en")
    fr = i18n.translator(LOCALE, "fr")
    bonus = [
        texts.business(BASE, b, en)
        for b in BASE.business
        if b.bonus and any(r.extra_actions for r in b.bonus.reward)
    ]
    assert bonus
    for text in bonus:
        assert re.search(r"for \d+ gold more, gain 1 extra action this turn", text), text
    mini = load("mini")
    in_city = [
        a for a in mini.artifacts if a.activate and any(r.in_city for r in a.activate.requires)
    ]
    assert in_city
    for a in in_city:
        assert "if you are in a city" in texts.artifact(mini, a, en)
        assert "si vous êtes dans une ville" in texts.artifact(mini, a, fr)
    # A choice's condition keeps its infinitive form after "Must".
    quest = next(
        q
        for q in mini.quest.values()
        if any(cond.in_city for ch in q.complete for cond in ch.requires)
    )
    assert "Must be in a city" in texts.quest(mini, quest, en)
    assert "Il faut être dans une ville" in texts.quest(mini, quest, fr)


def test_the_content_carries_the_catalogue_messages() -> None:
    """The client's strings reach the browser with the content: French in `messages`,
    none for English (the source language)."""
    assert GAME.catalogue("en")["messages"] == {}
    messages = GAME.catalogue("fr")["messages"]
    assert messages["You played {card} on {target}."].startswith("Vous avez joué")
    # The owner's name takes French elision at the page ("de Anna" -> "d'Anna"), 419e598.
    assert messages["counters {owner}'s offer, {to}"] == "contre-propose à l'offre {owner:du}, {to}"
