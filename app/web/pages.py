"""The browser client's pages: home, room (lobby then game), a game's rules, /static.

The pages are thin shells; everything live is drawn by the ES modules in
static/js from the game's content (`/api/games/{game}/content`, fetched once and
cached) and the views the WebSocket pushes.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app import __version__
from app.paths import templates_dir
from app.rooms.errors import PlatformError
from app.rooms.service import RoomService
from app.web.assets import assets
from app.web.games import content_version
from app.web.i18n import page_context

router = APIRouter(tags=["pages"])
templates = Jinja2Templates(directory=str(templates_dir()))
templates.env.globals["asset_version"] = __version__
# Static files under hashed names, cached a year, gzipped (app/web/assets.py).
_assets = assets()
templates.env.globals["asset"] = _assets.url
templates.env.globals["dynamic_assets"] = _assets.dynamic_map()


def _preloads(*entries: str) -> list[str]:
    own = {_assets.url(e) for e in entries}
    found = {href for e in entries for href in _assets.preloads(e)}
    return sorted(found - own)


templates.env.globals["preloads"] = _preloads
router.mount("/static", _assets, name="static")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request) -> Response:
    return _page(request, "home.html", {})


async def _game_loads(request: Request, code: str) -> dict[str, list[str]]:
    """What the room's game needs before its board can be drawn, named in the page so
    that it loads with the platform's modules (issue 31: found by the scripts one import
    after another, it took three round trips more on a first visit): the game's module
    and every module it imports, its style sheets, its content in the page's language,
    the room itself and the game list. Nothing for a room that does not exist (the page says so)."""
    service: RoomService = request.app.state.rooms
    try:
        room = await service.cache.get(code)
    except PlatformError:
        return {}
    game = room.game.id
    entry = f"js/games/{game}/index.js"
    if entry not in _assets.names:
        return {}
    shared = set(_preloads("js/main.js"))
    modules = [_assets.url(entry), *(u for u in _assets.preloads(entry) if u not in shared)]
    styles = sorted(
        _assets.url(p)
        for p in _assets.names
        if p.startswith(f"js/games/{game}/") and p.endswith(".css")
    )
    lang = page_context(request).get("lang", "en")
    content = f"/api/games/{game}/content?lang={lang}&v={content_version(game, lang)}"
    # The room and the game list the script asks for first: neither depends on who asks
    # (a resume link's cookie, set by the script, changes neither), so they are asked with
    # the page, and the socket opens as soon as the scripts run (a round trip less before
    # the first view, issue 31's board at 4x CPU).
    fetches = [content, f"/api/rooms/{quote(room.code, safe='')}", "/api/games"]
    return {"game_modules": modules, "game_styles": styles, "game_content": fetches}


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
async def room(request: Request, code: str) -> Response:
    # Unknown codes still get the page: it asks the API and says "no such room".
    # The page pings three times per idle timeout, so a quiet table is never closed.
    idle = request.app.state.settings.ws_idle_seconds
    ping_ms = int(idle * 1000 / 3) if idle > 0 else 0
    code = code[:64]
    loads = await _game_loads(request, code)
    return _page(request, "room.html", {"code": code, "ping_ms": ping_ms, "replay": False, **loads})


@router.get("/r/{code}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay(request: Request, code: str) -> Response:
    # The room page in replay mode: no socket; the board at any version from the API
    # (`view?at=V`), drawn by the game's own module. `?at=V` opens at that version.
    code = code[:64]
    loads = await _game_loads(request, code)
    return _page(request, "room.html", {"code": code, "ping_ms": 0, "replay": True, **loads})


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, game: str) -> Response:
    # The page's module draws the help from the game's content and its help.js.
    found = next((g for g in RoomService.games() if g["id"] == game), None)
    if found is None:
        return _page(request, "rules.html", {"game": None, "title": None}, status_code=404)
    lang = page_context(request).get("lang", "en")
    title = (found.get("titles") or {}).get(lang) or found.get("title") or game
    return _page(request, "rules.html", {"game": game, "title": title})


@functools.cache
def _content_versions(lang: str) -> str:
    """JSON {game: version of its content in `lang`} for the page's `data-content`."""
    return orjson.dumps(
        {g["id"]: content_version(g["id"], lang) for g in RoomService.games()}
    ).decode()


def _page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> Response:
    """A page in the reader's language (`<html lang>` says which)."""
    shared = page_context(request)
    shared["content_versions"] = _content_versions(shared["lang"])
    response = templates.TemplateResponse(
        request, name, {**context, **shared}, status_code=status_code
    )
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response
