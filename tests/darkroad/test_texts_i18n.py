"""Dark Road's generated texts in both languages (issue 17): every card text the server
writes into the client catalogue (`GAME.catalogue("en")` / `("fr")`), and every deed
rule the generator can meet, read as a player would: no placeholder left, no "None",
number agreeing with its count, and French that is French.

The log lines and command labels are drawn in the browser (static/js/games/darkroad/
words.js): tests/browser/test_a11y_darkroad.py renders every log event type there.
"""

from __future__ import annotations

import re

import pytest

from app.darkroad import texts
from app.darkroad.content import MEASURES, Deed, load
from app.darkroad.game import GAME, LOCALE
from app.games import i18n

C = load()
LANGS = ("en", "fr")


def _clean(text: str, where: str) -> None:
    assert text.strip(), f"{where}: empty"
    for bad in ("{", "}", "None", "undefined", "null", "  "):
        assert bad not in text, f"{where}: {bad!r} in {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_text_of_the_catalogue_reads_cleanly(lang: str) -> None:
    cat = GAME.catalogue(lang)
    assert cat["lang"] == lang
    for good in cat["board"]["goods"]:
        _clean(good["name"], f"good {good['id']}")
    for part in ("buildings", "upgrades", "deeds"):
        for card in cat[part]:
            _clean(card["name"], f"{part} {card['id']} name")
            _clean(card["text"], f"{part} {card['id']} text")
            assert card["text"].endswith("."), card["text"]


def test_french_cards_are_translated_and_english_ones_are_the_packs() -> None:
    en, fr = GAME.catalogue("en"), GAME.catalogue("fr")
    # English: the generated deed texts say exactly what the pack's authors wrote.
    for card, deed in zip(en["deeds"], C.deeds, strict=True):
        assert card["text"] == deed.text
    for part in ("buildings", "upgrades", "deeds"):
        for e, f in zip(en[part], fr[part], strict=True):
            assert e["id"] == f["id"]
            assert f["text"] != e["text"], f"{part} {e['id']}: not translated"
    assert {g["name"] for g in fr["board"]["goods"]} == {
        "Arme",
        "Armure",
        "Potion",
        "Bâton",
        "Livre",
        "Instrument",
    }
    # A few cards read as a French player expects them to.
    deeds = {d["id"]: d["text"] for d in fr["deeds"]}
    assert deeds["innkeepers_friend"] == "2 PV par héros livré."
    assert deeds["northern_charter"] == (
        "7 PV si vous avez livré au moins 2 commandes ou héros à Brisenord ou Brûlecendre."
    )
    assert (
        deeds["full_wagon"] == "8 pièces s'il vous reste au moins 5 marchandises rangées à la fin."
    )
    # The client's strings come with the French content, not with the English one.
    assert en["messages"] == {}
    assert (en["title"], fr["title"]) == (
        "Merchants of the Dark Road",
        "Marchands de la Route sombre",
    )
    # A district's title and the district in a sentence are two messages.
    assert fr["messages"]["district title\x04Yurg's Excursions"] == "Excursions de Yurg"
    assert fr["messages"]["Yurg's Excursions"] == "les Excursions de Yurg"
    assert fr["messages"][
        "You bump locked slot {slot}: a {die} goes to the action pool."
    ].startswith("Vous délogez")


