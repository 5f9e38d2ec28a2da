"""The browser client's pages: home, room (lobby then game), the content JSON, /static.

The pages are thin shells; everything live is drawn by the ES modules in
static/js from `/api/content` (map + card texts, fetched once and cached) and
the views the WebSocket pushes.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app import __version__
from app.karanor import content as karanor_content
from app.karanor import texts
from app.paths import static_dir, templates_dir

router = APIRouter(tags=["pages"])
templates = Jinja2Templates(directory=str(templates_dir()))
templates.env.globals["asset_version"] = __version__
router.mount("/static", StaticFiles(directory=str(static_dir())), name="static")

CONTENT_PACK = "base"


def content_json(pack: str = CONTENT_PACK) -> dict[str, Any]:
    """What the client needs to draw the map and explain every card."""
    c = karanor_content.load(pack)
    m = c.map
    return {
        "pack": c.name,
        "map": {
            "width": m.width,
            "height": m.height,
            "territories": [t.model_dump() for t in m.territories],
            "land": [list(pair) for pair in m.land],
            "sea_routes": [list(pair) for pair in m.sea_routes],
            "coast": [[list(pt) for pt in line] for line in m.coast],
            "cities": list(c.cities),
        },
        "rules": c.rules.model_dump(),
        "resources": list(karanor_content.RESOURCES),
        "villas": dict(c.villa_name),
        "catalogue": texts.catalogue(c),
    }


@functools.lru_cache(maxsize=4)
def _content_bytes(pack: str) -> tuple[bytes, str]:
    body = orjson.dumps(content_json(pack), option=orjson.OPT_NON_STR_KEYS)
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


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


@router.get(
    "/api/content",
    summary="The game's content: map, rules numbers and every card with its rules text",
    responses={200: {"content": {"application/json": {}}}, 304: {"description": "unchanged"}},
)
def content(request: Request) -> Response:
    body, etag = _content_bytes(CONTENT_PACK)
    headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
