"""The rooms API (API.md): rooms, seats, the game's view, commands and log.

Thin: parse (schemas), authenticate (deps), call `app.rooms.service`, reply.
"""

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from app.rooms import errors, tokens
from app.rooms.errors import PlatformError
from app.rooms.ratelimit import RateLimiter
from app.web import device
from app.web import schemas as S
from app.web.deps import CallerDep, SeatDep, ServiceDep, request_token
from app.web.security import client_address

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

COOKIE_MAX_AGE = 60 * 60 * 24 * 365

Code = Annotated[str, Path(description="the room code")]
SeatIndex = Annotated[int, Path(ge=0, le=5, description="a seat number")]


# Routes where the token is optional (no token: a spectator). OpenAPI: an empty
# requirement next to the Bearer one (appended to FastAPI's list).
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{}]}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """Error answers of a route (every state-changing one may be 403 `forbidden_origin`:
    a browser's request from a page of another origin)."""
    return {status: {"model": S.ErrorOut} for status in (*statuses, 422, 429)}


def _set_seat_cookie(request: Request, response: Response, code: str, token: str) -> None:
    """The seat joins this browser's device cookie (app/web/device.py): one cookie for all
    its rooms, no longer one per room."""
    device.add(request, response, request.app.state.settings, code, token)


def room_quota(rooms_per_hour: int) -> RateLimiter | None:
    """Rooms one client address may create: `rooms_per_hour` at once, then refilled
    over the hour (None: no limit)."""
    if rooms_per_hour <= 0:
        return None
    return RateLimiter(rooms_per_hour / 3600.0, rooms_per_hour)


def room_quota_allows(request: Request) -> bool:
    """Take one room from the quota of the request's address (a new room, or Play again
    opening one); False when it is spent."""
    limiter: RateLimiter | None = getattr(request.app.state, "room_quota", None)
    return limiter is None or limiter.allow(client_address(request.scope))


def _check_room_quota(request: Request) -> None:
    if not room_quota_allows(request):
        raise errors.rooms_quota_spent()


@router.post(
    "",
    status_code=201,
    response_model=S.RoomCreated,
    responses=_errors(400, 403, 413),
    summary="Create a room; the creator takes seat 0 and is the host",
)
async def create_room(
    body: S.CreateRoom, request: Request, response: Response, service: ServiceDep
) -> S.RoomCreated:
    _check_room_quota(request)
    code, token = await service.create_room(body.name, body.options, body.game)
    _set_seat_cookie(request, response, code, token)
    return S.RoomCreated(code=code, url=f"/r/{code}", seat=S.SeatToken(index=0, token=token))


@router.get("/{code}", response_model=S.RoomOut, responses=_errors(404), summary="A room")
async def get_room(code: Code, service: ServiceDep) -> dict[str, Any]:
    return await service.room_info(code)


@router.post(
    "/{code}/seats",
    status_code=201,
    response_model=S.SeatJoined,
    responses=_errors(403, 404, 409),
    summary="Take the next free seat (409 room_full / room_started)",
)
async def join_room(
    code: Code, body: S.JoinRoom, request: Request, response: Response, service: ServiceDep
) -> S.SeatJoined:
    index, token = await service.join(code, body.name)
    _set_seat_cookie(request, response, code, token)
    return S.SeatJoined(seat=S.SeatToken(index=index, token=token))


