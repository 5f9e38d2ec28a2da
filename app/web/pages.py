"""The browser client's pages: home, room (lobby then game), /static.

The pages are thin shells; everything live is drawn by the ES modules in
static/js from the game's content (`/api/games/{game}/content`, fetched once and
cached) and the views the WebSocket pushes.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app import __version__
from app.paths import static_dir, templates_dir

router = APIRouter(tags=["pages"])
templates = Jinja2Templates(directory=str(templates_dir()))
templates.env.globals["asset_version"] = __version__
router.mount("/static", StaticFiles(directory=str(static_dir())), name="static")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request) -> Response:
    return templates.TemplateResponse(request, "home.html", {})


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
def room(request: Request, code: str) -> Response:
    # Unknown codes still get the page: it asks the API and says "no such room".
    # The page pings three times per idle timeout, so a quiet table is never closed.
    idle = request.app.state.settings.ws_idle_seconds
    ping_ms = int(idle * 1000 / 3) if idle > 0 else 0
    return templates.TemplateResponse(request, "room.html", {"code": code[:64], "ping_ms": ping_ms})
