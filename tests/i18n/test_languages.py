"""Languages (issue 17): the catalogue machinery, the language a page is shown in, and the
strings the browser gets. The texts themselves are checked in test_catalogues.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.games import i18n
from app.main import create_app

PO = r"""
msgid ""
msgstr ""
"Language: fr\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "Take a seat"
msgstr "Prendre une place"

msgid "{n} gold"
msgid_plural "{n} gold"
msgstr[0] "{n} or"
msgstr[1] "{n} ors"

msgctxt "verb"
msgid "Build"
msgstr "Construire"

msgid "Build"
msgstr "Bâtiment"

#, fuzzy
msgid "Half done"
msgstr "À moitié"

msgid "Untranslated"
msgstr ""
"""


@pytest.fixture
def fr(tmp_path: Path) -> i18n.Translator:
    (tmp_path / "fr.po").write_text(PO, encoding="utf-8")
    return i18n.translator(tmp_path, "fr")


def test_a_translated_message_and_its_fallbacks(fr: i18n.Translator) -> None:
    assert fr.gettext("Take a seat") == "Prendre une place"
    # Untranslated, fuzzy and unknown messages fall back to the English text.
    assert fr.gettext("Untranslated") == "Untranslated"
    assert fr.gettext("Half done") == "Half done"
    assert fr.gettext("Hello {name}", name="Ana") == "Hello Ana"


def test_french_plural_forms_count_zero_and_one_as_singular(fr: i18n.Translator) -> None:
    # French: 0 and 1 take the singular ("0 or", "1 or"), English only 1 ("0 gold" plural).
    assert [fr.ngettext("{n} gold", "{n} gold", n) for n in (0, 1, 2)] == ["0 or", "1 or", "2 ors"]
    en = i18n.Translator("en", {})
    assert [en.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == [
        "0 cards",
        "1 card",
        "2 cards",
    ]


def test_a_context_tells_two_messages_of_one_english_text_apart(fr: i18n.Translator) -> None:
    assert fr.pgettext("verb", "Build") == "Construire"
    assert fr.gettext("Build") == "Bâtiment"


@pytest.mark.parametrize(
    ("header", "chosen", "expected"),
    [
        (None, None, "en"),
        ("fr-FR,fr;q=0.9,en;q=0.8", None, "fr"),
        ("de-DE,de;q=0.9,fr;q=0.5,en;q=0.4", None, "fr"),
        ("en-GB;q=0.3,fr;q=0.7", None, "fr"),
        ("fr;q=0", None, "en"),
        ("fr;q=nonsense, en", None, "en"),
        ("fr-FR", "en", "en"),
        ("en", "fr", "fr"),
        ("en", "klingon", "en"),
        ("*", None, "en"),
    ],
)
def test_the_language_is_the_choice_else_the_browser_preference(
    header: str | None, chosen: str | None, expected: str
) -> None:
    assert i18n.negotiate(header, chosen) == expected


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/k.db"))
    with TestClient(app) as c:
        yield c


def test_html_lang_follows_accept_language_until_the_player_chooses(client: TestClient) -> None:
    for path in ("/", "/r/ABCDEF"):
        page = client.get(path, headers={"accept-language": "fr-FR,fr;q=0.9"})
        assert '<html lang="fr">' in page.text
        assert "Accept-Language" in page.headers["vary"]
        assert '<html lang="en">' in client.get(path).text
        client.cookies.set("karanor_lang", "en")
        chosen = client.get(path, headers={"accept-language": "fr"})
        assert '<html lang="en">' in chosen.text
        client.cookies.clear()


def test_the_browser_gets_the_strings_of_a_language(client: TestClient) -> None:
    fr = client.get("/api/i18n/fr")
    assert fr.status_code == 200
    body = fr.json()
    assert body["lang"] == "fr"
    assert {"id": "fr", "name": "Français"} in body["languages"]
    assert body["messages"] == i18n.messages(i18n_dir(), "fr")
    # An unknown language is English (no messages), never an error.
    other = client.get("/api/i18n/xx")
    assert other.status_code == 200 and other.json()["lang"] == "en"
    assert other.json()["messages"] == {}
    again = client.get("/api/i18n/fr", headers={"if-none-match": fr.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("game", ["karanor", "darkroad"])
def test_a_game_content_comes_in_the_language_asked(client: TestClient, game: str) -> None:
    en = client.get(f"/api/games/{game}/content").json()
    fr = client.get(f"/api/games/{game}/content", params={"lang": "fr"}).json()
    assert (en["lang"], fr["lang"]) == ("en", "fr")
    assert en["messages"] == {}
    assert isinstance(fr["messages"], dict)
    assert client.get(f"/api/games/{game}/content", params={"lang": "zz"}).json()["lang"] == "en"
    # Two languages, two versions: a cached English copy never answers for French.
    e1 = client.get(f"/api/games/{game}/content").headers["etag"]
    e2 = client.get(f"/api/games/{game}/content", params={"lang": "fr"}).headers["etag"]
    assert e1 != e2


def i18n_dir() -> Path:
    from app.paths import locale_dir

    return locale_dir()
