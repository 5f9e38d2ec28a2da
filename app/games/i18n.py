"""Translations: gettext catalogues (`.po` files, read with Babel) for the platform and
each game, in English (the source language: msgids are English) and French.

One message is found by its English text (and an optional context, gettext's msgctxt);
its parameters are named, `{name}`, filled by `str.format` here and by the same rule in
the browser (static/js/i18n.js). Grammar is never built by concatenation:
- number: `ngettext("{n} gold", "{n} gold", n)` picks the language's plural form;
- person: a sentence about the reader and one about another player are two messages
  ("You counter {owner}'s offer." / "{actor} counters {owner}'s offer."), chosen by the
  caller, so each language conjugates its own verb;
- articles: a name is a `Noun` (its text and its article in the language: le, la, l',
  les, or none for a proper name), and a message names the form it needs with a format
  spec: "{place:au}" -> "au Marché noir", "à l'Atelier", "aux Dunes Rouges", "à Kien";
  "{card:le}" -> "l'Atelier"; "{card:du}" -> "de l'Atelier", "d'Orth"; "{card:Le}" at the
  start of a sentence. A plain string is a name without an article. English messages
  use the bare "{place}". static/js/i18n.js applies the same rule.

Nothing here knows a game or the platform: a game loads its own `locale/` folder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LANGUAGES = ("en", "fr")
DEFAULT = "en"
DECIMAL_MARK = {"en": ".", "fr": ","}  # how each language writes 2.8
NAMES = {"en": "English", "fr": "Français"}

# Plural rules (gettext's Plural-Forms), the same in static/js/i18n.js.
PLURAL: dict[str, Callable[[int], int]] = {
    "en": lambda n: 0 if n == 1 else 1,
    "fr": lambda n: 0 if n in (0, 1) else 1,
}

# The key of a message with a context: gettext's own separator (EOT).
CONTEXT_SEPARATOR = "\x04"

Translation = str | list[str]  # one text, or the plural forms of the language

_VOWEL = "aeiouyhàâäéèêëîïôöùûüœAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜŒ"


def form(name: str, article: str, spec: str) -> str:
    """`name` in the grammatical form `spec` (le, Le, au, du, que; "" for the bare name)."""
    if spec == "":
        return name
    if spec in ("le", "Le"):
        text = f"l'{name}" if article == "l'" else f"{article} {name}" if article else name
        return text[:1].upper() + text[1:] if spec == "Le" else text
    if spec == "au":
        return {"le": "au ", "la": "à la ", "l'": "à l'", "les": "aux "}.get(article, "à ") + name
    if spec == "du":
        if not article:
            return ("d'" if name[:1] in _VOWEL else "de ") + name
        return {"le": "du ", "la": "de la ", "l'": "de l'", "les": "des "}[article] + name
    if spec == "que":  # "On attend {who:que} ...": qu'Anne, que Bo, que la ...
        text = form(name, article, "le")
        return ("qu'" if text[:1] in _VOWEL else "que ") + text
    raise ValueError(f"unknown form {spec!r} of a name")


class Noun(str):
    """A name with its article: formatted bare ("{x}") or in a form ("{x:au}", see
    `form`)."""

    article: str

    def __new__(cls, name: str, article: str = "") -> Noun:
        obj = super().__new__(cls, name)
        obj.article = article
        return obj

    def __format__(self, spec: str) -> str:
        return form(str(self), self.article, spec)


def _nouns(params: dict[str, Any]) -> dict[str, Any]:
    """Plain strings as names without an article, so "{x:au}" formats any name."""
    return {k: Noun(v) if type(v) is str else v for k, v in params.items()}


def key(msgid: str, context: str | None = None) -> str:
    return f"{context}{CONTEXT_SEPARATOR}{msgid}" if context else msgid


@functools.cache
def read(path: Path) -> dict[str, Translation]:
    """The translated messages of one `.po` file (untranslated and fuzzy ones left out,
    so they fall back to English)."""
    with path.open("rb") as f:
        catalog = read_po(f)
    out: dict[str, Translation] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = [str(s) for s in message.string or ()]
            if all(forms):
                out[key(message.id[0], message.context)] = forms
        elif message.string:
            out[key(str(message.id), message.context)] = str(message.string)
    return out


def messages(folder: Path, lang: str) -> dict[str, Translation]:
    """The messages of `folder/<lang>.po` (empty for English, the source language)."""
    path = folder / f"{lang}.po"
    return read(path) if lang != DEFAULT and path.is_file() else {}


class Translator:
    """gettext, ngettext and pgettext of one language over a dict of messages."""

    def __init__(self, lang: str, table: Mapping[str, Translation]) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.table = table
        self._plural = PLURAL[self.lang]

    def gettext(self, msgid: str, /, **params: Any) -> str:
        found = self.table.get(msgid)
        text = found if isinstance(found, str) else msgid
        return text.format(**_nouns(params)) if params else text

    def pgettext(self, context: str, msgid: str, /, **params: Any) -> str:
        found = self.table.get(key(msgid, context))
        text = found if isinstance(found, str) else msgid
        return text.format(**_nouns(params)) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        found = self.table.get(singular)
        if isinstance(found, list) and found:
            text = found[min(self._plural(n), len(found) - 1)]
        else:
            text = singular if n == 1 else plural
        return text.format(n=n, **_nouns(params))

    def decimal(self, x: float, places: int = 1) -> str:
        """`x` with `places` decimals, as the language writes it (French: 2,8)."""
        return f"{x:.{places}f}".replace(".", DECIMAL_MARK[self.lang])

    # The short names gettext's tools extract (babel: -k _ -k N_ ...).
    _ = gettext


def translator(folder: Path, lang: str) -> Translator:
    return Translator(lang, messages(folder, lang))


def negotiate(accept_language: str | None, chosen: str | None = None) -> str:
    """The language to show: the player's choice, else the browser's preference
    (`Accept-Language`, by quality), else English."""
    if chosen in LANGUAGES:
        return chosen
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES and quality > 0:
            ranked.append((-quality, i, lang))
    return min(ranked)[2] if ranked else DEFAULT