@router.delete(
    "/{code}/seats/{index}",
    response_model=S.RoomOut,
    responses=_errors(401, 403, 404, 409),
    summary="Host: free a seat before the start (later seats move down one)",
)
async def remove_seat(index: SeatIndex, caller: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.remove_seat(caller, index)


@router.post(
    "/{code}/bots",
    status_code=201,
    response_model=S.BotAdded,
    responses=_errors(401, 403, 404, 409),
    summary="Host: seat a bot",
)
async def add_bot(caller: SeatDep, service: ServiceDep, body: S.AddBot | None = None) -> S.BotAdded:
    index = await service.add_bot(caller, body.name if body else None, body.level if body else None)
    return S.BotAdded(seat=S.BotSeat(index=index))


@router.put(
    "/{code}/seats/{index}/level",
    response_model=S.RoomOut,
    responses=_errors(400, 401, 403, 404, 409),
    summary="Host: a bot seat's level (easy, normal, hard), in the lobby",
)
async def set_bot_level(
    index: SeatIndex, body: S.SetBotLevel, caller: SeatDep, service: ServiceDep
) -> dict[str, Any]:
    return await service.set_bot_level(caller, index, body.level)


@router.put(
    "/{code}/options",
    response_model=S.RoomOut,
    responses=_errors(400, 401, 403, 404, 409),
    summary="Host: change the room options in the lobby",
)
async def set_options(body: S.SetOptions, caller: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.set_options(caller, body.options)


@router.post(
    "/{code}/start",
    response_model=S.RoomOut,
    responses=_errors(400, 401, 403, 404, 409),
    summary="Host: start the game (options given here override the room's)",
)
async def start_game(
    caller: SeatDep, service: ServiceDep, body: S.StartGame | None = None
) -> dict[str, Any]:
    return await service.start(caller, body.options if body else None)


@router.post(
    "/{code}/session",
    response_model=S.Me,
    responses=_errors(401, 403, 404),
    summary="Set this browser's seat cookie from a Bearer token (resume on another device)",
)
async def open_session(code: Code, caller: SeatDep, request: Request, response: Response) -> S.Me:
    assert caller.seat is not None
    header = request.headers["authorization"]
    _set_seat_cookie(request, response, code, header.partition(" ")[2].strip())
    return _me(caller)


@router.get(
    "/{code}/me",
    response_model=S.Me,
    responses=_errors(401, 404),
    summary="The caller's seat (null for a spectator)",
    openapi_extra=OPTIONAL_TOKEN,
)
async def me(code: Code, request: Request, response: Response, service: ServiceDep) -> S.Me:
    token = request_token(request, code)
    try:
        caller = await service.authenticate(code, token)
    except PlatformError as e:
        if e.code != "bad_token" or "authorization" in request.headers:
            raise
        # A seat this browser's cookies still name but no longer holds (it left the game,
        # the host removed it): forgotten, and the page watches as a spectator.
        device.forget(request, response, request.app.state.settings, code)
        response.delete_cookie(tokens.cookie_name(code), path="/")
        return S.Me(seat=None)
    return _me(caller)


def _me(caller: Any) -> S.Me:
    seat = caller.seat
    if seat is None:
        return S.Me(seat=None)
    return S.Me(seat=S.MySeat(index=seat.index, name=seat.name, host=seat.host, bot=seat.bot))


@router.get(
    "/{code}/view",
    response_model=S.ViewOut,
    responses=_errors(400, 401, 403, 404, 409),
    summary="The caller's view of the game (a spectator's without a token)",
    openapi_extra=OPTIONAL_TOKEN,
)
async def get_view(
    caller: CallerDep,
    service: ServiceDep,
    at: Annotated[
        int | None,
        Query(
            ge=-S.INT32_MAX,
            le=S.INT32_MAX,
            description="a replay: the view as it was at this version (0..version, else 400"
            " bad_version)",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        Query(
            ge=0,
            le=5,
            description="with `at`, once the game is over: this seat's view (any caller)",
        ),
    ] = None,
) -> Response:
    if at is None:
        return Response(await service.view_json(caller), media_type="application/json")
    data = await service.view_at(caller, at, seat)
    return Response(data, media_type="application/json", headers={"Cache-Control": "no-store"})


@router.get(
    "/{code}/replay",
    response_model=S.ReplayOut,
    responses=_errors(401, 404, 409),
    summary="A replay's outline: the stored version, whether the game is over, its turns",
    openapi_extra=OPTIONAL_TOKEN,
)
async def replay_outline(caller: CallerDep, service: ServiceDep) -> dict[str, Any]:
    return await service.replay_outline(caller)


@router.post(
    "/{code}/commands",
    response_model=S.CommandOut,
    responses=_errors(400, 401, 403, 404, 409, 413),
    summary="Send one command of the caller's seat",
)
async def send_command(body: S.CommandIn, caller: SeatDep, service: ServiceDep) -> S.CommandOut:
    result = await service.command(caller, body.id, body.command, body.expected_version)
    return S.CommandOut(version=result.version, events=result.events, duplicate=result.duplicate)


@router.post(
    "/{code}/undo",
    response_model=S.CommandOut,
    responses=_errors(401, 403, 404, 409, 413),
    summary="Take back the caller's last command, when it revealed nothing (409 not_undoable)",
)
async def undo(caller: SeatDep, service: ServiceDep, body: S.UndoIn | None = None) -> S.CommandOut:
    body = body or S.UndoIn()
    command_id = body.id or f"take-back-{uuid.uuid4()}"
    result = await service.take_back(caller, command_id, body.expected_version)
    return S.CommandOut(version=result.version, events=result.events, duplicate=result.duplicate)


@router.get(
    "/{code}/coach",
    response_model=S.CoachOut,
    responses=_errors(401, 404, 409),
    summary="What would you do? The hard bot's advice for the caller's seat (room option coach)",
)
async def get_coach(
    caller: SeatDep,
    service: ServiceDep,
    lang: Annotated[str, Query(max_length=8, description="the reason's language (en, fr)")] = "en",
) -> dict[str, Any]:
    return await service.coach(caller, lang)


@router.get(
    "/{code}/log",
    response_model=S.LogOut,
    responses=_errors(401, 404),
    summary="The log after a version, filtered to what the caller may see",
    openapi_extra=OPTIONAL_TOKEN,
)
async def get_log(
    caller: CallerDep,
    service: ServiceDep,
    after: Annotated[
        int, Query(ge=0, le=S.INT32_MAX, description="entries with a greater version")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=5000, description="at most this many")] = 5000,
) -> dict[str, Any]:
    return {"entries": await service.log_entries(caller, after, limit)}