def test_events_companions_and_steeds_speak_french_too() -> None:
    en, fr = GAME.catalogue("en"), GAME.catalogue("fr")
    for part in ("events", "companions", "steeds"):
        for e, f in zip(en[part], fr[part], strict=True):
            where = f"{part} {e['id']}"
            _clean(f["flavour"], where)
            assert f["flavour"] != e["flavour"], f"{where}: flavour not translated"
            if part != "steeds":  # steeds keep their own names
                assert f["name"] != e["name"] or part == "companions", where
    for e, f, k in zip(en["commissions"], fr["commissions"], C.commissions, strict=True):
        assert e["name"] == k.name and f["name"] != e["name"], e["name"]
        _clean(f["name"], e["id"])
    assert fr["commissions"][0]["name"] == "commande 1 de la garnison de Brisenord"
    events = {x["id"]: x for x in fr["events"]}
    assert events["dark_1"]["name"] == "Des loups au gué"
    assert events["dark_1"]["flavour"].startswith("Des yeux luisent au-delà du gué")
    comps = {x["name"]: x["flavour"] for x in fr["companions"]}
    assert comps["Pip la Souris des glaces"].startswith("Une souris des glaces")
    # English: "an ice mouse", not "a ice mouse" (the pack's template slip).
    assert all(" a ice" not in x["flavour"].lower() for x in en["companions"])
    assert all(not x["flavour"].startswith("A ice") for x in en["companions"])


def _deed(measure: str, per: bool, threshold: int, reward: str, amount: int) -> Deed:
    return Deed(
        id="x",
        name="X",
        measure=measure,
        threshold=threshold,
        reward=reward,
        amount=amount,
        per=per,
    )


@pytest.mark.parametrize("measure", MEASURES)
def test_every_deed_rule_is_written_in_both_languages_with_its_numbers(measure: str) -> None:
    en = i18n.translator(LOCALE, "en")
    fr = i18n.translator(LOCALE, "fr")
    for per in (True, False):
        for threshold in (1, 3):
            for reward, amount in (("vp", 1), ("coins", 4), ("prestige", 2)):
                deed = _deed(measure, per, threshold, reward, amount)
                e = texts.deed_text(en, deed, C)
                f = texts.deed_text(fr, deed, C)
                where = f"{measure} per={per} threshold={threshold} {reward}"
                _clean(e, where)
                _clean(f, where)
                assert e != f, where
                assert e.startswith(f"{amount} ") and f.startswith(f"{amount} "), (e, f)
                # Number agrees with the count: "1 coin"/"4 coins", "1 pièce"/"4 pièces".
                if reward == "coins":
                    assert "4 coins" in e and "4 pièces" in f
                if not per and threshold == 1:
                    assert not re.search(r"\b1\+? (commissions|heroes|lanterns|towns)\b", e), e
                if not per and threshold == 3:
                    assert re.search(r"\b3\+? ", e), e


def test_one_vp_and_one_coin_are_singular() -> None:
    en = i18n.translator(LOCALE, "en")
    fr = i18n.translator(LOCALE, "fr")
    one = _deed("heroes_delivered", False, 1, "coins", 1)
    assert texts.deed_text(en, one, C) == "1 coin if you delivered 1+ hero."
    assert texts.deed_text(fr, one, C) == "1 pièce si vous avez livré au moins 1 héros."


def test_every_french_message_keeps_the_parameters_of_its_english() -> None:
    table = i18n.messages(LOCALE, "fr")
    assert len(table) > 500
    names = re.compile(r"\{(\w+)(?::\w+)?\}")  # "{place:au}" names {place} in a form
    for msgid, text in table.items():
        forms = text if isinstance(text, list) else [text]
        want = set(names.findall(msgid))
        for form in forms:
            got = set(names.findall(form))
            # A plural form may leave {n} out ("one" spelled out); nothing else may go.
            assert got - {"n"} <= want and want - {"n"} <= got, (msgid, form)


def test_every_event_has_its_own_flavour_in_both_languages() -> None:
    """Issue 26: the log gave every dark-road event the same flavour line; each event of
    the base pack now has its own, written in English and French."""
    from app.darkroad.game import GAME

    for lang in ("en", "fr"):
        events = GAME.catalogue(lang)["events"]
        flavours = [e["flavour"] for e in events]
        assert len(set(flavours)) == len(events) == 26, lang
        for e in events:
            assert e["name"] not in e["flavour"], (lang, e["flavour"])
    english = {e["id"]: e["flavour"] for e in GAME.catalogue("en")["events"]}
    french = {e["id"]: e["flavour"] for e in GAME.catalogue("fr")["events"]}
    assert all(english[k] != french[k] for k in english)
