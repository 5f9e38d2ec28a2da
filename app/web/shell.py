"""The installable app's shell (issue 29): the web app manifest, the service worker at
the site's root (so its scope covers every page) and the page it shows when the server
cannot be reached. The worker also shows Web Push notices and opens the room on a click."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from app.paths import static_dir
from app.web.i18n import language, translator
from app.web.pages import _page

router = APIRouter(tags=["pages"])

THEME = "#144e5e"


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest(request: Request) -> Response:
    """What a phone needs to add the site to its home screen, in the reader's language."""
    lang = language(request)
    _ = translator(lang).gettext
    body = {
        "name": "Karanor Online",
        "short_name": "Karanor",
        "description": _("Board games played with friends in the browser."),
        "lang": lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any maskable"},
            {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any maskable"},
            {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }  # fmt: skip
    headers = {"Cache-Control": "public, max-age=300", "Vary": "Accept-Language, Cookie"}
    return JSONResponse(body, media_type="application/manifest+json", headers=headers)


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    """The service worker, from the root: its scope is the whole site. Never cached long,
    so a new version reaches browsers at their next visit."""
    return FileResponse(
        static_dir() / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline", response_class=HTMLResponse, include_in_schema=False)
def offline(request: Request) -> Response:
    """The page the service worker keeps and shows when the server is not reachable."""
    return _page(request, "offline.html", {})
