"""The browser client's pages: home, room (lobby then game), a game's rules, /static.

The pages are thin shells; everything live is drawn by the ES modules in
static/js from the game's content (`/api/games/{game}/content`, fetched once and
cached) and the views the WebSocket pushes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app import __version__
from app.paths import static_dir, templates_dir
from app.rooms.service import RoomService
from app.web.i18n import page_context

router = APIRouter(tags=["pages"])
templates = Jinja2Templates(directory=str(templates_dir()))
templates.env.globals["asset_version"] = __version__
router.mount("/static", StaticFiles(directory=str(static_dir())), name="static")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request) -> Response:
    return _page(request, "home.html", {})


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
def room(request: Request, code: str) -> Response:
    # Unknown codes still get the page: it asks the API and says "no such room".
    # The page pings three times per idle timeout, so a quiet table is never closed.
    idle = request.app.state.settings.ws_idle_seconds
    ping_ms = int(idle * 1000 / 3) if idle > 0 else 0
    return _page(request, "room.html", {"code": code[:64], "ping_ms": ping_ms})


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, game: str) -> Response:
    # The page's module draws the help from the game's content and its help.js.
    found = next((g for g in RoomService.games() if g["id"] == game), None)
    if found is None:
        return _page(request, "rules.html", {"game": None, "title": None}, status_code=404)
    return _page(request, "rules.html", {"game": game, "title": found.get("title") or game})


def _page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> Response:
    """A page in the reader's language (`<html lang>` says which)."""
    response = templates.TemplateResponse(
        request, name, {**context, **page_context(request)}, status_code=status_code
    )
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response
