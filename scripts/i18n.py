"""The translation catalogues: extract every message from the sources, update the
`.po` files, and check them.

    .venv/bin/python scripts/i18n.py update   # new messages into every <lang>.po
    .venv/bin/python scripts/i18n.py check    # what is missing or broken (exit 1 if any)

Three catalogues (domains), each beside the code it translates:
- platform: app/locale/  <- templates/, static/js/*.js (the shell), app/web/
- karanor:  app/karanor/locale/  <- app/karanor/, static/js/games/karanor/
- darkroad: app/darkroad/locale/ <- app/darkroad/, static/js/games/darkroad/

Messages are marked with the gettext names: in Python and templates `_`, `gettext`,
`ngettext`, `pgettext`; in JavaScript `t`, `tn`, `tp` (static/js/i18n.js). A message's
argument must be a plain string literal (no template literal, no concatenation).
tests/i18n/test_catalogues.py runs `problems()`: every message has its French text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
from jinja2.ext import babel_extract

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("fr",)  # English is the source language
PLURAL_FORMS = {"fr": r'"Plural-Forms: nplurals=2; plural=(n > 1);\\n"'}

PY_KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
JS_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2)}


@dataclass(frozen=True)
class Domain:
    name: str
    locale: Path
    sources: tuple[tuple[str, str], ...]  # (glob under ROOT, method)


DOMAINS = (
    Domain(
        "platform",
        ROOT / "app" / "locale",
        (
            ("templates/**/*.html", "jinja2"),
            ("static/js/*.js", "javascript"),
            ("app/web/**/*.py", "python"),
            ("app/notices/**/*.py", "python"),
        ),
    ),
    Domain(
        "karanor",
        ROOT / "app" / "karanor" / "locale",
        (("app/karanor/**/*.py", "python"), ("static/js/games/karanor/**/*.js", "javascript")),
    ),
    Domain(
        "darkroad",
        ROOT / "app" / "darkroad" / "locale",
        (("app/darkroad/**/*.py", "python"), ("static/js/games/darkroad/**/*.js", "javascript")),
    ),
)

Key = tuple[str | tuple[str, str], str | None]  # (msgid or (singular, plural), context)


def _method(method: str) -> Any:
    return babel_extract if method == "jinja2" else method


def extract(domain: Domain) -> Iterator[tuple[Key, str]]:
    """Every message of `domain`'s sources, with where it was found."""
    for pattern, method in domain.sources:
        keywords = JS_KEYWORDS if method == "javascript" else PY_KEYWORDS
        options: dict[str, Any] = {
            "jinja2": {"extensions": "jinja2.ext.i18n"},
            # t() inside `${...}` of a template literal is found too.
            "javascript": {"parse_template_string": True},
        }.get(method, {})
        for path in sorted(ROOT.glob(pattern)):
            for lineno, message, _comments, context in extract_from_file(
                _method(method), str(path), keywords=keywords, options=options
            ):
                where = f"{path.relative_to(ROOT)}:{lineno}"
                if isinstance(message, tuple):
                    if len(message) < 2 or not message[0] or not message[1]:
                        raise SystemExit(f"{where}: a plural message needs two plain strings")
                    yield ((message[0], message[1]), context), where
                elif message:
                    yield (message, context), where


def template(domain: Domain) -> Catalog:
    catalog = Catalog(project="Karanor Online", domain=domain.name)
    for (msgid, context), where in extract(domain):
        path, line = where.rsplit(":", 1)
        catalog.add(msgid, locations=[(path, int(line))], context=context)
    return catalog


def read(path: Path, lang: str) -> Catalog:
    if not path.is_file():
        return Catalog(locale=lang, domain=path.parent.name)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def update() -> None:
    for domain in DOMAINS:
        pot = template(domain)
        domain.locale.mkdir(parents=True, exist_ok=True)
        for lang in LANGUAGES:
            path = domain.locale / f"{lang}.po"
            catalog = read(path, lang)
            catalog.update(pot, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            catalog.project, catalog.version = "Karanor Online", ""
            catalog.copyright_holder = "the Karanor Online developers"
            catalog.msgid_bugs_address = ""
            catalog.last_translator = "Karanor Online developers"
            catalog.language_team = ""
            catalog.fuzzy = False
            with path.open("wb") as f:
                write_po(f, catalog, width=100, omit_header=False, sort_output=False)
            # Two plural forms, as gettext has always had them (CLDR adds a third, for
            # millions, that no message here needs); app/games/i18n.py and
            # static/js/i18n.js apply the same rule.
            text = re.sub(r'"Plural-Forms: [^"]*"', PLURAL_FORMS[lang], path.read_text())
            path.write_text(text)
            print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


_PARAM = re.compile(r"\{(\w*)(?::\w+)?\}")


def problems() -> list[str]:
    """Messages without a French text, or whose {parameters} differ from the English."""
    out: list[str] = []
    for domain in DOMAINS:
        seen: dict[Key, str] = dict(extract(domain))
        for lang in LANGUAGES:
            path = domain.locale / f"{lang}.po"
            catalog = read(path, lang)
            for (msgid, context), where in seen.items():
                single = msgid[0] if isinstance(msgid, tuple) else msgid
                message = catalog.get(single, context=context)
                if (
                    message is None
                    or message.fuzzy
                    or not all(
                        message.string if isinstance(message.string, tuple) else [message.string]
                    )
                ):
                    out.append(f"{where}: no {lang} text for {single!r}")
                    continue
                english = set(
                    _PARAM.findall(" ".join(msgid if isinstance(msgid, tuple) else [msgid]))
                )
                forms = message.string if isinstance(message.string, tuple) else (message.string,)
                for form in forms:
                    extra = (
                        set(_PARAM.findall(form))
                        - english
                        - ({"n"} if isinstance(msgid, tuple) else set())
                    )
                    if extra:
                        out.append(
                            f"{where}: {lang} text of {single!r} names unknown {sorted(extra)}"
                        )
    return out


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        update()
        return 0
    if argv[1:] == ["check"]:
        found = problems()
        print("\n".join(found) or "every message is translated")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
