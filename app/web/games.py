"""The games this server hosts: `GET /api/games` and each game's client content."""

from __future__ import annotations

import functools
import gzip
import hashlib
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, FastAPI, Path, Query, Request, Response

from app.games import i18n
from app.rooms.service import RoomService
from app.web import schemas as S

router = APIRouter(tags=["games"])

DEFAULT_GAME = "karanor"  # what `/api/content` (the first client's route) serves
LANG = "the language of the texts: en (default) or fr; any other value gives English"


@router.get("/api/games", response_model=S.GamesOut, summary="The games this server hosts")
def list_games() -> dict[str, Any]:
    return {"games": RoomService.games()}


@functools.lru_cache(maxsize=16)
def _content_bytes(game: str, lang: str) -> tuple[bytes, str]:
    body = orjson.dumps(RoomService.catalogue(game, lang), option=orjson.OPT_NON_STR_KEYS)
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@functools.lru_cache(maxsize=16)
def _content_gzipped(game: str, lang: str) -> bytes:
    """The content gzipped once (level 9), not at every answer."""
    return gzip.compress(_content_bytes(game, lang)[0], 9, mtime=0)


IMMUTABLE = "public, max-age=31536000, immutable"


def content_version(game: str, lang: str) -> str:
    """The version of a game's content in `lang` (its ETag's hash): a page asks for
    `...content?lang=L&v=VERSION`, cacheable for a year."""
    return _content_bytes(game, lang)[1].strip('"')


def _content(request: Request, game: str, lang: str | None) -> Response:
    chosen = lang if lang in i18n.LANGUAGES else i18n.DEFAULT
    body, etag = _content_bytes(game, chosen)
    # Asked by its version (the page names it): the answer never changes, cached a year.
    versioned = request.query_params.get("v") == etag.strip('"')
    headers = {
        "ETag": etag,
        "Cache-Control": IMMUTABLE if versioned else "public, max-age=300",
        "Vary": "Accept-Encoding",
    }
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = _content_gzipped(game, chosen)
    return Response(body, media_type="application/json", headers=headers)


_CONTENT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {}}},
    304: {"description": "unchanged"},
    404: {"model": S.ErrorOut},
}


@router.get(
    "/api/games/{game}/content",
    summary="A game's content for the browser: its board and every card with its text",
    responses=_CONTENT_RESPONSES,
)
def game_content(
    request: Request,
    game: Annotated[str, Path(max_length=32)],
    lang: Annotated[str | None, Query(max_length=16, description=LANG)] = None,
) -> Response:
    return _content(request, game, lang)


@router.get(
    "/api/content",
    summary="Merchants of Karanor's content (the same as /api/games/karanor/content)",
    responses=_CONTENT_RESPONSES,
)
def content(
    request: Request, lang: Annotated[str | None, Query(max_length=16, description=LANG)] = None
) -> Response:
    return _content(request, DEFAULT_GAME, lang)


def document_commands(app: FastAPI) -> None:
    """Show every hosted game's commands in the OpenAPI schema of `CommandIn.command`."""
    base = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = base()
        defs = schema.setdefault("components", {}).setdefault("schemas", {})
        variants = []
        for command_schema in RoomService.command_schemas():
            command = dict(command_schema)
            for name, definition in command.pop("$defs", {}).items():
                defs[name] = definition
            variants.append(command)
        target = defs.get("CommandIn", {}).get("properties", {}).get("command")
        if target is not None and variants:
            target["anyOf"] = _relink(variants)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _relink(value: Any) -> Any:
    """`#/$defs/X` references (pydantic's) -> `#/components/schemas/X` (OpenAPI's)."""
    if isinstance(value, dict):
        return {
            k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else _relink(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_relink(v) for v in value]
    return value
