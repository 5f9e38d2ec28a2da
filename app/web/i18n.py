"""Languages: which one a page is shown in, and the platform's strings for the browser.

The language is the player's choice (the `karanor_lang` cookie, set by the switch on
every page), else the browser's `Accept-Language`, else English. A game's own strings
come with its content (`/api/games/{game}/content?lang=`).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response

from app.games import i18n
from app.paths import locale_dir

router = APIRouter(tags=["games"])

COOKIE = "karanor_lang"


def language(request: Request) -> str:
    """The language `request`'s page is shown in."""
    return i18n.negotiate(request.headers.get("accept-language"), request.cookies.get(COOKIE))


def translator(lang: str) -> i18n.Translator:
    return i18n.translator(locale_dir(), lang)


def languages() -> list[dict[str, str]]:
    return [{"id": lang, "name": i18n.NAMES[lang]} for lang in i18n.LANGUAGES]


@functools.lru_cache(maxsize=8)
def _body(lang: str) -> tuple[bytes, str]:
    body = orjson.dumps(
        {"lang": lang, "languages": languages(), "messages": i18n.messages(locale_dir(), lang)}
    )
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@router.get(
    "/api/i18n/{lang}",
    summary="The platform's strings for the browser in one language (English if unknown)",
)
def strings(request: Request, lang: str) -> Response:
    body, etag = _body(lang if lang in i18n.LANGUAGES else i18n.DEFAULT)
    # Asked by its version (the page names it in data-i18n): cached a year.
    versioned = request.query_params.get("v") == etag.strip('"')
    headers = {"ETag": etag, "Cache-Control": IMMUTABLE if versioned else "public, max-age=300"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


IMMUTABLE = "public, max-age=31536000, immutable"


def strings_version(lang: str) -> str:
    """The version of the platform's strings in `lang` (their ETag's hash)."""
    return _body(lang if lang in i18n.LANGUAGES else i18n.DEFAULT)[1].strip('"')


def page_context(request: Request) -> dict[str, Any]:
    """What every page's template needs to speak the reader's language."""
    lang = language(request)
    tr = translator(lang)
    return {
        "lang": lang,
        "strings_version": strings_version(lang),
        "languages": languages(),
        "_": tr.gettext,
        "gettext": tr.gettext,
        "ngettext": tr.ngettext,
        "pgettext": tr.pgettext,
    }
